"""Predict, then check, in the widget logic: every question of every lesson
answered wrong, then right, through the events the front end sends.  While a
question waits, its answer stays hidden (no stars; no scoring before "Which
caterpillar will fly?"); each right answer is checked against the rules
independently (tests/caterpillars/reference_moves.py, or the totals)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from caterpillar_learn.caterpillars import CATERPILLARS, Roll, State, score
from caterpillar_learn.caterpillars.notation import move_to_json
from caterpillar_learn.caterpillars.sheet import describe_slot
from caterpillar_learn.i18n import language, text
from caterpillar_learn.lessons import LESSONS, get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game
from caterpillar_learn.lessons.questions import CHILD_MARGIN, ask_bonus, bonus_values, check, slot_from_id
from caterpillar_learn.lessons.scenarios import CLEAR_MARGIN, best_move, play_guided
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
from caterpillar_learn.ui.quiz import Quiz
from tests.caterpillars.reference_moves import reference_effects
from tests.ui.test_widgets import answer

QUESTIONED = [name for name, lesson in LESSONS.items() if any(step.question for step in lesson.steps)]


def independent_right_answer(board: CaterpillarsLesson) -> set[str] | None:
    """The right options as the reference rules (or the totals) give them; None where not applicable."""
    question = board.session.quiz.question
    assert question is not None
    game = board.session.game
    if question.kind == "fly":
        totals = game.state.totals
        middle = sorted(totals)[1]
        return {name for name, total in zip(("Alex", "Bobby", "Charlie"), totals) if total == middle}
    state, roll = game.state, game.roll()
    effects = reference_effects(state.level.value, state.labels, state.scores, state.bonus, roll.dice, roll.action)
    fitting = {slot for slot, _, zero, _ in effects if not zero}
    if question.kind == "boxes":
        return {f"{describe_slot(s)[0]}-{describe_slot(s)[1]}" for s in fitting}
    if question.kind == "zero":
        return {"yes" if fitting else "no"}
    if question.kind == "split":  # the dice that make the score: the others must add up to the box's label
        label = int(question.text.split("has the label ")[1].split(".")[0])
        dice = list(roll.dice)
        found = set()
        for mask in range(1, 2 ** len(dice) - 1):
            score_dice = [d for i, d in enumerate(dice) if mask >> i & 1]
            if sum(dice) - sum(score_dice) == label:
                found.add("+".join(str(d) for d in sorted(score_dice)))
        return found
    return None


def first_move(board: CaterpillarsLesson) -> None:
    """Play the board's first highlighted move (and its menu's first option)."""
    entry = board.legal[0]
    board.act("box", caterpillar=entry["caterpillar"], box=entry["box"])
    if board.menu:
        board.act("option", index=board.menu["options"][0]["index"])


def walk(
    name: str,
    on_question: Any,
    *,
    lang: str | None = None,
    play: Any = first_move,
    each: Any = lambda board: None,
) -> CaterpillarsLesson:
    """Play the lesson's guided game by events, calling ``on_question(board)`` at each open question,
    ``play(board)`` for each round's move and ``each(board)`` before every action."""
    board = CaterpillarsLesson(name, lang=lang)
    for _ in range(500):
        each(board)
        if board.question and not (board.question.get("feedback") or {}).get("correct"):
            on_question(board)
            continue
        if board.lesson["can_next"]:
            board.act("step", delta=1)
            continue
        game = board.session.game
        if game.phase == "over" or board.step == len(board.session.lesson.steps) - 1:
            break
        if not board.dice["rolled"]:
            board.act("roll")
        else:
            play(board)
    return board


@pytest.mark.parametrize("name", QUESTIONED)
def test_every_question_answered_wrong_then_right(name: str) -> None:
    seen: list[str] = []

    def wrong_then_right(board: CaterpillarsLesson) -> None:
        question = board.session.quiz.question
        assert question is not None
        seen.append(question.kind)
        # Asked before shown: no stars, no scoring.
        if question.kind == "fly":
            assert board.final == {} and "flies" not in board.sheet["svg"]
        else:
            assert board.legal == [] and 'data-testid="legal-move"' not in board.sheet["svg"]
        if question.kind == "boxes":
            assert board.sheet["svg"].count('data-testid="answer"') == len(question.options)
        expected = independent_right_answer(board)
        if expected is not None:
            assert set(question.correct) == expected, question.text
        before = len(board.record.get("answers", []))
        wrong_exists = len(question.correct) < len(question.options)  # a tie, or a close bonus: all right
        step = board.step
        if wrong_exists:
            answer(board, right=False)
            assert board.question["feedback"]["correct"] is False, question.text
            assert board.question["feedback"]["text"] and "\n" not in board.question["feedback"]["text"]
            assert not board.lesson["can_next"]  # a question is done when it is right
            assert board.lesson["target"] == "question"
        answer(board, right=True)
        assert board.step == step + 1 and not board.question  # right: the lesson moves on by itself
        both = question.kind == "bonus" and not wrong_exists
        said = text("lessons.feedback.both_fine" if both else "lessons.feedback.right")
        assert board.explanation.startswith(said)
        answers = board.record["answers"]
        assert len(answers) == before + 1 and answers[-1]["correct"] is not wrong_exists  # the first try
        if question.kind == "fly":
            assert board.final["final"] == score(board.session.game.state).final

    board = walk(name, wrong_then_right)
    steps = get_lesson(name).steps
    assert seen == [step.question for step in steps if step.question]
    assert board.record["lesson"] == name


