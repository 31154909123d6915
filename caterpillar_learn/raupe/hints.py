"""Hints for a learner: which sides may go now, and a little strategy.

Two strategy rules are taught:

* keep the butterfly for a dead end (no side of your hand matches);
* play a change card when the other mode, starting from the change card's
  leaf, matches more of your hand than the current mode does now.

Every sentence comes from the message catalogue (``raupe.*`` keys).

>>> from caterpillar_learn.raupe.cards import parse_hand, parse_side
>>> hand = parse_hand("butterfly;round-red@jagged-green|jagged-yellow@round-red")
>>> print(strategy_hint(hand, parse_side("straight-red@straight-green"), Mode.SHAPE))
No caterpillar of yours fits: this is the dead end your butterfly was kept for.
"""

from __future__ import annotations

from typing import NamedTuple

from caterpillar_learn.i18n import text
from caterpillar_learn.raupe.cards import Card, Mode, Side
from caterpillar_learn.raupe.referee import (
    Mistake,
    Penalty,
    PlayableSide,
    State,
    legal_plays,
    playable_sides,
)

__all__ = [
    "ChangeAdvice",
    "aphid_text",
    "call_text",
    "change_advice",
    "describe_side",
    "explain_mistake",
    "mode_name",
    "penalty_text",
    "playable_hint",
    "strategy_hint",
    "trait_name",
    "winner_text",
]


class ChangeAdvice(NamedTuple):
    """How many hand cards fit now, and how many would fit after a change card."""

    option: PlayableSide
    now: int
    after: int


def _fitting(hand: tuple[Card, ...], skip: int, leaf: Side, mode: Mode) -> int:
    wanted = leaf.leaf_key[mode]
    count = 0
    for card in hand:
        if wanted in card.caterpillars[mode]:
            count += 1
    return count - (wanted in hand[skip].caterpillars[mode])


def change_advice(
    hand: tuple[Card, ...], top: Side, mode: Mode, options: list[PlayableSide] | None = None
) -> ChangeAdvice | None:
    """The best playable change-card side, if the other mode would then fit more cards.

    ``now`` counts hand cards (other than the change card) that fit ``top``
    in ``mode``; ``after`` counts those that would fit the change card's leaf
    in the other mode.

    >>> from caterpillar_learn.raupe.cards import parse_hand, parse_side
    >>> hand = parse_hand("round-red@jagged-green+sky|jagged-red@round-green+sky;"
    ...                   "jagged-green@round-red|straight-yellow@round-red;"
    ...                   "round-green@round-red|straight-yellow@jagged-red")
    >>> change_advice(hand, parse_side("straight-red@round-yellow"), Mode.SHAPE)
    ChangeAdvice(option=PlayableSide(card=0, side=0), now=1, after=2)
    """
    if options is None:
        options = playable_sides(hand, top, mode)
    best: ChangeAdvice | None = None
    for option in options:
        card = hand[option.card]
        if not card.is_change:
            continue
        now = _fitting(hand, option.card, top, mode)
        after = _fitting(hand, option.card, card.sides[option.side], mode.other)
        if after > now and (best is None or after - now > best.after - best.now):
            best = ChangeAdvice(option, now, after)
    return best


def mode_name(mode: Mode) -> str:
    """The learner-facing name of a mode.

    >>> mode_name(Mode.COLOUR)
    'Colour'
    """
    return text(f"raupe.mode.{mode.word}")


def call_text(mode: Mode) -> str:
    """What a player shouts to announce ``mode``.

    >>> call_text(Mode.SHAPE)
    'Shape!'
    """
    return text(f"raupe.call.{mode.word}")


def aphid_text() -> str:
    """What a player shouts when the card below has an aphid.

    >>> aphid_text()
    'Aphid!'
    """
    return text("raupe.call.aphid")


def trait_name(value: str) -> str:
    """A shape's or a colour's name in the current language (``"round"``, ``"rund"``).

    >>> trait_name("jagged")
    'jagged'
    """
    return text(f"raupe.trait.{value}")


def describe_side(side: Side) -> str:
    """A side in words.

    >>> from caterpillar_learn.raupe.cards import parse_side
    >>> describe_side(parse_side("round-red@jagged-green+aphid"))
    'a round red caterpillar on a jagged green leaf with an aphid'
    """
    key = "raupe.side.aphid" if side.aphid else "raupe.side.plain"
    words = text(
        key,
        shape=trait_name(side.shape.value),
        colour=trait_name(side.colour.value),
        leaf_shape=trait_name(side.leaf_shape.value),
        leaf_colour=trait_name(side.leaf_colour.value),
    )
    return words + (text("raupe.side.sky") if side.sky else "")


