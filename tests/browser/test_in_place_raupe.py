"""Räuber Raupe draws in place (issue 28, "One way to draw"), in Chromium through Voila.

The table is described again on every change and only what differs changes in
the page: the clock running removes no element and keeps every card's node,
and a card pressed while a bot covers the pile (its ``fits`` changes under the
finger) is still that card when the finger lifts, so the release is a tap on
it and the game answers that card.

A tick alone changes no view trait (Python sends nothing when nothing
changed), so the clock's test also changes one text while the clock runs (the
speed's words): that redraws the whole table, and an element a redraw
removed or replaced would show there.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from functools import partial

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from caterpillar_learn.i18n import text
from caterpillar_learn.raupe import Game, format_card
from tests.waiting import until

from .conftest import Server
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT
from .test_raupe_screen import follow_todo_to_start

pytestmark = pytest.mark.browser

LESSON = "10-raupe-shape"
#: How long a bot may take to play a card, at the fastest speed, on a loaded machine (s).
BOT_WAIT = 60.0

#: Counts, from now on, the nodes removed anywhere under the table's root and the texts changed in it.
OBSERVE_JS = """() => {
  const root = document.querySelector('.rr-root');
  window.__inPlace = { removed: 0, removedWhat: [], texts: 0 };
  window.__inPlaceObserver?.disconnect();
  window.__inPlaceObserver = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') window.__inPlace.texts += 1;
      for (const node of record.removedNodes) {
        window.__inPlace.removed += 1;
        window.__inPlace.removedWhat.push(node.nodeName + ' from ' + record.target.nodeName + '.'
          + String(record.target.className && (record.target.className.baseVal ?? record.target.className)));
      }
    }
  });
  window.__inPlaceObserver.observe(root, { childList: true, subtree: true, characterData: true });
}"""

#: What the observer saw (the records still queued included).
OBSERVED_JS = """() => {
  const records = window.__inPlaceObserver.takeRecords();
  for (const record of records) {
    if (record.type === 'characterData') window.__inPlace.texts += 1;
    window.__inPlace.removed += record.removedNodes.length;
  }
  return window.__inPlace;
}"""


#: The clock ticks each page sent to its kernel, by page.
TICKS: dict[int, list[float]] = {}


def ticks(page: Page) -> int:
    """How many ticks of the clock the page has sent to the kernel so far."""
    return len(TICKS[id(page)])


@pytest.fixture
def table(browser: Browser, lessons_server: Server) -> Iterator[Page]:
    """Lesson 10 on a screen with a mouse, its question answered by the marked taps, the game running."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(CLICK_TIMEOUT)
    page = context.new_page()
    sent = TICKS.setdefault(id(page), [])

    def frame(payload: str | bytes) -> None:
        if b'"tick"' in (payload.encode() if isinstance(payload, str) else payload):
            sent.append(time.monotonic())

    page.on("websocket", lambda socket: socket.on("framesent", frame))
    try:
        page.goto(f"{lessons_server.url}voila/render/{LESSON}.ipynb", timeout=RENDER_TIMEOUT * 2)
        expect(page.get_by_test_id("raupe-start")).to_be_visible(timeout=RENDER_TIMEOUT)
        follow_todo_to_start(page)
        yield page
    finally:
        TICKS.pop(id(page), None)
        context.close()


def more_ticks(page: Page, count: int) -> None:
    """Wait until the page has sent ``count`` more ticks of the clock (each a quarter second of its time).

    Playwright hands the test the frames the page sent only while the test talks to the page: each look at the
    count asks the page something first."""
    goal = ticks(page) + count

    def ticked() -> bool:
        page.evaluate("0")  # a round trip to the page: Playwright delivers the frames it has seen meanwhile
        return ticks(page) >= goal

    until(ticked, BOT_WAIT, f"the clock did not tick {count} times")


def set_speed(page: Page, value: str) -> None:
    """The speed slider moved to ``value`` (as a grown-up does), once the page shows the new speed."""
    slider = page.get_by_test_id("raupe-speed")
    slider.evaluate("(node, value) => { node.value = value; node.dispatchEvent(new Event('change')); }", value)
    expect(slider).to_have_attribute("aria-valuetext", f"×{value}", timeout=CLICK_TIMEOUT)  # a loaded machine


def record(page: Page) -> dict[str, object]:
    data: dict[str, object] = json.loads(page.get_by_test_id("raupe-record").text_content() or "{}")
    return data


def pile_size(page: Page) -> int:
    return int(page.get_by_test_id("raupe-pile").get_attribute("data-size") or -1)


def my_plays(data: dict[str, object]) -> list[dict[str, object]]:
    return [event for event in data["events"] if event.get("play") == 0]  # type: ignore[attr-defined]


