"""The puzzle bank's generation for one level (issue 45): ``make_level`` as ``scripts/make_puzzles.py`` runs it.

*Cold* is a run with nothing solved (the solver's memory cleared, no solve cache folder): the layouts' exact solves
and the noisy self-play together.  *Warm* is the same run with the layouts already solved into a solve cache folder
(:mod:`caterpillar_learn.advice.disk_cache`; the solver keeps only 4 layouts in memory, Beginner has 8): reading
them, the self-play, the hint's rankings and the choice of puzzles.  Medians (and ranges) of RUNS runs each, wall
and CPU seconds, in one process.  Run: .venv/bin/python benchmarks/puzzle_bank.py [--level beginner] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from caterpillar_learn.advice import disk_cache
from caterpillar_learn.advice.solver import clear_cache
from caterpillar_learn.caterpillars import Level
from caterpillar_learn.puzzles.players import RECIPES, SEED, make_level


def timed(level: Level, *, cold: bool) -> tuple[float, float, int]:
    """Wall and CPU seconds of one level's bank, and how many puzzles it kept."""
    if cold:
        clear_cache()
    wall, cpu = time.perf_counter(), time.process_time()
    bank = make_level(level, SEED)
    return time.perf_counter() - wall, time.process_time() - cpu, len(bank.puzzles)


def summary(name: str, runs: list[tuple[float, float, int]]) -> str:
    walls, cpus = [run[0] for run in runs], [run[1] for run in runs]
    return (
        f"{name}: median {statistics.median(walls):.2f} s wall (runs {min(walls):.2f}-{max(walls):.2f}), "
        f"{statistics.median(cpus):.2f} s CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="beginner", choices=[level.value for level in Level])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ.pop(disk_cache.ENV, None)  # every cold run solves its layouts itself
    level = Level.parse(args.level)
    recipe = RECIPES[level]
    cold = [timed(level, cold=True) for _ in range(args.runs)]
    with tempfile.TemporaryDirectory(prefix="puzzle-bank-") as folder:
        os.environ[disk_cache.ENV] = folder
        timed(level, cold=True)  # fills the folder
        warm = [timed(level, cold=True) for _ in range(args.runs)]
        os.environ.pop(disk_cache.ENV)
    print(
        f"{level.value}: {cold[0][2]} puzzles from {recipe.layouts} layouts x {recipe.games} games "
        f"(at most {recipe.most} an idea)"
    )
    print(summary("cold (layouts solved in the run)", cold))
    print(summary("warm (layouts read from a solve cache folder)", warm))


if __name__ == "__main__":
    main()
