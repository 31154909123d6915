"""Quick taps on a slow line all count (the front end loses no press).

While a message to the kernel is unanswered, ipywidgets keeps only the newest
write of a trait, and every page event is a write of the one ``event`` trait:
three quick taps on a slow kernel or a slow school network became two.  Here
the line between a real Voila kernel and Chromium is slowed by hand: the
kernel's answers are held back while the child places the three labels of a
setup roll, then let through.  Every label must land, in the order tapped,
and the page must say it is waiting meanwhile (``aria-busy`` on the board).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from caterpillar_learn.caterpillars import SetupChoice

from .conftest import Server
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, Player, box_id, open_lesson

pytestmark = pytest.mark.browser

LESSON = "00-setup"
KERNEL_LINE = re.compile(r"/api/kernels/[^/]+/channels")


@dataclass
class SlowLine:
    """The kernel's websockets, with a tap that holds what the kernel says until :meth:`release`."""

    holding: bool = False
    held: list[tuple[WebSocketRoute, str | bytes]] = field(default_factory=list)

    def route(self, page_side: WebSocketRoute) -> None:
        kernel_side = page_side.connect_to_server()  # what the page sends goes on untouched
        kernel_side.on_message(lambda message: self.from_kernel(page_side, message))

    def from_kernel(self, page_side: WebSocketRoute, message: str | bytes) -> None:
        if self.holding:
            self.held.append((page_side, message))
        else:
            page_side.send(message)

    def answered(self) -> bool:
        """The kernel has answered a tap (its ``handled`` count went up) and the answer is held here."""
        texts = (m if isinstance(m, str) else m.decode("utf-8", "replace") for _, m in self.held)
        return any('"handled"' in message for message in texts)

    def release(self) -> None:
        self.holding = False
        for page_side, message in self.held:
            page_side.send(message)
        self.held.clear()


def test_three_quick_taps_on_a_slow_line_all_land(page: Page, lessons_server: Server) -> None:
    line = SlowLine()
    page.context.route_web_socket(KERNEL_LINE, line.route)
    page.goto(lessons_server.url)
    lesson = open_lesson(page, LESSON)
    expect(lesson.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
    player = Player.for_lesson(lesson, LESSON)
    player.roll()
    dice = player.game.roll().dice
    blanks = player.game.state.blank_label_slots()[:3]

    line.holding = True
    for slot in blanks:
        player.by_id(box_id(slot)).click()
    board = lesson.locator(".cl-root")
    expect(board).to_have_attribute("aria-busy", "true")
    deadline = time.monotonic() + CLICK_TIMEOUT / 1000
    while not line.answered():  # the first tap's answer, held; the page keeps the other taps until it comes
        assert time.monotonic() < deadline, "no answer to a tap was held: the line was not slowed"
        lesson.wait_for_timeout(50)  # poll: Playwright hands the kernel's messages to the route only while it waits
    line.release()

    choice = SetupChoice(tuple(sorted(zip(blanks, dice))))
    for slot, value in choice.assignments:
        expect(player.by_id(box_id(slot))).to_have_attribute(
            "aria-label", re.compile(rf"label {value},"), timeout=CLICK_TIMEOUT
        )
    expect(board).not_to_have_attribute("aria-busy", "true", timeout=CLICK_TIMEOUT)
