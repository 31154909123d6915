"""The strategy lab's simulations: many seeded games per strategy, and their score distributions.

Four built-in strategies (:data:`STRATEGIES`): ``random`` (any legal move),
``greedy`` (the highest score now), ``median`` (keep the projected totals
balanced so the middle caterpillar is as high as possible) and ``hint``
(the hint generator's best move).  Every game draws its dice from one
``random.Random(seed)``, so a seed gives the same games again.

Beside the final scores a result keeps each game's three caterpillar totals,
ordered lowest, middle, highest (:attr:`LabResult.totals`): their means show
*how* a strategy scores.  Measured (``caterpillar-learn simulate``, 2000
games, seed 1), best play lets one caterpillar go hungry and feeds the other
two up together, while greedy play ends the most level.

>>> result = simulate("beginner", "greedy", 20, seed=1)
>>> len(result.finals), result == simulate("beginner", "greedy", 20, seed=1)
(20, True)
>>> sorted(result.to_json())[:4]
['caterpillars', 'games', 'histogram', 'labels']
>>> low, middle, high = result.finishes()
>>> low <= middle <= high and abs(result.spread - (high - low)) < 1e-9
True
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
from caterpillar_learn.advice.estimate import no_bonus_solution
from caterpillar_learn.advice.levels import LEVEL_ADVICE
from caterpillar_learn.advice.playout import optimal_totals
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
#: The names of a game's three totals in order, as :meth:`LabResult.finishes` gives their means.
FINISHES = ("lowest", "middle", "highest")

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
    """The final scores of a batch of games, each game's totals (lowest, middle, highest), and their summary."""

    level: Level
    strategy: str
    labels: tuple[int, ...]
    seed: int
    finals: list[int]
    totals: list[tuple[int, int, int]]

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

    def finishes(self) -> tuple[float, float, float]:
        """The mean totals of each game's lowest, middle and highest caterpillar."""
        low, middle, high = (statistics.fmean(t[i] for t in self.totals) for i in range(3))
        return low, middle, high

    @property
    def spread(self) -> float:
        """The mean gap between a game's highest and lowest caterpillar: small when play ends level."""
        return statistics.fmean(t[2] - t[0] for t in self.totals)

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
            "caterpillars": dict(zip(FINISHES, self.finishes())),
            "spread": self.spread,
        }


def play_sheet(level: Level, labels: tuple[int, ...], strategy: Strategy, rng: random.Random) -> State:
    """One game from a fresh sheet; returns the full sheet."""
    state = State.new(level, labels)
    for _ in range(SLOTS):
        roll = roll_dice(level, rng)
        state = apply(state, strategy(state, roll, legal_moves(state, roll), rng))
    return state


def play_game(level: Level, labels: tuple[int, ...], strategy: Strategy, rng: random.Random) -> int:
    """One game from a fresh sheet; returns its final score."""
    return score(play_sheet(level, labels, strategy, rng)).final


def _ordered(totals: Sequence[int]) -> tuple[int, int, int]:
    low, middle, high = sorted(int(t) for t in totals)
    return low, middle, high


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
        ordered = [_ordered(row) for row in optimal_totals(solution, games, rng)]
        return LabResult(level, strategy, layout, seed, [middle for _, middle, _ in ordered], ordered)
    play = STRATEGIES[strategy]
    numbers: range | Any = range(games)
    if progress:
        from tqdm import tqdm  # lazy: only long runs ask for a bar

        if strategy == "hint":
            # The first hint solves the layout (at Advanced some minutes): that solve shows its own bar first,
            # instead of a games bar standing at 0 all that time.
            no_bonus_solution(State.new(level, layout), progress=True)

        numbers = tqdm(numbers, desc=f"{strategy} at {level.value}", unit="game", leave=False)
    sheets = [play_sheet(level, layout, play, rng) for _ in numbers]
    return LabResult(
        level, strategy, layout, seed, [score(s).final for s in sheets], [_ordered(s.totals) for s in sheets]
    )


__all__ = ["FINISHES", "LAB_LABELS", "STRATEGIES", "LabResult", "Strategy", "play_game", "play_sheet", "simulate"]
