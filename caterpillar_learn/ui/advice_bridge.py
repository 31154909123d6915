"""The widgets' only door to the hint generator (``caterpillar_learn.advice``).

The advice package is imported lazily, inside each function: a widget must
draw and play without it, and the exact solver may take seconds the first
time it meets a layout, which must never delay a page's first render.  When
the package cannot be imported, the hint panel lists the legal moves with
their ways instead, and the review shows the rounds only.

>>> from caterpillar_learn.caterpillars import Roll, State, legal_moves
>>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
>>> view = hint_view(state, Roll((3, 5)), list(legal_moves(state, Roll((3, 5)))))
>>> view["status"] in ("ready", "unavailable"), len(view["options"])
(True, 3)
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from caterpillar_learn.caterpillars import Game, Move, Roll, State
from caterpillar_learn.i18n import text


def advice_module() -> ModuleType | None:
    """``caterpillar_learn.advice`` if it can be imported, else ``None``."""
    try:
        return import_module("caterpillar_learn.advice")
    except ImportError:
        return None


def _move_text(move: Move) -> str:
    from caterpillar_learn.ui.session import move_text  # the session module imports this one

    return move_text(move)


def _fallback(moves: list[Move]) -> dict[str, Any]:
    return {
        "status": "unavailable",
        "title": text("lessons.hint.unavailable"),
        "lines": [],
        "options": [{"text": _move_text(m), "how": m.how, "value": None, "best": False} for m in moves],
    }


def hint_view(state: State, roll: Roll, moves: list[Move]) -> dict[str, Any]:
    """The hint panel's JSON: the best move, each option's value, the reasons."""
    advice = advice_module()
    if advice is None:
        return _fallback(moves)
    try:
        found = advice.hint(state, roll)
    except Exception:  # a half-written advice package must not break the lesson
        return _fallback(moves)
    options = []
    for option in found.options:
        value = float(option.expected_final)
        options.append(
            {
                "text": _move_text(option.move),
                "how": list(getattr(option.move, "how", [])),
                "value": round(value, 2),
                "value_text": text("lessons.hint.value", value=value),
                "best": option.move == found.move,
            }
        )
    key = "lessons.hint.best_exact" if found.exact else "lessons.hint.best_estimate"
    return {
        "status": "ready",
        "title": text(key, move=_move_text(found.move), value=float(found.expected_final)),
        "lines": [str(line) for line in found.explanation],
        "options": options,
    }


def loss_lines(state: State, roll: Roll, move: Move) -> list[str]:
    """What the learner's move cost compared with the best one (empty without advice)."""
    advice = advice_module()
    if advice is None:
        return []
    try:
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


__all__ = ["advice_module", "hint_view", "loss_lines", "review_view"]
