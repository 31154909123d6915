"""Every widget's events go through a table of handlers (each controller's ``handlers()``: type → bound
method): the table is the list of events the page may send, its handlers are the controller's own methods
(never names looked up as strings), and a kind outside it is refused in one line by the controller itself,
not only by the widget in front of it, through the one dispatch of :func:`caterpillar_learn.ui.base.handler`."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest

import caterpillar_learn
from caterpillar_learn.classroom.consoles import JoinDesk, TeacherConsole
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.lesson.pupil import RoomLesson
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.lessons import get_table
from caterpillar_learn.ui.base import BadEventError
from caterpillar_learn.ui.caterpillars.controller import Session
from caterpillar_learn.ui.caterpillars.lesson import LessonSession
from caterpillar_learn.ui.lab.controller import LabBench
from caterpillar_learn.ui.raupe.controller import RaupeTable

PACKAGE = Path(caterpillar_learn.__file__).parent


def test_each_controllers_events_are_its_own_methods() -> None:
    controllers = [
        Session(),
        LessonSession("01-beginner", 1),
        RoomLesson("01-beginner", 1),
        RaupeTable(get_table("13-raupe-butterflies-and-aphids"), 1),
        TeacherConsole(Lobby(EventStore(":memory:")), "http://127.0.0.1:1/join"),
        JoinDesk(Lobby(EventStore(":memory:")), "127.0.0.1", lambda room, pupil: None),
        LabBench(),
    ]
    for controller in controllers:
        handlers = controller.handlers()
        assert tuple(handlers) == controller.events
        for kind, method in handlers.items():
            assert inspect.ismethod(method) and method.__self__ is controller, (type(controller).__name__, kind)
    lesson, board = LessonSession("01-beginner", 1), Session()
    assert set(lesson.events) > set(board.events) and "book" not in RoomLesson("01-beginner", 1).events


def test_no_handler_table_holds_method_names() -> None:
    """A table of strings looked up with ``getattr`` hides a renamed handler from mypy (issue 43)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Dict)
                and node.values
                and all(
                    isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.startswith("on_")
                    for value in node.values
                )
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "getattr" and len(node.args) >= 2:
                name = node.args[1]
                if isinstance(name, ast.JoinedStr) and any(
                    isinstance(part, ast.Constant) and str(part.value).startswith("on_") for part in name.values
                ):
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} (getattr of 'on_...')")
    assert found == []


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
