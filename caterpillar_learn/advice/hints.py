"""The hint: for a sheet and a roll, the best move, every option's value, and why.

>>> from caterpillar_learn.caterpillars import Roll, State
>>> state = State.new("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
>>> advice = hint(state, Roll((2, 6)))
>>> advice.exact, advice.move == advice.options[0].move
(True, True)
>>> advice.expected_final == max(o.expected_final for o in advice.options)
True
>>> sorted(advice.to_json())
['exact', 'expected_final', 'explanation', 'move', 'options']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from caterpillar_learn.advice.explain import TIE, exactness, money, move_text, reasons
from caterpillar_learn.advice.values import Option, rank_options
from caterpillar_learn.caterpillars.dice import Roll
from caterpillar_learn.caterpillars.notation import move_to_json
from caterpillar_learn.caterpillars.rules import Move
from caterpillar_learn.caterpillars.sheet import State
from caterpillar_learn.i18n import text


@dataclass(frozen=True)
class Hint:
    """The recommended move, every option best first, and the explanation."""

    move: Move
    expected_final: float
    exact: bool
    options: tuple[Option, ...]
    explanation: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The object ``caterpillar-learn hint`` prints."""
        return {
            "move": move_to_json(self.move),
            "expected_final": self.expected_final,
            "exact": self.exact,
            "options": [option.to_json() for option in self.options],
            "explanation": list(self.explanation),
        }


def hint(state: State, roll: Roll) -> Hint:
    """Advice for ``roll`` on ``state``: exact at Beginner and Intermediate, estimated above."""
    options, exact = rank_options(state, roll)
    best = options[0]
    lines = [text("advice.value.best", move=move_text(state, best.move), value=money(best.expected_final))]
    if len(options) == 1:
        lines.append(text("advice.value.only"))
    else:
        tied = sum(1 for o in options if best.expected_final - o.expected_final <= TIE)
        if tied > 1:
            lines.append(text("advice.value.tied", count=tied))
        else:
            runner = options[1]
            lines.append(
                text(
                    "advice.value.next",
                    move=move_text(state, runner.move),
                    value=money(runner.expected_final),
                    gap=money(best.expected_final - runner.expected_final),
                )
            )
    lines.extend(reasons(state, roll, best.move))
    lines.append(exactness(state, exact))
    return Hint(best.move, best.expected_final, exact, options, tuple(lines))


__all__ = ["Hint", "hint"]
