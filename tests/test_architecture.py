"""The package's layout says where each thing is (issue 43): every module opens with a sentence of its own, and
one package is named ``hosting``.  (The classroom's layers: ``tests/classroom/test_layers.py``; the handler
tables of methods, not names: ``tests/ui/test_handlers.py``.)"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import caterpillar_learn

PACKAGE = Path(caterpillar_learn.__file__).parent


def first_sentence(path: Path) -> str | None:
    """A module's first docstring sentence (up to its first full stop followed by a space, or its paragraph's end)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    if not doc:
        return None
    paragraph = " ".join(doc.split("\n\n")[0].split())
    return paragraph.split(". ")[0].rstrip(".")


def test_every_module_opens_with_a_sentence_of_its_own() -> None:
    said: dict[str, list[str]] = defaultdict(list)
    silent = []
    for path in sorted(PACKAGE.rglob("*.py")):
        sentence = first_sentence(path)
        if sentence is None:
            silent.append(str(path.relative_to(PACKAGE)))
        else:
            said[sentence.lower()].append(str(path.relative_to(PACKAGE)))
    assert silent == [], "modules that do not say what they hold"
    assert {sentence: paths for sentence, paths in said.items() if len(paths) > 1} == {}


def test_one_package_is_named_hosting() -> None:
    found = sorted(str(path.parent.relative_to(PACKAGE)) for path in PACKAGE.rglob("hosting/__init__.py"))
    assert found == ["ui/hosting"]
