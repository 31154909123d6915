"""The child's walk on past the end of lesson 01 (issue 33): New game, a free game and the practice of its
costliest moves, following ``data-todo`` by touch in English and German, with the walk's checks at every wait
(one thing marked, in view, 44 px targets, speech by itself, few words); then the lesson list shows the
practice waiting, and a reload finds it.  Its first part is lesson 01's own walk by touch (seed 1, a
1024 × 768 tablet), and in German the Beginner walk in German on a big screen (seed 2, 1920 × 1080, the page
in German to its end): they are walked here only.  Screenshots: ``artifacts/screenshots/practice-*.png``
(the first wait of each step)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.lessons import get_lesson

from .conftest import SCREENSHOTS, Server
from .test_board_feel import NOTES, WATCH_JS
from .test_child_walk import walk_lesson
from .walk import DESKTOP, TABLET

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_child_walks_on_through_the_practice(
    browser: Browser, lessons_server: Server, german_lessons_server: Server, lang: str
) -> None:
    server = german_lessons_server if lang == "de" else lessons_server

    heard: list[dict[str, object]] = []

    def looked(page: Page) -> None:
        heard.extend(page.evaluate("window.__sounds"))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"practice-end-{lang}.png"))
        if lang == "de":  # the whole walk was in German
            expect(page.get_by_test_id("roll-button")).to_contain_text("Würfeln")
            expect(page.get_by_test_id("lesson-step")).to_have_text(re.compile(r"\w"))
            expect(page.locator(".cl-root").first).to_have_attribute("lang", "de")

    # Lesson 01's walks: the child's (English, a tablet) and the German one, on a big screen (1920 × 1080,
    # a screenshot at the first wait of each step).
    seed, viewport = (1, TABLET) if lang == "en" else (2, DESKTOP)
    walk = walk_lesson(
        browser,
        server,
        "01-beginner",
        seed=seed,
        practice=True,
        viewport=viewport,
        shots=f"practice-{lang}",
        shots_each_step=True,
        after=looked,
        init_script=WATCH_JS,
    )
    assert walk.waits >= len(get_lesson("01-beginner").steps)  # the lesson's own walk, then on past its end
    assert "practice-next" in walk.taps or "new-game" in walk.taps[-1:]
    # A right answer and a step done each sound (issue 40), as well as the board's own sounds.
    notes = {int(str(sound["notes"])) for sound in heard}
    assert {NOTES["right"], NOTES["step"], NOTES["end"]} <= notes, heard
    if lang == "en":  # the voice for the ear (issue 40): at most half the words it read by itself before
        said = [str(utterance["text"]) for utterance in walk.said]
        # A line read again soon after (the same text within the last few: the game's end lines once more after
        # New game, on a slow page) is counted once and reported: how often it happens depends on the machine's
        # pace (a loaded full run: 267-275 words, alone: 249), which this count is not about.
        again = [text for index, text in enumerate(said) if text in said[max(0, index - 4) : index]]
        spoken = sum(len(text.split()) for text in said) - sum(len(text.split()) for text in again)
        in_lesson = sum(len(utterance["text"].split()) for utterance in walk.lesson_said)
        (SCREENSHOTS.parent / "spoken-words.txt").write_text(  # for the notes: what the count is now
            f"lesson 01 walk (seed 1, tablet): {in_lesson} words in the lesson, {spoken} in all "
            f"(before issue 40: 303 and {SPOKEN_BEFORE}); read again soon after: {again}\n"
        )
        assert 0 < spoken <= SPOKEN_BEFORE // 2, f"{spoken} words spoken: " + " | ".join(said)


#: The words the page read by itself in the English walk above (seed 1, a tablet: lesson 01, a free game, its
#: practice) at 08c5fd7, before issue 40 (the same walk, counted the same way): 303 in the lesson, 513 in all.
SPOKEN_BEFORE = 513
