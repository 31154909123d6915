"""The games the hints' chances are counted over: only legal candidates are looked up, and the choice is argmax's.

:func:`~caterpillar_learn.advice.playout.optimal_totals` looks up only the
legal (pair, slot) candidates of each game and keeps the first best one.
The reference below looks up every candidate, as the module did before, and
takes ``argmax``; the two must play exactly the same games, from a fresh
sheet and from sheets part filled, so the hints' words do not change.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.advice import solve_layout
from caterpillar_learn.advice.playout import _tables, lookup, optimal_totals
from caterpillar_learn.advice.tables import Solution
from caterpillar_learn.caterpillars import Game, State
from caterpillar_learn.caterpillars.sheet import BOXES, SLOTS

LAYOUTS = ((1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1), (2, 2, 2, 2, 6, 6, 5, 1, 3, 3, 4, 4))


def every_candidate(solution: Solution, games: int, rng: random.Random, start: State | None) -> npt.NDArray[np.int64]:
    tables = _tables(solution)
    generator = np.random.default_rng(rng.getrandbits(64))
    labels = np.array(solution.labels)
    slots = np.arange(SLOTS)
    done = 0 if start is None else sum(1 << i for i, s in enumerate(start.scores) if s is not None)
    filled = np.full(games, done, dtype=np.int64)
    totals = np.tile(np.array((0, 0, 0) if start is None else start.totals, dtype=np.int64), (games, 1))
    pairs = tables.pair_score.shape[1]
    slot = np.tile(slots, pairs + 1)
    for _ in range(SLOTS - done.bit_count()):
        roll = generator.choice(len(tables.probs), size=games, p=tables.probs)
        empty = (filled[:, None] >> slots) & 1 == 0
        fits = empty[:, None, :] & (tables.pair_label[roll][:, :, None] == labels)
        none_fits = ~fits.any(axis=(1, 2))
        valid = np.concatenate([fits.reshape(games, -1), empty & none_fits[:, None]], axis=1)
        scores = np.broadcast_to(tables.pair_score[roll][:, :, None], fits.shape).reshape(games, -1)
        score = np.concatenate([scores, np.zeros((games, SLOTS), dtype=np.int64)], axis=1)
        new_filled = filled[:, None] | (1 << slot)[None, :]
        new_totals = np.repeat(totals[:, None, :], slot.size, axis=1)
        new_totals[:, np.arange(slot.size), slot // BOXES] += np.where(valid, score, 0)
        mask = np.where(valid, tables.mask_id[new_filled], 0)
        value = np.where(valid, lookup(solution, mask, np.where(valid[..., None], new_totals, 0)), -np.inf)
        best = value.argmax(axis=1)
        filled = new_filled[np.arange(games), best]
        totals = new_totals[np.arange(games), best]
    return totals


def played(layout: tuple[int, ...], seed: int, moves: int) -> State | None:
    """The sheet after ``moves`` random legal moves on ``layout`` (a sheet a game can reach, as a hint's is)."""
    if not moves:
        return None
    game = Game("beginner", list(layout), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game.play(rng.choice(list(game.legal_moves())))
    return game.state


@settings(max_examples=25, deadline=None)
@given(layout=st.sampled_from(LAYOUTS), seed=st.integers(0, 2**32), moves=st.integers(0, SLOTS - 1))
def test_the_legal_candidates_alone_play_the_same_games(layout: tuple[int, ...], seed: int, moves: int) -> None:
    solution = solve_layout("beginner", layout)
    start = played(layout, seed, moves)
    found = optimal_totals(solution, 300, random.Random(seed), start)
    assert np.array_equal(found, every_candidate(solution, 300, random.Random(seed), start))


def test_the_tables_index_every_mask_as_the_parts_do() -> None:
    solution = solve_layout("beginner", LAYOUTS[1])
    mask_id = _tables(solution).mask_id
    for filled in (0, 1, 0b1010_0101_1111, (1 << SLOTS) - 1, 0b0001_0010_0100):
        scores = tuple(0 if filled >> i & 1 else None for i in range(SLOTS))
        parts = [
            part.index_of(LAYOUTS[1][BOXES * c : BOXES * c + BOXES], scores[BOXES * c : BOXES * c + BOXES])
            for c, part in enumerate(solution.parts)
        ]
        assert mask_id[filled] == solution.combine(*parts)
