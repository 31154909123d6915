"""The lessons as data: their steps, text keys, widgets and checks.

Notebooks, Voila, Panel and the tests all read the same :data:`LESSONS`, so a
lesson's order and wording live in one place.

>>> [lesson.name for lesson in LESSONS.values()][:2]
['00-setup', '01-beginner']
>>> get_lesson("01-beginner").level
'beginner'
"""

from __future__ import annotations

from caterpillar_learn.lessons.model import (
    CHECKS,
    LESSONS,
    Lesson,
    Practice,
    Progress,
    Step,
    get_lesson,
)

__all__ = ["CHECKS", "LESSONS", "Lesson", "Practice", "Progress", "Step", "get_lesson"]
