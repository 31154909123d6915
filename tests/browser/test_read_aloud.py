"""Read-aloud and the language switch in Debian's Chromium, without Voila.

The page runs the real ES module wired to the Python widget through the
stand-in model of ``tests/ui/test_front_end.py``, on a page of its own origin
(so that it has ``localStorage``, as a lesson's page does).  ``speechSynthesis``
is replaced by a stub that records what ``speak`` was given (text and language),
or removed, as a browser without voices would be; the tests of the page's own
voice (it reads each new text by itself) use the recorder of
``tests/browser/speech.py``, installed before the module runs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.i18n import language, text
from caterpillar_learn.i18n import spoken as spoken_form
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
from caterpillar_learn.ui.caterpillars import advice as advice_bridge
from caterpillar_learn.ui.caterpillars.lesson import LessonSession
from caterpillar_learn.ui.raupe import RaupeWidget
from tests.languages import second_language
from tests.ui.test_front_end import HARNESS, Harness
from tests.ui.test_questions import QUESTIONED, play_the_guided_line, walk

from .driver import RENDER_TIMEOUT, wait_painted
from .speech import heard_by_itself, record_speech, spoken_text, take_speech, voices_read

pytestmark = pytest.mark.browser

#: The page's address: any origin of its own gives the page localStorage (about:blank has none).
ORIGIN = "http://lesson.test/"

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
        open_origin(page)
        page.set_content(
            f"<!doctype html><html><head><style>{RaupeWidget.css()}</style></head>"
            '<body><div id="host"></div></body></html>'
        )
        page.evaluate("async () => {" + HARNESS % (json.dumps(self.traits()), json.dumps(RaupeWidget.esm())) + "}")
        page.get_by_test_id("raupe-pile").wait_for()


def open_origin(page: Page) -> None:
    """Go to :data:`ORIGIN` (an empty page served by the test): init scripts run and localStorage works."""
    page.route(
        ORIGIN + "**",
        lambda route: route.fulfill(body="<!doctype html><html><body></body></html>", content_type="text/html"),
    )
    page.goto(ORIGIN)


class LessonHarness(Harness):
    """The Caterpillars harness on :data:`ORIGIN`."""

    def __init__(self, page: Page, board: CaterpillarsLesson) -> None:
        open_origin(page)
        super().__init__(page, board)


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


def settled(page: Page) -> None:
    """Let the page's own voice have its say (it reads once a redraw settles), then forget what the stub heard."""
    wait_painted(page)  # what the page drew put off to its next frame, which the voice waits for too
    voices_read(page)
    spoken(page)


def test_the_step_and_the_question_are_read_aloud(page: Page) -> None:
    harness = LessonHarness(page, at_first_question())
    page.evaluate(STUB, True)
    settled(page)
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
    harness = LessonHarness(page, CaterpillarsLesson("01-beginner"))
    page.evaluate(STUB, True)
    settled(page)
    page.get_by_test_id("lesson-step").focus()
    page.keyboard.press("Tab")
    expect(page.locator('.cl-stepper [data-testid="read-aloud"]')).to_be_focused()
    page.keyboard.press("Enter")
    assert [said["text"].split("\n")[0] for said in spoken(page)] == [harness.board.lesson["title"]]


def test_without_a_voice_a_notice_and_no_error(page: Page) -> None:
    LessonHarness(page, CaterpillarsLesson("01-beginner"))
    page.evaluate("() => { delete window.speechSynthesis; }")
    page.locator('.cl-stepper [data-testid="read-aloud"]').click()
    expect(page.get_by_test_id("no-voice").first).to_have_text(text("lessons.ui.no_voice"))
    expect(page.get_by_test_id("no-voice").first).to_have_attribute("role", "status")


def test_without_a_voice_after_waiting_a_notice(page: Page) -> None:
    LessonHarness(page, CaterpillarsLesson("01-beginner"))
    page.evaluate(STUB, False)  # speech synthesis there, but no voice even after waiting
    expect(page.get_by_test_id("no-voice").first).to_have_text("")
    page.locator('.cl-stepper [data-testid="read-aloud"]').click()
    expect(page.get_by_test_id("no-voice").first).to_have_text(text("lessons.ui.no_voice"))
    assert spoken(page) == []


