"""Many games at once under the optimal policy of a solved layout (NumPy, no engine calls).

Each game is a bitmask of filled slots and three totals.  Per round every
game gets a roll; each pair (score, label) of the roll is tried in every
empty slot with that label (or, if none fits, a 0 in every empty slot), the
successors are looked up in the solver's tables, and the best one is kept.
Rolls come from a NumPy generator seeded from the ``random.Random`` passed in,
so a seed gives the same games.

>>> import random
>>> from caterpillar_learn.advice.solver import solve_layout
>>> solution = solve_layout("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
>>> finals = optimal_finals(solution, 1000, random.Random(7))
>>> len(finals), bool(abs(finals.mean() - solution.start_value) < 1)
(1000, True)
>>> optimal_totals(solution, 3, random.Random(7)).shape
(3, 3)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from caterpillar_learn.advice.tables import Solution, offered_pairs
from caterpillar_learn.caterpillars.dice import chance_outcomes
from caterpillar_learn.caterpillars.sheet import BOXES, SLOTS, State

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Tables:
    mask_id: Ints  # filled-slot bitmask -> combined id of the empty boxes
    probs: npt.NDArray[np.float64]  # per roll
    pair_score: Ints  # (rolls, pairs), padded with -1
    pair_label: Ints  # (rolls, pairs), padded with -1


@lru_cache(maxsize=8)
def _tables(solution: Solution) -> _Tables:
    labels = solution.labels
    # Each caterpillar's four boxes have 16 filled patterns: index them once, then combine for all 4096 masks.
    masks = np.arange(1 << SLOTS, dtype=np.int64)
    part_ids = []
    for c, part in enumerate(solution.parts):
        own = labels[BOXES * c : BOXES * c + BOXES]
        ids = [part.index_of(own, tuple(0 if bits >> i & 1 else None for i in range(BOXES))) for bits in range(16)]
        part_ids.append(np.array(ids, dtype=np.int64)[(masks >> (BOXES * c)) & 15])
    n1, n2 = (len(part.remaining) for part in solution.parts[1:])
    mask_id = (part_ids[0] * n1 + part_ids[1]) * n2 + part_ids[2]
    rolls = chance_outcomes(solution.level)
    pairs = [sorted(offered_pairs(solution.level, roll)) for roll, _ in rolls]
    width = max(len(p) for p in pairs)
    score = np.full((len(rolls), width), -1, dtype=np.int64)
    label = np.full((len(rolls), width), -1, dtype=np.int64)
    for r, found in enumerate(pairs):
        for j, (s, lab) in enumerate(found):
            score[r, j], label[r, j] = s, lab
    probs = np.array([float(p) for _, p in rolls])
    return _Tables(mask_id, probs / probs.sum(), score, label)


def lookup(solution: Solution, mask_id: Ints, totals: Ints) -> npt.NDArray[np.float64]:
    """Values of many (empty boxes, totals) states at once; ``totals`` has shape (..., 3)."""
    t0, t1, t2 = totals[..., 0], totals[..., 1], totals[..., 2]
    base = solution.base[mask_id]
    index = solution.offset[mask_id] + (t1 - t0 + base) * solution.width[mask_id] + (t2 - t0 + base)
    values: npt.NDArray[np.float64] = solution.values[index] + t0
    return values


def optimal_finals(solution: Solution, games: int, rng: random.Random) -> Ints:
    """Final scores of ``games`` fresh games played optimally on ``solution``'s layout."""
    return np.sort(optimal_totals(solution, games, rng), axis=1)[:, 1]


def optimal_totals(solution: Solution, games: int, rng: random.Random, start: State | None = None) -> Ints:
    """The three caterpillars' final totals (shape ``(games, 3)``) of ``games`` optimal games.

    The games start from a fresh sheet, or from ``start`` (a sheet of
    ``solution``'s layout) and play its empty boxes.
    """
    tables = _tables(solution)
    generator = np.random.default_rng(rng.getrandbits(64))
    labels = np.array(solution.labels, dtype=np.int64)
    slots = np.arange(SLOTS, dtype=np.int64)
    caterpillar = slots // BOXES
    done = 0 if start is None else sum(1 << i for i, s in enumerate(start.scores) if s is not None)
    filled = np.full(games, done, dtype=np.int64)
    totals = np.tile(np.array((0, 0, 0) if start is None else start.totals, dtype=np.int64), (games, 1))
    pairs = tables.pair_score.shape[1]
    slot_of = np.tile(slots, pairs + 1)  # candidate k: pair k // SLOTS (the last "pair" is a 0) in slot k % SLOTS
    for _ in range(SLOTS - done.bit_count()):
        roll = generator.choice(len(tables.probs), size=games, p=tables.probs)
        empty = (filled[:, None] >> slots) & 1 == 0  # (games, slots)
        fits = empty[:, None, :] & (tables.pair_label[roll][:, :, None] == labels)  # (games, pairs, slots)
        none_fits = ~fits.any(axis=(1, 2))
        legal = np.concatenate([fits.reshape(games, -1), empty & none_fits[:, None]], axis=1)
        # Only the legal candidates are looked up (a few per game, not every pair in every slot).
        game, k = np.nonzero(legal)
        slot, pair = slot_of[k], k // SLOTS
        score = np.where(pair < pairs, tables.pair_score[roll[game], np.minimum(pair, pairs - 1)], 0)
        new_filled = filled[game] | (1 << slot)
        new_totals = totals[game]  # a copy (fancy indexing)
        new_totals[np.arange(game.size), caterpillar[slot]] += score
        value = lookup(solution, tables.mask_id[new_filled], new_totals)
        # Per game the best value, the first candidate among equals (as argmax over the candidates would pick).
        order = np.lexsort((k, -value, game))
        best = order[np.flatnonzero(np.r_[True, game[order][1:] != game[order][:-1]])]
        filled = new_filled[best]
        totals = new_totals[best]
    return totals


__all__ = ["lookup", "optimal_finals", "optimal_totals"]
