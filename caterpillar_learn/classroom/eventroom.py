"""What every room of the classroom is, whatever it plays: :class:`EventRoom`.

A Caterpillars room (:mod:`.rooms`), a Räuber Raupe room (:mod:`.tables`)
and a lesson room (:mod:`.lessonroom`) are each an event-sourced object:
its code, its events in the order they were applied (``log``, what the
store holds for it), a ``version`` that goes up with each, one lock, the
door (:class:`~caterpillar_learn.classroom.identity.Attendance`: who the
pupils are and who has arrived), and the pages that follow it.  The game
of each lives in its own module; this one holds no rule and knows nothing
of Bokeh: a page is any callable that is told which part changed.

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
from typing import Any

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.identity import Attendance, Roster, secret_hash
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

    def joining(self) -> dict[str, Any]:
        """What the room writes of a new pupil besides who they are (called under the lock): nothing here."""
        return {}

    # The door's events that every game applies alike (a game's ``apply`` hands them here).

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

    def followed(self) -> set[int]:
        """The parts (pupils, tables) that some page follows now."""
        return {part for part, _ in self._listeners.values() if part is not None}

    def notify(self, part: int | None) -> None:
        """Tell the pages: every page after a room-wide change, the part's and the room-wide ones after a part's."""
        for wanted, listener in list(self._listeners.values()):
            if part is None or wanted is None or wanted == part:
                try:
                    listener(part)
                except Exception:  # a broken page must not break the room
                    log.exception("room %s: a page's listener failed", self.code)
