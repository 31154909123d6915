"""``caterpillar-learn lesson check FILE…``: a teacher's lesson files read and checked against the rules.

Each file gets one line: what the lesson is, or each problem found (one line naming the step).  The exit
status is 0 when every file is fine, 1 when any has a problem.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     good = pathlib.Path(folder, "doubles.toml")
...     _ = good.write_text('format = 1\\nlevel = "beginner"\\ntitle = "Two dice"\\nage = 5\\nline = "L"\\n'
...                         '[[step]]\\nroll = "2 6"\\n[[step]]\\nask = "boxes"\\n', encoding="utf-8")
...     main_status = check_files([str(good)])
doubles.toml: fine: "Two dice", beginner, age 5 and up, 2 steps (1 roll, 1 question)
>>> main_status
0
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from caterpillar_learn.lessons import files

__all__ = ["check_files", "register"]


def check_files(paths: list[str]) -> int:
    """Print one line a lesson (or a line a problem), and return the exit status: 1 if any problem."""
    status = 0
    for path in paths:
        shown = Path(path).name
        try:
            lesson = files.read(path)
        except files.LessonFileError as error:
            print(str(error).replace(path, shown, 1))
            status = 1
            continue
        problems = files.check(lesson)
        for problem in problems:
            print(problem.replace(path, shown, 1))
        if problems:
            status = 1
            continue
        kinds = Counter(step.kind for step in lesson.steps)
        said = ", ".join(f"{count} {WORDS[kind][count > 1]}" for kind, count in kinds.items() if kind != "say")
        steps = f"{len(lesson.steps)} step{'s' if len(lesson.steps) > 1 else ''}" + (f" ({said})" if said else "")
        print(f'{shown}: fine: "{lesson.title}", {lesson.level}, age {lesson.age} and up, {steps}')
    return status


#: How the summary names each kind of step (one, several).
WORDS = {
    "roll": ("roll", "rolls"),
    "ask": ("question", "questions"),
    "place": ("place", "places"),
    "hint": ("hint", "hints"),
    "finish": ("finish", "finishes"),
}


def register(subparsers: Any) -> None:
    """Add the ``lesson`` command (``lesson check FILE…``).

    >>> from caterpillar_learn.cli import OneLineParser
    >>> parser = OneLineParser(prog="x")
    >>> register(parser.add_subparsers(dest="command", parser_class=OneLineParser))
    >>> parser.parse_args(["lesson", "check", "a.toml", "b.toml"]).files
    ['a.toml', 'b.toml']
    """
    command = subparsers.add_parser(
        "lesson",
        help="a teacher's lesson files: check one against the rules (docs/AUTHORING.md)",
        description="lesson check FILE...: read each lesson file and check what it claims against the rules.",
    )
    actions = command.add_subparsers(dest="action", required=True, parser_class=type(command))
    check = actions.add_parser("check", help="one line a lesson: fine, or each problem naming its step")
    check.add_argument("files", nargs="+", metavar="FILE", help="lesson files (.toml)")
    check.set_defaults(handler=_check)


def _check(args: argparse.Namespace) -> int:
    return check_files(args.files)
