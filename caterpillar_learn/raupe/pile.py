"""The pile and the hand: which sides may go on top, and how the pile is cut.

The top of the pile is the last :class:`Placed` card.  A side may go on it
when its caterpillar matches the top leaf in the current mode (shape or
colour); after a mistake is called, the pile is cut (:func:`cut_pile`).

>>> from caterpillar_learn.raupe.cards import parse_card, parse_side
>>> top = Placed(parse_card("round-red@jagged-green|jagged-red@round-yellow"), 0)
>>> print(top.face)
round-red@jagged-green
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from caterpillar_learn.errors import describe
from caterpillar_learn.raupe.cards import Card, Mode, Side
from caterpillar_learn.raupe.errors import IllegalEventError

__all__ = [
    "Placed",
    "PlayableSide",
    "choose_gift",
    "cut_pile",
    "draw_cuts",
    "playable_sides",
]


class PlayableSide(NamedTuple):
    """A card of a hand (by index) and the side (0 or 1) that may be played."""

    card: int
    side: int


@dataclass(frozen=True, slots=True)
class Placed:
    """A card on the pile and the side that faces up (0 for a butterfly)."""

    card: Card
    side: int = 0

    @property
    def face(self) -> Side | None:
        """The visible side, or None for a butterfly."""
        return self.card.sides[self.side] if self.card.sides else None


def playable_sides(
    hand: tuple[Card, ...] | list[Card],
    top: Side | None,
    mode: Mode,
    *,
    after_butterfly: bool = False,
) -> list[PlayableSide]:
    """Every side of ``hand`` that may go on ``top`` now.

    A butterfly goes on any caterpillar card, provided its player keeps a
    card to put on it (or it is their last card).  Right after one's own
    butterfly, any caterpillar or change card may follow, either side up.

    >>> from caterpillar_learn.raupe.cards import parse_hand, parse_side
    >>> hand = parse_hand("round-red@jagged-green|jagged-yellow@round-red;butterfly")
    >>> playable_sides(hand, parse_side("straight-red@round-green"), Mode.SHAPE)
    [PlayableSide(card=0, side=0), PlayableSide(card=1, side=0)]
    """
    options: list[PlayableSide] = []
    if after_butterfly:
        made = _options_for(len(hand))
        for index, card in enumerate(hand):
            if card.sides:
                options.extend(made[index])
        return options
    if top is None:
        return options
    wanted = top.leaf_key[mode]
    made = _options_for(len(hand))
    for index, card in enumerate(hand):
        if card.is_butterfly:
            if len(hand) == 1 or not all(other.is_butterfly for other in hand):
                options.append(made[index][0])
            continue
        front, back = card.caterpillars[mode]
        if front is wanted:
            options.append(made[index][0])
        if back is wanted:
            options.append(made[index][1])
    return options


# Options are built once: creating named tuples was the simulator's main cost.
_OPTIONS: list[tuple[PlayableSide, PlayableSide]] = []


def _options_for(size: int) -> list[tuple[PlayableSide, PlayableSide]]:
    while size > len(_OPTIONS):
        n = len(_OPTIONS)
        _OPTIONS.append((PlayableSide(n, 0), PlayableSide(n, 1)))
    return _OPTIONS


def cut_pile(pile: tuple[Placed, ...], depth: int) -> tuple[Placed, ...]:
    """Lift the top ``depth`` cards, turn them over as a block and put them back.

    The card that was ``depth``-th from the top now lies on top, showing its
    other side.

    >>> from caterpillar_learn.raupe.cards import BUTTERFLY, parse_card
    >>> a = parse_card("round-red@jagged-green|jagged-red@round-green")
    >>> pile = (Placed(a, 0), Placed(BUTTERFLY))
    >>> cut_pile(pile, 2)[-1] == Placed(a, 1)
    True
    """
    if not 1 <= depth <= len(pile):
        raise IllegalEventError(describe("cut depth", depth, f"1 to {len(pile)}"))
    lifted = pile[len(pile) - depth :]
    turned = tuple(Placed(p.card, 1 - p.side if p.card.sides else 0) for p in reversed(lifted))
    return pile[: len(pile) - depth] + turned


def draw_cuts(pile: tuple[Placed, ...], rng: random.Random) -> tuple[int, ...]:
    """Cut depths drawn uniformly until a caterpillar card shows (butterflies are cut again).

    >>> from caterpillar_learn.raupe.cards import BUTTERFLY, parse_card
    >>> a = parse_card("round-red@jagged-green|jagged-red@round-green")
    >>> cuts = draw_cuts((Placed(a, 0), Placed(BUTTERFLY), Placed(BUTTERFLY)), random.Random(4))
    >>> all(1 <= depth <= 3 for depth in cuts)
    True
    """
    cuts = []
    while True:
        depth = rng.randint(1, len(pile))
        cuts.append(depth)
        pile = cut_pile(pile, depth)
        if pile[-1].card.sides:
            return tuple(cuts)


def choose_gift(hand: tuple[Card, ...], count: int) -> tuple[int, ...]:
    """Which cards (indices) a player hands over as a penalty.

    The giver keeps butterflies and change cards as long as possible and
    otherwise gives the cards at the end of their hand.

    >>> from caterpillar_learn.raupe.cards import parse_hand
    >>> hand = parse_hand("butterfly;jagged-red@round-green|round-red@jagged-green;"
    ...                   "round-red@jagged-green+sky|jagged-red@round-green+sky")
    >>> choose_gift(hand, 2)
    (1, 2)
    """

    def keep_value(index: int) -> tuple[int, int]:
        card = hand[index]
        return (2 if card.is_butterfly else 1 if card.is_change else 0, -index)

    return tuple(sorted(sorted(range(len(hand)), key=keep_value)[:count]))
