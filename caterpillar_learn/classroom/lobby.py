"""Every room of one classroom server: created, joined, and rebuilt from the log at a restart.

The :class:`Lobby` owns the :class:`~caterpillar_learn.classroom.store.EventStore`.
Opening it replays the whole log, room by room, through the rooms' own
``apply`` (the same code that applied each event live), then hands each
room the writer that commits its next events.  A line that cannot be
replayed is logged and skipped: one damaged event never keeps a class out.

Joining goes through the lobby: the client's join limit first
(:class:`~caterpillar_learn.classroom.codes.JoinLimit`), then the code and
the nickname are read, and the room gives the pupil their sheet (a new one,
or theirs again for the same nickname).

>>> lobby = Lobby(EventStore(":memory:"))
>>> from caterpillar_learn.classroom.rooms import RoomSettings
>>> room = lobby.create(RoomSettings.build("beginner", dice="typed"))
>>> same, ada = lobby.join(room.code.lower(), "Ada", client="10.0.0.7")
>>> same is room, ada.nickname, Lobby(lobby.store).rooms[room.code].pupils[1].nickname
(True, 'Ada', 'Ada')
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from caterpillar_learn.classroom.codes import ClassroomError, JoinLimit, new_code, new_token, parse_code, parse_nickname
from caterpillar_learn.classroom.rooms import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.classroom.tables import RaupeRoom, TableSettings
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text

__all__ = ["Lobby", "Room"]

log = logging.getLogger("caterpillar_learn.classroom")

TOKEN_KEY = "teacher_token"


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


class Lobby:
    """The rooms of one server, their store, the teacher's token and the join limit."""

    def __init__(self, store: EventStore, *, limit: JoinLimit | None = None) -> None:
        self.store = store
        self.limit = limit if limit is not None else JoinLimit()
        self.rooms: dict[str, CaterpillarsRoom | RaupeRoom] = {}
        token = store.get_meta(TOKEN_KEY)
        if token is None:
            token = new_token()
            store.set_meta(TOKEN_KEY, token)
        #: The secret in the teacher's address; kept in the store, so the address survives a restart.
        self.token = token
        self.replay()

    @classmethod
    def open(cls, folder: str | Path, **kwargs: Any) -> Lobby:
        """The lobby of a ``--data`` folder: every room in it, as it was."""
        return cls(EventStore.in_folder(folder), **kwargs)

    def is_teacher(self, token: object) -> bool:
        """Whether ``token`` is the teacher's (compared in constant time)."""
        return isinstance(token, str) and secrets.compare_digest(token.encode(), self.token.encode())

    # -- the log ---------------------------------------------------------------------
    def replay(self) -> None:
        """Build every room from the log (each event through the room's own ``apply``)."""
        self.rooms = {}
        skipped = 0
        for event in self.store.events():
            try:
                if event.kind == "room_created":
                    self.rooms[event.room] = self._room(event.room, event.data)
                    continue
                room = self.rooms.get(event.room)
                if room is None:
                    raise ClassroomError(describe("room", event.room, "a room created earlier in the log"))
                room.apply(event.kind, event.data)
            except Exception:  # a damaged line is logged and skipped; the room goes on
                skipped += 1
                log.exception("event %d (%s, room %s) could not be replayed; skipped", event.id, event.kind, event.room)
        for room in self.rooms.values():
            room.write = self._writer(room.code)
        if self.rooms:
            log.info("replayed %d rooms (%d events skipped)", len(self.rooms), skipped)

    def _room(self, code: str, data: Mapping[str, Any]) -> CaterpillarsRoom | RaupeRoom:
        if data.get("game") == "raupe":
            return RaupeRoom(code, TableSettings.from_json(data))
        return CaterpillarsRoom(code, RoomSettings.from_json(data))

    def _writer(self, code: str) -> Callable[[str, dict[str, Any]], object]:
        def write(kind: str, data: dict[str, Any]) -> int:
            return self.store.append(code, kind, data)

        return write

    # -- the teacher -------------------------------------------------------------------
    def create(self, settings: RoomSettings | TableSettings) -> CaterpillarsRoom | RaupeRoom:
        """A new room with a fresh code; its ``room_created`` event is committed first."""
        code = new_code(self.rooms)
        self.store.append(code, "room_created", settings.to_json())
        room: CaterpillarsRoom | RaupeRoom
        if isinstance(settings, TableSettings):
            room = RaupeRoom(code, settings, write=self._writer(code))
        else:
            room = CaterpillarsRoom(code, settings, write=self._writer(code))
        self.rooms[code] = room
        log.info("room %s created (%s)", code, room.game_name)
        return room

    def tick(self) -> None:
        """Move the clocks of the Räuber Raupe tables (the server calls this four times a second)."""
        for room in list(self.rooms.values()):
            if isinstance(room, RaupeRoom):
                try:
                    room.tick()
                except Exception:  # one table's trouble must not stop the others' clocks
                    log.exception("room %s: the tables' clock failed", room.code)

    # -- the pupils ----------------------------------------------------------------------
    def join(self, code: object, nickname: object, *, client: str) -> tuple[CaterpillarsRoom | RaupeRoom, Any]:
        """The room and the pupil for ``code`` and ``nickname``; at most a few tries a minute per client."""
        if not self.limit.allow(client):
            log.warning("join limit reached for %s", client)
            raise ClassroomError(text("classroom.msg.slow_down"))
        room_code = parse_code(code)
        name = parse_nickname(nickname)
        room = self.rooms.get(room_code)
        if room is None:
            log.info("join with unknown code %s from %s", room_code, client)
            raise ClassroomError(text("classroom.msg.no_room", code=room_code))
        return room, room.join(name)
