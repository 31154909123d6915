"""A lesson's save and its replay: the events it accepted, and the engine's save they must reach.

A page keeps a lesson's save in its ``localStorage`` (:mod:`caterpillar_learn.ui.resume`); opening the
page again replays the events on a fresh lesson through the lesson's own guard, so a save that was changed
by hand, or belongs to older code, is refused in one line and the lesson starts again instead.

>>> from caterpillar_learn.ui.caterpillars import LessonSession
>>> lesson = LessonSession("00-setup")
>>> lesson.handle({"type": "step", "delta": 1, "seq": 7})
>>> saved = save_of(lesson)
>>> saved["kind"], saved["seed"], saved["events"], saved["engine"]["level"]
('caterpillars-lesson', 1, [{'type': 'step', 'delta': 1}], 'beginner')
>>> back = LessonSession("00-setup")
>>> replay(back, saved)
>>> back.step
1
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING

from caterpillar_learn.caterpillars import Game
from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.ui.events import BadEventError, event_type
from caterpillar_learn.ui.resume import SAVE_FORMAT, SaveError, SaveRecord, check_save

if TYPE_CHECKING:
    from caterpillar_learn.ui.caterpillars.lesson import LessonSession

__all__ = ["PAGE_EVENTS", "replay", "save_of"]

#: Events that describe the page, not the lesson: a save does not keep them (the next page sends its own).
#: ``book`` is the page's practice book, kept apart from the lesson's save (:mod:`.practice`).
PAGE_EVENTS = frozenset({"device", "nickname", "book"})


def save_of(lesson: LessonSession) -> SaveRecord:
    """``lesson`` as JSON: its accepted events and the engine's save of the game on the board."""
    _draw_turn(lesson)
    return {
        "format": SAVE_FORMAT,
        "kind": lesson.save_kind,
        "lesson": lesson.lesson.name,
        "seed": lesson.start_seed,
        "events": copy.deepcopy(lesson.accepted),
        "engine": lesson.game.to_json(),
    }


def replay(lesson: LessonSession, save: object) -> None:
    """Replay ``save`` on the fresh ``lesson`` through its own guard, or raise :class:`SaveError`.

    Each event must be one the lesson accepts at that moment, and the
    engine's save (read back with ``Game.from_json``) must be the game the
    events reach.  After a :class:`SaveError` the lesson is spoilt: build
    another (:meth:`~caterpillar_learn.ui.caterpillars.lesson.LessonSession.fresh`).

    >>> from caterpillar_learn.ui.caterpillars import LessonSession
    >>> lesson = LessonSession("01-beginner")
    >>> saved = {**lesson.save(), "events": [{"type": "option", "index": 0}]}
    >>> replay(LessonSession("01-beginner"), saved)
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.resume.SaveError: save events[0]: Roll the dice first.
    """
    if lesson.accepted:
        raise SaveError(describe("lesson", f"{len(lesson.accepted)} events played", "a fresh lesson to replay on"))
    events = check_save(save, lesson.save_kind, lesson.lesson.name, lesson.start_seed)
    assert isinstance(save, Mapping)
    engine = save["engine"]
    try:
        Game.from_json(engine)
    except CaterpillarLearnError as error:
        raise SaveError(f"save engine: {error}") from None
    for index, event in enumerate(events):
        try:
            if event_type(event, lesson.events) in PAGE_EVENTS:
                raise BadEventError(describe("event type", event["type"], "an event of the lesson"))
            lesson.handle(event)
        except CaterpillarLearnError as error:
            raise SaveError(f"save events[{index}]: {error}") from None
        except Exception as error:  # whatever the event was, the save is refused, never the page
            raise SaveError(f"save events[{index}]: could not be replayed ({type(error).__name__})") from None
        if lesson.message:  # an event the lesson refused in words (not raised): not one it accepted
            raise SaveError(f"save events[{index}]: {lesson.message}")
    _draw_turn(lesson)
    replayed = lesson.game.to_json()
    if replayed != engine:
        field = next((key for key in replayed if replayed[key] != engine.get(key)), "format")
        raise SaveError(describe(f"save engine.{field}", engine.get(field), "the game its events reach"))


def _draw_turn(lesson: LessonSession) -> None:
    """Draw this turn's dice if not yet drawn (the board shows them), so that two saves of one moment agree."""
    if lesson.game.phase != "over":
        lesson.game.roll()
