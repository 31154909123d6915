"""Culling seen from a real browser: an open lesson keeps its kernel, a closed one loses it.

jupyter_server's culler is set to stop only kernels no page is connected to
(``cull_connected=False``): a pupil who thinks for longer than the idle time
keeps the game.  Closing the page without the page's own goodbye (as a
tablet does when it drops a tab) leaves the kernel to the culler.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.driver import RENDER_TIMEOUT

from .conftest import kernel_count, start_serve, wait_for_kernels
from .test_serve import CULL_SLACK

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Long enough for the page to connect on a loaded machine before its kernel could be culled.
CULL_AFTER = 10


def test_an_open_lesson_keeps_its_kernel_and_a_closed_one_is_culled(
    browser: Browser, tmp_path: Path, served: list
) -> None:
    server, url = start_serve(["--port", "0", "--cull-after", str(CULL_AFTER)], tmp_path, tmp_path / "serve.log")
    served.append(server)
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}voila/render/01-beginner.ipynb")
    expect(page.get_by_test_id("roll-button")).to_be_enabled(timeout=RENDER_TIMEOUT)
    assert kernel_count(server) == 1

    time.sleep(CULL_AFTER + 4)  # time itself: several passes of the culler over an idle, connected kernel
    assert kernel_count(server) == 1, server.log_tail()
    page.get_by_test_id("roll-button").click()
    expect(page.get_by_test_id("die-0")).to_be_visible()

    context.close()  # no beforeunload: the page never says goodbye
    assert wait_for_kernels(server, 0, CULL_AFTER + CULL_SLACK) == 0, server.log_tail()
    assert "Culling 'idle' kernel" in server.log.read_text(errors="replace")
