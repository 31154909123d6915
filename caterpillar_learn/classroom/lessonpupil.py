"""What one pupil plays in a lesson room: the lesson's own controller, and what the teacher's grid reads of it.

:class:`LessonSettings` names the lesson (any of :data:`LESSON_NAMES`: the
notebooks of ``lessons/`` but the strategy lab) and the pace.  Each pupil's
controller is the very one the lesson runs on in Voila, with the teacher's
hold added: :class:`RoomLesson` (the Caterpillars lessons'
:class:`~caterpillar_learn.ui.caterpillars.LessonSession`) or
:class:`RoomTable` (a Räuber Raupe lesson's
:class:`~caterpillar_learn.ui.raupe.controller.RaupeTable`), made by
:func:`new_controller` with the lesson's notebook seed; :class:`LessonPupil`
holds it and reads the step, the answers and what the pupil has done.

The strategy lab is left out: it has no steps or questions to follow, and
its opening run (200 simulated games a strategy, the hint's among them)
takes the best part of a minute of CPU, which a server for the whole class
must not spend on its event loop for each pupil who joins.

>>> pupil = LessonPupil(1, "Ada", new_controller(LessonSettings.build("10-raupe-shape")), joined_at=0.0)
>>> pupil.place(), table_steps("10-raupe-shape")
((1, 4), ('look', 'start', 'play', 'end'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import LESSONS, SETUPS, get_table
from caterpillar_learn.ui.base import BadEventError
from caterpillar_learn.ui.caterpillars.controller import LessonSession
from caterpillar_learn.ui.raupe.controller import RaupeTable

__all__ = [
    "LESSON_NAMES",
    "MODES",
    "NOTEBOOK_SEEDS",
    "LessonPupil",
    "LessonSettings",
    "RoomLesson",
    "RoomTable",
    "lesson_kind",
    "lesson_title",
    "new_controller",
    "table_steps",
]

#: Every lesson a room can play: the notebooks of ``lessons/`` (the Caterpillars lessons, then Räuber Raupe's),
#: but the strategy lab (see the module's text).
LESSON_NAMES: tuple[str, ...] = (*(name for name, lesson in LESSONS.items() if lesson.widgets != ("lab",)), *SETUPS)
#: ``own``: every pupil at their own pace; ``together``: the teacher's roll (or start) for the whole class.
MODES = ("own", "together")
#: The seed of each lesson's notebook (its ``SEED`` parameter): the room deals what Voila deals.
NOTEBOOK_SEEDS: dict[str, int] = {
    "00-setup": 1, "01-beginner": 1, "02-intermediate": 2, "03-advanced": 3, "04-expert": 4,
    "10-raupe-shape": 10, "11-raupe-colour": 11, "12-raupe-change-card": 12,
    "13-raupe-butterflies-and-aphids": 13, "14-raupe-spot-the-mistake": 14, "15-raupe-race": 15,
}  # fmt: skip


def lesson_kind(name: str) -> str:
    """Which controller plays lesson ``name``: ``caterpillars`` or ``raupe``.

    >>> [lesson_kind(name) for name in ("01-beginner", "15-raupe-race")]
    ['caterpillars', 'raupe']
    """
    return "raupe" if name in SETUPS else "caterpillars"


def lesson_title(name: str) -> str:
    """The lesson's title in the current language (the title its page shows)."""
    if name in SETUPS:
        return text(f"raupe_lessons.title.{name}")
    return text(LESSONS[name].title_key)


