"""A page that loses the classroom server says so, and comes back by itself once the server is back.

``caterpillar-learn classroom`` runs on a free port; Chromium opens the
pupils' door and the teacher's console, the server is killed (SIGKILL, as a
crash or a pulled plug would), and both pages must show "Connection lost —
trying again…" (``role="alert"``) within 5 s.  The server is started again
on the same port with the same data folder, and both pages must reload
themselves and work: the door's form and the console's button are back.
The pages' Content-Security-Policy must let them work without a single
violation (each is recorded by the page itself).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from caterpillar_learn.i18n import text

from .conftest import Server, cli_command, free_port, printed_address, start_server
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT

pytestmark = pytest.mark.browser

#: The issue's bound: the words are on the page this long after the server went.
NOTICE_WITHIN_MS = 5_000

#: Every Content-Security-Policy violation the page sees, kept where the test can read it.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});
"""


def _start(folder: Path, port: int, log: str) -> Server:
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(folder / "data")]
    return start_server(cmd, f"http://127.0.0.1:{port}/join", folder / log)


def _kill(server: Server) -> None:
    os.killpg(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=30)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    opened = browser.new_context(viewport={"width": 1280, "height": 1000})
    opened.set_default_timeout(CLICK_TIMEOUT)
    opened.add_init_script(RECORD_VIOLATIONS)
    try:
        yield opened
    finally:
        opened.close()


def _violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__violations || []")
    return found


def test_a_page_that_lost_the_server_says_so_and_reloads_once_it_is_back(
    context: BrowserContext, tmp_path: Path
) -> None:
    port = free_port()
    server = _start(tmp_path, port, "first.log")
    again: Server | None = None
    try:
        teacher_address = printed_address(server, "Teacher (keep this address to yourself):")
        door, teacher = context.new_page(), context.new_page()
        door.goto(f"http://127.0.0.1:{port}/join", timeout=RENDER_TIMEOUT)
        teacher.goto(teacher_address, timeout=RENDER_TIMEOUT)
        expect(door.get_by_test_id("join-button")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(teacher.get_by_test_id("create-room")).to_be_visible(timeout=RENDER_TIMEOUT)
        for page in (door, teacher):
            expect(page.get_by_test_id("connection-lost")).to_have_count(0)
            page.evaluate("window.__before_the_loss = true")
        assert _violations(door) == [] and _violations(teacher) == []

        _kill(server)
        for page in (door, teacher):
            notice = page.get_by_test_id("connection-lost")
            expect(notice).to_be_visible(timeout=NOTICE_WITHIN_MS)
            expect(notice).to_have_attribute("role", "alert")
            expect(notice).to_have_text(text("classroom.connection.lost"))

        again = _start(tmp_path, port, "second.log")  # the same port and data: the same addresses
        for page in (door, teacher):
            page.wait_for_function("() => window.__before_the_loss === undefined", timeout=RENDER_TIMEOUT)
            expect(page.get_by_test_id("connection-lost")).to_have_count(0, timeout=RENDER_TIMEOUT)
        expect(door.get_by_test_id("join-button")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(teacher.get_by_test_id("create-room")).to_be_visible(timeout=RENDER_TIMEOUT)
        teacher.get_by_test_id("create-room").click()
        expect(teacher.get_by_test_id("room-code")).to_be_visible(timeout=RENDER_TIMEOUT)
        assert _violations(door) == [] and _violations(teacher) == []
    finally:
        if server.process.poll() is None:
            server.stop()
        if again is not None:
            again.stop()
