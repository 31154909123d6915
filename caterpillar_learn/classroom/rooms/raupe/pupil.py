"""A pupil's seat at a Räuber Raupe table: the lessons' card table on the room's shared game.

:class:`SeatTable` is one seat at a
:class:`~caterpillar_learn.classroom.rooms.raupe.room.SharedTable`, read by the
lessons' views (:func:`~caterpillar_learn.ui.raupe.views.table_view`), and
:class:`SeatWidget` the lessons' Räuber Raupe widget around it.  A page acts only
through its seat, which holds one pupil: a message cannot play someone else's cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from caterpillar_learn.classroom import refusals
from caterpillar_learn.classroom.rooms.raupe.room import RaupePupil, RaupeRoom, SharedTable
from caterpillar_learn.i18n import text
from caterpillar_learn.raupe import Call, Mode, Play, parse_mode
from caterpillar_learn.raupe import Game as RaupeGame
from caterpillar_learn.ui.base import BadEventError, LearnWidget, handler, whole
from caterpillar_learn.ui.events import Dispatcher, Handler
from caterpillar_learn.ui.quiz import Quiz
from caterpillar_learn.ui.raupe import RaupeWidget, seat
from caterpillar_learn.ui.raupe.views import Seat, hand_view, table_view

__all__ = ["SeatTable", "SeatWidget"]

#: The events that need the table's game to run.
SEAT_IN_PLAY = ("play", "flip", "shout", "mistake")


class SeatTable(Dispatcher, seat.SeatRules):
    """One pupil's seat at a shared Räuber Raupe table, shaped for the lessons' views."""

    paused = False

    def __init__(self, room: RaupeRoom, pupil: RaupePupil) -> None:
        self.room = room
        self.pupil = pupil
        self.shared: SharedTable = room.table_of(pupil)
        self.setup = self.shared.setup
        self.human: int | None = pupil.seat
        self.speed = self.setup.speed
        self.level = self.setup.level
        self.tally = {"fits": 0, "slips": 0, "caught": 0, "right": 0, "wrong": 0, "missed": 0}
        self.faces = [0] * len(self.hand)
        self.armed_aphid = False
        self.armed_mode: Mode | None = None
        self.quiz = Quiz()  # the lessons' questions; a shared table asks none
        #: Why the page's last event was refused ("" if it was not).
        self.refusal = ""

    @property
    def message(self) -> str:
        """The line under the table: why an event was refused, else what just happened."""
        return self.refusal or (self.shared.lines[0] if self.shared.lines else "")

    @message.setter
    def message(self, line: str) -> None:
        self.refusal = line

    @property
    def game(self) -> RaupeGame:
        return self.shared.game

    @property
    def hand(self) -> tuple[Any, ...]:
        return tuple(self.shared.game.state.hands[self.pupil.seat])

    @property
    def started(self) -> bool:
        return self.shared.started

    #: A shared table asks no question (the lessons' quiz is not part of it).
    asking = False
    showing = False

    # What to do now and the lessons' steps: the lessons' own rules (seat.SeatRules), read on this seat.
    @property
    def waited(self) -> float:
        """No hint by time at a shared table: the teacher is in the room (the hand stays the thing to do)."""
        return 0.0

    @property
    def running(self) -> bool:
        return self.shared.running

    def record(self) -> dict[str, Any]:
        return self.game.to_json()

    def interim(self, event: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def handlers(self) -> dict[str, Handler]:
        """Each event a seat's page may send, and the method that applies it: the lessons' table events except
        the bots' speed and level, and pause (the table is shared)."""
        return {
            "start": self.on_start, "tick": self.on_tick, "play": self.on_play, "flip": self.on_flip,
            "shout": self.on_shout, "mistake": self.on_mistake,
        }  # fmt: skip

    def handle(self, event: Mapping[str, Any]) -> None:
        """Apply one of the seat's events through its handler (:meth:`handlers`); a bad one raises and changes
        nothing."""
        self.message = ""
        apply = handler(event, self.handlers())
        with self.room.lock:
            self.follow()
            if event["type"] in SEAT_IN_PLAY and not self.shared.running:
                raise BadEventError(self.why_not_running())
            apply(event)
            self.follow()

    def why_not_running(self) -> str:
        """Why a card cannot be played now, in words that agree with what Start says: not started yet (press
        Start), or over (a new game is a new room: the teacher's).

        >>> from caterpillar_learn.classroom.rooms.raupe.room import TableSettings
        >>> room = RaupeRoom("KX47PQ", TableSettings.build(seats=2, seed=4))
        >>> seat = SeatTable(room, room.join("Ada"))
        >>> seat.why_not_running()
        'Your table has not started yet: press Start.'
        """
        if self.shared.game.state.finished:
            return text("classroom.raupe.finished")
        return text("classroom.raupe.not_running")

    # -- the handlers, one per event -------------------------------------------------
    def on_start(self, event: Mapping[str, Any]) -> None:
        if self.shared.game.state.finished:
            raise BadEventError(text("classroom.raupe.finished"))
        if self.shared.started:
            raise BadEventError(text("classroom.raupe.already_started"))
        self.room.start(self.pupil.table)

    def on_tick(self, event: Mapping[str, Any]) -> None:
        self.shared.advance()

    def on_flip(self, event: Mapping[str, Any]) -> None:
        index = whole(event.get("index"), "card number", len(self.faces))
        self.faces[index] = 1 - self.faces[index] if self.hand[index].sides else 0

    def on_shout(self, event: Mapping[str, Any]) -> None:
        self.shout(event.get("word"))

    def on_mistake(self, event: Mapping[str, Any]) -> None:
        self.call()

    def on_play(self, event: Mapping[str, Any]) -> None:
        self.play(whole(event.get("index"), "card number", len(self.faces)))

    def follow(self) -> None:
        """Keep each hand card's face-up side when cards leave or arrive (penalties, plays)."""
        hand = self.hand
        if len(hand) != len(self.faces):
            self.faces = [0] * len(hand)

    def shout(self, word: object) -> None:
        if word == "aphid":
            self.armed_aphid = not self.armed_aphid
            return
        if word not in ("shape", "colour"):
            raise BadEventError(text("classroom.raupe.bad_shout"))
        mode = parse_mode(word)
        self.armed_mode = None if self.armed_mode is mode else mode

    def play(self, index: int) -> None:
        shared = self.shared
        shared.advance()
        seat = self.pupil.seat
        card = self.hand[index]
        side = self.faces[index] if card.sides else 0
        when = max(shared.now, shared.game.state.clock)
        shared.submit(Play(when, seat, card, side, self.armed_aphid, self.armed_mode))
        fits = not shared.game.state.last.mistakes if shared.game.state.last is not None else True
        self.tally["fits" if fits else "slips"] += 1
        self.armed_aphid = False
        self.armed_mode = None

    def call(self) -> None:
        shared = self.shared
        shared.advance()
        last = shared.game.state.last
        if last is None or last.player == self.pupil.seat:
            raise BadEventError(text("raupe_lessons.msg.nothing_to_call"))
        shared.submit(Call(max(shared.now, shared.game.state.clock), self.pupil.seat, ()))

    def views(self) -> dict[str, Any]:
        self.follow()
        seat = cast(Seat, self)  # the lessons' views read a seat as they read a lesson's table
        table: dict[str, Any] = dict(table_view(seat))
        # The server's clock drives a shared table: "running" tells the lessons' page to send its own ticks.
        table["running"] = False
        table["opponents"] = [
            {**opponent, "name": self.shared.name(int(opponent["seat"]))} for opponent in table["opponents"]
        ]
        table["winner"] = self.shared.winner_text()  # by nickname, not by seat number
        # The pupil's own place at the table, as the others and the table's lines number it (not the lesson's 1).
        table["hand_title"] = text("classroom.raupe.hand", player=self.pupil.seat + 1)
        return {"table": table, "hand": hand_view(seat), "log": list(self.shared.lines)}


class SeatWidget(RaupeWidget):
    """The lessons' Räuber Raupe widget at a pupil's seat of a shared table; refusals are logged."""

    def __init__(self, seat: SeatTable, *, lang: str | None = None) -> None:
        self.lesson = "classroom"
        LearnWidget.__init__(self, seat, lang=lang)  # type: ignore[misc]  # a seat is shaped like a RaupeTable

    def handle(self, event: object) -> None:
        seat = self.session
        assert isinstance(seat, SeatTable)
        refusals.handled(self, seat.room, seat.pupil.nickname, event, super().handle, lambda: seat.refusal)
