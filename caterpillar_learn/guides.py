"""The guides (``docs/*.md``) that come with the package, and ``caterpillar-learn docs``, which says where they are.

A checkout keeps them in ``docs/``; a wheel ships the same folder as the
package ``caterpillar_learn.docs`` (setup.py), so a teacher who installed with
pip can open ``TEACHERS.md`` or ``TRANSLATING.md`` without the checkout.

>>> [guide.name for guide in guides(CHECKOUT_DOCS)][:2]
['AUTHORING.md', 'DEPLOY.md']
>>> title(CHECKOUT_DOCS / "TRANSLATING.md")
'Translating caterpillar-learn'
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any

import caterpillar_learn
from caterpillar_learn.errors import CaterpillarLearnError, describe

__all__ = ["CHECKOUT_DOCS", "PACKAGED_DOCS", "guides", "register", "shipped_docs", "title"]

#: The ``docs/`` folder of a checkout (editable install, CI).
CHECKOUT_DOCS = Path(caterpillar_learn.__file__).resolve().parent.parent / "docs"
#: The package that carries the same guides in a wheel.
PACKAGED_DOCS = "caterpillar_learn.docs"


def guides(folder: Path) -> list[Path]:
    """The guides in ``folder``, by file name."""
    return sorted(path for path in folder.glob("*.md") if not path.name.startswith("."))


def packaged_docs() -> Path | None:
    """The folder of the guides installed with the package, if there is one."""
    try:
        spec = importlib.util.find_spec(PACKAGED_DOCS)
    except ModuleNotFoundError:
        return None
    # A folder without __init__.py: a namespace package, whose one folder is its search location.
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) if locations else None


def shipped_docs() -> Path:
    """The checkout's ``docs/``, else the guides installed with the package."""
    for candidate in (CHECKOUT_DOCS, packaged_docs()):
        if candidate is not None and candidate.is_dir() and guides(candidate):
            return candidate.resolve()
    raise CaterpillarLearnError(describe("docs", str(CHECKOUT_DOCS), "the guides installed with the package"))


def title(guide: Path) -> str:
    """The guide's first heading (its file name if it has none)."""
    with guide.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("# "):
                return line[2:].strip()
    return guide.stem


def register(subparsers: Any) -> None:
    """Add the ``docs`` command.

    >>> from caterpillar_learn.cli import OneLineParser
    >>> parser = OneLineParser(prog="x")
    >>> register(parser.add_subparsers(dest="command", parser_class=OneLineParser))
    >>> parser.parse_args(["docs"]).command
    'docs'
    """
    command = subparsers.add_parser(
        "docs",
        help="say where the guides are (for teachers, translators, hosting): one line per guide with its path",
        description="Print where the guides that come with caterpillar-learn are: one line per guide, "
        "its title and its file.",
    )
    command.set_defaults(handler=_docs)


def _docs(args: argparse.Namespace) -> int:
    for guide in guides(shipped_docs()):
        print(f"{title(guide)}: {guide}")
    return 0
