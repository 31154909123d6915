"""The strategy lab widget, drawn by ``widgets/lab.js``: settings in, histograms and a table out.

The front end shows a level select, one checkbox per strategy, the number of
games and a Run button, and sends one event when Run is pressed:

* ``{"type": "run", "level": name, "strategies": [names], "games": n}``.

Its language switch (``data-testid="language"``) sends the ``language`` event
every widget handles (:class:`~caterpillar_learn.ui.base.LearnWidget`), and a
speaker button reads the status and what the run shows aloud.

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
from caterpillar_learn.ui.lab.controller import LabBench
from caterpillar_learn.ui.lab.report import COLUMNS

__all__ = ["LabWidget"]


class LabWidget(LearnWidget[LabBench]):
    """The strategy lab: choose a level, strategies and a number of games, run, compare."""

    _esm = Unicode(es_module("lab.js")).tag(sync=True)
    _css = Unicode(widget_styles("lab.css")).tag(sync=True)

    #: The lab answers a run with a picture, not a sound: no sound switch is drawn beside the voice switch.
    SOUNDS: ClassVar[bool] = False

    STRING_KEYS: ClassVar[dict[str, str]] = {
        **{name: f"lessons.lab.ui.{name}" for name in ("level", "strategies", "games", "run", "caption")},
        **{f"col_{name}": f"lessons.lab.col.{name}" for name in COLUMNS},
        **{name: f"lessons.ui.{name}" for name in ("read_aloud", "no_voice", "language")},
    }

    lab = Dict().tag(sync=True, view=True)

    def __init__(
        self,
        level: Level | str = "beginner",
        *,
        lang: str | None = None,
        voice: bool | None = None,
        run: bool = False,
        **settings: Any,
    ) -> None:
        """``settings``: ``strategies``, ``games`` (per strategy) and ``seed``, as :class:`LabBench` takes them;
        ``run``: play the games of these settings at once (a lesson opens with its run shown); ``voice``: whether
        the page starts reading aloud (``None``: as the lab does)."""
        super().__init__(LabBench(level, **settings), lang=lang, voice=voice)
        if run:
            bench = self.session
            self.act("run", level=bench.level.value, strategies=list(bench.strategies), games=bench.games)
