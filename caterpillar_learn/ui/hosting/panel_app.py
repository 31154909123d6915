"""The widgets on Panel: the same ES modules, the same controllers, no kernel.

    panel serve caterpillar_learn/ui/hosting/panel_app.py

serves one page that plays a Beginner game, on :class:`PanelCaterpillarsBoard`:
a declared subclass of the one Panel component the widgets use,
:class:`~caterpillar_learn.ui.hosting.component.LearnComponent` (which says
how a page's events are played, what a page may write, and which upstream
hooks it overrides and why).

>>> board = PanelBoard(level="beginner", seed=5)
>>> board.event = {"type": "roll", "seq": 1}
>>> board.dice["rolled"], len(board.dice["values"])
(True, 2)
>>> board._process_events({"final": {"final": 99}})  # as a tampering page's write arrives
>>> board.final
{}
"""

from __future__ import annotations

from typing import Any

import panel as pn

from caterpillar_learn.ui.caterpillars import CaterpillarsBoard
from caterpillar_learn.ui.hosting.component import LearnComponent, Whole

__all__ = ["PanelBoard", "PanelCaterpillarsBoard", "Whole", "app"]

#: What ``panel serve`` plays: the lesson 01-beginner's game without its stepper.
APP_LEVEL = "beginner"
APP_SEED = 1


class PanelCaterpillarsBoard(LearnComponent):
    """The Caterpillars board on Panel: the lessons' ES module and controller, no kernel."""

    widget_class = CaterpillarsBoard


def PanelBoard(level: str = APP_LEVEL, seed: int = APP_SEED, **params: Any) -> PanelCaterpillarsBoard:
    """A Caterpillars board on Panel (a component around a :class:`CaterpillarsBoard`)."""
    return PanelCaterpillarsBoard(CaterpillarsBoard(level, seed), **params)


def app() -> pn.viewable.Viewable:
    """The page ``panel serve`` shows: a title and a Beginner board."""
    return pn.Column(
        pn.pane.Markdown("# Caterpillars — Beginner"),  # type: ignore[no-untyped-call]
        PanelBoard(APP_LEVEL, APP_SEED),
        sizing_mode="stretch_width",
    )


if __name__.startswith("bokeh"):  # run by ``panel serve``: one app per browser session
    pn.extension()
    app().servable(title="Caterpillars")
