"""The Caterpillars widgets: a playable board and a lesson around it.

The front end (``widgets/caterpillars*.js`` and ``widgets/caterpillars.css``)
only draws the JSON in the traits below and writes the learner's actions to
the ``event`` trait (``model.set`` + ``model.save_changes``); every rule lives
in Python (:class:`~caterpillar_learn.ui.session.Session`).

Traits, Python → front end: ``sheet``, ``dice``, ``legal``, ``menu``,
``hint``, ``explanation``, ``message``, ``final``, ``review``, ``strings``
and, for a lesson, ``lesson``.  Front end → Python: ``event``, one object
``{"type": ..., "seq": n, ...}`` per action (see :data:`EVENT_TYPES`).

>>> board = CaterpillarsBoard("beginner", seed=3)
>>> board.event = {"type": "roll", "seq": 1}
>>> board.dice["rolled"], len(board.dice["values"])
(True, 2)
>>> board.event = {"type": "box", "caterpillar": "Alex", "box": "x", "seq": 2}
>>> board.message
"box: got 'x', expected a box number from 0 to 3"
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anywidget
import traitlets

from caterpillar_learn.caterpillars import ACTION_FACES, DEFAULT_LABELS
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.model import CHECKS, Lesson, get_lesson
from caterpillar_learn.ui.assets import widget_file, widget_styles
from caterpillar_learn.ui.session import Session

#: The ES module is written in parts (one concern each) and joined here, in order;
#: only the last part exports.
ESM_PARTS = ("caterpillars-sheet.js", "caterpillars-tray.js", "caterpillars-panels.js", "caterpillars.js")
CSS_FILE = "caterpillars.css"
EVENT_TYPES = ("roll", "box", "option", "close", "die", "hint", "review", "new_game", "step")


def caterpillars_esm() -> str:
    """The front end as one ES module (what ``_esm`` holds; Panel can reuse it)."""
    return "\n".join(widget_file(name).read_text(encoding="utf-8") for name in ESM_PARTS)


def caterpillars_css() -> str:
    return widget_styles(CSS_FILE)


def template(key: str) -> str:
    """A catalogue message with its placeholders left in, for the front end to fill.

    >>> template("lessons.ui.round")
    'Round {round} of 12'
    """
    values: dict[str, str] = {}
    while True:  # learn the placeholder names of whichever language is current
        try:
            return text(key, **values)
        except KeyError as missing:
            name = str(missing.args[0])
            if name in values:
                raise
            values[name] = "{" + name + "}"


def front_end_strings() -> dict[str, str]:
    """Every already-translated string the front end shows on its own."""
    keys = (
        "roll", "hint", "next", "back", "new_game", "close", "round", "dice", "die",
        "action", "setup_dice", "thinking", "step_of", "box", "empty", "total", "bonus_box",
        "flies", "struck", "pick_die", "menu_hint", "legal_count", "no_dice", "final_title",
        "sheet_label", "hint_title", "expected", "legal_word", "more", "review",
    )  # fmt: skip
    strings = {key: template(f"lessons.ui.{key}") for key in keys}
    for face in ACTION_FACES:
        strings[f"face_{face}"] = text(f"lessons.ui.face_{face}")
    # The box's ARIA template goes over unfilled; the front end fills it per box.
    strings["aria_box"] = template("lessons.aria.box")
    for name in ("Alex", "Bobby", "Charlie"):
        strings[f"colour_{name}"] = text(f"lessons.colour.{name}")
    return strings


class CaterpillarsBoard(anywidget.AnyWidget):
    """Sheet, dice tray, move picker, hint panel and final scoring of one game."""

    _esm = traitlets.Unicode(caterpillars_esm()).tag(sync=True)
    _css = traitlets.Unicode(caterpillars_css()).tag(sync=True)

    sheet = traitlets.Dict().tag(sync=True)
    dice = traitlets.Dict().tag(sync=True)
    legal = traitlets.List(traitlets.Dict()).tag(sync=True)
    menu = traitlets.Dict().tag(sync=True)
    hint = traitlets.Dict().tag(sync=True)
    explanation = traitlets.Unicode("").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    final = traitlets.Dict().tag(sync=True)
    review = traitlets.Dict().tag(sync=True)
    strings = traitlets.Dict().tag(sync=True)
    lesson = traitlets.Dict().tag(sync=True)
    event = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        level: str = "beginner",
        seed: int = 1,
        *,
        labels: Sequence[int | None] = DEFAULT_LABELS,
        variation: bool = False,
        auto_setup: bool = True,
        practice: tuple[str, bool] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.session = Session(level, seed, labels, variation, auto_setup, practice)
        self.strings = front_end_strings()
        self.observe(self._on_event, names="event")
        self.refresh()

    def refresh(self) -> None:
        """Copy the session's views into the traits (one sync message)."""
        with self.hold_sync():
            for name, value in self.session.views().items():
                setattr(self, name, value)
            self.lesson = self.lesson_view()

    def lesson_view(self) -> dict[str, Any]:
        return {}

    def handle_step(self, event: dict[str, Any]) -> None:
        self.session.message = text("lessons.msg.no_lesson")

    def _on_event(self, change: dict[str, Any]) -> None:
        event = change["new"]
        try:
            if isinstance(event, dict) and event.get("type") == "step":
                self.handle_step(event)
            elif isinstance(event, dict) and event.get("type") == "hint":
                self.hint = {"status": "thinking", "title": text("lessons.ui.thinking")}
                self.session.handle(event)
            elif isinstance(event, dict) and event.get("type") == "review":
                self.review = {**self.review, "thinking": text("lessons.ui.thinking")}
                self.session.handle(event)
            else:
                self.session.handle(event)
        except Exception as error:  # never lose the game in progress to a front-end surprise
            self.session.message = text("lessons.msg.internal", error=type(error).__name__)
        self.refresh()

    # -- for tests and hosts that drive the board from Python -----------------
    def act(self, kind: str, **fields: Any) -> None:
        """Do what the front end does for one action: write a new ``event``."""
        seq = int(self.event.get("seq", 0)) + 1 if isinstance(self.event, dict) else 1
        self.event = {"type": kind, "seq": seq, **fields}


