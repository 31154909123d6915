"""A pupil walks lesson 01 in a lesson room on a 1024 × 768 tablet, by touch, to the lesson's last step (issue 42).

The classroom's pupil page has the room's line above the lesson (room code and nickname), so it has less
height than the lesson on its own page: at 1024 × 768 an answer box was cut off at the bottom. The child's walk
(:class:`tests.browser.walk.ChildWalk`) follows the marked thing from the door to the end and checks, at every
wait, that it and the step's line are on the screen, and that every target is 44 px. The teacher is a protocol
page (no browser): it only creates the room. Screenshots: ``artifacts/screenshots/lessonroom-walk-*.png``.
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Browser, expect

from tests.classroom.probe import PageClient

from .conftest import SCREENSHOTS, Server, printed_address
from .driver import RENDER_TIMEOUT
from .walk import ChildWalk, child_context

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_pupil_walks_lesson_one_in_a_lesson_room_on_a_tablet(browser: Browser, classroom_server: Server) -> None:
    address = printed_address(classroom_server, "Teacher (keep this address to yourself):")
    token = re.search(r"token=([\w-]+)", address)
    assert token, address
    teacher = PageClient(address.split("?")[0], {"token": token.group(1)})
    teacher.send("TeacherWidget", "create", game="lesson", lesson="01-beginner", mode="own")
    assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code"), timeout=60)
    code = teacher.trait("TeacherWidget", "room")["code"]

    with child_context(browser) as context:
        page = context.new_page()
        page.goto(f"{printed_address(classroom_server, 'Pupils join at:')}?room={code}", timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("join-code")).to_have_value(code, timeout=RENDER_TIMEOUT)
        page.get_by_test_id("nickname").fill("Ben")
        page.get_by_test_id("join-button").tap()
        expect(page.get_by_test_id("lesson-step")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("you")).to_contain_text(f"{code} · Ben")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shot = {"question": False}

        def look_at(walk: ChildWalk, wait: int) -> None:
            if wait == 1:
                page.screenshot(path=str(SCREENSHOTS / "lessonroom-walk-first-1024.png"))
            if walk.seen.get("testid") == "question" and not shot["question"]:  # the answer box of issue 42
                shot["question"] = True
                page.screenshot(path=str(SCREENSHOTS / "lessonroom-walk-question-1024.png"))

        def done(walk: ChildWalk) -> bool:  # the lesson's last step, its game over (a room's board has no New game)
            return bool(walk.seen) and walk.seen["now"] == walk.seen["max"] and walk.seen["end"] is not None

        walk = ChildWalk(page, random.Random(3), shots=look_at, done=done)
        walk.walk()
        page.screenshot(path=str(SCREENSHOTS / "lessonroom-walk-end-1024.png"))
        assert shot["question"], "the walk met no question"
        last = int(walk.seen["max"])

        def grid_step() -> int:
            return int(teacher.trait("TeacherWidget", "room")["lesson"]["rows"][0]["step"])

        assert teacher.wait(lambda: grid_step() == last, timeout=30), grid_step()  # the teacher's grid saw it too
    teacher.close()
