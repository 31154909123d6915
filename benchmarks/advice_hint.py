"""Latency of hints (median and 95th percentile) per level, beside a baseline.

Baseline: the engine alone listing the legal moves and applying each one
(the least any hint must do), measured on the same positions.  The solve of
each layout happens before timing (it is reported by advice_solve.py).
Run: .venv/bin/python benchmarks/advice_hint.py
"""

from __future__ import annotations

import random
import statistics
import time

from caterpillar_learn.advice import hint, solve
from caterpillar_learn.caterpillars import State, apply, legal_moves, roll_dice

LAYOUT = (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1)
GAMES = {"beginner": 40, "intermediate": 40, "advanced": 25, "expert": 15}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)]


def main() -> None:
    for level, games in GAMES.items():
        rng = random.Random(11)
        solve(State.new(level, LAYOUT).with_score(0, 1))  # solve the layout once, untimed
        ours, base = [], []
        for _ in range(games):
            state = State.new(level, LAYOUT)
            for _ in range(12):
                roll = roll_dice(level, rng)
                start = time.perf_counter()
                advice = hint(state, roll)
                ours.append(time.perf_counter() - start)
                start = time.perf_counter()
                for move in legal_moves(state, roll):
                    apply(state, move)
                base.append(time.perf_counter() - start)
                state = apply(state, advice.move)
        print(
            f"{level}: {len(ours)} hints, median {1e3 * statistics.median(ours):.2f} ms, "
            f"p95 {1e3 * quantile(ours, 0.95):.2f} ms, max {1e3 * max(ours):.1f} ms; "
            f"baseline (list + apply moves) median {1e3 * statistics.median(base):.3f} ms; "
            f"ratio {statistics.median(ours) / statistics.median(base):.1f}x"
        )


if __name__ == "__main__":
    main()
