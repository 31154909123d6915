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
import importlib.metadata
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import caterpillar_learn
from caterpillar_learn.errors import CaterpillarLearnError, one_line
from caterpillar_learn.extras import advice
from caterpillar_learn.i18n import LANGUAGES_ENV

#: Modules that contribute sub-commands, in the order ``--help`` lists them, each with the extra
#: (``pip install 'caterpillar-learn[EXTRA]'``) its libraries come with and the commands it adds;
#: ``None``: the core install has all it needs.
COMMAND_MODULES: tuple[tuple[str, str | None, tuple[str, ...]], ...] = (
    ("caterpillar_learn.caterpillars.cli", None, ("moves", "score", "play")),
    ("caterpillar_learn.advice.cli", None, ("hint", "solve", "simulate")),
    ("caterpillar_learn.puzzles.cli", None, ("puzzles",)),
    ("caterpillar_learn.ui.hosting.serve", "lessons", ("serve",)),
    ("caterpillar_learn.lessons.notebooks", None, ("notebooks",)),
    ("caterpillar_learn.lessons.cli", None, ("lesson",)),
    ("caterpillar_learn.raupe.cli", None, ("raupe",)),
    ("caterpillar_learn.classroom.cli", "classroom", ("classroom",)),
    ("caterpillar_learn.i18n.cli", None, ("check-translation",)),
    ("caterpillar_learn.guides", None, ("docs",)),
)

EXIT_USAGE = 2
#: The option naming the teacher's own languages folder (``serve --languages DIR``).
LANGUAGES_OPTION = "--languages"


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are a single short line, exit status 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: command -> the line it says instead of running: the extra to install (:func:`build_parser`)
        self.missing_extras: dict[str, str] = {}

    def error(self, message: str) -> NoReturn:
        # argparse quotes the bad argument whole: a 60 kB argument must not make a 60 kB line.
        self.exit(EXIT_USAGE, f"{self.prog}: {one_line(message)}\n")


def installed_version() -> str:
    """The installed distribution's version (a checkout that was never installed: the package's own).

    >>> installed_version() == caterpillar_learn.__version__
    True
    """
    try:
        return importlib.metadata.version("caterpillar-learn")
    except importlib.metadata.PackageNotFoundError:
        return caterpillar_learn.__version__


def build_parser() -> OneLineParser:
    """The command's parser; its ``missing_extras`` are the commands whose extra is not installed."""
    parser = OneLineParser(
        prog="caterpillar-learn",
        description="Learn the dice game Caterpillars and the card game Räuber Raupe.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    for name, extra, commands in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            # A library of an extra that is not installed: the commands are listed and say which extra
            # to install.  Any other missing import is a real error inside the module.
            if extra is None or missing.name is None or missing.name.startswith("caterpillar_learn"):
                raise
            for command in commands:
                said = advice(extra, missing.name)
                help_line = f"(not installed: pip install 'caterpillar-learn[{extra}]')"
                subparsers.add_parser(command, help=help_line, description=f"{command}: {said}")
                parser.missing_extras[command] = said
            continue
        module.register(subparsers)
    return parser


def name_own_languages(words: Sequence[str]) -> None:
    """Apply ``--languages DIR`` before the parser is built: ``--lang`` offers the languages found there.

    Only an existing folder is applied; the command's own parser refuses any other in one line.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     name_own_languages(["serve", "--languages", folder, "--lang", "fr"])
    ...     os.environ.pop(LANGUAGES_ENV) == str(Path(folder).resolve())
    True
    """
    for index, word in enumerate(words):
        if word == "--":
            return
        named = word.partition("=")[2] if word.startswith(LANGUAGES_OPTION + "=") else None
        if word == LANGUAGES_OPTION and index + 1 < len(words):
            named = words[index + 1]
        if named and Path(named).expanduser().is_dir():
            os.environ[LANGUAGES_ENV] = str(Path(named).expanduser().resolve())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command: ``caterpillar-learn hint ...``, ``caterpillar-learn serve ...``.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as said:
    ...     main(["hint", "--state", "{"])
    2
    >>> said.getvalue().startswith("caterpillar-learn hint: ")
    True
    """
    words = list(sys.argv[1:] if argv is None else argv)
    name_own_languages(words)
    parser = build_parser()
    if not words:  # a bare command: what it can do
        parser.print_help()
        return EXIT_USAGE
    command = next((word for word in words if not word.startswith("-")), None)
    asks_help = any(word in ("-h", "--help") for word in words)
    if command in parser.missing_extras and not asks_help:
        print(f"caterpillar-learn {command}: {parser.missing_extras[command]}", file=sys.stderr)
        return EXIT_USAGE
    args = parser.parse_args(words)
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
