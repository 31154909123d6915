"""A pupil's page in a Caterpillars room: the lessons' board on the room's game.

:class:`RoomSession` is the lessons'
:class:`~caterpillar_learn.ui.caterpillars.controller.Session` on the
pupil's :class:`~caterpillar_learn.classroom.rooms.caterpillars.room.RoomGame`: the same
sheet, legal moves, menus, why-not explanations and hints (when the
teacher allows them), but the dice are the room's (there is nothing to
roll: they appear when the teacher rolls) and there is no new game.
:class:`ClassroomBoard` is the lessons' board widget (same ES module)
around it.

A page acts only through this controller, which holds one pupil and no
way to name another: a message cannot reach someone else's sheet.  Every
refusal is logged (logger ``caterpillar_learn.classroom``) and shown as one
line; the room goes on.

>>> from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
>>> room = CaterpillarsRoom("KX47PQ", RoomSettings.build("beginner", dice="typed", hints=False))
>>> board = ClassroomBoard(RoomSession(room, room.join("Ada")))
>>> board.act("roll"); board.message
'Wait for your teacher to roll the dice.'
>>> _ = room.roll("3 5"); board.refresh()
>>> board.dice["values"], len(board.legal) > 0
([3, 5], True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from functools import partial
from typing import Any, TypeVar

import traitlets

from caterpillar_learn.caterpillars import Game, Roll, State
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.classroom import refusals
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, Pupil
from caterpillar_learn.i18n import text
from caterpillar_learn.ui.assets import widget_file, widget_styles
from caterpillar_learn.ui.base import BadEventError
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard
from caterpillar_learn.ui.caterpillars.advice import Helper, Warmup
from caterpillar_learn.ui.caterpillars.controller import Session
from caterpillar_learn.ui.caterpillars.views import dice_view
from caterpillar_learn.ui.events import Handler

__all__ = ["ClassroomBoard", "RoomDice", "RoomHelper", "RoomSession"]

T = TypeVar("T")

#: Events that ask the hint generator: only while the teacher allows hints.
ADVICE_EVENTS = ("hint", "whatif")
#: What the hint panel says while a worker process works the pupil's hint out.
THINKING = "classroom.msg.hint_thinking"
#: What the line under the sheet says after a move while a worker works out what it cost.
COST_THINKING = "classroom.msg.cost_thinking"


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
        refusals.handled(self, session.room, session.pupil.nickname, event, super().handle, lambda: session.message)
