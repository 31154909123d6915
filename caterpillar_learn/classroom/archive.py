"""A finished room's record, written to a file before its events leave the live log.

The teacher archives a room when its class is done with it
(:meth:`Lobby.archive <caterpillar_learn.classroom.lobby.Lobby.archive>`):
its whole record goes to ``<data folder>/archive/<CODE>-<UTC time>.jsonl``,
one JSON object a line, the first naming the format, the room and its
settings, then every row of the room as the file held it (``id``, ``kind``,
``data``, ``at``).  The file and its folder are synced before the lobby
deletes the rows, so a crash in between leaves the room in the log and
perhaps a file too, never neither.

What "finished" means depends on the game (:data:`FINISHED`): a
Caterpillars room whose game is over (or that nobody joined), a lesson room
where every pupil reached the lesson's end or no pupil's page is open, a
Räuber Raupe room with no table running or no pupil's page open.

>>> import tempfile, json
>>> from caterpillar_learn.classroom.store import StoredRow
>>> folder = Path(tempfile.mkdtemp())
>>> rows = [StoredRow(1, "KX47PQ", "room_created", '{"game":"lesson"}', 0.0)]
>>> path = write_record(folder, "KX47PQ", {"game": "lesson"}, rows, at=0.0)
>>> path.name
'KX47PQ-19700101T000000Z.jsonl'
>>> [json.loads(line)["kind"] for line in path.read_text().splitlines()[1:]]
['room_created']
>>> read_record(path)[0]["room"], len(read_record(path)[1])
('KX47PQ', 1)
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom
from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom
from caterpillar_learn.classroom.store import StoredRow
from caterpillar_learn.errors import describe

__all__ = ["FINISHED", "FORMAT", "archive_folder", "is_finished", "read_record", "write_record"]

#: The first line's ``format``: what kind of file this is, and its layout.
FORMAT = "caterpillar-learn room archive 1"
#: The folder of the archives, inside the data folder.
FOLDER = "archive"


def _caterpillars_finished(room: CaterpillarsRoom) -> bool:
    return not room.pupils or room.is_over


def _lesson_finished(room: LessonRoom) -> bool:
    pupils = room.counted()
    at_end = bool(pupils) and all(step >= steps for step, steps in (pupil.place() for pupil in pupils))
    return at_end or not room.followed()


def _raupe_finished(room: RaupeRoom) -> bool:
    return not any(table.running for table in room.tables) or not room.followed()


#: Whether a room of each game is finished (archiving it loses no game in play).
FINISHED: dict[type, Callable[[Any], bool]] = {
    CaterpillarsRoom: _caterpillars_finished,
    LessonRoom: _lesson_finished,
    RaupeRoom: _raupe_finished,
}


def is_finished(room: CaterpillarsRoom | LessonRoom | RaupeRoom) -> bool:
    """Whether ``room`` may be archived: its game over, or nobody using it (see :data:`FINISHED`).

    >>> from caterpillar_learn.classroom.rooms.caterpillars.room import RoomSettings
    >>> room = CaterpillarsRoom("KX47PQ", RoomSettings.build("beginner", dice="typed"))
    >>> is_finished(room), room.join("Ada") is not None, is_finished(room)
    (True, True, False)
    """
    return FINISHED[type(room)](room)


def archive_folder(store_path: str, name: str = FOLDER) -> Path:
    """The archive folder beside the data file ``store_path`` (made if missing, its owner's only).

    >>> archive_folder(":memory:")
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.codes.ClassroomError: data: got ':memory:', expected a data folder to archive into
    """
    if store_path == ":memory:":
        raise ClassroomError(describe("data", store_path, "a data folder to archive into"))
    folder = Path(store_path).parent / name
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def write_record(
    folder: Path,
    code: str,
    settings: dict[str, Any] | None,
    rows: Iterable[StoredRow],
    *,
    at: float | None = None,
    head: dict[str, Any] | None = None,
) -> Path:
    """Write room ``code``'s record to a new file of ``folder`` and sync it and the folder; its path.

    ``head`` replaces the first line's format and adds to it (a quarantine file's report)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if at is None else at))
    path = folder / f"{code}-{stamp}.jsonl"
    number = 1
    while path.exists():  # the same room archived twice in a second (its code used again): never overwrite
        number += 1
        path = folder / f"{code}-{stamp}-{number}.jsonl"
    first = {"format": FORMAT, "room": code, "settings": settings, **(head or {})}
    with open(path, "x", encoding="utf-8") as out:
        out.write(json.dumps(first, ensure_ascii=False) + "\n")
        for row in rows:
            line = {"id": row.id, "kind": _plain(row.kind), "data": _plain(row.data), "at": _plain(row.at)}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
        out.flush()
        os.fsync(out.fileno())
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)  # the file's name is in the folder for good before the rows are deleted
    finally:
        os.close(handle)
    return path


def read_record(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An archive's first line and its rows (``data`` as the file held it: JSON text)."""
    head, *rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return head, rows


def _plain(value: object) -> object:
    """A column as JSON can hold it: a damaged row's bytes as their repr, so nothing is dropped."""
    return value if isinstance(value, str | int | float) or value is None else repr(value)
