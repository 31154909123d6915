"""A file that shrinks (issue 46): archiving gives the space back at the next start.

SQLite keeps the pages of deleted rows inside the file, free for new events, and never returns them to the
disk by itself: a year of archived rooms left the file as large as before.  A start compacts the file
(``VACUUM``) once more than half of it is free.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

from caterpillar_learn.classroom import roomindex
from caterpillar_learn.classroom.codes import new_code
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import RoomSettings
from caterpillar_learn.classroom.store import FILE_NAME, EventStore

ROOMS = 20
EVENTS = 150


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def a_year_of_rooms(folder: Path) -> list[str]:
    """A data folder with :data:`ROOMS` Caterpillars rooms of :data:`EVENTS` events each (written in one
    transaction, as a year of lessons would have, only faster); their codes."""
    EventStore.in_folder(folder).close()
    db = sqlite3.connect(folder / FILE_NAME)
    codes: list[str] = []
    for _ in range(ROOMS):
        codes.append(new_code(codes))
    settings = json.dumps(RoomSettings.build("beginner", dice="typed", seed=1).to_json(), separators=(",", ":"))
    with db:
        for code in codes:
            db.execute("INSERT INTO events (room, kind, data, at) VALUES (?, 'room_created', ?, 0)", (code, settings))
            db.executemany(
                "INSERT INTO events (room, kind, data, at) VALUES (?, 'hints_set', ?, 0)",
                [(code, json.dumps({"on": i % 2 == 0, "note": "x" * 200})) for i in range(EVENTS)],
            )
            roomindex.rebuild(db, code)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return codes


def test_a_file_with_most_rows_archived_shrinks_to_under_half_at_the_next_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    codes = a_year_of_rooms(data)
    path = data / FILE_NAME
    full = size(path)
    lobby = Lobby.open(data)
    for code in codes[: ROOMS * 9 // 10]:  # 90% of the rows
        lobby.archive(code)
    lobby.close()
    assert size(path) > full * 0.9  # archiving alone gives nothing back
    with caplog.at_level(logging.INFO, logger="caterpillar_learn.classroom"):
        again = Lobby.open(data)
    assert size(path) < full / 2, (size(path), full)
    assert any("compacted from" in record.getMessage() for record in caplog.records)
    kept = codes[ROOMS * 9 // 10 :]
    assert [code for code, _, _ in again.listing()] == kept
    assert all(len(again.rooms[code].log) == EVENTS for code in kept)  # nothing of the rooms kept was lost
    again.close()
    small = size(path)
    with caplog.at_level(logging.INFO, logger="caterpillar_learn.classroom"):
        caplog.clear()
        Lobby.open(data).close()  # a file with little free space is left as it is
    assert not any("compacted" in record.getMessage() for record in caplog.records)
    assert size(path) <= small * 1.1
