#!/usr/bin/env python3
"""Regenerate the Räuber Raupe golden replays in ``tests/golden/raupe/``.

Each case is a bot game: seed, players, bot level, starting mode, the full
event log and the outcome.  ``tests/raupe/test_golden.py`` replays every
log through the current referee and compares the outcome, and replays the
bots from the seed and compares the log.  Reviewing a diff of
``games.json`` is reviewing a change of the rules or of the bots.

    python scripts/regenerate_raupe_golden.py          # rewrite the file
    python scripts/regenerate_raupe_golden.py --check  # exit 1 if it would change
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from caterpillar_learn.raupe.bots import get_level
from caterpillar_learn.raupe.notation import event_to_json
from caterpillar_learn.raupe.simulate import play_bot_game

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "raupe" / "games.json"

#: (seed, players, bot level) of every golden game.
CASES = [
    (1, 2, "beginner"),
    (2, 3, "advanced"),
    (3, 4, "expert"),
    (4, 4, "beginner"),
    (5, 2, "expert"),
    (6, 3, "beginner"),
    (7, 4, "advanced"),
    (8, 2, "advanced"),
    (82, 2, "expert"),  # ends in a stalemate
    (124, 2, "expert"),  # ends in a stalemate
]


def build_case(seed: int, players: int, level: str) -> dict[str, Any]:
    """One golden case: a bot game played from ``seed``."""
    game = play_bot_game(players, random.Random(seed), [get_level(level)] * players)
    return {
        "seed": seed,
        "players": players,
        "level": level,
        "mode": game.initial.mode.word,
        "events": [event_to_json(event) for event in game.events],
        "outcome": {
            "winners": list(game.outcome.winners),
            "stalemate": game.outcome.stalemate,
            "plays": game.final.plays,
            "seconds": game.final.clock,
            "hand_sizes": [len(hand) for hand in game.final.hands],
            "pile_size": len(game.final.pile),
            "mistakes_made": game.mistakes_made,
            "mistakes_caught": game.mistakes_caught,
            "false_calls": game.false_calls,
        },
    }


def render() -> str:
    """The golden file's text."""
    cases = [build_case(*case) for case in CASES]
    return json.dumps(cases, indent=1) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether it changed")
    args = parser.parse_args()
    text = render()
    if args.check:
        same = GOLDEN.exists() and GOLDEN.read_text(encoding="utf-8") == text
        print("golden file up to date" if same else "golden file differs")
        return 0 if same else 1
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {len(CASES)} games to {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
