"""The classroom's memory: one SQLite file of events, written before anything is shown.

Every room is an event log: ``room_created``, ``pupil_joined``,
``dice_rolled``, ``move_placed``, ``hints_set``, and for Räuber Raupe
``table_started`` and ``table_event``.  :meth:`EventStore.append` writes one
event and commits it before it returns; only then does a room apply it and
show it.  The file is in WAL mode with ``synchronous=FULL``, so a committed
event survives the server being killed (SIGKILL) and even a power cut, and a
restart replays the log (:mod:`caterpillar_learn.classroom.lobby`).

A ``meta`` table keeps what is not an event: the teacher's token (so the
printed teacher address still works after a restart) and the format.

>>> store = EventStore(":memory:")
>>> first = store.append("KX47PQ", "room_created", {"game": "caterpillars"})
>>> [(e.room, e.kind, e.data) for e in store.events()]
[('KX47PQ', 'room_created', {'game': 'caterpillars'})]
>>> store.get_meta("nothing") is None
True
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["FORMAT", "EventStore", "StoredEvent"]

#: The layout of the file; a newer one is refused rather than misread.
FORMAT = 1
FILE_NAME = "classroom.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_room ON events (room, id);
"""


@dataclass(frozen=True)
class StoredEvent:
    """One line of the log: which room, what happened, its data, when (seconds since 1970)."""

    id: int
    room: str
    kind: str
    data: dict[str, Any]
    at: float


class EventStore:
    """An append-only event log in one SQLite file (``":memory:"`` for tests).

    One connection, guarded by a lock, so the server's event loop and a
    benchmark's threads may both append.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        stored = self.get_meta("format")
        if stored is None:
            self.set_meta("format", str(FORMAT))
        elif stored != str(FORMAT):
            raise OSError(f"{self.path}: classroom data of format {stored}, expected {FORMAT}")

    @classmethod
    def in_folder(cls, folder: str | Path) -> EventStore:
        """The store of a ``--data`` folder (made if missing, readable by its owner only)."""
        where = Path(folder).expanduser()
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        return cls(where / FILE_NAME)

    def append(self, room: str, kind: str, data: Mapping[str, Any]) -> int:
        """Write one event and commit it; returns its id.  Nothing is shown before this returns."""
        line = json.dumps(dict(data), separators=(",", ":"), allow_nan=False, sort_keys=True)
        with self._lock:
            cursor = self._db.execute(
                "INSERT INTO events (room, kind, data, at) VALUES (?, ?, ?, ?)", (room, kind, line, time.time())
            )
            # isolation_level=None: the INSERT above is its own transaction, committed (and synced) here.
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def events(self, room: str | None = None) -> Iterator[StoredEvent]:
        """Every event in the order written (only ``room``'s if given)."""
        with self._lock:
            if room is None:
                rows = self._db.execute("SELECT id, room, kind, data, at FROM events ORDER BY id").fetchall()
            else:
                rows = self._db.execute(
                    "SELECT id, room, kind, data, at FROM events WHERE room = ? ORDER BY id", (room,)
                ).fetchall()
        for ident, code, kind, data, at in rows:
            yield StoredEvent(ident, code, kind, json.loads(data), at)

    def count(self) -> int:
        """How many events the log holds."""
        with self._lock:
            (total,) = self._db.execute("SELECT COUNT(*) FROM events").fetchone()
        return int(total)

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def close(self) -> None:
        with self._lock:
            self._db.close()
