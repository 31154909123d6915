"""Räuber Raupe lessons 10-15 on a tablet and on a big screen (issue 15), in Chromium through Voila.

After Start, the pile, every card of the hand and the calls the lesson shows
lie inside the viewport, at 1024 × 768 with touch and at 1920 × 1080 (on the
page the child's walk then plays, which is made a tablet again).  A card
tapped just after a bot covered the pile is refused as too late and costs
nothing; lesson 12 deals no aphid (looked at in its walk, just after Start); lesson 14's right call gives 3 of the
learner's cards to the bot.  The child's walk taps only what carries
``data-todo`` until the lesson's last step; lesson 10's walk is in German (the
page in German to its end), the others' in English.  The engine's state comes
from the game record the page shows.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import time
from collections.abc import Iterator
from functools import partial

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from caterpillar_learn.i18n import language, text
from caterpillar_learn.lessons import SETUPS
from caterpillar_learn.raupe import Game, Penalty, State
from caterpillar_learn.ui.voice import speaks_by_default
from tests.waiting import until

from .conftest import Server, screenshot
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, wait_answered, wait_painted
from .speech import Heard, record_speech
from .walk import CLICK_GRACE_MS, CLICKS_JS
from .words import FEW_WORDS, assert_few_words

pytestmark = pytest.mark.browser

LESSONS = sorted(SETUPS)
TABLET: ViewportSize = {"width": 1024, "height": 768}
SCREEN: ViewportSize = {"width": 1920, "height": 1080}
#: Seconds the child's walk may take per lesson (a whole game, bots at the fastest speed, a loaded machine).
WALK_LIMIT = 420.0


def open_table(browser: Browser, server: Server, lesson: str, size: ViewportSize, touch: bool) -> Iterator[Page]:
    context = browser.new_context(viewport=size, has_touch=touch)
    context.set_default_timeout(CLICK_TIMEOUT)
    record_speech(context)
    page = context.new_page()
    try:
        page.goto(f"{server.url}voila/render/{lesson}.ipynb", timeout=RENDER_TIMEOUT * 2)
        expect(page.get_by_test_id("raupe-start")).to_be_visible(timeout=RENDER_TIMEOUT)
        yield page
    finally:
        context.close()


@pytest.fixture
def tablet(browser: Browser, lessons_server: Server, request: pytest.FixtureRequest) -> Iterator[Page]:
    yield from open_table(browser, lessons_server, request.param, TABLET, True)


def tap(page: Page, target: Locator) -> None:
    """A tap where the page has touch, else a click."""
    if page.evaluate("navigator.maxTouchPoints > 0"):
        target.tap()
    else:
        target.click()


def tap_and_wait(page: Page, target: Locator) -> None:
    """:func:`tap`, then wait until its click has reached the page (or :data:`CLICK_GRACE_MS` passed) and the
    table is not busy (``aria-busy`` from the tap's event until Python has answered it)."""
    before: int = page.evaluate(CLICKS_JS)
    tap(page, target)
    page.wait_for_function(
        """([clicks, grace]) => {
          const now = performance.now();
          window.__tapAt = window.__tapAt && window.__tapAt.clicks === clicks ? window.__tapAt : { clicks, at: now };
          if ((window.__walkClicks || 0) < clicks && now - window.__tapAt.at < grace) return false;
          return !document.querySelector('.rr-root[aria-busy="true"]');
        }""",
        arg=[before + 1, CLICK_GRACE_MS],
        polling=30,
        timeout=CLICK_TIMEOUT,
    )


def answer_at_random(page: Page, question: Locator, rng: random.Random) -> None:
    """Choose one of the question's answers at random (if it shows them as buttons), then Check; after two
    misses the lesson shows the answer, marked one part at a time, and the walk follows the marks."""
    answers = question.locator('[data-testid="answer"]')
    if answers.count():
        tap_and_wait(page, answers.nth(rng.randrange(answers.count())))
    tap_and_wait(page, question.get_by_test_id("check-answer"))


def game_state(page: Page) -> State:
    return Game.from_json(json.loads(page.get_by_test_id("raupe-record").text_content() or "{}")).state


def in_view(page: Page, target: Locator) -> bool:
    box = target.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] + 0.5
        and (box["y"] + box["height"] <= size["height"] + 0.5)
    )


