"""The Caterpillars board draws in place (issue 28, "One way to draw"), in Chromium through Voila.

Every change of a view trait describes the whole board again and only what
differs changes in the page.  A MutationObserver on the board's root
(``.cl-root``) counts the nodes removed under it while the view changes in a
way that leaves those nodes alone: "For grown-ups" opened, the hint going from
"thinking" to its answer, the read-aloud switch turned.  None may be removed
(the layer of passing pictures, the rule's arrow and the flying die, aside),
and the sheet's ``<svg>`` stays the very node it was.  And a box pressed with
the mouse while Python answers something else is still that box when the
button comes up: the release is a click on it and the box is played.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.i18n import text

from .conftest import Server
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, Player, box_id, choose, open_lesson, wait_painted
from .test_lessons import answer_the_roll

pytestmark = pytest.mark.browser

LESSON = "01-beginner"

#: From now on: the nodes removed under the board's root (outside its layer of passing pictures), what they
#: were, every hint title shown, and the sheet's <svg> as it is now.
OBSERVE_JS = """() => {
  const root = document.querySelector('.cl-root');
  window.__sheet = root.querySelector('svg[data-testid="sheet"]');
  window.__inPlace = { removed: 0, removedWhat: [], added: 0, hints: [] };
  window.__inPlaceObserver?.disconnect();
  const count = (records) => {
    for (const record of records) {
      const target = record.target;
      if (target.closest && target.closest('.cl-layer')) continue;
      window.__inPlace.added += record.addedNodes.length;
      for (const node of record.removedNodes) {
        if (node.classList && node.classList.contains('cl-layer')) continue;
        window.__inPlace.removed += 1;
        window.__inPlace.removedWhat.push(node.nodeName + ' ' + String(node.textContent).slice(0, 40) + ' from '
          + target.nodeName + '.' + String(target.className && (target.className.baseVal ?? target.className)));
      }
    }
    const title = root.querySelector('[data-testid="hint"] .cl-hint-title');
    if (title && !window.__inPlace.hints.includes(title.textContent)) window.__inPlace.hints.push(title.textContent);
  };
  window.__inPlaceCount = count;
  window.__inPlaceObserver = new MutationObserver(count);
  window.__inPlaceObserver.observe(root, { childList: true, subtree: true });
}"""

#: What the observer saw (the records still queued included), and whether the sheet is the node it was.
OBSERVED_JS = """() => {
  window.__inPlaceCount(window.__inPlaceObserver.takeRecords());
  const sheet = document.querySelector('.cl-root svg[data-testid="sheet"]');
  return { ...window.__inPlace, sameSheet: Boolean(window.__sheet) && window.__sheet === sheet && sheet.isConnected };
}"""


@pytest.fixture
def lesson(page: Page, lessons_server: Server) -> Iterator[tuple[Page, Player]]:
    """Lesson 01 opened from the gallery with a mouse, and the engine's twin of its game."""
    page.goto(lessons_server.url)
    opened = open_lesson(page, LESSON)
    expect(opened.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
    player = Player.for_lesson(opened, LESSON)
    try:
        yield opened, player
    finally:
        opened.close()


def settle(page: Page) -> None:
    """Python has answered every event the page sent, and the page has painted since."""
    expect(page.locator(".cl-root[aria-busy='true']")).to_have_count(0, timeout=CLICK_TIMEOUT)
    wait_painted(page)


def observed(page: Page) -> dict[str, object]:
    seen: dict[str, object] = page.evaluate(OBSERVED_JS)
    return seen


def assert_in_place(seen: dict[str, object]) -> None:
    assert seen["removed"] == 0, f"a redraw removed nodes: {seen['removedWhat']}"
    assert seen["sameSheet"], "the sheet's <svg> is not the node it was"


def test_grown_ups_opened_removes_nothing(lesson: tuple[Page, Player]) -> None:
    page, _ = lesson
    settle(page)
    page.evaluate(OBSERVE_JS)
    page.get_by_test_id("grown-ups").click()
    expect(page.get_by_test_id("grown-ups")).to_have_attribute("aria-pressed", "true", timeout=CLICK_TIMEOUT)
    expect(page.get_by_test_id("grown-ups-notes")).to_be_visible()
    settle(page)
    seen = observed(page)
    assert seen["added"], "nothing was drawn: the grown-ups' notes never came"
    assert_in_place(seen)


def test_the_hint_thinking_then_ready_removes_nothing(lesson: tuple[Page, Player]) -> None:
    page, player = lesson
    player.roll()
    answer_the_roll(page, player)
    settle(page)
    page.evaluate(OBSERVE_JS)
    page.get_by_test_id("hint-button").click()
    hint = page.get_by_test_id("hint")
    expect(hint).to_be_visible(timeout=RENDER_TIMEOUT)
    thinking = text("lessons.ui.thinking")
    expect(hint.locator(".cl-hint-title")).not_to_have_text(thinking, timeout=RENDER_TIMEOUT)
    expect(page.locator(".cl-box.cl-hinted")).to_have_count(1)
    settle(page)
    seen = observed(page)
    assert thinking in seen["hints"], f"the hint never showed it was thinking: {seen['hints']}"
    assert len(seen["hints"]) >= 2, f"the hint never came: {seen['hints']}"
    assert_in_place(seen)


def test_the_voice_switch_turned_removes_nothing(lesson: tuple[Page, Player]) -> None:
    """The switch flips on the page alone; the next redraw (Python's answer to "For grown-ups") keeps it, its
    node and its icons as they are."""
    page, _ = lesson
    switch = page.get_by_test_id("voice-switch")
    settle(page)
    before = switch.get_attribute("aria-checked")
    flipped = "false" if before == "true" else "true"
    page.evaluate("() => { window.__switch = document.querySelector('[data-testid=\"voice-switch\"]'); }")
    page.evaluate(OBSERVE_JS)
    switch.click()
    expect(switch).to_have_attribute("aria-checked", flipped)
    expect(switch.locator(".learn-icon:visible")).to_have_count(1)
    settle(page)
    page.get_by_test_id("grown-ups").click()  # a redraw after the switch
    expect(page.get_by_test_id("grown-ups")).to_have_attribute("aria-pressed", "true", timeout=CLICK_TIMEOUT)
    settle(page)
    expect(switch).to_have_attribute("aria-checked", flipped)
    seen = observed(page)
    assert seen["added"], "nothing was redrawn after the switch"
    assert_in_place(seen)
    assert page.evaluate("() => window.__switch === document.querySelector('[data-testid=\"voice-switch\"]')")


def test_a_box_pressed_while_python_answers_is_played_when_released(lesson: tuple[Page, Player]) -> None:
    """The mouse holds a starred box down while the grown-ups' numbers come from Python (a keyboard press
    elsewhere); the box is the same node when the button comes up, so the click plays it."""
    page, player = lesson
    player.roll()
    answer_the_roll(page, player)
    moves = player.offered()
    single = [m for m in moves if sum(o.slot == m.slot for o in moves) == 1]
    assert single, "this roll has no starred box with a single move"
    move = choose(single)
    box = page.get_by_test_id(box_id(move.slot))
    settle(page)
    page.evaluate("(id) => { window.__box = document.querySelector(`[data-testid='${id}']`); }", box_id(move.slot))
    page.evaluate(OBSERVE_JS)
    held = box.bounding_box()
    assert held, box_id(move.slot)
    page.mouse.move(held["x"] + held["width"] / 2, held["y"] + held["height"] / 2)
    page.mouse.down()
    grown_ups = page.get_by_test_id("grown-ups")
    grown_ups.focus()
    page.keyboard.press("Enter")  # Python answers this while the box is held down
    expect(grown_ups).to_have_attribute("aria-pressed", "true", timeout=CLICK_TIMEOUT)
    settle(page)
    assert observed(page)["added"], "nothing was redrawn while the box was held"
    assert page.evaluate("(id) => window.__box === document.querySelector(`[data-testid='${id}']`)", box_id(move.slot))
    page.mouse.up()
    assert player.game is not None
    player.game.play(move)
    expect(box).to_have_attribute("aria-label", re.compile(rf", {move.score}$"), timeout=CLICK_TIMEOUT)
