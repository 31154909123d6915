"""The Caterpillars board as a Panel app, on the widgets' own ES module.

    panel serve caterpillar_learn/ui/panel_app.py

serves one page that plays a Beginner game.  The front end is the very
module Jupyter and Voila load (:func:`~caterpillar_learn.ui.widgets.caterpillars_esm`
and its CSS), run by Panel's :class:`~panel.custom.AnyWidgetComponent`; the
game behind it is the widget class itself, used without a kernel.  So a
classroom server can build on :class:`PanelBoard` (one per browser session)
without a second front end or a second copy of the rules.

Panel carries front-end events only as parameter changes (``model.send``
messages do not reach Python there), which is how the widgets talk anyway:
the front end writes the ``event`` parameter, :class:`PanelBoard` hands it to
the board and copies the board's traits back into its parameters.

>>> board = PanelBoard(level="beginner", seed=5)
>>> board.event = {"type": "roll", "seq": 1}
>>> board.dice["rolled"], len(board.dice["values"])
(True, 2)
"""

from __future__ import annotations

from typing import Any

import panel as pn
import param
from panel.custom import AnyWidgetComponent

from caterpillar_learn.ui.widgets import CaterpillarsBoard, caterpillars_css, caterpillars_esm

#: The board's synchronised traits that the front end reads (``event`` goes the other way).
VIEW_TRAITS = (
    "sheet", "dice", "legal", "menu", "hint", "explanation", "message", "final", "review", "strings", "lesson",
)  # fmt: skip
#: What ``panel serve`` plays: the lesson 01-beginner's game without its stepper.
APP_LEVEL = "beginner"
APP_SEED = 1


class PanelBoard(AnyWidgetComponent):
    """A :class:`CaterpillarsBoard` shown by Panel: same ES module, same game logic."""

    _esm = caterpillars_esm()
    _stylesheets = [caterpillars_css()]  # noqa: RUF012  (Panel reads a class-level list)

    sheet = param.Dict(default={})
    dice = param.Dict(default={})
    legal = param.List(default=[])
    menu = param.Dict(default={})
    hint = param.Dict(default={})
    explanation = param.String(default="")
    message = param.String(default="")
    final = param.Dict(default={})
    review = param.Dict(default={})
    strings = param.Dict(default={})
    lesson = param.Dict(default={})
    event = param.Dict(default={})

    def __init__(
        self, level: str = APP_LEVEL, seed: int = APP_SEED, board: CaterpillarsBoard | None = None, **params: Any
    ) -> None:
        self.board = board if board is not None else CaterpillarsBoard(level, seed)
        views = {name: getattr(self.board, name) for name in VIEW_TRAITS}
        super().__init__(**views, **params)  # type: ignore[no-untyped-call]
        self.param.watch(self._on_event, ["event"])

    def _on_event(self, change: param.parameterized.Event) -> None:
        if not isinstance(change.new, dict) or not change.new:
            return
        self.board.event = change.new  # the board plays it and refreshes its traits at once
        self.pull()

    def pull(self) -> None:
        """Copy the board's traits into the parameters (Panel sends only what changed)."""
        self.param.update({name: getattr(self.board, name) for name in VIEW_TRAITS})


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
