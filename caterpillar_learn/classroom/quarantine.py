"""A damaged room's unapplied events, set aside in a file at start-up, and put back by a command.

When a room's replay stops at an event it cannot apply (:class:`~.lobby.Damage`),
the room comes back as it was just before it and is read-only.  The
damaged event and every later event of that room are then **set aside**:
copied to ``<data folder>/quarantine/<CODE>-<UTC time>.jsonl`` (the archive's
layout, :func:`~.archive.write_record`, its first line with the report),
the file and folder synced, and only then deleted from the live log, together
with a note in the file's ``meta`` table (``quarantine:<CODE>``) that keeps
the room stopped and its report shown at every start.  Nothing is ever half
applied: the log holds the events the room applied, the quarantine file the
rest, and the log's line and the teacher's console say which and where.

``caterpillar-learn classroom --restore FILE`` (the server stopped, as for
``--archive``) puts a quarantine file's events back with their own numbers,
and forgets the note; an archive's file is put back the same way.  The next
start replays the room: whole if the damaged line was mended in the file
(or the room it needed, archived too early, was restored first), stopped and
set aside again otherwise.

>>> import json, tempfile
>>> from caterpillar_learn.classroom.store import EventStore
>>> store = EventStore(Path(tempfile.mkdtemp()) / "classroom.sqlite3")
>>> for kind in ("room_created", "pupil_joined", "dice_rolled"):
...     _ = store.append("KX47PQ", kind, {"game": "caterpillars"})
>>> path = set_aside(store, "KX47PQ", None, [2, 3], {"event": 2, "why": "bad"})
>>> [event.id for event in store.events()], marked(store, "KX47PQ")["file"].startswith("quarantine/KX47PQ-")
([1], True)
>>> restore(store, path)
('KX47PQ', 2)
>>> [event.id for event in store.events()], marked(store, "KX47PQ")
([1, 2, 3], None)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from caterpillar_learn.classroom import archive
from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.errors import describe

__all__ = ["FOLDER", "FORMAT", "KEY", "marked", "marks", "restore", "set_aside"]

#: The folder of the events set aside, inside the data folder.
FOLDER = "quarantine"
#: A quarantine file's first line's ``format``.
FORMAT = "caterpillar-learn quarantine 1"
#: The ``meta`` key of a room whose events are set aside (then the room's code).
KEY = "quarantine:"


def set_aside(
    store: EventStore, code: str, settings: dict[str, Any] | None, ids: list[int], report: dict[str, Any]
) -> Path:
    """Copy room ``code``'s rows ``ids`` to a new quarantine file (synced), then delete them from the log with a
    note of ``report`` and where the file is; the file's path."""
    wanted = set(ids)
    rows = [row for row in store.rows(code) if row.id in wanted]
    folder = archive.archive_folder(store.path, FOLDER)
    path = archive.write_record(folder, code, settings, rows, head={"format": FORMAT, "report": report})
    where = f"{FOLDER}/{path.name}"
    store.set_aside(code, [row.id for row in rows], KEY + code, json.dumps({**report, "file": where}))
    return path


def marked(store: EventStore, code: str) -> dict[str, Any] | None:
    """The note of room ``code``'s events set aside (its report and ``file``), or ``None``."""
    value = store.get_meta(KEY + code)
    return None if value is None else _note(value)


def marks(store: EventStore) -> dict[str, dict[str, Any]]:
    """Every room's note of events set aside, by code."""
    return {key[len(KEY) :]: _note(value) for key, value in store.meta_items(KEY).items()}


def restore(store: EventStore, path: Path) -> tuple[str, int]:
    """Put the events of a quarantine (or archive) file back into the log with their own numbers, and forget the
    room's note; the room's code and how many events came back.  A file of another kind, or an event whose
    number the log holds already, is refused in one line and nothing is put back."""
    try:
        head, rows = archive.read_record(path)
    except (OSError, ValueError) as error:
        raise ClassroomError(describe("--restore", str(path), f"a quarantine or archive file ({error})")) from None
    if not isinstance(head, dict) or head.get("format") not in (FORMAT, archive.FORMAT):
        raise ClassroomError(describe("--restore", str(path), "a quarantine or archive file of the classroom"))
    code = head.get("room")
    if not isinstance(code, str):
        raise ClassroomError(describe("--restore room", code, "a room code"))
    back: list[tuple[int, str, object, float]] = []
    for row in rows:
        ident, kind, data, at = row.get("id"), row.get("kind"), row.get("data"), row.get("at")
        if isinstance(ident, bool) or not isinstance(ident, int) or not isinstance(kind, str):
            raise ClassroomError(describe("--restore line", row, "an event's id, kind, data and time"))
        back.append((ident, kind, data, float(at) if isinstance(at, int | float) else 0.0))
    store.put_back(code, back, KEY + code)
    return code, len(back)


def _note(value: str) -> dict[str, Any]:
    try:
        note = json.loads(value)
    except ValueError:
        note = None
    return note if isinstance(note, dict) else {"file": "?", "why": value[:80]}
