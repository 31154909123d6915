#!/usr/bin/env python3
"""Regenerate caterpillar_learn/lessons/yardsticks.json: each level's mean final score, random and best play.

The end of a game gives the child stars against its level's own yardstick
(:mod:`caterpillar_learn.lessons.stars`): the mean final score of moves drawn
at random, and of the hint's best moves, over seeded games of the strategy
lab (:func:`caterpillar_learn.advice.simulation.simulate`).  Review the diff, then
commit it:

    .venv/bin/python scripts/regenerate_yardsticks.py
"""

from __future__ import annotations

import json
from pathlib import Path

from caterpillar_learn.advice.simulation import simulate

OUT = Path(__file__).resolve().parent.parent / "caterpillar_learn" / "lessons" / "yardsticks.json"
#: Games per level and strategy: the exact levels play fast on the solver's tables; the others a move at a time.
GAMES = {"beginner": 4000, "intermediate": 4000, "advanced": 300, "expert": 300}
SEED = 1


def main() -> None:
    table = {}
    for level, games in GAMES.items():
        means = {}
        for strategy in ("random", "hint"):
            result = simulate(level, strategy, games, SEED)
            means[strategy] = round(result.mean, 1)
        table[level] = {**means, "games": games, "seed": SEED}
        print(level, table[level])
    OUT.write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
