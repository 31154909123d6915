"""The hint generator: best moves, their values and reasons, reviews and a strategy lab.

Exact at Beginner and Intermediate (:mod:`~caterpillar_learn.advice.solver`),
estimated at Advanced and Expert (:mod:`~caterpillar_learn.advice.estimate`).
Nothing here imports Jupyter or widgets.

>>> from caterpillar_learn.caterpillars import Roll, State
>>> state = State.new("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
>>> hint(state, Roll((2, 6))).move
Charlie 2 ← 6
"""

from __future__ import annotations

from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.explain import ChoiceExplanation, explain_choice
from caterpillar_learn.advice.hints import Hint, hint
from caterpillar_learn.advice.levels import LEVEL_ADVICE, LevelAdvice, level_advice, solved_level
from caterpillar_learn.advice.review import Review, ReviewEntry, review
from caterpillar_learn.advice.setup import SetupHint, SetupOption, setup_hint
from caterpillar_learn.advice.simulation import LAB_LABELS, STRATEGIES, LabResult, simulate
from caterpillar_learn.advice.solver import clear_cache, solve_layout
from caterpillar_learn.advice.tables import Solution
from caterpillar_learn.advice.values import Option, Valuation, best_move, rank_options, solve, state_value

__all__ = [
    "LAB_LABELS",
    "LEVEL_ADVICE",
    "STRATEGIES",
    "AdviceError",
    "ChoiceExplanation",
    "Hint",
    "LabResult",
    "LevelAdvice",
    "Option",
    "Review",
    "ReviewEntry",
    "SetupHint",
    "SetupOption",
    "Solution",
    "Valuation",
    "best_move",
    "clear_cache",
    "explain_choice",
    "hint",
    "level_advice",
    "rank_options",
    "review",
    "setup_hint",
    "simulate",
    "solve",
    "solve_layout",
    "solved_level",
    "state_value",
]
