"""The lessons in a real browser, served by ``caterpillar-learn serve``.

Every lesson is in the list; an illegal click is explained with the engine's
reason, then a hint is shown; a tap held while the sheet redraws still writes
its label; and a round can be played with the keyboard alone.  Each level
lesson's whole game beside the engine's twin is played elsewhere, once: lesson
00's with its motion and sounds (``test_board_feel.py``), the Beginner lesson's
in German, clicked beside an engine (``test_german.py``), and lessons 02-04 by
the child's walk, whose game the engine replays from the page's own save
(``test_child_walk.py``: the sheet and the final score the page shows are the
engine's).  :func:`play_the_lesson` plays a lesson by clicks beside an engine
for those tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.advice.child import child_hint
from caterpillar_learn.caterpillars import Move, why_not
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import LESSONS, get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game
from caterpillar_learn.lessons.scenarios import best_move

from .conftest import ROOT, Server
from .driver import (
    CLICK_TIMEOUT,
    RENDER_TIMEOUT,
    Player,
    box_id,
    choose,
    follow_the_show_me,
    lesson_card,
    open_lesson,
)

pytestmark = pytest.mark.browser

#: Every notebook of lessons/ (Caterpillars and the card game): each is in the list (each is opened, read
#: by axe-core and checked for a failed cell in test_accessibility.py).
NOTEBOOKS = sorted(p.stem for p in (ROOT / "lessons").glob("*.ipynb"))
KEYBOARD_PRESSES = 80  # Tab presses allowed to reach a control


def test_every_caterpillars_lesson_has_a_notebook() -> None:
    assert set(LESSONS) <= set(NOTEBOOKS)


@pytest.fixture
def lesson_list(page: Page, lessons_server: Server) -> Page:
    page.goto(lessons_server.url)
    return page


def test_lesson_list_names_every_lesson(lesson_list: Page) -> None:
    for name in NOTEBOOKS:
        expect(lesson_card(lesson_list, name)).to_be_visible(timeout=RENDER_TIMEOUT)
    assert "import " not in lesson_list.content()


def test_a_tap_held_while_the_sheet_redraws_still_writes_its_label(lesson_list: Page) -> None:
    """A child's tap on a box that the page redraws between finger down and finger up still counts.

    Every answer from Python redraws the sheet; the box pressed must stay the
    node released (a mouse whose press and release land on two nodes gets no
    click at all: the old sheet, rebuilt on each answer, lost it).
    Here the answer is the first label's, typed on another box while the mouse
    holds the second one down.  (Seen under load in the whole-game walk: the
    second label of a setup roll never written.)
    """
    lesson = get_lesson("00-setup")
    page = open_lesson(lesson_list, "00-setup")
    try:
        expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
        player = Player(page, lesson.level, lesson.seed, auto_setup=False, game=guided_game(lesson))
        player.roll()
        dice = player.game.roll().dice
        first, second, third = (box_id(slot) for slot in player.game.state.blank_label_slots()[:3])
        held = page.get_by_test_id(second).bounding_box()
        assert held, second
        page.mouse.move(held["x"] + held["width"] / 2, held["y"] + held["height"] / 2)
        page.mouse.down()
        page.get_by_test_id(first).focus()
        page.keyboard.press("Enter")  # the first label, placed while the second box is held
        label = page.get_by_test_id(first)
        expect(label).to_have_attribute("aria-label", re.compile(rf"label {dice[0]},"), timeout=CLICK_TIMEOUT)
        page.mouse.up()  # the same node as at the press: the sheet changed around it
        expect(page.get_by_test_id(second)).to_have_attribute(
            "aria-label", re.compile(rf"label {dice[1]},"), timeout=CLICK_TIMEOUT
        )
        page.get_by_test_id(third).click()
        expect(page.get_by_test_id(third)).to_have_attribute(
            "aria-label", re.compile(rf"label {dice[2]},"), timeout=CLICK_TIMEOUT
        )
    finally:
        page.close()


def walk_the_steps(page: Page, name: str, player: Player) -> None:
    """After a finished game *next* walks every step, in order; "Which caterpillar will fly?" is asked on the way."""
    steps = get_lesson(name).steps
    for index, step in enumerate(steps):
        expect(page.get_by_test_id("lesson-step")).to_have_text(text(f"lessons.{step.key}.title"))
        if step.question == "fly":
            expect(page.get_by_test_id("final-score")).to_have_count(0)  # asked before it is shown
            answer_fly(page, player)
        if index < len(steps) - 1:
            page.get_by_test_id("next-step").click()
    expect(page.get_by_test_id("next-step")).to_be_disabled()


def answer_fly(page: Page, player: Player) -> None:
    assert player.game is not None
    page.locator(f'[data-testid="answer"][data-option="{player.game.score().flying}"]').click()
    page.get_by_test_id("check-answer").click()
    expect(page.get_by_test_id("feedback")).to_have_attribute("data-correct", "true")


@pytest.fixture
def beginner(lesson_list: Page) -> Iterator[tuple[Page, Player]]:
    page = open_lesson(lesson_list, "01-beginner")
    expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
    try:
        yield page, Player.for_lesson(page, "01-beginner")
    finally:
        page.close()


def test_an_illegal_click_is_explained_then_a_hint_is_shown(beginner: tuple[Page, Player]) -> None:
    """One roll of the Beginner lesson (one page: each page opened costs a kernel and a Voila page): a click on
    a box the dice cannot go to is explained with the engine's reason and the game goes on; then the hint for
    the same dice speaks a child's words, with every legal move and its value behind "For grown-ups"."""
    page, player = beginner
    player.roll()
    answer_the_roll(page, player)
    state, roll = player.game.state, player.game.roll()
    legal_slots = {move.slot for move in player.game.legal_moves()}  # type: ignore[union-attr]
    illegal = next(slot for slot in state.empty_slots() if slot not in legal_slots)
    page.get_by_test_id(box_id(illegal)).click()
    expect(page.get_by_test_id("explanation")).to_have_text(why_not(state, roll, illegal))
    expect(page.get_by_test_id(box_id(illegal))).to_have_attribute("aria-label", re.compile(r", empty"))
    expect(page.get_by_test_id("legal-move")).to_have_count(len(legal_slots))
    player.check_dice()  # the game goes on: the same dice
    # The hint for these dice.
    page.get_by_test_id("hint-button").click()
    hint = page.get_by_test_id("hint")
    # The Beginner lesson's hint speaks a child's words; the numbers are behind "For grown-ups".
    expect(hint).to_be_visible(timeout=RENDER_TIMEOUT)
    expect(hint).to_contain_text(child_hint(state, best_move(state, roll)), timeout=RENDER_TIMEOUT)
    expect(hint).not_to_contain_text("points")
    page.get_by_test_id("grown-ups").click()
    expect(page.get_by_test_id("grown-ups")).to_have_attribute("aria-pressed", "true", timeout=CLICK_TIMEOUT)
    # Every legal move is listed with its value.
    expect(hint).not_to_contain_text(text("lessons.ui.thinking"), timeout=RENDER_TIMEOUT)
    for move in [m for m in player.game.legal_moves() if isinstance(m, Move)]:
        expect(hint).to_contain_text(move.describe())
    expect(hint).to_contain_text("points")
    # A legal move still plays.
    player.click(choose([m for m in player.game.legal_moves() if isinstance(m, Move)]))


