"""Räuber Raupe in a real browser, served by ``caterpillar-learn serve``.

The learner's view only: the test opens a Raupe lesson from the lesson list
by its visible name, plays one card by clicks and one by the keyboard alone,
and checks that the pile and hand sizes on the page are the engine's.  The
engine's state comes from the game record the page shows (seed + events,
replayed by :meth:`caterpillar_learn.raupe.Game.from_json`), so the
bots may act in real time while the test plays.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.i18n import text
from caterpillar_learn.raupe import Game, State, legal_plays
from tests.waiting import until

from .conftest import Server, screenshot
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, open_lesson

pytestmark = pytest.mark.browser

LESSON = "10-raupe-shape"
TAB_PRESSES = 80


def record(page: Page) -> dict[str, object]:
    data: dict[str, object] = json.loads(page.get_by_test_id("raupe-record").text_content() or "{}")
    return data


def my_plays(page: Page) -> int:
    return sum(1 for event in record(page)["events"] if event.get("play") == 0)  # type: ignore[attr-defined]


def settled(page: Page) -> tuple[State, dict[str, object]]:
    """The engine's state and the sizes shown, read while no event arrives in between."""
    for _ in range(20):
        before = record(page)
        shown = {
            "hand": page.get_by_test_id("raupe-card").count(),
            "pile": int(page.get_by_test_id("raupe-pile").get_attribute("data-size") or -1),
            "opponents": [int(t) for t in page.get_by_test_id("raupe-opponent").all_text_contents()],
        }
        if record(page) == before:
            return Game.from_json(before).state, shown
    raise AssertionError("the table never stood still")


def expect_sizes_match(page: Page) -> State:
    state, shown = settled(page)
    assert shown == {
        "hand": len(state.hands[0]),
        "pile": len(state.pile),
        "opponents": [len(hand) for hand in state.hands[1:]],
    }
    return state


def choose(page: Page) -> tuple[int, int, list[str]]:
    """A card that fits now, its side, and the shouts it needs."""
    state, _ = settled(page)
    option = legal_plays(state, 0)[0]
    card = state.hands[0][option.card]
    shouts = (["aphid"] if state.aphid_owed else []) + ([state.mode.other.word] if card.is_change else [])
    return option.card, option.side, shouts


def answer_which_cards_fit(lesson: Page) -> None:
    """The lesson asks before the first game: a wrong answer first, then the right one, by taps on the cards."""
    state, _ = settled(lesson)
    fitting = {option.card for option in legal_plays(state, 0) if option.side == 0}
    expect(lesson.get_by_test_id("question")).to_contain_text(re.compile("which of your cards fit", re.IGNORECASE))
    answers = lesson.get_by_test_id("answer")
    expect(answers).to_have_count(len(state.hands[0]))
    wrong = next(i for i in range(len(state.hands[0])) if i not in fitting)
    card = lambda i: lesson.locator(f'[data-testid="raupe-card"][data-index="{i}"]')  # noqa: E731
    card(wrong).click()
    expect(card(wrong)).to_have_attribute("aria-pressed", "true")  # the card button itself is the toggle
    lesson.get_by_test_id("check-answer").click()
    expect(lesson.get_by_test_id("feedback")).to_have_attribute("data-correct", "false")
    lesson.locator(f'[data-testid="raupe-card"][data-index="{wrong}"]').click()
    for index in sorted(fitting):
        card(index).click()
        expect(card(index)).to_have_attribute("aria-pressed", "true")
    lesson.get_by_test_id("check-answer").click()
    expect(lesson.get_by_test_id("feedback")).to_have_attribute("data-correct", "true")
    expect(lesson.get_by_test_id("answer")).to_have_count(0)  # the cards are cards again


