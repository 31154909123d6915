"""Setup: writing rolled values onto the blank labels before play.

Two ways, both with three regular dice per roll, shared by all players:

* **standard**: each of the three values goes onto a blank label of the
  player's choice (two rolls fill the six blanks);
* **variation** (Intermediate and up): one die's value goes onto one blank
  label and the sum of the other two onto another (three rolls).

>>> from caterpillar_learn.caterpillars.sheet import State
>>> state = State.new("intermediate")
>>> len(setup_choices(state, (2, 3, 6))), rolls_needed(state)
(120, 2)
>>> choice = SetupChoice.of(("Alex", 1, 2), ("Bobby", 0, 9))
>>> choice in setup_choices(state, (2, 3, 6), variation=True)
True
>>> apply_setup(state, choice).labels_of("Bobby")
(9, 2, None, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations

from caterpillar_learn.caterpillars.errors import IllegalMoveError
from caterpillar_learn.caterpillars.sheet import State, describe_slot, slot_of
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text

SETUP_DICE = 3
#: Labels written per roll: three in the standard setup, two in the variation.
LABELS_PER_ROLL = {False: 3, True: 2}


@dataclass(frozen=True)
class SetupChoice:
    """Which blank labels receive which values, sorted by slot."""

    assignments: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, *entries: tuple[str, int, int]) -> SetupChoice:
        """From ``(caterpillar, box, value)`` triples."""
        return cls(tuple(sorted((slot_of(c, b), v) for c, b, v in entries)))

    def explain(self) -> str:
        parts = []
        for slot, value in self.assignments:
            name, box = describe_slot(slot)
            parts.append(text("caterpillars.setup.assign", value=value, caterpillar=name, number=box + 1))
        return " ".join(parts)

    def __repr__(self) -> str:
        return (
            "SetupChoice("
            + ", ".join(f"{describe_slot(s)[0]} {describe_slot(s)[1]} ← {v}" for s, v in self.assignments)
            + ")"
        )


def _check_variation(state: State, variation: bool) -> None:
    if variation and not state.level.rules.setup_variation:
        raise IllegalMoveError(describe("setup variation", state.level.value, "intermediate, advanced or expert"))


def rolls_needed(state: State, variation: bool = False) -> int:
    """How many setup rolls are left to fill every blank label."""
    per_roll = LABELS_PER_ROLL[variation]
    return -(-len(state.blank_label_slots()) // per_roll)


def setup_choices(state: State, dice: tuple[int, ...], variation: bool = False) -> list[SetupChoice]:
    """Every distinct way to write one setup roll onto the blank labels."""
    _check_variation(state, variation)
    if len(dice) != SETUP_DICE or any(d not in range(1, 7) for d in dice):
        raise IllegalMoveError(describe("setup roll", list(dice), "three dice from 1 to 6"))
    blanks = state.blank_label_slots()
    if not blanks:
        return []
    groups: list[tuple[int, ...]] = []
    if variation:
        for die in dice:
            rest = sum(dice) - die
            groups.append((die, rest) if len(blanks) >= 2 else (die,))
            if len(blanks) < 2:
                groups.append((rest,))
    else:
        take = min(SETUP_DICE, len(blanks))
        groups.extend(tuple(dice[i] for i in picked) for picked in combinations(range(SETUP_DICE), take))
    seen: dict[tuple[tuple[int, int], ...], None] = {}
    for values in groups:
        for slots in permutations(blanks, len(values)):
            seen[tuple(sorted(zip(slots, values)))] = None
    return [SetupChoice(key) for key in seen]


def apply_setup(
    state: State, choice: SetupChoice, dice: tuple[int, ...] | None = None, variation: bool = False
) -> State:
    """The state with ``choice``'s labels written; with ``dice`` it must be legal for them."""
    if dice is not None and choice not in setup_choices(state, dice, variation):
        raise IllegalMoveError(describe("setup choice", choice, f"a legal choice for the dice {list(dice)}"))
    for slot, value in choice.assignments:
        if state.labels[slot] is not None:
            name, box = describe_slot(slot)
            raise IllegalMoveError(describe(f"label of {name} box {box}", state.labels[slot], "a blank label"))
        if not 1 <= value <= 12:
            raise IllegalMoveError(describe("setup value", value, "a label from 1 to 12"))
    return state.with_labels(choice.assignments)
