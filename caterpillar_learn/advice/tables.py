"""What the exact solver works with, and what it hands back.

* :func:`roll_table`: the rolls of an exact level, grouped by the
  ``(score, label)`` pairs they offer (the engine's
  :func:`~caterpillar_learn.caterpillars.offers`, no sheet needed);
* :class:`Part`: one caterpillar's possible sets of empty boxes (equal
  labels are interchangeable, so a set is a sub-multiset of its labels);
* :func:`solved_as`: the layout whose solve serves another (the order of
  a caterpillar's boxes does not change a value, so one solve serves all
  the orders);
* :class:`Solution`: the solved tables of one layout, and the value of any
  state of it.

The solving itself is in :mod:`caterpillar_learn.advice.solver`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product

import numpy as np
import numpy.typing as npt

from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.levels import LEVEL_ADVICE
from caterpillar_learn.caterpillars.dice import Roll, chance_outcomes
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.rules import offers, producible_scores
from caterpillar_learn.caterpillars.sheet import BOXES, State
from caterpillar_learn.errors import describe

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


# -- what the dice offer: (score, label) pairs per roll, grouped ------------------


@dataclass(frozen=True)
class RollTable:
    """The distinct sets of ``(score, label)`` pairs a level's rolls offer."""

    pairs: tuple[frozenset[tuple[int, int]], ...]
    probs: tuple[float, ...]


@cache
def roll_table(level: Level | str) -> RollTable:
    """Rolls of an exact level grouped by the (score, label) pairs they offer.

    >>> table = roll_table("beginner")
    >>> len(table.pairs), round(sum(table.probs), 12)
    (21, 1.0)
    >>> sorted(roll_table("intermediate").pairs[0])
    [(1, 2), (2, 1)]
    """
    level = exact_level(level)
    grouped: dict[frozenset[tuple[int, int]], float] = {}
    for roll, p in chance_outcomes(level):
        pairs = offered_pairs(level, roll)
        grouped[pairs] = grouped.get(pairs, 0.0) + float(p)
    return RollTable(tuple(grouped), tuple(grouped.values()))


def offered_pairs(level: Level, roll: Roll) -> frozenset[tuple[int, int]]:
    """Every ``(score, label)`` pair ``roll`` offers on a fresh sheet, whichever bonus choice makes it.

    >>> sorted(offered_pairs(Level.BEGINNER, Roll((2, 6))))
    [(2, 6), (6, 2)]
    """
    return frozenset(pair for offer in offers(level, roll) for pair in offer.pairs)


def exact_level(level: Level | str) -> Level:
    """``level`` if it is solved exactly, else a one-line error."""
    level = Level.parse(level)
    if not LEVEL_ADVICE[level].exact:
        exact = " or ".join(lv.value for lv, advice in LEVEL_ADVICE.items() if advice.exact)
        raise AdviceError(describe("level", level.value, f"{exact} for an exact solve"))
    return level


def max_box_score(level: Level) -> int:
    """The highest score one box can receive at ``level`` (it bounds the exact tables).

    >>> max_box_score(Level.BEGINNER), max_box_score(Level.INTERMEDIATE)
    (6, 12)
    """
    return max(producible_scores(level))


# -- one caterpillar: its possible sets of empty boxes ---------------------------


