"""What every room of the classroom is, whatever it plays: :class:`EventRoom`.

A Caterpillars room (:mod:`.rooms`), a Räuber Raupe room (:mod:`.tables`)
and a lesson room (:mod:`.lessonroom`) are each an event-sourced object:
its code, its events in the order they were applied (``log``, what the
store holds for it), a ``version`` that goes up with each, one lock, the
door (:class:`~caterpillar_learn.classroom.identity.Attendance`: who the
pupils are and who has arrived), and the pages that follow it.  The game
of each lives in its own module; this one holds no rule and knows nothing
of Bokeh: a page is any callable that is told which part changed.

Every event reaches the log through one door, :meth:`EventRoom.record`,
which keeps the rule of the product: **an event that is refused, or that
changes nothing, is not written.**  A room says which events would change
nothing (:meth:`EventRoom.changes_nothing`: the same setting again, a page's
tick); the events whose refusal only the pupil's own controller knows (a
lesson's tap, :attr:`EventRoom.TRIED`) are tried on the room first, and
written only once the room took them; every other event is checked before it
is written and applied after.  A room that is closed (archived, stopped at a
damaged event, or whose last write failed) refuses every event in its line.

>>> from dataclasses import dataclass
>>> @dataclass
... class Room(EventRoom):
...     pass
>>> room = Room("KX47PQ")
>>> seen = []
>>> ada = room.subscribe(lambda part: seen.append(("ada", part)), 1)
>>> room.subscribe(lambda part: seen.append(("console", part))) and None
>>> room.notify(2)  # pupil 2's change: the console follows every part, Ada's page only hers
>>> room.notify(None)  # a change of the whole room: every page
>>> seen
[('console', 2), ('ada', None), ('console', None)]
>>> room.unsubscribe(ada); room.followed()
set()
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.identity import Attendance, Roster, secret_hash
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.ui.caterpillars.advice import HERE, Helper

__all__ = ["EventRoom", "Listener"]

log = logging.getLogger("caterpillar_learn.classroom")

#: A page following a room: called with the part that changed (a pupil, a table), ``None`` for the whole room.
Listener = Callable[[int | None], None]


#: The most pupils a room holds (a class and a half).
MAX_PUPILS = 60


@dataclass
class EventRoom(Attendance):
    """A room of either game as its log and its pages see it (subclasses add their settings and game)."""

    code: str
    version: int = field(init=False, default=0)
    #: Every event applied, in order (what the store holds for this room).
    log: list[tuple[str, dict[str, Any]]] = field(init=False, default_factory=list, repr=False)
    lock: threading.RLock = field(init=False, default_factory=threading.RLock, repr=False)
    #: Who the pupils are (reading keys, secrets), which pages have connected, who waits at the door.
    roster: Roster = field(init=False, default_factory=Roster, repr=False)
    _listeners: dict[int, tuple[int | None, Listener]] = field(init=False, default_factory=dict, repr=False)
    _tokens: itertools.count[int] = field(init=False, default_factory=itertools.count, repr=False)
    #: Where the helper's answers for this room are worked out: here (a test, a replay) until the server
    #: hands the room its worker processes (:meth:`work_in`).
    helper: Helper = field(init=False, default=HERE, repr=False)
    #: Writes one event and commits it (the lobby's store); ``None`` while the log is replayed.
    write: Callable[[str, dict[str, Any]], object] | None = field(default=None, kw_only=True, repr=False)
    #: Why the room takes no new event (a message's key and values; ``None`` while it takes them): archived,
    #: stopped at a damaged event, or its last write failed (then :attr:`stale` too: the lobby replays it from
    #: the file the next time it is needed).
    closed: tuple[str, dict[str, Any]] | None = field(init=False, default=None, repr=False)
    stale: bool = field(init=False, default=False, repr=False)
    #: The events tried on the room before they are written: only the room's applying them tells whether they
    #: are refused (a refused one raises and changes nothing).
    TRIED: ClassVar[tuple[str, ...]] = ()

    def work_in(self, helper: Helper) -> None:
        """Work the helper's answers out with ``helper`` from now on (the server's
        :class:`~caterpillar_learn.ui.caterpillars.advice.PooledHelper`)."""
        self.helper = helper

    def join(self, nickname: str, secret: str | None = None) -> Any:
        """The pupil whose page holds ``secret``, or a new pupil ``nickname`` whose page will hold it.

        A nickname that reads as a pupil's already (any case, width or
        look-alike letter) without that pupil's secret raises
        :class:`~.identity.RejoinNeeded`: the teacher decides (:meth:`ask`).
        A room holds at most :data:`MAX_PUPILS`; what else a game writes of
        a new pupil (a seat, the time) is its :meth:`joining`.
        """
        with self.lock:
            known = self.roster.admit(nickname, secret)
            if known is not None:
                return self.pupils[known]
            if len(self.pupils) >= MAX_PUPILS:
                raise ClassroomError(text("classroom.msg.room_full", count=MAX_PUPILS))
            ident = self.roster.next_id
            data: dict[str, Any] = {"pupil": ident, "nickname": nickname, **self.joining()}
            if secret is not None:
                data["secret_hash"] = secret_hash(secret)
            self.record("pupil_joined", data)
            return self.pupils[ident]

    def record(self, kind: str, data: dict[str, Any]) -> bool:
        """The one door to the log: write ``kind`` (committed), apply it, tell the pages; whether it was written.

        Nothing is written for an event the room refuses (it raises, in one
        line) or one that :meth:`changes_nothing`.  An event of :attr:`TRIED`
        is applied first and written once the room took it; should that
        write fail, the room is closed (:attr:`stale`) rather than left ahead
        of its file.
        """
        with self.lock:
            if self.closed is not None:
                raise ClassroomError(self.closed_line())
            if self.changes_nothing(kind, data):
                return False
            if kind in self.TRIED:
                self.trial(kind, data)
                try:
                    self.before_write()
                    if self.write is not None:
                        self.write(kind, data)
                except BaseException:
                    self.closed, self.stale = ("classroom.msg.write_failed", {}), True
                    log.exception("room %s: an event tried could not be written; the room is closed", self.code)
                    raise
                self.log.append((kind, dict(data)))  # after what :meth:`before_write` wrote, as in the file
                self.version += 1
            else:
                self.before_write()
                if self.write is not None:
                    self.write(kind, data)
                self.apply(kind, data)
            self.notify(self.part_of(kind, data))
        return True

    def closed_line(self) -> str:
        """Why the room takes nothing new, in the current language (the page's); "" while it takes events.

        >>> room = EventRoom("KX47PQ")
        >>> room.closed_line()
        ''
        >>> room.closed = ("classroom.archive.closed", {"code": "KX47PQ"}); room.closed_line()[:41]
        'Your teacher has archived room KX47PQ: it'
        """
        if self.closed is None:
            return ""
        key, values = self.closed
        return text(key, **values)

    #: What the room is called in the line that refuses an event it does not know.
    EVENT_WORDS: ClassVar[str] = "an event of this room"

    def appliers(self) -> Mapping[str, Callable[[Mapping[str, Any]], None]]:
        """Each event of this room's log and the method that applies it: bound methods, not their names, so a
        type checker sees a handler renamed or gone.  Every game adds its own to the door's four."""
        return {
            "pupil_joined": self._on_joined,
            "pupil_removed": self._on_removed,
            "pupil_let_in": self._on_let_in,
            "pupil_renamed": self._on_renamed,
        }

    def apply(self, kind: str, data: Mapping[str, Any]) -> None:
        """Apply one event of the log (live, or replayed after a restart) through its handler
        (:meth:`appliers`); an event the room does not know is refused in one line."""
        handler = self.appliers().get(kind)
        if handler is None:
            raise ClassroomError(describe("event", kind, self.EVENT_WORDS))
        handler(data)
        self.log.append((kind, dict(data)))
        self.version += 1

    def trial(self, kind: str, data: Mapping[str, Any]) -> None:
        """Apply an event of :attr:`TRIED` live, but do not add it to :attr:`log` yet (:meth:`record` does, once
        it is written): a refusal raises and changes nothing.  Only a room with :attr:`TRIED` events has one."""
        raise NotImplementedError

    def changes_nothing(self, kind: str, data: Mapping[str, Any]) -> bool:
        """Whether ``kind`` with ``data`` would change nothing (then it is not written): nothing here."""
        return False

    def before_write(self) -> None:
        """What the room writes before its next event (a lesson room: its tables' steps): nothing here."""

    def part_of(self, kind: str, data: Mapping[str, Any]) -> int | None:
        """The part whose pages an event changes (a pupil, a table), ``None`` for the whole room."""
        return None

    def joining(self) -> dict[str, Any]:
        """What the room writes of a new pupil besides who they are (called under the lock): nothing here."""
        return {}

    # The door's events that every game applies alike (in every room's :meth:`appliers`).

    def _on_joined(self, data: Mapping[str, Any]) -> None:
        """``pupil_joined``: a new pupil number, a free name (the roster), then the game's own pupil."""
        ident, nickname = int(data["pupil"]), str(data["nickname"])
        if ident in self.pupils:
            raise ClassroomError(describe("pupil", ident, "a new pupil number"))
        self.check_joining(data)
        self.roster.add(ident, nickname, data.get("secret_hash"))
        pupils: dict[int, Any] = self.pupils  # type: ignore[assignment]  # each game's own dict of its pupils
        pupils[ident] = self.seated(ident, nickname, data)

    def check_joining(self, data: Mapping[str, Any]) -> None:
        """Refuse, in one line, a ``pupil_joined`` the game cannot seat (before anything changes): none here."""

    def seated(self, ident: int, nickname: str, data: Mapping[str, Any]) -> Any:
        """The game's pupil ``ident`` of a ``pupil_joined`` (checked already by :meth:`check_joining`)."""
        raise NotImplementedError

    def _on_removed(self, data: Mapping[str, Any]) -> None:
        """``pupil_removed``: the teacher took a pupil out; the game forgets what else it held of them."""
        ident = self._pupil_id(data["pupil"])
        pupils: dict[int, Any] = self.pupils  # type: ignore[assignment]
        gone = pupils.pop(ident)
        self.roster.remove(ident, gone.nickname)
        self.unseated(ident, gone)

    def unseated(self, ident: int, gone: Any) -> None:
        """What the game forgets of a pupil taken out besides the pupil (a review, a seat): nothing here."""

    def _on_let_in(self, data: Mapping[str, Any]) -> None:
        """``pupil_let_in``: the teacher let another page be that pupil (with the secret it now holds)."""
        self.roster.let_in(self._pupil_id(data["pupil"]), str(data["secret_hash"]))

    def _on_renamed(self, data: Mapping[str, Any]) -> None:
        """``pupil_renamed``: the teacher renamed a pupil."""
        ident = self._pupil_id(data["pupil"])
        nickname = str(data["nickname"])
        self.roster.rename(ident, self.pupils[ident].nickname, nickname)
        self.pupils[ident].nickname = nickname

    def subscribe(self, listener: Listener, part: int | None = None) -> int:
        """Call ``listener(changed)`` after each change (only the room's and ``part``'s, if given); returns a token."""
        token = next(self._tokens)
        self._listeners[token] = (part, listener)
        return token

    def unsubscribe(self, token: int) -> None:
        self._listeners.pop(token, None)

    def is_busy(self) -> bool:
        """Whether the room must stay awake: a page or the console follows it, or a page waits at the door."""
        return bool(self._listeners) or bool(self.roster.requests)

    def followed(self) -> set[int]:
        """The parts (pupils, tables) that some page follows now."""
        return {part for part, _ in self._listeners.values() if part is not None}

    def notify(self, part: int | None, *, alone: bool = False) -> None:
        """Tell the pages: every page after a room-wide change, the part's and the room-wide ones after a part's
        (only the part's own, ``alone``, after a change no room-wide page shows)."""
        for wanted, listener in list(self._listeners.values()):
            if part is None or wanted == part or (wanted is None and not alone):
                try:
                    listener(part)
                except Exception:  # a broken page must not break the room
                    log.exception("room %s: a page's listener failed", self.code)
