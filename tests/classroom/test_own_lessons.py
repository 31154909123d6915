"""A teacher's own lesson in a lesson room (issue 44): the classroom served with ``--lessons DIR`` offers each lesson
file of the folder on the console beside ours; a room made from one plays it for three pupils, the grid follows
their steps in the teacher's words, and a restart brings them back to the same steps from the room's log, which
keeps the lesson's text, even once the file is gone.  What the page sends is only a name the server offered."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from caterpillar_learn.classroom.consoles import TeacherConsole, TeacherWidget
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.lesson.own import OwnLessons
from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom
from caterpillar_learn.classroom.store import EventStore
from tests.browser.conftest import cli_command
from tests.classroom.test_lesson_room import JOIN, arrive, grid, lesson_of, right_step
from tests.lessons.test_files import first_lesson

#: The titles of the guide's lesson's steps, as the teacher wrote them.
TITLES = ["Doubles", "Roll", "Where can they go?", "Choose", "Play on"]


def teachers_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "doubles.toml").write_text(first_lesson(), encoding="utf-8")
    (folder / "broken.toml").write_text(first_lesson().replace('roll = "2 2"', 'roll = "2 9"'), encoding="utf-8")
    return folder


def own_room(lobby: Lobby, folder: Path) -> tuple[TeacherWidget, LessonRoom]:
    lobby.own_lessons = OwnLessons(folder)
    console = TeacherWidget(TeacherConsole(lobby, JOIN))
    offered = {choice["value"]: choice["text"] for choice in console.desk["lessons"]}
    assert offered["doubles"] == "Doubles (doubles.toml)" and "broken" not in offered, offered
    assert "01-beginner" in offered  # ours are still there
    console.act("create", game="lesson", lesson="doubles", mode="own")
    assert console.message == ""
    room = lobby.rooms[console.room["code"]]
    assert isinstance(room, LessonRoom) and room.settings.source == first_lesson()
    return console, room


def test_three_pupils_play_a_teachers_lesson_and_the_grid_shows_their_steps(tmp_path: Path) -> None:
    lobby = Lobby.open(tmp_path / "data")
    console, room = own_room(lobby, teachers_folder(tmp_path))
    assert room.steps() == TITLES
    ada, ben, cem = arrive(room, "Ada", "Ben", "Cem")
    for _ in range(4):
        right_step(room, ada)
    right_step(room, ben)
    rows = grid(console)
    assert [rows[name]["step"] for name in ("Ada", "Ben", "Cem")] == [lesson_of(p).step + 1 for p in (ada, ben, cem)]
    assert rows["Ada"]["step"] > rows["Ben"]["step"] > rows["Cem"]["step"] == 1
    assert rows["Ada"]["steps"] == 5 and rows["Ada"]["title"] in TITLES and rows["Cem"]["title"] == "Doubles"
    assert rows["Ada"]["asked"] == 1 and rows["Ada"]["right_first"] == 1
    assert "Doubles" in console.desk["rooms"][0]["title"] and console.room["lesson"]["print_url"] == ""
    before = {p.nickname: (lesson_of(p).step, lesson_of(p).game.state) for p in (ada, ben, cem)}
    lobby.store.close()
    (tmp_path / "lessons" / "doubles.toml").unlink()  # the file goes: the room keeps the lesson it was made with

    again = Lobby.open(tmp_path / "data")
    replayed = again.rooms[room.code]
    assert isinstance(replayed, LessonRoom) and not again.damage
    for pupil in replayed.pupils.values():
        assert (lesson_of(pupil).step, lesson_of(pupil).game.state) == before[pupil.nickname]
    again.store.close()


def test_the_console_offers_only_the_folders_fine_lessons_and_a_name_it_did_not_offer_is_refused(
    tmp_path: Path,
) -> None:
    lobby = Lobby(EventStore(":memory:"))
    console, _room = own_room(lobby, teachers_folder(tmp_path))
    for name in ("broken", "../doubles", "nothing"):
        console.act("create", game="lesson", lesson=name, mode="own")
        assert console.message.startswith("lesson: got ") and "\n" not in console.message, console.message
    (tmp_path / "lessons" / "later.toml").write_text(first_lesson().replace("Doubles", "Later"), encoding="utf-8")
    console.refresh()  # a file added during the day is offered at once
    assert "later" in {choice["value"] for choice in console.desk["lessons"]}


def test_the_classroom_refuses_a_lessons_folder_that_is_not_one(tmp_path: Path) -> None:
    done = subprocess.run(
        [*cli_command(), "classroom", "--data", str(tmp_path / "data"), "--lessons", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stderr.strip().endswith("expected a folder of lesson files (.toml)")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("changed", ['roll = "2 9"', "format = 2"])
def test_a_room_whose_kept_lesson_no_longer_reads_is_refused_in_one_line(changed: str) -> None:
    from caterpillar_learn.classroom.codes import ClassroomError
    from caterpillar_learn.classroom.rooms.lesson.room import LessonSettings

    source = first_lesson().replace('roll = "2 2"', changed).replace("format = 1 ", changed + " ", 1)
    with pytest.raises(ClassroomError) as refused:
        LessonSettings.build("doubles", source=source)
    assert "\n" not in str(refused.value) and str(refused.value).startswith("doubles.toml")
