"""The four levels of Caterpillars and what each one plays with.

One registry (:data:`LEVEL_RULES`) says, per level, how many regular dice are
rolled, whether the bonus boxes and the action die are used and whether the
setup variation may be chosen; the rest of the engine reads it instead of
branching on level names.  The hint generator keeps its own registry beside
this one (``LEVEL_ADVICE`` in ``caterpillar_learn.advice.levels``): a new
level is one entry in each.

>>> Level.parse("expert").rules.action_die
True
>>> Level.BEGINNER.rules.dice
2
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from caterpillar_learn.caterpillars.errors import InvalidStateError
from caterpillar_learn.errors import describe


@dataclass(frozen=True)
class LevelRules:
    """What one level plays with."""

    dice: int
    bonus_boxes: bool
    action_die: bool
    setup_variation: bool


class Level(str, Enum):
    """A difficulty level; its value is the name used in JSON."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"

    @property
    def rules(self) -> LevelRules:
        return LEVEL_RULES[self]

    @classmethod
    def parse(cls, value: object) -> Level:
        """The level named ``value``, or a one-line error.

        >>> Level.parse("master")
        Traceback (most recent call last):
        ...
        caterpillar_learn.caterpillars.errors.InvalidStateError: level: got 'master', \
expected one of 'beginner', 'intermediate', 'advanced', 'expert'
        """
        if isinstance(value, Level):
            return value
        for level in cls:
            if level.value == value:
                return level
        names = ", ".join(repr(level.value) for level in cls)
        raise InvalidStateError(describe("level", value, f"one of {names}"))


LEVEL_RULES: dict[Level, LevelRules] = {
    Level.BEGINNER: LevelRules(dice=2, bonus_boxes=False, action_die=False, setup_variation=False),
    Level.INTERMEDIATE: LevelRules(dice=3, bonus_boxes=False, action_die=False, setup_variation=True),
    Level.ADVANCED: LevelRules(dice=3, bonus_boxes=True, action_die=False, setup_variation=True),
    Level.EXPERT: LevelRules(dice=3, bonus_boxes=True, action_die=True, setup_variation=True),
}
