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
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from functools import partial
from typing import Any, TypeVar, cast

import traitlets

from caterpillar_learn.caterpillars import Game, Roll, State
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.classroom import refusals
from caterpillar_learn.classroom.rooms import CaterpillarsRoom, Pupil
from caterpillar_learn.classroom.tables import RaupePupil, RaupeRoom, SharedTable
from caterpillar_learn.i18n import language, text
from caterpillar_learn.raupe import Call, Mode, Play, parse_mode
from caterpillar_learn.raupe import Game as RaupeGame
from caterpillar_learn.ui.assets import widget_file, widget_styles
from caterpillar_learn.ui.base import LANGUAGE_EVENT, BadEventError, LearnWidget, handler, whole
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard
from caterpillar_learn.ui.caterpillars.advice import Helper, Warmup
from caterpillar_learn.ui.caterpillars.controller import Session
from caterpillar_learn.ui.caterpillars.views import dice_view
from caterpillar_learn.ui.events import Dispatcher, Handler
from caterpillar_learn.ui.quiz import Quiz
from caterpillar_learn.ui.raupe import RaupeWidget, seat
from caterpillar_learn.ui.raupe.views import Seat, hand_view, table_view

__all__ = ["ClassroomBoard", "RoomSession", "SeatTable", "SeatWidget"]

log = logging.getLogger("caterpillar_learn.classroom")
T = TypeVar("T")

#: Events that ask the hint generator: only while the teacher allows hints.
ADVICE_EVENTS = ("hint", "whatif")
#: What the hint panel says while a worker process works the pupil's hint out.
THINKING = "classroom.msg.hint_thinking"
#: What the line under the sheet says after a move while a worker works out what it cost.
COST_THINKING = "classroom.msg.cost_thinking"
#: The events that need the table's game to run.
SEAT_IN_PLAY = ("play", "flip", "shout", "mistake")


class RoomDice:
    """The room's dice (:class:`~caterpillar_learn.ui.caterpillars.dice.DiceSource`): the teacher rolls.

    A pupil has nothing to roll: the dice appear on the sheet as soon as the
    teacher rolls them, and a new turn clears what the last one showed.
    Whether the layout is worth solving for hints is the room's too: only
    while the teacher allows hints.
    """

    def __init__(self, room: CaterpillarsRoom) -> None:
        self.room = room
        self.seen_turn = -1

    def roll(self, session: Session) -> None:
        if session.game.phase == "over":
            raise BadEventError(text("classroom.msg.over"))
        if not session.game.has_roll:
            raise BadEventError(text("classroom.msg.wait_roll"))

    def check_rolled(self, session: Session) -> None:
        """A pupil who has placed waits for the teacher's next roll (there is nothing for them to roll)."""
        if session.game.phase == "over":
            raise BadEventError(text("classroom.msg.over"))
        if not session.revealed:
            raise BadEventError(text("classroom.msg.wait_next" if session.game.history else "classroom.msg.wait_roll"))

    def catch_up(self, session: Session) -> None:
        """A new turn clears the screen, and dice already rolled show at once."""
        game = session.game
        turn = len(game.history)
        if turn != self.seen_turn:
            self.seen_turn = turn
            session.revealed = False
            session.pending, session.pieces = {}, []
            session.selected_die = None
            session.menu_slot = None
            session.hint = {}
        if not session.revealed and game.has_roll:
            session.revealed = True
            session.roll_count += 1
        session.solve_layout()  # once the labels are known and the teacher allows hints (RoomHelper)


class RoomHelper(Helper):
    """The helper of a room's pupils: the room's (the server's worker processes, once it has them), with the
    room's say.

    The layout is solved only while the teacher allows hints, and the page's
    words while an answer is on its way are the classroom's.
    """

    thinking = THINKING
    cost_thinking = COST_THINKING

    def __init__(self, room: CaterpillarsRoom) -> None:
        self.room = room

    def work(self, job: Callable[..., T], state: State, *args: Any, urgent: bool = True) -> Future[T]:
        return self.room.helper.work(job, state, *args, urgent=urgent)

    def hint(self, state: State, roll: Roll, warmup: Warmup | None) -> Future[dict[str, Any]]:
        return self.room.helper.hint(state, roll, warmup)

    def prepare(self, level: Level | str, labels: Sequence[int | None]) -> Warmup | None:
        return self.room.helper.prepare(level, labels) if self.room.hints else None


