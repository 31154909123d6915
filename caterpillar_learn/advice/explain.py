"""Plain-language reasons for a move, and the loss of a learner's choice.

Every sentence comes from the message catalogue (``advice.*`` keys), and
every reason is a fact about the game that is said only when it is clear;
``tests/advice/test_claims.py`` checks each one against an independent count
or simulation.  What "clear" means here, and why:

* **Likely lowest, middle or highest.**  At the exact levels (Beginner,
  Intermediate) :func:`finish_chances` plays :data:`CHANCE_GAMES` seeded games
  from the sheet after the move with the solver's best play and counts where
  each caterpillar ends.  Even odds would be a third, so a caterpillar is
  called *likely* the middle (or lowest, or highest) one only from
  :data:`LIKELY` = 45 % on: a margin of about a dozen points above a third,
  ten times the sampling error of 2000 games (about 1.1 points).  The
  percentage is quoted to the nearest 5.  At Advanced and Expert the values
  are estimates and the hint's own play is far too slow to simulate for a
  hint, so no chance is quoted there (the normal model the estimate uses
  disagreed with best play by up to 45 points on measured Beginner sheets).
* **Hard or easy labels.**  :func:`label_chance` is exact (every roll
  counted).  A label is compared with the level's *typical* one, the median
  chance of the labels one die can give (1–6, what a standard setup prints
  and rolls; :func:`typical_label_chance`): *harder to fill* at most
  :data:`HARD_RATIO` (4/5) of it, *easier* at least :data:`EASY_RATIO`
  (6/5).  At Beginner every label 1–6 is offered by 11 of 36 rolls, so no box
  there is called hard or easy.
* **A zero** says what happened: with no bonus choice the dice fit no empty
  box at all (a die kept in a bonus box never opens a label the whole roll
  could not reach); with a die in a bonus box it names that die and the dice
  left, and whether the dice could have filled a box without it.

:func:`reasons` explains the *best* move of a roll (the hint's, or the one a
learner's choice is compared with): "it costs least" and "the best move
keeps" are read from the ranking that chose it.

>>> from caterpillar_learn.caterpillars import Roll, State, legal_moves
>>> state = State.new("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
>>> label_chance("beginner", 6), typical_label_chance("intermediate")
(Fraction(11, 36), Fraction(9, 16))
>>> label_difficulty("beginner", 6), label_difficulty("intermediate", 1), label_difficulty("intermediate", 6)
(None, 'hard', 'easy')
>>> choice = explain_choice(state, Roll((2, 6)), legal_moves(state, Roll((2, 6)))[0])
>>> choice.loss >= 0
True
"""

from __future__ import annotations

import json
import random
import statistics
import zlib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.levels import LEVEL_ADVICE, level_advice
from caterpillar_learn.advice.playout import optimal_totals
from caterpillar_learn.advice.solver import solve_layout
from caterpillar_learn.advice.values import Option, rank_options
from caterpillar_learn.caterpillars.dice import BONUS_FACES, FACES, Roll, chance_outcomes
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.notation import move_to_json, state_to_json
from caterpillar_learn.caterpillars.rules import Move, apply, legal_moves, offers
from caterpillar_learn.caterpillars.sheet import BONUS_BOXES, BOXES, CATERPILLARS, State
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text

#: A chance of ending lowest, middle or highest from which it is "likely" (even odds: a third).
LIKELY = 0.45
#: A label is "harder to fill than most" at most this share of the typical label's chance.
HARD_RATIO = Fraction(4, 5)
#: ... and "easier to fill than most" at least this share.
EASY_RATIO = Fraction(6, 5)
#: Seeded games of best play behind each :func:`finish_chances`.
CHANCE_GAMES = 2000
#: Where a caterpillar can end: the index into each triple of :func:`finish_chances`.
FINISHES = ("lowest", "middle", "highest")
#: Values closer than this count as equal (float noise of the solver).
TIE = 1e-9

Chances = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]


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


# -- labels: exact chances, compared with the level's typical label -------------


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


