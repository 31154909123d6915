#!/usr/bin/env python3
"""Legal-move generation throughput per level, beside a straightforward baseline.

Positions are states reached by seeded random playouts (with their next
roll).  The engine is timed cold (first pass, its per-roll tables empty) and
warm (median of the later passes); the baseline is the plain generator in
tests/caterpillars/reference_moves.py, written from the rule text, timed in
the same process on the same positions.  Targets (issue 2): >= 50,000
positions/s at Beginner and >= 10,000/s at Expert.

    .venv/bin/python benchmarks/caterpillars_moves.py [--positions N] [--repeats R]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from caterpillar_learn.caterpillars import Game, Level, legal_moves
from caterpillar_learn.caterpillars.rules import _options, _splits
from tests.caterpillars.reference_moves import reference_effects

TARGETS = {Level.BEGINNER: 50_000, Level.EXPERT: 10_000}


def sample_positions(level: Level, count: int, seed: int) -> list:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = Game(level, variation=level.rules.setup_variation and rng.random() < 0.5, seed=rng.randrange(2**32))
        while game.phase != "over":
            choices = game.legal_moves()
            if game.phase == "play":
                found.append((game.state, game.roll()))
            game.play(choices[rng.randrange(len(choices))])
    return found[:count]


def rate(fn, positions) -> float:
    start = time.perf_counter()
    for state, roll in positions:
        fn(state, roll)
    return len(positions) / (time.perf_counter() - start)


def engine(state, roll):
    return legal_moves(state, roll)


def baseline(state, roll):
    return reference_effects(state.level.value, state.labels, state.scores, state.bonus, roll.dice, roll.action)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"# {platform.python_implementation()} {platform.python_version()}, {args.positions} positions per level")
    print("| level | engine cold | engine warm (median) | baseline (median) | warm / baseline | target |")
    print("|---|---:|---:|---:|---:|---:|")
    for level in Level:
        positions = sample_positions(level, args.positions, seed=2026)
        _options.cache_clear()
        _splits.cache_clear()
        cold = rate(engine, positions)
        warm = statistics.median(rate(engine, positions) for _ in range(args.repeats))
        base = statistics.median(rate(baseline, positions[: args.positions // 4]) for _ in range(args.repeats))
        target = TARGETS.get(level)
        verdict = f"≥ {target:,} {'met' if warm >= target else 'MISSED'}" if target else "–"
        print(f"| {level.value} | {cold:,.0f} | {warm:,.0f} | {base:,.0f} | {warm / base:.1f}× | {verdict} |")


if __name__ == "__main__":
    main()
