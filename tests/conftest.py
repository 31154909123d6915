"""Fixtures shared by every test folder.

``browser``: Debian's Chromium driven by Playwright, one per test session.
Playwright's sync API allows one driver per thread, so every browser test
(tests/browser, tests/ui, tests/raupe_ui) shares this one instead of
starting its own.  Playwright never downloads a browser here.

Its pages ask for reduced motion (:class:`StillBrowser`): the pulse of the thing
to do now repaints a page sixty times a second, which in headless Chromium's
software renderer costs 16-25 % of a core for every lesson page left open, and
the suite keeps hundreds of them open for seconds each.  A test that looks at
the motion itself asks for it (``reduced_motion="no-preference"``, as
``tests/browser/test_print_lessons.py`` does for the pulse).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class StillBrowser:
    """The session's Chromium, whose new contexts and pages ask for reduced motion unless told otherwise.

    Everything else is the Playwright ``Browser`` it wraps.
    """

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")
        return self._browser.new_context(**options)

    def new_page(self, **options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")
        return self._browser.new_page(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield StillBrowser(launched)
        finally:
            launched.close()