@cache
def typical_label_chance(level: Level | str) -> Fraction:
    """The median :func:`label_chance` of the labels one die gives (1 to 6): the level's typical label."""
    return Fraction(statistics.median(label_chance(level, face) for face in FACES))


def label_difficulty(level: Level | str, label: int) -> Literal["hard", "easy"] | None:
    """``"hard"`` or ``"easy"`` when ``label`` is clearly harder or easier to fill than the typical one."""
    ratio = label_chance(level, label) / typical_label_chance(level)
    if ratio <= HARD_RATIO:
        return "hard"
    if ratio >= EASY_RATIO:
        return "easy"
    return None


def _percent(p: float | Fraction) -> int:
    return round(100 * float(p))


# -- where the caterpillars end under best play ----------------------------------


def finish_ranks(totals: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Each caterpillar's place (0 lowest, 1 middle, 2 highest) in rows of final totals, as scoring decides.

    The middle one is the caterpillar that flies (the first of a tied median,
    no bonus boxes); of the other two the smaller total, then the earlier one, is lowest.

    >>> finish_ranks(np.array([[9, 4, 15], [10, 10, 15]])).tolist()
    [[1, 0, 2], [1, 0, 2]]
    """
    games = np.arange(len(totals))
    key = totals * 3 + np.arange(3)  # by total, then sheet order
    ranks = np.argsort(np.argsort(key, axis=1), axis=1)
    median = np.sort(totals, axis=1)[:, 1:2]
    flyer = np.argmax(totals == median, axis=1)
    middle = np.argmax(ranks == 1, axis=1)
    ranks[games, middle] = ranks[games, flyer]
    ranks[games, flyer] = 1
    return ranks


def _seed(state: State) -> int:
    # The same sheet always gets the same games, so the same hint says the same words.
    return zlib.crc32(json.dumps(state_to_json(state), sort_keys=True).encode())


@lru_cache(maxsize=1024)
def finish_chances(state: State) -> Chances | None:
    """Per caterpillar, the chances of ending lowest, middle and highest with best play from ``state``.

    Counted over :data:`CHANCE_GAMES` games seeded by the sheet, at the exact
    levels; ``None`` at the estimated ones (see the module's notes).

    >>> sheet = State("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1), (6, 6, 6, None) + (1, 1, 1, 1) + (3,) * 4)
    >>> finish_chances(sheet)[0]  # Alex ends on 18 or more: highest in every game
    (0.0, 0.0, 1.0)
    >>> finish_chances(State.new("expert", (1,) * 12)) is None
    True
    """
    if not LEVEL_ADVICE[state.level].exact:
        return None
    labels = tuple(v for v in state.labels if v is not None)
    if len(labels) != len(state.labels):
        raise AdviceError(describe("labels", list(state.labels), "every label set (finish the setup first)"))
    totals = optimal_totals(solve_layout(state.level, labels), CHANCE_GAMES, random.Random(_seed(state)), state)
    ranks = finish_ranks(totals)

    def shares(c: int) -> tuple[float, float, float]:
        low, middle, high = (float(np.mean(ranks[:, c] == place)) for place in range(3))
        return low, middle, high

    return shares(0), shares(1), shares(2)


def _about(p: float) -> int:
    """A measured chance in percent, to the nearest 5 (the count of games is not more precise in words)."""
    return 5 * round(20 * p)


def _caterpillar_reason(after: State, caterpillar: int) -> str | None:
    chances = finish_chances(after)
    if chances is None:
        return None
    low, middle, high = chances[caterpillar]
    for key, p in (("middle", middle), ("high", high), ("low", low)):
        if p >= LIKELY:
            return text(f"advice.reason.{key}", caterpillar=CATERPILLARS[caterpillar], percent=_about(p))
    return None


# -- zeros -----------------------------------------------------------------------


def _action_joins(state: State, roll: Roll) -> bool:
    """Whether the action die adds to the dice in play (a 10, a doubling, a bonus box's value)."""
    if roll.action in BONUS_FACES:
        return state.bonus[BONUS_FACES.index(roll.action)] is not None
    return roll.action in ("10", "2x")


def _zero_reasons(state: State, roll: Roll, move: Move, label: int) -> list[str]:
    if move.bonus is None:  # rule 4: no split of the whole roll reaches an empty label
        return [text("advice.reason.zero", caterpillar=move.caterpillar, label=label)]
    box, value = move.bonus
    rest = list(roll.dice)
    rest.remove(value)
    dice = (
        str(rest[0])
        if len(rest) == 1
        else text("caterpillars.list_and", items=", ".join(map(str, rest[:-1])), last=rest[-1])
    )
    key = "advice.reason.zero_bonus_action" if _action_joins(state, roll) else "advice.reason.zero_bonus"
    lines = [text(key, value=value, box=BONUS_BOXES[box], dice=dice, caterpillar=move.caterpillar, label=label)]
    if any(not m.zero and m.bonus is None for m in legal_moves(state, roll)):
        lines.append(text("advice.reason.zero_instead", value=value, box=BONUS_BOXES[box]))
    return lines


def reasons(state: State, roll: Roll, move: Move) -> tuple[str, ...]:
    """Why ``move``, the best move of ``roll``, is a sensible choice: the facts that are clear."""
    out = []
    label = state.labels[move.slot]
    assert label is not None
    if move.zero:
        out.extend(_zero_reasons(state, roll, move, label))
    else:
        line = _caterpillar_reason(apply(state, move), move.slot // BOXES)
        if line is not None:
            out.append(line)
    difficulty = label_difficulty(state.level, label)
    if difficulty == "hard" or (difficulty == "easy" and not move.zero):
        chance = label_chance(state.level, label)
        out.append(
            text(
                f"advice.reason.{difficulty}_label",
                label=label,
                fraction=chance,
                percent=_percent(chance),
                typical=_percent(typical_label_chance(state.level)),
            )
        )
    most = max((m.score for m in legal_moves(state, roll)), default=0)
    if not move.zero and move.score < most:
        out.append(text("advice.reason.small_score", score=move.score, most=most))
    if move.bonus is not None:
        box, value = move.bonus
        out.append(text("advice.reason.bonus", box=BONUS_BOXES[box], value=value, caterpillar=CATERPILLARS[box]))
    return tuple(out)


def exactness(state: State, exact: bool) -> str:
    """The sentence saying whether the values are exact (an estimated level's endgame is)."""
    if exact and not LEVEL_ADVICE[state.level].exact:
        return text("advice.exact.endgame")
    if exact:
        return text("advice.exact.yes")
    return text("advice.exact.no_action" if state.level.rules.action_die else "advice.exact.no")


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
    state: State, roll: Roll, move: Move, options: tuple[Option, ...], exact: bool, *, with_reasons: bool = True
) -> ChoiceExplanation:
    """:func:`explain_choice` on options already ranked (the review asks ``with_reasons=False``: numbers only)."""
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
        explained = chosen.move
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
        explained = best.move
    if with_reasons:
        lines.extend(reasons(state, roll, explained))
    lines.append(exactness(state, exact))
    return ChoiceExplanation(
        chosen.move, best.move, chosen.expected_final, best.expected_final, loss, exact, tuple(lines)
    )


def explain_choice(state: State, roll: Roll, move: Move) -> ChoiceExplanation:
    """The learner's ``move`` for ``roll``: its expected final, the best one's, the loss, why."""
    options, exact = rank_options(state, roll)
    return explain_options(state, roll, move, options, exact)


__all__ = [
    "CHANCE_GAMES",
    "EASY_RATIO",
    "FINISHES",
    "HARD_RATIO",
    "LIKELY",
    "ChoiceExplanation",
    "exactness",
    "explain_choice",
    "finish_chances",
    "finish_ranks",
    "label_chance",
    "label_difficulty",
    "move_text",
    "reasons",
    "typical_label_chance",
]
