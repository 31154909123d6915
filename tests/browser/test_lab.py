"""The strategy lab in Voila: lesson 05 served by ``caterpillar-learn serve``, run with fewer games."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.i18n import text

from .conftest import Server, screenshot
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, open_lesson

pytestmark = pytest.mark.browser

GAMES = 20


def test_the_lab_runs_in_voila_with_the_chosen_number_of_games(page: Page, lessons_server: Server) -> None:
    page.goto(lessons_server.url)
    lesson = open_lesson(page, "05-strategy-lab")
    try:
        run = lesson.get_by_test_id("lab-run")
        expect(run).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(lesson.get_by_test_id("lab-strategy")).to_have_count(4)
        expect(lesson.get_by_test_id("lab-strategy").last).to_be_checked()  # best play is in by default
        lesson.get_by_test_id("lab-games").fill(str(GAMES))
        run.click()
        rows = lesson.get_by_test_id("lab-result").locator("tbody tr")
        expect(rows).to_have_count(4, timeout=RENDER_TIMEOUT)
        for index in range(4):
            expect(rows.nth(index).locator("td").first).to_have_text(str(GAMES))
        expect(lesson.get_by_test_id("lab-status")).to_contain_text(f"{GAMES} games per strategy")
        expect(lesson.get_by_test_id("lab-message")).to_have_text("")
        expect(lesson.get_by_test_id("lab-result")).to_contain_text(text("lessons.lab.col.lowest"))
        expect(run).to_be_enabled(timeout=CLICK_TIMEOUT)
    finally:
        screenshot(lesson, "05-strategy-lab-run")
        lesson.close()
