"""Every library the package imports is declared (issue 18): in the core dependencies or in the extra whose
commands import it (``caterpillar_learn/extras.py``), and each of those is a requirement in pyproject.toml."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
from pathlib import Path

from caterpillar_learn.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[2]


def imported_libraries() -> set[str]:
    """The top-level names of every module the package imports that is neither its own nor Python's."""
    found: set[str] = set()
    for path in (ROOT / "caterpillar_learn").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return {name for name in found if name not in sys.stdlib_module_names and name != "caterpillar_learn"}


def declared_distributions() -> set[str]:
    """Every distribution pyproject.toml requires, in the core or in an extra, by its normalised name."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    start = text.index("[project]")
    end = text.index("[project.scripts]")
    names = re.findall(r'^\s+"([A-Za-z0-9][A-Za-z0-9._-]*)', text[start:end], re.M)
    return {re.sub(r"[-_.]+", "-", name).lower() for name in names}


def test_every_imported_library_belongs_to_an_extra() -> None:
    known = {module for modules in EXTRAS.values() for module in modules}
    assert imported_libraries() - known == set()


def test_every_extras_module_comes_from_a_declared_distribution() -> None:
    providers = importlib.metadata.packages_distributions()
    declared = declared_distributions()
    for extra, modules in EXTRAS.items():
        for module in modules:
            dists = {re.sub(r"[-_.]+", "-", name).lower() for name in providers.get(module, [])}
            assert dists & declared, f"{extra}: {module} comes from {sorted(dists)}, none in pyproject.toml"
