"""One learner's Caterpillars game behind a widget: events in, views out.

A :class:`Session` holds a :class:`~caterpillar_learn.caterpillars.Game` and
what the screen shows around it (whether the dice are revealed, the setup
values placed so far, the open per-box menu, the last explanation); a
:class:`LessonSession` adds a lesson's steps.  Neither knows anything about
anywidget (:class:`~caterpillar_learn.ui.base.Controller`): the widget hands
them the front end's events and copies :meth:`Session.views` into traits, so
the same logic serves Jupyter, Voila, Panel and the tests.  Every rule
question goes to the engine; an event that makes no sense raises a one-line
error and leaves the game as it was.

As soon as a game's labels are all known (at the start, or when the setup
is done) the session starts the exact solve its hints will read in a
background thread (:func:`~caterpillar_learn.ui.caterpillars.advice.prepare`);
a hint waits for that solve if it is still running, and a new game drops it.

>>> session = Session("beginner", seed=3, auto_setup=True)
>>> session.handle({"type": "roll"})
>>> first = session.legal_moves()[0]
>>> session.handle({"type": "box", "caterpillar": first.caterpillar, "box": first.box})
>>> session.game.state.filled
1
>>> session.handle({"type": "box", "caterpillar": "Dora", "box": 9})
Traceback (most recent call last):
...
caterpillar_learn.caterpillars.errors.InvalidStateError: caterpillar: got 'Dora', expected 'Alex', 'Bobby' or 'Charlie'
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from caterpillar_learn.caterpillars import DEFAULT_LABELS, Game, Move, SetupChoice, why_not
from caterpillar_learn.caterpillars.sheet import describe_slot, slot_of
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import CHECKS, Lesson, Progress, get_lesson
from caterpillar_learn.ui.base import BadEventError, whole
from caterpillar_learn.ui.caterpillars.advice import Warmup, hint_view, loss_lines, prepare
from caterpillar_learn.ui.caterpillars.advice import review_view as advice_review
from caterpillar_learn.ui.caterpillars.views import (
    dice_view,
    final_view,
    legal_view,
    menu_view,
    review_view,
    sheet_view,
)

__all__ = ["EVENTS", "LessonSession", "Session"]

EVENTS: tuple[str, ...] = ("roll", "box", "option", "close", "die", "hint", "review", "new_game")
_uids = itertools.count(1)


@dataclass
class Session:
    """A game plus what the screen shows around it."""

    level: str = "beginner"
    seed: int = 1
    labels: Sequence[int | None] = DEFAULT_LABELS
    variation: bool = False
    auto_setup: bool = False
    #: What *new game* switches to (a lesson's free play), if anything.
    practice: tuple[str, bool] | None = None
    events: tuple[str, ...] = field(init=False, default=EVENTS)
    game: Game = field(init=False)
    revealed: bool = field(init=False, default=False)
    pending: dict[int, int] = field(init=False, default_factory=dict)  # slot → setup label placed this roll
    pieces: list[int] = field(init=False, default_factory=list)  # die index of each, -1 = sum
    selected_die: int | None = field(init=False, default=None)
    menu_slot: int | None = field(init=False, default=None)
    explanation: str = field(init=False, default="")
    message: str = field(init=False, default="")
    hint: dict[str, Any] = field(init=False, default_factory=dict)
    progress: Progress = field(init=False, default_factory=Progress)
    roll_count: int = field(init=False, default=0)
    #: The helper's review of the finished game, once asked for (it takes seconds at Expert).
    advice_review: dict[str, list[str]] | None = field(init=False, default=None)
    #: The background solve of this game's layout, once its labels are known.
    warmup: Warmup | None = field(init=False, default=None, repr=False)
    #: Makes this sheet's pattern ids unique on a page with several boards.
    uid: str = field(init=False, default_factory=lambda: f"b{next(_uids)}")

    def __post_init__(self) -> None:
        self.start(self.seed)

    # -- starting -----------------------------------------------------------
    def start(self, seed: int) -> None:
        """A fresh game with ``seed`` (the whole class gets the same dice)."""
        self.seed = seed
        self.game = Game(self.level, self.labels, variation=self.variation, seed=seed)
        self.revealed = False
        self.pending = {}
        self.pieces = []
        self.selected_die = None
        self.menu_slot = None
        self.explanation = ""
        self.hint = {}
        self.advice_review = None
        if self.warmup is not None:
            self.warmup.cancel()  # only drops it if it has not started; a running solve just ends unread
            self.warmup = None
        if self.auto_setup:
            while self.game.phase == "setup":
                self.game.play(self.game.legal_moves()[0])
        self._layout_known()

    def _layout_known(self) -> None:
        """Start solving the layout in the background, once no label is blank."""
        if self.game.phase != "setup" and self.warmup is None:
            self.warmup = prepare(self.level, self.game.state.labels)

    # -- events -------------------------------------------------------------
    def interim(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """What to show while a slow event (a hint, the review) is worked on."""
        if event["type"] == "hint":
            return {"hint": {"status": "thinking", "title": text("lessons.ui.thinking")}}
        if event["type"] == "review" and self.game.phase == "over":
            return {"review": {**self.views()["review"], "thinking": text("lessons.ui.thinking")}}
        return {}

    def handle(self, event: Mapping[str, Any]) -> None:
        """Apply one front-end event whose type is in :data:`EVENTS`; a bad one raises and changes nothing."""
        self.message = ""
        kind = event["type"]
        if kind == "new_game":
            if self.practice is not None:
                self.level, self.variation = self.practice
            self.start(self.seed + 1)
            self.progress.games_started += 1
        elif kind == "roll":
            self.roll()
        elif kind == "box":
            self.click_box(slot_of(event.get("caterpillar"), event.get("box")))  # type: ignore[arg-type]
        elif kind == "option":
            self.choose(whole(event.get("index"), "option index"))
        elif kind == "close":
            self.menu_slot = None
        elif kind == "die":
            self.select_die(whole(event.get("index"), "die index"))
        elif kind == "hint":
            self.ask_hint()
        elif kind == "review":
            if self.game.phase != "over":
                raise BadEventError(text("lessons.msg.review_at_end"))
            if self.advice_review is None:
                self.advice_review = advice_review(self.game)

    def roll(self) -> None:
        if self.game.phase == "over":
            raise BadEventError(text("lessons.msg.over"))
        if not self.revealed:
            self.revealed = True
            self.roll_count += 1
            self.progress.rolls += 1
            if self.game.phase == "setup":
                self.progress.setup_rolls += 1
            self.explanation = ""

    def _need_roll(self) -> None:
        if self.game.phase == "over":
            raise BadEventError(text("lessons.msg.over"))
        if not self.revealed:
            raise BadEventError(text("lessons.msg.roll_first"))

    def click_box(self, slot: int) -> None:
        self._need_roll()
        if self.game.phase == "setup":
            self._place_label(slot)
            return
        moves = [m for m in self.legal_moves() if m.slot == slot]
        if not moves:
            self.progress.illegal_clicks += 1
            self.menu_slot = None
            self.explanation = why_not(self.game.state, self.game.roll(), slot)
        elif len(moves) == 1:
            self._play(moves[0])
        else:
            self.menu_slot = slot
            self.progress.menus += 1

    def choose(self, index: int) -> None:
        self._need_roll()
        moves = self.legal_moves()
        if not 0 <= index < len(moves) or (self.menu_slot is not None and moves[index].slot != self.menu_slot):
            raise BadEventError(describe("option index", index, "one of the options shown"))
        self._play(moves[index])

    def _play(self, move: Move) -> None:
        before, roll = self.game.state, self.game.roll()
        asked = self.hint.get("status") == "ready"
        self.game.play(move)
        self.progress.moves += 1
        self.menu_slot = None
        self.revealed = False
        self.hint = {}
        lines = [text("lessons.explain.played", move=move.describe()), *move.how[:1]]
        if self.game.phase == "over":
            self.progress.games_finished += 1
        self.explanation = " ".join(lines)
        if asked:  # after a hint: what the move cost
            lines += loss_lines(before, roll, move)
        if self.game.phase == "over":
            lines.append(text("lessons.explain.over", final=self.game.score().final))
        self.explanation = " ".join(lines)

    def select_die(self, index: int) -> None:
        self._need_roll()
        if self.game.phase != "setup":
            raise BadEventError(text("lessons.msg.die_setup_only"))
        dice = self.game.roll().dice
        if not 0 <= index < len(dice) or index in self._used_dice():
            raise BadEventError(describe("die index", index, "a die not used yet"))
        self.selected_die = index

    def ask_hint(self) -> None:
        self._need_roll()
        if self.game.phase != "play":
            raise BadEventError(text("lessons.msg.hint_play_only"))
        self.progress.hints += 1
        state = self.game.state
        if self.warmup is not None and self.warmup.is_for(state):
            self.warmup.wait()  # the widget already shows "Thinking…"
        self.hint = hint_view(state, self.game.roll())

    # -- setup ----------------------------------------------------------------
    def _used_dice(self) -> list[int]:
        return [index for index in self.pieces if index >= 0]

    def _place_label(self, slot: int) -> None:
        state = self.game.state
        name, box = describe_slot(slot)
        if state.labels[slot] is not None or slot in self.pending:
            self.progress.illegal_clicks += 1
            self.explanation = text("lessons.setup.not_blank", caterpillar=name, number=box + 1)
            return
        dice = self.game.roll().dice
        if self.variation and self.pieces:
            # The variation's second label takes the sum of the two dice not used first.
            index, value = -1, sum(dice) - dice[self.pieces[0]]
        else:
            unused = next(i for i in range(len(dice)) if i not in self._used_dice())
            index = self.selected_die if self.selected_die is not None else unused
            value = dice[index]
        self.pieces.append(index)
        self.pending[slot] = value
        self.selected_die = None
        self.explanation = text("lessons.setup.placed", value=value, caterpillar=name, number=box + 1)
        wanted = 2 if self.variation else 3
        if len(self.pending) >= min(wanted, len(state.blank_label_slots())):
            choice = SetupChoice(tuple(sorted(self.pending.items())))
            self.pending = {}
            self.pieces = []
            self.game.play(choice)
            self.revealed = False
            if self.game.phase == "play":
                self.progress.setup_done = True
                self.explanation += " " + text("lessons.setup.done")
                self._layout_known()

    # -- views --------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """The moves the learner may click now (none before the roll)."""
        if self.game.phase != "play" or not self.revealed:
            return []
        return [move for move in self.game.legal_moves() if isinstance(move, Move)]

    def views(self) -> dict[str, Any]:
        """Every view trait's JSON, by trait name."""
        game = self.game
        blanks = []
        if game.phase == "setup" and self.revealed:
            blanks = [slot for slot in game.state.blank_label_slots() if slot not in self.pending]
        legal = legal_view(game, self.legal_moves(), blanks)
        return {
            "sheet": sheet_view(game, legal, self.pending, self.uid),
            "dice": dice_view(
                game, revealed=self.revealed, count=self.roll_count, used=self._used_dice(), selected=self.selected_die
            ),
            "legal": legal,
            "menu": menu_view(self.menu_slot, legal),
            "hint": self.hint,
            "explanation": self.explanation,
            "final": final_view(game),
            "review": review_view(game, self.advice_review),
        }


