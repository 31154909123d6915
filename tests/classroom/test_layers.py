"""The classroom uses the widgets' controllers through their public face (issue 32).

No class under ``caterpillar_learn/classroom/`` overrides a method of a
``caterpillar_learn/ui`` class whose name starts with one underscore, and no
classroom module calls or reads such a name on one (``self._x``,
``super()._x``, ``session._x``): the controllers' private parts may change
without the classroom noticing.  What a room needs is passed in (a dice
source, a helper) or public.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import caterpillar_learn.classroom as classroom

ROOT = Path(classroom.__file__).parent


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _ui_private_names() -> set[str]:
    """Every single-underscore attribute defined by a class of ``caterpillar_learn.ui``."""
    import caterpillar_learn.ui as ui

    names: set[str] = set()
    for info in pkgutil.walk_packages(ui.__path__, "caterpillar_learn.ui."):
        if ".hosting." in info.name:  # the Voila host: no controller lives there
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == info.name:
                names.update(name for name, value in vars(cls).items() if _private(name) and inspect.isfunction(value))
    return names


def _classroom_modules() -> list[str]:
    """Every module of the classroom, the room kinds' packages' included."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found.append(
            ".".join(("caterpillar_learn.classroom", *parts[:-1]))
            if parts[-1] == "__init__"
            else ".".join(("caterpillar_learn.classroom", *parts))
        )
    assert "caterpillar_learn.classroom.rooms.lesson.room" in found  # the kinds' packages are read
    return found


def test_no_classroom_class_overrides_a_private_method_of_a_ui_class() -> None:
    found = []
    for name in _classroom_modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name:
                continue
            ui_bases = [base for base in cls.__mro__[1:] if base.__module__.startswith("caterpillar_learn.ui")]
            for attribute, value in vars(cls).items():
                if not (_private(attribute) and inspect.isfunction(value)):
                    continue
                if any(inspect.isfunction(vars(base).get(attribute)) for base in ui_bases):
                    found.append(f"{name}.{cls.__name__}.{attribute}")
    assert not found, f"private hooks of ui classes overridden: {found}"


def test_no_classroom_module_reaches_into_a_ui_class() -> None:
    ui_private = _ui_private_names()
    assert "_play" in ui_private, "the check can fail: the lessons' session has private methods"
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        for node in ast.walk(tree):
            # a name the module defines itself is its own method (``LessonRoom._play``), not the ui's
            if isinstance(node, ast.Attribute) and node.attr in ui_private and node.attr not in own:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert not found, f"private parts of ui classes used from the classroom: {found}"
