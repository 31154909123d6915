"""The Caterpillars widgets without a browser: every action is a write of the
``event`` trait, exactly as the front end makes it, and every check reads the
traits the front end draws.  Beside each widget the same game runs in the
engine alone, so the widget's dice, moves and scores are checked against it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from caterpillar_learn.caterpillars import Game, Move, score, why_not
from caterpillar_learn.caterpillars.notation import move_from_json
from caterpillar_learn.caterpillars.sheet import describe_slot, slot_of
from caterpillar_learn.errors import CaterpillarLearnError
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import LESSONS, get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard, CaterpillarsLesson
from caterpillar_learn.ui.raupe import RaupeWidget

LEVELS = ("beginner", "intermediate", "advanced", "expert")


def engine_game(level: str, seed: int, *, auto_setup: bool = True, variation: bool = False) -> Game:
    game = Game(level, variation=variation, seed=seed)
    if auto_setup:
        while game.phase == "setup":
            game.play(game.legal_moves()[0])
    return game


def click(board: CaterpillarsBoard, slot: int) -> None:
    name, box = describe_slot(slot)
    board.act("box", caterpillar=name, box=box)


def answer(board: CaterpillarsLesson, *, right: bool) -> None:
    """Answer the board's open question as the front end does (boxes by clicks), right or wrong, and check."""
    question = board.session.quiz.question
    assert question is not None
    ids = [option.id for option in question.options]
    if question.kind == "split":  # options "index:value"; right = the values that make the score
        values = sorted(question.correct)[0].split("+")
        pick = []
        for value in values:
            pick.append(next(i for i in ids if i.endswith(f":{value}") and i not in pick))
        if not right:
            pick = [ids[0]] if not question.accepts([ids[0]]) else [ids[0], ids[1]]
    elif right:
        pick = sorted(question.correct) if question.multiple else sorted(question.correct)[:1]
    else:
        wrong = [i for i in ids if i not in question.correct]
        pick = wrong[:1] if wrong else []
    # Several options toggle (so change only what differs); a single choice replaces the last one.
    changes = sorted(set(board.session.quiz.selected) ^ set(pick)) if question.multiple else pick
    for option in changes:
        if question.kind == "boxes":
            name, box = option.split("-")
            board.act("box", caterpillar=name, box=int(box))
        else:
            board.act("answer", option=option)
    board.act("check")


def play_like_a_learner(board: CaterpillarsBoard, game: Game, prefer_menu: bool = True) -> int:
    """Play ``board`` to the end through events, mirroring every move in ``game``.

    With ``prefer_menu`` the learner picks, when it can, the last move of a box
    that offers several (so the per-box menu opens); else the first move.
    Returns how many times a menu opened.
    """
    menus = 0
    while game.phase == "setup":
        board.act("roll")
        dice = game.roll().dice
        assert board.dice["values"] == list(dice)
        blanks = game.state.blank_label_slots()[:3]
        for slot in blanks:
            click(board, slot)
        game.play(game.legal_moves()[0])
    while game.phase == "play":
        board.act("roll")
        roll = game.roll()
        assert board.dice["values"] == list(roll.dice)
        assert board.dice["action"] == roll.action
        moves = [m for m in game.legal_moves() if isinstance(m, Move)]
        assert {(m["caterpillar"], m["box"]) for m in board.legal} == {describe_slot(m.slot) for m in moves}
        assert len(board.legal) == len(moves)
        crowded = [m for m in moves if sum(o.slot == m.slot for o in moves) > 1]
        move = crowded[-1] if prefer_menu and crowded else moves[0]
        in_box = [m for m in moves if m.slot == move.slot]
        click(board, move.slot)
        if len(in_box) > 1:
            menus += 1
            assert [o["text"] for o in board.menu["options"]] == [board.legal[moves.index(m)]["text"] for m in in_box]
            board.act("option", index=moves.index(move))
        game.play(move)
        assert board.message == ""
        assert board.session.game.state == game.state
    return menus


