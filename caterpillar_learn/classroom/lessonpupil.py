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
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, ClassVar

from caterpillar_learn.caterpillars import Move, Roll, State
from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import LESSONS, SETUPS, get_table
from caterpillar_learn.lessons.scenarios import is_led
from caterpillar_learn.practice import Book, Mistake, game_key
from caterpillar_learn.ui.base import BadEventError
from caterpillar_learn.ui.caterpillars.advice import (
    WAIT_SECONDS,
    helper_move,
    hint_view,
    later,
    review_of,
    thinking_view,
    workers,
)
from caterpillar_learn.ui.caterpillars.controller import LESSON_HANDLERS, PRACTICE_EVENTS, LessonSession
from caterpillar_learn.ui.caterpillars.practice import worked_out
from caterpillar_learn.ui.raupe.controller import RaupeTable

__all__ = [
    "LESSON_NAMES",
    "MODES",
    "NOTEBOOK_SEEDS",
    "HelperMoves",
    "LessonPupil",
    "LessonSettings",
    "RoomLesson",
    "RoomTable",
    "lesson_kind",
    "lesson_title",
    "new_controller",
    "table_steps",
]

log = logging.getLogger("caterpillar_learn.classroom")
#: What a pupil's hint panel says while a worker works the hint out.
HINT_THINKING = "classroom.msg.hint_thinking"

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


class HelperMoves:
    """The helper's best moves that the pupils of one lesson room have needed, shared by all of them.

    The same sheet and the same dice give the same best move, and a class on
    one lesson meets the same sheets again and again (the guided game's led
    rounds are the same for everyone who played its first round alike): each
    is worked out once for the room.  With the server's workers
    (:func:`~caterpillar_learn.ui.caterpillars.advice.use_workers`),
    :meth:`ask` has a worker find it, never the server's event loop, and
    calls back each pupil who asked meanwhile once it is known.

    >>> from caterpillar_learn.caterpillars import Game
    >>> game = Game("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=3)
    >>> helpers = HelperMoves()
    >>> helpers.known(game.state, game.roll()) is None
    True
    >>> move = helpers.find(game.state, game.roll())
    >>> helpers.known(game.state, game.roll()) is move
    True
    """

    def __init__(self) -> None:
        self._moves: dict[tuple[State, Roll], Move] = {}
        self._asked: dict[tuple[State, Roll], list[Callable[[], None]]] = {}
        self._failed: set[tuple[State, Roll]] = set()
        self._lock = threading.Lock()

    def known(self, state: State, roll: Roll) -> Move | None:
        with self._lock:
            return self._moves.get((state, roll))

    def failed(self, state: State, roll: Roll) -> bool:
        """Whether a worker could not find it (the lesson then works it out itself)."""
        with self._lock:
            return (state, roll) in self._failed

    def find(self, state: State, roll: Roll, here: Callable[[], Move] | None = None) -> Move:
        """The move, known or worked out now: by a worker if the server has them (waited for), else by
        ``here()`` (by default the helper in this process)."""
        move = self.known(state, roll)
        if move is not None:
            return move
        if workers() is not None:
            try:
                move = later(helper_move, state, roll).result(WAIT_SECONDS)
            except Exception:  # the lesson goes on: worked out here instead
                log.exception("the helper's move failed in a worker")
        if move is None:
            move = here() if here is not None else helper_move(state, roll)
        with self._lock:
            self._moves[(state, roll)] = move
        return move

    def ask(self, state: State, roll: Roll, then: Callable[[], None]) -> None:
        """Have a worker find it (once for everybody who asks meanwhile); ``then()`` once it is known (or failed)."""
        key = (state, roll)
        with self._lock:
            if key in self._moves or key in self._failed:
                return
            waiting = self._asked.get(key)
            if waiting is not None:
                waiting.append(then)
                return
            self._asked[key] = [then]
        later(helper_move, state, roll).add_done_callback(partial(self._arrived, key))

    def _arrived(self, key: tuple[State, Roll], future: Future[Move]) -> None:
        """On the pool's thread: keep the move, then tell the pupils who wait for it (their pages redraw)."""
        with self._lock:
            waiting = self._asked.pop(key, [])
            if not future.cancelled() and future.exception() is None:
                self._moves[key] = future.result()
            else:
                log.error(
                    "the helper's move failed in a worker: %r", None if future.cancelled() else future.exception()
                )
                self._failed.add(key)
        for then in waiting:
            then()


