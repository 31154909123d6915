"""The ``caterpillar-learn`` command.

Each game registers its own sub-commands (``caterpillar_learn.caterpillars.cli``,
``caterpillar_learn.raupe.cli``, ...) through a ``register(subparsers)``
function; this module only wires them together and turns every
:class:`~caterpillar_learn.errors.CaterpillarLearnError` into one line on
standard error with exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from caterpillar_learn.errors import CaterpillarLearnError, one_line

#: Modules that contribute sub-commands, in the order ``--help`` lists them.
COMMAND_MODULES = (
    "caterpillar_learn.caterpillars.cli",
    "caterpillar_learn.advice.cli",
    "caterpillar_learn.ui.hosting.serve",
    "caterpillar_learn.raupe.cli",
    "caterpillar_learn.classroom.cli",
)

EXIT_USAGE = 2


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are a single short line, exit status 2."""

    def error(self, message: str) -> NoReturn:
        # argparse quotes the bad argument whole: a 60 kB argument must not make a 60 kB line.
        self.exit(EXIT_USAGE, f"{self.prog}: {one_line(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="caterpillar-learn",
        description="Learn the dice game Caterpillars and the card game Räuber Raupe.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            # Only a module of ours not written yet is skipped; any other
            # missing import is a real error inside the module.
            if missing.name is None or not name.startswith(missing.name):
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.handler(args)
    except CaterpillarLearnError as error:
        print(f"caterpillar-learn {args.command}: {one_line(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. piped into head
        return 0
    return result


if __name__ == "__main__":
    sys.exit(main())
