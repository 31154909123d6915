"""What the Caterpillars widgets ask the hint generator (:mod:`caterpillar_learn.advice`), as views.

A failure inside the advice package is caught once, at the widget boundary
(:meth:`caterpillar_learn.ui.base.LearnWidget.handle`), logged, and shown to
the learner as one line while the game goes on.  The package is imported
where it is first used, not when this module is: its NumPy import would
otherwise sit between a page's request and its first drawing, and the
background solve (which a lesson starts at once) imports it off that path.

A first hint needs the exact solve of the layout (about 4 s at Intermediate,
which the Advanced and Expert estimates build on too), so :func:`prepare`
starts it in a daemon thread as soon as the labels are known; the thread
only fills the solver's cache, keyed by level and labels, and never touches
a session or a widget.  Every call into the advice package from here holds
:data:`ADVICE_LOCK`, so two threads never run the solver (or touch its
cache) at once: a hint asked for meanwhile waits, and then reads the table
the thread left.  Never wait for a :class:`Warmup` while holding the lock.

Every session asks its :class:`Helper` for these answers and gets
futures.  :data:`HERE` works them out in this process, at once.  A server
that answers many learners from one event loop (the classroom) passes its
sessions a :class:`PooledHelper` on its worker processes (a
:class:`~caterpillar_learn.advice.workers.Solves`) instead: :func:`prepare`
then shares the workers' one solve per layout, and a view of this module
(:func:`hint_view`, :func:`loss_lines`, :func:`outcome`, :func:`review_of`)
runs in a worker.  A lesson's kernel keeps its thread: it answers one
learner, a hint there is meant to wait, and the kernels of a class already
share their solves through the cache folder; a pool per kernel would only
add processes.

>>> from caterpillar_learn.caterpillars import Roll, State
>>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
>>> view = hint_view(state, Roll((3, 5)))
>>> view["status"], len(view["options"])
('ready', 3)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from caterpillar_learn.caterpillars import Game, Move, Roll, State, apply
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.svg import sheet_svg
from caterpillar_learn.i18n import plural, text

if TYPE_CHECKING:
    from caterpillar_learn.advice.workers import Solves

__all__ = [
    "ADVICE_LOCK",
    "HERE",
    "Helper",
    "PooledHelper",
    "Warmup",
    "background_solves",
    "both",
    "helper_move",
    "hint_view",
    "join_background_solves",
    "loss_lines",
    "outcome",
    "prepare",
    "review_of",
    "review_view",
    "thinking_view",
]

log = logging.getLogger("caterpillar_learn.ui")

#: Held by every call into the advice package made from the widgets, and by the
#: background solves: the solver and its cache see one thread at a time.
ADVICE_LOCK = threading.RLock()
#: How long a hint waits for its layout's background solve before solving by itself.
WAIT_SECONDS = 120.0


def _advice() -> ModuleType:
    import caterpillar_learn.advice as advice  # see the module's docstring: deliberately here

    return advice


_running: set[threading.Thread] = set()
_running_lock = threading.Lock()
T = TypeVar("T")


class Helper:
    """Where a session's helper works its answers out: here, at once (a lesson's kernel, a test).

    A session asks it for every answer that needs the solve (a hint, what a
    move cost, "try another move") and gets a future: here it is done when
    :meth:`work` returns, so the answer shows at once.  A server passes a
    :class:`PooledHelper` instead, whose futures end in a worker process.
    ``thinking`` and ``cost_thinking`` are the words the page shows while an
    answer is on its way (catalogue keys).

    >>> from caterpillar_learn.caterpillars import Roll, State
    >>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
    >>> HERE.work(hint_view, state, Roll((3, 5))).result()["status"]
    'ready'
    """

    thinking = "lessons.ui.thinking"
    cost_thinking = "lessons.ui.thinking"
    #: What a lesson says while its led round's move is on its way (never here: it is worked out at once).
    move_thinking = "lessons.ui.thinking"

    def work(self, job: Callable[..., T], state: State, *args: Any, urgent: bool = True) -> Future[T]:
        """``job(state, *args)``, done: its result or its error (under :data:`ADVICE_LOCK`, as every solve here)."""
        done: Future[T] = Future()
        try:
            with ADVICE_LOCK:
                done.set_result(job(state, *args))
        except Exception as error:  # shown where the answer is taken (one line), the game goes on
            done.set_exception(error)
        return done

    def move(self, state: State, roll: Roll, warmup: Warmup | None) -> Future[Move]:
        """The helper's best move for ``roll`` on ``state`` (what a lesson's led round offers)."""
        if warmup is not None and warmup.is_for(state):
            warmup.wait()
        return self.work(helper_move, state, roll)

    def hint(self, state: State, roll: Roll, warmup: Warmup | None) -> Future[dict[str, Any]]:
        """The hint for ``roll`` on ``state``, after the layout's background solve (``warmup``) if it is running."""
        if warmup is not None and warmup.is_for(state):
            warmup.wait()  # the widget already shows "Thinking…"
        return self.work(hint_view, state, roll)

    def prepare(self, level: Level | str, labels: Sequence[int | None]) -> Warmup | None:
        """Start the solve of the layout (:func:`prepare`)."""
        return prepare(level, labels)


