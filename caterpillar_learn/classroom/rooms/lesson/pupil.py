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

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, TypeVar

from caterpillar_learn.caterpillars import Move, Roll, State
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.errors import describe, one_line
from caterpillar_learn.i18n import available_languages, text
from caterpillar_learn.lessons import LESSONS, SETUPS, Lesson, files, get_lesson, get_table
from caterpillar_learn.lessons.caterpillars import lesson_title as caterpillars_title
from caterpillar_learn.ui.base import BadEventError
from caterpillar_learn.ui.caterpillars.advice import HERE, Helper, Warmup
from caterpillar_learn.ui.caterpillars.lesson import LessonSession
from caterpillar_learn.ui.events import Handler
from caterpillar_learn.ui.raupe.controller import RaupeTable

__all__ = [
    "LESSON_NAMES",
    "MODES",
    "NOTEBOOK_SEEDS",
    "LessonPupil",
    "LessonSettings",
    "RoomLesson",
    "RoomTable",
    "SharedHelper",
    "lesson_kind",
    "lesson_title",
    "new_controller",
    "table_steps",
]

log = logging.getLogger("caterpillar_learn.classroom")
#: What a pupil's hint panel says while a worker works the hint out.
HINT_THINKING = "classroom.msg.hint_thinking"
#: What the line under the sheet says while a worker works out what a move cost.
COST_THINKING = "classroom.msg.cost_thinking"
#: What the lesson says while a worker works out a led round's move.
MOVE_THINKING = "classroom.lesson.helper_thinking"
T = TypeVar("T")

#: Every lesson a room can play: the notebooks of ``lessons/`` (the Caterpillars lessons, then Räuber Raupe's),
#: but the strategy lab (see the module's text).
LESSON_NAMES: tuple[str, ...] = (*(name for name, lesson in LESSONS.items() if lesson.widgets != ("lab",)), *SETUPS)
#: ``own``: every pupil at their own pace; ``together``: the teacher's roll (or start) for the whole class.
MODES = ("own", "together")
#: The largest seed a teacher may give a lesson room (the console's form takes a number of up to nine digits).
MAX_SEED = 999_999_999
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


#: The largest lesson file a room keeps in its log (a lesson of 40 steps is about 4 KB).
MOST_SOURCE = 64_000


@lru_cache(maxsize=16)
def own_lesson(name: str, source: str) -> Lesson:
    """The teacher's lesson ``source`` (a lesson file's text) to play, checked by the engine; else
    :class:`ClassroomError` in one line naming the file and the step."""
    if len(source) > MOST_SOURCE:
        raise ClassroomError(describe("lesson file", f"{len(source)} characters", f"at most {MOST_SOURCE}"))
    try:
        found = files.parse(source, f"{name}.toml")
        files.raise_problems(found, f"{name}.toml")
    except files.LessonFileError as error:
        raise ClassroomError(one_line(str(error))) from None
    return files.lesson_of(found)