@dataclass(frozen=True)
class Part:
    """One caterpillar's sub-multisets of empty labels, indexed 0..n-1."""

    labels: tuple[int, ...]  # distinct labels, sorted
    remaining: tuple[tuple[int, ...], ...]  # per index: empty boxes per distinct label
    filled: tuple[int, ...]  # per index: filled boxes
    succ: tuple[dict[int, int], ...]  # per index: label -> index after filling one box
    index: dict[tuple[int, ...], int]

    @classmethod
    def of(cls, labels: Sequence[int]) -> Part:
        distinct = tuple(sorted(set(labels)))
        counts = [list(labels).count(v) for v in distinct]
        remaining = tuple(product(*(range(c + 1) for c in counts)))
        index = {r: i for i, r in enumerate(remaining)}
        succ = tuple(
            {v: index[r[:j] + (r[j] - 1,) + r[j + 1 :]] for j, v in enumerate(distinct) if r[j]} for r in remaining
        )
        filled = tuple(len(labels) - sum(r) for r in remaining)
        return cls(distinct, remaining, filled, succ, index)

    def index_of(self, labels: Sequence[int], scores: Sequence[int | None]) -> int:
        """Index of the empty boxes of one caterpillar's labels and scores."""
        empty = [lab for lab, s in zip(labels, scores) if s is None]
        return self.index[tuple(empty.count(v) for v in self.labels)]


def solved_as(labels: Sequence[int]) -> tuple[int, ...]:
    """The layout whose solve serves ``labels``: each caterpillar's four labels in ascending order.

    A value depends on which labels of each caterpillar are still empty, not
    on where its boxes are (:class:`Part`), so a class whose pupils wrote the
    same setup dice into a caterpillar in different orders needs one solve,
    not one per order.  Which caterpillar holds which labels still counts.

    >>> solved_as((6, 1, 3, 4,  2, 5, 2, 5,  5, 6, 2, 1))
    (1, 3, 4, 6, 2, 2, 5, 5, 1, 2, 5, 6)
    >>> Part.of((6, 1, 3, 4)) == Part.of((1, 3, 4, 6))
    True
    """
    return tuple(v for c in range(0, len(labels), BOXES) for v in sorted(int(x) for x in labels[c : c + BOXES]))


# -- the solution: every table, in one flat array ---------------------------------


@dataclass(frozen=True, eq=False)
class Solution:
    """Exact values of every state of one label layout at one level."""

    level: Level
    labels: tuple[int, ...]
    max_score: int
    parts: tuple[Part, Part, Part]
    values: Floats  # all W tables, flattened
    offset: Ints  # per combined id: start of its W table
    height: Ints  # per combined id: number of rows (d1 values)
    width: Ints  # per combined id: row length (number of d2 values)
    base: Ints  # per combined id: max_score * filled boxes of Alex (index of d = 0)
    seconds: float

    def mask_id(self, state: State) -> int:
        """Combined id of the empty boxes of ``state``."""
        i = [
            part.index_of(self.labels[BOXES * c : BOXES * c + BOXES], state.scores[BOXES * c : BOXES * c + BOXES])
            for c, part in enumerate(self.parts)
        ]
        return self.combine(i[0], i[1], i[2])

    def combine(self, i0: int, i1: int, i2: int) -> int:
        n1, n2 = len(self.parts[1].remaining), len(self.parts[2].remaining)
        return (i0 * n1 + i1) * n2 + i2

    def lookup(self, mask: int, totals: tuple[int, int, int]) -> float:
        """Value of the empty boxes ``mask`` with these totals, before the next roll."""
        t0, t1, t2 = totals
        base = int(self.base[mask])
        index = int(self.offset[mask]) + (t1 - t0 + base) * int(self.width[mask]) + t2 - t0 + base
        return t0 + float(self.values[index])

    def value(self, state: State) -> float:
        """Expected final score of ``state`` before its next roll, under optimal play."""
        if tuple(state.labels) != self.labels or state.level != self.level:
            raise AdviceError(describe("state", list(state.labels), f"the layout {list(self.labels)}"))
        return self.lookup(self.mask_id(state), state.totals)

    @property
    def start_value(self) -> float:
        """Expected final score of a fresh sheet."""
        return self.lookup(self._start_mask(), (0, 0, 0))

    def _start_mask(self) -> int:
        return self.combine(*(len(p.remaining) - 1 for p in self.parts))

    @property
    def nbytes(self) -> int:
        return sum(int(a.nbytes) for a in (self.values, self.offset, self.height, self.width, self.base))
