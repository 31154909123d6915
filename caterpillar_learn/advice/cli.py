"""Command-line sub-commands of the hint generator: ``hint``, ``solve`` and ``simulate``.

``hint`` and ``solve`` read positions exactly as ``caterpillar-learn moves``
does (``--state FILE``, ``--roll``, or ``--jsonl``); bad input is one line on
standard error with exit status 2 (the top-level command prints it).
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from typing import Any

from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.hints import hint
from caterpillar_learn.advice.simulation import STRATEGIES, simulate
from caterpillar_learn.advice.values import solve
from caterpillar_learn.caterpillars.cli import add_position_command
from caterpillar_learn.caterpillars.dice import Roll
from caterpillar_learn.caterpillars.sheet import State
from caterpillar_learn.errors import describe
from caterpillar_learn.reading import games_argument, seed_argument


def hint_json(state: State, roll: Roll | None) -> dict[str, Any]:
    assert roll is not None
    return hint(state, roll).to_json()


def solve_json(state: State, roll: Roll | None, progress: bool = False) -> dict[str, Any]:
    return solve(state, progress=progress).to_json()


def _is_label(token: str) -> bool:
    # ASCII digits only, and short: int() refuses "²" and numbers of thousands of digits.
    return token.isascii() and token.isdigit() and len(token) <= 2 and 1 <= int(token) <= 12


def parse_labels(value: str | None) -> tuple[int, ...] | None:
    """``"1,3,6,4,..."`` (commas or spaces) as 12 labels.

    >>> parse_labels("1 3 6 4 6 2 3 5 5 4 2 1")[:4]
    (1, 3, 6, 4)
    >>> parse_labels("1 2")
    Traceback (most recent call last):
    ...
    caterpillar_learn.advice.errors.AdviceError: --labels: got '1 2', expected 12 labels from 1 to 12
    """
    if value is None:
        return None
    tokens = value.replace(",", " ").split()
    if len(tokens) != 12 or not all(_is_label(t) for t in tokens):
        raise AdviceError(describe("--labels", value, "12 labels from 1 to 12"))
    return tuple(int(t) for t in tokens)


def shows_progress(args: argparse.Namespace) -> bool:
    """``--progress`` / ``--no-progress`` as asked; unasked, a bar where standard error is a terminal and
    nothing in a pipe or a log (tqdm's own ``disable=None`` rule).

    >>> shows_progress(argparse.Namespace(progress=True)), shows_progress(argparse.Namespace(progress=False))
    (True, False)
    """
    asked: bool | None = args.progress
    return sys.stderr.isatty() if asked is None else asked


def run_simulate(args: argparse.Namespace) -> int:
    result = simulate(
        args.level, args.strategy, args.games, args.seed, parse_labels(args.labels), progress=shows_progress(args)
    )
    sys.stdout.write(json.dumps(result.to_json(), indent=1) + "\n")
    return 0


def register(subparsers: Any) -> None:
    add_position_command(
        subparsers,
        "hint",
        "the best move of a state and roll, every option's value, why",
        lambda args: hint_json,
        roll=True,
    )
    value = add_position_command(
        subparsers,
        "solve",
        "the expected final score of a state before its next roll",
        lambda args: partial(solve_json, progress=shows_progress(args)),
        roll=False,
    )
    _progress_argument(value)

    lab = subparsers.add_parser("simulate", help="play many seeded games with one strategy, as JSON")
    lab.add_argument("--level", default="beginner", help="beginner, intermediate, advanced or expert")
    lab.add_argument("--strategy", default="hint", help=f"one of {', '.join(STRATEGIES)}")
    lab.add_argument("--games", type=games_argument, default=1000, help="how many games (1 to 100000)")
    lab.add_argument("--seed", type=seed_argument, default=1, help="the same seed gives the same games")
    lab.add_argument("--labels", help="12 labels, Alex's four first (default: the lab layout)")
    _progress_argument(lab)
    lab.set_defaults(handler=run_simulate)


def _progress_argument(parser: Any) -> None:
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on standard error (default: only where standard error is a terminal)",
    )


__all__ = ["parse_labels", "register"]