@dataclass(frozen=True)
class LessonSettings:
    """What the teacher chose for a lesson room (its ``room_created`` event): the lesson and the mode, and as a
    lesson's notebook has them (issue 42), the seed, the hints and the pages' first language.

    >>> LessonSettings.build("01-beginner", "together").to_json()
    {'game': 'lesson', 'lesson': '01-beginner', 'mode': 'together', 'seed': 1}
    >>> LessonSettings.build("10-raupe-shape", seed=7, hints=False, lang="de").to_json()
    {'game': 'lesson', 'lesson': '10-raupe-shape', 'mode': 'own', 'seed': 7, 'hints': False, 'lang': 'de'}
    >>> LessonSettings.build("06-nothing")
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.codes.ClassroomError: lesson: got '06-nothing', expected one of 00-setup, \
01-beginner, 02-intermediate, 03-advanced, 04-expert, 10-raupe-shape, 11-raupe-colour, \
12-raupe-change-card, 13-raupe-butterflies-and-aphids, 14-raupe-spot-the-mistake, 15-raupe-race
    >>> LessonSettings.build("01-beginner", seed=-1)
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.codes.ClassroomError: seed: got -1, expected a whole number from 0 to 999999999
    """

    lesson: str
    mode: str
    seed: int
    #: The helper's hints (``None``: as the lesson has them): off, a card lesson shows no strategy line and a
    #: Caterpillars lesson no Hint once its guided game is over (a step that teaches the hint keeps it).
    hints: bool | None = None
    #: The language every pupil's page starts in (``None``: the server's); each page may still switch.
    lang: str | None = None
    #: A teacher's own lesson: its file's text, kept in the room's log (the room plays what it was made with,
    #: whatever becomes of the file); ``None``: one of ours.
    source: str | None = None

    @classmethod
    def build(
        cls,
        lesson: object,
        mode: object = "own",
        seed: object = None,
        hints: object = None,
        lang: object = None,
        source: str | None = None,
    ) -> LessonSettings:
        if source is not None and isinstance(lesson, str):
            seed = own_lesson(lesson, source).seed if seed in (None, "") else seed
        elif not isinstance(lesson, str) or lesson not in LESSON_NAMES:
            raise ClassroomError(describe("lesson", lesson, "one of " + ", ".join(LESSON_NAMES)))
        if mode not in MODES:
            raise ClassroomError(describe("mode", mode, "one of " + ", ".join(MODES)))
        if seed in (None, ""):
            seed = NOTEBOOK_SEEDS[str(lesson)]
        if isinstance(seed, str) and seed.strip().isdigit():
            seed = int(seed.strip())  # typed into the console's form
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ClassroomError(describe("seed", seed, f"a whole number from 0 to {MAX_SEED}"))
        hints = None if hints == "" else hints  # the form's "as the lesson has it"
        if hints is not None and not isinstance(hints, bool):
            raise ClassroomError(describe("hints", hints, "on (true), off (false) or the lesson's own (none)"))
        if lang in ("", None):
            lang = None
        elif lang not in available_languages():
            raise ClassroomError(describe("language", lang, "one of " + ", ".join(available_languages())))
        return cls(str(lesson), str(mode), seed, hints, None if lang is None else str(lang), source)

    @property
    def kind(self) -> str:
        return "caterpillars" if self.source is not None else lesson_kind(self.lesson)

    def lesson_object(self) -> Lesson:
        """The Caterpillars lesson the room plays: one of ours, or the teacher's from its kept text."""
        return get_lesson(self.lesson) if self.source is None else own_lesson(self.lesson, self.source)

    def title(self) -> str:
        """The lesson's title in the current language (a teacher's lesson: its own)."""
        return lesson_title(self.lesson) if self.source is None else caterpillars_title(self.lesson_object())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "lesson", "lesson": self.lesson, "mode": self.mode, "seed": self.seed}
        if self.hints is not None:
            data["hints"] = self.hints
        if self.lang is not None:
            data["lang"] = self.lang
        if self.source is not None:
            data["source"] = self.source
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LessonSettings:
        source = data.get("source")
        settings = cls.build(
            data["lesson"],
            data["mode"],
            0,
            data.get("hints"),
            data.get("lang"),
            source if isinstance(source, str) else None,
        )
        return replace(settings, seed=int(data["seed"]))


class SharedHelper(Helper):
    """The helper of one lesson room: the server's (``inner``: its worker processes), with the best moves shared.

    The same sheet and the same dice give the same best move, and a class on
    one lesson meets the same sheets again and again (the guided game's led
    rounds are the same for everyone who played its first round alike): each
    is worked out once for the room, and every pupil who asks meanwhile gets
    the same future.  A move that could not be found is asked for again.

    >>> from caterpillar_learn.caterpillars import Game
    >>> game = Game("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=3)
    >>> helper = SharedHelper()
    >>> first = helper.move(game.state, game.roll(), None)
    >>> helper.move(game.state, game.roll(), None) is first, first.result() in game.legal_moves()
    (True, True)
    """

    thinking = HINT_THINKING
    cost_thinking = COST_THINKING
    move_thinking = MOVE_THINKING

    def __init__(self, inner: Helper = HERE) -> None:
        self.inner = inner
        self._moves: dict[tuple[State, Roll], Future[Move]] = {}
        self._lock = threading.Lock()

    def work(self, job: Callable[..., T], state: State, *args: Any, urgent: bool = True) -> Future[T]:
        return self.inner.work(job, state, *args, urgent=urgent)

    def hint(self, state: State, roll: Roll, warmup: Warmup | None) -> Future[dict[str, Any]]:
        return self.inner.hint(state, roll, warmup)

    def prepare(self, level: Level | str, labels: Sequence[int | None]) -> Warmup | None:
        return self.inner.prepare(level, labels)

    def move(self, state: State, roll: Roll, warmup: Warmup | None) -> Future[Move]:
        key = (state, roll)
        with self._lock:
            known = self._moves.get(key)
        if known is not None and not (known.done() and (known.cancelled() or known.exception() is not None)):
            return known
        found = self.inner.move(state, roll, warmup)  # outside the lock: here, it is worked out at once
        with self._lock:
            self._moves[key] = found
        return found


