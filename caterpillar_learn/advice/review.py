"""The game review: every round's roll, the choice, the best choice and its loss.

>>> from caterpillar_learn.caterpillars import Game
>>> game = Game("beginner", labels=(1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1), seed=2)
>>> while game.phase != "over":
...     game.play(game.legal_moves()[0])
>>> report = review(game)
>>> len(report.entries), report.total_loss >= 0, report.exact
(12, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from caterpillar_learn.advice.explain import TIE, explain_options, money, move_text
from caterpillar_learn.advice.values import rank_options
from caterpillar_learn.caterpillars.dice import Roll, format_roll
from caterpillar_learn.caterpillars.game import Game
from caterpillar_learn.caterpillars.notation import move_to_json
from caterpillar_learn.caterpillars.rules import Move
from caterpillar_learn.caterpillars.scoring import score
from caterpillar_learn.i18n import text

#: Average loss per round below which play is "excellent", and "good".
EXCELLENT, GOOD = 0.05, 0.3


@dataclass(frozen=True)
class ReviewEntry:
    """One round of the review."""

    round: int
    roll: Roll
    choice: Move
    best: Move
    chosen_value: float
    best_value: float
    loss: float
    exact: bool
    line: str

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "roll": format_roll(self.roll),
            "choice": move_to_json(self.choice),
            "best": move_to_json(self.best),
            "chosen_value": self.chosen_value,
            "best_value": self.best_value,
            "loss": self.loss,
            "exact": self.exact,
            "text": self.line,
        }


@dataclass(frozen=True)
class Review:
    """A proficiency report of one game."""

    entries: tuple[ReviewEntry, ...]
    total_loss: float
    final: int
    exact: bool
    summary: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "entries": [entry.to_json() for entry in self.entries],
            "total_loss": self.total_loss,
            "final": self.final,
            "exact": self.exact,
            "summary": list(self.summary),
        }


def review(game: Game) -> Review:
    """Review every round played so far (setup turns are skipped)."""
    entries = []
    for turn in game.history:
        if not isinstance(turn.choice, Move):
            continue
        options, exact = rank_options(turn.before, turn.roll)
        judged = explain_options(turn.before, turn.roll, turn.choice, options, exact, with_reasons=False)
        line = text(
            "advice.review.entry",
            round=turn.before.round,
            roll=format_roll(turn.roll),
            choice=move_text(turn.before, judged.move),
            best=move_text(turn.before, judged.best),
            loss=money(judged.loss),
        )
        entries.append(
            ReviewEntry(
                turn.before.round,
                turn.roll,
                judged.move,
                judged.best,
                judged.chosen_value,
                judged.best_value,
                judged.loss,
                exact,
                line,
            )
        )
    total = sum(e.loss for e in entries)
    rounds = len(entries)
    best = sum(1 for e in entries if e.loss <= TIE)
    summary = [text("advice.review.summary", loss=money(total), rounds=rounds, best=best)]
    per_round = total / rounds if rounds else 0.0
    grade = "excellent" if per_round < EXCELLENT else "good" if per_round < GOOD else "learning"
    summary.append(text(f"advice.review.level.{grade}"))
    return Review(tuple(entries), total, score(game.state).final, all(e.exact for e in entries), tuple(summary))


__all__ = ["Review", "ReviewEntry", "review"]