def test_the_language_switch_redraws_the_page(page: Page, other: str) -> None:
    harness = LessonHarness(page, CaterpillarsLesson("01-beginner"))
    page.evaluate(STUB, True)
    settled(page)
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
    settled(page)
    page.locator('.cl-stepper [data-testid="read-aloud"]').click()
    assert [said["lang"] for said in spoken(page)] == [other]


def test_raupe_reads_its_message_and_question_and_switches(page: Page, other: str) -> None:
    harness = RaupeHarness(page, RaupeWidget("10-raupe-shape", seed=4))
    page.evaluate(STUB, True)
    settled(page)
    page.locator('.learn-question [data-testid="read-aloud"]').click()
    assert spoken(page) == [{"text": harness.board.question["text"], "lang": "en"}]
    harness.click("check-answer")
    harness.click("raupe-start")
    expect(page.get_by_test_id("raupe-message")).to_have_text(harness.board.message)
    settled(page)
    page.locator('.rr-talk .rr-said [data-testid="read-aloud"]').click()
    assert spoken(page) == [{"text": harness.board.message, "lang": "en"}]
    page.get_by_test_id("language").select_option(other)
    harness.sync()
    expect(page.locator(".rr-root")).to_have_attribute("lang", other)
    with language(other):
        start = page.get_by_test_id("raupe-start").inner_text().strip()
        assert start in {text("raupe_lessons.ui.new_game"), text("raupe_lessons.ui.start")}, start
        # the line of what to do now keeps its speaker (the message's shows only with a message)
        expect(page.locator('.rr-now-box [data-testid="read-aloud"]')).to_have_accessible_name(
            text("raupe_lessons.ui.read_aloud")
        )


# -- The page's own voice: it reads each new text by itself ------------------------------------------------------


@pytest.fixture
def listened(browser: Browser) -> Iterator[Page]:
    """A page whose speech is recorded from its first script on (tests/browser/speech.py)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    record_speech(context)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, errors


def voice_switch(page: Page) -> Any:
    return page.get_by_test_id("voice-switch")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_beginner_step_is_read_by_itself_for_the_ear(listened: Page, lang: str) -> None:
    page = listened
    harness = LessonHarness(page, CaterpillarsLesson("01-beginner", lang=lang))
    lesson = harness.board.lesson
    expect(voice_switch(page)).to_have_attribute("aria-checked", "true")  # on by default in lesson 01
    said = heard_by_itself(page)
    assert said[0]["lang"] == lang
    # By itself the voice reads the step's words; its title is for the eye (issue 40: the voice for the ear).
    assert said[0]["text"] == lesson["body"] and lesson["title"] not in spoken_text(said)
    if lesson.get("todo"):  # the line that says what to do now is read too
        assert lesson["todo"] in spoken_text(said)
    # The learner acts: what appears is read, with nothing pressed.
    harness.click("roll-button")
    while harness.board.lesson["title"] == lesson["title"] and harness.board.lesson["can_next"]:
        harness.click("next-step")
    new = heard_by_itself(page)
    now = harness.board
    assert any(
        line and line in spoken_text(new) for line in (now.lesson["body"], now.explanation, now.question.get("text"))
    )


def open_question(board: CaterpillarsLesson) -> Any:
    """The lesson's open question (its right options in ``.correct``)."""
    assert isinstance(board.session, LessonSession)
    return board.session.quiz.question


def answer_right(board: CaterpillarsLesson) -> None:
    question = open_question(board)
    assert question is not None
    for option in sorted(question.correct):
        board.act("answer", option=option)
    board.act("check")