class PooledHelper(Helper):
    """The helper of a server: every answer is worked out in ``pool``'s worker processes.

    The futures end on the pool's thread; whoever shows the answer is told then.
    """

    def __init__(self, pool: Solves) -> None:
        self.pool = pool

    def work(self, job: Callable[..., T], state: State, *args: Any, urgent: bool = True) -> Future[T]:
        labels = [int(v) for v in state.labels if v is not None]
        return self.pool.run(state.level, labels, job, state, *args, urgent=urgent)

    def hint(self, state: State, roll: Roll, warmup: Warmup | None) -> Future[dict[str, Any]]:
        return self.work(hint_view, state, roll)  # the pool waits for its own solve of the layout

    def move(self, state: State, roll: Roll, warmup: Warmup | None) -> Future[Move]:
        return self.work(helper_move, state, roll)

    def prepare(self, level: Level | str, labels: Sequence[int | None]) -> Warmup | None:
        return prepare(level, labels, pool=self.pool)


#: The helper that works here, at once.
HERE = Helper()


def both(first: Future[Any], second: Future[Any]) -> Future[list[Any]]:
    """A future of both results (the first error, if either fails).

    >>> first, second = Future(), Future()
    >>> joined = both(first, second)
    >>> first.set_result(1); joined.done()
    False
    >>> second.set_result(2); joined.result()
    [1, 2]
    """
    joined: Future[list[Any]] = Future()

    def done(_: Future[Any]) -> None:
        if first.done() and second.done() and not joined.done():
            failed = [f for f in (first, second) if f.cancelled() or f.exception() is not None]
            try:
                if failed:
                    joined.set_exception(failed[0].exception() or RuntimeError("cancelled"))
                else:
                    joined.set_result([first.result(), second.result()])
            except Exception:  # the other callback got there first
                pass

    first.add_done_callback(done)
    second.add_done_callback(done)
    return joined


def thinking_view(key: str = "lessons.ui.thinking") -> dict[str, Any]:
    """The hint panel while the helper works: the shape the widget shows at once, with the words at ``key``.

    >>> thinking_view()["status"]
    'thinking'
    """
    return {"status": "thinking", "title": text(key)}


@dataclass(frozen=True, eq=False)
class Warmup:
    """The exact solve of one game's layout, running (or done) in a background thread.

    ``future`` ends with ``True`` once the solver's cache holds the layout, and
    with ``False`` when the solve failed (the hint then solves by itself).
    """

    level: Level
    labels: tuple[int, ...]
    future: Future[bool] = field(default_factory=Future, repr=False)

    def is_for(self, state: State) -> bool:
        """Whether this solve is the one ``state``'s hints read (same level, same labels).

        >>> warmup = Warmup(Level.EXPERT, (1,) * 12)
        >>> warmup.is_for(State.new("expert", (1,) * 12)), warmup.is_for(State.new("expert", (2,) * 12))
        (True, False)
        """
        return state.level is self.level and tuple(state.labels) == self.labels

    def wait(self, timeout: float | None = WAIT_SECONDS) -> bool:
        """Block until the solve has ended; ``True`` if its table is ready (``False`` on timeout too)."""
        try:
            return self.future.result(timeout)
        except Exception:  # cancelled or timed out: the hint solves by itself, under the lock
            return False

    def cancel(self) -> bool:
        """Drop the solve if it has not started yet (a new game came first)."""
        return self.future.cancel()


def prepare(level: Level | str, labels: Sequence[int | None], pool: Solves | None = None) -> Warmup | None:
    """Start the exact solve that ``level``'s hints on ``labels`` will read, in a daemon thread.

    With ``pool`` (a server's worker processes), the workers' one solve of the layout instead.
    ``None`` while a label is still blank (the setup is not finished).

    >>> prepare("expert", (1, None) * 6) is None
    True
    """
    if any(label is None for label in labels):
        return None
    warmup = Warmup(Level.parse(level), tuple(int(v) for v in labels if v is not None))
    if pool is not None:  # the workers' one solve of the layout, shared with every other asker
        pool.solve(warmup.level, warmup.labels).add_done_callback(partial(_solved_in_worker, warmup))
        return warmup
    thread = threading.Thread(target=_solve_in_background, args=(warmup,), daemon=True)
    thread.name = f"caterpillars-solve-{thread.name}"
    with _running_lock:
        _running.add(thread)
    thread.start()
    return warmup


def _solved_in_worker(warmup: Warmup, solving: Future[Any]) -> None:
    if warmup.future.set_running_or_notify_cancel():  # else a new game dropped it
        warmup.future.set_result(not solving.cancelled() and solving.exception() is None)


