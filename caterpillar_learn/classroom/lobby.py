"""Every room of one classroom server: created, joined, woken from the log when used, and archived.

The :class:`Lobby` owns the :class:`~caterpillar_learn.classroom.store.EventStore`.
Opening it reads the room index (:mod:`~caterpillar_learn.classroom.roomindex`),
not the events: a room sleeps, listed on the teacher's desk by its settings
and pupil count, until something needs it (a join, the teacher's console,
the score sheets).  Then it wakes: its own events are replayed through the
room's ``apply`` (the same code that applied each event live), and it gets
the writer that commits its next events.  A room the index is not sure of
(events after its last note, a damaged event at its last replay) is woken
at start.  The lobby notes each played room's pupil count in the index
(:meth:`Lobby.note`, with the clock and at close).  A room that nobody
follows and nothing happens in goes back to sleep after :data:`SLEEP_AFTER`
seconds (:meth:`Lobby.doze`, with the clock): its memory is given back, and
the next need wakes it from the log again.

A row that cannot be read or applied (damaged JSON, an illegal move) stops
its own room there and nothing else: the room comes back as it was just
before that event, the damaged event and every later event of the room are
listed in a :class:`Damage` report (one line in the log at start, and on the
teacher's console), and the room is read-only ("stopped at event N") so
nothing new is written after events the teacher has not seen.  A lobby that
holds the data folder (the server, the command line) sets those events aside
in a quarantine file (:mod:`.quarantine`), so the log never holds events its
room did not apply; ``--restore`` puts them back.  The other rooms play on.
(``docs/DEPLOY.md``, "Damaged data".)

Joining goes through the lobby: the client's join limit first
(:class:`~caterpillar_learn.classroom.codes.JoinLimit`), then the code and
the nickname are read, and the room gives the pupil their sheet (a new one,
or theirs again for the same nickname).

>>> lobby = Lobby(EventStore(":memory:"))
>>> from caterpillar_learn.classroom.rooms.caterpillars.room import RoomSettings
>>> room = lobby.create(RoomSettings.build("beginner", dice="typed"))
>>> same, ada = lobby.join(room.code.lower(), "Ada", client="10.0.0.7")
>>> same is room, ada.nickname, Lobby(lobby.store).rooms[room.code].pupils[1].nickname
(True, 'Ada', 'Ada')
>>> lobby.note(); again = Lobby(lobby.store)
>>> again.awake(), len(again.rooms), again.rooms[room.code].pupils[1].nickname, again.awake() == [room.code]
([], 1, 'Ada', True)
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from caterpillar_learn.classroom import quarantine
from caterpillar_learn.classroom.archive import archive_folder, is_finished, write_record
from caterpillar_learn.classroom.codes import ClassroomError, JoinLimit, new_code, new_token, parse_code
from caterpillar_learn.classroom.identity import RejoinNeeded, Removed, check_nickname, is_secret
from caterpillar_learn.classroom.refusals import Refusals
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.rooms.lesson.own import OwnLessons
from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom, LessonSettings
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
from caterpillar_learn.classroom.store import EventStore, StoredRow
from caterpillar_learn.errors import CaterpillarLearnError, describe, one_line
from caterpillar_learn.i18n import plural, text
from caterpillar_learn.ui.caterpillars.advice import HERE, Helper

__all__ = ["AnyRoom", "AnySettings", "Damage", "Lobby", "Room", "Rooms"]

log = logging.getLogger("caterpillar_learn.classroom")

TOKEN_KEY = "teacher_token"
#: Seconds a room nobody follows (no page, no console) and nothing happens in stays awake before it goes back
#: to sleep: its memory is given back, and the next join or look replays it from the log.
SLEEP_AFTER = 600.0

#: A room of the server: a Caterpillars room, Räuber Raupe tables, or a lesson room.
AnyRoom = CaterpillarsRoom | RaupeRoom | LessonRoom
AnySettings = RoomSettings | TableSettings | LessonSettings


class Room(Protocol):
    """What the lobby and the pages need of a room of either game."""

    code: str
    game_name: str
    version: int
    write: Callable[[str, dict[str, Any]], object] | None

    def join(self, nickname: str) -> Any: ...

    def apply(self, kind: str, data: Mapping[str, Any]) -> None: ...

    def subscribe(self, listener: Callable[[int | None], None], pupil: int | None = None) -> int: ...

    def unsubscribe(self, token: int) -> None: ...


@dataclass
class Damage:
    """Where a room's replay stopped: the event that could not be applied, why, and the later ones kept unapplied.

    >>> damage = Damage("KX47PQ", event=7, kind="move_placed", why="boxes: got 99", applied=5)
    >>> damage.held.append((9, "dice_rolled"))
    >>> for part in damage.line().split("; "):
    ...     print(part)
    room KX47PQ: event 7 (move_placed) could not be replayed: boxes: got 99
    the room stops after 5 events, 1 later event kept in the file unapplied: 9
    >>> damage.to_json()["held"]
    [{'event': 9, 'kind': 'dice_rolled'}]
    """

    room: str
    #: The row's number in the file (``events.id``).
    event: int
    kind: str
    why: str
    #: How many of the room's events were applied before it (the room is as it was then).
    applied: int
    #: The room's later events, ``(number in the file, kind)``: in the file, not applied.
    held: list[tuple[int, str]] = field(default_factory=list)
    #: Where the damaged event and the later ones were set aside (:mod:`.quarantine`), in the data folder;
    #: "" while they are in the live log.
    quarantine: str = ""

    def line(self) -> str:
        """The one line the log shows at start."""
        later = len(self.held)
        numbers = ", ".join(str(ident) for ident, _ in self.held[:20]) + (", ..." if later > 20 else "")
        said = f"room {self.room}: event {self.event} ({self.kind}) could not be replayed: {self.why}; "
        if self.quarantine:
            return one_line(
                f"{said}the room stops after {self.applied} events; event {self.event} and {later} later "
                f"event{'' if later == 1 else 's'}{': ' + numbers if later else ''} set aside in {self.quarantine} "
                f"of the data folder (after a repair, caterpillar-learn classroom --restore FILE puts them back)",
                limit=480,
            )
        return one_line(
            f"{said}the room stops after {self.applied} events, {later} later event{'' if later == 1 else 's'} "
            f"kept in the file unapplied{': ' + numbers if later else ''}",
            limit=400,
        )

    @classmethod
    def from_note(cls, code: str, note: Mapping[str, Any], applied: int) -> Damage:
        """The report of a room whose events were set aside, from its note (:func:`.quarantine.marked`)."""
        held = [(int(h["event"]), str(h["kind"])) for h in note.get("held", []) if isinstance(h, Mapping)]
        event = note.get("event")
        return cls(
            code,
            event if isinstance(event, int) else 0,
            str(note.get("kind", "?")),
            str(note.get("why", "")),
            applied,
            held,
            str(note.get("file", "?")),
        )

    def to_view(self) -> dict[str, Any]:
        """What the teacher's console shows: :meth:`to_json` and its words in the current language."""
        later = ", ".join(str(ident) for ident, _ in self.held[:40]) + (", ..." if len(self.held) > 40 else "")
        return self.to_json() | {
            "title": text("classroom.damage.title", code=self.room),
            "report": text("classroom.damage.report", event=self.event, kind=self.kind, why=self.why),
            "later": (
                text("classroom.damage.set_aside", file=self.quarantine, count=len(self.held) + 1)
                if self.quarantine
                else plural("classroom.damage.held", len(self.held), events=later)
                if self.held
                else ""
            ),
            "advice": text("classroom.damage.advice"),
        }

    def to_json(self) -> dict[str, Any]:
        """Plain data for the teacher's console."""
        return {
            "room": self.room,
            "event": self.event,
            "kind": self.kind,
            "why": self.why,
            "applied": self.applied,
            "held": [{"event": ident, "kind": kind} for ident, kind in self.held],
            "quarantine": self.quarantine,
        }


