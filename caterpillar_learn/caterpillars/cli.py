"""Command-line sub-commands of Caterpillars: ``moves``, ``score`` and ``play``.

The helpers :func:`add_position_command`, :func:`add_position_arguments` and
:func:`run_positions` are shared with every command that takes a state (and a
roll): they read ``--state FILE`` (``-`` for standard input) and ``--roll``,
or JSON lines with ``--jsonl``, and in ``--jsonl`` mode turn a bad line into
``{"error": "..."}`` and go on.  All input goes through
:mod:`caterpillar_learn.reading`, which bounds its size, its nesting and its
numbers.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from caterpillar_learn.caterpillars.dice import Roll, format_roll, parse_roll
from caterpillar_learn.caterpillars.errors import CaterpillarsError
from caterpillar_learn.caterpillars.game import Game
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.notation import move_to_json, state_from_json
from caterpillar_learn.caterpillars.rules import Move, legal_moves
from caterpillar_learn.caterpillars.scoring import score
from caterpillar_learn.caterpillars.setup import SetupChoice
from caterpillar_learn.caterpillars.sheet import State, describe_slot
from caterpillar_learn.caterpillars.terminal import render_sheet
from caterpillar_learn.errors import CaterpillarLearnError, describe, one_line
from caterpillar_learn.i18n import text
from caterpillar_learn.reading import InputError, parse_json, read_document, read_lines, seed_argument, standard_input

Handler = Callable[[State, Roll | None], Any]


def add_position_arguments(parser: argparse.ArgumentParser, *, roll: bool) -> None:
    """``--state FILE`` (and ``--roll``), or ``--jsonl``."""
    parser.add_argument("--state", metavar="FILE", help="state JSON file, or - for standard input")
    if roll:
        parser.add_argument("--roll", help='the dice, then at Expert the action face: "2 5 6 butterfly"')
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help='read JSON lines {"state": ..., "roll": "..."} from standard input, write one result line each',
    )


def add_position_command(
    subparsers: Any, name: str, help: str, handler_for: Callable[[argparse.Namespace], Handler], *, roll: bool
) -> argparse.ArgumentParser:
    """Sub-command ``name``: it reads positions (:func:`add_position_arguments`, a roll when ``roll``) and writes
    what ``handler_for(args)`` makes of each (:func:`run_positions`); the parser is returned for more options.

    >>> commands = argparse.ArgumentParser().add_subparsers()
    >>> parser = add_position_command(commands, "score", "", lambda args: score_json, roll=False)
    >>> args = parser.parse_args(["--state", "sheet.json"])
    >>> args.state, args.jsonl, "roll" in args
    ('sheet.json', False, False)
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(name, help=help)
    add_position_arguments(parser, roll=roll)
    parser.set_defaults(handler=lambda args: run_positions(args, handler_for(args), needs_roll=roll))
    return parser


#: Longest answer ``play`` reads from a line; a choice is a number or ``q``.
MAX_ANSWER_CHARS = 100


def _position(state_data: object, roll_text: object, needs_roll: bool) -> tuple[State, Roll | None]:
    state = state_from_json(state_data)
    if not needs_roll:
        return state, None
    if roll_text is None:
        raise CaterpillarsError(describe("roll", None, 'the dice, e.g. "2 3 6"'))
    if not isinstance(roll_text, str):
        raise CaterpillarsError(describe("roll", roll_text, 'a string of dice, e.g. "2 3 6"'))
    return state, parse_roll(roll_text, state.level)


def run_positions(args: argparse.Namespace, handler: Handler, *, needs_roll: bool, out: TextIO | None = None) -> int:
    """Run ``handler`` on one position, or on every JSON line with ``--jsonl``."""
    out = out or sys.stdout
    if args.jsonl:
        if args.state is not None or getattr(args, "roll", None) is not None:
            raise CaterpillarsError("--jsonl: got --state or --roll too, expected JSON lines on standard input only")
        for line in read_lines(standard_input()):
            try:
                item = line.json()
                if not isinstance(item, dict) or "state" not in item:
                    raise CaterpillarsError(
                        describe(f"line {line.number}", item, 'an object {"state": ..., "roll": "..."}')
                    )
                state, roll = _position(item["state"], item.get("roll"), needs_roll)
                result = handler(state, roll)
            except CaterpillarLearnError as error:
                result = {"error": one_line(str(error))}
            out.write(json.dumps(result) + "\n")
            out.flush()
        return 0
    if args.state is None:
        raise CaterpillarsError(describe("--state", None, "a state file (or - for standard input), or --jsonl"))
    data = parse_json(read_document(args.state, "--state"), "state")
    state, roll = _position(data, getattr(args, "roll", None), needs_roll)
    out.write(json.dumps(handler(state, roll), indent=1) + "\n")
    return 0


def moves_json(state: State, roll: Roll | None) -> list[dict[str, Any]]:
    assert roll is not None
    return [move_to_json(m) for m in legal_moves(state, roll)]


