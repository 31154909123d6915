"""Where the widgets' front-end sources are.

They live in the top-level ``widgets/`` folder of the repository and ship
inside an installed package as ``caterpillar_learn.widgets`` (see setup.py).
A checkout (editable install, Binder, CI) reads them from the folder.
"""

from __future__ import annotations

from contextlib import suppress
from importlib import resources
from pathlib import Path

import caterpillar_learn

_CHECKOUT = Path(caterpillar_learn.__file__).resolve().parent.parent / "widgets"


def widget_file(name: str) -> Path:
    """The path of ``widgets/<name>`` (an ES module, CSS or SVG file).

    >>> widget_file("nothing.js")
    Traceback (most recent call last):
    ...
    FileNotFoundError: widgets/nothing.js: no such front-end file
    """
    candidate = _CHECKOUT / name
    if not candidate.exists():
        with suppress(ModuleNotFoundError):  # not installed as a wheel
            candidate = Path(str(resources.files("caterpillar_learn.widgets").joinpath(name)))
    if not candidate.exists():
        raise FileNotFoundError(f"widgets/{name}: no such front-end file")
    return candidate
