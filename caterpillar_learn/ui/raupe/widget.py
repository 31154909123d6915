"""The Räuber Raupe widget: the table of one lesson, drawn by ``widgets/raupe.js``.

The front end draws the view traits (``table``, ``hand``, ``log``,
``question``, ``record``, ``lesson_text``, plus ``message``, ``strings`` and ``lang`` from
:class:`~caterpillar_learn.ui.base.LearnWidget`) and writes the learner's
actions, and the clock's ticks, to ``event``; every rule lives in Python
(:class:`~caterpillar_learn.ui.raupe.controller.RaupeTable`).  ``lesson_text``
holds the lesson's title, intro and "try this" items from the catalogue
(:func:`~caterpillar_learn.ui.raupe.views.lesson_view`), in the widget's
language like every other word.  Events:

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

from dataclasses import replace
from typing import Any, ClassVar

import traitlets

from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.i18n import available_languages, language
from caterpillar_learn.lessons import get_table
from caterpillar_learn.raupe.bots import get_level
from caterpillar_learn.ui.assets import es_module, widget_styles
from caterpillar_learn.ui.base import LearnWidget, refuse_keywords
from caterpillar_learn.ui.raupe.controller import RaupeTable
from caterpillar_learn.ui.raupe.views import for_a_page_holding

__all__ = ["RaupeWidget"]


class RaupeWidget(LearnWidget[RaupeTable]):
    """The table of one Räuber Raupe lesson (see :data:`caterpillar_learn.lessons.SETUPS`)."""

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
        lesson: str = "15-raupe-race",
        seed: int = 1,
        *,
        lang: str | None = None,
        voice: bool | None = None,
        hints: bool | None = None,
        level: str | None = None,
        **kwargs: Any,
    ) -> None:
        """``hints``: the strategy line under the calls (``None``: as the lesson has it); ``level``: the bots' level
        (``None``: the lesson's own); ``voice``: whether the page starts reading aloud (``None``: the lesson's)."""
        refuse_keywords(kwargs, ("lesson", "seed", "lang", "voice", "hints", "level"))  # a typo is refused (issue 42)
        self.lesson = lesson
        setup = get_table(lesson)
        if hints is not None and not isinstance(hints, bool):
            raise CaterpillarLearnError(describe("hints", hints, "True, False or None (the lesson's own choice)"))
        if level is not None:
            level = get_level(level if isinstance(level, str) and len(level) < 40 else repr(level)[:40]).name
        setup = replace(setup, hints=setup.hints if hints is None else hints, level=level or setup.level)
        super().__init__(RaupeTable(setup, seed, lesson), lang=lang, voice=voice, **kwargs)
        with language(self.lang):  # the table asked its question in the process's language
            self.session.translate()
        self.refresh()

    def for_page(self, name: str, held: Any, value: Any) -> Any:
        """The table goes without the picture under the pile's top when the page holds it as its top."""
        return for_a_page_holding(held, value) if name == "table" else value

    def switch_language(self, value: object) -> None:
        """As every widget does, and the open question is asked again in the new language."""
        if isinstance(value, str) and value in available_languages() and isinstance(self.session, RaupeTable):
            with language(value):
                self.session.translate()
        super().switch_language(value)
