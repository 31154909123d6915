"""Final scoring: the caterpillar with the median total flies.

Strike out the highest and the lowest total; the one left flies.  Its total,
plus its linked bonus box at Advanced and Expert, is the final score.  When
totals tie the player chooses what to strike out; the engine models that
choice as the best one, the tied caterpillar with the higher bonus (rule
decision 6 in docs/RULES.md).  Between players, the higher total of all
twelve boxes breaks a tie.

>>> from caterpillar_learn.caterpillars.sheet import State
>>> state = State("advanced", (1,) * 12, (3, 3, 4, 4, 1, 1, 1, 1, 6, 6, 6, 6), (5, None, None))
>>> result = score(state)
>>> result.flying, result.final
('Alex', 19)
>>> print("\\n".join(result.explanation))
Totals: Alex 14, Bobby 4, Charlie 24.
Charlie has the highest total (24) and is struck out.
Bobby has the lowest total (4) and is struck out.
Alex has the median total (14) and flies.
Bonus box A holds 5, so the bonus is 5.
Final score: 14 + bonus 5 = 19.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.sheet import BONUS_BOXES, CATERPILLARS, State
from caterpillar_learn.i18n import text


@dataclass(frozen=True)
class Score:
    """The scoring of one sheet, with the explanation a learner reads."""

    totals: tuple[int, int, int]
    flying: str
    bonus: int
    final: int
    all_boxes: int
    complete: bool
    explanation: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "totals": dict(zip(CATERPILLARS, self.totals)),
            "flying": self.flying,
            "bonus": self.bonus,
            "final": self.final,
            "all_boxes": self.all_boxes,
            "complete": self.complete,
            "explanation": list(self.explanation),
        }


def _names(indices: list[int]) -> str:
    names = [CATERPILLARS[i] for i in indices]
    if len(names) == 1:
        return names[0]
    return text("caterpillars.list_and", items=", ".join(names[:-1]), last=names[-1])


def flying_caterpillar(totals: tuple[int, int, int], bonus: tuple[int, int, int]) -> int:
    """Index of the caterpillar that flies: the median total, ties broken by bonus.

    >>> flying_caterpillar((10, 10, 15), (0, 4, 0))
    1
    """
    median = sorted(totals)[1]
    tied = [i for i in range(3) if totals[i] == median]
    return max(tied, key=lambda i: (bonus[i], -i))


def score(state: State) -> Score:
    """Score ``state``; an incomplete sheet is scored as it stands (empty boxes count 0)."""
    level = Level.parse(state.level)
    totals = state.totals
    uses_bonus = level.rules.bonus_boxes
    bonus_values = tuple(v or 0 for v in state.bonus) if uses_bonus else (0, 0, 0)
    bonus = (bonus_values[0], bonus_values[1], bonus_values[2])
    flying = flying_caterpillar(totals, bonus)
    median = totals[flying]
    lines = []
    if not state.is_complete:
        lines.append(text("caterpillars.score.incomplete", empty=12 - state.filled))
    lines.append(
        text(
            "caterpillars.score.totals",
            totals=", ".join(f"{name} {t}" for name, t in zip(CATERPILLARS, totals)),
        )
    )
    tied = [i for i in range(3) if totals[i] == median]
    if len(tied) > 1:
        key = "caterpillars.score.tie_bonus" if uses_bonus else "caterpillars.score.tie"
        lines.append(text(key, names=_names(tied), total=median, flying=CATERPILLARS[flying], bonus=bonus[flying]))
    for i in sorted((i for i in range(3) if i != flying), key=lambda i: -totals[i]):
        key = {1: "highest", -1: "lowest", 0: "struck_tied"}[(totals[i] > median) - (totals[i] < median)]
        lines.append(text(f"caterpillars.score.{key}", name=CATERPILLARS[i], total=totals[i]))
    lines.append(text("caterpillars.score.flying", name=CATERPILLARS[flying], total=median))
    if uses_bonus:
        box = BONUS_BOXES[flying]
        if state.bonus[flying] is None:
            lines.append(text("caterpillars.score.bonus_empty", box=box))
        else:
            lines.append(text("caterpillars.score.bonus", box=box, value=bonus[flying]))
        lines.append(text("caterpillars.score.final", total=median, bonus=bonus[flying], final=median + bonus[flying]))
    else:
        lines.append(text("caterpillars.score.final_no_bonus", final=median))
    return Score(
        totals=totals,
        flying=CATERPILLARS[flying],
        bonus=bonus[flying],
        final=median + bonus[flying],
        all_boxes=sum(totals),
        complete=state.is_complete,
        explanation=tuple(lines),
    )


@dataclass(frozen=True)
class Standing:
    """One player's place in a ranking (equal places for a full tie)."""

    place: int
    player: str
    final: int
    all_boxes: int


def rank(players: Mapping[str, State]) -> list[Standing]:
    """Rank players by final score, then by the total of all twelve boxes.

    >>> from caterpillar_learn.caterpillars.sheet import State
    >>> a = State("beginner", (1,) * 12, (2, 2, 2, 2, 1, 1, 1, 1, 6, 6, 6, 6))
    >>> b = State("beginner", (1,) * 12, (2, 2, 2, 2, 1, 1, 1, 1, 3, 3, 3, 3))
    >>> [(s.place, s.player) for s in rank({"Ada": b, "Ben": a})]
    [(1, 'Ben'), (2, 'Ada')]
    """
    scored = sorted(
        ((score(state), name) for name, state in players.items()),
        key=lambda item: (-item[0].final, -item[0].all_boxes, item[1]),
    )
    standings: list[Standing] = []
    for position, (result, name) in enumerate(scored, start=1):
        place = position
        if standings and (standings[-1].final, standings[-1].all_boxes) == (result.final, result.all_boxes):
            place = standings[-1].place
        standings.append(Standing(place, name, result.final, result.all_boxes))
    return standings
