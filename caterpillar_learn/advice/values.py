"""What a sheet, and every move of a roll, is worth: exact or estimated.

At Beginner and Intermediate every value comes from the exact solver (the
first question about a layout solves it, later ones read its tables); at
Advanced and Expert from :mod:`caterpillar_learn.advice.estimate`.

>>> from caterpillar_learn.caterpillars import Roll, State
>>> state = State.new("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
>>> options, exact = rank_options(state, Roll((2, 6)))
>>> exact, len(options), options[0].expected_final >= options[-1].expected_final
(True, 4, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import caterpillar_learn.advice.estimate as estimate
from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.levels import LEVEL_ADVICE
from caterpillar_learn.advice.solver import solve_layout
from caterpillar_learn.caterpillars.dice import Roll
from caterpillar_learn.caterpillars.notation import move_to_json
from caterpillar_learn.caterpillars.rules import Move, apply, legal_moves
from caterpillar_learn.caterpillars.sheet import State
from caterpillar_learn.errors import describe


@dataclass(frozen=True)
class Option:
    """One legal move and the expected final score after it (best play from then on)."""

    move: Move
    expected_final: float

    def to_json(self) -> dict[str, Any]:
        return {"move": move_to_json(self.move), "expected_final": self.expected_final}


def is_exact_level(state: State) -> bool:
    """Whether ``state``'s level is solved exactly (Beginner and Intermediate)."""
    return LEVEL_ADVICE[state.level].exact


def _check(state: State) -> None:
    if not state.is_setup_done:
        raise AdviceError(describe("labels", list(state.labels), "every label set (finish the setup first)"))


def state_value(state: State, *, progress: bool = False) -> tuple[float, bool]:
    """``(expected final score, exact?)`` of ``state`` before its next roll.

    >>> state_value(State.new("beginner", (1,) * 12, ))[1]
    True
    """
    _check(state)
    if is_exact_level(state):
        solution = solve_layout(state.level, tuple(v for v in state.labels if v is not None), progress=progress)
        return solution.value(state), True
    if progress and not state.is_complete:
        estimate.no_bonus_solution(state, progress=True)
    return estimate.value(state)


def rank_options(state: State, roll: Roll) -> tuple[tuple[Option, ...], bool]:
    """Every legal move of ``roll`` with its expected final, best first, and whether all are exact.

    Ties keep the engine's order of moves, so the ranking is deterministic.
    """
    _check(state)
    if state.is_complete:
        raise AdviceError(describe("state", "a full sheet", "a sheet with an empty box"))
    scored = []
    exact = True
    for move in legal_moves(state, roll):
        value, is_exact = state_value(apply(state, move))
        exact = exact and is_exact
        scored.append(Option(move, value))
    order = sorted(range(len(scored)), key=lambda i: -scored[i].expected_final)
    return tuple(scored[i] for i in order), exact


def best_move(state: State, roll: Roll) -> Move:
    """The recommended move of ``roll`` (the first of :func:`rank_options`)."""
    return rank_options(state, roll)[0][0].move


@dataclass(frozen=True)
class Valuation:
    """The expected final score of a sheet before its next roll, and how it was found."""

    expected_final: float
    exact: bool
    seconds: float

    def __float__(self) -> float:
        return self.expected_final

    def to_json(self) -> dict[str, Any]:
        return {"expected_final": self.expected_final, "exact": self.exact, "seconds": self.seconds}


def solve(state: State, *, progress: bool = False) -> Valuation:
    """Solve (or estimate) ``state`` and time it; ``float(solve(state))`` is its value.

    >>> round(float(solve(State.new("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1)))), 4)
    14.2734
    """
    started = time.perf_counter()
    value, exact = state_value(state, progress=progress)
    return Valuation(value, exact, time.perf_counter() - started)


__all__ = ["Option", "Valuation", "best_move", "is_exact_level", "rank_options", "solve", "state_value"]
