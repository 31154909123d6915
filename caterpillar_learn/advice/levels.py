"""How the hint generator treats each level: one registry beside the engine's.

The engine says what a level plays with
(:data:`caterpillar_learn.caterpillars.levels.LEVEL_RULES`); :data:`LEVEL_ADVICE`
says how the hint generator values it: solved exactly or estimated, which
exact level's solve its values read, the scoring model of the estimates and
whose dice the chance statements count.  Every advice module reads this
registry instead of branching on level names, so **adding a level is one
entry in** ``LEVEL_RULES`` **and one in** :data:`LEVEL_ADVICE`.

>>> solved_level("expert")
<Level.INTERMEDIATE: 'intermediate'>
>>> level_advice("beginner").exact, level_advice("advanced").exact
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from caterpillar_learn.caterpillars.levels import Level


@dataclass(frozen=True)
class LevelAdvice:
    """How the hint generator values one level's sheets."""

    #: Solved exactly (every value from the solver's tables), or estimated.
    exact: bool
    #: The exact level whose solved tables this level's values read: itself
    #: when exact; an estimated level builds on the exact game without its extras.
    solved_level: Level
    #: Mean points written into one box with good play (rounded from simulated games).
    box_mean: float
    #: Variance of the points written into one box.
    box_variance: float
    #: The level whose dice the chance statements count ("a roll offers label 6
    #: in 11 of 36 rolls"): the same dice, bonus boxes and action die aside.
    chance_level: Level
    #: Whether the estimate shrinks the totals to :attr:`solved_level`'s scale
    #: before reading its tables (the dice write much bigger scores).
    rescale_totals: bool = False
    #: Whether a setup choice that completes the layout is valued by the exact
    #: solve (each choice is a fresh layout: affordable at Beginner only).
    solve_setup: bool = False


LEVEL_ADVICE: dict[Level, LevelAdvice] = {
    Level.BEGINNER: LevelAdvice(
        exact=True,
        solved_level=Level.BEGINNER,
        box_mean=3.2,
        box_variance=4.6,
        chance_level=Level.BEGINNER,
        solve_setup=True,
    ),
    Level.INTERMEDIATE: LevelAdvice(
        exact=True,
        solved_level=Level.INTERMEDIATE,
        box_mean=6.8,
        box_variance=9.9,
        chance_level=Level.INTERMEDIATE,
    ),
    Level.ADVANCED: LevelAdvice(
        exact=False,
        solved_level=Level.INTERMEDIATE,
        box_mean=6.0,
        box_variance=9.7,
        chance_level=Level.INTERMEDIATE,
    ),
    Level.EXPERT: LevelAdvice(
        exact=False,
        solved_level=Level.INTERMEDIATE,
        box_mean=10.0,
        box_variance=21.0,
        chance_level=Level.INTERMEDIATE,
        rescale_totals=True,
    ),
}


def level_advice(level: Level | str) -> LevelAdvice:
    """The registry entry of ``level`` (a :class:`Level` or its name).

    >>> level_advice("intermediate").box_mean
    6.8
    """
    return LEVEL_ADVICE[Level.parse(level)]


def solved_level(level: Level | str) -> Level:
    """The exact level whose solve ``level``'s hints read (Advanced and Expert estimate on Intermediate's).

    A layout's solve is keyed by this level and the labels, so a widget can
    start it in the background as soon as the labels are known.

    >>> [solved_level(level).value for level in Level]
    ['beginner', 'intermediate', 'intermediate', 'intermediate']
    """
    return level_advice(level).solved_level


__all__ = ["LEVEL_ADVICE", "LevelAdvice", "level_advice", "solved_level"]