def test_a_box_question_takes_board_clicks_and_then_shows_the_stars() -> None:
    board = CaterpillarsLesson("01-beginner")
    board.act("roll")  # the intro's words are passed: the learner is already rolling
    assert board.lesson["title"] == text("lessons.question.boxes.title")
    question = board.session.quiz.question
    assert question is not None and question.kind == "boxes"
    first = sorted(question.correct)[0]
    name, box = first.split("-")
    board.act("box", caterpillar=name, box=int(box))  # a click answers, it does not play
    assert board.session.game.state.filled == 0 and board.question["options"][0]["id"]
    assert 'aria-pressed="true"' in board.sheet["svg"]
    board.act("option", index=0)
    assert board.message == "Answer the question first, then play."
    board.act("check")
    assert len(question.correct) > 1 and board.question["feedback"]["correct"] is False
    assert board.legal == [] and not board.lesson["can_next"]  # hidden until right
    assert board.question["marks"]["missed"] == sorted(question.correct)[1:]  # they glow on the board
    assert board.question["feedback"]["text"] == text("lessons.feedback.look_missed")
    for option in sorted(question.correct)[1:]:
        name, box = option.split("-")
        board.act("box", caterpillar=name, box=int(box))
    board.act("check")
    assert board.lesson["title"] == text("lessons.common.choose.title") and board.lesson["target"] == "sheet"
    slots = {slot_from_id(i) for i in question.correct}
    assert {(e["caterpillar"], e["box"]) for e in board.legal} == {describe_slot(s) for s in slots}
    assert board.sheet["svg"].count('data-testid="legal-move"') == len(slots)


def test_bad_answers_are_one_line_and_change_nothing() -> None:
    board = CaterpillarsLesson("01-beginner")
    board.act("answer", option="yes")
    assert board.message == "There is no question to answer now."
    board.act("roll")
    for bad in ("Dora-1", 5, None, ["Alex-0"], "x" * 10_000):
        board.act("answer", option=bad)
        assert board.message.startswith("answer: got") and len(board.message) < 300
    assert not board.question["answered"]
    board.act("step", delta=1)
    assert board.message == "Answer the question first, then play." and board.step == 2


def test_a_second_wrong_try_shows_the_answer_for_the_learner_to_do() -> None:
    board = CaterpillarsLesson("01-beginner")
    board.act("roll")
    question = board.session.quiz.question
    assert question is not None and question.kind == "boxes"
    wrong = next(o.id for o in question.options if o.id not in question.correct)
    name, box = wrong.split("-")
    board.act("box", caterpillar=name, box=int(box))
    board.act("check")
    assert board.question["marks"]["wrong"] == [wrong] and board.lesson["target"] == "question"
    assert "✓" not in board.question["feedback"]["text"] and len(board.question["feedback"]["text"].split()) <= 8
    board.act("check")  # the same wrong box again: now the lesson shows the answer
    assert board.question["show"] == sorted(question.correct)
    assert board.question["feedback"]["text"] == text("lessons.feedback.show")
    done = []
    while board.lesson["target"].startswith("answer:"):  # the learner does it, one marked box at a time
        option = board.lesson["target"].removeprefix("answer:")
        assert option in question.correct and option not in done
        done.append(option)
        name, box = option.split("-")
        board.act("box", caterpillar=name, box=int(box))
    assert sorted(done) == sorted(question.correct) and board.lesson["target"] == "check"
    board.act("check")
    assert board.lesson["title"] == text("lessons.common.choose.title")
    assert [a["correct"] for a in board.record["answers"]] == [False]  # the record keeps the first try


