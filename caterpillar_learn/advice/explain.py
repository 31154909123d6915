"""Plain-language reasons for a move, and the loss of a learner's choice.

Every sentence comes from the message catalogue (``advice.*`` keys).  The
reasons are facts a child or a teacher can check: which caterpillar is
likely to be the middle one, how often a roll offers a label (an exact
fraction), whether a smaller score was chosen on purpose.

>>> from caterpillar_learn.caterpillars import Roll, State, legal_moves
>>> state = State.new("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
>>> label_chance("beginner", 6)
Fraction(11, 36)
>>> choice = explain_choice(state, Roll((2, 6)), legal_moves(state, Roll((2, 6)))[0])
>>> choice.loss >= 0
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.estimate import fly_chances
from caterpillar_learn.advice.levels import LEVEL_ADVICE, level_advice
from caterpillar_learn.advice.values import Option, rank_options
from caterpillar_learn.caterpillars.dice import Roll, chance_outcomes
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.notation import move_to_json
from caterpillar_learn.caterpillars.rules import Move, legal_moves, offers
from caterpillar_learn.caterpillars.sheet import BONUS_BOXES, BOXES, CATERPILLARS, State
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text

#: A label offered less often than this is "hard to fill"; at least this often, "easy".
HARD_LABEL = Fraction(1, 3)
EASY_LABEL = Fraction(1, 2)
#: Values closer than this count as equal (float noise of the solver).
TIE = 1e-9


def money(value: float) -> str:
    """A value as learners read it: two decimals."""
    return f"{value:.2f}"


def move_text(state: State, move: Move) -> str:
    """The move in words, e.g. ``5 in Alex's box labelled 3``.

    >>> from caterpillar_learn.caterpillars import State
    >>> move_text(State.new("beginner", (1,) * 12), Move.of("Bobby", 2, 4))
    "4 in Bobby's box labelled 1"
    """
    key = "advice.move.zero" if move.zero else "advice.move.place"
    words = text(key, score=move.score, caterpillar=move.caterpillar, label=state.labels[move.slot])
    if move.bonus is not None:
        box, value = move.bonus
        words = text("advice.move.bonus", move=words, value=value, box=BONUS_BOXES[box])
    return words


@cache
def label_chance(level: Level | str, label: int) -> Fraction:
    """Exact chance that one roll offers ``label`` (bonus boxes and action die aside).

    The dice are those of the level's :attr:`~caterpillar_learn.advice.levels.LevelAdvice.chance_level`.

    >>> label_chance("expert", 12) == label_chance("intermediate", 12) == Fraction(16, 216)
    True
    """
    dice_level = level_advice(level).chance_level
    return sum(
        (
            p
            for roll, p in chance_outcomes(dice_level)
            if any(offer.can_fill((label,)) for offer in offers(dice_level, roll))
        ),
        Fraction(0),
    )


def _percent(p: float | Fraction) -> int:
    return round(100 * float(p))


def reasons(state: State, roll: Roll, move: Move) -> tuple[str, ...]:
    """Why ``move`` is a sensible choice for ``roll`` (or what it trades away)."""
    out = []
    label = state.labels[move.slot]
    assert label is not None
    c = move.slot // BOXES
    chances = fly_chances(state)
    mean = LEVEL_ADVICE[state.level].box_mean
    projected = [
        state.totals[i] + mean * sum(s is None for s in state.scores[BOXES * i : BOXES * i + BOXES]) for i in range(3)
    ]
    if move.zero:
        out.append(text("advice.reason.zero", caterpillar=move.caterpillar, label=label))
    elif chances[c] == max(chances):
        out.append(text("advice.reason.middle", caterpillar=move.caterpillar, percent=_percent(chances[c])))
    elif projected[c] == max(projected):
        out.append(text("advice.reason.high", caterpillar=move.caterpillar))
    else:
        out.append(text("advice.reason.low", caterpillar=move.caterpillar))
    chance = label_chance(state.level, label)
    if chance < HARD_LABEL:
        out.append(text("advice.reason.hard_label", label=label, fraction=chance, percent=_percent(chance)))
    elif chance >= EASY_LABEL and not move.zero:
        out.append(text("advice.reason.easy_label", label=label, fraction=chance, percent=_percent(chance)))
    most = max((m.score for m in legal_moves(state, roll)), default=0)
    if not move.zero and move.score < most:
        out.append(text("advice.reason.small_score", score=move.score, most=most))
    if move.bonus is not None:
        box, value = move.bonus
        out.append(
            text(
                "advice.reason.bonus",
                box=BONUS_BOXES[box],
                value=value,
                caterpillar=CATERPILLARS[box],
                percent=_percent(chances[box]),
            )
        )
    return tuple(out)


def exactness(state: State, exact: bool) -> str:
    """The sentence saying whether the values are exact (an estimated level's endgame is)."""
    if exact and not LEVEL_ADVICE[state.level].exact:
        return text("advice.exact.endgame")
    return text("advice.exact.yes" if exact else "advice.exact.no")


@dataclass(frozen=True)
class ChoiceExplanation:
    """A learner's move beside the best one: both values, the loss, the reasons."""

    move: Move
    best: Move
    chosen_value: float
    best_value: float
    loss: float
    exact: bool
    reasons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "move": move_to_json(self.move),
            "best": move_to_json(self.best),
            "chosen_value": self.chosen_value,
            "best_value": self.best_value,
            "loss": self.loss,
            "exact": self.exact,
            "reasons": list(self.reasons),
        }


def explain_options(
    state: State, roll: Roll, move: Move, options: tuple[Option, ...], exact: bool
) -> ChoiceExplanation:
    """:func:`explain_choice` on options already ranked (used by the review)."""
    chosen = next((o for o in options if o.move == move), None)
    if chosen is None:
        listed = ", ".join(repr(o.move) for o in options)
        raise AdviceError(describe("move", move, f"one of {listed}"))
    best = options[0]
    loss = max(best.expected_final - chosen.expected_final, 0.0)
    lines: list[str]
    if loss <= TIE:
        loss = 0.0
        lines = [text("advice.choice.best", value=money(chosen.expected_final))]
        lines.extend(reasons(state, roll, chosen.move))
    else:
        lines = [
            text(
                "advice.choice.loss",
                chosen=money(chosen.expected_final),
                best=move_text(state, best.move),
                best_value=money(best.expected_final),
                loss=money(loss),
            ),
            text("advice.choice.why_best"),
        ]
        lines.extend(reasons(state, roll, best.move))
    lines.append(exactness(state, exact))
    return ChoiceExplanation(
        chosen.move, best.move, chosen.expected_final, best.expected_final, loss, exact, tuple(lines)
    )


def explain_choice(state: State, roll: Roll, move: Move) -> ChoiceExplanation:
    """The learner's ``move`` for ``roll``: its expected final, the best one's, the loss, why."""
    options, exact = rank_options(state, roll)
    return explain_options(state, roll, move, options, exact)


__all__ = ["ChoiceExplanation", "exactness", "explain_choice", "label_chance", "move_text", "reasons"]
