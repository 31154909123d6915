"""The practice kept by the browser (issue 33): the lesson list shows on a card how many moves wait (the count
the book itself gives), and a lesson opened again finds its practice under way, by the page's own storage (the
book handed back before the lesson's place); axe-core finds nothing serious on either page."""

from __future__ import annotations

import datetime
import json
import random

import pytest
from playwright.sync_api import Browser, expect

from caterpillar_learn.advice.values import rank_options
from caterpillar_learn.practice import Book
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
from caterpillar_learn.ui.caterpillars.practice import book_key
from tests.ui.test_lesson_follows import follow

from .axe import describe_violations, run_axe
from .conftest import Server
from .driver import RENDER_TIMEOUT, open_lesson

pytestmark = pytest.mark.browser


def practising_lesson() -> CaterpillarsLesson:
    """Lesson 01 after a free game that always scored the smaller die: its practice offered beside the end."""
    board = CaterpillarsLesson("01-beginner")
    follow(board, random.Random(1))
    board.act("new_game")
    session = board.session
    while session.game.phase != "over":
        board.act("roll")
        options, _ = rank_options(session.game.state, session.game.roll())
        placed = [o.move for o in options if not o.move.zero] or [options[0].move]
        move = next(m for m in placed if m.score == min(p.score for p in placed))
        board.act("box", caterpillar=move.caterpillar, box=move.box)
        if board.menu.get("options"):
            board.act("option", index=next(o["index"] for o in board.menu["options"] if o["score"] == move.score))
    assert board.practice["status"] == "offered"
    return board


def test_the_gallery_counts_the_moves_waiting_and_the_lesson_finds_its_practice(
    browser: Browser, lessons_server: Server, axe_script: str
) -> None:
    board = practising_lesson()
    book, saved = board.book["data"], board.saved
    waiting = Book.from_json(book, "beginner").waiting(datetime.date.today())
    assert waiting > 0
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    try:
        listing = context.new_page()
        listing.goto(lessons_server.url)
        listing.evaluate(
            "([keys, values]) => keys.forEach((key, i) => localStorage.setItem(key, values[i]))",
            [[book_key("01-beginner"), saved["key"]], [json.dumps(book), json.dumps(saved["data"])]],
        )
        listing.reload()
        badge = listing.locator('[data-lesson="01-beginner"] [data-testid="practice-due"]')
        expect(badge).to_have_attribute("data-count", str(waiting), timeout=RENDER_TIMEOUT)
        expect(badge).to_contain_text(f"{waiting} moves to practise" if waiting > 1 else "1 move to practise")
        expect(listing.locator('[data-lesson="02-intermediate"] [data-testid="practice-due"]')).to_have_count(0)
        lesson = open_lesson(listing, "01-beginner")
        # The game's end comes back first, the practice offered beside it (issue 40) ...
        start = lesson.get_by_test_id("practice-start")
        expect(start).to_have_attribute("data-todo", "true", timeout=RENDER_TIMEOUT)
        expect(lesson.get_by_test_id("final-score")).to_be_in_viewport(ratio=1)
        expect(lesson.get_by_test_id("practice-offer")).to_have_text(board.practice["said"])
        expect(lesson.get_by_test_id("resume-note")).to_have_attribute("data-status", "resumed")
        assert not describe_violations(run_axe(lesson, axe_script)), "the end scene with the offer"
        # ... and one tap begins it.
        start.tap()
        panel = lesson.get_by_test_id("practice")
        expect(panel).to_have_attribute("data-status", "active", timeout=RENDER_TIMEOUT)
        board.act("practice_start")
        expect(lesson.get_by_test_id("practice-count")).to_have_text(board.practice["count"])
        expect(lesson.locator('[data-todo="true"]')).to_have_count(1)
        # The practice under way and the lesson list with its badge: no serious axe-core violation.
        for page in (lesson, listing):
            refused = describe_violations(run_axe(page, axe_script))
            assert not refused, "\n".join(refused)
    finally:
        context.close()
