"""A Voila lesson reloaded mid-game comes back where it was (issue 17, point 4), in Chromium.

A child on a 1024 × 768 touch screen taps what the lesson marks for a while
in ``01-beginner`` (served by ``caterpillar-learn serve``), then the page is
reloaded: a new kernel starts, the page hands it the save it kept in
``localStorage``, and the lesson comes back at the same step with the same
sheet, saying so; "Start again" goes back to step 1.  A save edited in
``localStorage`` is refused: the lesson starts fresh and says so in one line.
"Save my answers" asks the nickname once and names the file with it and the
date.  A Räuber Raupe lesson reloaded mid-game comes back at its step: the
question answered, the same game dealt again, paused.  Screenshots of the reloaded page (tablet and 1920 × 1080) go to
``artifacts/shots/resume/``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.i18n import text
from caterpillar_learn.ui.resume import storage_key

from .axe import describe_violations, run_axe
from .conftest import ROOT, Server
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, open_lesson
from .test_raupe import answer_which_cards_fit
from .test_raupe import record as raupe_record
from .walk import DESKTOP, TABLET, ChildWalk, child_context, open_touch_lesson

pytestmark = pytest.mark.browser

LESSON = "01-beginner"
RAUPE = "10-raupe-shape"
KEY = storage_key("caterpillars-lesson", LESSON, 1)
SHOTS = ROOT / "artifacts" / "shots" / "resume"
TAPS = 14  # marked things tapped before the reload: past the first questions, into the guided game


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def place(page: Page) -> dict[str, Any]:
    """Where the lesson is, as the page shows it: the step, its title, every box of the sheet, the dice."""
    result: dict[str, Any] = page.evaluate(
        """() => {
      const bar = document.querySelector('[role="progressbar"]');
      const labels = (selector) => [...document.querySelectorAll(selector)].map((n) => n.getAttribute("aria-label"));
      return { step: bar && bar.getAttribute("aria-valuenow"),
        title: (document.querySelector('[data-testid="lesson-step"]') || {}).textContent,
        sheet: labels('[data-testid="sheet"] [data-testid^="box-"]'),
        dice: labels('[data-testid^="die-"]'),
        question: (document.querySelector('[data-testid="question-text"]') || {}).textContent || "" };
    }"""
    )
    return result


def kept(page: Page) -> dict[str, Any]:
    """The save the page keeps in localStorage."""
    return json.loads(page.evaluate("(key) => window.localStorage.getItem(key)", KEY))


def open_and_play(context: Any, server: Server, taps: int) -> Page:
    """Open the lesson by touch and tap ``taps`` marked things, as a child does."""
    page = open_touch_lesson(context, server.url, LESSON, open_lesson)
    expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
    walk = ChildWalk(page, random.Random(2))
    for _ in range(taps):
        walk.settle()
        walk.inside(walk.todo().first)
    walk.settle()
    return page


def reload(page: Page, drawn: str = "sheet") -> None:
    page.reload(timeout=RENDER_TIMEOUT)  # Voila's page loads once the new kernel has run the notebook
    expect(page.get_by_test_id(drawn).first).to_be_visible(timeout=RENDER_TIMEOUT)


def no_serious_violation(page: Page, script: str) -> None:
    """axe-core finds nothing serious on the page as it is (then the tablet's viewport again)."""
    refused = describe_violations(run_axe(page, script))
    page.set_viewport_size(TABLET)
    assert not refused, "\n".join(refused)


def test_a_reload_mid_game_comes_back_at_the_same_step_with_the_same_sheet(
    browser: Browser, lessons_server: Server, axe_script: str
) -> None:
    with child_context(browser, TABLET) as context:
        page = open_and_play(context, lessons_server, TAPS)
        before = place(page)
        assert int(before["step"]) > 2 and any(label.endswith(tuple("0123456789")) for label in before["sheet"])
        assert len(kept(page)["events"]) >= TAPS
        reload(page)
        note = page.get_by_test_id("resume-note")
        expect(note).to_have_attribute("data-status", "resumed", timeout=RENDER_TIMEOUT)
        expect(note).to_contain_text(text("ui.resume.resumed"))
        expect(page.get_by_test_id("lesson-step")).to_have_text(before["title"], timeout=CLICK_TIMEOUT)
        assert place(page) == before
        shoot(page, "resumed-1024x768-touch")
        page.set_viewport_size(DESKTOP)
        shoot(page, "resumed-1920x1080")
        no_serious_violation(page, axe_script)  # the note and its button too
        # The lesson plays on from there; the note goes with the next tap.
        walk = ChildWalk(page, random.Random(4))
        walk.settle()
        walk.inside(walk.todo().first)
        expect(note).to_have_count(0, timeout=CLICK_TIMEOUT)
        # "Save my answers" (a grown-up's, issue 29) asks the nickname once; the file carries it, the lesson and
        # the date.
        page.get_by_test_id("grown-ups").tap()
        page.get_by_test_id("save-answers").tap()
        expect(page.get_by_test_id("nickname")).to_be_focused()
        shoot(page, "nickname-1024x768-touch")
        no_serious_violation(page, axe_script)  # the nickname's form: a labelled field
        page.get_by_test_id("nickname").fill("Ada Lovelace")
        with page.expect_download(timeout=CLICK_TIMEOUT) as download:
            page.get_by_test_id("nickname-save").tap()
        name = download.value.suggested_filename
        assert re.fullmatch(r"Ada-Lovelace-01-beginner-\d{4}-\d\d-\d\d-answers\.json", name), name
        saved = json.loads(open(download.value.path(), encoding="utf-8").read())  # noqa: SIM115
        assert saved["nickname"] == "Ada Lovelace" and saved["lesson"] == LESSON and saved["answers"]
        # A second page of another lesson asks no more: the page remembered the nickname.
        assert page.evaluate("() => window.localStorage.getItem('caterpillar-learn.nickname')") == "Ada Lovelace"


def test_start_again_after_a_reload_goes_back_to_step_one(browser: Browser, lessons_server: Server) -> None:
    with child_context(browser, TABLET) as context:
        page = open_and_play(context, lessons_server, 6)
        reload(page)
        expect(page.get_by_test_id("resume-note")).to_have_attribute("data-status", "resumed", timeout=RENDER_TIMEOUT)
        page.get_by_test_id("start-over").tap()
        bar = page.locator('[role="progressbar"]').first
        expect(bar).to_have_attribute("aria-valuenow", "1", timeout=CLICK_TIMEOUT)
        expect(page.get_by_test_id("resume-note")).to_have_count(0)
        page.wait_for_function("(key) => JSON.parse(localStorage.getItem(key)).events.length === 0", arg=KEY)


def test_a_tampered_save_is_refused_and_the_lesson_starts_fresh_saying_so(
    browser: Browser, lessons_server: Server
) -> None:
    with child_context(browser, DESKTOP) as context:
        page = open_and_play(context, lessons_server, TAPS)
        save = kept(page)
        move = next(choice for choice in reversed(save["engine"]["choices"]) if isinstance(choice, dict))
        move["score"] += 1  # a better score written into the saved game
        page.evaluate("([key, value]) => window.localStorage.setItem(key, value)", [KEY, json.dumps(save)])
        reload(page)
        note = page.get_by_test_id("resume-note")
        expect(note).to_have_attribute("data-status", "refused", timeout=RENDER_TIMEOUT)
        expect(note).to_have_text(text("ui.resume.refused"))
        expect(page.get_by_test_id("start-over")).to_have_count(0)
        expect(page.locator('[role="progressbar"]').first).to_have_attribute("aria-valuenow", "1")
        assert all(not label.endswith(tuple("0123456789")) for label in place(page)["sheet"])  # an empty sheet
        page.wait_for_function("(key) => JSON.parse(localStorage.getItem(key)).events.length === 0", arg=KEY)
        shoot(page, "refused-1920x1080")
        # Not even JSON: refused the same way.
        page.evaluate("(key) => window.localStorage.setItem(key, '{not json')", KEY)
        reload(page)
        expect(page.get_by_test_id("resume-note")).to_have_attribute("data-status", "refused", timeout=RENDER_TIMEOUT)


def test_a_raupe_lesson_reloaded_mid_game_comes_back_dealt_again_and_paused(
    browser: Browser, lessons_server: Server
) -> None:
    """Räuber Raupe comes back at its step: the question answered, the same game dealt again, paused."""
    with child_context(browser, TABLET) as context:
        page = open_touch_lesson(context, lessons_server.url, RAUPE, open_lesson)
        expect(page.get_by_test_id("raupe-card").first).to_be_visible(timeout=RENDER_TIMEOUT)
        answer_which_cards_fit(page)
        dealt = raupe_record(page)
        page.get_by_test_id("raupe-start").click()
        page.wait_for_function(  # the bots have played a while
            "() => JSON.parse(document.querySelector('[data-testid=raupe-record]').textContent).events.length > 1",
            timeout=RENDER_TIMEOUT,
        )
        reload(page, "raupe-card")
        note = page.get_by_test_id("resume-note")
        expect(note).to_have_attribute("data-status", "resumed", timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("raupe-pause")).to_have_attribute("aria-pressed", "true", timeout=CLICK_TIMEOUT)
        assert raupe_record(page) == dealt  # the same cards, dealt again
        expect(page.get_by_test_id("question")).to_be_hidden()  # answered before the reload
        page.get_by_test_id("raupe-grown-ups").tap()  # Save my answers: a grown-up's (issue 29)
        expect(page.get_by_test_id("save-answers")).to_be_visible()  # and its record kept
        page.get_by_test_id("raupe-grown-ups").tap()
        shoot(page, "raupe-resumed-1024x768-touch")
        page.get_by_test_id("raupe-pause").tap()  # play on
        expect(page.get_by_test_id("raupe-pause")).to_have_attribute("aria-pressed", "false", timeout=CLICK_TIMEOUT)
        expect(note).to_have_count(0)
