"""Cards of Räuber Raupe: sides, caterpillar cards, change cards, butterflies.

Every caterpillar card is printed on both sides.  A side shows a caterpillar
(shape and colour) sitting on a leaf (shape and colour); some leaves carry an
aphid, and the sides of a change card have a blue sky.  A butterfly is a joker
without sides.

Notation, used by the command line, deck files and event logs:

* a side is ``<shape>-<colour>@<leafshape>-<leafcolour>`` with optional
  ``+aphid`` and ``+sky`` suffixes, e.g. ``round-red@jagged-green+aphid``;
* a caterpillar or change card is ``SIDE|SIDE``;
* a butterfly is ``butterfly``.

>>> card = parse_card("round-red@jagged-green+aphid|straight-yellow@round-red")
>>> card.sides[0].aphid, card.is_change
(True, False)
>>> format_card(card)
'round-red@jagged-green+aphid|straight-yellow@round-red'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum

from caterpillar_learn.errors import describe
from caterpillar_learn.raupe.errors import NotationError

__all__ = [
    "BUTTERFLY",
    "Card",
    "Colour",
    "Mode",
    "Shape",
    "Side",
    "format_card",
    "format_hand",
    "format_side",
    "parse_card",
    "parse_hand",
    "parse_mode",
    "parse_side",
]

#: The rulebook calls the first shape both "square" and "jagged"; both are read.
SHAPE_ALIASES = {"square": "jagged"}
BUTTERFLY_NAME = "butterfly"
APHID_MARK = "aphid"
SKY_MARK = "sky"


class Shape(Enum):
    """The three shapes of caterpillars and leaves."""

    JAGGED = "jagged"
    STRAIGHT = "straight"
    ROUND = "round"


class Colour(Enum):
    """The three colours of caterpillars and leaves."""

    GREEN = "green"
    RED = "red"
    YELLOW = "yellow"


class Mode(IntEnum):
    """What must match: the caterpillar's shape or its colour (the index into a key pair)."""

    SHAPE = 0
    COLOUR = 1

    @property
    def other(self) -> Mode:
        """The mode a change card switches to.

        >>> Mode.SHAPE.other
        <Mode.COLOUR: 1>
        """
        return Mode.COLOUR if self is Mode.SHAPE else Mode.SHAPE

    @property
    def word(self) -> str:
        """The lower-case name used in notation and JSON: ``shape`` or ``colour``."""
        return "shape" if self is Mode.SHAPE else "colour"


@dataclass(frozen=True, slots=True)
class Side:
    """One printed side: a caterpillar on a leaf, maybe an aphid, maybe a blue sky."""

    shape: Shape
    colour: Colour
    leaf_shape: Shape
    leaf_colour: Colour
    aphid: bool = False
    sky: bool = False
    # (shape, colour) pairs indexed by Mode, precomputed because matching is the hot path.
    caterpillar_key: tuple[Shape, Colour] = field(init=False, repr=False, compare=False)
    leaf_key: tuple[Shape, Colour] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "caterpillar_key", (self.shape, self.colour))
        object.__setattr__(self, "leaf_key", (self.leaf_shape, self.leaf_colour))

    def can_follow(self, top: Side, mode: Mode) -> bool:
        """Whether this side's caterpillar matches the leaf of ``top`` in ``mode``.

        >>> top = parse_side("round-red@jagged-green")
        >>> parse_side("jagged-yellow@round-red").can_follow(top, Mode.SHAPE)
        True
        >>> parse_side("jagged-yellow@round-red").can_follow(top, Mode.COLOUR)
        False
        """
        return self.caterpillar_key[mode] is top.leaf_key[mode]

    def __str__(self) -> str:
        return format_side(self)


