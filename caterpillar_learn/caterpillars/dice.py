"""Dice: rolls as explicit chance outcomes with exact probabilities.

A :class:`Roll` holds the regular dice, sorted (their order never matters),
and at Expert the face of the action die.  :func:`chance_outcomes` lists
every distinct roll of a level with its exact probability, so a solver can
take expectations; :func:`roll_dice` draws one from a generator the caller
passes in (never the global random state).

>>> outcomes = chance_outcomes("beginner")
>>> len(outcomes), sum(p for _, p in outcomes)
(21, Fraction(1, 1))
>>> parse_roll("1 2 2 C", "expert")
Roll(dice=(1, 2, 2), action='C')
>>> format_roll(Roll((2, 5, 6), "butterfly"))
'2 5 6 butterfly'
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from caterpillar_learn.caterpillars.errors import InvalidRollError
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.errors import brief, describe

FACES = range(1, 7)
#: The six faces of the action die (Expert).
ACTION_FACES = ("A", "B", "C", "2x", "10", "butterfly")
#: Action faces that bring in the value of a bonus box.
BONUS_FACES = ("A", "B", "C")
TEN = 10


@dataclass(frozen=True)
class Roll:
    """The regular dice (sorted) and, at Expert, the action die's face."""

    dice: tuple[int, ...]
    action: str | None = None

    def __str__(self) -> str:
        return format_roll(self)


def _multiset_probability(dice: tuple[int, ...]) -> Fraction:
    ways = factorial(len(dice))
    for count in Counter(dice).values():
        ways //= factorial(count)
    return Fraction(ways, 6 ** len(dice))


@cache
def chance_outcomes(level: Level | str) -> tuple[tuple[Roll, Fraction], ...]:
    """Every distinct roll of ``level`` with its exact probability."""
    rules = Level.parse(level).rules
    faces: tuple[str | None, ...] = ACTION_FACES if rules.action_die else (None,)
    outcomes = []
    for dice in combinations_with_replacement(FACES, rules.dice):
        p = _multiset_probability(dice)
        for face in faces:
            outcomes.append((Roll(dice, face), p / len(faces)))
    return tuple(outcomes)


def roll_dice(level: Level | str, rng: random.Random) -> Roll:
    """Roll the dice of ``level`` with the generator ``rng``.

    >>> roll_dice("intermediate", random.Random(119))
    Roll(dice=(2, 3, 6), action=None)
    """
    rules = Level.parse(level).rules
    dice = tuple(sorted(rng.randint(1, 6) for _ in range(rules.dice)))
    action = rng.choice(ACTION_FACES) if rules.action_die else None
    return Roll(dice, action)


def roll_setup_dice(rng: random.Random) -> tuple[int, int, int]:
    """Three regular dice for one setup roll (setup always uses three)."""
    a, b, c = sorted(rng.randint(1, 6) for _ in range(3))
    return (a, b, c)


def make_roll(level: Level | str, dice: object, action: object = None) -> Roll:
    """A validated :class:`Roll` for ``level``.

    >>> make_roll("beginner", [7, 2])
    Traceback (most recent call last):
    ...
    caterpillar_learn.caterpillars.errors.InvalidRollError: roll: got die 7, expected 1 to 6
    """
    level = Level.parse(level)
    rules = level.rules
    if not isinstance(dice, (list, tuple)):
        raise InvalidRollError(describe("roll", dice, "a list of dice"))
    for die in dice:
        if not isinstance(die, int) or isinstance(die, bool) or die not in FACES:
            raise InvalidRollError(f"roll: got die {brief(die)}, expected 1 to 6")
    if len(dice) != rules.dice:
        raise InvalidRollError(
            f"roll: got {len(dice)} dice {brief(list(dice))}, expected {rules.dice} at {level.value}"
        )
    if rules.action_die:
        if action not in ACTION_FACES:
            raise InvalidRollError(describe("roll action die", action, f"one of {', '.join(ACTION_FACES)}"))
    elif action is not None:
        raise InvalidRollError(f"roll: got action die {brief(action)}, expected no action die below expert")
    return Roll(tuple(sorted(dice)), action if isinstance(action, str) else None)


def parse_roll(text: str, level: Level | str) -> Roll:
    """Read ``"3 4"``, ``"2 3 6"`` or ``"2 5 6 butterfly"`` (action face last)."""
    level = Level.parse(level)
    if not isinstance(text, str):
        raise InvalidRollError(describe("roll", text, "dice values separated by spaces"))
    tokens = text.replace(",", " ").split()
    action: str | None = None
    if (tokens and not tokens[-1].isdigit()) or (level.rules.action_die and len(tokens) > 3):
        action = tokens.pop()
        action = {"2X": "2x", "BUTTERFLY": "butterfly"}.get(action.upper(), action)
        if action in ("a", "b", "c"):
            action = action.upper()
    dice: list[int] = []
    for token in tokens:
        # ASCII digits only ("²" is a digit int() refuses), and short: int() refuses 5000 digits.
        if not (token.isascii() and token.isdigit()) or len(token) > 3:
            raise InvalidRollError(f"roll: got {brief(token)} in {brief(text)}, expected dice from 1 to 6")
        dice.append(int(token))
    return make_roll(level, dice, action)


def format_roll(roll: Roll) -> str:
    """The roll as ``parse_roll`` reads it."""
    parts = [str(d) for d in roll.dice]
    if roll.action is not None:
        parts.append(roll.action)
    return " ".join(parts)
