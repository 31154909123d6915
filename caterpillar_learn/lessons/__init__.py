"""The lessons as data, both games side by side: steps, text keys, checks, tables.

Notebooks, Voila, Panel and the tests all read the same data, so a lesson's
order and wording live in one place: :mod:`~caterpillar_learn.lessons.caterpillars`
(:data:`LESSONS`: the level lessons' steps) and :mod:`~caterpillar_learn.lessons.raupe`
(:data:`SETUPS`: the Räuber Raupe lessons' tables).

>>> [lesson.name for lesson in LESSONS.values()][:2]
['00-setup', '01-beginner']
>>> get_lesson("01-beginner").level, get_table("11-raupe-colour").mode
('beginner', 'colour')
"""

from __future__ import annotations

from caterpillar_learn.lessons.caterpillars import (
    CHECKS,
    LESSONS,
    Lesson,
    Practice,
    Progress,
    Step,
    get_lesson,
)
from caterpillar_learn.lessons.raupe import SETUPS, SLOPPY, TableSetup, get_table

__all__ = [
    "CHECKS",
    "LESSONS",
    "SETUPS",
    "SLOPPY",
    "Lesson",
    "Practice",
    "Progress",
    "Step",
    "TableSetup",
    "get_lesson",
    "get_table",
]