def at_the_fly_question(name: str, lang: str) -> CaterpillarsLesson:
    """The lesson's guided game played by events along the helper's moves (the line whose end is a tie) up to
    its open "Which caterpillar will fly?"."""
    return play_the_guided_line(name, answer_right, lang=lang)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_tie_is_shown_and_said_without_a_slash(listened: Page, lang: str) -> None:
    """Lesson 01's flight, played along the helper's moves, ends in a tie: the page shows and the voice says
    "Alex and Bobby", with no slash."""
    page = listened
    harness = LessonHarness(page, at_the_fly_question("01-beginner", lang))
    said = spoken_text(heard_by_itself(page))
    assert harness.board.question["text"] in said
    question = open_question(harness.board)
    assert question is not None
    page.locator(f'[data-testid="answer"][data-option="{sorted(question.correct)[0]}"]').click()
    harness.sync()
    harness.click("check-answer")
    feedback = (harness.board.question.get("feedback") or {}).get("text") or harness.board.explanation
    with language(lang):
        tied = sorted(question.correct)  # either tied caterpillar is right
        assert len(tied) == 2, tied
        both = text("caterpillars.list_and", items=", ".join(tied[:-1]), last=tied[-1])
    assert both in feedback and "/" not in feedback, feedback  # what the page shows
    said = spoken_text(heard_by_itself(page))
    assert both in said and "/" not in said, said


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_voice_says_a_messages_spoken_twin(listened: Page, lang: str) -> None:
    """Lesson 00: a box that has a label already.  The page shows "(…)"; the voice says the twin's words."""
    page = listened
    board = CaterpillarsLesson("00-setup", lang=lang)
    while not (board.dice["kind"] == "setup" and board.dice["rolled"]):
        board.act("step", delta=1) if board.lesson["can_next"] else board.act("roll")
    harness = LessonHarness(page, board)
    heard_by_itself(page)
    page.get_by_test_id("box-Alex-0").click()
    harness.sync()
    with language(lang):
        shown = text("lessons.setup.not_blank", caterpillar="Alex", number=1)
        twin = spoken_form("lessons.setup.not_blank", caterpillar="Alex", number=1)
    expect(page.get_by_test_id("explanation")).to_have_text(shown)
    assert shown != twin
    assert twin in spoken_text(heard_by_itself(page))


def test_the_switch_is_remembered_across_a_reload(listened: Page) -> None:
    page = listened
    LessonHarness(page, CaterpillarsLesson("01-beginner"))
    heard_by_itself(page)
    switch = voice_switch(page)
    expect(switch).to_have_accessible_name(text("ui.voice.switch"))
    box = switch.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box
    switch.tap()
    expect(switch).to_have_attribute("aria-checked", "false")
    page.reload(timeout=RENDER_TIMEOUT)  # a new kernel runs the notebook before the page's load event
    LessonHarness(page, CaterpillarsLesson("01-beginner"))
    expect(voice_switch(page)).to_have_attribute("aria-checked", "false")
    wait_painted(page)
    voices_read(page)  # the voice had its turn to read the new page
    assert take_speech(page) == []  # off, as the learner left it
    voice_switch(page).tap()
    page.reload(timeout=RENDER_TIMEOUT)  # a new kernel runs the notebook before the page's load event
    LessonHarness(page, CaterpillarsLesson("01-beginner"))
    expect(voice_switch(page)).to_have_attribute("aria-checked", "true")
    assert heard_by_itself(page)


def test_raupe_reads_its_new_lines_by_itself(listened: Page) -> None:
    page = listened
    harness = RaupeHarness(page, RaupeWidget("10-raupe-shape", seed=4))
    expect(voice_switch(page)).to_have_attribute("aria-checked", "true")
    said = spoken_text(heard_by_itself(page))
    assert harness.board.question["text"] in said
    harness.click("check-answer")
    assert heard_by_itself(page)  # the feedback
    harness.click("raupe-start")
    expect(page.get_by_test_id("raupe-message")).to_have_text(harness.board.message)
    if harness.board.message:
        assert harness.board.message.split("\n")[0].strip() in spoken_text(heard_by_itself(page))


def test_the_speaker_is_drawn_and_big_enough_for_a_finger(listened: Page) -> None:
    page = listened
    LessonHarness(page, CaterpillarsLesson("01-beginner"))
    for target in [*page.get_by_test_id("read-aloud").all(), page.get_by_test_id("language"), voice_switch(page)]:
        box = target.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (target, box)
    speaker = page.get_by_test_id("read-aloud").first
    assert speaker.locator("svg[data-icon='speaker']").count() == 1
    assert "🔊" not in speaker.inner_text()
