"""What each extra of the package brings, and the one line a command says when its extra is missing.

``pip install caterpillar-learn`` is the engine, the hint generator and the
command line (numpy, Babel, tqdm).  ``[lessons]`` adds what ``serve`` and
the notebooks need (Voila, JupyterLab, the widgets), ``[classroom]`` what
``classroom`` needs (Panel, Bokeh, the widgets), ``[hub]`` the classroom server
as a JupyterHub service (JupyterHub's OAuth client); pyproject.toml lists them.
A command checks its extra before it starts (:func:`require`), so a missing
library is one line naming the extra to install, never a traceback.

>>> require("core")
>>> advice("lessons", "voila")
"needs the lessons extra (no module named 'voila'): pip install 'caterpillar-learn[lessons]'"
"""

from __future__ import annotations

import importlib.util

from caterpillar_learn.errors import CaterpillarLearnError, describe

__all__ = ["EXTRAS", "MissingExtraError", "advice", "require"]

#: The modules each extra brings that its commands import (a module's name, not its distribution's).
EXTRAS: dict[str, tuple[str, ...]] = {
    "core": ("numpy", "babel", "tqdm"),
    "lessons": (
        "voila",
        "jupyter_server",
        "jupyter_core",
        "jinja2",
        "ipykernel",
        "ipywidgets",
        "anywidget",
        "traitlets",
        "tornado",
        "psutil",
    ),
    "classroom": (
        "panel",
        "bokeh",
        "param",
        "tornado",
        "ipywidgets",
        "anywidget",
        "traitlets",
        "psutil",
        "segno",
        "confusable_homoglyphs",
    ),
    # the classroom server as a JupyterHub service (classroom/hub.py): the classroom's modules and the hub's
    "hub": ("jupyterhub",),
}


class MissingExtraError(CaterpillarLearnError):
    """A command's extra is not installed."""


def advice(extra: str, module: str) -> str:
    """The line a command says when ``module`` of ``extra`` is missing."""
    return f"needs the {extra} extra (no module named {module!r}): pip install 'caterpillar-learn[{extra}]'"


def require(extra: str) -> None:
    """Raise :class:`MissingExtraError` unless every module of ``extra`` can be imported."""
    if extra not in EXTRAS:
        raise MissingExtraError(describe("extra", extra, f"one of {', '.join(EXTRAS)}"))
    for module in EXTRAS[extra]:
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(advice(extra, module))
