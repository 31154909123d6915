"""The strategy lab widget, drawn by ``widgets/lab.js``: settings in, histograms and a table out.

The front end shows a level select, one checkbox per strategy, the number of
games and a Run button, and sends one event when Run is pressed:

* ``{"type": "run", "level": name, "strategies": [names], "games": n}``.

Python checks it, plays the seeded games and draws the result
(:class:`~caterpillar_learn.ui.lab.LabBench`); the ``lab`` trait carries the
settings as run, the status, the histogram, the table and what it shows.

>>> widget = LabWidget("beginner", games=20)
>>> widget.act("run", level="beginner", strategies=["greedy", "hint"], games=20)
>>> widget.lab["status"], [row["strategy"] for row in widget.lab["rows"]]
('ready', ['greedy', 'hint'])
>>> widget.act("run", level="beginner", strategies=["clever"], games=20)
>>> widget.message
"strategies: got ['clever'], expected a list of some of random, greedy, median, hint"
"""

from __future__ import annotations

from typing import Any, ClassVar

from traitlets import Dict, Unicode

from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.ui.assets import es_module, widget_styles
from caterpillar_learn.ui.base import LearnWidget
from caterpillar_learn.ui.caterpillars.lab import COLUMNS
from caterpillar_learn.ui.lab.controller import LabBench

__all__ = ["LabWidget"]


class LabWidget(LearnWidget[LabBench]):
    """The strategy lab: choose a level, strategies and a number of games, run, compare."""

    _esm = Unicode(es_module("lab.js")).tag(sync=True)
    _css = Unicode(widget_styles("lab.css")).tag(sync=True)

    STRING_KEYS: ClassVar[dict[str, str]] = {
        **{name: f"lessons.lab.ui.{name}" for name in ("level", "strategies", "games", "run", "caption")},
        **{f"col_{name}": f"lessons.lab.col.{name}" for name in COLUMNS},
    }

    lab = Dict().tag(sync=True, view=True)

    def __init__(self, level: Level | str = "beginner", *, lang: str | None = None, **settings: Any) -> None:
        """``settings``: ``strategies``, ``games`` (per strategy) and ``seed``, as :class:`LabBench` takes them."""
        super().__init__(LabBench(level, **settings), lang=lang)