@pytest.mark.parametrize("level", LEVELS)
def test_a_whole_game_at_each_level(level: str) -> None:
    board = CaterpillarsBoard(level, seed=11)
    game = engine_game(level, 11)
    menus = play_like_a_learner(board, game)
    final = score(game.state).final
    assert board.final["final"] == final
    assert str(final) in board.final["text"]
    assert board.final["flying"] not in board.final["struck"] and len(board.final["struck"]) == 2
    assert board.legal == [] and board.dice["kind"] == "over"
    assert len(board.review["rounds"]) == 12
    # Below Advanced a box's score is fixed by its label (total minus label), so
    # menus come with the bonus boxes.
    assert (menus > 0) == (level in ("advanced", "expert"))


@pytest.mark.parametrize("name", [n for n, lesson in LESSONS.items() if "board" in lesson.widgets])
def test_every_lesson_walks_its_steps_and_ends_in_a_full_game(name: str) -> None:
    lesson = get_lesson(name)
    board = CaterpillarsLesson(name)
    assert board.lesson["title"] == text(f"lessons.{lesson.steps[0].key}.title")
    game = guided_game(lesson)
    if lesson.auto_setup:
        while game.phase == "setup":
            game.play(game.legal_moves()[0])
    taken = asked = 0
    while game.phase != "over" or board.question.get("answered") is False:
        # Go as far as the checks allow, answer what is asked, then play one choice and try again.
        while board.lesson["can_next"]:
            board.act("step", delta=1)
            taken += 1
        if board.question and not board.question["answered"]:
            answer(board, right=True)
            asked += 1
            continue
        if game.phase == "setup":
            board.act("roll")
            for slot in game.state.blank_label_slots()[:3]:
                click(board, slot)
            game.play(game.legal_moves()[0])
            continue
        if game.phase == "over":
            break
        board.act("roll")
        assert board.dice["values"] == list(game.roll().dice)
        if board.question and not board.question["answered"]:
            continue  # answered at the top of the loop, before the move
        if board.lesson["todo"] == text("lessons.todo.hint"):
            board.act("hint")
            assert board.hint["status"] in ("ready", "unavailable")
        # The board's first offer: in a round the guided game leads, the helper's move and no other.
        offered = board.legal[0]
        move = move_from_json({key: offered[key] for key in ("caterpillar", "box", "score", "zero", "bonus")})
        assert move in game.legal_moves()
        click(board, move.slot)
        if board.menu:
            board.act("option", index=0)
        game.play(move)
    while board.lesson["can_next"] or (board.question and not board.question["answered"]):
        if board.question and not board.question["answered"]:
            answer(board, right=True)
            asked += 1
        else:
            board.act("step", delta=1)
    assert board.final["final"] == score(game.state).final
    assert board.step == len(lesson.steps) - 1
    assert board.lesson["title"] == text(f"lessons.{lesson.steps[-1].key}.title")
    assert taken > 0 and asked == sum(step.question is not None for step in lesson.steps)
    board.act("step", delta=-1)
    assert board.step == len(lesson.steps) - 2


def test_next_waits_for_the_steps_check() -> None:
    board = CaterpillarsLesson("01-beginner")
    board.act("step", delta=1)  # intro -> roll
    assert board.lesson["title"] == text("lessons.common.roll.title")
    assert not board.lesson["can_next"] and board.lesson["target"] == "roll"
    board.act("step", delta=1)
    assert board.step == 1 and board.message == text("lessons.todo.rolled")
    board.act("step", delta=7)
    assert board.step == 1 and board.message
    board.act("roll")  # done: the lesson goes on by itself, to the question about this roll
    assert board.step == 2 and board.message == "" and board.lesson["target"] == "question"
    board.act("step", delta=-1)  # a grown-up looks back: the lesson stays there
    assert board.step == 1 and board.lesson["can_next"]
    board.act("step", delta=1)
    assert board.step == 2 and board.question


def test_an_illegal_click_explains_and_changes_nothing() -> None:
    board = CaterpillarsBoard("beginner", seed=5)
    game = engine_game("beginner", 5)
    board.act("roll")
    roll = game.roll()
    legal_slots = {m.slot for m in game.legal_moves() if isinstance(m, Move)}
    illegal = next(s for s in game.state.empty_slots() if s not in legal_slots)
    before = copy.deepcopy((board.sheet, board.dice, board.legal))
    click(board, illegal)
    assert board.explanation == why_not(game.state, roll, illegal)
    assert board.message == ""
    assert (board.sheet, board.dice, board.legal) == before
    assert board.session.game.state == game.state


