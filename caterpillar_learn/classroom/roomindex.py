"""The room index: one row a room, so a restart reads the index and not every room's history.

The ``rooms`` table of the classroom file (format 2) holds, for each room
code, what the teacher's desk shows without replaying the room (its
settings, how many pupils it counts) and where its events are (the first
and last row).  :meth:`EventStore.append
<caterpillar_learn.classroom.store.EventStore.append>` writes the event and
moves ``last_id`` in one transaction, so a SIGKILL can never leave the index
behind the log.

The pupil count is the room's own (only its ``counted()`` knows who has
connected): the lobby notes it after the room applied its events
(:func:`note`), with ``seen_id``, the last event the note reflects.  A room
whose ``seen_id`` is behind its ``last_id`` (killed before the note, a row
added by hand, a file migrated from format 1) is replayed at start, and a
room whose replay stopped at a damaged event is noted as ``stopped``, so
its report shows at the next start.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> _ = db.execute(SCHEMA)
>>> record(db, "KX47PQ", "room_created", '{"game":"lesson"}', 1)
>>> record(db, "KX47PQ", "pupil_joined", '{}', 2)
>>> [(e.code, e.settings, e.first_id, e.last_id, e.is_behind) for e in entries(db)]
[('KX47PQ', {'game': 'lesson'}, 1, 2, True)]
>>> note(db, [("KX47PQ", 1, 2, None)])
>>> [(e.pupils, e.is_behind) for e in entries(db)]
[(1, False)]
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["SCHEMA", "RoomEntry", "entries", "migrate", "note", "record", "remove"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    settings TEXT,
    first_id INTEGER NOT NULL,
    last_id INTEGER NOT NULL,
    events INTEGER NOT NULL,
    pupils INTEGER NOT NULL DEFAULT 0,
    seen_id INTEGER NOT NULL DEFAULT 0,
    stopped INTEGER
);
"""

_RECORD = """
INSERT INTO rooms (code, settings, first_id, last_id, events) VALUES (?, ?, ?, ?, 1)
ON CONFLICT (code) DO UPDATE SET last_id = excluded.last_id, events = events + 1
"""


@dataclass(frozen=True)
class RoomEntry:
    """One room as the index knows it, without its events."""

    code: str
    #: ``room_created``'s data (``None``: the room's first row was not one, or is damaged).
    settings: dict[str, Any] | None
    first_id: int
    last_id: int
    events: int
    pupils: int
    #: The last event the pupil count and ``stopped`` reflect.
    seen_id: int
    #: The event where the room's replay stopped, if it did when it was last replayed.
    stopped: int | None

    @property
    def is_behind(self) -> bool:
        """Whether events came after the last note: only a replay knows the room now."""
        return self.seen_id < self.last_id


def record(db: sqlite3.Connection, code: str, kind: str, line: str, ident: int) -> None:
    """Move room ``code``'s entry to event ``ident`` (call inside the transaction that wrote it)."""
    db.execute(_RECORD, (code, line if kind == "room_created" else None, ident, ident))


def note(db: sqlite3.Connection, notes: Iterable[tuple[str, int, int, int | None]]) -> None:
    """Write ``(code, pupils, seen_id, stopped)`` for rooms replayed or played since the last note, in one
    transaction (a room archived meanwhile has no entry: nothing is written for it)."""
    rows = [(pupils, seen, stopped, code) for code, pupils, seen, stopped in notes]
    if rows:
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany("UPDATE rooms SET pupils = ?, seen_id = ?, stopped = ? WHERE code = ?", rows)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise


def entries(db: sqlite3.Connection) -> list[RoomEntry]:
    """Every room of the index, oldest first (a settings text that is not a JSON object reads as ``None``)."""
    found = db.execute(
        "SELECT code, settings, first_id, last_id, events, pupils, seen_id, stopped FROM rooms ORDER BY first_id"
    ).fetchall()
    return [RoomEntry(str(code), _settings(settings), *numbers) for code, settings, *numbers in found]


def remove(db: sqlite3.Connection, code: str) -> int:
    """Delete room ``code``'s events and entry (inside the caller's transaction); how many events went."""
    cursor = db.execute("DELETE FROM events WHERE room = ?", (code,))
    db.execute("DELETE FROM rooms WHERE code = ?", (code,))
    return cursor.rowcount


def rebuild(db: sqlite3.Connection, code: str) -> None:
    """Index room ``code`` again from its rows, behind (``seen_id`` 0: the next start replays it), after rows
    were set aside or put back (inside the caller's transaction); no rows, no entry."""
    db.execute("DELETE FROM rooms WHERE code = ?", (code,))
    db.execute(
        "INSERT INTO rooms (code, first_id, last_id, events) "
        "SELECT room, MIN(id), MAX(id), COUNT(*) FROM events WHERE room = ? GROUP BY room",
        (code,),
    )
    db.execute(
        "UPDATE rooms SET settings = (SELECT data FROM events WHERE events.id = rooms.first_id "
        "AND events.kind = 'room_created' AND typeof(events.data) = 'text') WHERE code = ?",
        (code,),
    )


def migrate(db: sqlite3.Connection) -> None:
    """Build the index of a format-1 file by one scan of its rows (inside the caller's transaction).

    Every room starts behind (``seen_id`` 0), so the first start replays it once and notes it; a row whose
    room is not text is left out, as no room could ever be built from it.
    """
    db.execute(SCHEMA)  # one statement: executescript would commit the caller's transaction
    db.execute("DELETE FROM rooms")
    db.execute(
        "INSERT INTO rooms (code, first_id, last_id, events) "
        "SELECT room, MIN(id), MAX(id), COUNT(*) FROM events WHERE typeof(room) = 'text' GROUP BY room"
    )
    db.execute(
        "UPDATE rooms SET settings = (SELECT data FROM events WHERE events.id = rooms.first_id "
        "AND events.kind = 'room_created' AND typeof(events.data) = 'text')"
    )


def _settings(line: object) -> dict[str, Any] | None:
    if not isinstance(line, str):
        return None
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return None
    return data if isinstance(data, dict) else None
