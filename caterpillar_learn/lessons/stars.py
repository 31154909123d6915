"""Stars at the end of a game: how well the child played, against the level's own yardstick.

Each level's yardstick is two means of the strategy lab's seeded games
(``yardsticks.json``, made by ``scripts/regenerate_yardsticks.py``): the final
score of moves drawn at random, and of the hint's best moves.  A game ends
with

* three stars at or above the best moves' mean (as well as the helper plays, on average),
* two stars at or above halfway between the two means,
* one star below that: every finished game earns one.

>>> stars("beginner", 15), stars("beginner", 13), stars("beginner", 4)
(3, 2, 1)
>>> stars("expert", 100)
3

A Räuber Raupe game's yardstick is its own table (:func:`table_stars`): the
cards the busiest bot put down, or, for a referee, every mistake there was
to call.

>>> table_stars(9, 9), table_stars(5, 9), table_stars(2, 9), table_stars(0, 0)
(3, 2, 1, 3)
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from caterpillar_learn.caterpillars.levels import Level

__all__ = ["MOST", "stars", "table_stars", "yardstick"]

#: The most stars a game earns.
MOST = 3


@cache
def _table() -> dict[str, dict[str, float]]:
    raw = resources.files("caterpillar_learn.lessons").joinpath("yardsticks.json").read_text(encoding="utf-8")
    table: dict[str, dict[str, float]] = json.loads(raw)
    return table


def yardstick(level: Level | str) -> tuple[float, float]:
    """The level's (random moves' mean, best moves' mean) final score."""
    row = _table()[Level.parse(level).value]
    return float(row["random"]), float(row["hint"])


def stars(level: Level | str, final: int) -> int:
    """How many stars (1 to :data:`MOST`) a final score earns at ``level``."""
    random_mean, best_mean = yardstick(level)
    if final >= best_mean:
        return MOST
    if final >= (random_mean + best_mean) / 2:
        return 2
    return 1


def table_stars(mine: int, yardstick: int) -> int:
    """How many stars (1 to :data:`MOST`) a Räuber Raupe game earns: ``mine`` (the learner's fitting cards,
    or a referee's right calls) against ``yardstick`` (the busiest bot's cards, or every mistake made).

    Three at the yardstick or above (or a win: the table passes the winner's whole hand as ``yardstick``),
    two at half of it or more, else one.
    """
    if mine >= yardstick:
        return MOST
    if 2 * mine >= yardstick:
        return 2
    return 1
