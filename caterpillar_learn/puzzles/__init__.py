"""Puzzles by idea: positions where one move is clearly best, rated, and chosen to follow a child's rating.

* :mod:`.bank`: the bank of puzzles by level and idea, made by noisy self-play and the solver (the
  strong hint above Intermediate), shipped as ``bank.json``;
* :mod:`.rating`: Glicko-2 ratings, a child's per idea and each puzzle's;
* :mod:`.sets`: a set of puzzles on one idea whose difficulty follows the child's rating, and mastery;
* :mod:`.players`: the noisy players whose seeded games the bank is made from;
* :mod:`.cli`: ``caterpillar-learn puzzles``.

Nothing here draws or knows about a page.
"""

from caterpillar_learn.puzzles.bank import Bank, Puzzle, load_bank, puzzle_at
from caterpillar_learn.puzzles.errors import PuzzleError
from caterpillar_learn.puzzles.rating import IdeaRatings, Rating, duel, rate, rest
from caterpillar_learn.puzzles.sets import PuzzleSet, choose, idea_state, puzzle_mastery

__all__ = [
    "Bank",
    "IdeaRatings",
    "Puzzle",
    "PuzzleError",
    "PuzzleSet",
    "Rating",
    "choose",
    "duel",
    "idea_state",
    "load_bank",
    "puzzle_at",
    "puzzle_mastery",
    "rate",
    "rest",
]
