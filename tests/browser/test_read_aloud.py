"""Read-aloud and the language switch in Debian's Chromium, without Voila.

The page runs the real ES module wired to the Python widget through the
stand-in model of ``tests/ui/test_front_end.py``.  ``speechSynthesis`` is
replaced by a stub that records what ``speak`` was given (text and language),
or removed, as a browser without voices would be.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.i18n import language, text
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
from caterpillar_learn.ui.caterpillars import advice as advice_bridge
from caterpillar_learn.ui.raupe import RaupeWidget
from tests.languages import second_language
from tests.ui.test_front_end import HARNESS, Harness
from tests.ui.test_questions import QUESTIONED, walk

pytestmark = pytest.mark.browser

STUB = """(voices) => {
  window.spoken = [];
  Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
    getVoices: () => voices ? [{ name: "stub", lang: "en" }] : [],
    cancel: () => {},
    speak: (utterance) => window.spoken.push({ text: utterance.text, lang: utterance.lang }),
    addEventListener: () => {},
    removeEventListener: () => {},
  } });
}"""


class RaupeHarness(Harness):
    """The same page around the Räuber Raupe module."""

    def __init__(self, page: Page, board: Any) -> None:
        self.page, self.board = page, board
        page.set_content(
            f"<!doctype html><html><head><style>{RaupeWidget.css()}</style></head>"
            '<body><div id="host"></div></body></html>'
        )
        page.evaluate("async () => {" + HARNESS % (json.dumps(self.traits()), json.dumps(RaupeWidget.esm())) + "}")
        page.get_by_test_id("raupe-pile").wait_for()


@pytest.fixture(autouse=True)
def no_background_solve_left_behind() -> Iterator[None]:
    yield
    assert not advice_bridge.join_background_solves(timeout=60.0)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, errors


@pytest.fixture
def other(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    with second_language(tmp_path, monkeypatch) as code:
        yield code


class Stop(Exception):
    pass


def at_first_question() -> CaterpillarsLesson:
    found: list[CaterpillarsLesson] = []

    def stop(board: CaterpillarsLesson) -> None:
        found.append(board)
        raise Stop

    with pytest.raises(Stop):
        walk(QUESTIONED[0], stop)
    return found[0]


def spoken(page: Page) -> list[dict[str, str]]:
    result: list[dict[str, str]] = page.evaluate("() => window.spoken.splice(0)")
    return result


def test_the_step_and_the_question_are_read_aloud(page: Page) -> None:
    harness = Harness(page, at_first_question())
    page.evaluate(STUB, True)
    lesson, question = harness.board.lesson, harness.board.question
    page.locator('.cl-stepper [data-testid="read-aloud"]').click()
    page.locator('.learn-question [data-testid="read-aloud"]').click()
    assert spoken(page) == [
        {"text": "\n".join(filter(None, [lesson["title"], lesson["body"]])), "lang": "en"},
        {"text": question["text"], "lang": "en"},
    ]
    speaker = page.locator('.cl-stepper [data-testid="read-aloud"]')
    expect(speaker).to_have_accessible_name(text("lessons.ui.read_aloud"))
    expect(page.get_by_test_id("no-voice")).to_have_text(["", ""])


def test_tab_reaches_a_read_aloud_button_and_enter_speaks(page: Page) -> None:
    harness = Harness(page, CaterpillarsLesson("01-beginner"))
    page.evaluate(STUB, True)
    page.get_by_test_id("lesson-step").focus()
    page.keyboard.press("Tab")
    expect(page.locator('.cl-stepper [data-testid="read-aloud"]')).to_be_focused()
    page.keyboard.press("Enter")
    assert [said["text"].split("\n")[0] for said in spoken(page)] == [harness.board.lesson["title"]]


def test_without_a_voice_a_notice_and_no_error(page: Page) -> None:
    Harness(page, CaterpillarsLesson("01-beginner"))
    page.evaluate("() => { delete window.speechSynthesis; }")
    page.locator('.cl-stepper [data-testid="read-aloud"]').click()
    expect(page.get_by_test_id("no-voice").first).to_have_text(text("lessons.ui.no_voice"))
    expect(page.get_by_test_id("no-voice").first).to_have_attribute("role", "status")
    page.evaluate(STUB, False)  # speech synthesis there, but no voice even after waiting
    page.get_by_test_id("no-voice").first.evaluate("node => { node.textContent = ''; }")
    page.locator('.cl-stepper [data-testid="read-aloud"]').click()
    expect(page.get_by_test_id("no-voice").first).to_have_text(text("lessons.ui.no_voice"))
    assert spoken(page) == []


def test_the_language_switch_redraws_the_page(page: Page, other: str) -> None:
    harness = Harness(page, CaterpillarsLesson("01-beginner"))
    page.evaluate(STUB, True)
    switch = page.get_by_test_id("language")
    expect(switch).to_have_accessible_name(text("lessons.ui.language"))
    expect(switch.locator("option")).to_have_count(len(harness.board.languages))
    switch.focus()
    switch.select_option(other)
    harness.sync()
    assert harness.board.lang == other
    expect(page.locator(".cl-root")).to_have_attribute("lang", other)
    with language(other):
        expect(page.get_by_test_id("roll-button")).to_contain_text(text("lessons.ui.roll"))
        title = text("lessons.beginner.intro.title")
    expect(page.get_by_test_id("lesson-step")).to_have_text(title)
    expect(page.get_by_test_id("language")).to_be_focused()
    page.locator('.cl-stepper [data-testid="read-aloud"]').click()
    assert [said["lang"] for said in spoken(page)] == [other]


def test_raupe_reads_its_message_and_question_and_switches(page: Page, other: str) -> None:
    harness = RaupeHarness(page, RaupeWidget("10-raupe-shape", seed=4))
    page.evaluate(STUB, True)
    page.locator('.learn-question [data-testid="read-aloud"]').click()
    assert spoken(page) == [{"text": harness.board.question["text"], "lang": "en"}]
    harness.click("check-answer")
    harness.click("raupe-start")
    expect(page.get_by_test_id("raupe-message")).to_have_text(harness.board.message)
    page.locator('.rr-said [data-testid="read-aloud"]').click()
    assert spoken(page) == [{"text": harness.board.message, "lang": "en"}]
    page.get_by_test_id("language").select_option(other)
    harness.sync()
    expect(page.locator(".rr-root")).to_have_attribute("lang", other)
    with language(other):
        expect(page.get_by_test_id("raupe-start")).to_have_text(text("raupe_lessons.ui.new_game"))
        expect(page.locator('.rr-said [data-testid="read-aloud"]')).to_have_accessible_name(
            text("raupe_lessons.ui.read_aloud")
        )
