"""Values at Advanced and Expert, where the whole game is too big to solve.

Three tiers, from exact to estimated:

* a full sheet is worth its final score (exact);
* a sheet with one empty box is worth the exact expectation over the last
  roll of the best last move (exact);
* otherwise the value is **estimated**: the exact value of the same boxes
  and totals in the level's solved level (Intermediate: the game without
  bonus boxes, solved once per layout; at Expert the totals are first
  shrunk to its scale), plus the bonus boxes weighted by the chance that
  their caterpillar flies.  That chance comes from a normal model of each
  caterpillar's final total (current total plus the level's box mean per
  empty box, its box variance per empty box); an empty bonus box counts
  what it will probably still receive (:data:`FILL_VALUE`).  The per-level
  figures are in :data:`~caterpillar_learn.advice.levels.LEVEL_ADVICE`.

>>> from caterpillar_learn.caterpillars import State
>>> labels = (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1)
>>> full = State("advanced", labels, (3,) * 8 + (4,) * 4, (6, None, None))
>>> value(full)
(18.0, True)
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

import numpy as np

from caterpillar_learn.advice.levels import LEVEL_ADVICE, level_advice
from caterpillar_learn.advice.solver import solve_layout
from caterpillar_learn.advice.tables import Solution
from caterpillar_learn.caterpillars.dice import chance_outcomes
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.rules import offers
from caterpillar_learn.caterpillars.scoring import flying_caterpillar
from caterpillar_learn.caterpillars.sheet import BOXES, SLOTS, State

#: What an empty bonus box is expected to receive, by rounds still to play after this move.
FILL_VALUE = (0.0, 2.0, 3.0, 3.5, 4.0)

_GRID = np.linspace(-4.0, 4.0, 41)


def no_bonus_solution(state: State, *, progress: bool = False) -> Solution:
    """The exact solution of ``state``'s layout at its solved level (the estimate's backbone)."""
    labels = tuple(v for v in state.labels if v is not None)
    return solve_layout(LEVEL_ADVICE[state.level].solved_level, labels, progress=progress)


def value(state: State) -> tuple[float, bool]:
    """``(expected final score, exact?)`` of an Advanced or Expert ``state`` before its next roll."""
    empty = SLOTS - state.filled
    if empty == 0:
        return float(_final(state.totals, state.bonus)), True
    if empty == 1:
        return last_round_value(state), True
    return estimated_value(state), False


def _final(totals: tuple[int, int, int], bonus: tuple[int | None, ...]) -> int:
    values = (bonus[0] or 0, bonus[1] or 0, bonus[2] or 0)
    flying = flying_caterpillar(totals, values)
    return totals[flying] + values[flying]


@cache
def _last_moves(
    level: Level, label: int, bonus: tuple[int | None, int | None, int | None]
) -> tuple[tuple[float, tuple[tuple[int, tuple[int, int] | None], ...]], ...]:
    # Per roll, the (score, bonus entry) moves into a lone empty box with this label:
    # each bonus choice writes its scores for the label, or a 0 if it has none (rule 4).
    out = []
    for roll, p in chance_outcomes(level):
        moves: set[tuple[int, tuple[int, int] | None]] = set()
        for offer in offers(level, roll, bonus=bonus):
            if offer.can_fill((label,)):
                moves.update((score, offer.bonus) for score, offered in offer.pairs if offered == label)
            else:
                moves.add((0, offer.bonus))
        out.append((float(p), tuple(moves)))
    return tuple(out)


@lru_cache(maxsize=65536)
def _last_round(
    level: Level,
    label: int,
    caterpillar: int,
    totals: tuple[int, int, int],
    bonus: tuple[int | None, int | None, int | None],
) -> float:
    expected = 0.0
    for p, moves in _last_moves(level, label, bonus):
        best = -1
        for score, entry in moves:
            new_totals = list(totals)
            new_totals[caterpillar] += score
            new_bonus = list(bonus)
            if entry is not None:
                new_bonus[entry[0]] = entry[1]
            best = max(best, _final((new_totals[0], new_totals[1], new_totals[2]), tuple(new_bonus)))
        expected += p * best
    return expected


def last_round_value(state: State) -> float:
    """Exact expected final score of a sheet with one empty box."""
    slot = next(state.empty_slots())
    label = state.labels[slot]
    assert label is not None
    return _last_round(state.level, label, slot // BOXES, state.totals, state.bonus)


def fly_chances(state: State) -> tuple[float, float, float]:
    """Chance that each caterpillar ends up the median one (normal model of the final totals).

    >>> from caterpillar_learn.caterpillars import State
    >>> state = State("advanced", (1,) * 12, (6, 6, None, None, 1, 1, None, None, 3, 3, None, None))
    >>> [round(p, 2) for p in fly_chances(state)]
    [0.17, 0.24, 0.59]
    """
    advice = level_advice(state.level)
    mean, var = advice.box_mean, advice.box_variance
    mu, sd = [], []
    for c in range(3):
        empty = sum(s is None for s in state.scores[BOXES * c : BOXES * c + BOXES])
        mu.append(state.totals[c] + empty * mean)
        sd.append(math.sqrt(max(empty * var, 0.25)))
    chances = []
    for c in range(3):
        a, b = [i for i in range(3) if i != c]
        x = mu[c] + sd[c] * _GRID
        density = np.exp(-0.5 * _GRID**2)
        fa, fb = _cdf((x - mu[a]) / sd[a]), _cdf((x - mu[b]) / sd[b])
        between = fa * (1 - fb) + fb * (1 - fa)
        chances.append(float((density * between).sum() / density.sum()))
    total = sum(chances)
    return (chances[0] / total, chances[1] / total, chances[2] / total)


def _cdf(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.7978845608 * (z + 0.044715 * z**3)))


def estimated_value(state: State) -> float:
    """Estimated expected final score: exact no-bonus value plus the modelled bonus."""
    solution = no_bonus_solution(state)
    base = _scaled_lookup(solution, state)
    rounds_left = SLOTS - state.filled
    fill = FILL_VALUE[min(rounds_left, len(FILL_VALUE) - 1)]
    chances = fly_chances(state)
    bonus = sum(p * (fill if b is None else b) for p, b in zip(chances, state.bonus))
    return base + bonus


def _scaled_lookup(solution: Solution, state: State) -> float:
    # Expert dice write bigger scores than Intermediate ones: shrink the
    # totals to the solved level's scale, interpolate, and grow the value back.
    advice = LEVEL_ADVICE[state.level]
    scale = LEVEL_ADVICE[advice.solved_level].box_mean / advice.box_mean if advice.rescale_totals else 1.0
    mask = solution.mask_id(state)
    t0, t1, t2 = (scale * t for t in state.totals)
    base = int(solution.base[mask])
    rows, cols = int(solution.height[mask]), int(solution.width[mask])
    table = solution.values[int(solution.offset[mask]) : int(solution.offset[mask]) + rows * cols]
    x = min(max(t1 - t0 + base, 0.0), rows - 1.0)
    y = min(max(t2 - t0 + base, 0.0), cols - 1.0)
    i, j = min(int(x), rows - 2) if rows > 1 else 0, min(int(y), cols - 2) if cols > 1 else 0
    fx, fy = x - i, y - j

    def at(a: int, b: int) -> float:
        return float(table[min(a, rows - 1) * cols + min(b, cols - 1)])

    w = (
        at(i, j) * (1 - fx) * (1 - fy)
        + at(i + 1, j) * fx * (1 - fy)
        + at(i, j + 1) * (1 - fx) * fy
        + at(i + 1, j + 1) * fx * fy
    )
    return (t0 + w) / scale


__all__ = ["FILL_VALUE", "fly_chances", "last_round_value", "value"]