def _solve_in_background(warmup: Warmup) -> None:
    try:
        if warmup.future.cancelled():  # do not queue on the lock for nothing
            return
        advice = _advice()  # outside the lock: the import takes a moment
        with ADVICE_LOCK:
            if not warmup.future.set_running_or_notify_cancel():
                return
            try:
                advice.solve_layout(advice.solved_level(warmup.level), warmup.labels)
            except Exception:  # the hint will solve by itself; a thread must not die silently
                log.exception("background solve of %s %s failed", warmup.level.value, warmup.labels)
                warmup.future.set_result(False)
            else:
                warmup.future.set_result(True)
    finally:
        with _running_lock:
            _running.discard(threading.current_thread())


def background_solves() -> list[threading.Thread]:
    """The background solve threads still alive (tests check that none is left behind)."""
    with _running_lock:
        return [thread for thread in _running if thread.is_alive()]


def join_background_solves(timeout: float = WAIT_SECONDS) -> list[threading.Thread]:
    """Wait for every background solve to end; returns those still alive after ``timeout``."""
    for thread in background_solves():
        thread.join(timeout)
    return background_solves()


def helper_move(state: State, roll: Roll) -> Move:
    """The helper's best move (what a hint shows first, and what a lesson's led round offers)."""
    with ADVICE_LOCK:
        move: Move = _advice().hint(state, roll).move
    return move


def hint_view(state: State, roll: Roll) -> dict[str, Any]:
    """The hint panel's JSON: the best move, each option's value, the reasons, and the child's words."""
    from caterpillar_learn.advice.child import child_hint  # with the package, imported by _advice() below

    with ADVICE_LOCK:
        found = _advice().hint(state, roll)
    options = []
    for option in found.options:
        value = float(option.expected_final)
        options.append(
            {
                "text": option.move.describe(),
                "how": list(option.move.how),
                "value": round(value, 2),
                "value_text": text("lessons.hint.value", value=value),
                "best": option.move == found.move,
            }
        )
    key = "lessons.hint.best_exact" if found.exact else "lessons.hint.best_estimate"
    return {
        "status": "ready",
        "title": text(key, move=found.move.describe(), value=float(found.expected_final)),
        "lines": [str(line) for line in found.explanation],
        "options": options,
        "child": child_hint(state, found.move),
        "best": {"caterpillar": found.move.caterpillar, "box": found.move.box, "text": found.move.describe()},
    }


def loss_lines(state: State, roll: Roll, move: Move) -> list[str]:
    """What the learner's move cost compared with the best one."""
    with ADVICE_LOCK:
        choice = _advice().explain_choice(state, roll, move)
    loss = float(choice.loss)
    if loss <= 1e-9:
        return [text("lessons.hint.no_loss", value=float(choice.chosen_value))]
    return [
        text("lessons.hint.loss", chosen=float(choice.chosen_value), best=float(choice.best_value), loss=loss),
        *[str(reason) for reason in choice.reasons][1:3],  # [0] restates the line above
    ]


def review_view(game: Game) -> dict[str, list[str]]:
    """The helper's review of a finished game: ``summary`` lines and one line per round."""
    from caterpillar_learn.practice import review_ideas  # with the advice package, as _advice() below

    with ADVICE_LOCK:
        found = _advice().review(game)
    summary = [str(line) for line in found.summary]
    ideas = review_ideas(game.level, found)
    if ideas:  # the ideas behind the costliest moves (issue 33), for the grown-up who reads the review
        named = []
        for idea, rounds in ideas.items():
            words = text(f"practice.idea.{idea}")
            named.append(plural("practice.idea_rounds", len(rounds), idea=words, rounds=", ".join(map(str, rounds))))
        summary.append(text("practice.review_ideas", ideas="; ".join(named)))
    return {"summary": summary, "rounds": [entry.line for entry in found.entries]}


def review_of(state: State, saved: dict[str, Any]) -> dict[str, list[str]]:
    """:func:`review_view` of the game ``saved`` (its ``to_json``) as a worker's job.

    :meth:`Helper.work` hands a job the state whose layout it reads first; the
    game travels as its save, a copy its page cannot change meanwhile.

    >>> game = Game("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=3)
    >>> while game.phase != "over":
    ...     game.play(game.legal_moves()[0])
    >>> review_of(game.state, game.to_json()) == review_view(game)
    True
    """
    return review_view(Game.from_json(saved))


def outcome(before: State, move: Move) -> dict[str, Any]:
    """What ``move`` leads to from ``before``: the sheet after it and its expected final score.

    Exact at Beginner and Intermediate (best play from there on), the helper's
    estimate above.
    """
    after = apply(before, move)
    with ADVICE_LOCK:
        value, exact = _advice().state_value(after)
    key = "lessons.whatif.value_exact" if exact else "lessons.whatif.value_estimate"
    return {
        "value": round(float(value), 2),
        "value_text": text(key, value=float(value)),
        "exact": bool(exact),
        "svg": sheet_svg(after, size=0.5),
    }
