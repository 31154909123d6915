"""German in Voila, chosen on the page: the Beginner lesson to its final score, and the strategy lab.

The Beginner lesson's game here is the suite's one game of that lesson beside the engine's twin
(``test_lessons.py`` plays the other levels' in English): the dice each round are the engine's, every
question is answered from the twin (the first one wrong first), the final score is the engine's, and the
page's motion is on (the dice tumble, the pulse, the caterpillar's flight), which the suite's other pages
ask to be still (tests/conftest.py, ``StillBrowser``).

The learner picks "Deutsch" in the lesson's language switch (``data-testid="language"``);
from then on every text the test looks for is looked up in the German catalogue
(``with language("de")``), except the roll button's "Würfeln", which the issue names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.i18n import language, text
from caterpillar_learn.lessons import get_lesson

from .axe import describe_violations, run_axe
from .conftest import Server, screenshot
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, Player, expect_no_error, open_lesson
from .test_lessons import play_the_lesson

pytestmark = pytest.mark.browser

SPEECH_STUB = """() => {
  window.spoken = [];
  Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
    getVoices: () => [{ name: "stub", lang: "de" }], cancel: () => {},
    speak: (utterance) => window.spoken.push({ text: utterance.text, lang: utterance.lang }),
    addEventListener: () => {}, removeEventListener: () => {},
  } });
}"""


@pytest.fixture
def german(page: Page, lessons_server: Server, request: pytest.FixtureRequest) -> Iterator[Page]:
    """The lesson ``request.param``, opened from the lesson list and switched to German on its page."""
    name: str = request.param
    page.goto(lessons_server.url)
    lesson = open_lesson(page, name)
    try:
        switch = lesson.get_by_test_id("language")
        expect(switch).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(lesson.locator(".cl-root, .lab-root").first).to_have_attribute("lang", "en")
        switch.select_option("de")
        expect(lesson.locator(".cl-root, .lab-root").first).to_have_attribute("lang", "de", timeout=CLICK_TIMEOUT)
        yield lesson
    finally:
        screenshot(lesson, f"{name}-de")
        lesson.close()


@pytest.mark.parametrize("german", ["01-beginner"], indirect=True)
def test_a_german_beginner_lesson_played_to_its_final_score(german: Page, axe_script: str) -> None:
    page = german
    page.emulate_media(reduced_motion="no-preference")
    lesson = get_lesson("01-beginner")
    player = Player.for_lesson(page, "01-beginner")
    expect(page.get_by_test_id("roll-button")).to_contain_text("Würfeln")
    with language("de"):
        expect(page.get_by_test_id("lesson-step")).to_have_text(text(f"lessons.{lesson.steps[0].key}.title"))
        expect(page.get_by_test_id("language")).to_have_accessible_name(text("lessons.ui.language"))
        play_the_lesson(page, player, "01-beginner")
        assert player.game is not None
        final = text("lessons.final.text", final=player.game.score().final)
    expect(page.get_by_test_id("final-score")).to_have_text(final)
    with language("en"):
        assert final != text("lessons.final.text", final=player.game.score().final)  # German, not English
    expect(page.get_by_test_id("roll-button")).to_contain_text("Würfeln")
    expect(page.get_by_test_id("legal-move")).to_have_count(0)
    expect(page.get_by_test_id("next-step")).to_be_disabled()
    expect_no_error(page)
    refused = describe_violations(run_axe(page, axe_script))
    assert not refused, "the finished German lesson:\n" + "\n".join(refused)
    # Saving is a grown-up's (issue 29) and asks the nickname first (the file's name: test_voila_resume.py).
    expect(page.get_by_test_id("save-answers")).to_have_count(0)
    page.get_by_test_id("grown-ups").click()
    page.get_by_test_id("save-answers").click()
    expect(page.get_by_test_id("nickname")).to_be_visible()


@pytest.mark.parametrize("german", ["05-strategy-lab"], indirect=True)
def test_the_strategy_lab_runs_and_reads_aloud_in_german(german: Page) -> None:
    page = german
    page.evaluate(SPEECH_STUB)
    voice = page.locator('.lab-voice [data-testid="read-aloud"]')  # the status's speaker (each paragraph has one)
    with language("de"):
        expect(page.get_by_test_id("lab-run")).to_have_text(text("lessons.lab.ui.run"))
        level = text("caterpillars.level.intermediate")
        # The lesson opens with its own run shown (200 games a strategy), and its words in German.
        first = text("lessons.lab.ui.ready", games=200, level=level, seed=1)
        expect(page.get_by_test_id("lab-status")).to_have_text(first, timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("lab-intro")).to_contain_text(text("lessons.lab.page.intro.1"))
        expect(page.get_by_test_id("lab-shows")).to_contain_text(text("lessons.lab.page.hungry"))
        expect(voice).to_have_accessible_name(text("lessons.ui.read_aloud"))
        page.get_by_label(text("lessons.lab.ui.games")).fill("20")
        page.get_by_test_id("lab-run").click()
        ready = text("lessons.lab.ui.ready", games=20, level=level, seed=1)
        expect(page.get_by_test_id("lab-status")).to_have_text(ready, timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("lab-table").locator("caption")).to_have_text(text("lessons.lab.ui.caption"))
    # The table's numbers are written the German way (Babel's decimal mark), and no English word is left.
    cells = page.get_by_test_id("lab-table").locator("td").all_text_contents()
    decimals = [cell for cell in cells if not cell.isdigit()]
    assert decimals and all(re.fullmatch(r"-?\d+,\d", cell) for cell in decimals), cells
    assert not re.search(r"\b(beginner|intermediate|advanced|expert)\b", page.locator(".lab-root").inner_text())
    voice.click()
    said = page.evaluate("() => window.spoken")
    findings = page.locator(".lab-insights li").all_text_contents()
    assert [s["lang"] for s in said] == ["de"] and said[0]["text"].split("\n") == [ready, *findings]
    expect_no_error(page)