def test_a_filled_box_explains_too() -> None:
    board = CaterpillarsBoard("beginner", seed=5)
    game = engine_game("beginner", 5)
    board.act("roll")
    move = next(m for m in game.legal_moves() if isinstance(m, Move))
    click(board, move.slot)
    board.act("roll")
    click(board, move.slot)
    name, _ = describe_slot(move.slot)
    assert board.explanation == text("caterpillars.why_not.filled", caterpillar=name, score=move.score)


BAD_EVENTS: list[Any] = [
    {"type": "explode"},
    {"no": "type"},
    {"type": "box", "caterpillar": "Dora", "box": 1},
    {"type": "box", "caterpillar": "Alex", "box": 4},
    {"type": "box", "caterpillar": "Alex", "box": True},
    {"type": "box"},
    {"type": "option", "index": "0"},
    {"type": "option", "index": 99},
    {"type": "option", "index": -1},
    {"type": "die", "index": 0},
    {"type": "step", "delta": 3},
    {"type": "step"},
    {},
]


@pytest.mark.parametrize("event", BAD_EVENTS, ids=[str(e) for e in BAD_EVENTS])
def test_a_bad_event_keeps_the_game_and_says_why_in_one_line(event: dict[str, Any]) -> None:
    board = CaterpillarsLesson("02-intermediate")
    board.act("roll")
    answer(board, right=True)  # the roll's question first: then the stars show
    state, history, dice = board.session.game.state, list(board.session.game.history), dict(board.dice)
    board.event = {**event, "seq": 999}
    assert board.message and "\n" not in board.message
    assert board.session.game.state == state and board.session.game.history == history
    assert board.dice == dice
    # The game goes on: the next good event plays and clears the message.
    first = board.legal[0]
    board.act("box", caterpillar=first["caterpillar"], box=first["box"])
    if board.menu:
        board.act("option", index=first["index"])
    assert board.message == ""
    assert board.session.game.state.filled == state.filled + 1


def test_events_before_the_roll_and_after_the_end_are_refused() -> None:
    board = CaterpillarsBoard("beginner", seed=2)
    board.act("box", caterpillar="Alex", box=0)
    assert board.message == text("lessons.msg.roll_first")
    board.act("hint")
    assert board.message == text("lessons.msg.roll_first")
    play_like_a_learner(board, engine_game("beginner", 2))
    board.act("roll")
    assert board.message == text("lessons.msg.over")
    final = board.final["final"]
    board.act("new_game")
    assert board.final == {} and board.session.seed == 3 and board.message == ""
    assert board.session.game.state.filled == 0 and final >= 0


