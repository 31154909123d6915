"""The widgets' only door to the hint generator (``caterpillar_learn.advice``).

The advice package is imported lazily, inside each function: a widget must
draw and play without it, and the exact solver may take seconds the first
time it meets a layout, which must never delay a page's first render.  When
the package cannot be imported, the hint panel lists the legal moves with
their ways instead, and the review shows the rounds only.

A first hint needs the exact solve of the layout (about 4 s at Intermediate,
which the Advanced and Expert estimates build on too), so :func:`prepare`
starts it in a daemon thread as soon as the labels are known; the thread
only fills the solver's cache, keyed by level and labels, and never touches
a session or a widget.  Every call into the advice package from here holds
:data:`ADVICE_LOCK`, so two threads never run the solver (or touch its
cache) at once: a hint asked for meanwhile waits, and then reads the table
the thread left.  Never wait for a :class:`Warmup` while holding the lock.

>>> from caterpillar_learn.caterpillars import Roll, State, legal_moves
>>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
>>> view = hint_view(state, Roll((3, 5)), list(legal_moves(state, Roll((3, 5)))))
>>> view["status"] in ("ready", "unavailable"), len(view["options"])
(True, 3)
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any

from caterpillar_learn.caterpillars import Game, Move, Roll, State
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.i18n import text

#: Held by every call into the advice package made from the widgets, and by the
#: background solves: the solver and its cache see one thread at a time.
ADVICE_LOCK = threading.RLock()
#: How long a hint waits for its layout's background solve before solving by itself.
WAIT_SECONDS = 120.0
#: The exact level whose solve a level's hints read (Advanced and Expert estimate on Intermediate's).
SOLVED_LEVEL = {
    Level.BEGINNER: Level.BEGINNER,
    Level.INTERMEDIATE: Level.INTERMEDIATE,
    Level.ADVANCED: Level.INTERMEDIATE,
    Level.EXPERT: Level.INTERMEDIATE,
}

_running: set[threading.Thread] = set()
_running_lock = threading.Lock()


def advice_module() -> ModuleType | None:
    """``caterpillar_learn.advice`` if it can be imported, else ``None``."""
    try:
        return import_module("caterpillar_learn.advice")
    except ImportError:
        return None


@dataclass(frozen=True, eq=False)
class Warmup:
    """The exact solve of one layout, running (or done) in a background thread.

    ``future`` ends with ``True`` once the solver's cache holds the layout, and
    with ``False`` when there is nothing to solve with (no advice package, or it
    failed: the hint then falls back as it would have anyway).
    """

    level: Level
    labels: tuple[int, ...]
    future: Future[bool] = field(default_factory=Future, repr=False)

    def is_for(self, state: State) -> bool:
        """Whether this solve is the one ``state``'s hints read (same level family, same labels).

        >>> warmup = Warmup(Level.INTERMEDIATE, (1,) * 12)
        >>> warmup.is_for(State.new("expert", (1,) * 12)), warmup.is_for(State.new("expert", (2,) * 12))
        (True, False)
        """
        return SOLVED_LEVEL[state.level] is self.level and tuple(state.labels) == self.labels

    def wait(self, timeout: float | None = WAIT_SECONDS) -> bool:
        """Block until the solve has ended; ``True`` if its table is ready (``False`` on timeout too)."""
        try:
            return self.future.result(timeout)
        except Exception:  # cancelled or timed out: the hint solves by itself, under the lock
            return False

    def cancel(self) -> bool:
        """Drop the solve if it has not started yet (a new game came first)."""
        return self.future.cancel()


def prepare(level: Level | str, labels: Sequence[int | None]) -> Warmup | None:
    """Start the exact solve that ``level``'s hints on ``labels`` will read, in a daemon thread.

    ``None`` while a label is still blank (the setup is not finished).

    >>> prepare("expert", (1, None) * 6) is None
    True
    """
    if any(label is None for label in labels):
        return None
    warmup = Warmup(SOLVED_LEVEL[Level.parse(level)], tuple(int(v) for v in labels if v is not None))
    thread = threading.Thread(target=_solve_in_background, args=(warmup,), daemon=True)
    thread.name = f"caterpillars-solve-{thread.name}"
    with _running_lock:
        _running.add(thread)
    thread.start()
    return warmup


def _solve_in_background(warmup: Warmup) -> None:
    try:
        if warmup.future.cancelled():  # do not queue on the lock for nothing
            return
        advice = advice_module()  # imported outside the lock: NumPy's import takes a moment
        with ADVICE_LOCK:
            if not warmup.future.set_running_or_notify_cancel():
                return
            try:
                if advice is not None:
                    advice.solve_layout(warmup.level, warmup.labels)
            except Exception:  # the hint will fall back on its own; a thread must not die loudly
                warmup.future.set_result(False)
            else:
                warmup.future.set_result(advice is not None)
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


def _fallback(moves: list[Move]) -> dict[str, Any]:
    return {
        "status": "unavailable",
        "title": text("lessons.hint.unavailable"),
        "lines": [],
        "options": [{"text": m.describe(), "how": m.how, "value": None, "best": False} for m in moves],
    }


def hint_view(state: State, roll: Roll, moves: list[Move]) -> dict[str, Any]:
    """The hint panel's JSON: the best move, each option's value, the reasons."""
    advice = advice_module()
    if advice is None:
        return _fallback(moves)
    try:
        with ADVICE_LOCK:
            found = advice.hint(state, roll)
    except Exception:  # a half-written advice package must not break the lesson
        return _fallback(moves)
    options = []
    for option in found.options:
        value = float(option.expected_final)
        options.append(
            {
                "text": option.move.describe(),
                "how": list(getattr(option.move, "how", [])),
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
    }


def loss_lines(state: State, roll: Roll, move: Move) -> list[str]:
    """What the learner's move cost compared with the best one (empty without advice)."""
    advice = advice_module()
    if advice is None:
        return []
    try:
        with ADVICE_LOCK:
            choice = advice.explain_choice(state, roll, move)
    except Exception:
        return []
    loss = float(choice.loss)
    if loss <= 1e-9:
        return [text("lessons.hint.no_loss", value=float(choice.chosen_value))]
    return [
        text(
            "lessons.hint.loss",
            chosen=float(choice.chosen_value),
            best=float(choice.best_value),
            loss=loss,
        ),
        *[str(reason) for reason in choice.reasons][1:3],  # [0] restates the line above
    ]


def review_view(game: Game) -> dict[str, list[str]]:
    """The advice package's review of a finished game: ``summary`` lines and one line per round.

    Both lists are empty without the advice package (or when it fails).
    """
    empty: dict[str, list[str]] = {"summary": [], "rounds": []}
    advice = advice_module()
    if advice is None:
        return empty
    try:
        with ADVICE_LOCK:
            data = advice.review(game).to_json()
    except Exception:
        return empty
    if not isinstance(data, dict):
        return empty
    summary = data.get("summary", [])
    entries = data.get("entries", [])
    return {
        "summary": [str(line) for line in summary] if isinstance(summary, list) else [str(summary)],
        "rounds": [str(e["text"]) for e in entries if isinstance(e, dict) and "text" in e]
        if isinstance(entries, list)
        else [],
    }


__all__ = [
    "ADVICE_LOCK",
    "Warmup",
    "advice_module",
    "background_solves",
    "hint_view",
    "join_background_solves",
    "loss_lines",
    "prepare",
    "review_view",
]
