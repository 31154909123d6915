"""A lesson's printed page (``caterpillar-learn serve``'s ``/print/<lesson>``) prints on A4 and on Letter.

Chromium prints the page of lesson 01 (seed 1) to PDF on each paper;
poppler's ``pdftotext`` reads it back.  The paper holds the guided game's
dice round by round (from the lesson's designed dice, read from the lesson's
definition here, not from the page), the answers worked out by the engine,
and the rules card, in at most :data:`MOST_PAGES` pages; the Print button
stays on the screen.  A Räuber Raupe lesson prints its rules card, a German
page German words.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Page

from caterpillar_learn.caterpillars import format_roll
from caterpillar_learn.i18n import language, text
from caterpillar_learn.lessons.caterpillars import get_lesson, guided_game
from caterpillar_learn.lessons.questions import ask_boxes

from .conftest import Server
from .driver import RENDER_TIMEOUT

pytestmark = [pytest.mark.browser]

MOST_PAGES = 3
PAPERS = ("A4", "Letter")


def printed(page: Page, url: str, paper: str, folder: Path) -> list[str]:
    """The text of each printed page of ``url`` on ``paper``."""
    if shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None:
        pytest.fail("pdftotext and pdfinfo are missing: install Debian's poppler-utils (python3 dev.py test does)")
    response = page.goto(url, timeout=RENDER_TIMEOUT)
    assert response is not None and response.status == 200, url
    pdf = folder / f"{paper}.pdf"
    page.pdf(path=str(pdf), format=paper, prefer_css_page_size=True)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    found = re.search(r"^Pages:\s+(\d+)$", info, re.MULTILINE)
    assert found, info
    pages = []
    for number in range(1, int(found.group(1)) + 1):
        read = ["pdftotext", "-layout", "-f", str(number), "-l", str(number), str(pdf), "-"]
        pages.append(subprocess.run(read, capture_output=True, text=True, check=True).stdout)
    return pages


def guided_rounds(name: str) -> list[str]:
    """The dice of each round of the lesson's guided game, from its definition."""
    game = guided_game(get_lesson(name), 1)
    setups = game.turns - 12
    return [format_roll(roll) for roll in game.rolls[setups : setups + 12]]


@pytest.mark.parametrize("paper", PAPERS)
def test_lesson_one_prints_its_dice_answers_and_rules(
    page: Page, lessons_server: Server, tmp_path: Path, paper: str
) -> None:
    pages = printed(page, f"{lessons_server.url}print/01-beginner?seed=1&lang=en", paper, tmp_path)
    assert 1 <= len(pages) <= MOST_PAGES, len(pages)
    paper_text = "\n".join(pages)
    rows = {number: dice for number, dice in re.findall(r"Round (\d+)\s+(\d(?: \d)+)", paper_text)}
    assert [rows.get(str(number)) for number in range(1, 13)] == guided_rounds("01-beginner"), rows
    # Round 1's question, answered by the engine: every box these dice fill.
    game = guided_game(get_lesson("01-beginner"), 1)
    while game.phase == "setup":
        game.play(game.legal_moves()[0])
    question = ask_boxes(game.state, game.roll())
    flat = " ".join(paper_text.split())
    for option in question.options:
        if option.id in question.correct:
            assert option.label in flat, option.label
    assert "Can a 4 and a 4 fill any empty box? No" in flat  # round 2: the forced zero
    assert re.search(r"Round 2\s+4 4\s+the lesson", paper_text), "round 2 is led"
    assert "Caterpillars: the rules" in pages[-1]
    assert "Print" not in flat.replace("printed", ""), "the Print button stays on the screen"


def test_a_raupe_lesson_prints_its_rules_card_in_german(page: Page, lessons_server: Server, tmp_path: Path) -> None:
    pages = printed(page, f"{lessons_server.url}print/12-raupe-change-card?lang=de", "A4", tmp_path)
    assert 1 <= len(pages) <= 2, len(pages)
    flat = " ".join(" ".join(pages).split())
    with language("de"):
        assert text("printable.rules.raupe") in flat
        assert " ".join(text("printable.raupe.change").split()) in flat
        assert text("printable.raupe.butterfly") not in flat  # lesson 12 deals no butterfly
    assert "Wechselkarte" in flat


def test_a_lesson_there_is_none_of_is_one_line(page: Page, lessons_server: Server) -> None:
    response = page.goto(f"{lessons_server.url}print/09-nothing")
    assert response is not None and response.status == 404
    said = response.text().strip()
    assert "\n" not in said and "lesson: got '09-nothing'" in said
