"""The idea a costly move missed, named from the engine's own comparison of the move and the best one.

A small fixed list (:data:`IDEAS`), written for teachers in
``docs/ENGINEERS.md``; the first idea whose claim holds names the mistake.
Each claim is a plain fact about the two moves, which
``tests/practice/test_ideas.py`` checks on every position it tries:

* ``bonus``: the two moves differ in what goes into a bonus box;
* ``action``: the action die added to the dice (a 10 or a doubling) and the two moves score differently;
* ``zero``: one of the two moves is a zero (a crossed box);
* ``score_die``: both write a score, and a different one (the dice played the other roles);
* ``middle``: the same score, written into another caterpillar;
* ``box``: the same score and caterpillar, in another box (a label kept open for later).

On the sheet labelled 1 3 6 4 / 2 2 5 5 / 6 6 1 1 at Beginner:

>>> from caterpillar_learn.caterpillars import Level, Move
>>> from caterpillar_learn.caterpillars.dice import Roll
>>> idea_of(Level.BEGINNER, Roll((3, 5)), Move.of("Bobby", 3, 3), Move.of("Alex", 1, 5))
'score_die'
>>> idea_of(Level.BEGINNER, Roll((1, 4)), Move.of("Alex", 0, 4), Move.of("Charlie", 2, 4))
'middle'
"""

from __future__ import annotations

from caterpillar_learn.caterpillars.dice import Roll
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.rules import Move
from caterpillar_learn.caterpillars.sheet import BOXES

#: Every idea a mistake can be named by, in the order they are tried.
IDEAS: tuple[str, ...] = ("bonus", "action", "zero", "score_die", "middle", "box")


def ideas_at(level: Level) -> tuple[str, ...]:
    """The ideas a mistake at ``level`` can be named by (:data:`IDEAS` order): bonus boxes and the action die
    only where the level has them.

    >>> ideas_at(Level.BEGINNER)
    ('zero', 'score_die', 'middle', 'box')
    >>> ideas_at(Level.EXPERT)
    ('bonus', 'action', 'zero', 'score_die', 'middle', 'box')
    """
    rules = level.rules
    absent = {"bonus"} if not rules.bonus_boxes else set()
    absent |= {"action"} if not rules.action_die else set()
    return tuple(idea for idea in IDEAS if idea not in absent)


def idea_of(level: Level, roll: Roll, chosen: Move, best: Move) -> str:
    """The idea ``chosen`` missed, ``best`` being the exact best move of ``roll`` at that round (of ``level``)."""
    if chosen.bonus != best.bonus:
        return "bonus"
    if level.rules.action_die and roll.action in ("10", "2x") and chosen.score != best.score:
        return "action"
    if chosen.zero or best.zero:
        return "zero"
    if chosen.score != best.score:
        return "score_die"
    if chosen.slot // BOXES != best.slot // BOXES:
        return "middle"
    return "box"


__all__ = ["IDEAS", "idea_of"]