def the_todo(page: Page) -> Locator:
    """The one thing marked to do now: exactly one, visible and inside the viewport (read in one go, as a
    bot's card may redraw the hand at any moment; a redraw in between is looked at again)."""
    seen: dict[str, object] = {}

    def one_in_view() -> Locator | None:
        seen.clear()
        seen.update(page.evaluate(TODO_JS))
        if seen.get("count") == 1 and seen.get("shown") and seen.get("inside"):
            selector = f'[data-testid="{seen["testid"]}"]'
            if seen["index"]:
                selector += f'[data-index="{seen["index"]}"]'
            if seen.get("option"):  # a question's shown answer: that one, not the first answer button
                selector += f'[data-option="{seen["option"]}"]'
            return page.locator(selector).first
        return None

    try:
        return until(one_in_view, CLICK_TIMEOUT / 1000, "not exactly one marked thing in view")
    except AssertionError:
        raise AssertionError(f"not exactly one marked thing in view: {seen}") from None


#: The things marked to do now: their count, and where there is one, whether it is shown and inside the window.
TODO_JS = """() => {
  const marked = [...document.querySelectorAll('[data-todo="true"]')];
  const node = marked[0];
  if (marked.length !== 1) return { count: marked.length };
  const r = node.getBoundingClientRect();
  return { count: 1, shown: node.offsetParent !== null && r.width > 0,
    inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5,
    testid: node.dataset.testid || '', index: node.dataset.index || '', option: node.dataset.option || '' };
}"""


