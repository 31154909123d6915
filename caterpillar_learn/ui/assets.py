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


THEME_FILE = "theme.css"


def widget_styles(name: str) -> str:
    """The shared theme followed by the stylesheet ``widgets/<name>``, as one text.

    >>> ".cl-root" in widget_styles("caterpillars.css") and "--learn-bg" in widget_styles("raupe.css")
    True
    """
    return "\n".join(widget_file(n).read_text(encoding="utf-8") for n in (THEME_FILE, name))


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