def test_a_bonus_question_closer_than_a_child_can_tell_takes_either_answer() -> None:
    gaps: dict[str, tuple[float, set[str]]] = {}

    def look(b: CaterpillarsLesson) -> None:
        question = b.session.quiz.question
        if question is not None and question.kind == "bonus" and b.session.quiz.feedback is None:
            with_bonus, without = bonus_values(b.session.game.state, b.session.game.roll())
            assert with_bonus is not None
            gaps[b.session.current.key] = (abs(with_bonus - without), set(question.correct))

    walk("03-advanced", answer_right, each=look)
    assert len(gaps) == 2
    for gap, correct in gaps.values():
        assert (correct == {"yes", "no"}) is (gap < CHILD_MARGIN), (gap, correct)
    assert any(gap < CHILD_MARGIN for gap, _ in gaps.values()), "lesson 3 asks a close bonus question"


def test_what_if_shows_both_outcomes_with_exact_values() -> None:
    from caterpillar_learn.advice import state_value
    from caterpillar_learn.caterpillars import apply, legal_moves

    board = CaterpillarsLesson("01-beginner")
    board.act("roll")
    answer(board, right=True)  # "Where can these dice go?" first, then the move plays
    board.act("option", index=0)
    last = board.session.game.history[-1]
    others = [m for m in legal_moves(last.before, last.roll) if m != last.choice]
    assert board.whatif["options"] == [m.describe() for m in others]
    board.act("whatif", index=len(others) - 1)
    view = board.whatif
    for side, move in (("yours", last.choice), ("other", others[-1])):
        value, exact = state_value(apply(last.before, move))
        assert exact and view[side]["value"] == round(float(value), 2) and view[side]["exact"]
        assert view[side]["svg"].startswith("<svg") and move.describe() in view[side]["text"]
    board.act("whatif", index=99)
    assert board.message.startswith("other move: got 99")
    board.act("roll")
    assert board.whatif.get("yours") is None and board.whatif["options"] == []


def answer_right(board: CaterpillarsLesson) -> None:
    answer(board, right=True)


def play_the_guided_line(
    name: str, on_question: Any = answer_right, rounds: int | None = None, lang: str | None = None
) -> CaterpillarsLesson:
    """Play the lesson's guided game by events along the helper's best moves (the line its scenario
    was chosen for), calling ``on_question(board)`` at each open question, until "Which caterpillar
    will fly?" is asked (or ``rounds`` rounds are played)."""
    board = CaterpillarsLesson(name, lang=lang)
    for _ in range(400):
        question = board.session.quiz.question
        played = board.session.game.state.filled
        if (question is not None and question.kind == "fly") or (rounds is not None and played >= rounds):
            return board
        if board.question and not (board.question.get("feedback") or {}).get("correct"):
            on_question(board)
            assert not board.question or board.question["feedback"]["correct"] is True
        elif board.lesson["can_next"]:
            board.act("step", delta=1)
        elif not board.dice["rolled"]:
            board.act("roll")
        else:
            game = board.session.game
            wanted = move_to_json(best_move(game.state, game.roll()))
            keys = ("caterpillar", "box", "score", "zero", "bonus")
            index = next(e["index"] for e in board.legal if all(e[k] == wanted[k] for k in keys))
            board.act("option", index=index)
    raise AssertionError("the fly question was never asked")


def test_a_tie_at_scoring_accepts_either_tied_caterpillar_and_says_it_is_a_tie() -> None:
    board = play_the_guided_line("01-beginner")
    question = board.session.quiz.question
    assert question is not None and question.kind == "fly"
    state = board.session.game.state
    assert state.is_complete and board.final == {}  # scoring hidden until the answer
    totals = dict(zip(CATERPILLARS, state.totals))
    middle = sorted(totals.values())[1]
    tied = sorted(name for name, total in totals.items() if total == middle)
    assert len(tied) == 2, totals  # the Beginner scenario's tie: two caterpillars share the middle total
    flying = score(state).flying
    listed = ", ".join(f"{name} {total}" for name, total in totals.items())
    names = text("caterpillars.list_and", items=", ".join(tied[:-1]), last=tied[-1])
    tie_words = text("lessons.question.fly_tie", totals=listed, names=names, flying=flying)
    single_words = text("lessons.question.fly_why", totals=listed, flying=flying)
    odd = next(name for name in CATERPILLARS if name not in tied)
    board.act("answer", option=odd)
    board.act("check")
    feedback = board.question["feedback"]
    assert feedback["correct"] is False and feedback["text"] == text("lessons.feedback.try_again")  # no answer given
    assert board.question["marks"]["wrong"] == [odd] and board.final == {}
    # Either tied caterpillar is right: here the one the helper did not let fly ...
    other = next(name for name in tied if name != flying)
    board.act("answer", option=other)
    board.act("check")
    # Why, on the next step, without the totals: they are on the board beside the end scene (issue 40).
    tie_why, single_why = tie_words.split(". ", 1)[1], single_words.split(". ", 1)[1]
    assert tie_why in board.explanation and single_why not in board.explanation
    assert not any(ch.isdigit() for ch in board.explanation), board.explanation
    assert board.final["final"] == score(state).final
    # ... and the one it did, on the same question.
    assert check(question, {flying}).correct and tie_words in check(question, {flying}).text
    assert not question.accepts({odd}) and question.accepts({other}) and not question.accepts(set(tied))