def _kind_of(row: StoredRow) -> str:
    return row.kind if isinstance(row.kind, str) else "?"


def settings_of(data: Mapping[str, Any]) -> AnySettings:
    """A room's settings from its ``room_created`` data (the game names the class)."""
    if data.get("game") == "raupe":
        return TableSettings.from_json(data)
    if data.get("game") == "lesson":
        return LessonSettings.from_json(data)
    return RoomSettings.from_json(data)


class Rooms(Mapping[str, AnyRoom]):
    """The lobby's rooms by code, awake or asleep: every code of the index is a key, and reading a room wakes it.

    A code whose events came back without a room (its ``room_created`` damaged) is not a key: it has a
    :class:`Damage` report only.
    """

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby

    def __getitem__(self, code: str) -> AnyRoom:
        return self._lobby.wake(code)

    def __contains__(self, code: object) -> bool:
        lobby = self._lobby
        return code in lobby.listed and (code in lobby._awake or code not in lobby.damage)

    def __iter__(self) -> Iterator[str]:
        return iter([code for code in self._lobby.listed if code in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Lobby:
    """The rooms of one server, their store, the teacher's token and the join limit.

    :attr:`damage` holds a :class:`Damage` report for every room whose replay
    stopped at a damaged or illegal event (a room code whose ``room_created``
    is the damaged event has a report and no room).
    """

    def __init__(self, store: EventStore, *, limit: JoinLimit | None = None, sleep_after: float = SLEEP_AFTER) -> None:
        self.store = store
        #: Seconds a room awake that nobody follows and nothing happens in waits before it sleeps again.
        self.sleep_after = sleep_after
        #: Each awake room's version when it was last seen to change or be followed, and when (monotonic).
        self._touched: dict[str, tuple[int, float]] = {}
        #: Called once rooms went to sleep (the server: let the garbage collector look at their objects again).
        self.on_sleep: Callable[[], None] = lambda: None
        self.limit = limit if limit is not None else JoinLimit()
        #: The joins the limit refused, told to the log once every few seconds (a door's flood is one line).
        self.limited = Refusals()
        #: Every room, oldest first (reading one wakes it): see :class:`Rooms`.
        self.rooms = Rooms(self)
        #: The teacher's own lessons (``classroom --lessons DIR``): none unless the server is given a folder.
        self.own_lessons = OwnLessons()
        #: Every room code, oldest first, with its settings (``None``: unreadable, the room is woken at start).
        self.listed: dict[str, AnySettings | None] = {}
        #: The rooms replayed since the start, by code.
        self._awake: dict[str, AnyRoom] = {}
        #: The pupil count the index noted of each room asleep.
        self._pupils: dict[str, int] = {}
        #: The last event of each awake room (written or replayed), and the rooms to note in the index.
        self._seen: dict[str, int] = {}
        self._unnoted: set[str] = set()
        #: Held while a room wakes (a room may wake on a thread of its own at start: :meth:`wake_newest`).
        self._waking = threading.RLock()
        #: Rooms whose replay stopped at a damaged event, by code (see :meth:`replay`).
        self.damage: dict[str, Damage] = {}
        #: Where every room's helper works (:meth:`work_in`): here, until the server gives its worker processes.
        self.helper: Helper = HERE
        token = store.get_meta(TOKEN_KEY)
        if token is None:
            token = new_token()
            store.set_meta(TOKEN_KEY, token)
        #: The secret in the teacher's address; kept in the store, so the address survives a restart.
        self.token = token
        self.replay()

    @classmethod
    def open(cls, folder: str | Path, *, hold: bool = False, **kwargs: Any) -> Lobby:
        """The lobby of a ``--data`` folder: every room in it, as it was.

        A file that cannot be used raises :class:`~caterpillar_learn.classroom.store.DamagedFileError`
        (one line; a damaged file is kept aside first).
        """
        store = EventStore.in_folder(folder, hold=hold)
        try:
            return cls(store, **kwargs)
        except BaseException:
            store.close()  # and its hold on the folder
            raise

    def work_in(self, helper: Helper) -> None:
        """Every room's helper works with ``helper`` from now on (the server's worker processes, after the replay,
        which works here)."""
        with self._waking:
            self.helper = helper
            for room in self._awake.values():
                room.work_in(helper)

    def damage_view(self, code: str) -> list[dict[str, Any]]:
        """The damage reports the console shows with room ``code``: its own, and those of rooms that never came back.

        >>> Lobby(EventStore(":memory:")).damage_view("KX47PQ")
        []
        """
        return [d.to_view() for d in list(self.damage.values()) if d.room == code or d.room not in self._awake]

    def is_teacher(self, token: object) -> bool:
        """Whether ``token`` is the teacher's (compared in constant time)."""
        return isinstance(token, str) and secrets.compare_digest(token.encode(), self.token.encode())

    # -- the log ---------------------------------------------------------------------
    def replay(self) -> None:
        """Read the room index (no event of a room asleep), and wake the rooms it is not sure of.

        A room is woken here when events came after its last note, when its
        last replay stopped at a damaged event (so its report shows at start),
        or when its settings cannot be read.
        """
        self.listed, self._awake, self._pupils, self._seen, self._unnoted, self.damage = {}, {}, {}, {}, set(), {}
        for entry in self.store.index():
            settings: AnySettings | None = None
            try:
                settings = None if entry.settings is None else settings_of(entry.settings)
            except Exception:  # the replay says what is wrong with it, as a Damage report
                settings = None
            self.listed[entry.code] = settings
            self._pupils[entry.code] = entry.pupils
            if entry.is_behind or entry.stopped is not None or settings is None:
                self._wake(entry.code)
        for code, note in quarantine.marks(self.store).items():
            if code not in self.listed:  # every row of it set aside (its room_created too): a report, no room
                self.damage[code] = Damage.from_note(code, note, 0)
                log.warning("%s", self.damage[code].line())
        if self.listed:
            log.info(
                "%d rooms listed, %d replayed at start (%d stopped at a damaged event)",
                len(self.listed),
                len(self._awake),
                len(self.damage),
            )

    def replay_all(self) -> None:
        """Wake every room: the whole history read, as every start did before the index (kept to measure it)."""
        for code in list(self.listed):
            self.rooms.get(code)

    def awake(self) -> list[str]:
        """The codes of the rooms replayed since the start."""
        return list(self._awake)

    def wake(self, code: str) -> AnyRoom:
        """Room ``code``, replayed from its own events the first time it is needed; ``KeyError`` if there is none."""
        with self._waking:
            room = self._awake.get(code)
            if room is not None and room.stale:  # its last write failed: replayed again from the file
                del self._awake[code]
                room = None
            if room is None and code in self.listed and code not in self.damage:
                room = self._wake(code)
        if room is None:
            raise KeyError(code)
        return room

    def wake_newest(self) -> threading.Thread:
        """Wake the newest room on a thread of its own: the room the teacher's console opens first, replayed
        while the server starts (a lesson room's led rounds take a second or two); whoever needs it meanwhile
        waits for it (:meth:`wake`)."""

        def newest() -> None:
            for code in reversed(list(self.listed)):
                if self.rooms.get(code) is not None:
                    return

        thread = threading.Thread(target=newest, name="wake-newest", daemon=True)
        thread.start()
        return thread

    def _wake(self, code: str) -> AnyRoom | None:
        """Replay room ``code`` from its rows: a row that cannot be read or applied stops it there (:class:`Damage`)."""
        created: Mapping[str, Any] | None = None
        last = 0
        for row in self.store.rows(code):
            last = row.id
            stopped = self.damage.get(code)
            if stopped is not None:  # after the damaged event: kept in the file, listed, not applied
                stopped.held.append((row.id, _kind_of(row)))
                continue
            try:
                event = row.parse()
                if event.kind == "room_created":
                    if created is not None:
                        raise ClassroomError(describe("room_created", code, "a room created once"))
                    self._awake[code] = self._room(code, event.data)
                    created = event.data
                    continue
                room = self._awake.get(code)
                if room is None:
                    raise ClassroomError(describe("room", code, "a room created earlier in the log"))
                room.apply(event.kind, event.data)
            except Exception as error:  # this room stops here; the other rooms are not touched
                self._stop(code, row, error, created)
        self._seen[code] = last
        self._unnoted.add(code)
        if code in self.damage:
            self._set_aside(code, created)
        elif (note := quarantine.marked(self.store, code)) is not None:  # set aside at an earlier start
            room = self._awake.get(code)
            self.damage[code] = Damage.from_note(code, note, 0 if room is None else 1 + len(room.log))
        woken = self._awake.get(code)
        if woken is not None:
            woken.write = self._writer(code) if code not in self.damage else self._refuser(code)
            if code in self.damage:  # read-only: nothing is written after events not applied
                woken.closed = ("classroom.damage.stopped", {"code": code, "event": self.damage[code].event})
            woken.work_in(self.helper)
        if code in self.damage:
            log.warning("%s", self.damage[code].line())
        return woken

    def note(self) -> None:
        """Note in the index the pupil count of every room played or replayed since the last note (so the next
        start need not replay it).  The server's clock calls this, and :meth:`close`."""
        notes: list[tuple[str, int, int, int | None]] = []
        for code in list(self._unnoted):
            self._unnoted.discard(code)
            room = self._awake.get(code)
            damage = self.damage.get(code)
            stopped = None if damage is None else damage.event
            if room is None:
                notes.append((code, 0, self._seen.get(code, 0), stopped))
                continue
            with room.lock:  # the count and the last event together (a record writes, then applies, under it)
                notes.append((code, len(room.counted()), self._seen.get(code, 0), stopped))
        self.store.note(notes)

    def close(self) -> None:
        """Write what the lesson rooms' tables did since their last row, note every awake room in the index (a
        page's arrival writes no event) and close the store."""
        for room in list(self._awake.values()):
            if isinstance(room, LessonRoom) and room.code not in self.damage:
                try:
                    with room.lock:
                        room.write_steps()
                except Exception:  # the store must still close: a crash forgets these steps the same way
                    log.exception("room %s: the tables' last steps could not be written", room.code)
        self._unnoted |= set(self._awake)
        self.note()
        self.store.close()

    def listing(self) -> list[tuple[str, AnySettings, int]]:
        """Every room the desk lists, oldest first: code, settings, pupils counted (no room is woken)."""
        listed = []
        for code, settings in self.listed.items():
            room = self._awake.get(code)
            if room is not None:
                listed.append((code, room.settings, len(room.counted())))
            elif settings is not None and code not in self.damage:
                listed.append((code, settings, self._pupils.get(code, 0)))
        return listed

    def _stop(self, code: str, row: StoredRow, error: Exception, settings: Mapping[str, Any] | None) -> None:
        """Stop room ``code`` at ``row``: rebuilt from the events applied before it (a failed apply may have begun)."""
        room = self._awake.get(code)
        applied = 0
        if room is not None and settings is not None:
            again = self._room(code, settings)
            for kind, data in room.log:
                again.apply(kind, data)
            self._awake[code] = again
            applied = 1 + len(room.log)  # room_created and the events after it
        why = str(error) if isinstance(error, CaterpillarLearnError) else f"{type(error).__name__}: {error}"
        self.damage[code] = Damage(code, row.id, _kind_of(row), one_line(why, limit=160), applied)

    def _set_aside(self, code: str, created: Mapping[str, Any] | None) -> None:
        """Move room ``code``'s damaged event and its later events to a quarantine file (:mod:`.quarantine`), so
        the log holds only what the room applied: only a lobby that holds the data folder (the server, the
        command line), and the events stay where they are if that fails."""
        damage = self.damage[code]
        if self.store.held is None or damage.quarantine:
            return
        ids = [damage.event, *(ident for ident, _ in damage.held)]
        try:
            settings = None if created is None else dict(created)
            path = quarantine.set_aside(self.store, code, settings, ids, damage.to_json())
        except Exception:
            log.exception("room %s: the events after the damaged one could not be set aside", code)
            return
        damage.quarantine = f"{quarantine.FOLDER}/{path.name}"
        self._seen[code] = max((row.id for row in self.store.rows(code)), default=0)  # the last row left

    def _refuser(self, code: str) -> Callable[[str, dict[str, Any]], object]:
        """The writer of a stopped room: it refuses, so nothing is written after events not applied."""
        damage = self.damage[code]

        def write(kind: str, data: dict[str, Any]) -> int:
            raise ClassroomError(text("classroom.damage.stopped", code=code, event=damage.event))

        return write

    def _room(self, code: str, data: Mapping[str, Any]) -> AnyRoom:
        settings = settings_of(data)
        if isinstance(settings, TableSettings):
            return RaupeRoom(code, settings)
        if isinstance(settings, LessonSettings):
            return LessonRoom(code, settings)
        return CaterpillarsRoom(code, settings)

    def _writer(self, code: str) -> Callable[[str, dict[str, Any]], object]:
        def write(kind: str, data: dict[str, Any]) -> int:
            ident = self.store.append(code, kind, data)
            self._seen[code] = ident
            self._unnoted.add(code)
            return ident

        return write

    # -- the teacher -------------------------------------------------------------------
    def create(self, settings: RoomSettings | TableSettings | LessonSettings) -> AnyRoom:
        """A new room with a fresh code; its ``room_created`` event is committed first."""
        code = new_code(self.listed)  # not a code of the log, even one with no room
        self._seen[code] = self.store.append(code, "room_created", settings.to_json())
        self._unnoted.add(code)
        room: AnyRoom
        if isinstance(settings, TableSettings):
            room = RaupeRoom(code, settings, write=self._writer(code))
        elif isinstance(settings, LessonSettings):
            room = LessonRoom(code, settings, write=self._writer(code))
        else:
            room = CaterpillarsRoom(code, settings, write=self._writer(code))
        room.work_in(self.helper)
        self.listed[code] = settings
        self._awake[code] = room
        log.info("room %s created (%s)", code, room.game_name)
        return room

    def archive(self, code: object) -> Path:
        """Write room ``code``'s whole record to a file of the data folder's ``archive`` folder, then remove its
        events and forget it; the file's path.  Only a finished room (:func:`~.archive.is_finished`) or one
        stopped at a damaged event is archived; anything else is refused in one line."""
        room_code = parse_code(code)
        if room_code not in self.listed:
            raise ClassroomError(text("classroom.archive.unknown", code=room_code))
        room = self.rooms.get(room_code)
        if room is not None and not self.can_archive(room):
            raise ClassroomError(text("classroom.archive.not_finished", code=room_code))
        settings = self.listed[room_code]
        written = write_record(
            archive_folder(self.store.path),
            room_code,
            None if settings is None else settings.to_json(),
            self.store.rows(room_code),
        )
        self.store.remove_room(room_code)
        if room is not None:  # a page still open on it writes nothing more: its events would have no room
            room.write = self._archived(room_code)
            room.closed = ("classroom.archive.closed", {"code": room_code})
        for kept in (self.listed, self._awake, self._pupils, self._seen, self.damage):
            kept.pop(room_code, None)
        self._unnoted.discard(room_code)
        log.info("room %s archived to %s", room_code, written)
        return written

    def can_archive(self, room: AnyRoom) -> bool:
        """Whether ``room`` may be archived: finished (:func:`~.archive.is_finished`), or stopped at a damaged event."""
        return room.code in self.damage or is_finished(room)

    def _archived(self, code: str) -> Callable[[str, dict[str, Any]], object]:
        def write(kind: str, data: dict[str, Any]) -> int:
            raise ClassroomError(text("classroom.archive.gone", code=code))

        return write

    def tick(self) -> None:
        """Move the clocks of the Räuber Raupe tables, and see who is stuck in a lesson room (four times a second);
        only the rooms awake (a room asleep has no page open), then note them in the index.  While a room wakes
        (on another thread) the clock skips a tick rather than wait."""
        if not self._waking.acquire(blocking=False):
            return
        try:
            self._tick()
        finally:
            self._waking.release()

    def doze(self, now: float | None = None) -> list[str]:
        """Put back to sleep every room awake that nobody has followed and nothing has happened in for
        :attr:`sleep_after` seconds (the server's clock calls this); the codes that went to sleep.

        A room going to sleep writes what it holds unwritten (a lesson room's tables' steps), has its pupil
        count noted in the index, and is closed: an object of it still held somewhere refuses every event
        ("reload the page"), and the next need wakes a fresh one from the log.  A room stopped at a damaged
        event stays awake (its report is shown).
        """
        now = time.monotonic() if now is None else now
        slept = []
        for code, room in list(self._awake.items()):
            version, since = self._touched.get(code, (-1, now))
            if room.version != version or room.is_busy() or code in self.damage:
                self._touched[code] = (room.version, now)
                continue
            if now - since < self.sleep_after:
                continue
            with room.lock:
                if room.is_busy() or room.version != version:
                    continue
                if isinstance(room, LessonRoom):
                    room.write_steps()
                self._pupils[code] = len(room.counted())
                self._unnoted.add(code)
                self.note()  # the count while the room is still awake (a room asleep is noted as it was)
                room.closed, room.stale = ("classroom.msg.asleep", {}), True
                del self._awake[code]
                self._touched.pop(code, None)
            slept.append(code)
        if slept:
            log.info("%d rooms nobody used for %.0f s went back to sleep: %s", len(slept), self.sleep_after, slept)
            self.on_sleep()
        return slept

    def _tick(self) -> None:
        try:
            self.note()
        except Exception:  # the index is only a shortcut: the events are written, a later note catches up
            log.exception("the room index could not be noted")
        try:
            self.doze()
        except Exception:  # a room that cannot sleep stays awake
            log.exception("the rooms could not go back to sleep")
        for room in list(self._awake.values()):
            if (
                isinstance(room, RaupeRoom | LessonRoom) and room.code not in self.damage
            ):  # a stopped room's clock stands
                try:
                    room.tick()
                except Exception:  # one table's trouble must not stop the others' clocks
                    log.exception("room %s: the tables' clock failed", room.code)

    # -- the pupils ----------------------------------------------------------------------
    def join(self, code: object, nickname: object, *, client: str, secret: str | None = None) -> tuple[AnyRoom, Any]:
        """The room and the pupil for ``code`` and ``nickname``; at most a few tries a minute per client.

        ``secret`` is the page's: a new pupil's page will hold it, and a pupil
        already here is only ever given to a page that holds theirs (with
        ``nickname`` ``None``, the page asks for its sheet back by its secret
        alone).  Anything else raises :class:`~.identity.RejoinNeeded` (the
        teacher decides), :class:`~.identity.Removed`, or a one-line error.
        """
        if not self.limit.allow(client):
            if (said := self.limited.said(f"join limit reached for {client}")) is not None:
                log.warning("%s", said)
            raise ClassroomError(text("classroom.msg.slow_down"))
        room_code = parse_code(code)
        room = self.rooms.get(room_code)
        self._touched.pop(room_code, None)  # a page on its way to the room: it stays awake for it
        if nickname is None:
            ident = None if room is None or not is_secret(secret) else room.roster.by_secret(secret)
            if room is not None and ident is None and room.roster.is_removed(secret):
                raise Removed()
            if room is None or ident is None:
                raise ClassroomError(text("classroom.msg.not_known"))
            return room, room.pupils[ident]
        name = check_nickname(nickname)
        if room is None:
            log.info("join with unknown code %s from %s", room_code, client)
            raise ClassroomError(text("classroom.msg.no_room", code=room_code))
        try:
            return room, room.join(name, secret if is_secret(secret) else None)
        except RejoinNeeded as need:
            need.room = room
            raise