class CaterpillarsLesson(CaterpillarsBoard):
    """A lesson's board with its stepper (explain → roll → ... → score → free play)."""

    step = traitlets.Int(0).tag(sync=True)

    def __init__(self, name: str = "01-beginner", seed: int | None = None, **kwargs: Any) -> None:
        self.model_lesson: Lesson = get_lesson(name)
        lesson = self.model_lesson
        practice = None if lesson.practice is None else (lesson.practice.level, lesson.practice.variation)
        super().__init__(
            lesson.level,
            lesson.seed if seed is None else seed,
            variation=lesson.variation,
            auto_setup=lesson.auto_setup,
            practice=practice,
            **kwargs,
        )

    def is_step_done(self) -> bool:
        """The current step's check, which every step passes once a game is finished."""
        progress = self.session.progress
        check = self.model_lesson.steps[self.step].check
        return CHECKS[check](progress) or progress.games_finished >= 1

    def can_go_on(self) -> bool:
        return self.step < len(self.model_lesson.steps) - 1 and self.is_step_done()

    def lesson_view(self) -> dict[str, Any]:
        lesson = getattr(self, "model_lesson", None)
        if lesson is None or not lesson.steps:
            return {}
        current = lesson.steps[self.step]
        done = self.is_step_done()
        return {
            "name": lesson.name,
            "heading": text(lesson.title_key),
            "title": text(f"lessons.{current.key}.title"),
            "body": text(f"lessons.{current.key}.body"),
            "index": self.step,
            "count": len(lesson.steps),
            "progress": text("lessons.ui.step_of", number=self.step + 1, count=len(lesson.steps)),
            "can_back": self.step > 0,
            "can_next": self.can_go_on(),
            "todo": "" if done else text(f"lessons.todo.{current.check}"),
        }

    def handle_step(self, event: dict[str, Any]) -> None:
        delta = event.get("delta")
        if delta not in (1, -1):
            self.session.message = text("lessons.msg.bad_step", delta=repr(delta))
            return
        if delta == 1 and not self.can_go_on():
            self.session.message = text(f"lessons.todo.{self.model_lesson.steps[self.step].check}")
            return
        self.step = max(0, self.step + delta)
        self.session.message = ""


__all__ = ["CaterpillarsBoard", "CaterpillarsLesson", "caterpillars_css", "caterpillars_esm"]