class RoomLesson(LessonSession):
    """A Caterpillars lesson in a room: the lesson's own session, which the teacher may hold at a step.

    ``hold`` is the step (0-based) nobody goes past; the lesson's own
    following of the game stops there, and *next* says who holds it.

    The helper's moves come from the room's :class:`HelperMoves` (``helpers``).
    With the server's workers, a led round's move and a hint are worked out
    in a worker: meanwhile the sheet shows no star and the lesson says the
    helper is thinking (:meth:`awaits_helper`; the room refuses a move then),
    and ``told()`` (the room's call to this pupil's page) redraws the page
    once the answer is there.  Without workers (a test, a restart's replay)
    they are worked out at once, as in Voila.

    >>> lesson = RoomLesson("01-beginner")
    >>> lesson.hold = 0
    >>> lesson.handle({"type": "roll"}); lesson.step
    0
    >>> lesson.hold = None; lesson.let_go(); lesson.step
    2
    """

    #: The room keeps each pupil's practice book itself, made again from the log after a restart: no page
    #: hands one back (``book`` is not an event of the room).
    handlers: ClassVar[Mapping[str, str]] = {k: v for k, v in LESSON_HANDLERS.items() if k != "book"}

    def __init__(self, name: str, seed: int | None = None, helpers: HelperMoves | None = None) -> None:
        self.hold: int | None = None
        #: The practice of a finished game on its way from a worker: (the game's key, its future).
        self._practice_coming: tuple[str, Future[tuple[dict[str, Any], dict[int, Mistake]]]] | None = None
        self.helpers = HelperMoves() if helpers is None else helpers
        #: Redraws this pupil's page (the room sets it); called from the workers' thread.
        self.told: Callable[[], None] = lambda: None
        self._hint_coming: tuple[int, Future[dict[str, Any]]] | None = None
        #: The review of a finished game on its way from a worker: (which game of this lesson, its future).
        self._review_coming: tuple[int, Future[dict[str, list[str]]]] | None = None
        super().__init__(name, seed)

    # -- the helper, in the workers when the server has them --------------------------------
    def _helper(self) -> Move:
        return self.helpers.find(self.game.state, self.game.roll(), super()._helper)

    def _led_round(self) -> bool:
        scenario = self.lesson.scenario
        return scenario is not None and self.games_made == 1 and self.revealed and is_led(scenario, self.game)

    def led_move(self) -> Move | None:
        if workers() is None or not self._led_round():
            return super().led_move()
        turn = len(self.game.history)
        if self._led is not None and self._led[0] == turn:
            return self._led[1]
        state, roll = self.game.state, self.game.roll()
        move = self.helpers.known(state, roll)
        if move is None and not self.helpers.failed(state, roll):
            self.helpers.ask(state, roll, self.told)
            return None  # awaits_helper() says so: no star, no move, until the page is told
        if move is None:
            move = helper_move(state, roll)
        self._led = (turn, move)
        return move

    # -- the practice of a finished game, in the workers when the server has them --------------------------
    def _practise_game(self) -> None:
        panel = self.practice_panel
        assert panel is not None
        if workers() is None:
            super()._practise_game()
            return
        key = game_key(self.game)
        if key in panel.book.booked or (self._practice_coming is not None and self._practice_coming[0] == key):
            return
        job = (self.game.to_json(), panel.book.to_json(), panel.today().isoformat())
        future = later(worked_out, self.game.state, *job, urgent=False)
        self._practice_coming = (key, future)
        future.add_done_callback(lambda _: self.told())

    def _practice_arrived(self, wait: bool = False) -> None:
        """Take the practice a worker worked out (``wait``: for it first, as a replay or a move does)."""
        coming, panel = self._practice_coming, self.practice_panel
        if coming is None or panel is None:
            return
        key, future = coming
        if wait and not future.done():
            try:
                future.result(WAIT_SECONDS)
            except Exception:  # shown below
                log.debug("the practice a move waited for failed", exc_info=True)
        if not future.done():
            return
        self._practice_coming = None
        try:
            book, worked = future.result()
            if key not in panel.book.booked:
                panel.take(Book.from_json(book, panel.level), worked)
        except Exception:  # one line for the pupil, the trace for the log; the lesson goes on without it
            log.exception("a lesson's practice failed in a worker")
            self.message = text("ui.internal")

    def practice_coming(self) -> bool:
        """Whether a worker is still working out the practice of the finished game (no practice move meanwhile)."""
        self._practice_arrived()
        return self._practice_coming is not None

    def handle(self, event: Mapping[str, Any]) -> None:
        self._practice_arrived(wait=self._practice_coming is not None and event.get("type") in PRACTICE_EVENTS)
        super().handle(event)

    def awaits_helper(self) -> bool:
        """Whether a worker is still working out this round's led move or the hint asked for (no move meanwhile)."""
        if self.practice_coming():
            return True
        coming = self._hint_coming
        if coming is not None and coming[0] == len(self.game.history) and not coming[1].done():
            return True
        if workers() is None or not self._led_round():
            return False
        if self._led is not None and self._led[0] == len(self.game.history):
            return False
        state, roll = self.game.state, self.game.roll()
        return self.helpers.known(state, roll) is None and not self.helpers.failed(state, roll)

    def legal_moves(self) -> list[Move]:
        moves = super().legal_moves()  # asks for the led move if it is not known yet
        return [] if self.awaits_helper() else moves

    def click_box(self, slot: int) -> None:
        self._settle()
        super().click_box(slot)

    def _play(self, move: Move) -> None:
        self._settle()
        super()._play(move)

    def _settle(self) -> None:
        """Wait for what a worker is working out for this round (the led move, the hint) before a move.

        The room refuses a pupil's move meanwhile (:meth:`awaits_helper`), so
        this waits only where nobody is waiting for a page: a replay of the
        log, or the controller driven directly.  A replayed move is then
        played on the same led move and after the same hint as it was live.
        """
        if self._led_round() and workers() is not None:
            turn = len(self.game.history)
            if self._led is None or self._led[0] != turn:
                self._led = (turn, self._helper())
        coming = self._hint_coming
        if coming is not None and coming[0] == len(self.game.history) and not coming[1].done():
            try:
                coming[1].result(WAIT_SECONDS)
            except Exception:  # shown by _hint_arrived
                log.debug("the hint a move waited for failed", exc_info=True)
        self._hint_arrived()

    def ask_hint(self) -> None:
        if workers() is None:
            super().ask_hint()
            return
        self.admit_hint()
        self.hint = thinking_view(HINT_THINKING)
        turn = len(self.game.history)
        if self._hint_coming is not None and self._hint_coming[0] == turn:
            return  # asked again while it is on its way
        future = later(hint_view, self.game.state, self.game.roll())
        self._hint_coming = (turn, future)
        future.add_done_callback(lambda _: self.told())

    def _hint_arrived(self) -> None:
        """Show the hint a worker found, if it is still this round's (else it is dropped)."""
        coming = self._hint_coming
        if coming is None:
            return
        turn, future = coming
        if turn != len(self.game.history):
            self._hint_coming = None
            future.cancel()
        elif future.done():
            self._hint_coming = None
            try:
                self.hint = future.result()
            except Exception:  # one line for the pupil, the trace for the log; the lesson goes on
                log.exception("a lesson's hint failed in a worker")
                self.hint = {}
                self.message = text("ui.internal")

    def on_review(self, event: Mapping[str, Any]) -> None:
        """The helper's review of the finished game: it reads the layout's solve, so a worker works it out."""
        if workers() is None or self.advice_review is not None or self.game.phase != "over":
            super().on_review(event)
            return
        coming = self._review_coming
        if coming is not None and coming[0] == self.games_made:
            return  # asked again while it is on its way
        future = later(review_of, self.game.state, self.game.to_json())
        self._review_coming = (self.games_made, future)
        future.add_done_callback(lambda _: self.told())

    def _review_arrived(self) -> None:
        """Show the review a worker worked out, if it is still this game's (else it is dropped)."""
        coming = self._review_coming
        if coming is None or (coming[0] == self.games_made and not coming[1].done()):
            return
        self._review_coming = None
        if coming[0] != self.games_made:
            coming[1].cancel()
            return
        try:
            self.advice_review = coming[1].result()
        except Exception:  # one line for the pupil, the trace for the log; the lesson goes on
            log.exception("a lesson's review failed in a worker")
            self.message = text("ui.internal")

    def views(self) -> dict[str, Any]:
        self._hint_arrived()
        self._review_arrived()
        self._practice_arrived()
        views = super().views()
        views["book"] = {}  # the room keeps the book: the page stores none
        if self._practice_coming is not None:
            views["practice"] = {
                "status": "thinking",
                "title": text("practice.title"),
                "said": text("lessons.ui.thinking"),
            }
        if self.awaits_helper():
            views["lesson"] = {**views["lesson"], "guide": text("classroom.lesson.helper_thinking")}
        if self._review_coming is not None and views.get("review"):
            views["review"] = {**views["review"], "thinking": text("lessons.ui.review_thinking")}
        return views

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

    def views(self) -> dict[str, Any]:
        """The lesson's views; the page sends no ticks, as the room's clock moves the table
        (:meth:`~caterpillar_learn.classroom.lessonroom.LessonRoom.tick`)."""
        views = super().views()
        views["table"] = {**views["table"], "ticks": False}
        return views


Controller = RoomLesson | RoomTable


def new_controller(settings: LessonSettings, helpers: HelperMoves | None = None) -> Controller:
    """A fresh controller of the room's lesson, as its notebook makes it (``helpers``: the room's, shared)."""
    if settings.kind == "raupe":
        return RoomTable(settings.lesson, settings.seed)
    return RoomLesson(settings.lesson, settings.seed, helpers)


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
