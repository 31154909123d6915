"""The page's voice reads one utterance at a time (issue 40), in the real ES module in Chromium.

The speech engine is the stand-in of :mod:`tests.browser.speech`, held: an utterance ends only when the test
says so (``window.__speechEnd()``), and ``window.__speechCancels`` counts what was cut off.  The page's clock
is the test's, so the voice's settle timer runs when the test moves it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
from tests.browser.speech import VOICE_SETTLE_MS, record_speech
from tests.ui.test_front_end import Harness

pytestmark = pytest.mark.browser

#: The texts the page shows now that its voice would read (what ``textsOf`` in widgets/shared.js reads).
ON_PAGE_JS = """() => [...document.querySelectorAll('.learn-speak, [data-speak]')]
  .map((node) => (node.learnSpeech ? node.learnSpeech.text() : node.textContent) || '')"""


def spoken(page: Page) -> list[str]:
    return [said["text"] for said in page.evaluate("() => window.__spoken.slice()")]


def settle(page: Page) -> None:
    page.clock.run_for(VOICE_SETTLE_MS + 50)  # the voice reads once its root has been still this long


def words(text: str) -> set[str]:
    return {word.strip(".,:!?").lower() for word in text.split() if len(word) > 3}


def test_a_new_text_waits_for_the_one_being_read_and_a_stale_one_is_dropped(browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    record_speech(context)
    context.add_init_script("window.__speechHold = true;")
    page = context.new_page()
    try:
        page.clock.install()
        harness = Harness(page, CaterpillarsLesson("01-beginner"))
        page.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)
        settle(page)
        first = spoken(page)
        assert len(first) == 1, f"the first step's texts were not read one at a time: {first}"
        harness.click("next-step")  # new texts while the first is still being read
        settle(page)
        assert spoken(page) == first, "a new text was read over the one being read"
        assert page.evaluate("() => window.__speechCancels") == 0, "the text being read was cut off"
        harness.click("roll-button")  # and newer ones: the step's texts of a moment ago may now be stale
        settle(page)
        assert spoken(page) == first
        on_page = " ".join(page.evaluate(ON_PAGE_JS))
        while page.evaluate("() => window.__speechEnd()"):  # each end lets the next one in line speak
            page.clock.run_for(10)
        later = spoken(page)[1:]
        assert later, "nothing was read after the first text ended"
        for text in later:  # only what is on the page now: nothing stale
            assert words(text) <= words(on_page), f"read a text no longer on the page: {text!r}"
        assert page.evaluate("() => window.__speechCancels") == 0
        # A speaker pressed is the child's own request: it is read at once, cutting off what was being read.
        page.evaluate("() => { window.__speechHold = true; }")
        before = len(spoken(page))
        page.get_by_test_id("read-aloud").first.click()
        page.clock.run_for(10)
        assert len(spoken(page)) == before + 1
        assert page.evaluate("() => window.__speechCancels") >= 1
    finally:
        context.close()


def test_a_line_drawn_again_a_moment_later_is_not_read_again_and_one_back_later_is(browser: Browser) -> None:
    """A slow page may show an older view for a moment between two of Python's answers (after New game, the
    game's end lines came back for a redraw and were read again): a line gone and back within three seconds is
    the same line drawn again; one back after longer is news, and is read."""
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    record_speech(context)
    page = context.new_page()
    try:
        page.clock.install()
        lesson = CaterpillarsLesson("01-beginner")
        harness = Harness(page, lesson)
        page.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)
        settle(page)
        first = harness.traits()
        harness.click("next-step")
        settle(page)
        second = harness.traits()
        read = len(spoken(page))
        step_line = " ".join(page.evaluate(ON_PAGE_JS))
        assert read >= 2 and step_line, "the first two steps were read"
        for flicker_ms, again in ((800, False), (4000, True)):
            page.evaluate("(t) => window.pushTraits(t)", first)  # the older view, for a moment ...
            settle(page)
            page.clock.run_for(flicker_ms)
            page.evaluate("(t) => window.pushTraits(t)", second)  # ... and the newer one again
            settle(page)
            said = spoken(page)[read:]
            read = len(spoken(page))
            back = [text for text in said if words(text) & words(step_line)]
            assert bool(back) is again, (flicker_ms, said)
    finally:
        context.close()
