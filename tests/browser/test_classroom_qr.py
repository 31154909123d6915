"""The QR code on the teacher's projector, as Chromium draws it, read back by a QR decoder; the desk's form.

``caterpillar-learn classroom`` runs on a free port; the teacher creates a
room, and a screenshot of the QR code the page shows is decoded with
zxing-cpp (``tests/qr.py``).  It must hold the address printed at start
with the room's code added, the one the page writes under it, and that
address must open the door with the code filled in.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from caterpillar_learn.classroom.screens import qr_svg
from caterpillar_learn.i18n import text
from tests.qr import decode_png

from .conftest import Server, printed_address, screenshot
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT

pytestmark = pytest.mark.browser


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    opened = browser.new_context(viewport={"width": 1280, "height": 1000})
    opened.set_default_timeout(CLICK_TIMEOUT)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def teacher(context: BrowserContext, classroom_server: Server) -> Page:
    """The teacher's console with a first room created (Caterpillars, the form's defaults)."""
    page = context.new_page()
    page.goto(printed_address(classroom_server, "Teacher (keep this address to yourself):"), timeout=RENDER_TIMEOUT)
    page.get_by_test_id("create-room").click(timeout=RENDER_TIMEOUT)
    return page


def test_the_qr_code_on_the_projector_holds_the_join_address(
    context: BrowserContext, teacher: Page, classroom_server: Server
) -> None:
    code = teacher.get_by_test_id("room-code").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{6}", code)
    address = f"{printed_address(classroom_server, 'Pupils join at:')}?room={code}"
    expect(teacher.get_by_test_id("join-url")).to_have_text(address)
    # However narrow the door, the address wraps outside the code, never inside it ("T / WWU3R", issue 42).
    teacher.get_by_test_id("join-url").evaluate("(node) => { node.style.width = '7em'; }")
    held = teacher.get_by_test_id("join-url").locator(".cr-url-code")
    expect(held).to_have_text(code)
    assert held.evaluate("(node) => node.getClientRects().length") == 1
    assert teacher.get_by_test_id("join-url").evaluate("(node) => node.getClientRects()[0].height") > 40  # it wrapped
    teacher.get_by_test_id("join-url").evaluate("(node) => { node.style.width = ''; }")

    holder = teacher.get_by_test_id("join-qr")
    expect(holder).to_have_attribute("role", "img")
    expect(holder).to_have_attribute("aria-label", text("classroom.ui.qr"))  # one name, not 600 squares
    shown = holder.locator("svg.cr-qr-code")  # the class qr_svg gives its markup
    expect(shown).to_have_count(1)
    box = shown.bounding_box()
    assert box is not None and box["width"] >= 150, box  # big enough to scan from a desk
    assert decode_png(shown.screenshot()) == [address]  # Chromium's pixels, read as a tablet would
    served = ET.fromstring(qr_svg(address))  # the picture shown is the server's QR code of that address
    lines = served.find(".//path[@stroke]")
    assert lines is not None and shown.get_attribute("width") == served.get("width")
    assert shown.locator("path[stroke]").get_attribute("d") == lines.get("d")
    screenshot(teacher, "classroom-qr")

    pupil = context.new_page()
    pupil.goto(address, timeout=RENDER_TIMEOUT)  # where the QR code leads: the door, the room's code filled in
    expect(pupil.get_by_test_id("join-code")).to_have_value(code, timeout=RENDER_TIMEOUT)


def test_the_new_room_form_stays_open_while_the_teacher_fills_it_in(teacher: Page) -> None:
    """With a room open, the teacher opens "New room", picks the other game, and creates a second room."""
    first = teacher.get_by_test_id("room-code").inner_text()
    form = teacher.locator("details.cr-new")
    expect(form).not_to_have_attribute("open", "")  # folded away once a room is open
    form.locator("summary").click()
    expect(form).to_have_attribute("open", "")
    teacher.get_by_test_id("room-game").select_option("raupe")  # redraws the form with the tables' fields
    expect(form).to_have_attribute("open", "")
    expect(teacher.get_by_test_id("room-seats")).to_be_visible()
    teacher.get_by_test_id("create-room").click()
    expect(teacher.get_by_test_id("room-code")).not_to_have_text(first)
    expect(teacher.get_by_test_id("open-room")).to_have_count(2)
    expect(form).not_to_have_attribute("open", "")
