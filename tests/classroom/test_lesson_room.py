"""A lesson room without a browser: the teacher's console, the pupils' controllers, the log and its replay.

A teacher and three pupils in a lesson room of ``01-beginner``: every
pupil's event goes through the room (checked, written, then played by the
lesson's own controller); the grid follows each pupil step by step; a new
lobby on the same file (a restart, or another tablet after one) brings every
pupil back to the same step with the same answers; pause, hold, stuck, the
teacher's roll (``together``) and the progress file.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.consoles import TeacherConsole, TeacherWidget
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.lesson.page import lesson_widget
from caterpillar_learn.classroom.rooms.lesson.room import (
    CSV_COLUMNS,
    LESSON_NAMES,
    STUCK_SECONDS,
    LessonPupil,
    LessonRoom,
    LessonSettings,
    RoomLesson,
)
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.caterpillars import sheet_labels
from tests.classroom.lessonbot import todo_tap

JOIN = "http://127.0.0.1:5006/join"


class Clock:
    """A clock the test moves by hand (the room's ``clock``)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def lesson_room(lobby: Lobby, lesson: str = "01-beginner", mode: str = "own") -> tuple[TeacherWidget, LessonRoom]:
    console = TeacherWidget(TeacherConsole(lobby, JOIN))
    console.act("create", game="lesson", lesson=lesson, mode=mode)
    assert console.message == ""
    room = lobby.rooms[console.room["code"]]
    assert isinstance(room, LessonRoom)
    return console, room


def arrive(room: LessonRoom, *names: str) -> list[LessonPupil]:
    pupils = [room.join(name) for name in names]
    for pupil in pupils:
        room.arrive(pupil.id)
    return pupils


def grid(console: TeacherWidget) -> dict[str, dict[str, Any]]:
    console.refresh()
    return {row["nickname"]: row for row in console.room["lesson"]["rows"]}


def lesson_of(pupil: LessonPupil) -> RoomLesson:
    assert isinstance(pupil.session, RoomLesson)
    return pupil.session


def right_step(room: LessonRoom, pupil: LessonPupil) -> None:
    """Do the one thing the lesson asks for now, rightly (what the page marks: ``todo_target``)."""
    target = todo_tap(room, pupil)
    assert target is not None, f"nothing to do at {lesson_of(pupil).todo_target()}"
    assert pupil.refusal == "", (target, pupil.refusal)


def wrong_check(room: LessonRoom, pupil: LessonPupil) -> None:
    """Answer the open question wrongly once."""
    session = lesson_of(pupil)
    question = session.quiz.question
    assert question is not None
    wrong = next(option.id for option in question.options if option.id not in question.correct)
    for option in sorted(session.quiz.selected):
        room.act(pupil.id, {"type": "answer", "option": option})  # take the last try back
    room.act(pupil.id, {"type": "answer", "option": wrong})
    room.act(pupil.id, {"type": "check"})


def test_the_grid_follows_each_pupil_step_by_step() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console, room = lesson_room(lobby)
    ada, ben, _cem = arrive(room, "Ada", "Ben", "Cem")
    rows = grid(console)
    assert [rows[name]["step"] for name in ("Ada", "Ben", "Cem")] == [1, 1, 1]
    assert rows["Ada"]["steps"] == len(lesson_of(ada).lesson.steps) == 13
    seen = []
    for _ in range(8):  # Ada goes on; Ben a little; Cem stays
        right_step(room, ada)
        seen.append(grid(console)["Ada"]["step"])
        assert seen[-1] == lesson_of(ada).step + 1
    right_step(room, ben)
    rows = grid(console)
    assert seen == sorted(seen) and seen[-1] > 3, seen
    assert rows["Ben"]["step"] == lesson_of(ben).step + 1 == 2
    assert rows["Cem"]["step"] == 1
    assert rows["Ada"]["asked"] == len(lesson_of(ada).quiz.answers) >= 2
    assert rows["Ada"]["right_first"] == rows["Ada"]["asked"]
    assert not any(row["stuck"] for row in rows.values())


def test_every_event_is_written_before_it_is_played_and_a_restart_replays_it(tmp_path: Any) -> None:
    lobby = Lobby.open(tmp_path)
    _console, room = lesson_room(lobby)
    ada, ben = arrive(room, "Ada", "Ben")
    for _ in range(9):
        right_step(room, ada)
    for _ in range(2):
        right_step(room, ben)
    wrong_check(room, ben)  # a wrong try is replayed too
    right_step(room, ben)
    written = [event.kind for event in lobby.store.events(room.code)]
    assert written.count("lesson_event") == sum(1 for kind, _ in room.log if kind == "lesson_event")
    before = {p.nickname: (lesson_of(p).step, lesson_of(p).quiz.answers, lesson_of(p).game.state) for p in (ada, ben)}
    lobby.store.close()

    again = Lobby.open(tmp_path)  # a restart: every pupil's events through a fresh controller
    replayed = again.rooms[room.code]
    assert isinstance(replayed, LessonRoom) and not again.damage
    for pupil in replayed.pupils.values():
        session = lesson_of(pupil)
        step, answers, state = before[pupil.nickname]
        assert session.step == step
        assert [a["correct"] for a in session.quiz.answers] == [a["correct"] for a in answers]
        assert session.game.state == state
    assert lesson_of(replayed.pupils[ada.id]).game.state.filled > 0
    # the pupil's secret on another tablet after the restart: the same pupil, at the same step
    again.store.close()


def test_a_write_that_fails_closes_the_room_and_the_file_brings_it_back_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tap is tried on the controller before it is written: when the write then fails, the room in memory is
    ahead of its file, so it takes nothing more (its pages say to reload) and the lobby replays it from the file."""
    lobby = Lobby(EventStore(":memory:"))
    _console, room = lesson_room(lobby)
    (ada,) = arrive(room, "Ada")

    def refuse(*args: object) -> int:
        raise ClassroomError("the disk is full")

    monkeypatch.setattr(lobby.store, "append", refuse)
    with pytest.raises(ClassroomError, match="disk is full"):
        room.act(ada.id, {"type": "step", "delta": 1})
    with pytest.raises(ClassroomError, match="reload the page"):
        room.act(ada.id, {"type": "step", "delta": 1})
    monkeypatch.undo()
    again = lobby.rooms[room.code]
    assert again is not room and lesson_of(again.pupils[ada.id]).step == 0
    again.act(ada.id, {"type": "step", "delta": 1})
    assert lesson_of(again.pupils[ada.id]).step == 1


def test_what_a_page_sends_is_checked_before_anything_is_written() -> None:
    room = LessonRoom("KX47PQ", LessonSettings.build("01-beginner"))
    ada = room.join("Ada")
    for bad in (
        {"type": "new_room"},
        {"type": "__init__"},
        ["roll"],
        {"type": "step", "delta": "x" * 700},
        {"type": "step", "delta": float("nan")},
        {"type": "roll", **{f"f{i}": i for i in range(20)}},
    ):
        with pytest.raises(ClassroomError):
            room.act(ada.id, bad)
    with pytest.raises(ClassroomError):
        room.act(99, {"type": "roll"})
    assert [kind for kind, _ in room.log] == ["pupil_joined"]
    with pytest.raises(ClassroomError, match="step delta"):  # a known kind the lesson refuses: not written
        room.act(ada.id, {"type": "step", "delta": 7})
    assert lesson_of(ada).step == 0 and "step delta" in ada.refusal
    assert [kind for kind, _ in room.log] == ["pupil_joined"]
    with pytest.raises(ClassroomError, match="an event of a lesson room"):
        room.apply("move_placed", {"pupil": ada.id})


def test_pause_covers_every_pupil_and_lifts() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console, room = lesson_room(lobby)
    ada, ben, _ = arrive(room, "Ada", "Ben", "Cem")
    board = lesson_widget(room, ada)
    console.act("pause", on=True)
    assert console.room["lesson"]["paused"] and room.paused
    written = len(room.log)
    board.act("step", delta=1)
    assert board.message == "Eyes on your teacher." and board.lesson["index"] == 0
    with pytest.raises(ClassroomError, match="Eyes on your teacher"):
        room.act(ben.id, {"type": "step", "delta": 1})
    assert len(room.log) == written
    console.act("pause", on=False)
    board.act("step", delta=1)
    assert board.message == "" and board.lesson["index"] == 1


def test_hold_keeps_a_pupil_at_the_step_until_the_teacher_lets_go() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console, room = lesson_room(lobby)
    ada, _ben, _ = arrive(room, "Ada", "Ben", "Cem")
    console.act("hold", step=2)
    assert console.message == "" and console.room["lesson"]["hold"] == 2
    for _ in range(2):
        right_step(room, ada)  # next, roll: the roll is made, the lesson stays at step 2
    assert lesson_of(ada).step == 1 and lesson_of(ada).revealed
    with pytest.raises(ClassroomError, match="holds the class"):
        room.act(ada.id, {"type": "step", "delta": 1})
    assert ada.refusal == "Your teacher holds the class here: wait for them."
    assert grid(console)["Ada"]["step"] == 2
    console.act("hold", step=None)
    assert grid(console)["Ada"]["step"] == 3  # let go: the lesson catches up (its question is asked)
    assert lesson_of(ada).quiz.question is not None
    console.act("hold", step=99)
    assert console.message.startswith("hold step: got 99")


def test_stuck_after_three_wrong_answers_or_ninety_seconds_without_progress() -> None:
    clock = Clock()
    lobby = Lobby(EventStore(":memory:"))
    console, _ = lesson_room(lobby)
    room = lobby.rooms[console.room["code"]]
    assert isinstance(room, LessonRoom)
    room.clock = clock
    ada, ben = arrive(room, "Ada", "Ben")
    for pupil in (ada, ben):
        pupil.progress_at = pupil.joined_at = pupil.last_at = clock.now
        right_step(room, pupil)
        right_step(room, pupil)  # at the question "Tap every box these dice can fill"
    told: list[int | None] = []
    room.subscribe(told.append)
    for _ in range(3):
        assert not grid(console)["Ada"]["stuck"]
        wrong_check(room, ada)
    rows = grid(console)
    assert rows["Ada"]["stuck"] and rows["Ada"]["why_stuck"] == "three wrong answers in a row"
    assert not rows["Ben"]["stuck"]
    clock.now += STUCK_SECONDS - 1
    room.tick()
    assert not grid(console)["Ben"]["stuck"]
    clock.now += 2
    told.clear()
    room.tick()
    assert told == [-1]  # the teacher's console is told, no pupil's page
    assert grid(console)["Ben"]["stuck"]
    right_step(room, ben)
    assert not grid(console)["Ben"]["stuck"]
    right_step(room, ada)  # the right answer at last
    assert not grid(console)["Ada"]["stuck"]


def test_the_progress_file_holds_every_pupil() -> None:
    clock = Clock()
    lobby = Lobby(EventStore(":memory:"))
    console, room = lesson_room(lobby)
    room.clock = clock
    pupils = arrive(room, "Ada", "Ben", "=cmd|calc")
    for turn in range(12):
        clock.now += 10
        right_step(room, pupils[0])
        if turn < 4:
            right_step(room, pupils[1])
    console.act("export")
    file = console.download
    assert file["name"].startswith(f"01-beginner-{room.code}-") and file["name"].endswith(".csv")
    rows = list(csv.DictReader(io.StringIO(file["text"])))
    # The level's ideas only (no bonus box, no action die at Beginner), named in words (issue 42).
    ideas = ("zero", "score_die", "middle", "box")
    assert tuple(rows[0]) == (*CSV_COLUMNS, *(text(f"practice.idea.{idea}") for idea in ideas))
    assert not [column for column in rows[0] if column.startswith("idea_")]
    assert [row["nickname"] for row in rows] == ["Ada", "Ben", "'=cmd|calc"]
    assert rows[0]["round"] == str(lesson_of(pupils[0]).game.state.round)
    ada = rows[0]
    assert ada["lesson"] == "01-beginner" and ada["steps"] == "13"
    assert int(ada["step_reached"]) == lesson_of(pupils[0]).step + 1
    assert int(ada["questions_asked"]) == len(lesson_of(pupils[0]).quiz.answers) > 0
    assert ada["right_first_try"] == ada["questions_asked"]
    assert float(ada["minutes"]) == 2.0
    assert rows[2]["step_reached"] == "1" and rows[2]["minutes"] == "0.0"
    seq = file["seq"]
    console.act("export")
    assert console.download["seq"] == seq + 1


def test_together_the_teachers_roll_shows_the_dice_on_every_sheet() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console, room = lesson_room(lobby, mode="together")
    ada, ben, cem = arrive(room, "Ada", "Ben", "Cem")
    room.act(ada.id, {"type": "step", "delta": 1})
    written = len(room.log)
    # Ada's page marks nothing of hers and says whose roll it is, with a picture (issue 42): no "Tap Roll".
    page = lesson_widget(room, ada)
    assert lesson_of(ada).todo_target() == "wait"
    assert page.lesson["waits"] is True and page.lesson["todo"] == text("classroom.msg.wait_roll")
    assert page.lesson["target"] == "wait" and text("lessons.todo.rolled") not in page.lesson["body"]
    with pytest.raises(ClassroomError, match="Wait for your teacher"):
        room.act(ada.id, {"type": "roll"})
    assert not lesson_of(ada).revealed and len(room.log) == written  # refused before it was written
    console.act("roll")
    assert console.message == ""
    dice = [lesson_of(p).game.roll().dice for p in (ada, ben, cem)]
    assert all(lesson_of(p).revealed for p in (ada, ben, cem)) and dice[0] == dice[1] == dice[2]
    assert [row["step"] for row in grid(console).values()] == [3, 3, 3]
    assert lesson_of(ada).todo_target() != "wait" and not lesson_widget(room, ada).lesson["waits"]
    # The console's projector view: the class's dice, big, on the lesson's own sheet, nobody placed yet.
    console.refresh()
    sheet = console.room["lesson"]["sheet"]
    boxes = [box for row in sheet["caterpillars"] for box in row["boxes"]]
    assert sheet["dice"]["values"] == list(dice[0])
    assert [int(box["label"]) for box in boxes] == list(sheet_labels("01-beginner"))
    assert [box["count"] for box in boxes] == [0] * 12
    # Ada and Ben write the roll (the lesson's first box for one, its last for the other): a count on each box.
    for pupil, pick in ((ada, lambda moves: moves[0]), (ben, lambda moves: moves[-1])):
        while len(lesson_of(pupil).game.history) < 3:
            assert todo_tap(room, pupil, pick) is not None
    chosen = [lesson_of(p).game.history[2].choice.slot for p in (ada, ben)]
    console.refresh()
    sheet = console.room["lesson"]["sheet"]
    counts = {box["slot"]: box["count"] for row in sheet["caterpillars"] for box in row["boxes"]}
    assert {slot: n for slot, n in counts.items() if n} == {slot: chosen.count(slot) for slot in chosen}
    assert sheet["placed"] == "2 of 3 placed"


@pytest.mark.parametrize("lesson", ["00-setup", "10-raupe-shape", "14-raupe-spot-the-mistake"])
def test_other_lessons_replay_to_the_same_place(lesson: str) -> None:
    store = EventStore(":memory:")
    lobby = Lobby(store)
    _console, room = lesson_room(lobby, lesson)
    (ada,) = arrive(room, "Ada")
    widget = lesson_widget(room, ada)
    for _ in range(3):
        question = ada.session.quiz.question
        if question is not None:
            for option in sorted(question.correct):
                widget.act("answer", option=option)
            widget.act("check")
        elif lesson.startswith("00"):
            widget.act("step", delta=1)
            widget.act("roll")
        else:
            widget.act("start")
            widget.act("tick", dt=0.5)
    place = ada.place()
    again = Lobby(store).rooms[room.code]
    assert isinstance(again, LessonRoom)
    assert again.pupils[ada.id].place() == place and place[0] > 1
    answers = again.pupils[ada.id].session.quiz.answers
    assert [a["correct"] for a in answers] == [a["correct"] for a in ada.session.quiz.answers]


def test_every_lesson_opens_in_a_room() -> None:
    assert len(LESSON_NAMES) == 11 and "05-strategy-lab" not in LESSON_NAMES  # the lab: see lessonroom.py
    lobby = Lobby(EventStore(":memory:"))
    console = TeacherWidget(TeacherConsole(lobby, JOIN))
    names = [choice["value"] for choice in console.desk["lessons"]]
    assert names == list(LESSON_NAMES)
    for name in ("02-intermediate", "15-raupe-race"):
        console.act("create", game="lesson", lesson=name, mode="own")
        room = lobby.rooms[console.room["code"]]
        assert isinstance(room, LessonRoom) and console.room["lesson"]["lesson"] == name
        (pupil,) = arrive(room, "Ada")
        assert lesson_widget(room, pupil).view_names
    for name in ("06-nothing", "05-strategy-lab"):
        console.act("create", game="lesson", lesson=name)
        assert console.message.startswith(f"lesson: got '{name}'")


def test_names_hidden_on_the_projector_and_a_look_at_a_pupils_screen() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console, room = lesson_room(lobby)
    _ada, ben = arrive(room, "Ada", "Ben")
    looked: list[tuple[object, object]] = []
    console.session.look = lambda room, pupil: looked.append((room, pupil))
    console.act("anonymize", on=True)
    view = console.room
    assert [row["name"] for row in view["lesson"]["rows"]] == ["Pupil 1", "Pupil 2"]
    assert "Ada" not in repr(view) and "Ben" not in repr(view)
    console.act("watch", pupil=ben.id)
    assert looked == [(room, ben)] and console.room["watching"] == ben.id
    look = lesson_widget(room, ben, read_only=True)
    look.act("step", delta=1)
    assert lesson_of(ben).step == 0 and look.lesson["index"] == 0
    right_step(room, ben)
    look.refresh()
    assert look.lesson["index"] == 1
    console.act("watch", pupil=None)
    assert looked[-1] == (None, None)
    console.act("watch", pupil=42)
    assert console.message == "There is no pupil of that nickname in this room."


def test_a_caterpillars_room_refuses_what_only_a_lesson_room_does() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console = TeacherWidget(TeacherConsole(lobby, JOIN))
    console.act("create", game="caterpillars", level="beginner", layout="standard", dice="typed", hints=True)
    for kind, fields in (("pause", {"on": True}), ("export", {}), ("hold", {"step": 1})):
        console.act(kind, **fields)
        assert console.message.startswith("Only a lesson room"), kind


def test_a_pupils_page_keeps_no_save_of_its_own_and_a_resume_it_sends_changes_nothing() -> None:
    """The room's log keeps a pupil's place; the Voila lessons' page save (ui/resume.py) is not used here, so
    the page is sent no save with every change and sends no ``resume`` that the room would refuse aloud."""
    lobby = Lobby(EventStore(":memory:"))
    _console, room = lesson_room(lobby)
    (ada,) = arrive(room, "Ada")
    board = lesson_widget(room, ada)
    for _ in range(3):
        right_step(room, ada)
    board.refresh()
    assert board.saved == {}
    step, written = lesson_of(ada).step, len(room.log)
    board.act("resume", save={"format": 1, "kind": "caterpillars", "lesson": "01-beginner", "events": []})
    assert lesson_of(ada).step == step and len(room.log) == written
