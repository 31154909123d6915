"""Exact solver for Beginner and Intermediate: expected final score under optimal play.

The value of a sheet depends only on, per caterpillar, *which labels are
still empty* (boxes with equal labels in one caterpillar are interchangeable,
so this is a sub-multiset of its four labels) and its total.  Moreover the
median moves with the totals: adding ``d`` to all three totals adds ``d`` to
every final score, so

    value(empties, t0, t1, t2) = t0 + W[empties](t1 - t0, t2 - t0)

and only the two differences need a table.  A caterpillar with ``k`` filled
boxes has a total from 0 to ``k * max_score``, which bounds both differences.
Layers are solved from the full sheet (``W`` = median of ``0, d1, d2``)
backwards; each layer's tables are computed with NumPy, one gather, one
``maximum.reduceat`` and one matrix product per set of empty boxes.  All
tables live in one flat ``float64`` array (10.4 million numbers, 83 MB, at
Intermediate for a layout with twelve different labels), kept for hints.

>>> solution = solve_layout("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
>>> round(solution.start_value, 4)
14.2734
>>> from caterpillar_learn.caterpillars import State
>>> state = State.new("beginner", solution.labels)
>>> solution.value(state) == solution.start_value
True
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

import numpy as np
import numpy.typing as npt

from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.caterpillars.dice import chance_outcomes
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.rules import legal_moves
from caterpillar_learn.caterpillars.sheet import BOXES, SLOTS, State
from caterpillar_learn.errors import describe

#: Levels solved exactly, with the highest score one box can receive.
EXACT_MAX_SCORE = {Level.BEGINNER: 6, Level.INTERMEDIATE: 12}
#: Solved layouts kept in memory (an Intermediate table is about 83 MB).
CACHE_SIZE = 4

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
    level = _exact_level(level)
    # A sheet with every label from 1 to 12 shows every pair a roll offers.
    probe = State.new(level, range(1, SLOTS + 1))
    grouped: dict[frozenset[tuple[int, int]], float] = {}
    for roll, p in chance_outcomes(level):
        pairs = frozenset((m.score, m.slot + 1) for m in legal_moves(probe, roll) if not m.zero)
        grouped[pairs] = grouped.get(pairs, 0.0) + float(p)
    return RollTable(tuple(grouped), tuple(grouped.values()))


def _exact_level(level: Level | str) -> Level:
    level = Level.parse(level)
    if level not in EXACT_MAX_SCORE:
        raise AdviceError(describe("level", level.value, "beginner or intermediate for an exact solve"))
    return level


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


# -- solving ----------------------------------------------------------------------

Present = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
Offer = tuple[tuple[int, int], ...]  # (label, score) pairs a roll offers among present labels


@cache
def _best_scores(level: Level) -> tuple[tuple[Offer, float], ...]:
    # More points in a caterpillar never lower the value (the median is
    # monotone), so per label only the roll's highest score is worth trying.
    table = roll_table(level)
    grouped: dict[Offer, float] = {}
    for pairs, p in zip(table.pairs, table.probs):
        best: dict[int, int] = {}
        for score, label in pairs:
            best[label] = max(score, best.get(label, -1))
        key = tuple(sorted(best.items()))
        grouped[key] = grouped.get(key, 0.0) + p
    return tuple(grouped.items())


@cache
def _offers(level: Level, present: frozenset[int]) -> tuple[tuple[Offer, float], ...]:
    grouped: dict[Offer, float] = {}
    for best, p in _best_scores(level):
        key = tuple(pair for pair in best if pair[0] in present)
        grouped[key] = grouped.get(key, 0.0) + p
    return tuple(grouped.items())


@dataclass(frozen=True)
class _Plan:
    """How one set of empty labels meets every roll: options grouped by offer.

    Offers are sorted by their number of options so that each group's
    maximum is one NumPy reduction over a ``(offers, options, cells)`` block.
    """

    cl: tuple[tuple[int, int], ...]  # (caterpillar, label) boxes that can be filled
    opt_cl: Ints  # per option: index into cl
    narrow: Ints  # per option: 1 if it fills Bobby (the successor table keeps its width)
    step: Ints  # per option: its shift in the successor table is step * width + fixed
    fixed: Ints
    points: Floats  # per option: points added to Alex's total (the reference)
    groups: tuple[tuple[int, int, int, Floats], ...]  # (first option, offers, options each, probs)


@cache
def _plan(level: Level, present: Present) -> _Plan:
    cl = tuple((c, lab) for c in range(3) for lab in present[c])
    index = {pair: i for i, pair in enumerate(cl)}
    owners: dict[int, list[int]] = {}
    for c, lab in cl:
        owners.setdefault(lab, []).append(c)
    zero = [(c, lab, 0) for c, lab in cl]
    by_count: dict[int, list[tuple[list[tuple[int, int, int]], float]]] = {}
    for offer, p in _offers(level, frozenset(owners)):
        opts = [(c, lab, s) for lab, s in offer for c in owners[lab]] or zero
        by_count.setdefault(len(opts), []).append((opts, p))
    flat: list[tuple[int, int, int]] = []
    groups = []
    for count in sorted(by_count):
        entries = by_count[count]
        groups.append((len(flat), len(entries), count, np.array([p for _, p in entries])))
        for opts, _ in entries:
            flat.extend(opts)
    cats = np.array([cat for cat, _, _ in flat], dtype=np.int64)
    scores = np.array([score for _, _, score in flat], dtype=np.int64)
    mx = EXACT_MAX_SCORE[level]
    # Successor table coordinates (see the module docstring): filling Alex
    # lowers both differences by s and widens both axes by mx; Bobby shifts
    # rows, Charlie shifts columns of a wider table.
    return _Plan(
        cl,
        np.array([index[(c, lab)] for c, lab, _ in flat], dtype=np.int64),
        np.asarray(cats == 1, dtype=np.int64),
        np.where(cats == 1, scores, np.where(cats == 0, mx - scores, 0)),
        np.where(cats == 2, scores, np.where(cats == 0, (mx - scores) * (mx + 1), 0)),
        np.asarray(np.where(cats == 0, scores, 0), dtype=np.float64),
        tuple(groups),
    )


def _median_table(size: int, max_score: int) -> Floats:
    d = np.arange(size, dtype=np.float64) - 4 * max_score
    d1, d2 = np.meshgrid(d, d, indexing="ij")
    return np.median(np.stack([np.zeros_like(d1), d1, d2]), axis=0).ravel()


def _solve(level: Level, labels: tuple[int, ...], progress: bool) -> Solution:
    started = time.perf_counter()
    mx = EXACT_MAX_SCORE[level]
    parts = (Part.of(labels[0:4]), Part.of(labels[4:8]), Part.of(labels[8:12]))
    n0, n1, n2 = (len(p.remaining) for p in parts)
    count = n0 * n1 * n2
    offset = np.zeros(count, dtype=np.int64)
    height = np.zeros(count, dtype=np.int64)
    width = np.zeros(count, dtype=np.int64)
    base = np.zeros(count, dtype=np.int64)
    layers: list[list[tuple[int, int, int, int]]] = [[] for _ in range(SLOTS + 1)]
    position = 0
    for i0, i1, i2 in product(range(n0), range(n1), range(n2)):
        k0, k1, k2 = parts[0].filled[i0], parts[1].filled[i1], parts[2].filled[i2]
        mask = (i0 * n1 + i1) * n2 + i2
        rows, cols = mx * (k0 + k1) + 1, mx * (k0 + k2) + 1
        offset[mask], height[mask], width[mask], base[mask] = position, rows, cols, mx * k0
        position += rows * cols
        layers[k0 + k1 + k2].append((mask, i0, i1, i2))
    values = np.empty(position, dtype=np.float64)
    full = layers[SLOTS][0][0]
    size = (8 * mx + 1) ** 2
    values[offset[full] : offset[full] + size] = _median_table(8 * mx + 1, mx)
    bar = _progress_bar(count - 1, level) if progress else None
    index_cache: dict[tuple[int, int], Ints] = {}
    for filled in range(SLOTS - 1, -1, -1):
        for mask, i0, i1, i2 in layers[filled]:
            idx = (i0, i1, i2)
            present: Present = (
                tuple(parts[0].succ[i0]),
                tuple(parts[1].succ[i1]),
                tuple(parts[2].succ[i2]),
            )
            plan = _plan(level, present)
            succ_off = np.array(
                [offset[_combine_succ(idx, c, lab, parts, n1, n2)] for c, lab in plan.cl],
                dtype=np.int64,
            )
            rows, cols = int(height[mask]), int(width[mask])
            key = (rows, cols)
            if key not in index_cache:
                r = np.arange(rows, dtype=np.int64)[:, None]
                q = np.arange(cols, dtype=np.int64)[None, :]
                index_cache[key] = np.stack([(r * (cols + mx) + q).ravel(), (r * cols + q).ravel()])
            gather = index_cache[key][plan.narrow]
            gather += (succ_off[plan.opt_cl] + plan.step * cols + plan.fixed)[:, None]
            table = np.take(values, gather)
            table += plan.points[:, None]
            out = np.zeros(rows * cols)
            for first, offers, options, probs in plan.groups:
                block = table[first : first + offers * options]
                if options > 1:
                    block = block.reshape(offers, options, -1).max(axis=1)
                out += probs @ block
            values[offset[mask] : offset[mask] + rows * cols] = out
            if bar is not None:
                bar.update(1)
    if bar is not None:
        bar.close()
    return Solution(level, labels, mx, parts, values, offset, height, width, base, time.perf_counter() - started)


def _combine_succ(
    idx: tuple[int, int, int], c: int, label: int, parts: tuple[Part, Part, Part], n1: int, n2: int
) -> int:
    new = list(idx)
    new[c] = parts[c].succ[idx[c]][label]
    return (new[0] * n1 + new[1]) * n2 + new[2]


def _progress_bar(total: int, level: Level) -> Any:
    from tqdm import tqdm  # imported lazily: only a solve with progress needs it

    return tqdm(total=total, desc=f"solving {level.value}", unit="set", leave=False)


# -- the cache --------------------------------------------------------------------

_CACHE: OrderedDict[tuple[Level, tuple[int, ...]], Solution] = OrderedDict()


def solve_layout(level: Level | str, labels: Sequence[int | None], *, progress: bool = False) -> Solution:
    """The exact solution of one layout, solved once and then kept (least recently used).

    >>> solve_layout("advanced", (1,) * 12)
    Traceback (most recent call last):
    ...
    caterpillar_learn.advice.errors.AdviceError: level: got 'advanced', \
expected beginner or intermediate for an exact solve
    """
    level = _exact_level(level)
    if len(labels) != SLOTS or any(not isinstance(v, int) or not 1 <= v <= 12 for v in labels):
        raise AdviceError(describe("labels", list(labels), "12 labels from 1 to 12 (finish the setup first)"))
    key = (level, tuple(int(v) for v in labels if v is not None))
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    solution = _solve(level, key[1], progress)
    _CACHE[key] = solution
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return solution


def clear_cache() -> None:
    """Forget every solved layout."""
    _CACHE.clear()


__all__ = ["EXACT_MAX_SCORE", "Part", "RollTable", "Solution", "clear_cache", "roll_table", "solve_layout"]
