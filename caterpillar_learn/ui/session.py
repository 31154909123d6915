"""One learner's game behind a widget: events in, JSON views out.

A :class:`Session` holds a :class:`~caterpillar_learn.caterpillars.Game` and
what the screen shows around it (whether the dice are revealed, the setup
values placed so far, the open per-box menu, the last explanation).  It knows
nothing about anywidget: the widget classes copy :meth:`Session.views` into
traits and pass the front end's events to :meth:`Session.handle`, so the same
logic serves Jupyter, Voila, Panel and the tests.  Every rule question goes
to the engine; an event that makes no sense leaves the game as it was and
sets a one-line :attr:`Session.message`.

As soon as a game's labels are all known (at the start, or when the setup
is done) the session starts the exact solve its hints will read in a
background thread (:func:`~caterpillar_learn.ui.advice_bridge.prepare`);
a hint waits for that solve if it is still running, and a new game drops it.

>>> session = Session("beginner", seed=3, auto_setup=True)
>>> session.handle({"type": "roll"})
>>> first = session.legal[0]
>>> session.handle({"type": "box", "caterpillar": first.caterpillar, "box": first.box})
>>> session.game.state.filled
1
>>> session.handle({"type": "box", "caterpillar": "Dora", "box": 9})
>>> session.message
"caterpillar: got 'Dora', expected 'Alex', 'Bobby' or 'Charlie'"
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from caterpillar_learn.caterpillars import (
    CATERPILLARS,
    DEFAULT_LABELS,
    Game,
    Move,
    SetupChoice,
    move_to_json,
    state_to_json,
    why_not,
)
from caterpillar_learn.caterpillars.sheet import describe_slot, slot_of
from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.model import Progress
from caterpillar_learn.ui import advice_bridge

EVENT_TYPES = ("roll", "box", "option", "close", "die", "hint", "review", "new_game")


class BadEventError(CaterpillarLearnError):
    """An event from the front end that does not fit the game."""


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
    game: Game = field(init=False)
    revealed: bool = field(init=False, default=False)
    pending: list[tuple[int, int]] = field(init=False, default_factory=list)  # (slot, value)
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
    warmup: advice_bridge.Warmup | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.start(self.seed)

    # -- starting -----------------------------------------------------------
    def start(self, seed: int) -> None:
        """A fresh game with ``seed`` (the whole class gets the same dice)."""
        self.seed = seed
        self.game = Game(self.level, self.labels, variation=self.variation, seed=seed)
        self.revealed = False
        self.pending = []
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
                choices = self.game.legal_moves()
                self.game.play(choices[0])
        self._layout_known()

    def _layout_known(self) -> None:
        """Start solving the layout in the background, once no label is blank."""
        if self.game.phase != "setup" and self.warmup is None:
            self.warmup = advice_bridge.prepare(self.level, self.game.state.labels)

    # -- events -------------------------------------------------------------
    def handle(self, event: object) -> None:
        """Apply one front-end event; a bad one only sets :attr:`message`."""
        try:
            self._dispatch(event)
        except CaterpillarLearnError as error:
            self.message = str(error)
        else:
            self.message = ""

    def _dispatch(self, event: object) -> None:
        if not isinstance(event, dict) or event.get("type") not in EVENT_TYPES:
            kind = event.get("type") if isinstance(event, dict) else event
            raise BadEventError(describe("event type", kind, "one of " + ", ".join(EVENT_TYPES)))
        kind = event["type"]
        if kind == "new_game":
            if self.practice is not None:
                self.level, self.variation = self.practice
            self.start(self.seed + 1)
            self.progress.games_started += 1
            return
        if kind == "roll":
            self.roll()
        elif kind == "box":
            self.click_box(slot_of(event.get("caterpillar"), event.get("box")))  # type: ignore[arg-type]
        elif kind == "option":
            self.choose(_whole(event.get("index"), "option index"))
        elif kind == "close":
            self.menu_slot = None
        elif kind == "die":
            self.select_die(_whole(event.get("index"), "die index"))
        elif kind == "hint":
            self.ask_hint()
        elif kind == "review":
            if self.game.phase != "over":
                raise BadEventError(text("lessons.msg.review_at_end"))
            if self.advice_review is None:
                self.advice_review = advice_bridge.review_view(self.game)

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
            return
        if len(moves) == 1:
            self._play(moves[0])
        else:
            self.menu_slot = slot
            self.progress.menus += 1

    def choose(self, index: int) -> None:
        self._need_roll()
        moves = list(self.legal_moves()) if self.game.phase == "play" else []
        if not 0 <= index < len(moves) or (self.menu_slot is not None and moves[index].slot != self.menu_slot):
            raise BadEventError(describe("option index", index, "one of the options shown"))
        self._play(moves[index])

    def _play(self, move: Move) -> None:
        before, roll = self.game.state, self.game.roll()
        self.game.play(move)
        self.progress.moves += 1
        self.menu_slot = None
        self.revealed = False
        lines = [text("lessons.explain.played", move=move.describe())]
        lines += move.how[:1]
        if self.hint.get("status") == "ready":
            lines += advice_bridge.loss_lines(before, roll, move)
        self.hint = {}
        if self.game.phase == "over":
            self.progress.games_finished += 1
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
        self.hint = advice_bridge.hint_view(state, self.game.roll(), list(self.legal_moves()))

    # -- setup ----------------------------------------------------------------
    def _used_dice(self) -> list[int]:
        return [index for index in self.pieces if index >= 0]

    def _place_label(self, slot: int) -> None:
        state = self.game.state
        name, box = describe_slot(slot)
        if state.labels[slot] is not None or slot in [s for s, _ in self.pending]:
            self.progress.illegal_clicks += 1
            self.explanation = text("lessons.setup.not_blank", caterpillar=name, number=box + 1)
            return
        dice = self.game.roll().dice
        if self.variation and self.pieces:
            # The variation's second label takes the sum of the two dice not used first.
            index, value = -1, sum(dice) - dice[self.pieces[0]]
        else:
            index = (
                self.selected_die
                if self.selected_die is not None
                else next(i for i in range(len(dice)) if i not in self._used_dice())
            )
            value = dice[index]
        self.pieces.append(index)
        self.pending.append((slot, value))
        self.selected_die = None
        self.explanation = text("lessons.setup.placed", value=value, caterpillar=name, number=box + 1)
        wanted = 2 if self.variation else 3
        if len(self.pending) >= min(wanted, len(state.blank_label_slots())):
            choice = SetupChoice(tuple(sorted(self.pending)))
            self.pending = []
            self.pieces = []
            self.game.play(choice)
            self.revealed = False
            if self.game.phase == "play":
                self.progress.setup_done = True
                self.explanation += " " + text("lessons.setup.done")
                self._layout_known()

    # -- views --------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.game.phase != "play" or not self.revealed:
            return []
        moves = self.game.legal_moves()
        return [m for m in moves if isinstance(m, Move)]

    @property
    def legal(self) -> list[Move]:
        return self.legal_moves()

    def views(self) -> dict[str, Any]:
        """Every trait's JSON, by trait name."""
        game, state = self.game, self.game.state
        phase = game.phase
        legal: list[dict[str, Any]] = []
        if phase == "play":
            for index, move in enumerate(self.legal_moves()):
                legal.append({**move_to_json(move), "index": index, "text": move.describe()})
        elif phase == "setup" and self.revealed:
            taken = [s for s, _ in self.pending]
            for slot in state.blank_label_slots():
                if slot not in taken:
                    name, box = describe_slot(slot)
                    legal.append({"caterpillar": name, "box": box, "setup": True, "index": len(legal)})
        labels = state_to_json(state)
        for slot, value in self.pending:
            name, box = describe_slot(slot)
            labels["labels"][name][box] = value
        sheet = {
            **labels,
            "phase": phase,
            "round": min(state.round, 12),
            "totals": dict(zip(CATERPILLARS, state.totals)),
            "pending": [list(describe_slot(s)) for s, _ in self.pending],
        }
        dice: dict[str, Any] = {"rolled": self.revealed, "kind": phase, "count": self.roll_count}
        if self.revealed and phase != "over":
            roll = game.roll()
            dice.update(values=list(roll.dice), action=roll.action)
            dice.update(used=self._used_dice(), selected=self.selected_die)
        menu: dict[str, Any] = {}
        if self.menu_slot is not None:
            name, box = describe_slot(self.menu_slot)
            menu = {
                "caterpillar": name,
                "box": box,
                "title": text("lessons.menu.title", caterpillar=name, number=box + 1),
                "options": [entry for entry in legal if entry["box"] == box and entry["caterpillar"] == name],
            }
        final: dict[str, Any] = {}
        if phase == "over":
            result = game.score()
            final = {
                **result.to_json(),
                "struck": [n for n in CATERPILLARS if n != result.flying],
                "text": text("lessons.final.text", final=result.final),
            }
        return {
            "sheet": sheet,
            "dice": dice,
            "legal": legal,
            "menu": menu,
            "hint": self.hint,
            "explanation": self.explanation,
            "message": self.message,
            "final": final,
            "review": self.review() if phase == "over" else {},
        }

    def review(self) -> dict[str, Any]:
        """The game round by round; after a ``review`` event, the helper's verdict on each round."""
        rounds = []
        for number, turn in enumerate((t for t in self.game.history if not t.is_setup), start=1):
            assert isinstance(turn.choice, Move)
            rounds.append(text("lessons.review.round", number=number, dice=str(turn.roll), move=turn.choice.describe()))
        view: dict[str, Any] = {
            "title": text("lessons.review.title"),
            "rounds": rounds,
            "advice": [],
            "reviewed": self.advice_review is not None,
        }
        if self.advice_review is not None:
            view["advice"] = self.advice_review["summary"] or [text("lessons.review.unavailable")]
            view["rounds"] = self.advice_review["rounds"] or rounds
        return view


def _whole(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadEventError(describe(name, value, "a whole number"))
    return value


__all__ = ["BadEventError", "Session"]
