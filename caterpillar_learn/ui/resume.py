"""A lesson's save: what a reload replays, so that the learner comes back where they were.

A lesson controller that can be resumed (:class:`Resumable`, e.g.
:class:`~caterpillar_learn.ui.caterpillars.lesson.LessonSession`) keeps
every event it **accepted** (an event that raised changed nothing and is not
kept; events that only describe the page, such as ``device``, are not kept
either).  Its :meth:`Resumable.save` is plain JSON:

* ``format`` (:data:`SAVE_FORMAT`), ``kind`` (which controller wrote it),
  ``lesson`` and ``seed`` (the lesson's starting seed): a save of another
  lesson, seed or version is refused;
* ``events``: the accepted events in order, without their ``seq``;
* ``engine``: the engine's own save of the game on the board
  (``Game.to_json``);
* ``lang`` (optional): the page's language, which the widget restores.

Resuming builds a fresh controller and replays the events through its own
guard (:meth:`Resumable.handle`), so a save can only reach a place the
lesson itself can reach: the step, the sheet, the questions asked and
answered right at the first try, the numbers switch all come back.  The
engine's part is read back with ``from_json`` and must equal the game the
events replayed.  Anything else (edited JSON, an illegal move, an unknown
field, a wrong version, a save of another lesson) raises :class:`SaveError`,
one line naming the field and the value.

>>> from caterpillar_learn.ui.caterpillars.lesson import LessonSession
>>> lesson = LessonSession("01-beginner")
>>> lesson.handle({"type": "step", "delta": 1})
>>> lesson.handle({"type": "roll"})
>>> save = lesson.save()
>>> save["lesson"], save["events"]
('01-beginner', [{'type': 'step', 'delta': 1}, {'type': 'roll'}])
>>> back = LessonSession.restore(save)
>>> (back.step, back.revealed) == (lesson.step, lesson.revealed)
True
>>> LessonSession.restore(save, lesson="02-intermediate")
Traceback (most recent call last):
...
caterpillar_learn.ui.resume.SaveError: save lesson: got '01-beginner', expected '02-intermediate'
>>> LessonSession.restore({**save, "events": [{"type": "box", "caterpillar": "Alex", "box": 9}]})
Traceback (most recent call last):
...
caterpillar_learn.ui.resume.SaveError: save events[0]: box: got 9, expected a box number from 0 to 3
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, TypedDict, TypeVar, runtime_checkable

from caterpillar_learn.errors import check_saved, describe
from caterpillar_learn.ui.events import MAX_EVENT_FIELDS, BadEventError

log = logging.getLogger("caterpillar_learn.ui")

__all__ = [
    "MAX_SAVED_EVENTS",
    "MAX_SAVE_CHARS",
    "SAVE_FORMAT",
    "SAVE_KEYS",
    "Resumable",
    "SaveError",
    "SaveRecord",
    "SaveView",
    "check_save",
    "storage_key",
]

#: The version of a lesson's save; any other is refused.
SAVE_FORMAT = 1
#: The fields a save may hold (``lang`` may be left out).
SAVE_KEYS = ("format", "kind", "lesson", "seed", "events", "engine", "lang")
#: The most events a save replays (about a hundred games of free play).
MAX_SAVED_EVENTS = 5000
#: The longest save read, as JSON text.
MAX_SAVE_CHARS = 2_000_000


class SaveError(BadEventError):
    """A save that cannot be resumed: edited, of another lesson or version, or reaching no place the lesson can."""


class SaveRecord(TypedDict, total=False):
    """A lesson's save (see the module's description); ``lang`` is the widget's."""

    format: int
    kind: str
    lesson: str
    seed: int
    events: list[dict[str, Any]]
    engine: dict[str, Any]
    lang: str


class SaveView(TypedDict):
    """The ``saved`` trait: what the page keeps in ``localStorage`` under ``key``.

    ``status`` is ``"resumed"`` or ``"refused"`` right after a resume (until
    the learner's next action), else ``""``.
    """

    key: str
    data: SaveRecord
    status: str


def storage_key(kind: str, lesson: str, seed: int) -> str:
    """The page's ``localStorage`` key of a lesson's save: two lessons (or seeds) never share one.

    >>> storage_key("caterpillars-lesson", "01-beginner", 1)
    'caterpillar-learn.save:caterpillars-lesson:01-beginner:1'
    """
    return f"caterpillar-learn.save:{kind}:{lesson}:{seed}"


def check_save(save: object, kind: str, lesson: str, seed: int) -> list[dict[str, Any]]:
    """The events of ``save`` once its frame is checked (version, kind, lesson, seed, sizes), else :class:`SaveError`.

    >>> check_save({"format": 1, "kind": "k", "lesson": "a", "seed": 2, "events": [], "engine": {}}, "k", "a", 2)
    []
    >>> check_save({"format": 2}, "k", "a", 2)
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.resume.SaveError: save format: got 2, expected 1
    """
    if not isinstance(save, Mapping):
        raise SaveError(describe("save", save, "a JSON object as a lesson's save() writes"))
    check_saved(save, SaveError, SAVE_FORMAT, SAVE_KEYS, fields=("save format", "save field"))
    for field, expected in (("kind", kind), ("lesson", lesson), ("seed", seed)):
        value = save.get(field)
        if type(value) is not type(expected) or value != expected:
            raise SaveError(describe(f"save {field}", value, repr(expected)))
    try:
        size = len(json.dumps(save, allow_nan=False))
    except (TypeError, ValueError):
        raise SaveError("save: got something that is not plain JSON, expected a lesson's save") from None
    if size > MAX_SAVE_CHARS:
        raise SaveError(describe("save size", size, f"at most {MAX_SAVE_CHARS} characters"))
    events = save.get("events")
    if not isinstance(events, list) or len(events) > MAX_SAVED_EVENTS:
        shown = f"a list of {len(events)} events" if isinstance(events, list) else events
        raise SaveError(describe("save events", shown, f"a list of at most {MAX_SAVED_EVENTS} events"))
    for index, event in enumerate(events):
        if not isinstance(event, dict) or len(event) > MAX_EVENT_FIELDS or "seq" in event:
            raise SaveError(describe(f"save events[{index}]", event, 'an event {"type": ...} without "seq"'))
    if not isinstance(save.get("engine"), dict):
        raise SaveError(describe("save engine", save.get("engine"), "the engine's save (to_json)"))
    return events


R = TypeVar("R", bound="Resumable")


@runtime_checkable
class Resumable(Protocol):
    """A lesson controller that can be saved and resumed (see the module's description).

    Besides the :class:`~caterpillar_learn.ui.base.Controller` protocol it
    has :meth:`save`, :meth:`replay`, :meth:`fresh` and the classmethod
    ``restore(save)``; :attr:`save_kind` names its kind of save.
    """

    save_kind: ClassVar[str]
    message: str
    #: The events accepted so far, in order, without ``seq`` (what :meth:`save` replays).
    accepted: list[dict[str, Any]]

    def handle(self, event: Mapping[str, Any]) -> None: ...

    def save(self) -> SaveRecord:
        """Everything a reload needs to come back here, as JSON."""

    def replay(self, save: object) -> None:
        """Replay ``save`` on this fresh controller (or raise :class:`SaveError`; the controller is then spoilt)."""

    def fresh(self: R) -> R:
        """A new controller of the same lesson and seed, at its start (the page's settings kept)."""

    def close(self) -> None:
        """Let go of what the controller started (a background solve, a clock)."""
