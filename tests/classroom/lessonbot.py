"""A pupil who does what the lesson marks, through the lesson room: the tests' and the benchmarks' bot."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from caterpillar_learn.caterpillars import Move
from caterpillar_learn.classroom.rooms.lesson.pupil import LessonPupil, RoomLesson
from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom


def first(moves: Sequence[Move]) -> Move:
    return moves[0]


def todo_tap(room: LessonRoom, pupil: LessonPupil, pick: Callable[[Sequence[Move]], Move] = first) -> str | None:
    """Do the one thing the lesson asks ``pupil`` for now, rightly (what the page marks: ``todo_target``),
    playing ``pick``'s move where a box is to be played; the target done, or ``None`` when there is nothing
    this bot can do (no lesson of Caterpillars, no question open, no move offered, a target it does not know)."""
    session = pupil.session
    if not isinstance(session, RoomLesson):
        return None
    target = session.todo_target()

    def tap(kind: str, **fields: object) -> None:
        room.act(pupil.id, {"type": kind, **fields})

    if target == "next":
        tap("step", delta=1)
    elif target in ("roll", "hint"):
        tap(target)
    elif target in ("question", "check") or target.startswith("answer:"):
        question = session.quiz.question
        if question is None:
            return None
        for option in sorted(question.correct - session.quiz.selected):
            tap("answer", option=option)
        tap("check")
    elif target == "menu":
        tap("option", index=0)
    elif target == "sheet":
        moves = session.legal_moves()
        if not moves:
            return None
        move = pick(moves)
        tap("box", caterpillar=move.caterpillar, box=move.box)
    else:
        return None
    return target
