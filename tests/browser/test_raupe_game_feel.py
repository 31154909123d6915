"""Räuber Raupe as a game the child plays (issue 29), in Chromium through Voila, on a 1024×768 touch screen.

* **The child does the matching.**  Once lesson 10's game runs, no hand card
  carries the mark of the thing to do and no ✓ says which card fits: the hand
  is what is marked.
* **Size.**  Once a game runs, the pile and the hand take at least 45 % of a
  tablet's screen and 40 % of a projector's (the same page made 1920×1080), no text in them is under 16 px
  (tablet) or 24 px (projector), and lesson 10's hand cards are at least 96 px
  wide on the tablet (the race's twenty cards are smaller: two rows of them
  must fit).
* **Sound.**  A stand-in ``AudioContext`` (:data:`tests.browser.test_board_feel.WATCH_JS`)
  counts the sounds: a card that fits is heard, a card that does not fit (a
  slip) is heard; with the sound switch off, nothing is.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.raupe import legal_plays
from caterpillar_learn.ui.raupe.controller import TOO_LATE
from tests.waiting import until

from .conftest import Server, screenshot
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, wait_answered
from .test_board_feel import PROJECTOR, TABLET, WATCH_JS
from .test_raupe import answer_which_cards_fit, my_plays, settled
from .test_raupe_screen import resized

pytestmark = pytest.mark.browser

LESSON = "10-raupe-shape"
#: How many notes a card that fits and a slip have (widgets/sound.js SOUNDS): each is two notes.
NOTES = 2


def _started(browser: Browser, server: Server, screen: dict[str, Any] = TABLET, lesson: str = LESSON) -> Page:
    context = browser.new_context(**screen)
    context.set_default_timeout(30_000)
    context.add_init_script(WATCH_JS)
    page = context.new_page()
    page.goto(f"{server.url.rstrip('/')}/voila/render/{lesson}.ipynb")
    expect(page.get_by_test_id("raupe-start")).to_be_visible(timeout=RENDER_TIMEOUT)
    slow = "node => { node.value = '0.25'; node.dispatchEvent(new Event('change')); }"
    page.get_by_test_id("raupe-speed").evaluate(slow)  # the bots slow: the pile stays while the test looks
    if page.get_by_test_id("question").count():  # the race asks nothing first
        answer_which_cards_fit(page)
    start = page.get_by_test_id("raupe-start")
    start.tap() if screen.get("has_touch") else start.click()
    expect(start).to_have_text("New game")
    return page


def _play(page: Page, index: int, mark: str) -> None:
    """Tap card ``index`` under ``mark``; wait until the table has answered (a play, or a slip's penalty)."""
    page.evaluate(f"window.__mark = {mark!r}")
    before = page.evaluate("JSON.stringify(window.__sounds)"), my_plays(page)
    page.locator(f'[data-testid="raupe-card"][data-index="{index}"]').tap()
    answered = lambda: (page.evaluate("JSON.stringify(window.__sounds)"), my_plays(page)) != before  # noqa: E731
    with contextlib.suppress(AssertionError):  # nothing answered: the assertions say what is missing
        until(answered, CLICK_TIMEOUT / 1000, "the table did not answer the card")
    wait_answered(page)  # Python has answered the tap, and the page has drawn (and sounded) its answer


def _a_fitting_card(page: Page) -> int | None:
    """A card of the hand that fits as it lies, with no call or flip needed, or None."""
    state, _ = settled(page)
    for option in legal_plays(state, 0):
        card = state.hands[0][option.card]
        if option.side == 0 and not card.is_change and not state.aphid_owed:
            return option.card
    return None


def _an_unfitting_card(page: Page) -> int | None:
    state, _ = settled(page)
    fitting = {option.card for option in legal_plays(state, 0)}
    return next((i for i in range(len(state.hands[0])) if i not in fitting), None)


def test_no_card_is_marked_as_the_one_that_fits_and_plays_are_heard(browser: Browser, lessons_server: Server) -> None:
    page = _started(browser, lessons_server)
    try:
        expect(page.get_by_test_id("raupe-hand")).to_have_attribute("data-todo", "true", timeout=CLICK_TIMEOUT)
        assert page.locator('[data-testid="raupe-card"][data-todo="true"]').count() == 0
        assert "✓" not in (page.get_by_test_id("raupe-hand").text_content() or "")
        screenshot(page, "raupe-10-tablet-playing")
        index = _a_fitting_card(page)
        assert index is not None, "the lesson's seed deals a card that fits at once"
        _play(page, index, "fit")
        # time itself: the too-late window after the pile changed (TOO_LATE s) passes, so the next card is a slip
        page.wait_for_timeout(TOO_LATE * 1000 + 300)
        slip = _an_unfitting_card(page)
        if slip is not None:
            _play(page, slip, "slip")
        sounds = page.evaluate("window.__sounds")
        heard = {(sound["mark"], sound["notes"]) for sound in sounds}
        assert ("fit", NOTES) in heard, sounds
        assert slip is None or ("slip", NOTES) in heard, sounds
    finally:
        page.context.close()


def test_with_the_switch_off_a_card_makes_no_sound(browser: Browser, lessons_server: Server) -> None:
    page = _started(browser, lessons_server)
    try:
        page.get_by_test_id("sound-switch").tap()
        expect(page.get_by_test_id("sound-switch")).to_have_attribute("aria-checked", "false")
        page.evaluate("window.__sounds = []")
        index = _a_fitting_card(page)
        assert index is not None
        _play(page, index, "fit")
        assert page.evaluate("window.__sounds") == []
    finally:
        page.context.close()


#: The game's share of the window, its smallest text and the hand's card width (the pile and the hand).
MEASURE_JS = """() => {
  const parts = ['[data-testid="raupe-pile"]', '[data-testid="raupe-hand"]'].map((s) => document.querySelector(s));
  const boxes = parts.map((node) => node.getBoundingClientRect());
  const left = Math.max(0, Math.min(...boxes.map((r) => r.left)));
  const top = Math.max(0, Math.min(...boxes.map((r) => r.top)));
  const right = Math.min(innerWidth, Math.max(...boxes.map((r) => r.right)));
  const bottom = Math.min(innerHeight, Math.max(...boxes.map((r) => r.bottom)));
  const texts = [];
  for (const part of parts) {
    for (const node of part.querySelectorAll('text, span, div, button, h3')) {
      const own = Array.from(node.childNodes).some((c) => c.nodeType === Node.TEXT_NODE && c.data.trim());
      if (!own || !node.getBoundingClientRect().width) continue;
      const size = node instanceof SVGTextElement
        ? parseFloat(node.getAttribute('font-size')) * node.ownerSVGElement.getScreenCTM().a
        : parseFloat(getComputedStyle(node).fontSize);
      texts.push([size, node.textContent.trim().slice(0, 30)]);
    }
  }
  texts.sort((a, b) => a[0] - b[0]);
  const card = document.querySelector('[data-testid="raupe-card"]').getBoundingClientRect().width;
  return { share: (right - left) * (bottom - top) / (innerWidth * innerHeight), smallest: texts[0], card };
}"""
#: What point 1 asks of each screen: the game's least share, the least text size (px), the least card width.
SCREENS = {"tablet": (TABLET, 0.45, 16.0, 96.0), "projector": (PROJECTOR, 0.40, 24.0, 96.0)}


@pytest.mark.parametrize("lesson", [LESSON, "15-raupe-race"])
def test_the_table_fills_the_screen_and_its_text_is_readable(
    browser: Browser, lessons_server: Server, lesson: str
) -> None:
    """On the tablet, then on the same page made a projector's size (one page and one kernel for both: what is
    measured is the layout, which follows the window)."""
    page = _started(browser, lessons_server, TABLET, lesson)
    try:
        for screen, (options, least_share, least_text, least_card) in SCREENS.items():
            page.set_viewport_size(options["viewport"])
            resized(page, options["viewport"])  # the hand measured and sized to the window
            seen = page.evaluate(MEASURE_JS)
            screenshot(page, f"raupe-{lesson}-{screen}-playing")
            assert seen["share"] >= least_share, f"the table takes {seen['share']:.0%} of the {screen}"
            size, words = seen["smallest"]
            assert size >= least_text - 0.05, f"{words!r} is {size:.1f} px on the {screen}"
            if lesson == LESSON:
                assert seen["card"] >= least_card, f"the hand's cards are {seen['card']:.0f} px wide on the {screen}"
    finally:
        page.context.close()


#: The script's animations now running (Web Animations made by raupe-motion.js, not the stylesheet's pulses),
#: each named by what it moves.
MOVING_JS = """() => document.getAnimations()
  .filter((a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition) && a.effect && a.effect.target)
  .map((a) => { const t = a.effect.target;
    return t.closest('[data-testid="raupe-pile"]') ? "pile" : t.classList.contains("rr-flying-card") ? "card-back"
      : t.closest('[data-testid="raupe-card"]') || t.matches('[data-testid="raupe-card"]') ? "hand" : "other"; })"""


def _moves_after(page: Page, act: Any, seconds: float = 1.5) -> set[str]:
    """What the page moves within ``seconds`` after ``act()`` (looked at every 50 ms)."""
    act()
    seen: set[str] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen |= set(page.evaluate(MOVING_JS))
        time.sleep(0.05)  # poll: the animations running now, looked at until the window after the tap ends
    return seen


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_played_card_travels_to_the_pile_and_none_under_reduced_motion(
    browser: Browser, lessons_server: Server, motion: str
) -> None:
    """Issue 29, point 2: the learner's card travels to the pile (a bot's does too); nothing moves under
    ``prefers-reduced-motion``."""
    page = _started(browser, lessons_server, {**TABLET, "reduced_motion": motion})
    try:
        index = _a_fitting_card(page)
        assert index is not None, "the lesson's seed deals a card that fits at once"
        card = page.locator(f'[data-testid="raupe-card"][data-index="{index}"]')
        seen = _moves_after(page, card.tap)
        if motion == "reduce":
            assert seen == set(), seen
        else:
            assert "pile" in seen, seen
    finally:
        page.context.close()