def score_json(state: State, roll: Roll | None) -> dict[str, Any]:
    return score(state).to_json()


# -- play: one game in the terminal --------------------------------------------


def _ask(prompt: str, count: int, stdin: TextIO, stdout: TextIO) -> int:
    while True:
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline(MAX_ANSWER_CHARS + 1)
        if not line:
            raise EOFError
        if len(line) > MAX_ANSWER_CHARS:
            raise InputError(f"answer: got more than {MAX_ANSWER_CHARS} characters, expected a number or q")
        answer = line.strip().lower()
        if answer in {"q", "quit"}:
            raise EOFError
        if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        stdout.write(text("caterpillars.play.bad_choice", count=count) + "\n")


def _ask_setup(game: Game, roll: Roll, stdin: TextIO, stdout: TextIO) -> SetupChoice:
    """One setup roll, a value at a time: which blank label gets it."""
    blanks = game.state.blank_label_slots()
    dice = list(roll.dice)
    if game.variation:
        singles = sorted(set(dice))
        for number, die in enumerate(singles, start=1):
            stdout.write(
                f"  {number:3}. " + text("caterpillars.play.variation_split", die=die, rest=sum(dice) - die) + "\n"
            )
        die = singles[_ask(text("caterpillars.play.prompt", count=len(singles)), len(singles), stdin, stdout)]
        values = [die, sum(dice) - die]
    else:
        values = dice
    assignments: list[tuple[int, int]] = []
    for value in values[: len(blanks)]:
        stdout.write(text("caterpillars.play.setup_where", value=value) + "\n")
        for number, slot in enumerate(blanks, start=1):
            name, box = describe_slot(slot)
            stdout.write(
                f"  {number:3}. " + text("caterpillars.play.setup_box", caterpillar=name, number=box + 1) + "\n"
            )
        slot = blanks.pop(_ask(text("caterpillars.play.prompt", count=len(blanks)), len(blanks), stdin, stdout))
        assignments.append((slot, value))
    return SetupChoice(tuple(sorted(assignments)))


def play(level: Level, seed: int, variation: bool, stdin: TextIO, stdout: TextIO, record: str | None = None) -> int:
    """Play a whole game at the terminal, reading choices as numbers; ``record``: a file the game's record is
    written to as it ends or stops (``Game.to_json``: ``caterpillar-learn lesson from-game`` reads it)."""
    game = Game(level, variation=variation, rng=random.Random(seed))
    say = stdout.write
    say(text("caterpillars.play.welcome", level=text(f"caterpillars.level.{level.value}"), seed=seed) + "\n")
    try:
        while game.phase != "over":
            roll = game.roll()
            say("\n" + render_sheet(game.state) + "\n")
            if game.phase == "setup":
                say(text("caterpillars.play.setup_roll", dice=format_roll(roll)) + "\n")
                picked: Move | SetupChoice = _ask_setup(game, roll, stdin, stdout)
            else:
                moves = legal_moves(game.state, roll)
                say(text("caterpillars.play.roll", round=game.state.round, dice=format_roll(roll)) + "\n")
                for number, move in enumerate(moves, start=1):
                    say(f"  {number:3}. {move.describe()}: {' / '.join(move.how[:2])}\n")
                picked = moves[_ask(text("caterpillars.play.prompt", count=len(moves)), len(moves), stdin, stdout)]
            game.play(picked)
    except EOFError:
        say("\n" + text("caterpillars.play.stopped") + "\n")
        _keep(game, record)
        return 0
    _keep(game, record)
    say("\n" + render_sheet(game.state) + "\n")
    for line in game.score().explanation:
        say(line + "\n")
    return 0


def _keep(game: Game, record: str | None) -> None:
    """Write the game's record to the file ``record``, if one was asked for."""
    if record is not None:
        Path(record).write_text(json.dumps(game.to_json()) + "\n", encoding="utf-8")


def register(subparsers: Any) -> None:
    add_position_command(
        subparsers, "moves", "the legal moves of a state and a roll, as JSON", lambda args: moves_json, roll=True
    )
    add_position_command(
        subparsers, "score", "score a sheet step by step, as JSON", lambda args: score_json, roll=False
    )

    game = subparsers.add_parser("play", help="play one game of Caterpillars in the terminal")
    game.add_argument("--level", default="beginner", help="beginner, intermediate, advanced or expert")
    game.add_argument("--seed", type=seed_argument, default=1, help="the same seed gives the same dice")
    game.add_argument("--variation", action="store_true", help="use the setup variation (not at beginner)")
    game.add_argument("--record", metavar="FILE", help="write the game's record here (for lesson from-game)")
    game.set_defaults(
        handler=lambda args: play(
            Level.parse(args.level), args.seed, args.variation, sys.stdin, sys.stdout, args.record
        )
    )


__all__ = ["add_position_arguments", "add_position_command", "register", "run_positions"]
