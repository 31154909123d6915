"""Archiving a finished room: its whole record in a file, exactly its rows out of the live log, refused otherwise."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from caterpillar_learn.caterpillars import Move, SetupChoice
from caterpillar_learn.classroom.archive import FORMAT, read_record
from caterpillar_learn.classroom.codes import ClassroomError, new_code
from caterpillar_learn.classroom.consoles import TeacherConsole, TeacherWidget
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom, LessonSettings
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
from caterpillar_learn.classroom.store import FILE_NAME
from caterpillar_learn.cli import build_parser
from caterpillar_learn.i18n import language, text


def _rows(folder: Path) -> list[tuple[int, str, str, str, float]]:
    db = sqlite3.connect(folder / FILE_NAME)
    rows = db.execute("SELECT id, room, kind, data, at FROM events ORDER BY id").fetchall()
    db.close()
    return rows


def _finished_game(lobby: Lobby) -> CaterpillarsRoom:
    """A Caterpillars room whose two pupils filled their sheets: every roll made, every box placed."""
    room = lobby.create(RoomSettings.build("beginner", dice="server", hints=False, seed=5))
    assert isinstance(room, CaterpillarsRoom)
    pupils = [room.join("Ada"), room.join("Ben")]
    for pupil in pupils:
        room.arrive(pupil.id)
    rng = random.Random(5)
    while room.can_roll():
        room.roll()
        for pupil in pupils:
            choices = pupil.game.legal_moves()
            choice = choices[rng.randrange(len(choices))]
            assert isinstance(choice, Move | SetupChoice)
            pupil.game.play(choice)
    assert room.is_over
    return room


def test_archive_writes_every_event_to_a_file_and_removes_exactly_that_room(tmp_path: Path) -> None:
    lobby = Lobby.open(tmp_path)
    other = lobby.create(LessonSettings.build("01-beginner"))
    other.join("Cleo")
    room = _finished_game(lobby)
    before = _rows(tmp_path)
    mine = [row for row in before if row[1] == room.code]
    written = lobby.archive(room.code.lower())  # read as a code, like the door reads one
    assert written.parent == tmp_path / "archive" and written.name.startswith(f"{room.code}-")
    head, rows = read_record(written)
    assert head == {"format": FORMAT, "room": room.code, "settings": room.settings.to_json()}
    assert [(r["id"], room.code, r["kind"], r["data"], r["at"]) for r in rows] == mine  # every event, as it was
    assert json.loads(rows[-1]["data"]) == json.loads(mine[-1][3])
    assert _rows(tmp_path) == [row for row in before if row[1] != room.code]  # only its rows went
    assert room.code not in lobby.rooms and [code for code, _, _ in lobby.listing()] == [other.code]
    with pytest.raises(ClassroomError, match="archived"):  # a page still open on it writes nothing
        room.set_hints(True)
    lobby.close()
    again = Lobby.open(tmp_path)
    assert list(again.rooms) == [other.code]
    assert [pupil.nickname for pupil in again.rooms[other.code].pupils.values()] == ["Cleo"]
    db = sqlite3.connect(tmp_path / FILE_NAME)
    assert db.execute("SELECT code FROM rooms").fetchall() == [(other.code,)]  # its index entry went too


def test_an_unfinished_or_unknown_room_is_refused_in_one_line_and_nothing_changes(tmp_path: Path) -> None:
    lobby = Lobby.open(tmp_path)
    room = lobby.create(RoomSettings.build("beginner", dice="server", seed=1))
    room.join("Ada")
    room.roll()
    tables = lobby.create(TableSettings.build(2, "beginner", hints=False))
    assert isinstance(tables, RaupeRoom)
    dora = tables.join("Dora")
    tables.start_all()
    tables.subscribe(lambda part: None, dora.table)  # Dora's page is open on her running table
    before = _rows(tmp_path)
    for code in (room.code, tables.code):
        with pytest.raises(ClassroomError) as refused:
            lobby.archive(code)
        assert str(refused.value) == text("classroom.archive.not_finished", code=code)
        assert f"room {code}" in str(refused.value) and "\n" not in str(refused.value)
    unknown = new_code(lobby.listed)
    with pytest.raises(ClassroomError, match=f"room: got {unknown}, expected a room of this server"):
        lobby.archive(unknown)
    with pytest.raises(ClassroomError, match="code"):
        lobby.archive("no code")
    assert _rows(tmp_path) == before and list((tmp_path / "archive").glob("*")) == []
    assert lobby.can_archive(room) is False and room.code in lobby.rooms


def test_a_lesson_room_nobody_uses_is_finished_and_its_code_can_come_again(tmp_path: Path) -> None:
    lobby = Lobby.open(tmp_path)
    room = lobby.create(LessonSettings.build("01-beginner"))
    assert isinstance(room, LessonRoom)
    ada = room.join("Ada")
    token = room.subscribe(lambda part: None, ada.id)  # Ada's page is open, mid-lesson
    assert not lobby.can_archive(room)
    room.unsubscribe(token)
    assert lobby.can_archive(room)
    first = lobby.archive(room.code)
    # The code is free again: a room of the same code is a new room, archived to a second file.
    lobby.store.append(room.code, "room_created", LessonSettings.build("01-beginner").to_json())
    lobby.close()
    again = Lobby.open(tmp_path)
    assert again.damage == {} and again.rooms[room.code].pupils == {}
    second = again.archive(room.code)
    assert second != first and len(read_record(first)[1]) == 2 and len(read_record(second)[1]) == 1


def test_the_teachers_console_archives_the_selected_finished_room_and_names_the_file(tmp_path: Path) -> None:
    lobby = Lobby.open(tmp_path)
    older = lobby.create(LessonSettings.build("01-beginner"))
    console = TeacherWidget(TeacherConsole(lobby, "http://127.0.0.1:5006/join"))
    console.act("create", game="caterpillars", level="beginner", layout="standard", dice="server", hints=True)
    code = console.room["code"]
    lobby.rooms[code].join("Ada")
    lobby.rooms[code].roll()
    console.refresh()
    assert console.room["archivable"] is False
    console.act("archive", code=code)
    assert console.message == text("classroom.archive.not_finished", code=code) and code in lobby.rooms
    console.act("open", code=older.code)
    assert console.room["archivable"] is True
    console.act("archive", code=older.code)
    written = next((tmp_path / "archive").iterdir())
    assert console.desk["notice"] == text("classroom.archive.done", file=str(written)) and console.message == ""
    with language("de"):
        assert text("classroom.archive.done", file="x").startswith("Archiviert")
    assert [room["code"] for room in console.desk["rooms"]] == [code] and console.room["code"] == code
    assert {"archive", "archive_ask", "archive_yes", "archive_no"} <= set(console.strings)


def test_the_command_line_archives_a_room_of_a_data_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lobby = Lobby.open(tmp_path)
    room = lobby.create(TableSettings.build(2, "beginner", hints=False))
    room.join("Dora")
    lobby.close()
    args = build_parser().parse_args(["classroom", "--archive", room.code, "--data", str(tmp_path)])
    assert args.handler(args) == 0
    (written,) = (tmp_path / "archive").iterdir()
    assert capsys.readouterr().out.strip() == text("classroom.archive.done", file=str(written))
    assert Lobby.open(tmp_path).listing() == [] and len(read_record(written)[1]) == 2
