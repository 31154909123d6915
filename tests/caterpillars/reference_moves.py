"""A straightforward legal-move generator written from the rule text alone.

It shares no code with the engine (beyond reading the state's fields), so the
tests can compare the two on many positions, and the move-generation
benchmark uses it as its baseline.  It returns the set of effects
``(slot, score, zero, bonus)`` with ``bonus`` ``None`` or ``(box, value)``.
"""

from __future__ import annotations

from itertools import product

Effect = tuple[int, int, bool, "tuple[int, int] | None"]

BONUS_LEVELS = {"advanced", "expert"}


def _splits(pool: list[int]) -> set[tuple[int, int]]:
    """(score, label) for every split of ``pool`` into two non-empty groups."""
    found = set()
    for sides in product((0, 1), repeat=len(pool)):
        if 0 < sum(sides) < len(pool):
            score = sum(v for v, side in zip(pool, sides) if side)
            label = sum(v for v, side in zip(pool, sides) if not side)
            found.add((score, label))
    return found


def reference_effects(level: str, labels, scores, bonus, dice, action) -> set[Effect]:
    empty = [slot for slot in range(12) if scores[slot] is None]
    choices: list[tuple[tuple[int, int] | None, list[int]]] = [(None, list(dice))]
    if level in BONUS_LEVELS:
        for i, die in enumerate(dice):
            for box in range(3):
                if bonus[box] is None:
                    choices.append(((box, die), list(dice[:i]) + list(dice[i + 1 :])))
    effects: set[Effect] = set()
    for choice, regular in choices:
        if action in ("A", "B", "C"):
            stored = bonus["ABC".index(action)]
            pools = [regular + [stored]] if stored is not None else [regular]
        elif action == "10":
            pools = [regular + [10]]
        elif action == "2x":
            pools = [regular[:j] + [2 * regular[j]] + regular[j + 1 :] for j in range(len(regular))]
        else:
            pools = [regular]
        placed = set()
        for pool in pools:
            for score, label in _splits(pool):
                for slot in empty:
                    if labels[slot] == label:
                        placed.add((slot, score, False, choice))
        if action == "butterfly":
            for slot in empty:
                placed.add((slot, sum(regular), False, choice))
        if placed:
            effects |= placed
        else:
            effects |= {(slot, 0, True, choice) for slot in empty}
    return effects
