"""What a pupil's page runs: the lessons' widgets on the room's game.

* Caterpillars: :class:`RoomSession` is the lessons'
  :class:`~caterpillar_learn.ui.caterpillars.controller.Session` on the
  pupil's :class:`~caterpillar_learn.classroom.rooms.RoomGame`: the same
  sheet, legal moves, menus, why-not explanations and hints (when the
  teacher allows them), but the dice are the room's (there is nothing to
  roll: they appear when the teacher rolls) and there is no new game.
  :class:`ClassroomBoard` is the lessons' board widget (same ES module)
  around it.
* Räuber Raupe: :class:`SeatTable` is one seat at a
  :class:`~caterpillar_learn.classroom.tables.SharedTable`, read by the
  lessons' views (:func:`~caterpillar_learn.ui.raupe.views.table_view`), and
  :class:`SeatWidget` the lessons' Räuber Raupe widget around it.

A page acts only through these controllers, which hold one pupil and no
way to name another: a message cannot reach someone else's sheet.  Every
refusal is logged (logger ``caterpillar_learn.classroom``) and shown as one
line; the room goes on.

>>> from caterpillar_learn.classroom.rooms import CaterpillarsRoom, RoomSettings
>>> room = CaterpillarsRoom("KX47PQ", RoomSettings.build("beginner", dice="typed", hints=False))
>>> board = ClassroomBoard(RoomSession(room, room.join("Ada")))
>>> board.act("roll"); board.message
'Wait for your teacher to roll the dice.'
>>> _ = room.roll("3 5"); board.refresh()
>>> board.dice["values"], len(board.legal) > 0
([3, 5], True)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, cast

from caterpillar_learn.classroom.rooms import CaterpillarsRoom, Pupil
from caterpillar_learn.classroom.tables import RaupePupil, RaupeRoom, SharedTable
from caterpillar_learn.i18n import text
from caterpillar_learn.raupe import Call, Game, Mode, Play, parse_mode
from caterpillar_learn.ui.base import BadEventError, LearnWidget, whole
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard
from caterpillar_learn.ui.caterpillars.controller import EVENTS as BOARD_EVENTS
from caterpillar_learn.ui.caterpillars.controller import Session
from caterpillar_learn.ui.caterpillars.views import dice_view
from caterpillar_learn.ui.quiz import Quiz
from caterpillar_learn.ui.raupe import RaupeWidget
from caterpillar_learn.ui.raupe.views import Seat, hand_view, table_view

__all__ = ["SEAT_EVENTS", "ClassroomBoard", "RoomSession", "SeatTable", "SeatWidget"]

log = logging.getLogger("caterpillar_learn.classroom")

#: A pupil's board takes the lessons' events except ``new_game`` (the teacher starts games).
PUPIL_EVENTS = tuple(kind for kind in BOARD_EVENTS if kind != "new_game")
#: Events that ask the hint generator: only while the teacher allows hints.
ADVICE_EVENTS = ("hint", "whatif")
#: A seat takes the lessons' table events except the bots' speed and level, and pause (the table is shared).
SEAT_EVENTS = ("start", "tick", "play", "flip", "shout", "mistake")


class RoomSession(Session):
    """One page of one pupil in a Caterpillars room (two pages of the same pupil share the game)."""

    def __init__(self, room: CaterpillarsRoom, pupil: Pupil) -> None:
        self.room = room
        self.pupil = pupil
        self.seen_turn = -1
        settings = room.settings
        super().__init__(settings.level.value, 0, settings.labels, settings.variation, auto_setup=False)
        self.events = PUPIL_EVENTS

    def start(self, seed: int) -> None:
        """Show the pupil's game (never a new one: the room's log holds it)."""
        self.seed = seed
        self.game = self.pupil.game
        self.explanation = ""
        self.advice_review = None
        self.follow()

    def _layout_known(self) -> None:
        if self.room.hints:  # the solve is only worth its time when the class may ask for hints
            super()._layout_known()

    def follow(self) -> None:
        """Catch up with the room: a new turn clears the screen, and dice already rolled show at once."""
        game = self.game
        turn = len(game.history)
        if turn != self.seen_turn:
            self.seen_turn = turn
            self.revealed = False
            self.pending, self.pieces = {}, []
            self.selected_die = None
            self.menu_slot = None
            self.hint = {}
        if not self.revealed and game.has_roll:
            self.revealed = True
            self.roll_count += 1
        self._layout_known()

    def handle(self, event: Mapping[str, Any]) -> None:
        self.follow()
        kind = event["type"]
        if kind in ADVICE_EVENTS and not self.room.hints:
            self.message = ""
            raise BadEventError(text("classroom.msg.hints_off"))
        if kind == "review" and self.game.phase == "over":
            self.message = ""
            self.advice_review = self.room.review(self.pupil)
            return
        super().handle(event)
        self.follow()

    def roll(self) -> None:
        """The dice come from the teacher: they are shown as soon as they are rolled."""
        if self.game.phase == "over":
            raise BadEventError(text("classroom.msg.over"))
        if not self.game.has_roll:
            raise BadEventError(text("classroom.msg.wait_roll"))

    def views(self) -> dict[str, Any]:
        self.follow()
        return super().views()

    def dice_now(self) -> dict[str, Any]:
        """Only the dice tray's view (what a page needs first after a roll), without drawing the sheet."""
        self.follow()
        return dict(
            dice_view(
                self.game,
                revealed=self.revealed,
                count=self.roll_count,
                used=self._used_dice(),
                selected=self.selected_die,
            )
        )


