"""``caterpillar-learn lesson check FILE…``: a teacher's lesson files read and checked against the rules;
``caterpillar-learn lesson notebook FILE…``: a notebook beside each, which every Jupyter door opens.

Each file gets one line: what the lesson is, or each problem found (one line naming the step, or the field of a
Räuber Raupe lesson).  The exit status is 0 when every file is fine, 1 when any has a problem.  A notebook is
written only for a lesson that is fine; it plays the file itself (``CaterpillarsLesson("doubles.toml")``, or
``RaupeWidget("cards.toml")``), so a change to the file shows the next time the page opens, without a new notebook.

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
import json
from collections import Counter
from pathlib import Path
from typing import Any

from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import available_languages
from caterpillar_learn.lessons import files, raupe_files, writing
from caterpillar_learn.reading import parse_json, read_document, whole_number_argument

__all__ = ["check_files", "notebook_of", "register", "write_notebooks"]


def checked(path: str) -> files.LessonFile | raupe_files.RaupeLessonFile | None:
    """The lesson file at ``path`` (of either game) if it is fine; else ``None``, each problem printed on a line of
    its own (the file named without its folder)."""
    shown = Path(path).name
    try:
        lesson = files.read_any(path)
    except files.LessonFileError as error:
        print(str(error).replace(path, shown, 1))
        return None
    problems = files.check_any(lesson)
    for problem in problems:
        print(problem.replace(path, shown, 1))
    return None if problems else lesson


def check_files(paths: list[str]) -> int:
    """Print one line a lesson (or a line a problem), and return the exit status: 1 if any problem."""
    status = 0
    for path in paths:
        shown, lesson = Path(path).name, checked(path)
        if lesson is None:
            status = 1
            continue
        if isinstance(lesson, raupe_files.RaupeLessonFile):
            table = f"raupe, {lesson.mode}, {lesson.players} players"
            print(f'{shown}: fine: "{lesson.title}", {table}, age {lesson.age} and up')
            continue
        kinds = Counter(step.kind for step in lesson.steps)
        said = ", ".join(f"{count} {WORDS[kind][count > 1]}" for kind, count in kinds.items() if kind != "say")
        steps = f"{len(lesson.steps)} step{'s' if len(lesson.steps) > 1 else ''}" + (f" ({said})" if said else "")
        print(f'{shown}: fine: "{lesson.title}", {lesson.level}, age {lesson.age} and up, {steps}')
    return status


#: Each game's lesson widget (its module and class) in a notebook, and what the notebook's ``SEED`` sets there.
PLAYED_BY = {
    "caterpillars": (
        "caterpillar_learn.ui.caterpillars",
        "CaterpillarsLesson",
        "the dice after the lesson's own; None: the file's seed (one seed gives a whole class the same dice)",
    ),
    "raupe": (
        "caterpillar_learn.ui.raupe",
        "RaupeWidget",
        "the deal; None: the file's seed (one seed deals a whole class the same cards)",
    ),
}


def notebook_of(lesson: files.LessonFile | raupe_files.RaupeLessonFile, file_name: str) -> dict[str, Any]:
    """The notebook that plays the lesson file ``file_name`` (beside it): the teacher's note, the settings a
    teacher may change, and the lesson (nbformat 4, no outputs); a Räuber Raupe lesson's plays on a card table.

    >>> lesson = files.parse('format = 1\\nlevel = "beginner"\\ntitle = "Two dice"\\nage = 5\\nline = "A pair"\\n'
    ...                      '[[step]]\\nroll = "2 6"\\n', "doubles.toml")
    >>> book = notebook_of(lesson, "doubles.toml")
    >>> book["nbformat"], [cell["cell_type"] for cell in book["cells"]], book["cells"][2]["source"][-1]
    (4, ['markdown', 'code', 'code'], 'CaterpillarsLesson.from_file("doubles.toml", seed=SEED, lang=LANG, voice=VOICE)')
    >>> cards = raupe_files.parse('format = 1\\ngame = "raupe"\\ntitle = "Cards"\\nage = 5\\nline = "L"\\n'
    ...                           'mode = "shape"\\nintro = ["Same shape."]\\n', "cards.toml")
    >>> notebook_of(cards, "cards.toml")["cells"][2]["source"][-1]
    'RaupeWidget.from_file("cards.toml", seed=SEED, lang=LANG, voice=VOICE)'
    """
    if isinstance(lesson, raupe_files.RaupeLessonFile):
        (module, widget, seed), kind = PLAYED_BY["raupe"], f"Räuber Raupe, {lesson.mode}"
    else:
        (module, widget, seed), kind = PLAYED_BY["caterpillars"], lesson.level
    note = [
        "**For the teacher** (the lesson's web page does not show this note or the code).\n",
        f"{lesson.title}: {lesson.line} (age {lesson.age} and up, {kind}).\n",
        f"The lesson is the file `{file_name}` beside this notebook: change the file, and the page plays the change\n",
        "the next time it opens (check it first: `caterpillar-learn lesson check`).",
    ]
    settings = [
        "# What you may change, one setting a line (then run the cells again):\n",
        f"# {seed}\n",
        "SEED = None\n",
        "# the page's first language; None: the language the file is written in\n",
        "LANG = None\n",
        "# read each new text aloud by itself from the start: True or False; None: the lesson's own choice\n",
        "VOICE = None",
    ]
    play = [
        f"from {module} import {widget}\n",
        "\n",
        f"{widget}.from_file({json.dumps(file_name)}, seed=SEED, lang=LANG, voice=VOICE)",
    ]
    return {
        "cells": [
            {"cell_type": "markdown", "id": "teacher", "metadata": {"transient": {"remove_source": True}},
             "source": note},
            {"cell_type": "code", "execution_count": None, "id": "settings", "metadata": {"tags": ["parameters"]},
             "outputs": [], "source": settings},
            {"cell_type": "code", "execution_count": None, "id": "lesson", "metadata": {}, "outputs": [],
             "source": play},
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip


def write_notebooks(paths: list[str], *, force: bool = False) -> int:
    """A notebook beside each lesson file that is fine (one line each); the exit status: 1 if any was not written."""
    status = 0
    for path in paths:
        shown, lesson = Path(path).name, checked(path)
        target = Path(path).with_suffix(".ipynb")
        if lesson is None:
            print(f"{shown}: no notebook written: mend the problems above first")
            status = 1
        elif target.exists() and not force:
            print(f"{shown}: {target.name} is there already: kept (--force writes it again)")
        else:
            target.write_text(json.dumps(notebook_of(lesson, shown), indent=1) + "\n", encoding="utf-8")
            print(f"{shown}: wrote {target.name}: open it in JupyterLab or Voila, or serve its folder")
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
        description="lesson check FILE...: read each lesson file and check what it claims against the rules; "
        "lesson notebook FILE...: write a notebook beside each, which plays it.",
    )
    actions = command.add_subparsers(dest="action", required=True, parser_class=type(command))
    check = actions.add_parser("check", help="one line a lesson: fine, or each problem naming its step")
    check.add_argument("files", nargs="+", metavar="FILE", help="lesson files (.toml)")
    check.set_defaults(handler=_check)
    notebook = actions.add_parser("notebook", help="a notebook beside each lesson file, which plays it")
    notebook.add_argument("files", nargs="+", metavar="FILE", help="lesson files (.toml)")
    notebook.add_argument("--force", action="store_true", help="write a notebook that is there already again")
    notebook.set_defaults(handler=_notebook)
    game = actions.add_parser("from-game", help="a lesson file from a played game's record: its dice, round by round")
    game.add_argument("record", metavar="RECORD", help="the game's record (JSON: a game's save, or a lesson page's)")
    game.add_argument("--out", metavar="FILE", required=True, help="the lesson file to write (.toml)")
    game.add_argument("--title", default="", help="the lesson's title (a placeholder by default)")
    game.add_argument("--age", type=whole_number_argument(3, 99), default=6, help="the youngest age it is for")
    game.add_argument("--language", default="en", help="the language of the placeholder words (en, de)")
    game.add_argument("--force", action="store_true", help="write over a file that is there already")
    game.set_defaults(handler=_from_game)


def _check(args: argparse.Namespace) -> int:
    return check_files(args.files)


def _notebook(args: argparse.Namespace) -> int:
    return write_notebooks(args.files, force=args.force)


def _from_game(args: argparse.Namespace) -> int:
    return lesson_from_game(args.record, args.out, title=args.title, age=args.age, lang=args.language, force=args.force)


def lesson_from_game(
    record: str, out: str, *, title: str = "", age: int = 6, lang: str = "en", force: bool = False
) -> int:
    """Write the lesson file ``out`` made from the game's record in the file ``record`` (one line: what was written,
    or why not); the exit status."""
    target = Path(out)
    if target.suffix != ".toml":
        raise files.LessonFileError(describe("--out", out, "a file name ending in .toml"))
    if target.exists() and not force:
        raise files.LessonFileError(f"--out: {target.name} is there already, expected a new file (or --force)")
    if lang not in available_languages():
        raise files.LessonFileError(describe("--language", lang, "one of " + ", ".join(available_languages())))
    data = parse_json(
        read_document(record, "RECORD", error=files.LessonFileError), "RECORD", error=files.LessonFileError
    )
    if not isinstance(data, dict):
        raise files.LessonFileError(describe("RECORD", type(data).__name__, "a game's record (a JSON object)"))
    made = writing.from_game(data, name=target.name, title=title, age=age, lang=lang)
    writing.save(made, target)
    rounds = sum(1 for step in made.steps if step.kind == "roll")
    print(
        f"{target.name}: written: {rounds} rounds of the game's dice, {len(made.steps)} steps; change the words, "
        f"then caterpillar-learn lesson check {target.name}"
    )
    return 0