def focused_test_id(page: Page) -> str | None:
    """The data-testid of the focused element, looking inside shadow roots."""
    return page.evaluate(
        """() => {
            let node = document.activeElement;
            while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement;
            return node ? node.getAttribute("data-testid") : null;
        }"""
    )


def tab_to(page: Page, wanted: set[str]) -> str:
    """Press Tab until an element whose data-testid is in ``wanted`` has focus."""
    for _ in range(KEYBOARD_PRESSES):
        page.keyboard.press("Tab")
        current = focused_test_id(page)
        if current in wanted:
            return current
    raise AssertionError(f"{KEYBOARD_PRESSES} Tab presses never reached any of {sorted(wanted)}")


def test_a_round_by_keyboard_alone(beginner: tuple[Page, Player]) -> None:
    page, player = beginner
    page.get_by_test_id("sheet").wait_for()
    tab_to(page, {"roll-button"})
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("roll-button")).to_be_disabled(timeout=CLICK_TIMEOUT)
    player.check_dice()
    for option in sorted(right_answers(player, "boxes")):  # "Where can these dice go?", by keys too
        tab_to(page, {f"box-{option}"})
        page.keyboard.press("Enter")
        expect(page.get_by_test_id(f"box-{option}")).to_have_attribute("aria-pressed", "true", timeout=CLICK_TIMEOUT)
    tab_to(page, {"check-answer"})
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("legal-move").first).to_be_visible(timeout=CLICK_TIMEOUT)
    moves = list(player.game.legal_moves())
    single = {box_id(m.slot): m for m in moves if sum(o.slot == m.slot for o in moves) == 1}  # type: ignore[union-attr]
    assert single, "this roll has no box with a single move"
    reached = tab_to(page, set(single))
    page.keyboard.press("Enter")
    move = single[reached]
    player.game.play(move)  # type: ignore[arg-type]
    player.expect_filled(move)  # type: ignore[arg-type]
    # The next roll by keyboard too: the R shortcut.
    page.keyboard.press("r")
    expect(page.get_by_test_id("roll-button")).to_be_disabled(timeout=CLICK_TIMEOUT)
    player.check_dice()


