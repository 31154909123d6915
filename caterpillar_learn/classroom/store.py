"""The classroom's memory: one SQLite file of events, written before anything is shown.

Every room is an event log: ``room_created``, ``pupil_joined``,
``dice_rolled``, ``move_placed``, ``hints_set``, for Räuber Raupe
``table_started`` and ``table_event``, and in a lesson room
``lesson_event`` (a pupil's answer or step), ``dice_released``,
``step_held``, ``class_paused`` and ``names_hidden``.  :meth:`EventStore.append` writes one
event and commits it before it returns; only then does a room apply it and
show it.  The file is in WAL mode with ``synchronous=FULL``, so a committed
event survives the server being killed (SIGKILL) and even a power cut, and a
restart replays the log (:mod:`caterpillar_learn.classroom.lobby`).

A ``meta`` table keeps what is not an event: the teacher's token (so the
printed teacher address still works after a restart) and the format.  A
``rooms`` table (format 2, :mod:`~caterpillar_learn.classroom.roomindex`)
indexes the rooms, moved in the same transaction as each append, so a
restart reads one row a room instead of every event; a format-1 file is
indexed once, by one scan of its rows, when it is first opened.

Opening a file checks it first, and refuses in one line
(:class:`DamagedFileError`) what it cannot trust: an empty file or one
without the classroom's tables, a folder or file it may not write, a newer
format, and a file SQLite finds damaged (``PRAGMA integrity_check``).  A
damaged file is kept aside under a new name (:func:`kept_name`), never
deleted, so the next start begins with an empty file.

The rows come back as they are in the file (:meth:`EventStore.rows`); each
one is read by :meth:`StoredRow.parse`, so the replay decides what a damaged
row means for its room.

>>> store = EventStore(":memory:")
>>> first = store.append("KX47PQ", "room_created", {"game": "caterpillars"})
>>> [(e.room, e.kind, e.data) for e in store.events()]
[('KX47PQ', 'room_created', {'game': 'caterpillars'})]
>>> store.get_meta("nothing") is None
True
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from caterpillar_learn.classroom import roomindex
from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.roomindex import RoomEntry
from caterpillar_learn.errors import brief, one_line

__all__ = [
    "FORMAT",
    "DamagedEventError",
    "DamagedFileError",
    "EventStore",
    "FolderBusyError",
    "StoredEvent",
    "StoredRow",
    "hold_folder",
    "kept_name",
]

log = logging.getLogger("caterpillar_learn.classroom")

#: The layout of the file; a newer one is refused rather than misread.
FORMAT = 2
#: The formats an older server wrote, indexed when opened (:func:`~.roomindex.migrate`).
OLDER = ("1",)
FILE_NAME = "classroom.sqlite3"
#: The file a running server holds locked (``flock``) for as long as it runs: the operating system lets the
#: lock go when the process ends, however it ends (SIGKILL, a power cut), so a stale lock cannot outlive it.
LOCK_NAME = "classroom.lock"
#: The tables every classroom file has (a file without them is not one).
TABLES = ("events", "meta")
#: The longest part of a refusal that quotes SQLite.
SAID_CHARS = 70
#: The share of free pages above which a start gives the space back (``VACUUM``): archived rooms leave free
#: pages, which SQLite reuses but never returns to the disk by itself.
FREE_SHARE = 0.5
#: SQLite's words for a file it cannot read as a database: such a file is kept aside.
CORRUPT = ("SQLITE_CORRUPT", "SQLITE_NOTADB")

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


class DamagedFileError(ClassroomError):
    """The data file cannot be used: empty, read-only, of a newer format, or damaged (and then kept aside)."""


class FolderBusyError(ClassroomError):
    """Another process (a running server) holds the data folder."""


class DamagedEventError(ClassroomError):
    """One row of the log cannot be read as an event (its JSON, or the type of a column)."""


@dataclass(frozen=True)
class StoredEvent:
    """One line of the log: which room, what happened, its data, when (seconds since 1970)."""

    id: int
    room: str
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True)
class StoredRow:
    """One row as the file holds it, not read yet: :meth:`parse` reads it.

    >>> StoredRow(7, "KX47PQ", "dice_rolled", '{"turn": 0}', 0.0).parse().data
    {'turn': 0}
    >>> StoredRow(8, "KX47PQ", "dice_rolled", '{"turn": ', 0.0).parse()
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.store.DamagedEventError: data: not JSON (Expecting value at character 9)
    """

    id: int
    room: object
    kind: object
    data: object
    at: object

    @property
    def room_code(self) -> str:
        """The room the row belongs to, as text even when the column holds something else."""
        return self.room if isinstance(self.room, str) else brief(self.room)

    def parse(self) -> StoredEvent:
        """The event of this row; :class:`DamagedEventError` says in one line what is wrong with it."""
        for name, value in (("room", self.room), ("kind", self.kind), ("data", self.data)):
            if not isinstance(value, str):
                raise DamagedEventError(f"{name}: got {brief(value)}, expected text")
        if not isinstance(self.at, int | float):
            raise DamagedEventError(f"at: got {brief(self.at)}, expected a time in seconds")
        assert isinstance(self.data, str) and isinstance(self.room, str) and isinstance(self.kind, str)
        try:
            data = json.loads(self.data)
        except (json.JSONDecodeError, RecursionError) as error:
            where = f" at character {error.pos}" if isinstance(error, json.JSONDecodeError) else ""
            reason = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deep"
            raise DamagedEventError(f"data: not JSON ({reason}{where})") from None
        if not isinstance(data, dict):
            raise DamagedEventError(f"data: got {brief(data)}, expected a JSON object")
        return StoredEvent(self.id, self.room, self.kind, data, float(self.at))


def kept_name(path: Path, at: float | None = None) -> Path:
    """Where a damaged file is kept: its name with ``.damaged-`` and the time (UTC), never an existing file.

    >>> kept_name(Path("/nowhere/classroom.sqlite3"), at=0.0).name
    'classroom.sqlite3.damaged-19700101T000000Z'
    """
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if at is None else at))
    candidate = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while any(Path(f"{candidate}{tail}").exists() for tail in ("", "-wal", "-shm")):
        number += 1
        candidate = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    return candidate


class EventStore:
    """An append-only event log in one SQLite file (``":memory:"`` for tests).

    One connection, guarded by a lock, so the server's event loop and a
    benchmark's threads may both append.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        #: How many rows :meth:`rows` has read since the store was opened.
        self.rows_read = 0
        #: The data folder's lock this store holds (:func:`hold_folder`), let go by :meth:`close`.
        self.held: int | None = None
        in_memory = self.path == ":memory:"
        existed = not in_memory and Path(self.path).exists()
        if not in_memory:
            _check_place(Path(self.path), existed)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as error:
            raise DamagedFileError(f"{self.path}: SQLite cannot open it ({error})") from None
        try:
            self._open(existed)
        except sqlite3.Error as error:
            self._db.close()
            raise self._refusal(error) from None
        except DamagedFileError:
            self._db.close()
            raise

    def _open(self, existed: bool) -> None:
        """Check the file (its tables, SQLite's integrity check, a first write), then make it ready."""
        with self._lock:
            if existed:
                self._check_contents()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA + roomindex.SCHEMA)
        stored = self.get_meta("format")
        if stored is None:
            self.set_meta("format", str(FORMAT))
        elif stored in OLDER:
            self._migrate()
        elif stored != str(FORMAT):
            raise DamagedFileError(f"{self.path}: classroom data of format {stored}, expected {FORMAT}")
        self.set_meta("opened", repr(time.time()))  # a first write: a read-only file is refused here, not later
        if existed:
            self.compact()

    def free_share(self) -> float:
        """How much of the file SQLite holds free (pages left by archived rooms), from 0 to 1."""
        with self._lock:
            (pages,) = self._db.execute("PRAGMA page_count").fetchone()
            (free,) = self._db.execute("PRAGMA freelist_count").fetchone()
        return free / pages if pages else 0.0

    def compact(self, *, above: float = FREE_SHARE) -> bool:
        """Give the free space back (``VACUUM``) when more than ``above`` of the file is free; whether it did.

        A start calls it: archiving leaves a room's pages free inside the file, which SQLite reuses for new
        events but never gives back by itself.  It takes about a second for each 100 MB, and nothing else
        happens meanwhile (a start, before any page).  Another process reading the file (``sqlite3``'s
        ``.backup``) makes it wait for the next start.
        """
        share = self.free_share()
        if share <= above:
            return False
        before = _size(self.path)
        try:
            with self._lock:
                self._db.execute("VACUUM")
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the -wal file gives its room back too
        except sqlite3.OperationalError as error:  # busy: another reader; the next start tries again
            log.warning("%s: %.0f%% of the file is free, not compacted now (%s)", self.path, share * 100, error)
            return False
        log.info(
            "%s: %.0f%% of the file was free after archiving; compacted from %.1f MB to %.1f MB",
            self.path,
            share * 100,
            before / 1e6,
            _size(self.path) / 1e6,
        )
        return True

    def _migrate(self) -> None:
        """Index a format-1 file (one scan of its rows) and mark it format 2, in one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                roomindex.migrate(self._db)
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('format', ?)", (str(FORMAT),))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _check_contents(self) -> None:
        names = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [table for table in TABLES if table not in names]
        if missing:
            raise DamagedFileError(
                f"{self.path}: not classroom data (no {' or '.join(missing)} table); "
                "move it away or put a backup of the classroom's data in its place"
            )
        verdict = [str(row[0]) for row in self._db.execute("PRAGMA integrity_check").fetchall()]
        if verdict != ["ok"]:
            raise self._keep_aside(f"integrity_check: {', '.join(verdict[:3])}")

    def _refusal(self, error: sqlite3.Error) -> DamagedFileError:
        """The one line for SQLite's ``error`` while opening; a file SQLite finds damaged is kept aside."""
        name = getattr(error, "sqlite_errorname", "")
        if name.startswith(CORRUPT):
            return self._keep_aside(f"SQLite says: {error}")
        if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
            return DamagedFileError(f"{self.path}: cannot be written ({error}); give the server a folder it may write")
        return DamagedFileError(f"{self.path}: SQLite says: {error}")

    def _keep_aside(self, said: str) -> DamagedFileError:
        """Rename the damaged file (and its ``-wal``/``-shm``) aside; the error says where it is kept."""
        self._db.close()
        path = Path(self.path)
        kept = kept_name(path)
        for tail in ("", "-wal", "-shm"):
            part = Path(f"{path}{tail}")
            if part.exists():
                part.rename(f"{kept}{tail}")
        # The command line cuts a message at 240 characters: what to do comes before what SQLite said at length.
        said = said if len(said) <= SAID_CHARS else said[: SAID_CHARS - 3] + "..."
        return DamagedFileError(
            one_line(f"{self.path}: {said}; kept as {kept.name}; the next start begins empty (or restore a backup)")
        )

    @classmethod
    def in_folder(cls, folder: str | Path, *, hold: bool = False) -> EventStore:
        """The store of a ``--data`` folder (made if missing, readable by its owner only); with ``hold``, the
        folder is locked for this process until :meth:`close` (:func:`hold_folder`), or refused when another
        process holds it."""
        where = Path(folder).expanduser()
        try:
            where.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            raise DamagedFileError(f"--data: cannot make the folder {where} ({error.strerror})") from None
        held = hold_folder(where) if hold else None
        try:
            store = cls(where / FILE_NAME)
        except BaseException:
            if held is not None:
                os.close(held)
            raise
        store.held = held
        return store

    def append(self, room: str, kind: str, data: Mapping[str, Any]) -> int:
        """Write one event and move the room's index entry, committed together; returns the event's id.
        Nothing is shown before this returns."""
        line = json.dumps(dict(data), separators=(",", ":"), allow_nan=False, sort_keys=True)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute(
                    "INSERT INTO events (room, kind, data, at) VALUES (?, ?, ?, ?)", (room, kind, line, time.time())
                )
                assert cursor.lastrowid is not None
                roomindex.record(self._db, room, kind, line, cursor.lastrowid)
                self._db.execute("COMMIT")  # synced (synchronous=FULL): the event and its index entry, or neither
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return cursor.lastrowid

    def index(self) -> list[RoomEntry]:
        """Every room of the index, oldest first: what a start reads instead of the events."""
        try:
            with self._lock:
                return roomindex.entries(self._db)
        except sqlite3.DatabaseError as error:
            raise DamagedFileError(f"{self.path}: the rooms cannot be read, SQLite says: {error}") from None

    def note(self, notes: list[tuple[str, int, int, int | None]]) -> None:
        """Note ``(code, pupils, seen_id, stopped)`` of rooms in the index (see :func:`~.roomindex.note`)."""
        with self._lock:
            roomindex.note(self._db, notes)

    def remove_room(self, code: str) -> int:
        """Delete room ``code``'s events and index entry in one transaction; how many events went."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                removed = roomindex.remove(self._db, code)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return removed

    def set_aside(self, code: str, ids: list[int], key: str, value: str) -> None:
        """Delete room ``code``'s rows ``ids`` (already copied to a file), index the room again and keep meta
        ``key`` (where they went), in one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("DELETE FROM events WHERE room = ? AND id = ?", [(code, i) for i in ids])
                roomindex.rebuild(self._db, code)
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def put_back(self, code: str, rows: list[tuple[int, str, object, float]], key: str) -> None:
        """Insert room ``code``'s rows ``(id, kind, data, at)`` with their own numbers, index the room again and
        forget meta ``key``, in one transaction; a number the log holds already refuses them all."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for ident, kind, data, at in rows:
                    if self._db.execute("SELECT 1 FROM events WHERE id = ?", (ident,)).fetchone() is not None:
                        raise ClassroomError(f"event {ident}: the log holds an event of that number already")
                    self._db.execute(
                        "INSERT INTO events (id, room, kind, data, at) VALUES (?, ?, ?, ?, ?)",
                        (ident, code, kind, data, at),
                    )
                roomindex.rebuild(self._db, code)
                self._db.execute("DELETE FROM meta WHERE key = ?", (key,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def meta_items(self, prefix: str) -> dict[str, str]:
        """Every meta entry whose key starts with ``prefix``."""
        with self._lock:
            found = self._db.execute("SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?", (len(prefix), prefix))
            return {str(key): str(value) for key, value in found.fetchall()}

    def rows(self, room: str | None = None) -> Iterator[StoredRow]:
        """Every row in the order written (only ``room``'s if given), as the file holds it.

        :attr:`rows_read` counts them (a start that reads the index reads none).
        """
        try:
            with self._lock:
                if room is None:
                    found = self._db.execute("SELECT id, room, kind, data, at FROM events ORDER BY id").fetchall()
                else:
                    found = self._db.execute(
                        "SELECT id, room, kind, data, at FROM events WHERE room = ? ORDER BY id", (room,)
                    ).fetchall()
        except sqlite3.DatabaseError as error:
            raise DamagedFileError(f"{self.path}: the events cannot be read, SQLite says: {error}") from None
        self.rows_read += len(found)
        for ident, code, kind, data, at in found:
            yield StoredRow(ident, code, kind, data, at)

    def events(self, room: str | None = None) -> Iterator[StoredEvent]:
        """Every event in the order written (only ``room``'s if given); a damaged row raises :class:`DamagedEventError`.

        The server reads :meth:`rows` instead, so that a damaged row stops only its own room.
        """
        for row in self.rows(room):
            yield row.parse()

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
            if self.held is not None:
                os.close(self.held)
                self.held = None


def hold_folder(folder: str | Path) -> int:
    """Lock ``folder``'s :data:`LOCK_NAME` for this process (a file descriptor, held until closed or the process
    ends); :class:`FolderBusyError` when another holds it.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> held = hold_folder(folder)
    >>> hold_folder(folder)
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.store.FolderBusyError: a classroom server holds this data folder (classroom.lock)
    >>> os.close(held); os.close(hold_folder(folder))
    """
    where = Path(folder).expanduser()
    try:
        handle = os.open(where / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:  # the same line as the data file's own check
        raise DamagedFileError(f"{where}: read-only; give the server a folder it may write (--data)") from (
            None if isinstance(error, PermissionError) else error
        )
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        raise FolderBusyError(f"a classroom server holds this data folder ({LOCK_NAME})") from None
    os.ftruncate(handle, 0)
    os.write(handle, f"{os.getpid()}\n".encode())  # who holds it, for a person who looks
    return handle


def _size(path: str) -> int:
    """The data file's size and its ``-wal``'s, in bytes."""
    return sum(Path(f"{path}{tail}").stat().st_size for tail in ("", "-wal") if Path(f"{path}{tail}").exists())


def _check_place(path: Path, existed: bool) -> None:
    """Refuse, before SQLite touches it, an empty file and a folder or file the server may not write."""
    if existed and path.is_file() and path.stat().st_size == 0:
        raise DamagedFileError(
            f"{path}: the file is empty (0 bytes), not the classroom's data; "
            "remove it to start with no rooms, or put a backup in its place"
        )
    folder = path.parent
    # SQLite writes its -wal and -shm files beside the data file: the folder must be writable too.
    for place in (folder, path) if existed else (folder,):
        if not os.access(place, os.W_OK):
            raise DamagedFileError(f"{place}: read-only; give the server a folder it may write (--data)")
