"""Strategy lab: optimal Beginner games per second, and mean finals of the four strategies.

Baseline for speed: the same optimal policy played game by game through the
engine (``play_game`` with the ``hint`` strategy).  Run with a smaller
``--games`` for a quick look: .venv/bin/python benchmarks/advice_lab.py --games 2000
"""

from __future__ import annotations

import argparse
import random
import time

from caterpillar_learn.advice.simulation import LAB_LABELS, hint_strategy, play_game, simulate
from caterpillar_learn.advice.solver import solve_layout
from caterpillar_learn.caterpillars import Level


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--levels", default="beginner,intermediate,advanced,expert")
    args = parser.parse_args()
    solve_layout("beginner", LAB_LABELS)
    simulate("beginner", "hint", 100, seed=0)  # build the playout tables once
    start = time.perf_counter()
    simulate("beginner", "hint", 20_000, seed=1)
    ours = 20_000 / (time.perf_counter() - start)
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(200):
        play_game(Level.BEGINNER, LAB_LABELS, hint_strategy, rng)
    base = 200 / (time.perf_counter() - start)
    print(
        f"beginner optimal simulation: {ours:,.0f} games/s; baseline game-by-game {base:,.0f} games/s; "
        f"ratio {ours / base:.0f}x"
    )
    for level in args.levels.split(","):
        line = []
        for strategy in ("random", "greedy", "median", "hint"):
            start = time.perf_counter()
            result = simulate(level, strategy, args.games, seed=2026, progress=True)
            line.append(f"{strategy} {result.mean:.2f} ± {result.stderr:.2f} ({time.perf_counter() - start:.0f} s)")
        print(f"{level}, {args.games} games, seed 2026, lab layout: " + "; ".join(line), flush=True)


if __name__ == "__main__":
    main()
