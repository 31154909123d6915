"""A mutable game for interactive use: history, undo, JSON save and load.

The rules stay in the pure functions; :class:`Game` only keeps the sequence
of rolls (drawn from the generator it was given, so a seed gives a whole
class the same dice) and the choices made.  Undo never re-rolls: the dice of
a round stay the dice of that round.

>>> game = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=3)
>>> game.phase, game.is_over
('play', False)
>>> roll = game.roll()
>>> game.play(game.legal_moves().first())
>>> game.state.filled
1
>>> _ = game.undo()
>>> game.state.filled, game.roll() == roll
(0, True)
>>> Game.from_json(game.to_json()).state == game.state
True

A class that shares real dice (or a classroom server's roll) gives each
turn's dice as they come, before the game would draw them:

>>> shared = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
>>> shared.has_roll
False
>>> shared.add_roll(Roll((3, 5)))
>>> shared.has_roll, shared.roll()
(True, Roll(dice=(3, 5), action=None))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from caterpillar_learn.caterpillars.dice import FACES, Roll, format_roll, make_roll, roll_dice, roll_setup_dice
from caterpillar_learn.caterpillars.errors import CaterpillarsError, IllegalMoveError, InvalidStateError
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.notation import move_from_json, move_to_json
from caterpillar_learn.caterpillars.rules import LegalMoves, Move, apply, legal_moves, validate
from caterpillar_learn.caterpillars.scoring import Score, score
from caterpillar_learn.caterpillars.setup import (
    SETUP_DICE,
    SetupChoice,
    apply_setup,
    rolls_needed,
    setup_choices,
)
from caterpillar_learn.caterpillars.sheet import DEFAULT_LABELS, LABEL_VALUES, ROUNDS, SLOTS, State
from caterpillar_learn.errors import check_saved, describe

SAVE_FORMAT = 1
SAVE_KEYS = ("format", "level", "labels", "variation", "rolls", "choices", "rng")
#: ``random.Random.getstate()``: version 3, 624 words of Mersenne Twister state and a position.
RNG_VERSION = 3
RNG_WORDS = 624


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
    """One player's game from setup to final score.

    ``rolls`` gives the dice of the first turns (setup rolls first); later
    turns draw from the generator.

    >>> scripted = Game("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], rolls=[Roll((3, 5))], seed=1)
    >>> scripted.roll()
    Roll(dice=(3, 5), action=None)
    >>> Game("beginner", rolls=[Roll((3, 9))])
    Traceback (most recent call last):
    ...
    caterpillar_learn.caterpillars.errors.InvalidStateError: setup roll: got {'action': None, 'dice': [3, 9]}, \
expected three dice from 1 to 6 and no action die
    """

    def __init__(
        self,
        level: Level | str = Level.BEGINNER,
        labels: Sequence[int | None] = DEFAULT_LABELS,
        *,
        variation: bool = False,
        seed: int | None = None,
        rng: random.Random | None = None,
        rolls: Sequence[Roll] = (),
    ) -> None:
        #: The blank sheet the game started from (labels as printed).
        self.initial = validate(State.new(level, labels))
        if not isinstance(variation, bool):
            raise InvalidStateError(describe("variation", variation, "true or false"))
        if variation and not self.initial.level.rules.setup_variation:
            raise InvalidStateError(describe("variation", self.initial.level.value, "intermediate, advanced or expert"))
        self.variation = variation
        self.rng = rng if rng is not None else random.Random(seed)
        self.state = self.initial
        self.history: list[Turn] = []
        self.rolls: list[Roll] = []  # every roll drawn so far, kept across undo
        if len(rolls) > self.turns:
            raise InvalidStateError(
                describe("rolls", f"{len(rolls)} rolls", f"at most {self.turns} (this game's turns)")
            )
        for roll in rolls:  # chosen dice (a lesson's script, a classroom's roll) come before the generator's
            if not isinstance(roll, Roll):
                raise InvalidStateError(describe("rolls", roll, "Roll objects"))
            self.rolls.append(self._roll_from_json(len(self.rolls), {"dice": list(roll.dice), "action": roll.action}))

    @property
    def start(self) -> State:
        """The old name of :attr:`initial`."""
        return self.initial

    @property
    def level(self) -> Level:
        return self.state.level

    @property
    def phase(self) -> str:
        """``"setup"``, ``"play"`` or ``"over"``."""
        if not self.state.is_setup_done:
            return "setup"
        return "over" if self.state.is_complete else "play"

    @property
    def is_over(self) -> bool:
        """Whether every box is filled (``phase == "over"``)."""
        return self.phase == "over"

    @property
    def turns(self) -> int:
        """How many rolls the whole game takes: the setup rolls, then one per round."""
        return rolls_needed(self.initial, self.variation) + ROUNDS

    @property
    def has_roll(self) -> bool:
        """Whether the current turn's dice are already there (given, or drawn by :meth:`roll`), so nothing is drawn."""
        return not self.is_over and len(self.rolls) > len(self.history)

    def add_roll(self, roll: Roll) -> None:
        """Give the dice of the next turn not rolled yet (real dice typed in, a class's shared roll).

        Checked like a saved roll: three dice without an action die for a
        setup turn, the level's dice otherwise.  Like ``rolls=``, given dice
        come before anything the generator draws.

        >>> game = Game("beginner")
        >>> game.add_roll(Roll((1, 2)))  # the printed layout has blanks: setup first, with three dice
        Traceback (most recent call last):
        ...
        caterpillar_learn.caterpillars.errors.InvalidStateError: rolls[0]: setup roll: got {'action': None, \
'dice': [1, 2]}, expected three dice from 1 to 6 and no action die
        """
        turn = len(self.rolls)
        if turn >= self.turns:
            raise IllegalMoveError(describe("rolls", f"{turn + 1} rolls", f"at most {self.turns} (this game's turns)"))
        if not isinstance(roll, Roll):
            raise InvalidStateError(describe(f"rolls[{turn}]", roll, "a Roll"))
        try:
            self.rolls.append(self._roll_from_json(turn, {"dice": list(roll.dice), "action": roll.action}))
        except CaterpillarsError as error:
            raise type(error)(f"rolls[{turn}]: {error}") from None

    def roll(self) -> Roll:
        """The dice of the current turn (drawn once, then kept)."""
        if self.is_over:
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
        return "setup" if turn < rolls_needed(self.initial, self.variation) else "play"

    def legal_moves(self) -> LegalMoves | list[SetupChoice]:
        roll = self.roll()
        if self.phase == "setup":
            return setup_choices(self.state, roll.dice, self.variation)
        return legal_moves(self.state, roll)

    def check(self, choice: Move | SetupChoice) -> Move | SetupChoice:
        """``choice`` as :meth:`play` would record it, or the error it would raise; changes nothing.

        A host that writes every choice down before making it (the classroom's
        event log) checks it here first.

        >>> game = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], rolls=[Roll((3, 5))])
        >>> game.check(game.legal_moves().first()) == game.legal_moves().first(), game.state.filled
        (True, 0)
        """
        return self._checked(choice)[0]

    def _checked(self, choice: Move | SetupChoice) -> tuple[Move | SetupChoice, State]:
        roll = self.roll()
        if self.phase == "setup":
            if not isinstance(choice, SetupChoice):
                raise IllegalMoveError(describe("choice", choice, "a setup choice (labels first)"))
            return choice, apply_setup(self.state, choice, roll.dice, self.variation)
        if not isinstance(choice, Move):
            raise IllegalMoveError(describe("choice", choice, "a move (the setup is done)"))
        moves = legal_moves(self.state, roll)
        listed = moves.find(choice)
        if listed is None:
            apply(self.state, choice)  # a move the sheet itself refuses says why first
            expected = f"one of the {len(moves)} legal moves for the roll {format_roll(roll)}"
            raise IllegalMoveError(describe("move", choice, expected))
        return listed, apply(self.state, listed)

    def play(self, choice: Move | SetupChoice) -> None:
        """Make ``choice`` for the current roll; an illegal one changes nothing."""
        roll = self.roll()
        choice, new = self._checked(choice)
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
        """Everything needed to continue this game, as plain JSON data.

        The keys: ``format`` (1), ``level``, ``labels`` (the printed layout),
        ``variation``, ``rolls`` (every roll drawn, kept across undo),
        ``choices`` (a setup choice as ``[[slot, value], ...]``, a move as
        :func:`~caterpillar_learn.caterpillars.notation.move_to_json` writes
        it without ``how``) and ``rng`` (the generator's state).

        >>> sorted(Game("beginner", seed=1).to_json())
        ['choices', 'format', 'labels', 'level', 'rng', 'rolls', 'variation']
        """
        version, internal, gauss = self.rng.getstate()
        choices = [choice_to_json(t.choice) for t in self.history]
        return {
            "format": SAVE_FORMAT,
            "level": self.initial.level.value,
            "labels": list(self.initial.labels),
            "variation": self.variation,
            "rolls": [{"dice": list(r.dice), "action": r.action} for r in self.rolls],
            "choices": choices,
            "rng": [version, list(internal), gauss],
        }

    @classmethod
    def from_json(cls, data: object) -> Game:
        """Rebuild a game saved by :meth:`to_json`, checking every roll and choice again.

        Anything else is refused with a one-line :class:`CaterpillarsError`
        naming the field (an :class:`InvalidStateError` for what cannot be
        read, an :class:`InvalidRollError` or :class:`IllegalMoveError` for a
        roll or choice the game does not allow).

        >>> saved = Game("beginner", seed=1).to_json()
        >>> Game.from_json({**saved, "labels": [99] + saved["labels"][1:]})
        Traceback (most recent call last):
        ...
        caterpillar_learn.caterpillars.errors.InvalidStateError: labels.Alex[0]: got 99, \
expected a label from 1 to 12 or null
        """
        if not isinstance(data, dict):
            raise InvalidStateError(describe("saved game", data, "a JSON object as Game.to_json writes"))
        check_saved(data, InvalidStateError, SAVE_FORMAT, SAVE_KEYS, fields=("saved game format", "saved game key"))
        labels = data.get("labels")
        if not isinstance(labels, list):
            raise InvalidStateError(describe("labels", labels, f"a list of {SLOTS} labels (1 to 12, or null)"))
        game = cls(data.get("level"), labels, variation=data.get("variation", False))  # type: ignore[arg-type]  # checked there
        turns = game.turns
        rolls = _bounded_list(data.get("rolls"), "rolls", turns, f"{turns} turns of this game")
        for turn, raw in enumerate(rolls):
            try:
                game.rolls.append(game._roll_from_json(turn, raw))
            except CaterpillarsError as error:
                raise type(error)(f"rolls[{turn}]: {error}") from None
        choices = _bounded_list(data.get("choices"), "choices", len(rolls), "one per saved roll")
        for index, raw in enumerate(choices):
            try:
                game.play(choice_from_json(raw))
            except CaterpillarsError as error:
                raise type(error)(f"choices[{index}]: {error}") from None
        game.rng.setstate(_rng_state(data.get("rng")))
        return game

    def _roll_from_json(self, turn: int, raw: object) -> Roll:
        if not isinstance(raw, dict) or "dice" not in raw or set(raw) - {"dice", "action"}:
            raise InvalidStateError(describe("roll", raw, 'an object {"dice": [...], "action": ...}'))
        if self._phase_of_turn(turn) == "play":
            return make_roll(self.level, raw["dice"], raw.get("action"))
        dice = raw["dice"]
        if (
            not isinstance(dice, list)
            or len(dice) != SETUP_DICE
            or any(isinstance(d, bool) or not isinstance(d, int) or d not in FACES for d in dice)
            or raw.get("action") is not None
        ):
            raise InvalidStateError(describe("setup roll", raw, "three dice from 1 to 6 and no action die"))
        return Roll(tuple(sorted(dice)))


def _bounded_list(value: object, field: str, limit: int, why: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidStateError(describe(field, value, f"a list of at most {limit} ({why})"))
    if len(value) > limit:
        raise InvalidStateError(describe(field, f"{len(value)} items", f"at most {limit} ({why})"))
    return value


def choice_to_json(choice: Move | SetupChoice) -> Any:
    """A choice as a save holds it: a move without its ``how``, a setup choice as ``[[slot, value], ...]``.

    >>> choice_to_json(SetupChoice(((1, 4), (3, 6))))
    [[1, 4], [3, 6]]
    """
    if isinstance(choice, SetupChoice):
        return [list(pair) for pair in choice.assignments]
    return {key: value for key, value in move_to_json(choice).items() if key != "how"}


def choice_from_json(raw: object) -> Move | SetupChoice:
    """A saved choice: a move object, or a setup choice as a list of ``[slot, value]`` pairs.

    >>> choice_from_json([[3, 6], [1, 4]]).assignments
    ((1, 4), (3, 6))
    """
    if not isinstance(raw, list):
        return move_from_json(raw)
    expected = f"a setup choice: up to {SETUP_DICE} pairs [slot 0-{SLOTS - 1}, label 1-12]"
    pairs: list[tuple[int, int]] = []
    if len(raw) > SETUP_DICE:
        raise InvalidStateError(describe("setup choice", raw, expected))
    for pair in raw:
        if not (isinstance(pair, list) and len(pair) == 2 and all(_is_whole(v) for v in pair)):
            raise InvalidStateError(describe("setup choice", raw, expected))
        slot, value = pair
        if not (0 <= slot < SLOTS and value in LABEL_VALUES):
            raise InvalidStateError(describe("setup choice", raw, expected))
        pairs.append((slot, value))
    return SetupChoice(tuple(sorted(pairs)))


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _rng_state(data: object) -> tuple[Any, ...]:
    """The generator state ``to_json`` wrote: ``[version, 625 whole numbers, gauss]``."""
    expected = f"[{RNG_VERSION}, a list of {RNG_WORDS + 1} whole numbers, null or a number] as Game.to_json writes"
    if not isinstance(data, list) or len(data) != 3:
        raise InvalidStateError(describe("rng", data, expected))
    version, internal, gauss = data
    if not (
        _is_whole(version)
        and version == RNG_VERSION
        and isinstance(internal, list)
        and len(internal) == RNG_WORDS + 1
        and all(_is_whole(word) and 0 <= word < 2**32 for word in internal[:RNG_WORDS])
        and _is_whole(internal[RNG_WORDS])
        and 0 <= internal[RNG_WORDS] <= RNG_WORDS
        and (gauss is None or (isinstance(gauss, float)))
    ):
        raise InvalidStateError(describe("rng", data, expected))
    return (version, tuple(internal), gauss)
