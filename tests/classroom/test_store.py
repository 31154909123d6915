"""The event log: committed before it returns, in order, and still there after SIGKILL."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from caterpillar_learn.classroom.store import FILE_NAME, DamagedEventError, DamagedFileError, EventStore

WRITER = """
import os, signal, sys
from caterpillar_learn.classroom.store import EventStore
store = EventStore.in_folder(sys.argv[1])
for number in range(int(sys.argv[2])):
    store.append("KX47PQ", "move_placed", {"number": number})
print("written", flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # no close, no atexit, no flush
"""


def test_events_come_back_in_the_order_written_with_their_data(tmp_path: Path) -> None:
    store = EventStore.in_folder(tmp_path)
    ids = [
        store.append(room, kind, {"n": n, "text": "Ünïcode ✓"})
        for n, (room, kind) in enumerate(
            [("AAAAAA", "room_created"), ("CCCCCC", "room_created"), ("AAAAAA", "pupil_joined")]
        )
    ]
    assert ids == sorted(ids)
    again = EventStore.in_folder(tmp_path)
    assert [(e.room, e.kind, e.data["n"]) for e in again.events()] == [
        ("AAAAAA", "room_created", 0),
        ("CCCCCC", "room_created", 1),
        ("AAAAAA", "pupil_joined", 2),
    ]
    assert [e.data["n"] for e in again.events("AAAAAA")] == [0, 2] and again.count() == 3
    assert {e.data["text"] for e in again.events()} == {"Ünïcode ✓"}


def test_the_file_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    EventStore.in_folder(tmp_path).append("AAAAAA", "room_created", {})
    db = sqlite3.connect(tmp_path / FILE_NAME)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store = EventStore(tmp_path / FILE_NAME)
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_every_event_appended_survives_a_sigkill_of_the_writer(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WRITER, str(tmp_path), "200"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == -signal.SIGKILL and "written" in done.stdout, done.stderr
    store = EventStore.in_folder(tmp_path)
    assert [e.data["number"] for e in store.events()] == list(range(200))
    (entry,) = store.index()  # the room's index row, committed with each event: never behind it
    assert (entry.code, entry.first_id, entry.last_id, entry.events) == ("KX47PQ", 1, 200, 200)


def test_meta_keeps_the_teachers_token_and_a_newer_format_is_refused(tmp_path: Path) -> None:
    store = EventStore.in_folder(tmp_path)
    store.set_meta("teacher_token", "abc")
    assert EventStore.in_folder(tmp_path).get_meta("teacher_token") == "abc"
    store.set_meta("format", "99")
    with pytest.raises(DamagedFileError, match="format 99, expected 2"):  # one line through the CLI
        EventStore.in_folder(tmp_path)


def test_values_that_are_not_json_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    store = EventStore.in_folder(tmp_path)
    with pytest.raises(ValueError):
        store.append("AAAAAA", "dice_rolled", {"value": float("nan")})
    with pytest.raises(TypeError):
        store.append("AAAAAA", "dice_rolled", {"value": object()})
    assert store.count() == 0


def test_rows_come_back_as_the_file_holds_them_and_each_is_read_on_its_own(tmp_path: Path) -> None:
    store = EventStore.in_folder(tmp_path)
    for number in range(3):
        store.append("AAAAAA", "dice_rolled", {"number": number})
    store._db.execute("UPDATE events SET data = '{\"number\": 1' WHERE id = 2")
    store._db.execute("UPDATE events SET room = X'07' WHERE id = 3")  # a blob: TEXT affinity keeps it one
    rows = list(store.rows())  # reading the rows never parses them: a damaged one does not stop the others
    assert [row.id for row in rows] == [1, 2, 3] and rows[0].parse().data == {"number": 0}
    with pytest.raises(DamagedEventError, match="data: not JSON"):
        rows[1].parse()
    with pytest.raises(DamagedEventError, match=r"room: got b'\\x07', expected text"):
        rows[2].parse()
    assert rows[2].room_code == repr(b"\x07")
