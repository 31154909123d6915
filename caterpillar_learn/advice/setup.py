"""Setup advice: which blank label should receive which rolled value.

A choice that completes the layout at Beginner is valued exactly (the
solver's value of the fresh sheet; ``LevelAdvice.solve_setup`` in
:mod:`caterpillar_learn.advice.levels` says at which levels).  Otherwise a
layout is **estimated**: each box expects the level's mean score times how
likely its label gets filled (a roll offers label ``l`` with probability
``p(l)``; the ``n`` boxes sharing a label share the ``12 p(l)`` offers of
twelve rounds), a blank label counts the average of the values it may still
get, and the layout is worth the median of the caterpillars' expected totals.

>>> from caterpillar_learn.caterpillars import State
>>> state = State.new("beginner", (1, 3, 6, None, 6, 2, 3, 5, 5, 4, 2, None))
>>> best = setup_hint(state, (1, 4, 6))
>>> best.exact, len(best.options) > 1, best.value == best.options[0].value
(True, True, True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from caterpillar_learn.advice.explain import label_chance, money
from caterpillar_learn.advice.levels import LEVEL_ADVICE
from caterpillar_learn.advice.solver import solve_layout
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.setup import SetupChoice, apply_setup, setup_choices
from caterpillar_learn.caterpillars.sheet import BOXES, SLOTS, State
from caterpillar_learn.i18n import text


@dataclass(frozen=True)
class SetupOption:
    choice: SetupChoice
    value: float

    def to_json(self) -> dict[str, Any]:
        return {"assignments": [list(pair) for pair in self.choice.assignments], "value": self.value}


@dataclass(frozen=True)
class SetupHint:
    """The best setup choice, every choice's value (best first), and why."""

    choice: SetupChoice
    value: float
    exact: bool
    options: tuple[SetupOption, ...]
    explanation: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "choice": [list(pair) for pair in self.choice.assignments],
            "value": self.value,
            "exact": self.exact,
            "options": [o.to_json() for o in self.options],
            "explanation": list(self.explanation),
        }


def layout_estimate(state: State, variation: bool = False) -> float:
    """The estimated value of a (possibly unfinished) layout, see the module docstring."""
    level = Level.parse(state.level)
    values = range(1, 13) if variation else range(1, 7)
    blank = fmean(float(label_chance(level, v)) for v in values)
    counts = Counter(v for v in state.labels if v is not None)
    mean = LEVEL_ADVICE[level].box_mean
    totals = []
    for c in range(3):
        total = 0.0
        for label in state.labels[BOXES * c : BOXES * c + BOXES]:
            share = blank if label is None else float(label_chance(level, label)) / counts[label]
            total += mean * min(1.0, SLOTS * share)
        totals.append(total)
    return sorted(totals)[1]


def setup_hint(state: State, dice: tuple[int, ...], variation: bool = False) -> SetupHint:
    """Advice for one setup roll: exact when it completes a Beginner layout, else estimated."""
    choices = setup_choices(state, tuple(dice), variation)
    after = [apply_setup(state, choice) for choice in choices]
    exact = LEVEL_ADVICE[state.level].solve_setup and all(s.is_setup_done for s in after)
    values = []
    for layout in after:
        if exact:
            labels = tuple(v for v in layout.labels if v is not None)
            values.append(solve_layout(level=state.level, labels=labels).start_value)
        else:
            values.append(layout_estimate(layout, variation))
    order = sorted(range(len(choices)), key=lambda i: -values[i])
    options = tuple(SetupOption(choices[i], values[i]) for i in order)
    best = options[0]
    lines = [text("advice.setup.best", choice=best.choice.explain(), value=money(best.value))]
    lines.append(text("advice.setup.exact" if exact else "advice.setup.estimate"))
    for _, value in best.choice.assignments:
        chance = label_chance(state.level, value)
        lines.append(text("advice.setup.label", label=value, fraction=chance, percent=round(100 * float(chance))))
    return SetupHint(best.choice, best.value, exact, options, tuple(lines))


__all__ = ["SetupHint", "SetupOption", "layout_estimate", "setup_hint"]