def solver_values(state: State, roll: Roll) -> tuple[float, float]:
    """The solver's best expected final with a die put into a bonus box, and without one."""
    from caterpillar_learn.advice import rank_options

    options, _ = rank_options(state, roll)
    with_bonus = max(o.expected_final for o in options if o.move.bonus is not None)
    without = max(o.expected_final for o in options if o.move.bonus is None)
    return with_bonus, without


@pytest.mark.parametrize("name", ["03-advanced", "04-expert"])
def test_the_bonus_questions_say_why_with_the_solvers_values(name: str) -> None:
    """By events, on the scenario's line: each bonus question's feedback quotes both values, and the
    clearly worse answer is wrong."""
    asked = []

    def wrong_then_right(board: CaterpillarsLesson) -> None:
        question = board.session.quiz.question
        assert question is not None
        if question.kind != "bonus":
            answer(board, right=True)
            return
        game = board.session.game
        with_bonus, without = solver_values(game.state, game.roll())
        asked.append(with_bonus > without)
        assert abs(with_bonus - without) >= CLEAR_MARGIN  # the scenario chose these rounds to be clear
        if abs(with_bonus - without) < CHILD_MARGIN:  # too close for a child: either answer (tested below)
            assert question.correct == {"yes", "no"}
            answer(board, right=True)
            return
        assert question.correct == {"yes" if with_bonus > without else "no"}
        values = text("lessons.question.bonus_values", with_bonus=with_bonus, without=without)
        answer(board, right=False)
        feedback = board.question["feedback"]
        assert feedback["correct"] is False and not re.search(r"\d", feedback["text"])  # numbers for grown-ups
        board.act("numbers", value=True)
        answer(board, right=True)
        board.act("numbers", value=False)
        assert values in board.explanation  # the grown-ups read why, with the helper's values
        best = best_move(game.state, game.roll())
        assert (best.bonus is not None) == (with_bonus > without) and best.describe() in board.explanation

    play_the_guided_line(name, wrong_then_right, rounds=2)  # the bonus questions ask about rounds 1 and 2
    steps = [step for step in get_lesson(name).steps if step.question == "bonus"]
    assert len(asked) == len(steps) and (name != "03-advanced" or asked == [False, True])


def test_a_close_bonus_decision_takes_either_answer_and_says_both_are_about_as_good() -> None:
    # Lesson 03's guided line, round 3: the two choices lie closer than the lessons' clear margin.
    game = play_guided(guided_game(get_lesson("03-advanced")), rounds=2)
    state, roll = game.state, game.roll()
    with_bonus, without = solver_values(state, roll)
    assert abs(with_bonus - without) < CLEAR_MARGIN, (with_bonus, without)
    question = ask_bonus(state, roll, best_move(state, roll))
    close = text("lessons.question.bonus_close", with_bonus=with_bonus, without=without)
    for given in ("yes", "no"):
        quiz = Quiz()
        quiz.ask(question, "question.bonus")
        quiz.choose(given)
        feedback = quiz.check()
        assert feedback.correct and close in feedback.text and "best move" not in feedback.text
    with language("de"):
        german = ask_bonus(state, roll, best_move(state, roll))
        assert f"{with_bonus:.1f}".replace(".", ",") in check(german, {"no"}).text


def test_with_every_bonus_box_full_the_bonus_answer_is_no() -> None:
    guided = play_guided(guided_game(get_lesson("03-advanced")), rounds=2)  # its layout is solved already
    state = State("advanced", guided.state.labels, guided.state.scores, (4, 5, 6))
    roll = guided.roll()
    question = ask_bonus(state, roll, best_move(state, roll))
    assert question.correct == {"no"} and not check(question, {"yes"}).correct
    assert text("lessons.question.bonus_full") in check(question, {"yes"}).text