def test_a_round_by_clicks_and_a_round_by_keyboard(page: Page, lessons_server: Server) -> None:
    page.goto(lessons_server.url)
    lesson = open_lesson(page, LESSON)
    expect(lesson.get_by_test_id("raupe-start")).to_be_visible(timeout=RENDER_TIMEOUT)
    expect(lesson.get_by_test_id("raupe-mode")).to_have_text("Shape")
    expect(lesson.get_by_test_id("raupe-winner")).to_have_count(0)
    expect_sizes_match(lesson)
    answer_which_cards_fit(lesson)
    # A grown-up slows the bots (For grown-ups): the pile stays while a card is chosen and played by keys.
    slow = "node => { node.value = '0.25'; node.dispatchEvent(new Event('change')); }"
    lesson.get_by_test_id("raupe-speed").evaluate(slow)
    lesson.get_by_test_id("raupe-start").click()
    expect(lesson.get_by_test_id("raupe-start")).to_have_text("New game")

    # -- by clicks ---------------------------------------------------------------
    index, side, shouts = choose(lesson)
    card = lesson.locator(f'[data-testid="raupe-card"][data-index="{index}"]')
    expect(card).to_have_attribute("aria-label", re.compile(r"^Card \d+ of \d+: "))
    if card.get_attribute("data-side") != str(side):
        lesson.locator(f'[data-testid="raupe-flip"][data-index="{index}"]').click()
        expect(card).to_have_attribute("data-side", str(side))
    for word in shouts:
        lesson.get_by_test_id(f"raupe-call-{word}").click()
        expect(lesson.get_by_test_id(f"raupe-call-{word}")).to_have_attribute("aria-pressed", "true")
    before = my_plays(lesson)
    card.click()
    _wait_for(lambda: my_plays(lesson) == before + 1)
    expect(lesson.get_by_test_id("raupe-message")).not_to_be_empty()
    expect_sizes_match(lesson)

    # -- by keyboard alone -----------------------------------------------------------
    lesson.get_by_test_id("raupe-mode").click()  # start from a neutral place
    for _ in range(TAB_PRESSES):
        lesson.keyboard.press("Tab")
        if lesson.evaluate("document.activeElement?.dataset?.testid") == "raupe-card":
            break
    else:
        pytest.fail("Tab never reached a card")
    index, side, shouts = choose(lesson)
    for _ in range(index):
        lesson.keyboard.press("ArrowRight")
    assert lesson.evaluate("document.activeElement.dataset.index") == str(index)
    focused = lesson.locator(f'[data-testid="raupe-card"][data-index="{index}"]')
    if focused.get_attribute("data-side") != str(side):
        lesson.keyboard.press("f")
        expect(focused).to_have_attribute("data-side", str(side))
    keys = {"aphid": "a", "shape": "s", "colour": "c"}
    for word in shouts:
        lesson.keyboard.press(keys[word])
        expect(lesson.get_by_test_id(f"raupe-call-{word}")).to_have_attribute("aria-pressed", "true")
    before = my_plays(lesson)
    assert lesson.evaluate("document.activeElement.dataset.index") == str(index)
    lesson.keyboard.press("Enter")
    _wait_for(lambda: my_plays(lesson) == before + 1)
    state = expect_sizes_match(lesson)
    assert state.plays >= 2

    # -- pause by the p key, a refused card, resume by the button's Enter ----------------
    pause = lesson.get_by_test_id("raupe-pause")
    expect(pause).to_have_attribute("aria-pressed", "false")
    lesson.keyboard.press("p")
    expect(pause).to_have_attribute("aria-pressed", "true")
    expect(lesson.get_by_test_id("raupe-message")).to_have_text(text("raupe_lessons.msg.paused"))
    paused_at = record(lesson)
    lesson.get_by_test_id("raupe-card").first.click()
    expect(lesson.get_by_test_id("raupe-message")).to_have_text(text("raupe_lessons.msg.is_paused"))
    screenshot(lesson, "raupe-paused")
    # time itself: a second of the paused game (its clock sends no tick), in which no card and no bot may play
    time.sleep(1.0)
    assert record(lesson) == paused_at  # neither the card nor a bot got through
    pause.focus()
    lesson.keyboard.press("Enter")
    expect(pause).to_have_attribute("aria-pressed", "false")
    screenshot(lesson, "raupe-shape")


def _wait_for(condition: Callable[[], bool], timeout: float = CLICK_TIMEOUT / 1000) -> None:
    until(condition, timeout, "the page did not update in time")
