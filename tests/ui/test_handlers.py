"""Every widget's events go through a table of handlers (``EVENTS = tuple(HANDLERS)``): each handler exists,
the table is the list of events the page may send, and a kind outside it is refused in one line by the
controller itself, not only by the widget in front of it, through the one dispatch of
:func:`caterpillar_learn.ui.base.handler`."""

from __future__ import annotations

from typing import Any

import pytest

from caterpillar_learn.classroom.consoles import (
    JOIN_EVENTS,
    JOIN_HANDLERS,
    TEACHER_EVENTS,
    TEACHER_HANDLERS,
    JoinDesk,
    TeacherConsole,
)
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.pupil import PUPIL_HANDLERS, SEAT_EVENTS, SEAT_HANDLERS, RoomSession, SeatTable
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.lessons import get_table
from caterpillar_learn.ui.base import BadEventError
from caterpillar_learn.ui.caterpillars.controller import EVENTS, HANDLERS, Session
from caterpillar_learn.ui.caterpillars.lesson import LESSON_HANDLERS, LessonSession
from caterpillar_learn.ui.lab.controller import EVENTS as LAB_EVENTS
from caterpillar_learn.ui.lab.controller import HANDLERS as LAB_HANDLERS
from caterpillar_learn.ui.lab.controller import LabBench
from caterpillar_learn.ui.raupe.controller import EVENTS as TABLE_EVENTS
from caterpillar_learn.ui.raupe.controller import HANDLERS as TABLE_HANDLERS
from caterpillar_learn.ui.raupe.controller import RaupeTable

TABLES: list[tuple[type, dict[str, str]]] = [
    (Session, HANDLERS),
    (LessonSession, LESSON_HANDLERS),
    (RoomSession, PUPIL_HANDLERS),
    (RaupeTable, TABLE_HANDLERS),
    (SeatTable, SEAT_HANDLERS),
    (TeacherConsole, TEACHER_HANDLERS),
    (JoinDesk, JOIN_HANDLERS),
    (LabBench, LAB_HANDLERS),
]


@pytest.mark.parametrize(("owner", "table"), TABLES, ids=lambda value: getattr(value, "__name__", ""))
def test_each_handler_in_the_table_is_a_method(owner: type, table: dict[str, str]) -> None:
    missing = [method for method in table.values() if not callable(getattr(owner, method, None))]
    assert missing == []


def test_the_events_are_the_tables() -> None:
    assert tuple(HANDLERS) == EVENTS and tuple(TABLE_HANDLERS) == TABLE_EVENTS and tuple(SEAT_HANDLERS) == SEAT_EVENTS
    assert tuple(TEACHER_HANDLERS) == TEACHER_EVENTS
    assert tuple(JOIN_HANDLERS) == JOIN_EVENTS and tuple(LAB_HANDLERS) == LAB_EVENTS
    assert set(LESSON_HANDLERS) > set(HANDLERS) and "new_game" not in PUPIL_HANDLERS


@pytest.mark.parametrize(
    "make",
    [
        lambda: Session(),
        lambda: LessonSession("01-beginner", 1),
        lambda: RaupeTable(get_table("13-raupe-butterflies-and-aphids"), 1),
        lambda: TeacherConsole(Lobby(EventStore(":memory:")), "http://127.0.0.1:1/join"),
        lambda: JoinDesk(Lobby(EventStore(":memory:")), "127.0.0.1", lambda room, pupil: None),
        lambda: LabBench(),
    ],
    ids=["board", "lesson", "table", "console", "door", "lab"],
)
@pytest.mark.parametrize("kind", ["fly away", "handle", "__init__", 7, None])
def test_a_kind_outside_the_table_is_refused_in_one_line(make: Any, kind: object) -> None:
    controller = make()
    before = controller.views()
    with pytest.raises(BadEventError) as refused:
        controller.handle({"type": kind})
    assert "\n" not in str(refused.value) and "event type" in str(refused.value)
    assert controller.views() == before


HUGE = 10**5000  # its repr() alone is refused by Python (over 4300 digits): the message must not ask for it


@pytest.mark.parametrize(
    ("make", "event"),
    [
        (lambda: LessonSession("01-beginner", 1), {"type": "step", "delta": HUGE}),
        (lambda: LessonSession("01-beginner", 1), {"type": "numbers", "value": HUGE}),
        (lambda: LessonSession("01-beginner", 1), {"type": "device", "touch": HUGE}),
        (lambda: RaupeTable(get_table("13-raupe-butterflies-and-aphids"), 1), {"type": "answer", "option": HUGE}),
    ],
    ids=["step", "numbers", "device", "answer"],
)
def test_a_value_too_big_to_print_is_refused_in_one_short_line(make: Any, event: dict[str, Any]) -> None:
    controller = make()
    before = controller.views()
    with pytest.raises(BadEventError) as refused:
        controller.handle(event)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 200 and "bits" in str(refused.value)
    assert controller.views() == before
