"""The lesson follows the game, in the widget logic: a child who only ever does the one thing the lesson
marks (``lesson["target"]``), answering questions at random until the lesson shows the answer, meets
every step and reaches the last one; at every moment there is exactly one thing to do, and it can be
done.  A careless child who first does 40 random things gets there too.  (The same walk in Chromium, by
touch: tests/browser/test_child_walk.py.)"""

from __future__ import annotations

import random

import pytest

from caterpillar_learn.caterpillars import CATERPILLARS
from caterpillar_learn.lessons import LESSONS
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson

GAME_LESSONS = [name for name, lesson in LESSONS.items() if "board" in lesson.widgets]
MAX_ACTIONS = 600


def doable(board: CaterpillarsLesson, target: str) -> bool:
    """Whether the marked thing can be done now (the button is enabled, the box is there)."""
    lesson, dice, question = board.lesson, board.dice, board.question
    if target == "next":
        return bool(lesson["can_next"])
    if target == "roll":
        return not dice["rolled"] and dice["kind"] != "over"
    if target == "hint":
        return bool(dice["rolled"]) and dice["kind"] == "play"
    if target == "sheet":
        return bool(board.legal)
    if target == "menu":
        return bool(board.menu.get("options"))
    if target == "question":
        return bool(question) and not (question.get("feedback") or {}).get("correct")
    if target == "check":
        return bool(question)
    if target.startswith("answer:"):
        return any(o["id"] == target[7:] for o in question.get("options", []))
    if target == "new_game":
        return bool(board.final) or bool(lesson["new_game"])
    if target == "practice_next":
        return bool(board.practice.get("answered"))
    if target == "practice_start":  # offered beside the game's end scene, which stays (issue 40)
        return board.practice.get("status") == "offered" and bool(board.final)
    return False


def do(board: CaterpillarsLesson, target: str, rng: random.Random) -> None:
    """Do the marked thing as a child does: tap it (a question: a random answer, then Check)."""
    if target in ("next", "roll", "hint", "check", "new_game", "practice_next", "practice_start"):
        board.act(
            {"next": "step", "new_game": "new_game"}.get(target, target), **({"delta": 1} if target == "next" else {})
        )
    elif target == "sheet":
        entry = rng.choice(board.legal)
        board.act("box", caterpillar=entry["caterpillar"], box=entry["box"])
    elif target == "menu":
        board.act("option", index=rng.choice(board.menu["options"])["index"])
    elif target.startswith("answer:"):
        option = target[7:]
        if board.question.get("on_board"):
            name, box = option.split("-")
            board.act("box", caterpillar=name, box=int(box))
        else:
            board.act("answer", option=option)
    elif target == "question":
        question = board.question
        options = question["options"]
        for option in rng.sample(options, k=rng.randint(1, len(options)) if question["multiple"] else 1):
            if question["on_board"]:
                name, box = option["id"].split("-")
                board.act("box", caterpillar=name, box=int(box))
            else:
                board.act("answer", option=option["id"])
        board.act("check")


def careless(board: CaterpillarsLesson, rng: random.Random, taps: int) -> None:
    """Tap anything at all, marked or not; New game once at most (each new game's layout, labelled at random,
    is a new exact solve: about 2 s of a core at Intermediate, more at Expert)."""
    kinds = ["roll", "box", "step", "hint", "answer", "check", "option", "close", "new_game"]
    for _ in range(taps):
        kind = rng.choice(kinds)
        if kind == "new_game":
            kinds.remove(kind)
        if kind == "box":
            board.act("box", caterpillar=rng.choice(CATERPILLARS), box=rng.randrange(4))
        elif kind == "step":
            board.act("step", delta=rng.choice([1, -1]))
        elif kind == "answer":
            options = board.question.get("options") or [{"id": "yes"}]
            board.act("answer", option=rng.choice(options)["id"])
        elif kind == "option":
            board.act("option", index=rng.randrange(3))
        else:
            board.act(kind)


def follow(board: CaterpillarsLesson, rng: random.Random) -> list[str]:
    """Do only what is marked until the last step shows its end; the targets met, in order."""
    count = board.lesson["count"]
    met = []
    for _ in range(MAX_ACTIONS):
        target = board.lesson["target"]
        assert target, f"nothing to do at step {board.step}: {board.lesson['title']}"
        assert doable(board, target), (target, board.lesson["title"], board.message)
        met.append(target)
        last = board.lesson["index"] == count - 1
        if last and target == "new_game":
            return met
        do(board, target, rng)
    raise AssertionError(f"the lesson never reached its end: step {board.step + 1} of {count}")


@pytest.mark.parametrize("name", GAME_LESSONS)
@pytest.mark.parametrize("seed", [1])
def test_a_child_who_does_only_what_is_marked_reaches_the_end(name: str, seed: int) -> None:
    board = CaterpillarsLesson(name)
    met = follow(board, random.Random(seed))
    lesson = board.session.lesson
    assert board.step == len(lesson.steps) - 1
    if lesson.scenario is not None:  # a level lesson ends with the flight and its final score
        assert board.final["final"] == board.session.game.score().final and board.final["flying"]
        questions = [step.question for step in lesson.steps if step.question]
        assert [a["kind"] for a in board.record["answers"]] == questions  # every question met, once each
    assert "next" in met and "roll" in met


@pytest.mark.parametrize("name", GAME_LESSONS)
def test_a_careless_child_gets_to_the_end_too(name: str) -> None:
    rng = random.Random(7)
    board = CaterpillarsLesson(name)
    careless(board, rng, 40)
    follow(board, rng)
    assert board.step == len(board.session.lesson.steps) - 1


def test_a_child_who_never_presses_next_is_not_left_on_step_one() -> None:
    """Rolling and playing, never Next: the lesson goes along (the issue's "Step 1 of 13" all game long)."""
    board = CaterpillarsLesson("01-beginner")
    rng = random.Random(3)
    for _ in range(MAX_ACTIONS):
        target = board.lesson["target"]
        if board.session.game.phase == "over":
            break
        if target == "next":  # a step of words: the child ignores it and rolls
            board.act("roll")
            continue
        do(board, target, rng)
    assert board.lesson["title"] != "" and board.step >= [s.question for s in board.session.lesson.steps].index("fly")


def test_lesson_zero_ends_with_new_game_on_screen() -> None:
    board = CaterpillarsLesson("00-setup")
    follow(board, random.Random(1))
    assert board.lesson["new_game"] and board.lesson["target"] == "new_game"
    board.act("new_game")
    assert board.lesson["target"] == "roll" and board.session.game.phase == "setup"
