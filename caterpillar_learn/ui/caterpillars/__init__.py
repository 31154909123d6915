"""The Caterpillars widgets: controller (the game behind the board), views (its JSON), widget.

>>> from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
>>> CaterpillarsLesson("02-intermediate").lesson["count"] > 5
True
"""

from caterpillar_learn.ui.caterpillars.controller import Session
from caterpillar_learn.ui.caterpillars.lesson import LessonSession
from caterpillar_learn.ui.caterpillars.puzzle_widget import CaterpillarsPuzzles
from caterpillar_learn.ui.caterpillars.widget import CaterpillarsBoard, CaterpillarsLesson

__all__ = ["CaterpillarsBoard", "CaterpillarsLesson", "CaterpillarsPuzzles", "LessonSession", "Session"]