@dataclass(frozen=True)
class LessonSettings:
    """What the teacher chose for a lesson room (its ``room_created`` event): the lesson and the mode.

    >>> LessonSettings.build("01-beginner", "together").to_json()
    {'game': 'lesson', 'lesson': '01-beginner', 'mode': 'together', 'seed': 1}
    >>> LessonSettings.build("06-nothing")
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.codes.ClassroomError: lesson: got '06-nothing', expected one of 00-setup, \
01-beginner, 02-intermediate, 03-advanced, 04-expert, 10-raupe-shape, 11-raupe-colour, \
12-raupe-change-card, 13-raupe-butterflies-and-aphids, 14-raupe-spot-the-mistake, 15-raupe-race
    """

    lesson: str
    mode: str
    seed: int

    @classmethod
    def build(cls, lesson: object, mode: object = "own") -> LessonSettings:
        if not isinstance(lesson, str) or lesson not in LESSON_NAMES:
            raise ClassroomError(describe("lesson", lesson, "one of " + ", ".join(LESSON_NAMES)))
        if mode not in MODES:
            raise ClassroomError(describe("mode", mode, "one of " + ", ".join(MODES)))
        return cls(lesson, str(mode), NOTEBOOK_SEEDS[lesson])

    @property
    def kind(self) -> str:
        return lesson_kind(self.lesson)

    def to_json(self) -> dict[str, Any]:
        return {"game": "lesson", "lesson": self.lesson, "mode": self.mode, "seed": self.seed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LessonSettings:
        settings = cls.build(data["lesson"], data["mode"])
        return cls(settings.lesson, settings.mode, int(data["seed"]))


class RoomLesson(LessonSession):
    """A Caterpillars lesson in a room: the lesson's own session, which the teacher may hold at a step.

    ``hold`` is the step (0-based) nobody goes past; the lesson's own
    following of the game stops there, and *next* says who holds it.

    >>> lesson = RoomLesson("01-beginner")
    >>> lesson.hold = 0
    >>> lesson.handle({"type": "roll"}); lesson.step
    0
    >>> lesson.hold = None; lesson.let_go(); lesson.step
    2
    """

    def __init__(self, name: str, seed: int | None = None) -> None:
        self.hold: int | None = None
        super().__init__(name, seed)

    @property
    def held(self) -> bool:
        """Whether the teacher holds the class at (or before) this pupil's step."""
        return self.hold is not None and self.step >= self.hold

    def _is_last(self) -> bool:
        return super()._is_last() or self.held

    def can_go_on(self) -> bool:
        return super().can_go_on() and not self.held

    def _step(self, delta: object) -> None:
        if delta == 1 and not isinstance(delta, bool) and self.held:
            raise BadEventError(text("classroom.lesson.held"))
        super()._step(delta)

    def let_go(self) -> None:
        """The teacher let go (or moved the hold on): the lesson catches up with what the pupil did meanwhile."""
        if self.held:
            return
        if self.revealed and self.game.phase != "over":
            self._pass_words()  # the pupil rolled on a step of words: they are doing what comes next
        self._follow()


class RoomTable(RaupeTable):
    """A Räuber Raupe lesson in a room: the lesson's own table; a hold before play keeps the game from starting."""

    def __init__(self, name: str, seed: int) -> None:
        self.hold: int | None = None
        super().__init__(get_table(name), seed, name)

    @property
    def held(self) -> bool:
        return self.hold is not None and self.steps.index(self.step) >= self.hold

    def on_start(self, event: Mapping[str, Any]) -> None:
        if self.hold is not None and self.step == "start" and self.steps.index("start") >= self.hold:
            raise BadEventError(text("classroom.lesson.held"))
        super().on_start(event)

    def let_go(self) -> None:
        """Nothing to catch up: a table's step follows its game."""


Controller = RoomLesson | RoomTable


def new_controller(settings: LessonSettings) -> Controller:
    """A fresh controller of the room's lesson, as its notebook makes it."""
    if settings.kind == "raupe":
        return RoomTable(settings.lesson, settings.seed)
    return RoomLesson(settings.lesson, settings.seed)


@dataclass
class LessonPupil:
    """One pupil of a lesson room: their controller and what the teacher's grid reads of it."""

    id: int
    nickname: str
    session: Controller
    joined_at: float
    #: When the pupil last did something (for the minutes) and last made progress (for "stuck").
    last_at: float = 0.0
    progress_at: float = 0.0
    #: The furthest step reached (1-based) and the last finished game's final score.
    reached: int = 1
    final: int | None = None
    #: Wrong answers checked in a row.
    wrong_run: int = 0
    #: The last refusal of the pupil's event (the controller's one line).
    refusal: str = ""
    #: The language of the pupil's page (what the teacher's roll or start speaks on their screen); not kept.
    lang: str | None = None

    def __post_init__(self) -> None:
        self.last_at = self.progress_at = self.joined_at
        self.reached = self.place()[0]

    def place(self) -> tuple[int, int]:
        """The step (1-based) and the lesson's number of steps."""
        session = self.session
        if isinstance(session, RoomLesson):
            return session.step + 1, len(session.lesson.steps)
        return session.steps.index(session.step) + 1, len(session.steps)

    def answers(self) -> list[Any]:
        return list(self.session.quiz.answers)

    def moves(self) -> int:
        """What the pupil has done in the game (a Räuber Raupe table counts the pupil's own cards and calls)."""
        session = self.session
        if isinstance(session, RoomLesson):
            return session.progress.moves + session.progress.setup_rolls
        mine = (getattr(event, "player", getattr(event, "caller", None)) for event in session.game.events)
        return sum(1 for who in mine if who == session.human)


@lru_cache(maxsize=16)
def table_steps(lesson: str) -> tuple[str, ...]:
    """The steps of a Räuber Raupe lesson (they depend on its table only)."""
    return RaupeTable(get_table(lesson), NOTEBOOK_SEEDS[lesson], lesson).steps
