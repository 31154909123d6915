"""The Räuber Raupe widget: the table of one lesson, drawn by ``widgets/raupe.js``.

The front end draws the view traits (``table``, ``hand``, ``log``,
``question``, ``record``, ``lesson_text``, plus ``message``, ``strings`` and ``lang`` from
:class:`~caterpillar_learn.ui.base.LearnWidget`) and writes the learner's
actions, and the clock's ticks, to ``event``; every rule lives in Python
(:class:`~caterpillar_learn.ui.raupe.controller.RaupeTable`).  ``lesson_text``
holds the lesson's title, intro and "try this" items from the catalogue
(:func:`~caterpillar_learn.ui.raupe.views.lesson_view`), in the widget's
language like every other word, or a teacher's from their lesson file
(``RaupeWidget("cards.toml")``, :mod:`caterpillar_learn.lessons.raupe_files`),
as the file writes them.  Events:

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
>>> widget.question["text"]
'Which of your cards fit? Tap them, then Check.'
>>> widget.lesson_text["title"], len(widget.lesson_text["intro"]) > 3
('Räuber Raupe 1: Shape!', True)
>>> widget.act("language", value="de")
>>> widget.lesson_text["title"], widget.question["text"].startswith("Welche deiner Karten passen?")
('Räuber Raupe 1: Form!', True)
>>> widget.act("language", value="en")
>>> for option in sorted(widget.session.quiz.question.correct):  # the lesson asks first, then the game starts
...     widget.act("answer", option=option)
>>> widget.act("check")
>>> widget.act("start")
>>> widget.act("flip", index=0)
>>> widget.hand[0]["side"], widget.table["mode_text"]
(1, 'Shape')
>>> widget.act("shout", word="loud")
>>> widget.message
"shout: got 'loud', expected aphid, shape or colour"
"""

from __future__ import annotations

import html
import os
from dataclasses import replace
from functools import partial
from pathlib import PurePath
from typing import Any, ClassVar

import traitlets

from caterpillar_learn.errors import CaterpillarLearnError, describe, one_line
from caterpillar_learn.i18n import available_languages, language
from caterpillar_learn.lessons import get_table
from caterpillar_learn.lessons.files import LessonFileError
from caterpillar_learn.lessons.raupe_files import play, table_of, words_of
from caterpillar_learn.raupe.bots import get_level
from caterpillar_learn.ui.assets import es_module, widget_styles
from caterpillar_learn.ui.base import LearnWidget, refuse_keywords
from caterpillar_learn.ui.raupe.controller import RaupeTable
from caterpillar_learn.ui.raupe.views import for_a_page_holding
from caterpillar_learn.ui.voice import speaks_by_default

__all__ = ["RaupeWidget"]


class RaupeWidget(LearnWidget[RaupeTable]):
    """The table of one Räuber Raupe lesson: one of ours by name (see :data:`caterpillar_learn.lessons.SETUPS`), or
    a teacher's from its file (a path ending in ``.toml``), checked by the engine first."""

    _esm = traitlets.Unicode(es_module("raupe.js")).tag(sync=True)
    _css = traitlets.Unicode(widget_styles("raupe.css")).tag(sync=True)

    STRING_KEYS: ClassVar[dict[str, str]] = {
        name: f"raupe_lessons.ui.{name}"
        for name in (
            "start", "new_game", "pause", "shape", "colour", "aphid", "mistake", "flip", "pile", "hand",
            "opponents", "speed", "level", "keys", "record", "referee_hand", "follow_up", "pile_size",
            "save_answers", "nickname", "nickname_save", "read_aloud", "no_voice", "language", "how_to_play",
            "play_again", "slow", "fast", "grown_ups",
        )
    }  # fmt: skip

    table = traitlets.Dict().tag(sync=True, view=True)
    hand = traitlets.List(trait=traitlets.Dict()).tag(sync=True, view=True)
    #: The table's last lines, for Python (a notebook, the tests): not sent, the page draws no log (it went
    #: with every bots' move to every page, issue 46).
    log = traitlets.List(trait=traitlets.Unicode())
    question = traitlets.Dict().tag(sync=True, view=True)
    record = traitlets.Dict().tag(sync=True, view=True)
    lesson_text = traitlets.Dict().tag(sync=True, view=True)

    def __init__(
        self,
        lesson: str | os.PathLike[str] = "15-raupe-race",
        seed: int | None = None,
        *,
        lang: str | None = None,
        voice: bool | None = None,
        hints: bool | None = None,
        level: str | None = None,
        **kwargs: Any,
    ) -> None:
        """``seed``: the deal (``None``: the lesson's own, 1 for ours); ``hints``: the strategy line under the calls
        (``None``: as the lesson has it); ``level``: the bots' level (``None``: the lesson's own); ``voice``: whether
        the page starts reading aloud (``None``: the lesson's); ``lang``: the page's language (``None``: a lesson
        file's own).  A lesson file the engine refuses raises :class:`~caterpillar_learn.lessons.files.LessonFileError`
        in one line."""
        refuse_keywords(kwargs, ("lesson", "seed", "lang", "voice", "hints", "level"))  # a typo is refused (issue 42)
        name = os.fspath(lesson) if isinstance(lesson, os.PathLike) else lesson
        words = None
        if isinstance(name, str) and name.endswith(".toml"):  # a teacher's lesson: its table and its own words
            found = play(name)
            setup, words, name = table_of(found), partial(words_of, found), PurePath(name).stem
            seed = found.seed if seed is None else seed
            lang = lang or found.language
            voice = speaks_by_default(None, found.age) if voice is None else voice  # its age decides
        else:
            setup = get_table(name)
        self.lesson = name
        if hints is not None and not isinstance(hints, bool):
            raise CaterpillarLearnError(describe("hints", hints, "True, False or None (the lesson's own choice)"))
        if level is not None:
            level = get_level(level if isinstance(level, str) and len(level) < 40 else repr(level)[:40]).name
        setup = replace(setup, hints=setup.hints if hints is None else hints, level=level or setup.level)
        table = RaupeTable(setup, 1 if seed is None else seed, name, words=words)
        super().__init__(table, lang=lang, voice=voice, **kwargs)
        with language(self.lang):  # the table asked its question in the process's language
            self.session.translate()
        self.refresh()

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], seed: int | None = None, **kwargs: Any) -> Any:
        """The table of a teacher's lesson file, or in its place, where the engine refuses the file, the one line
        that says why (the file and the field) for the page to show: the cell of the notebook that
        ``caterpillar-learn lesson notebook`` writes beside a Räuber Raupe lesson.

        >>> said = RaupeWidget.from_file("no-such-lesson.toml")
        >>> type(said).__name__, said.value.startswith('<p role="alert"'), "no-such-lesson.toml" in said.value
        ('HTML', True, True)
        """
        try:
            file = os.fspath(path)
            if not file.endswith(".toml"):
                raise LessonFileError(describe("lesson file", file, "a file whose name ends in .toml"))
            return cls(file, seed, **kwargs)
        except CaterpillarLearnError as refused:
            from ipywidgets import HTML

            return HTML(f'<p role="alert" data-testid="lesson-refused">{html.escape(one_line(str(refused)))}</p>')

    def for_page(self, name: str, held: Any, value: Any) -> Any:
        """The table goes without the picture under the pile's top when the page holds it as its top."""
        return for_a_page_holding(held, value) if name == "table" else value

    def switch_language(self, value: object) -> None:
        """As every widget does, and the open question is asked again in the new language."""
        if isinstance(value, str) and value in available_languages() and isinstance(self.session, RaupeTable):
            with language(value):
                self.session.translate()
        super().switch_language(value)
