#!/usr/bin/env python3
"""Regenerate caterpillar_learn/puzzles/bank.json: the puzzles by level and idea, made by seeded noisy self-play.

Each level's recipe (layouts, games, puzzles kept an idea) and the seed are
:data:`caterpillar_learn.puzzles.players.RECIPES` and ``SEED``; the same code
and seed give the same file.  The exact levels solve each of their layouts
once, Advanced and Expert read the same layouts' Intermediate solves.  Review
the diff (one puzzle a line), then commit it:

    .venv/bin/python scripts/make_puzzles.py

It prints each level's puzzles per idea and the seconds it took.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from caterpillar_learn.caterpillars import Level
from caterpillar_learn.puzzles.bank import banks_to_text
from caterpillar_learn.puzzles.players import SEED, about, make_level

OUT = Path(__file__).resolve().parent.parent / "caterpillar_learn" / "puzzles" / "bank.json"


def main() -> None:
    started = time.perf_counter()
    banks = []
    for level in Level:
        begun = time.perf_counter()
        bank = make_level(level, SEED)
        banks.append(bank)
        ideas = Counter(puzzle.idea for puzzle in bank.puzzles)
        exact = sum(puzzle.exact for puzzle in bank.puzzles)
        print(
            f"{level.value}: {len(bank.puzzles)} puzzles ({exact} exact), "
            + ", ".join(f"{idea} {ideas[idea]}" for idea in bank.ideas())
            + f"; {time.perf_counter() - begun:.1f} s"
        )
    OUT.write_text(banks_to_text(banks, about(SEED)), encoding="utf-8")
    print(
        f"wrote {OUT.relative_to(Path.cwd()) if OUT.is_relative_to(Path.cwd()) else OUT} "
        f"in {time.perf_counter() - started:.1f} s"
    )


if __name__ == "__main__":
    main()