def play_the_lesson(page: Page, player: Player, name: str, *, wrong_first: bool = True) -> None:
    """Walk lesson ``name`` as a learner, in the current language, to its final score.

    Every question is answered from the engine's twin of the game (the first
    one wrong first, if ``wrong_first``); each move goes to a box the page
    highlights (``legal-move``); the steps are found by their titles in the
    catalogue of the current language.
    """
    game = player.game
    assert game is not None
    first_wrong = wrong_first
    titles = {text(f"lessons.{step.key}.title"): step for step in get_lesson(name).steps}
    for _ in range(200):
        if page.get_by_test_id("final-score").count() and page.get_by_test_id("next-step").is_disabled():
            break
        shown = page.get_by_test_id("lesson-step").text_content() or ""
        assert shown in titles, f"step title {shown!r} is none of the catalogue's: {sorted(titles)}"
        step = titles[shown]
        # A question step's body gives way to its open question (issue 29: said once): the body or nothing.
        body = re.escape(body_words(step.key))
        shown_body = re.compile(f"^({body})?$" if step.question else f"^{body}$")
        expect(page.get_by_test_id("lesson-body")).to_have_text(shown_body)
        if step.question is not None and (game.phase == "play") == (step.question != "fly"):
            expect(page.get_by_test_id("question")).to_be_visible(timeout=CLICK_TIMEOUT)  # asked on arrival
        question = page.get_by_test_id("question")
        open_question = question.count() and page.get_by_test_id("check-answer").is_enabled()
        if open_question and step.question not in TWIN_ANSWERS:
            follow_the_show_me(page)
            expect(page.get_by_test_id("lesson-step")).not_to_have_text(shown, timeout=CLICK_TIMEOUT)
        elif open_question:
            expect(page.get_by_test_id("legal-move")).to_have_count(0)  # asked before the stars show
            right = right_answers(player, step.question)
            if first_wrong:
                wrong = next(o for o in answer_options(page) if o not in right)
                pick(page, wrong)
                page.get_by_test_id("check-answer").click()
                expect(page.get_by_test_id("feedback")).to_have_attribute("data-correct", "false")
                pick(page, wrong)  # take it back
                first_wrong = False
            for option in sorted(right):
                pick(page, option)
            page.get_by_test_id("check-answer").click()
            # right: the lesson goes on by itself, saying so
            expect(page.get_by_test_id("lesson-step")).not_to_have_text(shown, timeout=CLICK_TIMEOUT)
            expect(page.get_by_test_id("explanation")).not_to_be_empty()
        elif page.get_by_test_id("next-step").is_enabled():
            before = page.get_by_test_id("lesson-step").text_content() or ""
            page.get_by_test_id("next-step").click()
            expect(page.get_by_test_id("lesson-step")).not_to_have_text(before, timeout=CLICK_TIMEOUT)
        elif game.phase == "play" and page.get_by_test_id("roll-button").is_enabled():
            player.roll()
        elif game.phase == "play":
            player.click(highlighted_move(page, player))
        else:
            raise AssertionError("the lesson is stuck: " + (page.get_by_test_id("lesson-todo").text_content() or ""))
    expect(page.get_by_test_id("final-score")).to_contain_text(str(game.score().final))
    assert not first_wrong


