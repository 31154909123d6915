"""Caterpillars, the roll-and-write dice game: the pure rules engine.

Nothing here imports Jupyter, widgets or Panel.  The path of one round:

>>> import random
>>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
>>> roll = roll_dice(state.level, random.Random(1))
>>> moves = legal_moves(state, roll)
>>> state = apply(state, moves.first(), roll)
>>> state.round
2
"""

from __future__ import annotations

from caterpillar_learn.caterpillars.dice import (
    ACTION_FACES,
    Roll,
    chance_outcomes,
    format_roll,
    make_roll,
    parse_roll,
    roll_dice,
)
from caterpillar_learn.caterpillars.errors import (
    CaterpillarsError,
    IllegalMoveError,
    InvalidRollError,
    InvalidStateError,
)
from caterpillar_learn.caterpillars.game import Game, Turn
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.notation import (
    move_from_json,
    move_to_json,
    parse_state,
    state_from_json,
    state_to_json,
)
from caterpillar_learn.caterpillars.rules import (
    LegalMoves,
    Move,
    Offer,
    Way,
    apply,
    legal_moves,
    offers,
    producible_scores,
    validate,
    why_not,
)
from caterpillar_learn.caterpillars.scoring import Score, rank, score
from caterpillar_learn.caterpillars.setup import SetupChoice, apply_setup, rolls_needed, setup_choices
from caterpillar_learn.caterpillars.sheet import (
    BONUS_BOXES,
    CATERPILLARS,
    COLOURS,
    DEFAULT_LABELS,
    State,
)

__all__ = [
    "ACTION_FACES",
    "BONUS_BOXES",
    "CATERPILLARS",
    "COLOURS",
    "DEFAULT_LABELS",
    "CaterpillarsError",
    "Game",
    "IllegalMoveError",
    "InvalidRollError",
    "InvalidStateError",
    "LegalMoves",
    "Level",
    "Move",
    "Offer",
    "Roll",
    "Score",
    "SetupChoice",
    "State",
    "Turn",
    "Way",
    "apply",
    "apply_setup",
    "chance_outcomes",
    "format_roll",
    "legal_moves",
    "make_roll",
    "move_from_json",
    "move_to_json",
    "offers",
    "parse_roll",
    "parse_state",
    "producible_scores",
    "rank",
    "roll_dice",
    "rolls_needed",
    "score",
    "setup_choices",
    "state_from_json",
    "state_to_json",
    "validate",
    "why_not",
]