class RoomSession(Session):
    """One page of one pupil in a Caterpillars room (two pages of the same pupil share the game).

    The lessons' session, given the room's dice (:class:`RoomDice`) and the
    room's helper (:class:`RoomHelper`).  On a server, a hint, the cost of a
    move after a hint and a "what if" come from its worker processes: the
    page shows "Thinking…" at once, and the answer comes with the page's next
    redraw, which its arrival asks for (the room's listeners: the page's
    ``Push``, on the page's own document).
    """

    def __init__(self, room: CaterpillarsRoom, pupil: Pupil) -> None:
        self.room = room
        self.pupil = pupil
        self.review_asked = False  # the pupil asked for the helper's review (it may be on its way)
        settings = room.settings
        super().__init__(
            level=settings.level.value,
            seed=0,
            labels=settings.labels,
            variation=settings.variation,
            auto_setup=False,
            dice=RoomDice(room),
            helper=RoomHelper(room),
            told=partial(room.notify, pupil.id),
        )
        self.catch_up()

    def handlers(self) -> dict[str, Handler]:
        """The board's events except ``new_game`` (the teacher starts games)."""
        return {kind: method for kind, method in super().handlers().items() if kind != "new_game"}

    def make_game(self, seed: int) -> Game:
        """The pupil's game (never a new one: the room's log holds it)."""
        return self.pupil.game

    def catch_up(self) -> None:
        super().catch_up()
        # A review asked for comes from a worker, and the room tells this page when it has.
        if self.review_asked and self.advice_review is None:
            self.advice_review = self.room.reviewed(self.pupil)
            if self.advice_review is None and not self.room.reviewing(self.pupil):  # it failed there
                self.review_asked = False
                self.message = text("ui.internal")

    def handle(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        if kind in ADVICE_EVENTS and not self.room.hints:
            self.message = ""
            raise BadEventError(text("classroom.msg.hints_off"))
        if kind == "review" and self.game.phase == "over":
            self.catch_up()
            self.message = ""
            self.review_asked = True
            self.advice_review = self.room.review(self.pupil)  # None while a worker works it out
            return
        super().handle(event)
        self.catch_up()

    def views(self) -> dict[str, Any]:
        views = super().views()
        review = views.get("review")
        if self.review_asked and self.advice_review is None and review:
            review["thinking"] = text("lessons.ui.review_thinking")
        sheet = views.get("sheet")
        if isinstance(sheet, dict) and "round" in sheet:  # never ahead of the projector's round
            sheet["round"] = max(1, min(int(sheet["round"]), self.room.turn - self.room.setup_turns))
        return views

    def dice_now(self) -> dict[str, Any]:
        """Only the dice tray's view (what a page needs first after a roll), without drawing the sheet."""
        self.catch_up()
        return dict(
            dice_view(
                self.game,
                revealed=self.revealed,
                count=self.roll_count,
                used=self.used_dice(),
                selected=self.selected_die,
            )
        )


class ClassroomBoard(CaterpillarsBoard):
    """The lessons' Caterpillars board on a pupil's room game, without New game (the teacher starts games)."""

    # classroom.css hides the final panel's New game button: a pupil's next game is the teacher's new room.
    _css = traitlets.Unicode(
        widget_styles("caterpillars.css") + "\n" + widget_file("classroom.css").read_text(encoding="utf-8")
    ).tag(sync=True)

    def __init__(self, session: RoomSession, *, lang: str | None = None) -> None:
        super().__init__(session=session, lang=lang)

    def front_end_strings(self) -> dict[str, str]:
        strings = super().front_end_strings()
        strings["roll"], strings["no_dice"] = text("classroom.ui.show_dice"), text("classroom.ui.wait_dice")
        return strings

    def handle(self, event: object) -> None:
        session = self.session
        assert isinstance(session, RoomSession)
        if not closed(self, session.room, event):
            super().handle(event)
        refusals.tell(self, f"room {session.room.code}, pupil {session.pupil.nickname!r}", event, session.message)


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

        >>> from caterpillar_learn.classroom.tables import TableSettings
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
        if not closed(self, seat.room, event):
            super().handle(event)
        refusals.tell(self, f"room {seat.room.code}, pupil {seat.pupil.nickname!r}", event, seat.refusal)


def closed(widget: LearnWidget[Any], room: CaterpillarsRoom | RaupeRoom, event: object) -> bool:
    """Whether ``room`` is closed (archived, stopped, its last write failed): then the page's event is answered
    with the room's line, in the page's language, and goes no further (the language switch still works)."""
    if room.closed is None or (isinstance(event, Mapping) and event.get("type") == LANGUAGE_EVENT):
        return False
    with language(widget.lang):
        widget.session.message = room.closed_line()
    widget.refresh()
    return True
