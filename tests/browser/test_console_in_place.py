"""The teacher's console draws in place: a push from the server leaves a pupil's row the same node.

Issue 28: the console was rebuilt on every push (up to four a second) and
restored the focus by ``data-testid``, which every row shares.  With four
pupils, the focus on the fourth one's Remove, a fifth joined, Enter: the
FIRST pupil was removed.  And a mouse press was lost when a push replaced
the button between press and release.  Here a room has five pupils (joined
over Bokeh's protocol, :class:`~tests.classroom.probe.PageClient`); a sixth
joins while the teacher's hand is on the fourth pupil's row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.classroom.probe import PageClient

from .axe import describe_violations, run_axe
from .conftest import Server, printed_address, start_classroom
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The room's pupils, in the order they join; the fourth is the one the teacher's hand is on.
FIVE = ("Ada", "Ben", "Cleo", "Dev", "Eli")
FOURTH = FIVE[3]
#: The pupil who joins meanwhile (first in the alphabet, should the console ever sort by name).
LATE = "Aaron"


class Room:
    """A classroom server, the teacher's console on one room, and the pupils' pages (over the protocol)."""

    def __init__(self, server: Server, teacher: Page) -> None:
        self.server = server
        self.teacher = teacher
        self.pupils: dict[str, PageClient] = {}
        teacher.goto(printed_address(server, "Teacher (keep this address to yourself):"), timeout=RENDER_TIMEOUT)
        teacher.get_by_test_id("create-room").click(timeout=RENDER_TIMEOUT)
        self.code = teacher.get_by_test_id("room-code").inner_text()
        assert re.fullmatch(r"[A-Z0-9]{6}", self.code), self.code
        for nickname in FIVE:
            self.join(nickname)

    @property
    def base(self) -> str:
        return re.sub(r"^(https?://[^/]+).*$", r"\1", self.teacher.url)

    def join(self, nickname: str) -> None:
        """A pupil joins (a push to the console); returns once the console shows them."""
        page = PageClient(f"{self.base}/join", {"room": self.code})
        self.pupils[nickname] = page
        page.send("JoinWidget", "join", code=self.code, nickname=nickname)
        assert page.wait(lambda: page.model("ClassroomBoard") is not None, timeout=30), nickname
        expect(self.row(nickname)).to_have_count(1, timeout=CLICK_TIMEOUT)

    def row(self, nickname: str) -> Locator:
        return self.teacher.locator(f'[data-testid="pupil"][data-nickname="{nickname}"]')

    def door(self, nickname: str) -> str:
        """What the pupil's page shows of the door: "joined", or "removed" once the teacher took them out."""
        return str((self.pupils[nickname].trait("JoinWidget", "door") or {}).get("state", ""))

    def close(self) -> None:
        for page in self.pupils.values():
            page.close()


@pytest.fixture
def room(browser: Browser, tmp_path: Path) -> Iterator[Room]:
    server = start_classroom(tmp_path)
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(CLICK_TIMEOUT)
    opened: Room | None = None
    try:
        opened = Room(server, context.new_page())
        expect(opened.teacher.get_by_test_id("pupil")).to_have_count(len(FIVE))
        yield opened
    finally:
        if opened is not None:
            opened.close()
        context.close()
        server.stop()


def hold(target: Locator) -> None:
    """Keep a handle on the element itself (not a selector): `same(target)` asks whether it is still that node."""
    target.evaluate("node => { window.__held = node; }")


def same(target: Locator) -> bool:
    return bool(target.evaluate("node => node === window.__held && node.isConnected"))


def test_the_focus_stays_on_the_fourth_pupil_s_remove_through_a_push_and_enter_removes_that_pupil(room: Room) -> None:
    teacher = room.teacher
    remove = room.row(FOURTH).get_by_test_id("remove-pupil")
    remove.focus()
    expect(remove).to_be_focused()
    hold(remove)

    room.join(LATE)  # (a) a push: the same button, still focused
    expect(teacher.get_by_test_id("pupil")).to_have_count(len(FIVE) + 1)
    expect(remove).to_be_focused()
    assert same(remove), "the push replaced the fourth pupil's Remove"

    # (b) Enter asks in the fourth pupil's own row, and No has the focus: a second Enter would not remove anyone.
    teacher.keyboard.press("Enter")
    ask = room.row(FOURTH).get_by_test_id("remove-ask")
    expect(ask).to_have_text(f"Remove {FOURTH}?")
    expect(room.row(FOURTH).get_by_test_id("remove-no")).to_be_focused()
    expect(teacher.get_by_test_id("remove-ask")).to_have_count(1)
    expect(teacher.get_by_test_id("pupil")).to_have_count(len(FIVE) + 1)  # nobody removed yet
    teacher.keyboard.press("Shift+Tab")
    expect(room.row(FOURTH).get_by_test_id("remove-yes")).to_be_focused()
    teacher.keyboard.press("Enter")

    expect(room.row(FOURTH)).to_have_count(0)
    expect(teacher.get_by_test_id("pupil")).to_have_count(len(FIVE))
    for nickname in (LATE, *FIVE):
        if nickname != FOURTH:
            expect(room.row(nickname)).to_have_count(1)
    assert room.pupils[FOURTH].wait(lambda: room.door(FOURTH) == "removed", timeout=10), room.door(FOURTH)
    assert room.door(FIVE[0]) != "removed"  # the first pupil is still in


def test_the_question_stays_in_the_fourth_pupil_s_row_through_a_push_and_no_keeps_them(
    room: Room, axe_script: str
) -> None:
    teacher = room.teacher
    room.row(FOURTH).get_by_test_id("remove-pupil").click()
    no = room.row(FOURTH).get_by_test_id("remove-no")
    expect(no).to_be_focused()
    for target in ("remove-yes", "remove-no"):  # a finger's size, on a tablet too
        box = room.row(FOURTH).get_by_test_id(target).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (target, box)
    refused = describe_violations(run_axe(teacher, axe_script))  # the question in a row of the list: no violation
    assert not refused, "\n".join(refused)
    hold(no)
    room.join(LATE)
    expect(no).to_be_focused()
    assert same(no), "the push replaced the question's No"
    teacher.keyboard.press("Escape")  # Escape is No
    expect(teacher.get_by_test_id("remove-ask")).to_have_count(0)
    expect(room.row(FOURTH).get_by_test_id("remove-pupil")).to_be_focused()
    expect(teacher.get_by_test_id("pupil")).to_have_count(len(FIVE) + 1)


def test_a_press_held_on_the_fourth_pupil_s_rename_across_a_push_opens_that_pupil_s_rename(room: Room) -> None:
    teacher = room.teacher
    rename = room.row(FOURTH).get_by_test_id("rename-pupil")
    box = rename.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box
    hold(rename)
    teacher.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    teacher.mouse.down()
    room.join(LATE)  # a push between the press and the release
    expect(teacher.get_by_test_id("pupil")).to_have_count(len(FIVE) + 1)
    kept = same(rename)
    teacher.mouse.up()

    field = room.row(FOURTH).get_by_test_id("rename-nickname")
    expect(field).to_be_visible()
    expect(field).to_have_value(FOURTH)
    expect(field).to_be_focused()
    expect(teacher.get_by_test_id("rename-nickname")).to_have_count(1)  # in the fourth pupil's row only
    assert kept, "the push replaced the fourth pupil's Rename under the finger"
