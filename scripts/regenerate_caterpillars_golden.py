#!/usr/bin/env python3
"""Regenerate tests/golden/caterpillars/moves.jsonl: (state, roll) -> legal moves.

Positions come from seeded random playouts at every level plus the rule
book's own examples.  Review the diff of the golden file as you would review
a rules change, then commit it:

    .venv/bin/python scripts/regenerate_caterpillars_golden.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from caterpillar_learn.caterpillars import Game, Level, format_roll, parse_roll, state_to_json
from caterpillar_learn.caterpillars.cli import moves_json
from caterpillar_learn.caterpillars.notation import state_from_json

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "caterpillars" / "moves.jsonl"
GAMES_PER_LEVEL = 3
KEEP_EVERY = 2  # rounds

SEED_LABELS = {"Alex": [1, 2, 4, 3], "Bobby": [5, 6, 1, 1], "Charlie": [1, 6, 2, 5]}
EMPTY = {"Alex": [None] * 4, "Bobby": [None] * 4, "Charlie": [None] * 4}
RULE_BOOK = [
    ("rule book: beginner 3 and 5", {"level": "beginner", "labels": SEED_LABELS, "scores": EMPTY}, "3 5"),
    (
        "rule book: intermediate 2, 3, 6",
        {
            "level": "intermediate",
            "scores": EMPTY,
            "labels": {"Alex": [6, 9, 4, 3], "Bobby": [5, 6, 1, 1], "Charlie": [1, 6, 2, 5]},
        },
        "2 3 6",
    ),
    ("rule book: advanced 2, 3, 5", {"level": "advanced", "labels": SEED_LABELS, "scores": EMPTY}, "2 3 5"),
    (
        "rule book: expert 2, 5, 6 butterfly",
        {"level": "expert", "labels": SEED_LABELS, "scores": EMPTY},
        "2 5 6 butterfly",
    ),
    (
        "rule book: expert 1, 2, 2 C",
        {
            "level": "expert",
            "labels": SEED_LABELS,
            "bonus": {"A": None, "B": None, "C": 6},
            "scores": {"Alex": [None] * 4, "Bobby": [None] * 4, "Charlie": [None, None, None, 7]},
        },
        "1 2 2 C",
    ),
]


def positions() -> list[tuple[str, dict, str]]:
    found = list(RULE_BOOK)
    for level in Level:
        for game_number in range(GAMES_PER_LEVEL):
            seed = 1000 * (list(Level).index(level) + 1) + game_number
            rng = random.Random(seed)
            game = Game(level, variation=level.rules.setup_variation and game_number % 2 == 1, seed=seed)
            while game.phase != "over":
                choices = game.legal_moves()
                if game.phase == "play" and game.state.round % KEEP_EVERY == 1:
                    name = f"{level.value} seed {seed} round {game.state.round}"
                    found.append((name, state_to_json(game.state), format_roll(game.roll())))
                game.play(choices[rng.randrange(len(choices))])
    return found


def golden_line(name: str, state: dict, roll: str) -> dict:
    parsed = state_from_json(state)
    return {"name": name, "state": state, "roll": roll, "moves": moves_json(parsed, parse_roll(roll, parsed.level))}


def main() -> None:
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(golden_line(*p), ensure_ascii=False) for p in positions()]
    GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} positions to {GOLDEN}")


if __name__ == "__main__":
    main()
