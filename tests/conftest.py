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

``solve_cache``: the session's one folder of solved layouts
(:mod:`caterpillar_learn.advice.disk_cache`), shared by every pytest-xdist
worker and every lesson server of the session, so a lesson's layout is solved
once a session instead of once a process (a board starts its layout's exact
solve as it is made: tests/ui/conftest.py).  Tests opt in; the tests of the
solve itself (``tests/ui/test_background_solve.py``, ``tests/hosting/test_shared_solves.py``)
keep folders of their own or none.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
#: Names the session's solve cache folder to the pytest-xdist workers, which start with the controller's
#: environment (the solver itself reads :data:`caterpillar_learn.advice.disk_cache.ENV`, set by the fixture).
SESSION_SOLVES = "CATERPILLAR_LEARN_TEST_SOLVES"
_made_here: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """The controller (or a run without workers) makes the session's solve cache folder."""
    if not hasattr(config, "workerinput") and not os.environ.get(SESSION_SOLVES):
        folder = tempfile.mkdtemp(prefix="caterpillar-learn-test-solves-")
        os.environ[SESSION_SOLVES] = folder
        _made_here.append(folder)


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _made_here:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(SESSION_SOLVES, None)


#: The longest test files, longest first (seconds of one worker beside three others, fresh clones' runs of
#: 2026-12-05): pytest-xdist hands them out first, so none of them begins when the others are nearly done
#: (the longest processing time first: the files left at the end are the short ones).
LONGEST = (
    "tests/browser/test_raupe_screen.py",  # 140 s
    "tests/browser/test_practice_walk.py",  # 127 s
    "tests/browser/test_lessons.py",  # 105 s
    "tests/browser/test_board_feel.py",  # 100 s
    "tests/browser/test_classroom.py",  # 94 s
    "tests/browser/test_accessibility.py",  # 93 s
    "tests/browser/test_child_walk.py",  # 82 s
    "tests/classroom/test_hint_workers.py",  # 75 s
    "tests/binder/test_binder.py",  # 58 s
    "tests/hub/test_jupyterhub.py",  # 57 s
    "tests/browser/test_voila_resume.py",  # 55 s
    "tests/hosting/test_shared_solves.py",  # 54 s
    "tests/browser/test_raupe_game_feel.py",  # 52 s
    "tests/browser/test_lesson_room.py",  # 51 s
    "tests/browser/test_lesson_file_walk.py",  # 45-60 s
    "tests/hosting/test_serve.py",  # 48 s
    "tests/classroom/test_memory.py",  # 47 s
    "tests/classroom/test_private_clone.py",  # 45 s
    "tests/browser/test_read_aloud.py",  # 42 s
    "tests/puzzles/test_bank.py",  # 30-40 s (the bank's sample solved again)
    "tests/packaging/test_wheel.py",  # 36-46 s
    "tests/hosting/test_gallery.py",  # 38 s
    "tests/browser/test_console_in_place.py",  # 37 s
    "tests/browser/test_print_classroom.py",  # 36 s
    "tests/hosting/test_serve_browser.py",  # 34 s
    "tests/browser/test_jupyterlab.py",  # 34 s
    "tests/browser/test_in_place.py",  # 29-35 s
    "tests/ui/test_lesson_follows.py",  # 33 s
    "tests/advice/test_strategy_claims.py",  # 27 s
    "tests/test_hostile_input.py",  # 25 s
    "tests/ui/test_front_end.py",  # 25 s
    "tests/lessons/test_notebooks.py",  # 24 s
    "tests/ui/test_resume.py",  # 23 s
    "tests/classroom/test_server.py",  # 24 s
    "tests/lessons/test_scenarios.py",  # 23 s
    "tests/practice/test_ideas.py",  # 22 s
    "tests/advice/test_claims.py",  # 22 s
    "tests/hosting/test_exposure.py",  # 21 s
    "tests/advice/test_solver.py",  # 21 s
    "tests/hosting/test_light_pages.py",  # 20 s
    "tests/advice/test_progress.py",  # 18 s
    "tests/browser/test_classroom_german.py",  # 16 s
    "tests/browser/test_classroom_qr.py",  # 15 s
    "tests/raupe_ui/test_fair.py",  # 15 s
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of long tests first, the longest of them (:data:`LONGEST`) first of all, then the other files
    of tests marked ``browser`` or ``slow``; each file's tests in their own order.

    pytest-xdist hands whole files to its workers in this order (``--dist loadfile --no-loadscope-reorder``;
    by default it would sort the files by how many tests they hold), so the walks and the servers start while
    every worker is busy, and the last minutes are the many short tests, not a walk that began when the
    others had run out of work.
    """
    root = Path(str(config.rootpath))
    rank = {root / name: place for place, name in enumerate(LONGEST)}
    long_files = {item.path for item in items if item.get_closest_marker("browser") or item.get_closest_marker("slow")}
    items.sort(key=lambda item: rank.get(item.path, len(LONGEST) + (item.path not in long_files)))


def session_solves() -> Path:
    """The session's solve cache folder (``--solve-cache`` of the lesson servers the tests start)."""
    return Path(os.environ[SESSION_SOLVES])


@pytest.fixture
def solve_cache(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The session's solve cache, named to the solver (and to the kernels the test starts) for this test."""
    from caterpillar_learn.advice import disk_cache

    folder = session_solves()
    monkeypatch.setenv(disk_cache.ENV, str(folder))
    return folder


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
