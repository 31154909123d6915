"""The scoresheet: three caterpillars of four boxes, their labels, the bonus boxes.

A :class:`State` is immutable.  Its twelve score boxes are kept in one flat
tuple, Alex's four first, then Bobby's, then Charlie's: box ``b`` of
caterpillar ``c`` is *slot* ``4 * c + b``.  A label or score of ``None`` is
blank.

>>> state = State.new("beginner")
>>> state.labels_of("Alex")
(1, None, 6, None)
>>> state.round, state.is_setup_done, state.is_complete
(1, False, False)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from caterpillar_learn.caterpillars.errors import InvalidStateError
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.errors import describe

CATERPILLARS = ("Alex", "Bobby", "Charlie")
#: Each caterpillar's colour on the printed sheet.
COLOURS = {"Alex": "green", "Bobby": "blue", "Charlie": "purple"}
#: Bonus box linked to each caterpillar (A to Alex, B to Bobby, C to Charlie).
BONUS_BOXES = ("A", "B", "C")
BOXES = 4
SLOTS = BOXES * len(CATERPILLARS)
ROUNDS = SLOTS
#: Values a label can take: a die (1-6) or, with the setup variation, two dice (2-12).
LABEL_VALUES = range(1, 13)
#: Values a bonus box can take: one regular die's face.
BONUS_VALUES = range(1, 7)

#: The default pre-printed layout (rule decision 1, docs/RULES.md): every
#: caterpillar has one low (1 or 2) and one high (5 or 6) printed label, the
#: other two boxes are blank until setup.
DEFAULT_LABELS: tuple[int | None, ...] = (
    1, None, 6, None,
    None, 2, None, 5,
    5, None, 2, None,
)  # fmt: skip

Labels = tuple[int | None, ...]
Scores = tuple[int | None, ...]
Bonus = tuple[int | None, int | None, int | None]


def slot_of(caterpillar: str | int, box: int) -> int:
    """The flat slot index of ``box`` (0-3) of ``caterpillar`` (name or index).

    >>> slot_of("Bobby", 2)
    6
    """
    index = caterpillar_index(caterpillar)
    if not isinstance(box, int) or isinstance(box, bool) or not 0 <= box < BOXES:
        raise InvalidStateError(describe("box", box, "a box number from 0 to 3"))
    return BOXES * index + box


def caterpillar_index(caterpillar: str | int) -> int:
    """0, 1 or 2 for Alex, Bobby or Charlie."""
    if isinstance(caterpillar, int) and not isinstance(caterpillar, bool):
        if 0 <= caterpillar < len(CATERPILLARS):
            return caterpillar
    elif caterpillar in CATERPILLARS:
        return CATERPILLARS.index(caterpillar)
    raise InvalidStateError(describe("caterpillar", caterpillar, "'Alex', 'Bobby' or 'Charlie'"))


def describe_slot(slot: int) -> tuple[str, int]:
    """``(caterpillar name, box)`` of a flat slot.

    >>> describe_slot(9)
    ('Charlie', 1)
    """
    return CATERPILLARS[slot // BOXES], slot % BOXES


@dataclass(frozen=True)
class State:
    """One player's sheet between rounds (or during setup)."""

    level: Level
    labels: Labels
    scores: Scores = (None,) * SLOTS
    bonus: Bonus = (None, None, None)

    def __post_init__(self) -> None:
        if not isinstance(self.level, Level):  # accept "beginner" as well as Level.BEGINNER
            object.__setattr__(self, "level", Level.parse(self.level))

    @classmethod
    def new(cls, level: Level | str, labels: Sequence[int | None] = DEFAULT_LABELS) -> State:
        """A blank sheet with the given label layout (``None`` for a blank label)."""
        labels = tuple(labels)
        if len(labels) != SLOTS:
            raise InvalidStateError(describe("labels", labels, f"{SLOTS} labels"))
        return cls(Level.parse(level), labels)

    # -- reading the sheet ---------------------------------------------------
    def labels_of(self, caterpillar: str | int) -> Labels:
        start = BOXES * caterpillar_index(caterpillar)
        return self.labels[start : start + BOXES]

    def scores_of(self, caterpillar: str | int) -> Scores:
        start = BOXES * caterpillar_index(caterpillar)
        return self.scores[start : start + BOXES]

    @property
    def totals(self) -> tuple[int, int, int]:
        """Sum of the filled boxes of each caterpillar (an empty box counts 0)."""
        s = [v or 0 for v in self.scores]
        return (sum(s[0:4]), sum(s[4:8]), sum(s[8:12]))

    @property
    def filled(self) -> int:
        return sum(v is not None for v in self.scores)

    @property
    def round(self) -> int:
        """The round about to be played, 1 to 12 (13 once the sheet is full)."""
        return self.filled + 1

    @property
    def is_setup_done(self) -> bool:
        return None not in self.labels

    @property
    def is_complete(self) -> bool:
        return None not in self.scores

    def empty_slots(self) -> Iterator[int]:
        return (i for i, v in enumerate(self.scores) if v is None)

    def blank_label_slots(self) -> list[int]:
        return [i for i, v in enumerate(self.labels) if v is None]

    # -- pure updates (the rules modules decide whether they are allowed) ---
    def with_score(self, slot: int, score: int) -> State:
        scores = list(self.scores)
        scores[slot] = score
        return replace(self, scores=tuple(scores))

    def with_bonus(self, box: int, value: int) -> State:
        bonus = list(self.bonus)
        bonus[box] = value
        return replace(self, bonus=(bonus[0], bonus[1], bonus[2]))

    def with_labels(self, assignments: Sequence[tuple[int, int]]) -> State:
        labels = list(self.labels)
        for slot, value in assignments:
            labels[slot] = value
        return replace(self, labels=tuple(labels))

    def _repr_svg_(self) -> str:
        from caterpillar_learn.caterpillars.svg import sheet_svg  # lazy: rendering is optional

        return sheet_svg(self)