def test_an_internal_error_is_caught_and_the_game_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    board = CaterpillarsBoard("beginner", seed=2)
    board.act("roll")
    state = board.session.game.state

    def broken(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(board.session, "click_box", broken)
    board.act("box", caterpillar="Alex", box=0)
    assert board.message == text("ui.internal")
    assert board.session.game.state == state


def test_the_menu_lists_every_move_of_a_box_with_how() -> None:
    board = CaterpillarsBoard("advanced", seed=4)
    game = engine_game("advanced", 4)
    while True:
        board.act("roll")
        moves = [m for m in game.legal_moves() if isinstance(m, Move)]
        crowded = [m for m in moves if sum(o.slot == m.slot for o in moves) > 1]
        if crowded:
            break
        click(board, moves[0].slot)
        game.play(moves[0])
    slot = crowded[0].slot
    click(board, slot)
    options = board.menu["options"]
    assert len(options) == sum(m.slot == slot for m in moves)
    assert all(o["how"] for o in options)
    # An option of another box is refused while this menu is open.
    other = next(i for i, m in enumerate(moves) if m.slot != slot) if len(set(m.slot for m in moves)) > 1 else None
    if other is not None:
        board.act("option", index=other)
        assert board.message and board.session.game.state == game.state
    board.act("close")
    assert board.menu == {}
    click(board, slot)
    board.act("option", index=options[-1]["index"])
    game.play(moves[options[-1]["index"]])
    assert board.session.game.state == game.state


def test_setup_by_clicks_with_a_chosen_die() -> None:
    board = CaterpillarsLesson("00-setup")
    game = engine_game("beginner", 1, auto_setup=False)
    board.act("roll")
    dice = game.roll().dice
    assert len(board.legal) == 6 and all(m["setup"] for m in board.legal)
    blanks = game.state.blank_label_slots()
    board.act("die", index=2)
    assert board.dice["selected"] == 2
    click(board, blanks[0])  # gets die 2
    name, box = describe_slot(blanks[0])
    assert board.sheet["labels"][name][box] == dice[2]
    assert board.dice["used"] == [2]
    board.act("die", index=2)
    assert board.message  # a used die cannot be chosen again
    click(board, blanks[0])
    assert board.explanation == text("lessons.setup.not_blank", caterpillar=name, number=box + 1)
    click(board, blanks[1])  # die 0
    click(board, blanks[2])  # die 1
    expected = tuple(sorted([(blanks[0], dice[2]), (blanks[1], dice[0]), (blanks[2], dice[1])]))
    assert board.session.game.state.labels == game.state.with_labels(expected).labels
    assert board.dice["rolled"] is False and board.dice["kind"] == "setup"


def test_the_setup_variation_puts_the_sum_of_the_other_dice_on_the_second_label() -> None:
    board = CaterpillarsBoard("intermediate", seed=8, variation=True, auto_setup=False)
    board.act("roll")
    dice = board.dice["values"]
    blanks = board.session.game.state.blank_label_slots()
    board.act("die", index=1)
    click(board, blanks[3])
    click(board, blanks[0])
    labels = board.session.game.state.labels
    assert labels[blanks[3]] == dice[1] and labels[blanks[0]] == sum(dice) - dice[1]
    assert board.session.game.history[0].is_setup


def test_lesson_zero_free_play_switches_to_the_variation() -> None:
    board = CaterpillarsLesson("00-setup")
    play_like_a_learner(board, engine_game("beginner", 1, auto_setup=False), prefer_menu=False)
    board.act("new_game")
    assert board.session.game.level.value == "intermediate" and board.session.game.variation
    assert board.sheet["phase"] == "setup"


def test_aria_template_and_strings_are_translated_and_complete() -> None:
    board = CaterpillarsBoard()
    label = board.session.game.state.labels_of("Bobby")[2]
    assert f'aria-label="Bobby, box 3, label {label}, empty"' in board.sheet["svg"]
    assert all(isinstance(v, str) and v for v in board.strings.values())
    assert board.strings["round"] == "Round {round} of 12"


def test_slots_round_trip() -> None:
    assert all(slot_of(*describe_slot(s)) == s for s in range(12))


def test_every_widget_of_a_class_is_of_that_class_and_names_it_to_anywidget() -> None:
    """anywidget's front end keeps a widget's style sheet by ``_anywidget_id`` (``module.Class``); the widgets
    declare it, so anywidget need not add it to each instance (traitlets then made every instance a class of
    its own, which cost each classroom page a millisecond)."""
    first, second = CaterpillarsBoard("beginner", 1), CaterpillarsBoard("beginner", 2)
    assert type(first) is type(second) is CaterpillarsBoard
    assert first._anywidget_id == "caterpillar_learn.ui.caterpillars.widget.CaterpillarsBoard"
    assert first.get_state()["_anywidget_id"] == first._anywidget_id
    assert "_anywidget_id" in first.keys


@pytest.mark.parametrize(
    ("make", "named"),
    [
        (lambda: CaterpillarsLesson("01-beginner", langg="de"), "keyword: got 'langg', expected one of lang, layout"),
        (lambda: CaterpillarsLesson("01-beginner", level="intermediate"), "keyword: got 'level', expected one of lang"),
        (lambda: RaupeWidget("10-raupe-shape", speed=2), "keyword: got 'speed', expected one of hints, lang, layout"),
    ],
)
def test_a_keyword_a_lesson_would_ignore_is_refused_in_one_line(make: Any, named: str) -> None:
    """A notebook's typo (``langg=``) or a board's keyword a lesson ignores (``level=``): one line, naming the ones
    allowed (issue 42), instead of a warning nobody sees."""
    with pytest.raises(CaterpillarLearnError) as refused:
        make()
    assert str(refused.value).startswith(named) and "\n" not in str(refused.value), refused.value
    assert CaterpillarsLesson("01-beginner", lang="de").lang == "de"  # the keywords allowed still work
