"""``caterpillar-learn check-translation DIR``: a translation checked against English, one line per problem.

``DIR`` is one language's folder (``fr/``) or a folder of them (the teacher's
languages folder).  Each problem is printed as ``file: key: what is wrong``
(:mod:`caterpillar_learn.i18n.check`); the exit status is 1 when there is a
problem, 0 when there is none.  Needs only the core install: it reads the
English catalogue inside the package.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.i18n import text
from caterpillar_learn.i18n.check import check_folder, language_folders

__all__ = ["EXIT_PROBLEMS", "register"]

#: The exit status when the translation has a problem (2 stays the command line's own: a bad DIR).
EXIT_PROBLEMS = 1


def register(subparsers: Any) -> None:
    """Add the ``check-translation`` command.

    >>> from caterpillar_learn.cli import OneLineParser
    >>> parser = OneLineParser(prog="x")
    >>> register(parser.add_subparsers(dest="command", parser_class=OneLineParser))
    >>> parser.parse_args(["check-translation", "fr"]).folder.name
    'fr'
    """
    command = subparsers.add_parser(
        "check-translation",
        help="check a translation (a language's folder) against English: placeholders, plural forms, missing keys",
        description="Check the translation in DIR (a folder such as fr/, or a folder of such folders) against "
        "English. Each problem is one line: file, key, what is wrong. Exit status 1 if there is any.",
    )
    command.add_argument("folder", metavar="DIR", type=Path, help="the language's folder, e.g. .../languages/fr")
    command.set_defaults(handler=_check)


def _check(args: argparse.Namespace) -> int:
    folder = args.folder.expanduser()
    languages = language_folders(folder) if folder.is_dir() else []
    if not languages:
        expected = "a language's folder of catalogue files (fr/ui.json, ...) or a folder of such folders"
        raise CaterpillarLearnError(describe("DIR", str(args.folder), expected))
    count = 0
    for language in languages:
        problems = check_folder(language)
        for problem in problems:
            print(problem)
        if not problems:
            print(text("language.check.ok", folder=language))
        count += len(problems)
    if count:
        print(text("language.check.problems", count=count))
    return EXIT_PROBLEMS if count else 0