class LessonSession(Session):
    """A lesson's game with its stepper (explain → roll → ... → score → free play)."""

    def __init__(self, name: str = "01-beginner", seed: int | None = None) -> None:
        self.lesson: Lesson = get_lesson(name)
        self.step = 0
        lesson = self.lesson
        practice = None if lesson.practice is None else (lesson.practice.level, lesson.practice.variation)
        super().__init__(
            lesson.level,
            lesson.seed if seed is None else seed,
            variation=lesson.variation,
            auto_setup=lesson.auto_setup,
            practice=practice,
        )
        self.events = (*EVENTS, "step")

    def is_step_done(self) -> bool:
        """The current step's check, which every step passes once a game is finished."""
        check = self.lesson.steps[self.step].check
        return CHECKS[check](self.progress) or self.progress.games_finished >= 1

    def can_go_on(self) -> bool:
        return self.step < len(self.lesson.steps) - 1 and self.is_step_done()

    def handle(self, event: Mapping[str, Any]) -> None:
        if event["type"] != "step":
            super().handle(event)
            return
        self.message = ""
        delta = event.get("delta")
        if isinstance(delta, bool) or delta not in (1, -1):
            raise BadEventError(
                describe("step delta", delta if len(repr(delta)) < 40 else "…", "1 (next) or -1 (back)")
            )
        if delta == 1 and not self.can_go_on():
            raise BadEventError(text(f"lessons.todo.{self.lesson.steps[self.step].check}"))
        self.step = max(0, self.step + delta)

    def views(self) -> dict[str, Any]:
        views = super().views()
        lesson, current = self.lesson, self.lesson.steps[self.step]
        views["lesson"] = {
            "name": lesson.name,
            "heading": text(lesson.title_key),
            "title": text(f"lessons.{current.key}.title"),
            "body": text(f"lessons.{current.key}.body"),
            "index": self.step,
            "count": len(lesson.steps),
            "progress": text("lessons.ui.step_of", number=self.step + 1, count=len(lesson.steps)),
            "can_back": self.step > 0,
            "can_next": self.can_go_on(),
            "todo": "" if self.is_step_done() else text(f"lessons.todo.{current.check}"),
        }
        return views
