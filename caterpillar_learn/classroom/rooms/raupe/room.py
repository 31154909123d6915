"""Räuber Raupe tables: two to four pupils at one table in real time, bots in the empty seats.

A :class:`RaupeRoom` seats pupils in the order they join, a table at a
time.  A table starts when one of its pupils presses Start (or the teacher
starts every table); its empty seats are then played by bots.  The game is
the engine's :class:`~caterpillar_learn.raupe.Game`, judged by the same
referee as in the lessons, with the same calls and penalties.

Every event at a table (a pupil's card, a call, a bot's move, the close) is
checked by the referee (:func:`~caterpillar_learn.raupe.apply`, which
changes nothing), written to the room's log and committed, and only then
applied; a call's cut is drawn before it is written, so the log holds every
chance outcome and a restart replays each table exactly.

Time is the server's: four times a second the server moves the clock of
every table that has a page open (:meth:`RaupeRoom.tick`) by the real
seconds since it last moved (at most one second), scaled by the room's
speed, and applies the bot events that are due.  The pages send no ticks (a
page could send them faster than time passes), and a table whose pages are
all closed waits for its players.

>>> room = RaupeRoom("KX47PQ", TableSettings.build(seats=2, seed=4))
>>> ada, ben = room.join("Ada"), room.join("Ben")
>>> (ada.table, ada.seat), (ben.table, ben.seat)
((0, 0), (0, 1))
>>> room.start(0); room.tables[0].started
True
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.eventroom import EventRoom
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import TableSetup
from caterpillar_learn.raupe import (
    LEVELS,
    Call,
    Event,
    Game,
    IllegalEventError,
    Play,
    apply,
    draw_cuts,
    event_from_json,
    event_to_json,
    next_table_event,
    outcome,
)
from caterpillar_learn.raupe.hints import describe_side, penalty_text

__all__ = ["MAX_TICK", "RaupePupil", "RaupeRoom", "SharedTable", "TableSettings"]

log = logging.getLogger("caterpillar_learn.classroom")

#: Longest stretch of real time one tick may add.
MAX_TICK = 1.0
#: Bot events applied at most per tick.
MAX_EVENTS_PER_TICK = 20
LOG_LINES = 6


@dataclass(frozen=True)
class TableSettings:
    """What the teacher chose for a Räuber Raupe room (its ``room_created`` event)."""

    seats: int
    bots: str
    hints: bool
    speed: float
    #: Caterpillar cards of the deck (a short deck keeps a game to a few minutes); 0 = the whole deck.
    cards: int
    seed: int

    @classmethod
    def build(
        cls,
        seats: object = 2,
        bots: object = "beginner",
        *,
        hints: object = True,
        speed: object = 1.0,
        cards: object = 25,
        seed: int | None = None,
    ) -> TableSettings:
        if isinstance(seats, bool) or seats not in (2, 3, 4):
            raise ClassroomError(describe("seats", seats, "2, 3 or 4 players a table"))
        if bots not in LEVELS:
            raise ClassroomError(describe("bots", bots, "one of " + ", ".join(LEVELS)))
        if not isinstance(hints, bool):
            raise ClassroomError(describe("hints", hints, "true or false"))
        if isinstance(speed, bool) or not isinstance(speed, int | float) or not 0.25 <= speed <= 2.5:
            raise ClassroomError(describe("speed", speed, "a number from 0.25 to 2.5"))
        if isinstance(cards, bool) or not isinstance(cards, int) or not (cards == 0 or 8 <= cards <= 73):
            raise ClassroomError(describe("cards", cards, "0 (every card) or 8 to 73 caterpillar cards"))
        drawn = random.SystemRandom().randrange(2**32) if seed is None else seed
        return cls(int(seats), str(bots), hints, float(speed), cards, drawn)

    def setup(self) -> TableSetup:
        """The lessons' description of such a table (deck, bots' level, what the screen helps with)."""
        return TableSetup(
            players=self.seats,
            level=self.bots,
            speed=self.speed,
            caterpillar_cards=self.cards,
            show_fits=self.hints,
            hints=self.hints,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "raupe",
            "seats": self.seats,
            "bots": self.bots,
            "hints": self.hints,
            "speed": self.speed,
            "cards": self.cards,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSettings:
        return cls.build(
            data["seats"],
            data["bots"],
            hints=data["hints"],
            speed=data["speed"],
            cards=data["cards"],
            seed=data["seed"],
        )


@dataclass
class RaupePupil:
    """A pupil of a Räuber Raupe room: where they sit."""

    id: int
    nickname: str
    table: int
    seat: int


class SharedTable:
    """One table's game, its clock, its bots and what happened lately."""

    def __init__(self, room: RaupeRoom, index: int) -> None:
        self.room = room
        self.index = index
        self.setup = room.settings.setup()
        self.seats: list[int | None] = [None] * room.settings.seats  # pupil ids; None = a bot once started
        seed = (room.settings.seed * 101 + index) % 2**64
        self.game = Game(self.setup.players, seed, deck=self.setup.deck())
        self.started = False
        self.bot_rng = random.Random(seed * 1_000_003 + 17)
        self.cut_rng = random.Random(seed * 7919 + 3)
        self.pending: Event | None = None
        self.moved = 0.0  # monotonic seconds when the clock last moved
        self.now = 0.0
        self.lines: list[str] = []

    # -- who sits here --------------------------------------------------------------
    def name(self, seat: int) -> str:
        pupil = self.seats[seat]
        if pupil is None or pupil not in self.room.pupils:
            return text("raupe_lessons.ui.bot", player=seat + 1)
        return text("classroom.raupe.player", player=seat + 1, nickname=self.room.pupils[pupil].nickname)

    def winner_text(self) -> str:
        """Who won, by nickname (a bot by its seat); ``""`` while the game goes on."""
        result = outcome(self.game.state)
        if result is None:
            return ""
        names = []
        for seat in result.winners:
            pupil = self.seats[seat]
            seated = None if pupil is None else self.room.pupils.get(pupil)
            names.append(text("raupe_lessons.ui.bot", player=seat + 1) if seated is None else seated.nickname)
        if len(names) == 1:
            key = "classroom.raupe.stalemate_one" if result.stalemate else "classroom.raupe.wins"
            return text(key, name=names[0])
        joined = text("raupe.end.and").join([", ".join(names[:-1]), names[-1]])
        return text("classroom.raupe.stalemate_many", names=joined)

    @property
    def levels(self) -> list[Any]:
        bot = self.setup.bot_level(self.setup.level)
        return [None if pupil is not None else bot for pupil in self.seats]

    @property
    def running(self) -> bool:
        return self.started and not self.game.state.finished

    def say(self, line: str) -> None:
        self.lines = [line, *self.lines][:LOG_LINES]

    # -- the clock and the bots -------------------------------------------------------
    def plan(self) -> None:
        state = self.game.state
        self.pending = (
            None if state.finished or not self.started else next_table_event(state, self.levels, self.bot_rng)
        )

    def advance(self, clock: Callable[[], float] = time.monotonic) -> None:
        """Move the table's clock to now (at most :data:`MAX_TICK` at once) and let the due bots act."""
        if not self.running:
            return
        real = clock()
        elapsed = min(max(real - self.moved, 0.0), MAX_TICK) if self.moved else 0.0
        self.moved = real
        self.now = max(self.now, round(self.now + elapsed * self.setup.speed, 3), self.game.state.clock)
        if self.pending is None:
            self.plan()
        for _ in range(MAX_EVENTS_PER_TICK):
            due = self.pending
            if due is None or due.time > self.now:
                return
            self.submit(due)

    # -- events -------------------------------------------------------------------------
    def submit(self, event: Event) -> None:
        """Check ``event`` with the referee, log it (committed), then apply it and tell the pages."""
        state = self.game.state
        if isinstance(event, Call) and not event.cuts and state.last is not None:
            event = replace(event, cuts=draw_cuts(state.pile, self.cut_rng))
        try:
            apply(state, event)  # the referee's check; changes nothing
        except IllegalEventError as error:
            raise ClassroomError(str(error)) from None
        self.room.record("table_event", {"table": self.index, "event": event_to_json(event)})

    def apply_event(self, event: Event) -> None:
        """Apply a logged event (live or replayed) and tell what happened."""
        self.game.submit(event)
        state = self.game.state
        if isinstance(event, Play):
            card = event.card
            words = text("raupe_lessons.card.butterfly") if card.is_butterfly else describe_side(card.sides[event.side])
            self.say(text("classroom.raupe.played", name=self.name(event.player), words=words))
        elif isinstance(event, Call):
            assert state.penalty is not None
            self.say(penalty_text(state.penalty))
        else:
            self.say(self.winner_text())
        self.now = max(self.now, state.clock)
        self.plan()


