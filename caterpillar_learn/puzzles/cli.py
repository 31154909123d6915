"""``caterpillar-learn puzzles``: the bank's puzzles of a level (and an idea), one JSON line each with ``--jsonl``.

Each line has the position as ``caterpillar-learn hint --jsonl`` reads it
(``state``, ``roll``), the ``best`` move as ``hint`` prints moves, the
``margin`` and the ``idea``, then the puzzle's ``id``, ``round``,
``tempting`` moves, ``difficulty`` and whether its values are ``exact``.
``--count N`` gives N puzzles spread evenly over their difficulties, easiest
first.  Bad input is one line on standard error naming the option, exit
status 2 (the top-level command prints it).

>>> import contextlib, io, json
>>> with contextlib.redirect_stdout(io.StringIO()) as out:
...     status = run_puzzles(argparse.Namespace(level="beginner", idea="zero", count=2, jsonl=True))
>>> lines = [json.loads(line) for line in out.getvalue().splitlines()]
>>> status, len(lines), sorted(lines[0])[:6], lines[0]["idea"]
(0, 2, ['best', 'difficulty', 'exact', 'id', 'idea', 'level'], 'zero')
>>> run_puzzles(argparse.Namespace(level="pro", idea=None, count=None, jsonl=True))
Traceback (most recent call last):
...
caterpillar_learn.puzzles.errors.PuzzleError: --level: got 'pro', expected one of beginner, intermediate, \
advanced, expert
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.puzzles.bank import load_bank, spread
from caterpillar_learn.puzzles.errors import PuzzleError
from caterpillar_learn.reading import whole_number_argument

#: The most puzzles ``--count`` asks for.
MOST_COUNT = 1000


def run_puzzles(args: argparse.Namespace) -> int:
    """Print the puzzles ``args`` ask for (``level``, ``idea``, ``count``, ``jsonl``)."""
    try:
        level = Level.parse(args.level)
    except CaterpillarLearnError:
        raise PuzzleError(describe("--level", args.level, "one of " + ", ".join(lv.value for lv in Level))) from None
    bank = load_bank(level)
    if args.idea is not None and args.idea not in bank.ideas():
        expected = f"one of {', '.join(bank.ideas())} (the ideas of the {level.value} puzzles)"
        raise PuzzleError(describe("--idea", args.idea, expected))
    puzzles = bank.on(args.idea)
    if args.count is not None:
        puzzles = spread(puzzles, args.count)
    lines = [puzzle.to_line() for puzzle in puzzles]
    if args.jsonl:
        for line in lines:
            sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(json.dumps(lines, indent=1, ensure_ascii=False) + "\n")
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("puzzles", help="the puzzle bank's positions of a level and an idea, as JSON")
    parser.add_argument("--level", default="beginner", help="beginner, intermediate, advanced or expert")
    parser.add_argument("--idea", help="only the puzzles on this idea (e.g. score_die, middle, zero)")
    parser.add_argument(
        "--count",
        type=whole_number_argument(1, MOST_COUNT),
        help=f"at most this many puzzles (1 to {MOST_COUNT}), spread over their difficulties (default: all)",
    )
    parser.add_argument("--jsonl", action="store_true", help="one JSON line a puzzle (default: one JSON list)")
    parser.set_defaults(handler=run_puzzles)


__all__ = ["MOST_COUNT", "register", "run_puzzles"]