class RoomLesson(LessonSession):
    """A Caterpillars lesson in a room: the lesson's own session, given the room's helper, which the teacher
    may hold at a step (``hold``, :meth:`~caterpillar_learn.ui.caterpillars.LessonSession.let_go`).

    With the server's workers, a led round's move, a hint and a review are
    worked out in a worker: meanwhile the sheet shows no star and the lesson
    says the helper is thinking (``awaits_helper``; the room refuses a move
    then), and ``told()`` (the room's call to this pupil's page) redraws the
    page once the answer is there.  Without workers (a test, a restart's
    replay) they are worked out at once, as in Voila.

    >>> lesson = RoomLesson("01-beginner")
    >>> lesson.hold = 1
    >>> lesson.handle({"type": "roll"}); lesson.step, lesson.waits_for_teacher
    (1, True)
    >>> lesson.hold = None; lesson.let_go(); lesson.step
    2
    """

    def __init__(self, name: str | Lesson, seed: int | None = None, helper: Helper | None = None) -> None:
        super().__init__(name, seed, helper=SharedHelper() if helper is None else helper)
        #: The teacher rolls for the class (mode ``together``), and how many rolls the teacher has made so far.
        self.teacher_rolls = False
        self.released = 0

    def handlers(self) -> dict[str, Handler]:
        """A lesson's events but ``book``: the room keeps each pupil's practice book itself, made again from the
        log after a restart, and no page hands one back."""
        return {kind: method for kind, method in super().handlers().items() if kind != "book"}

    def rolls_for_learner(self) -> bool:
        """Whether the next dice are the teacher's to roll: the class's roll has not come yet (issue 42: the page
        says "your teacher rolls" and marks no Roll of the pupil's)."""
        fresh = not self.revealed and self.game.phase != "over"
        return self.teacher_rolls and fresh and self.progress.rolls >= self.released

    def views(self) -> dict[str, Any]:
        views = super().views()
        views["book"] = {}  # the room keeps the book: the page stores none
        return views


class RoomTable(RaupeTable):
    """A Räuber Raupe lesson in a room: the lesson's own table; a hold before play keeps the game from starting."""

    def __init__(self, name: str, seed: int, hints: bool | None = None) -> None:
        self.hold: int | None = None
        setup = get_table(name)
        super().__init__(setup if hints is None else replace(setup, hints=hints), seed, name)

    @property
    def held(self) -> bool:
        return self.hold is not None and self.steps.index(self.step) >= self.hold

    def on_start(self, event: Mapping[str, Any]) -> None:
        if self.hold is not None and self.step == "start" and self.steps.index("start") >= self.hold:
            raise BadEventError(text("classroom.lesson.held"))
        super().on_start(event)

    def let_go(self) -> None:
        """Nothing to catch up: a table's step follows its game."""

    def views(self) -> dict[str, Any]:
        """The lesson's views; the page sends no ticks, as the room's clock moves the table
        (:meth:`~caterpillar_learn.classroom.rooms.lesson.room.LessonRoom.tick`), and is sent no record of the game."""
        views = super().views()
        table = {**views["table"], "ticks": False}
        # The room's log is the game's record: the page need not be sent the engine's save (it grows with every
        # card, and went out with every bots' move to every pupil: issue 46).
        table.pop("record", None)
        views["table"] = table
        return views


Controller = RoomLesson | RoomTable


def new_controller(settings: LessonSettings, helper: Helper | None = None) -> Controller:
    """A fresh controller of the room's lesson, as its notebook makes it (``helper``: the room's, shared), with
    the room's seed and hints."""
    if settings.kind == "raupe":
        return RoomTable(settings.lesson, settings.seed, hints=settings.hints)
    lesson = RoomLesson(settings.lesson_object(), settings.seed, helper)
    if settings.hints is not None:
        lesson.free_hints = settings.hints
    return lesson


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
