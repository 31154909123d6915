"""The classroom's widgets as Panel components: declared subclasses of the lessons' one component.

Each is a :class:`~caterpillar_learn.ui.hosting.component.LearnComponent`
naming its widget class: the same ES module, parameters and guard as in
the Panel app, and the same cheaper redraw (only what differs is handed
to ``param``).  A component given the server's redraw queue (its
``redraws``, :class:`~caterpillar_learn.classroom.push.Redraws`) holds
that queue from the moment its page's event arrives until the event has
been played and answered, so a click goes before other pages' redraws.

Each is named ``Panel`` + its widget class's name (the name its Bokeh
data model carries, which the tests' protocol client, ``tests/classroom/probe.py``, looks for).
The classes are declared here, once, before any page opens (see
:func:`caterpillar_learn.classroom.pages.build_pages`).

>>> from caterpillar_learn.classroom.consoles import JoinWidget
>>> classroom_component(JoinWidget) is PanelJoinWidget
True
"""

from __future__ import annotations

from typing import Any

from caterpillar_learn.classroom.consoles import JoinWidget, TeacherWidget
from caterpillar_learn.classroom.rooms.caterpillars.pupil import ClassroomBoard
from caterpillar_learn.classroom.rooms.lesson.page import LessonBoard, LessonTable
from caterpillar_learn.classroom.rooms.raupe.pupil import SeatWidget
from caterpillar_learn.ui.base import LearnWidget
from caterpillar_learn.ui.hosting.component import LearnComponent

__all__ = [
    "PanelClassroomBoard",
    "PanelJoinWidget",
    "PanelLessonBoard",
    "PanelLessonTable",
    "PanelSeatWidget",
    "PanelTeacherWidget",
    "classroom_component",
]


class PanelTeacherWidget(LearnComponent):
    """The teacher's console."""

    widget_class = TeacherWidget


class PanelJoinWidget(LearnComponent):
    """The pupils' door."""

    widget_class = JoinWidget


class PanelClassroomBoard(LearnComponent):
    """A pupil's Caterpillars sheet."""

    widget_class = ClassroomBoard


class PanelSeatWidget(LearnComponent):
    """A pupil's seat at a Räuber Raupe table."""

    widget_class = SeatWidget


class PanelLessonBoard(LearnComponent):
    """A pupil's Caterpillars lesson in a lesson room (or the teacher's look at it)."""

    widget_class = LessonBoard


class PanelLessonTable(LearnComponent):
    """A pupil's Räuber Raupe lesson in a lesson room (or the teacher's look at it)."""

    widget_class = LessonTable


_COMPONENTS: dict[type[LearnWidget[Any]], type[LearnComponent]] = {
    component.widget_class: component
    for component in (
        PanelTeacherWidget,
        PanelJoinWidget,
        PanelClassroomBoard,
        PanelSeatWidget,
        PanelLessonBoard,
        PanelLessonTable,
    )
}


def classroom_component(widget_class: type[LearnWidget[Any]]) -> type[LearnComponent]:
    """The Panel component class for ``widget_class`` (call it with the class, never ``type(widget)``: a
    widget that does not declare anywidget's ``_anywidget_id``, as :class:`~caterpillar_learn.ui.base.LearnWidget`
    does, gets a class of its own per instance)."""
    try:
        return _COMPONENTS[widget_class]
    except KeyError:
        raise ValueError(f"widget_class: no classroom component for {widget_class.__name__}") from None
