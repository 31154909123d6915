"""Three of a child's moments at lesson 10 (issue 40), in Chromium through Voila, on a 1024×768 touch screen.

* **Help follows the child.**  The child sits still for 20 s of the page's
  time at the default speed while the bots keep playing: the line says the
  hint's words (not before 8 s), and then a card that fits glows (not before
  16 s).  The page's clock is
  Playwright's (``page.clock``), paused once the question is answered and
  moved a quarter second at a time (the page's own tick): no real waiting, and
  the same game on every run.
* **The voice says less.**  Meanwhile the stand-in speech engine
  (:mod:`tests.browser.speech`) hears no bot's move.
* **A wrong card is shown at once**: a card that does not fit shows beside the
  leaf it went on within a second of the tap.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.i18n import text
from caterpillar_learn.raupe import legal_plays
from caterpillar_learn.ui.raupe.seat import HINT_PAUSE

from .conftest import Server, screenshot
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT
from .speech import heard, record_speech
from .test_board_feel import PROJECTOR, TABLET
from .test_raupe import settled
from .words import assert_few_words

pytestmark = pytest.mark.browser

LESSON = "10-raupe-shape"
#: The page's tick (widgets/raupe.js TICK_MS): the clock is moved by one at a time.
TICK_MS = 250
IDLE_MS = 20_000
NOT_BUSY = "() => !document.querySelector('.rr-root[aria-busy=\"true\"]')"


def _open(browser: Browser, server: Server, *, clock: bool) -> Page:
    context = browser.new_context(**TABLET)
    context.set_default_timeout(CLICK_TIMEOUT)
    record_speech(context)
    page = context.new_page()
    if clock:
        page.clock.install()  # the page's time flows as usual until the test pauses it
    page.goto(f"{server.url.rstrip('/')}/voila/render/{LESSON}.ipynb", timeout=RENDER_TIMEOUT * 2)
    expect(page.get_by_test_id("raupe-start")).to_be_visible(timeout=RENDER_TIMEOUT)
    return page


def _answer_by_taps(page: Page) -> None:
    """ "Which of your cards fit?": tap each card that fits as it lies, then Check."""
    state, _ = settled(page)
    for index in sorted({option.card for option in legal_plays(state, 0) if option.side == 0}):
        card = page.locator(f'[data-testid="raupe-card"][data-index="{index}"]')
        card.tap()
        expect(card).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("check-answer").tap()
    expect(page.get_by_test_id("feedback")).to_have_attribute("data-correct", "true")


def _step(page: Page) -> None:
    """One tick of the page's clock, and Python's answer to it."""
    page.clock.run_for(TICK_MS)
    page.wait_for_function(NOT_BUSY, polling=20, timeout=CLICK_TIMEOUT)


def _pile(page: Page) -> int:
    return int(page.get_by_test_id("raupe-pile").get_attribute("data-size") or 0)


def test_an_idle_child_gets_words_then_a_glowing_card_and_hears_no_bot(
    browser: Browser, lessons_server: Server
) -> None:
    page = _open(browser, lessons_server, clock=True)
    try:
        _answer_by_taps(page)
        # From here on the page's time is the test's (Playwright's Python API takes a number as seconds).
        page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)
        page.get_by_test_id("raupe-start").tap()
        expect(page.get_by_test_id("raupe-start")).to_be_hidden()
        _step(page)
        first = _pile(page)
        expect(page.get_by_test_id("raupe-now")).to_have_text(text("raupe_lessons.now.play"))
        words = text("raupe_lessons.now.hint_shape")
        glowing = page.locator('[data-testid="raupe-card"][data-todo="true"]')
        said_words = glowed = False
        # 20 s of sitting still at least; longer only where a spell with no card that fits started the wait again.
        for step in range(1, 3 * IDLE_MS // TICK_MS + 1):
            _step(page)
            # The page's seconds since Start (the tick before the loop too): the table's are never more (a late
            # tick adds none).
            seconds = (step + 1) * TICK_MS / 1000
            now = page.get_by_test_id("raupe-now").text_content()
            if now == words and not said_words:
                said_words = True
                assert seconds >= HINT_PAUSE, f"the words came after {seconds} s of the child sitting still"
                assert glowing.count() == 0, "the words come first, before any card glows"
                screenshot(page, "raupe-10-idle-words-tablet")
            if said_words and glowing.count():
                assert seconds >= 2 * HINT_PAUSE, f"a card glowed after {seconds} s of the child sitting still"
                if seconds >= IDLE_MS / 1000:
                    glowed = True
                    break
        bots = _pile(page) - first
        assert bots >= 3, f"the bots played {bots} cards in the child's 20 s"
        assert said_words, "no hint in words after the child sat still"
        assert glowed, "no card glowed after the child sat still for 20 s"
        state, _ = settled(page)
        index = int(glowing.first.get_attribute("data-index") or -1)
        assert any(option.card == index for option in legal_plays(state, 0)), "the glowing card fits the pile"
        expect(glowing.first).to_have_class(re.compile(r"\btodo\b"))
        assert_few_words(page, "with a glowing card")
        screenshot(page, "raupe-10-idle-glow-tablet")
        page.set_viewport_size(PROJECTOR["viewport"])
        _step(page)
        screenshot(page, "raupe-10-idle-glow-screen")
        # The voice meanwhile: what the child must know (the line, the hint), never a bot's move.
        said = [utterance["text"] for utterance in heard(page)]
        assert said, "the stand-in speech engine heard nothing: the voice is off?"
        bot_line = text("raupe_lessons.msg.played", player=2, words="").split("{")[0].strip()
        assert not [line for line in said if bot_line in line], said
        assert any(words in line for line in said), said
    finally:
        page.context.close()


def test_a_wrong_card_shows_beside_its_leaf_within_a_second(browser: Browser, lessons_server: Server) -> None:
    page = _open(browser, lessons_server, clock=False)
    try:
        _answer_by_taps(page)
        slow = "node => { node.value = '0.25'; node.dispatchEvent(new Event('change')); }"
        page.get_by_test_id("raupe-speed").evaluate(slow)  # the bots slow: the pile stays while the child taps
        page.get_by_test_id("raupe-start").tap()
        expect(page.get_by_test_id("raupe-start")).to_be_hidden()
        slip = page.get_by_test_id("raupe-slip")
        for _ in range(5):
            state, _ = settled(page)
            fitting = {option.card for option in legal_plays(state, 0)}
            index = next(i for i in range(len(state.hands[0])) if i not in fitting)
            page.wait_for_function(NOT_BUSY, polling=20)
            page.locator(f'[data-testid="raupe-card"][data-index="{index}"]').tap()
            try:
                expect(slip).to_be_visible(timeout=1000)  # at once: within a second of the tap
                break
            except AssertionError:  # a bot's card came just before the tap: too late, and free; tap again
                expect(page.get_by_test_id("raupe-message")).to_have_text(text("raupe_lessons.msg.too_late"))
        else:
            pytest.fail("no wrong card was shown")
        expect(slip.get_by_test_id("raupe-slip-card").locator("svg")).to_be_visible()
        expect(slip.get_by_test_id("raupe-slip-leaf").locator("svg")).to_be_visible()
        card_box, leaf_box = (slip.get_by_test_id(f"raupe-slip-{part}").bounding_box() for part in ("card", "leaf"))
        assert card_box and leaf_box and card_box["x"] + card_box["width"] <= leaf_box["x"] + 1, "side by side"
        assert abs(card_box["y"] - leaf_box["y"]) < 4
        expect(slip).to_contain_text(text("raupe_lessons.slip.card_words", shape="", colour="").split(":")[0])
        expect(page.get_by_test_id("raupe-message")).to_contain_text("Not the same shape!")
        assert_few_words(page, "with a wrong card shown")
        screenshot(page, "raupe-10-wrong-card-tablet")
        page.set_viewport_size(PROJECTOR["viewport"])
        expect(slip).to_be_visible()
        page.wait_for_function(NOT_BUSY, polling=20)
        screenshot(page, "raupe-10-wrong-card-screen")
    finally:
        page.context.close()