#: Keeps every line the table's message shows from now on (``window.__lines``): a bot's next card may replace
#: "Too late" before a look at the page, with the bots at their fastest on a loaded machine.
LINES_JS = """() => {
  window.__lines = [];
  const root = document.querySelector('.rr-root');
  const keep = () => {
    const line = document.querySelector('[data-testid="raupe-message"]');
    if (line && line.textContent !== window.__lines[window.__lines.length - 1]) window.__lines.push(line.textContent);
  };
  new MutationObserver(keep).observe(root, { childList: true, subtree: true, characterData: true });
  keep();
}"""


def answer(page: Page, before: dict[str, object]) -> tuple[list[dict[str, object]], str] | None:
    """The game's answer to the learner's card since the record was ``before``: the learner's plays since (maybe
    a slip) and the line, once there is one (a play, or "too late" shown at any moment since :data:`LINES_JS`
    began to keep the lines), else None."""
    played = my_plays(record(page))[len(my_plays(before)) :]
    late = text("raupe_lessons.msg.too_late")
    lines: list[str] = page.evaluate("() => window.__lines || []")
    return (played, late if late in lines else "") if played or late in lines else None


def test_the_clock_running_removes_no_element_and_keeps_each_card(table: Page) -> None:
    page = table
    set_speed(page, "0.25")  # the bots at their slowest: a window with nothing but the clock is easy to find
    for _ in range(6):
        size = pile_size(page)
        page.evaluate("() => { window.__card = document.querySelector('[data-testid=\"raupe-card\"]'); }")
        page.evaluate(OBSERVE_JS)
        more_ticks(page, 4)  # about a second of the clock, nothing else
        quiet = page.evaluate(OBSERVED_JS)
        set_speed(page, "0.3")  # one text changes: the whole table is described and painted again
        more_ticks(page, 2)
        seen = page.evaluate(OBSERVED_JS)
        set_speed(page, "0.25")
        if pile_size(page) != size:
            continue  # a bot played meanwhile: something else happened, look at another window
        assert quiet["removed"] == 0, f"the clock alone removed nodes: {quiet['removedWhat']}"
        assert seen["removed"] == 0, f"a redraw removed nodes: {seen['removedWhat']}"
        assert seen["texts"] > 0  # the speed's words changed in place: the redraw did happen
        assert page.evaluate(
            "() => window.__card.isConnected"
            " && window.__card === document.querySelector('[data-testid=\"raupe-card\"]')"
        ), "the hand's first card is not the node it was"
        assert page.evaluate("() => window.__card.closest('.rr-root') === document.querySelector('.rr-root')")
        return
    pytest.fail("a bot played in every window: no stretch of the clock alone was seen")


def test_a_card_pressed_while_a_bot_plays_is_that_card_when_released(table: Page) -> None:
    page = table
    set_speed(page, "2.5")  # a bot's card comes soon
    page.evaluate("() => window.__rrTaps = []")
    for _ in range(4):
        state = Game.from_json(record(page)).state
        if not state.hands[0] or state.finished:
            pytest.skip("the game ended before a card could be pressed")
        index = len(state.hands[0]) // 2
        card = page.locator(f'[data-testid="raupe-card"][data-index="{index}"]')
        expect(card).to_be_visible()
        box = card.bounding_box()
        assert box is not None
        size = pile_size(page)
        before = record(page)
        # The node pressed, and every click it receives (not one that lands on a node put in its place).
        page.evaluate(
            """(index) => {
              const card = document.querySelector(`[data-testid="raupe-card"][data-index="${index}"]`);
              window.__pressed = card;
              card.addEventListener('click', () => window.__rrTaps.push(index));
            }""",
            index,
        )
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        with contextlib.suppress(PlaywrightTimeoutError):  # a bot's card on the pile, or any other event
            page.wait_for_function(
                """([size, before]) => document.querySelector('[data-testid="raupe-pile"]').dataset.size !== size
                  || document.querySelector('[data-testid="raupe-record"]').textContent !== before""",
                arg=[str(size), page.get_by_test_id("raupe-record").text_content() or ""],
                polling=20,
                timeout=BOT_WAIT * 1000,
            )
        moved = pile_size(page) != size
        page.evaluate(LINES_JS)  # from the release on: the card's answer may be a line a bot's next card replaces
        page.mouse.up()
        if not moved:
            continue  # no bot played while the card was held (or the learner's turn came): press again
        expect(page.locator(".rr-root")).not_to_have_attribute("aria-busy", "true")
        assert page.evaluate(
            """(index) => window.__pressed.isConnected && window.__pressed
              === document.querySelector(`[data-testid="raupe-card"][data-index="${index}"]`)""",
            index,
        ), "the pressed card is not the node it was when the pile changed"
        assert page.evaluate("() => window.__rrTaps") == [index], "the release was no tap on the pressed card"
        # The game's answer to that card: played (maybe as a slip), or too late for the new pile.
        held = format_card(state.hands[0][index])
        played = until(partial(answer, page, before), CLICK_TIMEOUT / 1000, "no answer to the card")[0]
        assert played == [] or [event["card"] for event in played] == [held], f"another card was played: {played}"
        return
    pytest.fail("no bot played while a card was held, four times")