@dataclass(frozen=True, slots=True)
class Card:
    """A caterpillar or change card (two sides) or a butterfly (no sides)."""

    sides: tuple[Side, ...] = ()
    #: Whether the card is a butterfly (a joker).
    is_butterfly: bool = field(init=False, repr=False, compare=False)
    #: Whether the card is a change card (both sides have a blue sky).
    is_change: bool = field(init=False, repr=False, compare=False)
    #: ``caterpillars[mode]`` is the pair of side traits in that mode (empty for a butterfly).
    caterpillars: tuple[tuple[Shape | Colour, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.sides) not in (0, 2):
            raise NotationError(describe("card sides", len(self.sides), "2 (or 0 for a butterfly)"))
        if self.sides and self.sides[0].sky != self.sides[1].sky:
            raise NotationError(describe("card", format_card(self), "+sky on both sides (a change card) or on none"))
        object.__setattr__(self, "is_butterfly", not self.sides)
        object.__setattr__(self, "is_change", bool(self.sides) and self.sides[0].sky)
        object.__setattr__(
            self,
            "caterpillars",
            tuple(tuple(side.caterpillar_key[mode] for side in self.sides) for mode in Mode),
        )

    def __str__(self) -> str:
        return format_card(self)


#: The butterfly card; all butterflies are equal.
BUTTERFLY = Card()


def _text(notation: object, field_name: str, expected: str = "a string in card notation") -> str:
    """``notation`` stripped, if it is a string at all (JSON may hold anything)."""
    if not isinstance(notation, str):
        raise NotationError(describe(field_name, notation, expected))
    return notation.strip()


def _parse_trait(enum: type[Shape] | type[Colour], word: str, field_name: str) -> Shape | Colour:
    word = SHAPE_ALIASES.get(word, word) if enum is Shape else word
    try:
        return enum(word)
    except ValueError:
        choices = " or ".join(member.value for member in enum)
        raise NotationError(describe(field_name, word, choices)) from None


def parse_side(notation: str) -> Side:
    """Read a side written as ``<shape>-<colour>@<leafshape>-<leafcolour>[+aphid][+sky]``.

    >>> parse_side("round-red@jagged-green+aphid")
    Side(shape=<Shape.ROUND: 'round'>, colour=<Colour.RED: 'red'>, \
leaf_shape=<Shape.JAGGED: 'jagged'>, leaf_colour=<Colour.GREEN: 'green'>, aphid=True, sky=False)
    >>> parse_side("round-blue@jagged-green")
    Traceback (most recent call last):
    ...
    caterpillar_learn.raupe.errors.NotationError: caterpillar colour: got 'blue', \
expected green or red or yellow
    """
    text = _text(notation, "side").lower()
    body, *marks = text.split("+")
    for mark in marks:
        if mark not in (APHID_MARK, SKY_MARK) or marks.count(mark) > 1:
            raise NotationError(describe("side mark", mark, "+aphid or +sky, each at most once"))
    caterpillar, at, leaf = body.partition("@")
    parts = [caterpillar.partition("-"), leaf.partition("-")]
    if not at or any(not dash or not a or not b for a, dash, b in parts):
        raise NotationError(describe("side", notation, "<shape>-<colour>@<leafshape>-<leafcolour>[+aphid][+sky]"))
    (shape, _, colour), (leaf_shape, _, leaf_colour) = parts
    return Side(
        shape=_parse_trait(Shape, shape, "caterpillar shape"),  # type: ignore[arg-type]
        colour=_parse_trait(Colour, colour, "caterpillar colour"),  # type: ignore[arg-type]
        leaf_shape=_parse_trait(Shape, leaf_shape, "leaf shape"),  # type: ignore[arg-type]
        leaf_colour=_parse_trait(Colour, leaf_colour, "leaf colour"),  # type: ignore[arg-type]
        aphid=APHID_MARK in marks,
        sky=SKY_MARK in marks,
    )


def format_side(side: Side) -> str:
    """Write a side in notation (the inverse of :func:`parse_side`).

    >>> format_side(parse_side("straight-green@round-yellow+sky+aphid"))
    'straight-green@round-yellow+aphid+sky'
    """
    marks = ("+" + APHID_MARK if side.aphid else "") + ("+" + SKY_MARK if side.sky else "")
    return f"{side.shape.value}-{side.colour.value}@{side.leaf_shape.value}-{side.leaf_colour.value}{marks}"


def parse_card(notation: str) -> Card:
    """Read a card: ``SIDE|SIDE`` or ``butterfly``.

    >>> parse_card("butterfly").is_butterfly
    True
    >>> parse_card("round-red@jagged-green+sky|jagged-green@straight-red+sky").is_change
    True
    >>> parse_card("round-red@jagged-green")
    Traceback (most recent call last):
    ...
    caterpillar_learn.raupe.errors.NotationError: card: got 'round-red@jagged-green', \
expected SIDE|SIDE or butterfly
    """
    text = _text(notation, "card").lower()
    if text == BUTTERFLY_NAME:
        return BUTTERFLY
    halves = text.split("|")
    if len(halves) != 2:
        raise NotationError(describe("card", notation.strip(), "SIDE|SIDE or butterfly"))
    return Card((parse_side(halves[0]), parse_side(halves[1])))


def format_card(card: Card) -> str:
    """Write a card in notation (the inverse of :func:`parse_card`).

    >>> format_card(parse_card(" Butterfly "))
    'butterfly'
    """
    if not card.sides:
        return BUTTERFLY_NAME
    return "|".join(format_side(side) for side in card.sides)


def parse_hand(notation: str) -> tuple[Card, ...]:
    """Read cards separated by ``;`` (empty entries are skipped).

    >>> len(parse_hand("butterfly; round-red@jagged-green|jagged-red@round-yellow;"))
    2
    """
    cards = []
    for number, part in enumerate(_text(notation, "hand").split(";"), start=1):
        if not part.strip():
            continue
        try:
            cards.append(parse_card(part))
        except NotationError as error:
            raise NotationError(f"hand card {number}: {error}") from None
    return tuple(cards)


def format_hand(cards: tuple[Card, ...] | list[Card]) -> str:
    """Write cards separated by ``;`` (the inverse of :func:`parse_hand`).

    >>> format_hand([BUTTERFLY, BUTTERFLY])
    'butterfly;butterfly'
    """
    return ";".join(format_card(card) for card in cards)


def parse_mode(word: str) -> Mode:
    """Read a mode: ``shape`` or ``colour`` (``color`` is accepted too).

    >>> parse_mode("Colour")
    <Mode.COLOUR: 1>
    """
    cleaned = _text(word, "mode", "shape or colour").lower()
    if cleaned == "shape":
        return Mode.SHAPE
    if cleaned in ("colour", "color"):
        return Mode.COLOUR
    raise NotationError(describe("mode", word, "shape or colour"))
