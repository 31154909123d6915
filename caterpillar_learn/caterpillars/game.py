"""A mutable game for interactive use: history, undo, JSON save and load.

The rules stay in the pure functions; :class:`Game` only keeps the sequence
of rolls (drawn from the generator it was given, so a seed gives a whole
class the same dice) and the choices made.  Undo never re-rolls: the dice of
a round stay the dice of that round.

>>> game = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=3)
>>> game.phase
'play'
>>> roll = game.roll()
>>> game.play(game.legal_moves().first())
>>> game.state.filled
1
>>> _ = game.undo()
>>> game.state.filled, game.roll() == roll
(0, True)
>>> Game.from_json(game.to_json()).state == game.state
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from caterpillar_learn.caterpillars.dice import Roll, make_roll, roll_dice, roll_setup_dice
from caterpillar_learn.caterpillars.errors import IllegalMoveError, InvalidStateError
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.notation import move_from_json, move_to_json
from caterpillar_learn.caterpillars.rules import LegalMoves, Move, apply, legal_moves
from caterpillar_learn.caterpillars.scoring import Score, score
from caterpillar_learn.caterpillars.setup import (
    SetupChoice,
    apply_setup,
    rolls_needed,
    setup_choices,
)
from caterpillar_learn.caterpillars.sheet import DEFAULT_LABELS, State
from caterpillar_learn.errors import CaterpillarLearnError, describe

SAVE_FORMAT = 1


@dataclass(frozen=True)
class Turn:
    """One choice made: the state before it, the dice, the choice."""

    before: State
    roll: Roll
    choice: Move | SetupChoice

    @property
    def is_setup(self) -> bool:
        return isinstance(self.choice, SetupChoice)


class Game:
    """One player's game from setup to final score."""

    def __init__(
        self,
        level: Level | str = Level.BEGINNER,
        labels: Sequence[int | None] = DEFAULT_LABELS,
        *,
        variation: bool = False,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.start = State.new(level, labels)
        if variation and not self.start.level.rules.setup_variation:
            raise InvalidStateError(describe("variation", self.start.level.value, "intermediate, advanced or expert"))
        self.variation = variation
        self.rng = rng if rng is not None else random.Random(seed)
        self.state = self.start
        self.history: list[Turn] = []
        self.rolls: list[Roll] = []  # every roll drawn so far, kept across undo

    @property
    def level(self) -> Level:
        return self.state.level

    @property
    def phase(self) -> str:
        """``"setup"``, ``"play"`` or ``"over"``."""
        if not self.state.is_setup_done:
            return "setup"
        return "over" if self.state.is_complete else "play"

    def roll(self) -> Roll:
        """The dice of the current turn (drawn once, then kept)."""
        if self.phase == "over":
            raise IllegalMoveError("roll: the game is over, expected no more rolls")
        turn = len(self.history)
        while len(self.rolls) <= turn:
            if self._phase_of_turn(len(self.rolls)) == "setup":
                self.rolls.append(Roll(roll_setup_dice(self.rng)))
            else:
                self.rolls.append(roll_dice(self.level, self.rng))
        return self.rolls[turn]

    def _phase_of_turn(self, turn: int) -> str:
        # Setup turns come first; how many depends only on the layout and the setup kind.
        return "setup" if turn < rolls_needed(self.start, self.variation) else "play"

    def legal_moves(self) -> LegalMoves | list[SetupChoice]:
        roll = self.roll()
        if self.phase == "setup":
            return setup_choices(self.state, roll.dice, self.variation)
        return legal_moves(self.state, roll)

    def play(self, choice: Move | SetupChoice) -> None:
        """Make ``choice`` for the current roll; an illegal one changes nothing."""
        roll = self.roll()
        if self.phase == "setup":
            if not isinstance(choice, SetupChoice):
                raise IllegalMoveError(describe("choice", choice, "a setup choice (labels first)"))
            new = apply_setup(self.state, choice, roll.dice, self.variation)
        else:
            if not isinstance(choice, Move):
                raise IllegalMoveError(describe("choice", choice, "a move (the setup is done)"))
            moves = legal_moves(self.state, roll)
            listed = moves.find(choice)
            new = apply(self.state, choice, roll)
            choice = listed if listed is not None else choice
        self.history.append(Turn(self.state, roll, choice))
        self.state = new

    def undo(self) -> Turn:
        """Take back the last choice; its roll stays the current roll."""
        if not self.history:
            raise IllegalMoveError("undo: nothing to undo, expected at least one choice made")
        turn = self.history.pop()
        self.state = turn.before
        return turn

    def score(self) -> Score:
        return score(self.state)

    # -- save and load -----------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything needed to continue this game, as plain JSON data."""
        version, internal, gauss = self.rng.getstate()
        choices: list[Any] = [
            [list(pair) for pair in t.choice.assignments]
            if isinstance(t.choice, SetupChoice)
            else {k: v for k, v in move_to_json(t.choice).items() if k != "how"}
            for t in self.history
        ]
        return {
            "format": SAVE_FORMAT,
            "level": self.start.level.value,
            "labels": list(self.start.labels),
            "variation": self.variation,
            "rolls": [{"dice": list(r.dice), "action": r.action} for r in self.rolls],
            "choices": choices,
            "rng": [version, list(internal), gauss],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game saved by :meth:`to_json`, checking every choice again."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise InvalidStateError(
                describe("saved game format", data.get("format") if isinstance(data, dict) else data, str(SAVE_FORMAT))
            )
        try:
            return cls._replay(data)
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, CaterpillarLearnError):
                raise
            raise InvalidStateError(
                f"saved game: got a malformed save ({error!r}), expected what Game.to_json writes"
            ) from None

    @classmethod
    def _replay(cls, data: dict[str, Any]) -> Game:
        game = cls(data["level"], data["labels"], variation=bool(data.get("variation")))
        for turn, raw in enumerate(data.get("rolls", [])):
            if game._phase_of_turn(turn) == "setup":
                dice = tuple(sorted(raw["dice"]))
                if len(dice) != 3 or any(d not in range(1, 7) for d in dice):
                    raise InvalidStateError(describe(f"rolls[{turn}]", raw, "three setup dice"))
                game.rolls.append(Roll(dice))
            else:
                game.rolls.append(make_roll(game.level, raw["dice"], raw.get("action")))
        for index, raw in enumerate(data.get("choices", [])):
            if index >= len(game.rolls):
                raise InvalidStateError(describe(f"choices[{index}]", raw, "a choice for a saved roll"))
            if isinstance(raw, list):
                game.play(SetupChoice(tuple(sorted((int(s), int(v)) for s, v in raw))))
            else:
                game.play(move_from_json(raw))
        version, internal, gauss = data["rng"]
        game.rng.setstate((version, tuple(internal), gauss))
        return game