def small_targets(page: Page) -> list[str]:
    """Visible buttons, selects and sliders of the table under 44 × 44 CSS px."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('.rr-root button, .rr-root select, .rr-root input, .rr-root summary')]
          .filter((n) => n.offsetParent !== null && getComputedStyle(n).visibility !== 'hidden')
          .map((n) => [n, n.getBoundingClientRect()])
          .filter(([, r]) => r.width < 44 || r.height < 44)
          .map(([n, r]) => `${n.dataset.testid || n.className || n.tagName}`
            + ` ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    return found


def follow_todo_to_start(page: Page) -> None:
    """Taps only on data-todo (a wrong check first where the lesson asks), until the game runs."""
    check = page.get_by_test_id("check-answer")
    if check.count():
        tap(page, check)  # nothing chosen: wrong, try again
        expect(page.get_by_test_id("feedback")).to_have_attribute("data-correct", "false")
        tap(page, check)  # a second miss: the answer is shown, marked card by card
    for _ in range(40):
        todo = the_todo(page)
        kind = todo.get_attribute("data-testid")
        tap_and_wait(page, todo)
        if kind == "raupe-start":
            expect(page.get_by_test_id("raupe-pause")).to_be_enabled()
            return
    pytest.fail("the marked things never led to Start")


def assert_table_in_view(page: Page) -> None:
    """The pile, every card and every call shown lie inside the viewport (measured in one go: a bot may play)."""
    out = page.evaluate(
        """() => {
          const shown = (n) => n.offsetParent !== null;
          const parts = [document.querySelector('[data-testid="raupe-pile"]'),
            ...document.querySelectorAll('[data-testid="raupe-card"]'),
            ...[...document.querySelectorAll('[data-testid^="raupe-call-"]')].filter(shown)];
          return parts.filter((n) => { const r = n.getBoundingClientRect();
            return r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5; })
            .map((n) => `${n.dataset.testid} ${n.dataset.index || ''}`);
        }"""
    )
    assert page.get_by_test_id("raupe-card").count() > 0
    assert out == [], f"out of view: {out}"
    # The bots' speed is a grown-up's (issue 29): behind For grown-ups, and a finger's size once open.
    speed = page.get_by_test_id("raupe-speed")
    expect(speed).to_be_hidden()
    grown_ups = page.get_by_test_id("raupe-grown-ups")
    tap(page, grown_ups)
    expect(speed).to_be_visible()
    box = speed.bounding_box()
    assert box is not None and box["height"] >= 44
    tap(page, grown_ups)
    expect(speed).to_be_hidden()


def resized(page: Page, size: ViewportSize) -> None:
    """Wait until the window has ``size`` and the page has drawn it: the hand fitted to the new size (a resize
    and the table's ResizeObserver fit the hand within the frame, before two more are painted)."""
    page.wait_for_function(
        "([width, height]) => innerWidth === width && innerHeight === height",
        arg=[size["width"], size["height"]],
        timeout=CLICK_TIMEOUT,
    )
    wait_painted(page)


def look_at_the_table_on_both_screens(page: Page, lesson: str) -> None:
    """Just after Start: the table in view with targets of 44 px on the tablet, then in view on the same page
    made a big screen (as a tablet on a projector's cable would be); the page is a tablet again after."""
    wait_answered(page)  # the hand is fitted after the first redraw
    assert_table_in_view(page)
    assert small_targets(page) == []
    assert page.get_by_test_id("raupe-how-to-play").locator("xpath=..").get_attribute("open") is None
    screenshot(page, f"raupe-{lesson}-tablet")
    page.set_viewport_size(SCREEN)
    resized(page, SCREEN)  # the hand is fitted again once the table has its new size
    assert_table_in_view(page)
    screenshot(page, f"raupe-{lesson}-screen")
    page.set_viewport_size(TABLET)
    resized(page, TABLET)
    assert_table_in_view(page)


@pytest.mark.parametrize("tablet", ["10-raupe-shape"], indirect=True)
def test_a_card_tapped_as_the_pile_changes_is_too_late_and_costs_nothing(tablet: Page) -> None:
    page = tablet
    follow_todo_to_start(page)
    for _ in range(6):
        # The moment the bot's card shows, tap a card whose side up does not fit the new pile.
        tapped = page.evaluate(
            """() => new Promise((done) => {
              const pile = document.querySelector('[data-testid="raupe-pile"]');
              const size = pile.dataset.size;
              const watch = new MutationObserver(() => {
                if (pile.dataset.size === size) return;
                watch.disconnect();
                const card = [...document.querySelectorAll('[data-testid="raupe-card"]')]
                  .find((c) => !c.classList.contains('rr-fits'));
                if (card) card.click();
                done(card ? Number(card.dataset.index) : -1);
              });
              watch.observe(pile, { attributes: true });
            })"""
        )
        if tapped >= 0:
            break
    else:
        pytest.fail("every card fitted each new pile")
    expect(page.get_by_test_id("raupe-message")).to_have_text(text("raupe_lessons.msg.too_late"))
    state = game_state(page)
    assert not any(
        event.get("play") == 0
        for event in json.loads(page.get_by_test_id("raupe-record").text_content() or "{}")["events"]
    )
    assert state.penalty is None
    expect(page.locator(".rr-score")).to_contain_text("slips: 0")


def new_penalty(page: Page, was: Penalty | None) -> Penalty | None:
    """The game's penalty, once it is not ``was`` (a call answered), else None."""
    penalty = game_state(page).penalty
    return penalty if penalty is not None and penalty != was else None


def deals_no_aphid(page: Page) -> None:
    """Lesson 12's deal, just after Start: no aphid and no butterfly on any card of any hand or of the pile."""
    state = game_state(page)
    cards = [card for hand in state.hands for card in hand] + [placed.card for placed in state.pile]
    assert cards and not any(side.aphid for card in cards for side in card.sides)
    assert not any(card.is_butterfly for card in cards)
    expect(page.locator('[data-mark="aphid"]')).to_have_count(0)


#: What a lesson's walk also checks just after Start (in the walk, not on a page of its own: each page opened
#: costs a kernel and a Voila page).
AFTER_START = {"12-raupe-change-card": deals_no_aphid}


@pytest.mark.parametrize("tablet", ["14-raupe-spot-the-mistake"], indirect=True)
def test_lesson_fourteen_a_right_call_gives_three_of_the_learners_cards(tablet: Page) -> None:
    page = tablet
    follow_todo_to_start(page)
    expect(page.get_by_test_id("raupe-below")).to_be_attached()
    page.emulate_media(reduced_motion="no-preference")  # the suite's pages are still; this one looks at motion
    page.evaluate(
        """() => { window.__backs = 0; new MutationObserver((changes) => { for (const change of changes)
          for (const node of change.addedNodes) if (node.classList && node.classList.contains("rr-flying-card"))
            window.__backs += 1; }).observe(document.body, { childList: true }); }"""
    )
    deadline, called = time.monotonic() + 240, None
    while time.monotonic() < deadline:
        state = game_state(page)
        if state.finished:
            pytest.fail("the game ended before a right call")
        last = state.last
        if last is None or last.player == 0 or not last.mistakes or state.plays == called:
            time.sleep(0.2)  # poll: a bot's card with a mistake not yet called, within the four minutes above
            continue
        mine = page.get_by_test_id("raupe-card").count()
        expect(page.get_by_test_id("raupe-below").locator("svg")).to_be_visible()  # the leaf to check against
        page.evaluate("() => { window.__backs = 0; }")
        tap(page, page.get_by_test_id("raupe-call-mistake"))
        called = state.plays
        # The call's penalty (a bot's card may have come first).
        penalty = until(partial(new_penalty, page, state.penalty), CLICK_TIMEOUT / 1000, "the call was not answered")
        if not penalty.right:
            # On a loaded machine a bot's card covered the slip before the tap arrived: the call was wrong, as
            # a slow child's would be.  Wait for the next slip.
            continue
        break
    else:
        pytest.fail("no right call in four minutes")
    # The three cards travel to the offender's row (issue 29, point 2: a penalty's cards move to who takes them).
    page.wait_for_function("() => window.__backs >= 3", timeout=CLICK_TIMEOUT)
    offender = last.player + 1
    message = page.get_by_test_id("raupe-message")
    expect(message).to_contain_text(f"Right! Player {offender} made a mistake.")
    expect(message).to_contain_text(f"Player {offender} takes 3 of your cards.")
    assert penalty.giver == 0 and penalty.receiver == last.player
    expect(page.get_by_test_id("raupe-card")).to_have_count(mine - 3)


def walk_the_table(page: Page, lesson: str, lang: str = "en", *, both_screens: bool = False) -> None:
    """The child's walk at a table: only the marked thing is tapped, from the lesson's first step to its
    last; at every wait the speech came by itself and every target is 44 px or more.  ``both_screens``: just
    after Start, :func:`look_at_the_table_on_both_screens`; then the lesson's own check (:data:`AFTER_START`)."""
    rng = random.Random(15)
    # A grown-up sets the bots fast, so that a game fits the test's time.
    page.get_by_test_id("raupe-speed").evaluate(
        "node => { node.value = '2.5'; node.dispatchEvent(new Event('change')); }"
    )
    expect(page.get_by_test_id("raupe-speed")).to_have_attribute("aria-valuetext", "×2,5" if lang == "de" else "×2.5")
    # A listening child, as in the Caterpillars walks.
    heard = Heard(page, listen=1.0 if speaks_by_default(lesson) else 0.0)
    heard.at_wait(None)  # what the lesson said by itself as it opened
    follow_todo_to_start(page)
    if lesson in AFTER_START:
        AFTER_START[lesson](page)
    if both_screens:
        look_at_the_table_on_both_screens(page, lesson)
    progress = page.get_by_test_id("lesson-progress")
    deadline = time.monotonic() + WALK_LIMIT
    sizes: list[tuple[float, int]] = []  # the cards' width and how many, wait by wait, in the game under way
    while True:
        if time.monotonic() > deadline:  # what the page showed, for whoever reads the failure
            screenshot(page, f"raupe-{lesson}-{lang}-walk-timed-out")
            said = page.evaluate(
                """() => ({ busy: document.querySelector('.rr-root')?.getAttribute('aria-busy'),
                  todo: [...document.querySelectorAll('[data-todo="true"]')].map((n) => n.dataset.testid),
                  message: document.querySelector('[data-testid="raupe-message"]')?.textContent })"""
            )
            step = f"{progress.get_attribute('aria-valuenow')} of {progress.get_attribute('aria-valuemax')}"
            raise AssertionError(f"the game did not reach its end in {WALK_LIMIT:.0f} s: step {step}, the page {said}")
        heard.at_wait(None)  # by itself, no speaker pressed, no symbol
        if progress.get_attribute("aria-valuenow") == progress.get_attribute("aria-valuemax"):
            break  # looked at after listening: the bots may have ended the game meanwhile (then Start is marked)
        assert small_targets(page) == []
        if lesson in FEW_WORDS:
            assert_few_words(page, f"in {lesson} ({lang})")
        todo = the_todo(page)
        if lesson == IN_GERMAN:
            # The game runs while neither its question nor its Start is the thing to do (a hand is fitted anew when
            # a game starts: the rule is about a game under way).
            playing = todo.get_attribute("data-testid") not in ("question", "raupe-start")
            sizes = hand_keeps_its_size(page, sizes, playing=playing)
        if todo.get_attribute("data-testid") == "question":
            # A question while the game should run: the bots won before the lesson's last step (a slow child on a
            # loaded machine) and Play again asks about the last game.  The whole question is what is marked, and a
            # tap on it alone does nothing (the walk used to tap it until its time ran out): the child answers.
            with contextlib.suppress(Exception):
                answer_at_random(page, todo, rng)
            continue
        if todo.get_attribute("data-testid") == "raupe-hand":  # the whole hand is marked: any card of it
            cards = todo.get_by_test_id("raupe-card")
            todo = cards.nth(rng.randrange(cards.count())) if cards.count() else todo
        with contextlib.suppress(Exception):  # the mark moved on during the tap (a bot played): look again
            tap_and_wait(page, todo)
    expect(page.get_by_test_id("raupe-winner")).to_be_visible()
    # The end is a reward (issue 29, point 4): the butterfly and the stars the game earned, in sight.
    expect(page.get_by_test_id("celebration")).to_be_in_viewport()
    assert page.get_by_test_id("stars").get_attribute("data-stars") in ("1", "2", "3")
    heard.at_wait(None)
    if speaks_by_default(lesson):
        assert heard.spoken_waits >= 2, f"read-aloud is on in this lesson, and it said: {heard.said}"
        assert {utterance["lang"][:2] for utterance in heard.said} == {lang}
    assert the_todo(page).get_attribute("data-testid") == "raupe-start"  # the last step offers one thing
    with language(lang):
        expect(page.get_by_test_id("raupe-start")).to_have_text(text("raupe_lessons.ui.play_again"))


#: The cards' width and their number now (the first card's laid-out width, before any transform: a card in the
#: middle of a press or a flight is drawn scaled for a moment, which a loaded machine's look once caught; none: 0, 0),
#: and whether the game has ended (its winner is shown: the hand left over is fitted anew under the end's reward, as
#: CI once caught, when a bot won with two of the child's cards still in hand).
CARDS_JS = """() => {
  const cards = document.querySelectorAll('[data-testid="raupe-card"]');
  const over = document.querySelector('[data-testid="raupe-winner"]') !== null;
  return [cards.length ? cards[0].offsetWidth : 0, cards.length, over];
}"""


def hand_keeps_its_size(page: Page, sizes: list[tuple[float, int]], *, playing: bool) -> list[tuple[float, int]]:
    """The hand's cards keep their width through a game within 10 %, as the hand empties (issue 40: no card moves
    under a finger); only more cards than were dealt may make them smaller.  ``sizes``: this game's so far (a
    question between games starts a new list)."""
    if not playing:
        return []
    width, count, over = page.evaluate(CARDS_JS)
    if over:
        return []
    if not count:
        return sizes
    sizes = [*sizes, (width, count)]
    dealt = max(n for _, n in sizes[:1])
    widths = [w for w, n in sizes if n <= dealt]
    grew = [(a, b) for a, b in itertools.pairwise(widths) if b > a + 1]  # as the hand empties: it did (114 to 124)
    assert not grew and max(widths) <= min(widths) * 1.1, f"the cards changed size during the game: {sizes}"
    return sizes


#: The lesson walked in German (on the server that starts every lesson in German), and not again in English.
IN_GERMAN = "10-raupe-shape"


@pytest.mark.parametrize("tablet", [name for name in LESSONS if name != IN_GERMAN], indirect=True)
def test_the_childs_walk_taps_only_the_marked_thing_to_the_last_step(
    tablet: Page, request: pytest.FixtureRequest
) -> None:
    """After Start the pile, the hand and the calls are in view on a tablet and on a big screen; then the child
    walks the table to the lesson's last step."""
    walk_the_table(tablet, request.node.callspec.params["tablet"], both_screens=True)


def test_the_german_childs_walk_at_lesson_ten(browser: Browser, german_lessons_server: Server) -> None:
    """Lesson 10's walk (the same checks as the others', on both screens), the page in German to its end."""
    for page in open_table(browser, german_lessons_server, IN_GERMAN, TABLET, True):
        expect(page.locator(".rr-root").first).to_have_attribute("lang", "de")
        walk_the_table(page, IN_GERMAN, "de", both_screens=True)
