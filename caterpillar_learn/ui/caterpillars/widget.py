"""The Caterpillars widgets: a playable board, and a lesson around it.

The front end (``widgets/caterpillars.js`` with the files it imports, and
``widgets/caterpillars.css``) draws the view traits below and writes the
learner's actions to ``event``; every rule lives in Python
(:mod:`~caterpillar_learn.ui.caterpillars.controller`), and what is common
to every widget (dispatch, the error guard, refresh, ``strings``,
``message``, ``lang``) in :class:`~caterpillar_learn.ui.base.LearnWidget`.
The payloads are described in :mod:`~caterpillar_learn.ui.caterpillars.views`.

>>> board = CaterpillarsBoard("beginner", seed=3)
>>> board.act("roll")
>>> board.dice["rolled"], len(board.dice["values"])
(True, 2)
>>> board.act("box", caterpillar="Alex", box="x")
>>> board.message
"box: got 'x', expected a box number from 0 to 3"
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from typing import Any, ClassVar

import traitlets

from caterpillar_learn.caterpillars import ACTION_FACES, CATERPILLARS, DEFAULT_LABELS
from caterpillar_learn.errors import CaterpillarLearnError, one_line
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import Lesson
from caterpillar_learn.lessons.files import LessonFile, lesson_of, play, raise_problems
from caterpillar_learn.ui.assets import es_module, widget_styles
from caterpillar_learn.ui.base import LearnWidget, refuse_keywords
from caterpillar_learn.ui.caterpillars.controller import Session
from caterpillar_learn.ui.caterpillars.lesson import LessonSession

__all__ = ["CaterpillarsBoard", "CaterpillarsLesson"]


def _ui(*names: str) -> dict[str, str]:
    return {name: f"lessons.ui.{name}" for name in names}


class CaterpillarsBoard(LearnWidget[Session]):
    """Sheet, dice tray, move picker, hint panel and final scoring of one game."""

    _esm = traitlets.Unicode(es_module("caterpillars.js")).tag(sync=True)
    _css = traitlets.Unicode(widget_styles("caterpillars.css")).tag(sync=True)

    STRING_KEYS: ClassVar[dict[str, str]] = {
        **_ui(
            "roll", "hint", "next", "back", "new_game", "close", "round", "dice", "die", "action", "setup_dice",
            "pick_die", "menu_hint", "no_dice", "final_title", "hint_title", "more", "review", "try_other",
            "save_answers", "nickname", "nickname_save", "read_aloud", "no_voice", "language", "grown_ups",
            "grown_ups_notes",
        ),
        **{f"face_{face}": f"lessons.ui.face_{face}" for face in ACTION_FACES},
    }  # fmt: skip

    sheet = traitlets.Dict().tag(sync=True, view=True)
    dice = traitlets.Dict().tag(sync=True, view=True)
    legal = traitlets.List(traitlets.Dict()).tag(sync=True, view=True)
    menu = traitlets.Dict().tag(sync=True, view=True)
    hint = traitlets.Dict().tag(sync=True, view=True)
    explanation = traitlets.Unicode("").tag(sync=True, view=True)
    final = traitlets.Dict().tag(sync=True, view=True)
    review = traitlets.Dict().tag(sync=True, view=True)
    lesson = traitlets.Dict().tag(sync=True, view=True)
    whatif = traitlets.Dict().tag(sync=True, view=True)
    question = traitlets.Dict().tag(sync=True, view=True)
    record = traitlets.Dict().tag(sync=True, view=True)
    #: The practice of the learner's own costliest moves (``{}`` when none), and its book for ``localStorage``.
    practice = traitlets.Dict().tag(sync=True, view=True)
    book = traitlets.Dict().tag(sync=True, view=True)

    def __init__(
        self,
        level: str = "beginner",
        seed: int = 1,
        *,
        labels: Sequence[int | None] = DEFAULT_LABELS,
        variation: bool = False,
        auto_setup: bool = True,
        practice: tuple[str, bool] | None = None,
        lang: str | None = None,
        session: Session | None = None,
        **kwargs: Any,
    ) -> None:
        if session is None:
            session = Session(level, seed, labels, variation, auto_setup, practice)
        super().__init__(session, lang=lang, **kwargs)

    def front_end_strings(self) -> dict[str, str]:
        strings = super().front_end_strings()
        strings.update({f"colour_{name}": text(f"lessons.colour.{name}") for name in CATERPILLARS})
        return strings


class CaterpillarsLesson(CaterpillarsBoard):
    """A lesson's board with its stepper; level, seed and setup come from the lesson's data: one of ours by name
    (``"01-beginner"``), or a teacher's lesson, from its file (``"doubles.toml"``,
    :mod:`caterpillar_learn.lessons.files`) or built in a notebook cell (:mod:`caterpillar_learn.lessons.writing`),
    checked by the engine first."""

    def __init__(
        self,
        name: str | os.PathLike[str] | Lesson | LessonFile = "01-beginner",
        seed: int | None = None,
        *,
        lang: str | None = None,
        voice: bool | None = None,
        **kwargs: Any,
    ):
        # A lesson's level and setup are the lesson's own: a board's keywords (level=...) would be ignored, so they
        # are refused, as a typo is (issue 42).
        refuse_keywords(kwargs, ("name", "seed", "lang", "voice"))
        if isinstance(name, LessonFile):  # a lesson built in a notebook cell: checked as its file would be
            raise_problems(name, name.name)
            lesson: str | Lesson = lesson_of(name)
        else:
            lesson = name if isinstance(name, Lesson) else os.fspath(name)
        if isinstance(lesson, str) and lesson.endswith(".toml"):
            lesson = play(lesson)
        if lang is None and isinstance(lesson, Lesson) and lesson.language:
            lang = lesson.language  # a teacher's lesson: the page speaks the language its words are written in
        super().__init__(session=LessonSession(lesson, seed), lang=lang, voice=voice, **kwargs)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], seed: int | None = None, **kwargs: Any) -> Any:
        """The lesson in a teacher's file, or, if the engine refuses it, one line on the page saying why (the
        file and the step), in place of a traceback: what a lesson file's notebook shows
        (``caterpillar-learn lesson notebook``).

        >>> refused = CaterpillarsLesson.from_file("missing.toml")
        >>> type(refused).__name__, "missing.toml" in refused.value
        ('HTML', True)
        """
        try:
            return cls(os.fspath(path), seed, **kwargs)
        except CaterpillarLearnError as error:
            import ipywidgets

            said = html.escape(one_line(str(error)))
            return ipywidgets.HTML(f'<p role="alert" data-testid="lesson-refused">{said}</p>')

    @property
    def step(self) -> int:
        """The index of the current step (the front end cannot write it: see ``LearnWidget.set_state``)."""
        assert isinstance(self.session, LessonSession)
        return self.session.step
