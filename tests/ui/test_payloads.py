"""Each trait payload is described twice on purpose, once per language: a
TypedDict in Python and a JSDoc ``@typedef`` in the ES module.  This test keeps
the two alike (same names, same fields), and the front end's list of view
traits equal to the Python class's, so neither can drift alone."""

from __future__ import annotations

import re
from typing import is_typeddict

import anywidget
import pytest

from caterpillar_learn.classroom import screens
from caterpillar_learn.classroom.consoles import JoinWidget, TeacherWidget
from caterpillar_learn.classroom.rooms.lesson import room as lesson_room
from caterpillar_learn.lessons.questions import Option, Question
from caterpillar_learn.ui import quiz, resume
from caterpillar_learn.ui.assets import widget_file
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard, CaterpillarsLesson
from caterpillar_learn.ui.caterpillars import views as caterpillars_views
from caterpillar_learn.ui.lab import LabWidget
from caterpillar_learn.ui.lab import views as lab_views
from caterpillar_learn.ui.raupe import RaupeWidget
from caterpillar_learn.ui.raupe import views as raupe_views

TYPEDEF = re.compile(r"@typedef\s+\{Object\}\s+(\w+)(.*?)\*/", re.DOTALL)


def property_names(body: str) -> set[str]:
    """The names of ``@property {type} name`` lines (a type may nest braces)."""
    names = set()
    for line in body.splitlines():
        at = line.find("@property")
        if at < 0:
            continue
        depth, rest = 0, line[line.index("{", at) :]
        for index, char in enumerate(rest):
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0:
                names.add(re.match(r"\s*\[?(\w+)", rest[index + 1 :]).group(1))  # type: ignore[union-attr]
                break
    return names


def typedefs(file: str) -> dict[str, set[str]]:
    source = widget_file(file).read_text(encoding="utf-8")
    return {name: property_names(body) for name, body in TYPEDEF.findall(source)}


def typed_dicts(module: object) -> dict[str, set[str]]:
    return {
        name: set(value.__annotations__)
        for name, value in vars(module).items()
        if is_typeddict(value) and value.__module__ == module.__name__  # type: ignore[attr-defined]
    }


@pytest.mark.parametrize(
    ("file", "module"),
    [
        ("caterpillars.js", caterpillars_views),
        ("raupe.js", raupe_views),
        ("lab.js", lab_views),
        ("question.js", quiz),
        ("resume.js", resume),
    ],
    ids=["caterpillars", "raupe", "lab", "question", "resume"],
)
def test_every_typed_dict_has_its_typedef_with_the_same_fields(file: str, module: object) -> None:
    js, py = typedefs(file), typed_dicts(module)
    assert py, "the views module declares its payloads"
    for name, fields in py.items():
        assert name in js, f"widgets/{file} lacks @typedef {name}"
        assert js[name] == fields, (name, js[name] ^ fields)


def test_the_classrooms_payloads_have_their_typedefs_with_the_same_fields() -> None:
    """The classroom's payloads (``classroom/screens.py``) against the teacher's console and the pupils' door
    (issue 43: ``JoinView`` and ``LeaderRow.reviewing`` had drifted), and the console's and the door's view
    traits against their widgets'."""
    js = {**typedefs("classroom-teacher.js"), **typedefs("classroom-join.js")}
    py = {**typed_dicts(screens), **typed_dicts(lesson_room)}  # the lesson room's one progress row is a payload too
    assert py, "screens.py declares the classroom's payloads"
    assert "ProgressRow" in py
    for name, fields in py.items():
        assert name in js, f"widgets/classroom-*.js lack @typedef {name}"
        assert js[name] == fields, (name, js[name] ^ fields)
    for widget, file in ((TeacherWidget, "classroom-teacher.js"), (JoinWidget, "classroom-join.js")):
        read = set(re.findall(r'model\.get\("(\w+)"\)', widget_file(file).read_text(encoding="utf-8")))
        synced = set(widget.class_trait_names(sync=True))
        assert read and read <= synced, (file, read - synced)  # every trait the page reads is one Python sends


def test_the_board_typedef_lists_exactly_the_view_traits() -> None:
    board = typedefs("caterpillars.js")["BoardView"]
    assert board == set(CaterpillarsBoard.view_trait_names()) == set(CaterpillarsLesson.view_trait_names())


def test_the_view_traits_are_the_synced_traits_but_event() -> None:
    """Every synced trait is drawn but the event, the list of views and ``handled`` (the page's busy flag)."""
    for widget in (CaterpillarsBoard, RaupeWidget, LabWidget):
        synced = {name for name, trait in widget.class_traits(sync=True).items() if not name.startswith("_")}
        framework = set(anywidget.AnyWidget.class_traits(sync=True))  # ipywidgets' own (layout, tabbable, ...)
        assert set(widget.view_trait_names()) == synced - framework - {"event", "view_names", "handled"}


def test_a_typedef_that_loses_a_field_fails_the_comparison() -> None:
    js = typedefs("caterpillars.js")
    js["DiceView"].discard("count")
    assert js["DiceView"] != typed_dicts(caterpillars_views)["DiceView"]


def test_the_quiz_payloads_have_exactly_their_typed_fields() -> None:
    """What ``Quiz.view`` and ``Quiz.record`` send carries the fields of their TypedDicts, no more."""
    asked = quiz.Quiz(show_after=2)  # a lesson's quiz: its marks and the shown answer are fields too
    assert asked.view() == {}
    options = (Option("yes", "Yes"), Option("no", "No"))
    asked.ask(Question("zero", "Any box?", options, frozenset({"no"}), False), "step-1")
    before = asked.view()
    # No feedback before a check; no picture from a quiz of its own (a Räuber Raupe table adds a slip's).
    assert set(before) == set(quiz.QuestionView.__annotations__) - {"feedback", "picture"}
    assert all(set(option) == set(quiz.OptionView.__annotations__) for option in before["options"])
    asked.choose("yes")
    asked.check()
    after = asked.view()
    assert set(after) == set(quiz.QuestionView.__annotations__) - {"picture"}
    assert set(after["feedback"]) == set(quiz.FeedbackView.__annotations__)
    record = asked.record("01-beginner")
    assert set(record) == set(quiz.RecordView.__annotations__)
    assert [set(answer) for answer in record["answers"]] == [set(quiz.AnswerView.__annotations__)]
    assert record["answers"][0]["given"] == ["Yes"] and record["answers"][0]["correct"] is False