@dataclass
class RaupeRoom(EventRoom):
    """A Räuber Raupe room: its pupils, their tables and the log."""

    settings: TableSettings
    game_name: str = field(init=False, default="raupe")
    pupils: dict[int, RaupePupil] = field(init=False, default_factory=dict)
    tables: list[SharedTable] = field(init=False, default_factory=list)

    @property
    def hints(self) -> bool:
        return self.settings.hints

    def pupil_named(self, nickname: str) -> RaupePupil | None:
        """The pupil whose nickname reads as ``nickname`` (:func:`~.identity.nickname_key`)."""
        ident = self.roster.named(nickname)
        return None if ident is None else self.pupils[ident]

    def counted(self) -> list[RaupePupil]:
        """The pupils whose page has connected (a ghost is not shown)."""
        return [pupil for pupil in self.pupils.values() if pupil.id in self.roster.seen]

    def table_of(self, pupil: RaupePupil) -> SharedTable:
        return self.tables[pupil.table]

    # -- what happens ------------------------------------------------------------------
    def joining(self) -> dict[str, Any]:
        """A new pupil's seat: the first free seat of a table not started, or a new table."""
        table = next((t.index for t in self.tables if not t.started and None in t.seats), len(self.tables))
        seat = 0 if table == len(self.tables) else self.tables[table].seats.index(None)
        return {"table": table, "seat": seat}

    def start(self, table: int) -> None:
        """Start a table: its empty seats become bots and the clock runs."""
        with self.lock:
            if not 0 <= table < len(self.tables):
                raise ClassroomError(describe("table", table, f"a table from 1 to {len(self.tables)}"))
            self.record("table_started", {"table": table})

    def start_all(self) -> None:
        with self.lock:
            for table in self.tables:
                self.start(table.index)

    def tick(self, clock: Callable[[], float] = time.monotonic) -> None:
        """Move the clock of every running table that a pupil's page follows (the server calls this)."""
        with self.lock:
            followed = self.followed()
            for table in self.tables:
                if table.running and table.index in followed:
                    table.advance(clock)
                elif table.running:
                    table.moved = 0.0  # nobody is watching: the next tick after a page opens adds no time

    def changes_nothing(self, kind: str, data: Mapping[str, Any]) -> bool:
        """A table started again changes nothing (see :meth:`EventRoom.record`).

        >>> room = RaupeRoom("KX47PQ", TableSettings.build(seats=2, seed=4))
        >>> _ = room.join("Ada"); room.start(0); room.start_all()
        >>> [kind for kind, _ in room.log]
        ['pupil_joined', 'table_started']
        """
        return kind == "table_started" and self.tables[int(data["table"])].started

    def part_of(self, kind: str, data: Mapping[str, Any]) -> int | None:
        """A table's event changes its table's pages (and the teacher's); a new pupil shows on the console too."""
        table = data.get("table") if kind != "pupil_joined" else None
        return table if isinstance(table, int) else None

    EVENT_WORDS = "an event of a Räuber Raupe room"

    def appliers(self) -> Mapping[str, Callable[[Mapping[str, Any]], None]]:
        """Each event of a Räuber Raupe room's log and its handler (the referee judges every table event)."""
        return {
            **super().appliers(),
            "table_started": self._on_started,
            "table_event": self._on_table_event,
        }

    def check_joining(self, data: Mapping[str, Any]) -> None:
        table, seat = int(data["table"]), int(data["seat"])
        if not 0 <= table <= len(self.tables) or not 0 <= seat < self.settings.seats:
            raise ClassroomError(describe("seat", [table, seat], "a seat at a table of the room or the next one"))
        shared = self.tables[table] if table < len(self.tables) else None
        if shared is not None and (shared.started or shared.seats[seat] is not None):
            raise ClassroomError(describe("seat", [table, seat], "a free seat at a table not started"))

    def seated(self, ident: int, nickname: str, data: Mapping[str, Any]) -> RaupePupil:
        table, seat = int(data["table"]), int(data["seat"])
        if table == len(self.tables):
            self.tables.append(SharedTable(self, table))
        self.tables[table].seats[seat] = ident
        return RaupePupil(ident, nickname, table, seat)

    def unseated(self, ident: int, gone: Any) -> None:
        shared = self.tables[gone.table]
        shared.seats[gone.seat] = None  # a bot's seat once the table plays; free again before
        shared.plan()

    def _on_started(self, data: Mapping[str, Any]) -> None:
        shared = self.tables[int(data["table"])]
        shared.started = True
        shared.moved = 0.0
        shared.say(text("classroom.raupe.started", mode=text(f"raupe.mode.{shared.game.state.mode.word}")))
        shared.plan()

    def _on_table_event(self, data: Mapping[str, Any]) -> None:
        shared = self.tables[int(data["table"])]
        event = event_from_json(data["event"])
        shared.apply_event(event)
        player = event.player if isinstance(event, Play) else event.caller if isinstance(event, Call) else None
        who = None if player is None else shared.seats[player]
        if who is not None:
            self.roster.seen.add(who)  # a pupil who played had a page (also after a restart)
