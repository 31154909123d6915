"""Exact solve of fresh layouts (Beginner, Intermediate) beside a memoised pure-Python expectimax.

The baseline cannot solve a whole game in reasonable time, so it solves a
subgame (the last EMPTY boxes of a game) and both are compared in states
per second as well as in wall time.  Run: .venv/bin/python benchmarks/advice_solve.py
"""

from __future__ import annotations

import random
import resource
import statistics
import time
from functools import cache

from caterpillar_learn.advice.solver import clear_cache, solve_layout
from caterpillar_learn.caterpillars import State, apply, chance_outcomes, legal_moves

LAYOUTS = [
    (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1),
    (2, 4, 6, 1, 3, 2, 5, 5, 5, 6, 2, 1),
    (1, 5, 6, 3, 4, 2, 6, 5, 5, 1, 2, 3),
]


def baseline(state: State) -> tuple[float, int]:
    @cache
    def value(scores: tuple[int | None, ...]) -> float:
        here = State(state.level, state.labels, scores)
        if here.is_complete:
            return float(sorted(here.totals)[1])
        return sum(
            float(p) * max(value(apply(here, m).scores) for m in legal_moves(here, roll))
            for roll, p in chance_outcomes(state.level)
        )

    result = value(state.scores)
    return result, value.cache_info().currsize


def subgame(level: str, empty: int) -> State:
    rng = random.Random(1)
    top = 6 if level == "beginner" else 12
    filled = rng.sample(range(12), 12 - empty)
    return State(level, LAYOUTS[0], tuple(rng.randint(0, top) if i in filled else None for i in range(12)))


def main() -> None:
    for level, empty in (("beginner", 4), ("intermediate", 3)):
        times, cpu, sizes = [], [], []
        for labels in LAYOUTS:
            clear_cache()
            start, start_cpu = time.perf_counter(), time.process_time()
            solution = solve_layout(level, labels)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            sizes.append(solution.values.size)
        ours_rate = statistics.median(s / t for s, t in zip(sizes, times))
        start = time.perf_counter()
        _, states = baseline(subgame(level, empty))
        base_time = time.perf_counter() - start
        base_rate = states / base_time
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{level}: fresh-layout solve median {statistics.median(times):.2f} s wall "
            f"({statistics.median(cpu):.2f} s CPU; runs {', '.join(f'{t:.2f}' for t in times)}), "
            f"{statistics.median(sizes) / 1e6:.1f} M states, {ours_rate / 1e6:.2f} M states/s; "
            f"baseline memoised expectimax: {states} states of a {empty}-empty-box subgame in {base_time:.2f} s "
            f"= {base_rate:,.0f} states/s; ratio {ours_rate / base_rate:,.0f}x; "
            f"baseline full solve would take ~{statistics.median(sizes) / base_rate / 3600:.1f} h; "
            f"peak RSS so far {peak:.0f} MB"
        )


if __name__ == "__main__":
    main()
