"""The Räuber Raupe widget: the table of one lesson, drawn by ``widgets/raupe.js``.

The front end (``widgets/raupe.js`` and ``widgets/raupe.css``) only draws the
JSON in the traits below and writes the learner's actions, and the clock's
ticks, to the ``event`` trait (``model.set`` + ``model.save_changes``); every
rule lives in Python (:class:`~caterpillar_learn.ui.raupe_table.RaupeTable`,
drawn by :mod:`~caterpillar_learn.ui.raupe_views`).

Traits, Python → front end: ``table`` (mode, pile, opponents, armed calls,
hint, tally, whether the game runs and is paused, winner, controls, game record), ``hand`` (the learner's cards:
index, side up, picture, words, whether it fits), ``log`` (what just
happened, newest first), ``message`` (the newest line or why an event was
refused), ``strings`` (labels).  Front end → Python: ``event``, one object
``{"type": ..., "seq": n, ...}`` per action:

* ``{"type": "start"}``: start the clock (or deal a new game);
* ``{"type": "tick", "dt": seconds}``: real time passed (the front end's clock);
* ``{"type": "play", "index": i}``: play hand card ``i`` with its shown side up;
* ``{"type": "flip", "index": i}``: turn hand card ``i`` over;
* ``{"type": "shout", "word": "shape" | "colour" | "aphid"}``: arm (or disarm)
  a shout for the next card;
* ``{"type": "mistake"}``: call "Mistake!" on the newest card;
* ``{"type": "pause"}``: stop the clock, or start it again (``table["paused"]``);
* ``{"type": "speed", "value": x}``, ``{"type": "level", "value": name}``.

>>> widget = RaupeWidget("10-raupe-shape", seed=4)
>>> widget.act("start")
>>> widget.act("flip", index=0)
>>> widget.hand[0]["side"], widget.table["mode_text"]
(1, 'Shape')
>>> widget.act("shout", word="loud")
>>> widget.message
"shout: got 'loud', expected aphid, shape or colour"
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.ui.assets import widget_file, widget_styles
from caterpillar_learn.ui.raupe_setups import SETUPS, TableSetup, replay_record
from caterpillar_learn.ui.raupe_table import EVENT_TYPES, RaupeTable
from caterpillar_learn.ui.raupe_views import hand_view, table_view

__all__ = ["EVENT_TYPES", "SETUPS", "RaupeTable", "RaupeWidget", "TableSetup", "front_end_strings", "replay_record"]

ESM_FILE = "raupe.js"
CSS_FILE = "raupe.css"


def front_end_strings() -> dict[str, str]:
    """The labels the front end shows on its own (buttons, headings, key help)."""
    keys = (
        "start",
        "new_game",
        "pause",
        "shape",
        "colour",
        "aphid",
        "mistake",
        "flip",
        "pile",
        "hand",
        "opponents",
        "speed",
        "level",
        "keys",
        "record",
        "referee_hand",
        "follow_up",
    )
    strings = {key: text(f"raupe_lessons.ui.{key}") for key in keys}
    strings["pile_size"] = text("raupe_lessons.ui.pile_size", size="{size}")  # the front end fills it
    return strings


class RaupeWidget(anywidget.AnyWidget):
    """The table of one Räuber Raupe lesson (see :data:`SETUPS`)."""

    _esm = traitlets.Unicode(widget_file(ESM_FILE).read_text(encoding="utf-8")).tag(sync=True)
    _css = traitlets.Unicode(widget_styles(CSS_FILE)).tag(sync=True)

    table = traitlets.Dict().tag(sync=True)
    hand = traitlets.List(trait=traitlets.Dict()).tag(sync=True)
    log = traitlets.List(trait=traitlets.Unicode()).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    strings = traitlets.Dict().tag(sync=True)
    event = traitlets.Dict().tag(sync=True)

    def __init__(self, lesson: str = "15-raupe-race", seed: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if lesson not in SETUPS:
            raise KeyError(describe("lesson", lesson, "one of " + ", ".join(SETUPS)))
        self.lesson = lesson
        self.session = RaupeTable(SETUPS[lesson], seed)
        self.strings = front_end_strings()
        self.observe(self._on_event, names="event")
        self.refresh()

    def refresh(self) -> None:
        """Copy the table's views into the traits (one sync message)."""
        with self.hold_sync():
            self.table = table_view(self.session)
            self.hand = hand_view(self.session)
            self.log = list(self.session.log)
            self.message = self.session.message

    def _on_event(self, change: dict[str, Any]) -> None:
        try:
            self.session.handle(change["new"])
        except Exception as error:  # never lose the game in progress to a front-end surprise
            self.session.message = text("raupe_lessons.msg.internal", error=type(error).__name__)
        self.refresh()

    def act(self, kind: str, **fields: Any) -> None:
        """Do what the front end does for one action: write a new ``event``."""
        seq = int(self.event.get("seq", 0)) + 1 if isinstance(self.event, dict) else 1
        self.event = {"type": kind, "seq": seq, **fields}
