"""The room index: a start reads it and not the rooms' events, it is never behind the log, a format-1 file is indexed.

Each room here is made through the lobby and the rooms' own methods, the way the server makes them; the file
is then read back with :mod:`sqlite3` to see what a restart would find.
"""

from __future__ import annotations

import logging
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom, LessonSettings
from caterpillar_learn.classroom.rooms.raupe.room import TableSettings
from caterpillar_learn.classroom.store import FILE_NAME, FORMAT, EventStore

#: A server's writer, killed (SIGKILL) while its lesson rooms are still being played: it prints the id of each
#: event once ``append`` has returned (acknowledged), and notes the index now and then, as the server's clock does.
WRITER = """
import sys
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.lesson.room import LessonSettings
lobby = Lobby.open(sys.argv[1])
rooms = [lobby.create(LessonSettings.build("01-beginner")) for _ in range(3)]
number = 0
while True:
    for room in rooms:
        pupil = room.join(f"Pupil {number}")
        room.act(pupil.id, {"type": "step", "delta": 1})
        print(room.code, len(room.log), flush=True)
        number += 1
        if number % 7 == 0:
            lobby.note()
"""


#: Each room's ``(first_id, last_id, events)``: as the index holds them, and as the events themselves count.
INDEXED = "SELECT code, first_id, last_id, events FROM rooms"
COUNTED = "SELECT room, MIN(id), MAX(id), COUNT(*) FROM events GROUP BY room"


def _rooms(folder: Path, query: str) -> dict[str, tuple[int, int, int]]:
    """Each room's three numbers by ``query`` (:data:`INDEXED` or :data:`COUNTED`), read straight from the file."""
    db = sqlite3.connect(folder / FILE_NAME)
    found = {code: (first, last, events) for code, first, last, events in db.execute(query)}
    db.close()
    return found


def _index(folder: Path) -> dict[str, tuple[int, int, int]]:
    return _rooms(folder, INDEXED)


def _log(folder: Path) -> dict[str, tuple[int, int, int]]:
    return _rooms(folder, COUNTED)


def _school(folder: Path) -> tuple[str, str, str]:
    """Three rooms, one of each game, with pupils who have done something; the lobby closed (noted)."""
    lobby = Lobby.open(folder)
    lesson = lobby.create(LessonSettings.build("01-beginner"))
    dice = lobby.create(RoomSettings.build("beginner", dice="server", seed=3))
    tables = lobby.create(TableSettings.build(2, "beginner", hints=False))
    assert isinstance(lesson, LessonRoom) and isinstance(dice, CaterpillarsRoom)
    for name in ("Ada", "Ben", "Cleo"):
        pupil = lesson.join(name)
        lesson.act(pupil.id, {"type": "step", "delta": 1})
        dice.arrive(dice.join(name).id)
    tables.arrive(tables.join("Dora").id)
    dice.roll()
    lobby.close()
    return lesson.code, dice.code, tables.code


def test_the_index_is_never_behind_the_log_when_the_writer_is_killed_mid_stream(tmp_path: Path) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    told: dict[str, int] = {}
    for _ in range(40):  # acknowledged: what the rooms had applied (and so committed) when each line was printed
        code, applied = writer.stdout.readline().split()
        told[code] = int(applied)
    writer.send_signal(signal.SIGKILL)  # while it goes on writing: no close, no note, no flush
    writer.wait(timeout=60)
    assert writer.returncode == -signal.SIGKILL, writer.stderr.read() if writer.stderr else ""
    assert _index(tmp_path) == _log(tmp_path)  # the event and its index entry, committed together or not at all
    lobby = Lobby.open(tmp_path)
    assert lobby.damage == {} and sorted(lobby.rooms) == sorted(told)
    for code, applied in told.items():
        room = lobby.rooms[code]
        assert len(room.log) >= applied  # every event acknowledged before the kill, and perhaps a few after
        assert len(room.log) + 1 == _log(tmp_path)[code][2]  # and every event of the file (room_created aside)
    lobby.close()
    again = Lobby.open(tmp_path)
    assert again.awake() == [] and again.store.rows_read == 0  # noted at close: the next start reads no event
    assert [len(again.rooms[code].log) for code in told] == [len(lobby.rooms[code].log) for code in told]