def _log_refusal(who: str, event: object, refusal: str) -> None:
    if refusal:
        log.warning("%s: refused %.200r: %s", who, event, refusal)


class ClassroomBoard(CaterpillarsBoard):
    """The lessons' Caterpillars board on a pupil's room game; refusals are logged."""

    def __init__(self, session: RoomSession, *, lang: str | None = None) -> None:
        super().__init__(session=session, lang=lang)

    def front_end_strings(self) -> dict[str, str]:
        strings = super().front_end_strings()
        strings["roll"], strings["no_dice"] = text("classroom.ui.show_dice"), text("classroom.ui.wait_dice")
        return strings

    def handle(self, event: object) -> None:
        super().handle(event)
        session = self.session
        assert isinstance(session, RoomSession)
        _log_refusal(f"room {session.room.code}, pupil {session.pupil.nickname!r}", event, session.message)


class SeatTable:
    """One pupil's seat at a shared Räuber Raupe table, shaped for the lessons' views."""

    events: tuple[str, ...] = SEAT_EVENTS
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
    def game(self) -> Game:
        return self.shared.game

    @property
    def hand(self) -> tuple[Any, ...]:
        return tuple(self.shared.game.state.hands[self.pupil.seat])

    @property
    def started(self) -> bool:
        return self.shared.started

    @property
    def running(self) -> bool:
        return self.shared.running

    def record(self) -> dict[str, Any]:
        return self.game.to_json()

    def interim(self, event: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def handle(self, event: Mapping[str, Any]) -> None:
        """Apply one of :data:`SEAT_EVENTS`; a bad one raises and changes nothing."""
        self.message = ""
        kind = event["type"]
        with self.room.lock:
            self.follow()
            if kind == "start":
                if self.shared.started:
                    raise BadEventError(text("classroom.raupe.already_started"))
                self.room.start(self.pupil.table)
            elif kind == "tick":
                self.shared.advance()
            elif not self.shared.running:
                raise BadEventError(text("classroom.raupe.not_running"))
            elif kind == "flip":
                index = whole(event.get("index"), "card number", len(self.faces))
                self.faces[index] = 1 - self.faces[index] if self.hand[index].sides else 0
            elif kind == "shout":
                self.shout(event.get("word"))
            elif kind == "mistake":
                self.call()
            else:
                self.play(whole(event.get("index"), "card number", len(self.faces)))
            self.follow()

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
        return {"table": table, "hand": hand_view(seat), "log": list(self.shared.lines)}


class SeatWidget(RaupeWidget):
    """The lessons' Räuber Raupe widget at a pupil's seat of a shared table; refusals are logged."""

    def __init__(self, seat: SeatTable, *, lang: str | None = None) -> None:
        self.lesson = "classroom"
        LearnWidget.__init__(self, seat, lang=lang)  # type: ignore[misc]  # a seat is shaped like a RaupeTable

    def front_end_strings(self) -> dict[str, str]:
        strings = super().front_end_strings()
        seat = self.session
        assert isinstance(seat, SeatTable)
        strings["hand"] = text("classroom.raupe.hand", player=seat.pupil.seat + 1)
        return strings

    def handle(self, event: object) -> None:
        super().handle(event)
        seat = self.session
        assert isinstance(seat, SeatTable)
        _log_refusal(f"room {seat.room.code}, pupil {seat.pupil.nickname!r}", event, seat.refusal)
