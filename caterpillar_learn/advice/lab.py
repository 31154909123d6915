"""The strategy lab: many seeded games per strategy, and their score distributions.

Four built-in strategies (:data:`STRATEGIES`): ``random`` (any legal move),
``greedy`` (the highest score now), ``median`` (keep the projected totals
balanced so the middle caterpillar is as high as possible) and ``hint``
(the hint generator's best move).  Every game draws its dice from one
``random.Random(seed)``, so a seed gives the same games again.

>>> result = simulate("beginner", "greedy", 20, seed=1)
>>> len(result.finals), result == simulate("beginner", "greedy", 20, seed=1)
(20, True)
>>> sorted(result.to_json())[:4]
['games', 'histogram', 'labels', 'level']
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.levels import LEVEL_ADVICE
from caterpillar_learn.advice.playout import optimal_finals
from caterpillar_learn.advice.solver import solve_layout
from caterpillar_learn.advice.values import best_move
from caterpillar_learn.caterpillars.dice import Roll, roll_dice
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.rules import LegalMoves, Move, apply, legal_moves
from caterpillar_learn.caterpillars.scoring import score
from caterpillar_learn.caterpillars.sheet import BOXES, SLOTS, State
from caterpillar_learn.errors import describe

#: The layout the lab plays when none is given: the printed labels of
#: :data:`~caterpillar_learn.caterpillars.DEFAULT_LABELS` with the blanks
#: filled so that every caterpillar has four different labels.
LAB_LABELS = (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1)
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)

Strategy = Callable[[State, Roll, LegalMoves, random.Random], Move]


def random_strategy(state: State, roll: Roll, moves: LegalMoves, rng: random.Random) -> Move:
    """Any legal move, uniformly."""
    return moves[rng.randrange(len(moves))]


def greedy_strategy(state: State, roll: Roll, moves: LegalMoves, rng: random.Random) -> Move:
    """The highest score now (then the highest die kept in a bonus box)."""
    return max(moves, key=lambda m: (m.score, m.bonus[1] if m.bonus else 0))


def median_strategy(state: State, roll: Roll, moves: LegalMoves, rng: random.Random) -> Move:
    """Make the projected middle caterpillar (plus its bonus box) as high as possible.

    A caterpillar's projected total is its total plus the level's mean
    score per empty box; the tie-break prefers more points in all.
    """
    mean = LEVEL_ADVICE[state.level].box_mean

    def worth(move: Move) -> tuple[float, int]:
        after = apply(state, move)
        projected = [
            after.totals[c] + mean * sum(s is None for s in after.scores[BOXES * c : BOXES * c + BOXES])
            for c in range(3)
        ]
        middle = sorted(range(3), key=lambda c: projected[c])[1]
        bonus = (after.bonus[middle] or 0) if state.level.rules.bonus_boxes else 0
        return projected[middle] + bonus, sum(after.totals)

    return max(moves, key=worth)


def hint_strategy(state: State, roll: Roll, moves: LegalMoves, rng: random.Random) -> Move:
    """The hint generator's recommended move."""
    return best_move(state, roll)


STRATEGIES: dict[str, Strategy] = {
    "random": random_strategy,
    "greedy": greedy_strategy,
    "median": median_strategy,
    "hint": hint_strategy,
}


@dataclass(frozen=True)
class LabResult:
    """The final scores of a batch of games and their summary."""

    level: Level
    strategy: str
    labels: tuple[int, ...]
    seed: int
    finals: list[int]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.finals)

    @property
    def stdev(self) -> float:
        return statistics.stdev(self.finals) if len(self.finals) > 1 else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of the mean."""
        return self.stdev / math.sqrt(len(self.finals))

    def quantiles(self) -> dict[str, float]:
        ordered = sorted(self.finals)
        return {f"{q:g}": float(ordered[min(int(q * len(ordered)), len(ordered) - 1)]) for q in QUANTILES}

    def histogram(self) -> dict[str, int]:
        return {str(k): v for k, v in sorted(Counter(self.finals).items())}

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level.value,
            "strategy": self.strategy,
            "labels": list(self.labels),
            "games": len(self.finals),
            "seed": self.seed,
            "mean": self.mean,
            "stdev": self.stdev,
            "stderr": self.stderr,
            "quantiles": self.quantiles(),
            "histogram": self.histogram(),
        }


def play_game(level: Level, labels: tuple[int, ...], strategy: Strategy, rng: random.Random) -> int:
    """One game from a fresh sheet; returns its final score."""
    state = State.new(level, labels)
    for _ in range(SLOTS):
        roll = roll_dice(level, rng)
        state = apply(state, strategy(state, roll, legal_moves(state, roll), rng))
    return score(state).final


def simulate(
    level: Level | str,
    strategy: str,
    games: int,
    seed: int,
    labels: Sequence[int] | None = None,
    progress: bool = False,
) -> LabResult:
    """Play ``games`` seeded games of ``strategy`` and collect their final scores.

    At Beginner and Intermediate the ``hint`` strategy plays all games at once
    on the solver's tables (tens of thousands of games per second).
    """
    level = Level.parse(level)
    if strategy not in STRATEGIES:
        raise AdviceError(describe("strategy", strategy, f"one of {', '.join(STRATEGIES)}"))
    if not isinstance(games, int) or games < 1:
        raise AdviceError(describe("games", games, "a whole number of at least 1"))
    layout = tuple(LAB_LABELS if labels is None else labels)
    if len(layout) != SLOTS or any(not isinstance(v, int) or not 1 <= v <= 12 for v in layout):
        raise AdviceError(describe("labels", list(layout), "12 labels from 1 to 12"))
    rng = random.Random(seed)
    if strategy == "hint" and LEVEL_ADVICE[level].exact:
        solution = solve_layout(level, layout, progress=progress)
        finals = [int(v) for v in optimal_finals(solution, games, rng)]
        return LabResult(level, strategy, layout, seed, finals)
    play = STRATEGIES[strategy]
    numbers: range | Any = range(games)
    if progress:
        from tqdm import tqdm  # lazy: only long runs ask for a bar

        numbers = tqdm(numbers, desc=f"{strategy} at {level.value}", unit="game", leave=False)
    finals = [play_game(level, layout, play, rng) for _ in numbers]
    return LabResult(level, strategy, layout, seed, finals)


__all__ = ["LAB_LABELS", "STRATEGIES", "LabResult", "Strategy", "play_game", "simulate"]