def fit_reason(card: Card, side: int, top: Side | None, mode: Mode) -> str:
    """Why ``card`` (``side`` up) fits on ``top`` in ``mode``, or why not (the rule of matching, in words).

    >>> from caterpillar_learn.raupe.cards import parse_card, parse_side
    >>> top = parse_side("round-red@jagged-green")
    >>> fit_reason(parse_card("jagged-yellow@round-red|round-yellow@round-red"), 0, top, Mode.SHAPE)
    'its jagged caterpillar matches the jagged leaf on the pile'
    >>> fit_reason(parse_card("jagged-yellow@round-red|round-yellow@round-red"), 1, top, Mode.COLOUR)
    'its caterpillar is yellow, but the leaf on the pile is green'
    """
    if card.is_butterfly or top is None:
        return text("raupe.fit.butterfly")
    mine, leaf = card.sides[side].caterpillar_key[mode].value, top.leaf_key[mode].value
    if mine == leaf:
        return text("raupe.fit.yes", trait=trait_name(mine))
    return text("raupe.fit.no", mine=trait_name(mine), leaf=trait_name(leaf))


def playable_hint(state: State, seat: int) -> list[str]:
    """One sentence per card side ``seat`` may play now (card numbers count from 1).

    >>> import random
    >>> from caterpillar_learn.raupe.referee import deal
    >>> hints = playable_hint(deal(2, random.Random(5)), 0)
    >>> hints[-1]
    'Card 37: the butterfly (a joker).'
    """
    hand = state.hands[seat]
    lines = []
    for option in legal_plays(state, seat):
        card = hand[option.card]
        if card.is_butterfly:
            lines.append(text("raupe.hint.butterfly_option", number=option.card + 1))
        else:
            lines.append(
                text(
                    "raupe.hint.side_option",
                    number=option.card + 1,
                    side=option.side + 1,
                    words=describe_side(card.sides[option.side]),
                )
            )
    if not lines:
        lines.append(text("raupe.hint.nothing"))
    return lines


def strategy_hint(hand: tuple[Card, ...], top: Side, mode: Mode, *, after_butterfly: bool = False) -> str:
    """One strategy sentence for ``hand`` facing ``top`` in ``mode``.

    >>> from caterpillar_learn.raupe.cards import parse_hand, parse_side
    >>> hand = parse_hand("butterfly;round-red@jagged-green|jagged-yellow@round-red")
    >>> print(strategy_hint(hand, parse_side("straight-red@round-green"), Mode.SHAPE))
    A caterpillar of yours fits: keep the butterfly for a dead end.
    """
    if after_butterfly:
        return text("raupe.strategy.after_butterfly")
    options = playable_sides(hand, top, mode)
    advice = change_advice(hand, top, mode, options)
    if advice is not None:
        return text(
            "raupe.strategy.play_change",
            number=advice.option.card + 1,
            other=mode_name(mode.other),
            after=advice.after,
            now=advice.now,
        )
    caterpillars = [o for o in options if hand[o.card].sides]
    has_butterfly = any(card.is_butterfly for card in hand)
    if caterpillars:
        if has_butterfly:
            return text("raupe.strategy.keep_butterfly")
        return text("raupe.strategy.play_any", count=len(caterpillars))
    if has_butterfly:
        return text("raupe.strategy.use_butterfly")
    return text("raupe.strategy.wait")


def explain_mistake(mistake: Mistake) -> str:
    """Why a call for ``mistake`` is right.

    >>> explain_mistake(Mistake.MISSING_APHID)
    'The card below had an aphid, and nobody shouted "Aphid!".'
    """
    return text(f"raupe.mistake.{mistake.value}")


def winner_text(winners: tuple[int, ...], *, stalemate: bool) -> str:
    """The end-of-game sentence (seats are shown counting from 1).

    >>> winner_text((1,), stalemate=False)
    'Player 2 has no cards left and wins!'
    >>> winner_text((0, 2), stalemate=True)
    'Nobody can play any more. Fewest cards: players 1 and 3 win together.'
    """
    names = [str(seat + 1) for seat in winners]
    if len(names) == 1:
        key = "raupe.end.stalemate_one" if stalemate else "raupe.end.empty_hand"
        return text(key, player=names[0])
    joined = text("raupe.end.and").join([", ".join(names[:-1]), names[-1]])
    return text("raupe.end.stalemate_many", players=joined)


def penalty_text(penalty: Penalty) -> str:
    """What happened at a call, for the learner (seats are shown counting from 1).

    >>> from caterpillar_learn.raupe.referee import Penalty
    >>> penalty = Penalty(0, 1, True, (Mistake.MISSING_APHID,), 0, 1, ())
    >>> print(penalty_text(penalty).replace(". ", ".\\n"))
    Player 1 was right: player 2 takes 0 of player 1's cards.
    The card below had an aphid, and nobody shouted "Aphid!".
    """
    if penalty.right:
        reasons = " ".join(explain_mistake(mistake) for mistake in penalty.mistakes)
        summary = text(
            "raupe.call.right",
            caller=penalty.caller + 1,
            offender=penalty.accused + 1,
            count=len(penalty.cards),
        )
        return f"{summary} {reasons}"
    return text(
        "raupe.call.false",
        caller=penalty.caller + 1,
        accused=penalty.accused + 1,
        count=len(penalty.cards),
    )
