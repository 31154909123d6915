"""A hold that holds (issue 42): held at a step, a pupil's game cannot move past it.

The teacher holds lesson 01 at step 6 ("A zero", where round 2's dice are rolled); the class's question about a
forced zero comes at step 7.  A pupil who taps on and on (a protocol pupil: the room's own events, as a page
sends them) rolls round 2 and then waits: every roll, box or option is refused in one line and writes no row,
the page shows the wait with a picture and marks nothing, and the grid shows the pupil's round.  Once the hold
lifts, the question is about the dice on the pupil's own board.
"""

from __future__ import annotations

import pytest

from caterpillar_learn.caterpillars.sheet import describe_slot
from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import get_lesson
from tests.classroom.lessonbot import todo_tap
from tests.classroom.test_lesson_room import arrive, grid, lesson_of, lesson_room

#: The step the teacher holds at (1-based, as the console shows it): lesson 01's "a zero" step.
HELD = 1 + next(i for i, step in enumerate(get_lesson("01-beginner").steps) if step.key == "beginner.zero")


def test_a_held_pupil_cannot_roll_or_place_past_the_hold_and_the_question_after_is_about_their_dice() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console, room = lesson_room(lobby)
    assert isinstance(room, LessonRoom)
    ada, _ben = arrive(room, "Ada", "Ben")
    console.act("hold", step=HELD)
    session = lesson_of(ada)
    for _ in range(40):  # a pupil who taps whatever is marked, on and on
        if todo_tap(room, ada) is None:
            break
    assert session.step == HELD - 1 and session.waits_for_teacher, (session.step, session.todo_target())
    round_held, roll_held = session.game.state.round, session.game.roll()
    filled = session.game.state.filled
    assert session.todo_target() == "wait" and session.legal_moves() == []
    view = session.views()["lesson"]
    assert view["waits"] is True and view["todo"] == text("classroom.lesson.held")
    rows = len(room.log)
    caterpillar, box = describe_slot(next(iter(session.game.state.empty_slots())))
    tapped = {"type": "box", "caterpillar": caterpillar, "box": box}
    for event in ({"type": "roll"}, tapped, {"type": "option", "index": 0}):
        with pytest.raises(ClassroomError):
            room.act(ada.id, event)
        assert ada.refusal == text("classroom.lesson.held"), (event, ada.refusal)
    assert len(room.log) == rows, "a refused tap was written"
    assert (session.game.state.round, session.game.state.filled, session.game.roll()) == (round_held, filled, roll_held)
    row = grid(console)["Ada"]
    assert row["step"] == HELD and row["round"] == text("classroom.lesson.round", round=round_held)
    assert grid(console)["Ben"]["round"] == text("classroom.lesson.round", round=1)

    console.act("hold", step=None)  # let go: the class's question, about the dice on Ada's board
    question = session.quiz.question
    assert question is not None and session.step == HELD, (session.step, session.todo_target())
    assert session.game.roll() == roll_held and session.game.state.round == round_held
    assert todo_tap(room, ada) is not None and ada.refusal == ""
