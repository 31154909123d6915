"""``caterpillar-learn classroom --lang de``: the teacher's console, the door and the pupils' pages in German.

Every text the test looks for is the German catalogue's (``caterpillar_learn/i18n/de``),
read with :func:`~caterpillar_learn.i18n.text`, and each must differ from the English one,
so a page left in English cannot pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from caterpillar_learn.i18n import language, text
from caterpillar_learn.ui.raupe.widget import RaupeWidget

from .conftest import Server, printed_address, screenshot, start_classroom
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT

pytestmark = pytest.mark.browser


@pytest.fixture
def german_classroom(tmp_path: Path) -> Iterator[Server]:
    server = start_classroom(tmp_path, "--lang", "de")
    try:
        yield server
    finally:
        server.stop()


def german(key: str, /, **values: Any) -> str:
    """The German catalogue's ``key``, which must not read like the English one."""
    with language("de"):
        words = text(key, **values)
    with language("en"):
        assert words != text(key, **values), f"{key} reads the same in English: it proves nothing"
    return words


def _page(context: BrowserContext) -> Page:
    page = context.new_page()
    page.set_default_timeout(CLICK_TIMEOUT)
    return page


def _join(pupil: Page, door: str, code: str, nickname: str) -> None:
    pupil.goto(f"{door}?room={code}", timeout=RENDER_TIMEOUT)
    expect(pupil.get_by_test_id("join-code")).to_have_value(code, timeout=RENDER_TIMEOUT)
    pupil.get_by_test_id("nickname").fill(nickname)
    pupil.get_by_test_id("join-button").click()
    # the first join of a fresh server draws the sheet: seconds on a loaded machine
    expect(pupil.get_by_test_id("you")).to_have_text(
        german("classroom.page.you_are", code=code, nickname=nickname), timeout=RENDER_TIMEOUT
    )


def test_every_classroom_page_starts_in_german(browser: Browser, german_classroom: Server) -> None:
    door = printed_address(german_classroom, "Pupils join at:")
    contexts = [browser.new_context(viewport={"width": 1280, "height": 1000}) for _ in range(3)]
    try:
        teacher, ada, ben = (_page(context) for context in contexts)
        console = printed_address(german_classroom, "Teacher (keep this address to yourself):")
        teacher.goto(console, timeout=RENDER_TIMEOUT)
        create = teacher.get_by_test_id("create-room")
        expect(create).to_have_text(german("classroom.ui.create"), timeout=RENDER_TIMEOUT)
        expect(teacher).to_have_title(german("classroom.page.title_teacher"))
        expect(teacher.locator(".cr-root")).to_have_attribute("lang", "de")
        expect(teacher.locator(".cr-header h1")).to_have_text(german("classroom.ui.title"))
        expect(teacher.locator(".cr-new summary")).to_have_text(german("classroom.ui.new_room"))
        # A Räuber Raupe room first, while the form is open: the pupil's seat at a table.
        teacher.get_by_test_id("room-game").select_option("raupe")
        create.click()
        expect(teacher.locator(".cr-title")).to_have_text(german("classroom.title.raupe", seats=2))
        expect(teacher.get_by_test_id("start-tables")).to_have_text(german("classroom.ui.start_tables"))
        raupe = teacher.get_by_test_id("room-code").inner_text()
        _join(ben, door, raupe, "Ben")
        expect(teacher.get_by_test_id("raupe-table-status")).to_have_text(german("classroom.raupe.waiting"))
        expect(ben.get_by_test_id("raupe-pile")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(ben.locator(".rr-root")).to_have_attribute("lang", "de")
        expect(ben.get_by_test_id("raupe-call-shape")).to_contain_text(german(RaupeWidget.STRING_KEYS["shape"]))
        expect(ben.locator(".rr-keys")).to_have_text(german(RaupeWidget.STRING_KEYS["keys"]))
        expect(ben.locator(".rr-hand h3")).to_have_text(german("classroom.raupe.hand", player=1))
        expect(ben.locator("li.rr-heading")).to_have_text(german(RaupeWidget.STRING_KEYS["opponents"]))

        # Then a Caterpillars room (Raupen, Anfänger, the standard layout): the form's defaults again.
        teacher.reload(timeout=RENDER_TIMEOUT)
        new_room = teacher.locator(".cr-new summary")
        expect(new_room).to_have_text(german("classroom.ui.new_room"), timeout=RENDER_TIMEOUT)
        new_room.click()
        create.click()
        expect(teacher.get_by_test_id("room-code")).not_to_have_text(raupe)
        code = teacher.get_by_test_id("room-code").inner_text()
        title = german(
            "classroom.title.caterpillars",
            level=german("caterpillars.level.beginner"),
            layout=german("classroom.layout.standard"),
        )
        expect(teacher.locator(".cr-title")).to_have_text(title)
        expect(teacher.get_by_test_id("room-round")).to_have_text(german("classroom.round.waiting"))

        # The door, then the pupil's sheet (the lessons' board).
        ada.goto(f"{door}?room={code}", timeout=RENDER_TIMEOUT)
        expect(ada.get_by_test_id("join-button")).to_have_text(german("classroom.ui.join"), timeout=RENDER_TIMEOUT)
        expect(ada).to_have_title(german("classroom.page.title_pupil"))
        expect(ada.locator(".cr-join")).to_have_attribute("lang", "de")
        expect(ada.locator(".cr-join h1")).to_have_text(german("classroom.ui.join_title"))
        _join(ada, door, code, "Ada")
        expect(ada.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(ada.locator(".cl-root")).to_have_count(2)  # the door (now showing who joined) and the sheet
        for root in ada.locator(".cl-root").all():
            expect(root).to_have_attribute("lang", "de")
        expect(ada.locator(".cl-no-dice")).to_have_text(german("classroom.ui.wait_dice"))
        expect(teacher.get_by_test_id("placed-count")).to_have_text(german("classroom.placed", count=1, total=1))
        teacher.get_by_test_id("teacher-roll").click()
        expect(teacher.get_by_test_id("room-round")).to_have_text(german("lessons.ui.round", round=1))
        expect(teacher.get_by_test_id("placed-count")).to_have_text(german("classroom.placed", count=0, total=1))
        expect(ada.get_by_test_id("legal-move").first).to_be_visible()
        screenshot(ada, "classroom-pupil-de")
        screenshot(teacher, "classroom-teacher-de")
        # Remove asks first, in German, in Ada's own row; No keeps her.
        ada_row = teacher.locator('[data-testid="pupil"][data-nickname="Ada"]')
        ada_row.get_by_test_id("remove-pupil").click()
        expect(ada_row.get_by_test_id("remove-ask")).to_have_text(german("classroom.ui.remove_ask", nickname="Ada"))
        expect(ada_row.get_by_test_id("remove-yes")).to_have_text(german("classroom.ui.remove_yes"))
        expect(ada_row.get_by_test_id("remove-no")).to_have_text(german("classroom.ui.remove_no"))
        ada_row.get_by_test_id("remove-no").click()
        expect(ada_row.get_by_test_id("remove-pupil")).to_have_text(german("classroom.ui.remove"))
        expect(ada.get_by_test_id("sheet")).to_be_visible()
    finally:
        for context in contexts:
            context.close()
