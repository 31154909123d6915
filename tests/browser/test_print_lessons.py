"""A lesson printed from Voila (``caterpillar-learn serve``): the sheet and the lesson's words, no buttons.

Lesson 1 opens in Chromium; under print media every button, menu and
field is gone (the lesson's Next and Back, the dice tray's Roll, the
question's answers, the read-aloud switch, the language menu, the speaker
buttons), the pulse of the thing to do stops, and the sheet, its three
caterpillars and the step's title are there.  Printed to PDF from a window
too short for the lesson and read back with ``pdftotext``, the paper holds
the step's title, every caterpillar with its labels, and none of the
buttons' words (JupyterLab's layout would cut the page at the window's
edges: the Voila template undoes that in print).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.i18n import text

from .conftest import ROOT, Server
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ROOT / "artifacts" / "shots" / "print"
LESSON = "01-beginner"


def inked(pdf: Path, word: str, folder: Path) -> int:
    """How many dark pixels the first page of ``pdf`` has where ``pdftotext`` puts ``word`` (text that is
    clipped away is still in a PDF's text, but not on its paper)."""
    boxes = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, text=True)
    found = re.search(
        rf'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">{word}</word>', boxes.stdout
    )
    assert found, word
    left, top, right, bottom = (round(float(value)) for value in found.groups())
    subprocess.run(["pdftoppm", "-r", "72", "-gray", "-f", "1", "-l", "1", str(pdf), str(folder / "page")], check=True)
    picture = next(folder.glob("page*.pgm")).read_bytes()
    header = picture.split(maxsplit=4)  # P5, width, height, depth, pixels
    width = int(header[1])
    pixels = picture[len(picture) - width * int(header[2]) :]
    return sum(1 for y in range(top, bottom) for x in range(left, right) if pixels[y * width + x] < 128)


def label_on(page: Page, caterpillar: str, box: int) -> str:
    """The label a box of the page's sheet shows (its aria-label: "Alex, box 1, label 1, empty")."""
    words = page.get_by_test_id(f"box-{caterpillar}-{box}").get_attribute("aria-label") or ""
    found = re.search(r", label ([^,]+),", words)
    return found.group(1) if found else ""


def test_a_printed_lesson_shows_the_sheet_and_no_buttons(page: Page, lessons_server: Server, tmp_path: Path) -> None:
    page.set_default_timeout(CLICK_TIMEOUT)
    page.emulate_media(reduced_motion="no-preference")  # the suite's pages are still; this one looks at the pulse
    page.goto(f"{lessons_server.url}voila/render/{LESSON}.ipynb", timeout=RENDER_TIMEOUT)
    sheet = page.get_by_test_id("sheet")
    expect(sheet).to_be_visible(timeout=RENDER_TIMEOUT)
    expect(page.get_by_test_id("lesson-step")).to_be_visible()
    tapped = page.locator(".cl-root").locator("button:visible, select:visible, input:visible, summary:visible")
    settings = page.locator(".learn-settings").first
    marked = page.locator('.cl-root [data-todo="true"]').first
    expect(settings).to_be_visible()  # the voice switch and the language menu, on the screen
    expect(marked).to_be_visible()  # the thing to do now pulses
    assert tapped.count() >= 3, tapped.count()
    assert marked.evaluate("e => getComputedStyle(e).animationName") != "none"

    page.emulate_media(media="print")
    expect(sheet).to_be_visible()
    for name in ("Alex", "Bobby", "Charlie"):
        expect(page.get_by_test_id(f"box-{name}-0")).to_be_visible()
    expect(page.get_by_test_id("lesson-step")).to_be_visible()
    expect(settings).to_be_hidden()
    expect(tapped).to_have_count(0)  # not one button, menu or field of the lesson
    assert marked.evaluate("e => getComputedStyle(e).animationName") == "none"  # no pulse on paper
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lesson-print-media.png"), full_page=True)

    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: install Debian's poppler-utils (python3 dev.py test does)")
    pdf = tmp_path / "lesson.pdf"
    # A short window: on the screen the lesson scrolls inside it; on paper it runs on, nothing cut off.
    page.set_viewport_size({"width": 1024, "height": 420})
    page.pdf(path=str(pdf), format="A4")
    (SHOTS / "lesson.pdf").write_bytes(pdf.read_bytes())
    printed = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    lines = printed.splitlines()
    for words in ("Alex", "Bobby", "Charlie", page.get_by_test_id("lesson-step").inner_text()):
        assert words in printed, (words, printed[:800])
    for name in ("Alex", "Bobby", "Charlie"):  # each caterpillar's labels, on the line above its name
        labels = [label_on(page, name, box) for box in range(4)]
        assert all(label.isdigit() for label in labels), labels
        at = next(i for i, line in enumerate(lines) if re.search(rf"\b{name}\b", line))
        above = next(line for line in reversed(lines[:at]) if line.strip())
        assert above.split() == labels, (name, labels, above)
        assert inked(pdf, name, tmp_path) > 20, f"{name} is in the PDF's text but not drawn: cut off"
    for button in ("lessons.ui.next", "lessons.ui.back", "ui.voice.switch", "lessons.ui.language"):
        assert text(button) not in printed, (button, printed[:800])
