"""Puzzles for a child: a puzzle set on one idea, on the Caterpillars board (issue 45).

:class:`CaterpillarsPuzzles` is the board (:class:`~caterpillar_learn.ui.caterpillars.widget.CaterpillarsBoard`:
its front end, its traits) with a :class:`~caterpillar_learn.ui.caterpillars.puzzles.PuzzleSession` behind it.
The page draws what the practice of one's own moves draws: the puzzle's sheet and dice, the practice panel (which
puzzle of how many, what to do, what came of the last try, *Next*), the stepper's pips, one puzzle each; at the
end a line of joy and *More puzzles*.  The child's ratings per idea are kept by the page, in the ``book`` trait, as
a lesson's practice book is.

>>> board = CaterpillarsPuzzles("beginner", "zero", size=5)
>>> board.practice["count"], board.lesson["target"], board.book["key"]
('Puzzle 1 of 5', 'sheet', 'caterpillar-learn.puzzles:beginner')
>>> board.act("practice_next")
>>> board.message
'Tap a box first.'
>>> CaterpillarsPuzzles("beginner", "bonus")
Traceback (most recent call last):
...
caterpillar_learn.puzzles.errors.PuzzleError: idea: got 'bonus', expected one of zero, score_die, middle (the \
ideas of the beginner puzzles)
"""

from __future__ import annotations

from typing import Any, ClassVar

from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.puzzles.sets import SET_SIZE
from caterpillar_learn.ui.base import refuse_keywords
from caterpillar_learn.ui.caterpillars.puzzles import PuzzleSession
from caterpillar_learn.ui.caterpillars.widget import CaterpillarsBoard
from caterpillar_learn.ui.voice import voice_strings

__all__ = ["CaterpillarsPuzzles"]


class CaterpillarsPuzzles(CaterpillarsBoard):
    """A set of ``size`` puzzles (5 to 10) on ``idea`` at ``level``, chosen to follow the child's rating for the
    idea; ``seed`` draws among the nearest few (``None``: the nearest, the same for every child of the same
    ratings).  ``voice``: whether the page reads aloud by itself (``None``: at Beginner, for children who cannot
    read yet)."""

    #: The stepper's *New game* button starts another set.
    STRING_KEYS: ClassVar[dict[str, str]] = {**CaterpillarsBoard.STRING_KEYS, "new_game": "practice.puzzles.again"}

    def __init__(
        self,
        level: str = "beginner",
        idea: str = "score_die",
        size: int = SET_SIZE,
        seed: int | None = None,
        *,
        lang: str | None = None,
        voice: bool | None = None,
        **kwargs: Any,
    ) -> None:
        # The puzzles make the board: a board's keywords (labels=..., session=...) would be ignored, so they are
        # refused, as a typo is.
        refuse_keywords(kwargs, ("level", "idea", "size", "seed", "lang", "voice"))
        session = PuzzleSession(level, idea, size=size, seed=seed)
        super().__init__(session=session, lang=lang, voice=voice, **kwargs)

    def front_end_strings(self) -> dict[str, str]:
        strings = super().front_end_strings()
        if self.voice is None:  # a Beginner set reads aloud by itself, as the first lessons do
            assert isinstance(self.session, PuzzleSession)
            strings.update(voice_strings(self.session.bank.level is Level.BEGINNER))
        return strings