def test_a_start_reads_the_index_and_no_event_and_a_room_wakes_alone_when_used(tmp_path: Path) -> None:
    lesson, dice, tables = _school(tmp_path)
    lobby = Lobby.open(tmp_path)
    assert lobby.store.rows_read == 0 and lobby.awake() == []
    listed = {code: pupils for code, _, pupils in lobby.listing()}
    assert listed == {lesson: 3, dice: 3, tables: 1}  # the desk's counts, from the index alone
    assert lobby.store.rows_read == 0
    room, pupil = lobby.join(dice, "Eve", client="10.0.0.7")
    assert lobby.awake() == [dice] and lobby.store.rows_read == _log(tmp_path)[dice][2] - 1  # its own rows only
    assert isinstance(room, CaterpillarsRoom) and pupil.nickname == "Eve" and room.turn == 1
    lobby.tick()  # the clock ticks the awake rooms only, and notes them
    assert lobby.awake() == [dice]


def test_a_damaged_row_of_a_sleeping_room_stops_nothing_at_start_and_is_reported_when_it_wakes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lesson, dice, _ = _school(tmp_path)
    db = sqlite3.connect(tmp_path / FILE_NAME)
    (bad,) = db.execute("SELECT MAX(id) FROM events WHERE room = ? AND kind = 'lesson_event'", (lesson,)).fetchone()
    db.execute("UPDATE events SET data = '{\"pupil\": ' WHERE id = ?", (bad,))  # by hand, after the last note
    db.commit()
    db.close()
    with caplog.at_level(logging.WARNING, logger="caterpillar_learn.classroom"):
        lobby = Lobby.open(tmp_path)
        assert lobby.damage == {} and not caplog.records  # asleep: not read, so not known yet
        assert lobby.rooms.get(dice) is not None and lobby.damage == {}
        assert lobby.rooms.get(lesson) is not None  # it wakes, stopped at the damaged event
    assert lobby.damage[lesson].event == bad and len(caplog.records) == 1
    lobby.close()  # the stop is noted: the next start replays that room at once, so its report shows at start
    again = Lobby.open(tmp_path)
    assert again.awake() == [lesson] and again.damage[lesson].event == bad


def test_a_format_1_file_is_indexed_once_by_one_scan_and_nothing_is_lost(tmp_path: Path) -> None:
    lesson, dice, tables = _school(tmp_path)
    before = _log(tmp_path)
    db = sqlite3.connect(tmp_path / FILE_NAME)  # the file as a server of format 1 left it: no room index
    db.execute("DROP TABLE rooms")
    db.execute("UPDATE meta SET value = '1' WHERE key = 'format'")
    db.commit()
    db.close()
    lobby = Lobby.open(tmp_path)
    assert lobby.store.get_meta("format") == str(FORMAT) and _index(tmp_path) == before
    assert sorted(lobby.awake()) == sorted([lesson, dice, tables])  # not noted yet: each replayed once
    # Replayed, a room counts the pupils who did something (no page has connected since the start).
    assert lobby.damage == {} and {code: n for code, _, n in lobby.listing()} == {lesson: 3, dice: 0, tables: 0}
    lobby.close()
    again = Lobby.open(tmp_path)
    assert again.awake() == [] and again.store.rows_read == 0
    assert {code: n for code, _, n in again.listing()} == {lesson: 3, dice: 0, tables: 0}


def test_a_row_written_behind_the_lobby_s_back_wakes_its_room_at_start(tmp_path: Path) -> None:
    _, dice, _ = _school(tmp_path)
    store = EventStore.in_folder(tmp_path)
    stray = store.append("ZZZZZZ", "dice_rolled", {"turn": 0, "dice": [1, 1]})  # no room_created: damage
    store.append(dice, "hints_set", {"on": False})
    store.close()
    lobby = Lobby.open(tmp_path)
    assert sorted(lobby.awake()) == [dice]  # behind its last note: replayed at start; the lesson sleeps
    assert lobby.damage["ZZZZZZ"].event == stray and "ZZZZZZ" not in lobby.rooms
    room = lobby.rooms[dice]
    assert isinstance(room, CaterpillarsRoom) and room.log[-1] == ("hints_set", {"on": False})


def test_the_newest_room_wakes_on_a_thread_of_its_own_and_a_page_asking_for_it_meanwhile_waits(
    tmp_path: Path,
) -> None:
    lesson, dice, tables = _school(tmp_path)
    lobby = Lobby.open(tmp_path)
    thread = lobby.wake_newest()
    room = lobby.rooms[tables]  # waits for the thread's replay (or wakes it), never a second replay
    thread.join(timeout=60)
    assert lobby.awake() == [tables] and lobby.rooms[tables] is room
    assert lobby.store.rows_read == _log(tmp_path)[tables][2]  # its rows, read once
    lobby.tick()
    assert sorted(lobby.awake()) == [tables] and lesson in lobby.rooms and dice in lobby.rooms
