"""The real ES module in Debian's Chromium, wired to the real Python widget.

No Jupyter here: the page gets a stand-in for anywidget's model.  Every event
the front end writes is read back from the page and given to the Python
widget, whose new traits go back to the page, so a click makes the same round
trip it makes in Voila, only without a kernel in between.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.caterpillars import Move, score, why_not
from caterpillar_learn.caterpillars.sheet import describe_slot
from caterpillar_learn.i18n import text
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard, CaterpillarsLesson

pytestmark = pytest.mark.browser

HARNESS = """
window.events = [];
const traits = %s;
const listeners = {};
const model = {
  get: (name) => traits[name],
  set: (name, value) => { traits[name] = value; if (name === "event") window.events.push(value); },
  save_changes: () => {},
  on: (name, callback) => { (listeners[name] = listeners[name] || []).push(callback); },
  off: () => {},
};
window.pushTraits = (changed) => {
  for (const [name, value] of Object.entries(changed)) {
    traits[name] = value;
    for (const callback of listeners["change:" + name] || []) callback();
  }
};
const url = URL.createObjectURL(new Blob([%s], { type: "text/javascript" }));
const widget = (await import(url)).default;
widget.render({ model, el: document.getElementById("host") });
"""


class Harness:
    """A page running the ES module, and the Python widget behind it."""

    def __init__(self, page: Page, board: CaterpillarsBoard) -> None:
        self.page, self.board = page, board
        page.set_content(
            f"<!doctype html><html><head><style>{CaterpillarsBoard.css()}</style></head>"
            '<body><div id="host"></div></body></html>'
        )
        page.evaluate(
            "async () => {" + HARNESS % (json.dumps(self.traits()), json.dumps(CaterpillarsBoard.esm())) + "}"
        )
        page.get_by_test_id("sheet").wait_for()

    def traits(self) -> dict[str, Any]:
        return {name: getattr(self.board, name) for name in [*self.board.view_names, "view_names", "handled"]}

    def sync(self) -> None:
        """Give the page's events to Python, then Python's traits to the page, until the page sends no more (it
        sends one event at a time, the next once ``handled`` says the last was played)."""
        for _ in range(20):
            events = self.page.evaluate("() => window.events.splice(0)")
            for event in events:
                self.board.event = event
            self.page.evaluate("(t) => window.pushTraits(t)", self.traits())
            if not events:
                return

    def click(self, test_id: str, nth: int = 0) -> None:
        self.page.get_by_test_id(test_id).nth(nth).click()
        self.sync()

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.sync()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    opened = context.new_page()
    yield opened
    context.close()


def box_id(slot: int) -> str:
    name, box = describe_slot(slot)
    return f"box-{name}-{box}"


def test_the_rule_is_drawn_the_label_die_points_and_the_score_die_is_marked(page: Page) -> None:
    harness = Harness(page, CaterpillarsLesson("01-beginner"))
    harness.click("roll-button")  # the intro's words pass: "Where can these dice go?" is asked at once
    question = harness.board.session.quiz.question
    assert question is not None
    for option in sorted(question.correct):  # the board's boxes are the options
        harness.click(f"box-{option}")
    harness.click("check-answer")  # right: the lesson moves on to "Choose a box" by itself
    entries = harness.board.legal
    assert len({(e["caterpillar"], e["box"]) for e in entries}) >= 2  # round 1: a real choice, nothing drawn yet
    expect(page.get_by_test_id("rule-arrow")).to_have_count(0)
    entry = entries[0]
    page.get_by_test_id(f"box-{entry['caterpillar']}-{entry['box']}").hover()
    expect(page.get_by_test_id("rule-arrow")).to_have_count(1)
    dice = harness.board.dice["values"]
    (score_die,), (label_die,) = entry["dice"]["score"], entry["dice"]["label"]
    assert dice[score_die] == entry["score"] and {score_die, label_die} == {0, 1}
    expect(page.get_by_test_id(f"die-{label_die}")).to_have_attribute("data-role", "label")
    expect(page.get_by_test_id(f"die-{score_die}")).to_have_attribute("data-role", "score")
    # Round 2 is led: its one star gets the arrow without a hover.
    harness.click(f"box-{entry['caterpillar']}-{entry['box']}")
    while harness.board.session.led_move() is None or harness.board.session.asking:
        if page.get_by_test_id("next-step").is_enabled():
            harness.click("next-step")
        elif page.get_by_test_id("roll-button").is_enabled():
            harness.click("roll-button")
        else:
            question = harness.board.session.quiz.question
            assert question is not None and question.kind == "zero"
            page.locator(f'[data-testid="answer"][data-option="{sorted(question.correct)[0]}"]').click()
            harness.sync()
            harness.click("check-answer")
    expect(page.get_by_test_id("lesson-guide")).to_have_text(re.compile(re.escape(text("lessons.guided.led"))))
    expect(page.get_by_test_id("legal-move")).to_have_count(1)


def answer_right(harness: Harness) -> None:
    """Answer the open question right by clicks (boxes on the board, the others as buttons), then Check."""
    question = harness.board.session.quiz.question
    assert question is not None
    right = harness.board.session.quiz.shown_answer() if question.kind == "split" else sorted(question.correct)
    for option in right if question.multiple else right[:1]:
        if question.kind == "boxes":
            harness.click(f"box-{option}")
        else:
            harness.page.locator(f'[data-testid="answer"][data-option="{option}"]').click()
            harness.sync()
    harness.click("check-answer")


def test_a_whole_lesson_by_clicks(page: Page) -> None:
    harness = Harness(page, CaterpillarsLesson("01-beginner"))
    game = harness.board.session.game
    expect(page.get_by_test_id("legal-move")).to_have_count(0)
    expect(page.locator('[data-testid^="box-"]')).to_have_count(12)
    expect(page.get_by_test_id("lesson-step")).to_have_text(text("lessons.beginner.intro.title"))
    expect(page.get_by_test_id("next-step")).to_have_attribute("data-todo", "true")  # a step of words: go on
    harness.click("next-step")
    expect(page.get_by_test_id("next-step")).to_be_disabled()
    expect(page.get_by_test_id("roll-button")).to_have_attribute("data-todo", "true")
    harness.click("roll-button")
    expect(page.get_by_test_id("roll-button")).to_be_disabled()
    expect(page.get_by_test_id("question")).to_have_attribute("data-todo", "true")  # asked: only the question
    expect(page.locator('[data-todo="true"]')).to_have_count(1)
    answer_right(harness)
    # An illegal click first: the reason shows, the board is unchanged.
    state, roll = game.state, game.roll()
    legal_slots = {m.slot for m in game.legal_moves() if isinstance(m, Move)}
    expect(page.get_by_test_id("legal-move")).to_have_count(len(legal_slots))
    illegal = next(s for s in state.empty_slots() if s not in legal_slots)
    harness.click(box_id(illegal))
    expect(page.get_by_test_id("explanation")).to_have_text(why_not(state, roll, illegal))
    aria = re.compile(r"box \d, label \d+, empty$")
    expect(page.get_by_test_id(box_id(illegal))).to_have_attribute("aria-label", aria)
    for value, die in zip(roll.dice, page.get_by_test_id("dice").locator('[data-testid^="die-"]').all()):
        expect(die).to_have_attribute("aria-label", re.compile(rf"\b{value}\b"))
    # Then every round by clicks: the first highlighted box (and first option).
    while game.phase == "play":
        if harness.board.session.asking:
            answer_right(harness)
            continue
        if page.get_by_test_id("roll-button").is_enabled():
            harness.click("roll-button")
            continue
        harness.click("legal-move")
        if page.get_by_test_id("move-option").count():
            harness.click("move-option")
    result = score(game.state)
    expect(page.get_by_test_id("legal-move")).to_have_count(0)
    # The scoring waits for "Which caterpillar will fly?", asked as soon as the game is over.
    expect(page.get_by_test_id("final-score")).to_have_count(0)
    expect(page.get_by_test_id("question")).to_have_attribute("data-todo", "true")
    page.locator(f'[data-testid="answer"][data-option="{result.flying}"]').click()
    harness.sync()
    harness.click("check-answer")
    while page.get_by_test_id("next-step").is_enabled():
        harness.click("next-step")
    expect(page.get_by_test_id("new-game")).to_have_attribute("data-todo", "true")  # the end offers one thing
    expect(page.get_by_test_id("final-score")).to_contain_text(str(result.final))
    expect(page.get_by_test_id("lesson-step")).to_have_text(text("lessons.common.free.title"))
    # The review's numbers are for grown-ups: behind the switch in the picture-first Beginner lesson.
    expect(page.get_by_test_id("review-button")).to_have_count(0)
    expect(page.get_by_test_id("grown-ups")).to_have_attribute("aria-pressed", "false")
    harness.click("grown-ups")
    expect(page.get_by_test_id("grown-ups")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("grown-ups-notes")).to_contain_text("Round 12:")
    harness.click("review-button")
    expect(page.get_by_test_id("review")).to_contain_text("Round 12")
    expect(page.get_by_test_id("review-button")).to_have_count(0)
    harness.click("new-game")
    expect(page.get_by_test_id("final-score")).to_have_count(0)


def test_keyboard_only_round_and_the_r_shortcut(page: Page) -> None:
    harness = Harness(page, CaterpillarsBoard("beginner", seed=1))
    game = harness.board.session.game
    page.get_by_test_id("roll-button").focus()
    harness.press("Enter")
    expect(page.get_by_test_id("roll-button")).to_be_disabled()
    moves = [m for m in game.legal_moves() if isinstance(m, Move)]
    target = page.get_by_test_id(box_id(moves[0].slot))
    page.get_by_test_id("box-Alex-0").focus()
    for _ in range(12):  # arrow keys walk the boxes
        if target.evaluate("node => node === document.activeElement"):
            break
        name = describe_slot(moves[0].slot)[0]
        current = page.evaluate("() => document.activeElement.getAttribute('data-testid')")
        key = "ArrowDown" if not current.startswith(f"box-{name}") else "ArrowRight"
        harness.press(key)
    assert target.evaluate("node => node === document.activeElement")
    harness.press("Enter")
    assert game.state.filled == 1
    expect(target).to_have_attribute("aria-label", re.compile(rf", {moves[0].score}$"))
    harness.press("r")
    expect(page.get_by_test_id("roll-button")).to_be_disabled()
    assert harness.board.dice["rolled"]


def test_the_menu_offers_each_move_of_a_box(page: Page) -> None:
    harness = Harness(page, CaterpillarsBoard("advanced", seed=4))
    game = harness.board.session.game
    while True:
        harness.click("roll-button")
        moves = [m for m in game.legal_moves() if isinstance(m, Move)]
        crowded = [m for m in moves if sum(o.slot == m.slot for o in moves) > 1]
        if crowded:
            break
        harness.click("legal-move")
    harness.click(box_id(crowded[0].slot))
    in_box = [m for m in moves if m.slot == crowded[0].slot]
    expect(page.get_by_test_id("move-option")).to_have_count(len(in_box))
    expect(page.get_by_test_id("move-option").first).to_be_focused()
    harness.click("move-option", nth=len(in_box) - 1)
    assert game.state.scores[crowded[0].slot] == in_box[-1].score
    expect(page.get_by_test_id("move-option")).to_have_count(0)


def test_hint_panel_and_bad_input_message(page: Page) -> None:
    harness = Harness(page, CaterpillarsBoard("beginner", seed=2))
    harness.click("roll-button")
    harness.click("hint-button")
    expect(page.get_by_test_id("hint")).to_be_visible()
    expect(page.get_by_test_id("hint")).to_contain_text(harness.board.hint["title"])
    page.evaluate("() => window.events.push({type: 'box', caterpillar: 'Dora', box: 0, seq: 5})")
    harness.sync()
    expect(page.get_by_test_id("message")).to_contain_text("caterpillar: got 'Dora'")
    expect(page.get_by_test_id("legal-move").first).to_be_visible()


def test_reduced_motion_and_dark_theme(browser: Browser) -> None:
    context = browser.new_context(reduced_motion="reduce", color_scheme="dark")
    page = context.new_page()
    try:
        harness = Harness(page, CaterpillarsBoard("expert", seed=3))
        harness.click("roll-button")
        die = page.locator(".cl-die").first
        assert die.evaluate("node => getComputedStyle(node).animationName") == "none"
        background = page.locator(".cl-root").evaluate("node => getComputedStyle(node).backgroundColor")
        assert background == "rgb(27, 27, 31)"
        expect(page.get_by_test_id("action-die")).to_have_attribute("aria-label", re.compile("Action die: "))
    finally:
        context.close()


def test_a_first_tap_shows_the_rule_and_the_score_and_a_second_tap_writes_it(page: Page) -> None:
    harness = Harness(page, CaterpillarsLesson("01-beginner"))
    harness.click("roll-button")
    answer_right(harness)
    entry = harness.board.legal[0]
    box = page.get_by_test_id(f"box-{entry['caterpillar']}-{entry['box']}")

    def tap() -> None:  # a finger: the pointer says touch, then the click follows
        box.dispatch_event("pointerdown", {"pointerType": "touch", "bubbles": True})
        box.dispatch_event("click", {"bubbles": True})
        harness.sync()

    tap()
    expect(page.get_by_test_id("ghost-score")).to_have_text(str(entry["score"]))
    expect(page.get_by_test_id("rule-arrow")).to_have_count(1)
    assert harness.board.session.game.state.filled == 0  # shown, not written
    tap()
    assert harness.board.session.game.state.filled == 1
    expect(page.get_by_test_id("ghost-score")).to_have_count(0)


#: Each caterpillar's total as the page shows it, once no count is running: the number in each total's text.
SHOWN_TOTALS_JS = """() => [...document.querySelectorAll('.cl-sheet .cl-total')]
  .map((node) => Number((node.textContent.match(/\\d+/) || ['-1'])[0]))"""


def test_a_total_that_grows_again_while_it_counts_ends_on_pythons_number(browser: Browser) -> None:
    """With motion on, a total that grows counts up to its new number.  A round played while the last one's
    count still runs (a fast child, a led round, a lesson's end) must not leave a number in between standing:
    each total ends as Python drew it.  The page's clock is the test's: a round comes 80 ms of it after the
    last however busy the machine is."""
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, reduced_motion="no-preference")
    page = context.new_page()
    try:
        page.clock.install()
        harness = Harness(page, CaterpillarsBoard("beginner", seed=5))
        page.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)  # from here on time moves when told
        board = harness.board
        grew_twice = False
        last_grown = None
        counting = 0
        for _ in range(8):  # rounds into Alex where the dice allow, each pushed 80 ms after the last
            board.act("roll")
            entries = [entry for entry in board.legal if entry["score"] > 0] or board.legal
            entry = next((e for e in entries if e["caterpillar"] == "Alex"), entries[0])
            board.act("box", caterpillar=entry["caterpillar"], box=entry["box"])
            grew_twice |= entry["caterpillar"] == last_grown == "Alex"
            last_grown = entry["caterpillar"]
            page.evaluate("(t) => window.pushTraits(t)", harness.traits())
            page.clock.run_for(80)  # a count lasts 450 ms: the next round comes while it runs
            drawn = [board.sheet["totals"][name] for name in ("Alex", "Bobby", "Charlie")]
            counting += page.evaluate(SHOWN_TOTALS_JS) != drawn
        assert grew_twice, "the dice never let Alex grow in two rounds running"
        assert counting, "no count was under way when the next round came: the race was not run"
        page.clock.run_for(1000)  # every count has ended
        expected = [board.sheet["totals"][name] for name in ("Alex", "Bobby", "Charlie")]
        assert page.evaluate(SHOWN_TOTALS_JS) == expected
    finally:
        context.close()