def answer_the_roll(page: Page, player: Player) -> None:
    """Answer the roll's question ("Where can these dice go?") right, so that the stars show."""
    expect(page.get_by_test_id("question")).to_be_visible(timeout=CLICK_TIMEOUT)
    for option in sorted(right_answers(player, "boxes")):
        pick(page, option)
    page.get_by_test_id("check-answer").click()
    expect(page.get_by_test_id("legal-move").first).to_be_visible(timeout=CLICK_TIMEOUT)


def body_words(key: str) -> str:
    """A step's words as a mouse's page shows them (``<key>_mouse`` where they differ from a tablet's)."""
    try:
        return text(f"lessons.{key}.body_mouse")
    except KeyError:
        return text(f"lessons.{key}.body")


def highlighted_move(page: Page, player: Player) -> Move:
    """The test player's choice among the engine's moves into the boxes the page highlights (``legal-move``)."""
    assert player.game is not None
    marks = page.get_by_test_id("legal-move")
    expect(marks.first).to_be_attached(timeout=CLICK_TIMEOUT)
    boxes = {marks.nth(index).locator("xpath=..").get_attribute("data-testid") for index in range(marks.count())}
    moves = [m for m in player.offered() if box_id(m.slot) in boxes]  # a led round offers the helper's move
    assert moves, f"no engine move into the highlighted boxes {sorted(map(str, boxes))}"
    return choose(moves)


def answer_options(page: Page) -> list[str]:
    options = page.get_by_test_id("answer")
    found = []
    for index in range(options.count()):
        option = options.nth(index)
        found.append(option.get_attribute("data-option") or _box_option(option))
    return found


def _box_option(inner: object) -> str:
    box = inner.locator("xpath=..")  # type: ignore[attr-defined]
    return f"{box.get_attribute('data-caterpillar')}-{box.get_attribute('data-box')}"


def pick(page: Page, option: str) -> None:
    """Tap one answer (or take it back), and wait until the page shows it so: the next tap is a tap of its own,
    not one that lands while the question is redrawn (under load, the lesson's answer can take seconds)."""
    if option[0].isupper() and "-" in option:  # a box of the sheet
        name, box = option.split("-")
        target = page.get_by_test_id(f"box-{name}-{box}")
    else:
        target = page.locator(f'[data-testid="answer"][data-option="{option}"]')
    pressed = target.get_attribute("aria-pressed")
    target.click()
    if pressed in ("true", "false"):
        flipped = "false" if pressed == "true" else "true"
        expect(target).to_have_attribute("aria-pressed", flipped, timeout=CLICK_TIMEOUT)


#: The questions whose right answer the engine's twin of the game gives here; the others are answered as a
#: child is led to: any option, then after two misses what the lesson marks (``data-todo``).
TWIN_ANSWERS = ("boxes", "zero", "fly")


def right_answers(player: Player, kind: str | None) -> set[str]:
    """The right answer of a question of ``kind`` from the engine's twin of the game (never read from the page)."""
    game = player.game
    assert game is not None
    if game.phase == "over":
        return {game.score().flying}
    moves = [m for m in game.legal_moves() if isinstance(m, Move) and not m.zero]
    if kind == "boxes":
        return {f"{box_id(m.slot)[4:]}" for m in moves}
    return {"yes" if moves else "no"}
