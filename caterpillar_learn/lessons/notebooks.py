"""The lesson notebooks that come with the package, and ``caterpillar-learn notebooks DIR``, which copies them
out for a teacher who installed with pip (then ``jupyter lab DIR``).

The notebooks are the checkout's ``lessons/`` folder, which a wheel ships as ``caterpillar_learn.notebooks``.
A copy never replaces a notebook the teacher changed unless asked (``--force``); one that is still the
shipped one is brought up to date, and a new lesson is added.  Needs no extra: it only copies files.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     first = copy_lessons(Path(folder))
...     again = copy_lessons(Path(folder))
>>> first.copied == again.unchanged and not first.kept and not again.copied
True
"""

from __future__ import annotations

import argparse
import filecmp
import importlib.util
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import caterpillar_learn
from caterpillar_learn.errors import CaterpillarLearnError, describe

__all__ = ["CHECKOUT_LESSONS", "PACKAGED_LESSONS", "Copied", "copy_lessons", "lesson_notebooks", "shipped_lessons"]

#: The ``lessons/`` folder of a checkout (editable install, Binder, CI).
CHECKOUT_LESSONS = Path(caterpillar_learn.__file__).resolve().parent.parent / "lessons"
#: The package that carries the same notebooks in a wheel (``lessons/`` shipped as ``caterpillar_learn.notebooks``).
PACKAGED_LESSONS = "caterpillar_learn.notebooks"


def lesson_notebooks(folder: Path) -> list[Path]:
    """The lessons in the order the list shows them (file name order: 00, 01, ...)."""
    return sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))


def packaged_lessons() -> Path | None:
    """The folder of the lessons installed with the package, if there is one."""
    try:
        spec = importlib.util.find_spec(PACKAGED_LESSONS)
    except ModuleNotFoundError:
        return None
    # A folder without __init__.py: a namespace package, whose one folder is its search location.
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) if locations else None


def shipped_lessons() -> Path | None:
    """The checkout's ``lessons/``, else the lessons installed with the package; None where neither is."""
    for candidate in (CHECKOUT_LESSONS, packaged_lessons()):
        if candidate is not None and candidate.is_dir() and lesson_notebooks(candidate):
            return candidate
    return None


@dataclass
class Copied:
    """What a copy did, notebook by notebook (file names)."""

    copied: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    #: the teacher's own changes, left as they were (``force`` replaces them)
    kept: list[str] = field(default_factory=list)

    def summary(self, folder: Path) -> str:
        line = f"{len(self.copied)} lesson(s) copied to {folder}, {len(self.unchanged)} already there"
        if self.kept:
            line += f"; kept your changes to {', '.join(self.kept)} (--force replaces them)"
        return line + f"; open them with: jupyter lab {folder}"


def copy_lessons(folder: Path, *, force: bool = False, source: Path | None = None) -> Copied:
    """Copy the shipped lessons into ``folder`` (made if missing)."""
    source = source or shipped_lessons()
    if source is None:
        raise CaterpillarLearnError(describe("lessons", str(CHECKOUT_LESSONS), "the lessons installed with it"))
    if folder.exists() and not folder.is_dir():
        raise CaterpillarLearnError(describe("DIR", str(folder), "a folder (or a name for a new one)"))
    folder.mkdir(parents=True, exist_ok=True)
    done = Copied()
    for notebook in lesson_notebooks(source):
        target = folder / notebook.name
        if target.exists() and filecmp.cmp(notebook, target, shallow=False):
            done.unchanged.append(notebook.name)
        elif target.exists() and not force:
            done.kept.append(notebook.name)
        else:
            shutil.copyfile(notebook, target)
            done.copied.append(notebook.name)
    return done


def register(subparsers: Any) -> None:
    """Add the ``notebooks`` command.

    >>> from caterpillar_learn.cli import OneLineParser
    >>> parser = OneLineParser(prog="x")
    >>> register(parser.add_subparsers(dest="command", parser_class=OneLineParser))
    >>> parser.parse_args(["notebooks", "my-lessons", "--force"]).force
    True
    """
    command = subparsers.add_parser(
        "notebooks",
        help="copy the lesson notebooks into a folder, for JupyterLab (a teacher's own copies)",
        description="Copy the lesson notebooks into DIR (then: jupyter lab DIR). A notebook you changed is "
        "kept as it is unless --force.",
    )
    command.add_argument("folder", metavar="DIR", type=Path, help="where the notebooks go (made if missing)")
    command.add_argument("--force", action="store_true", help="replace notebooks you changed with the shipped ones")
    command.set_defaults(handler=_notebooks)


def _notebooks(args: argparse.Namespace) -> int:
    folder = args.folder.expanduser().resolve()
    print(copy_lessons(folder, force=args.force).summary(folder))
    return 0
