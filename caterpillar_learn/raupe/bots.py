"""Bots: players with a reaction time, an error rate and an eye for mistakes.

Time model.  At every moment each bot proposes its next action with a
timestamp: the table's clock plus a reaction time drawn from a log-normal
distribution whose median grows with the bot's hand (searching 20 cards
takes longer than searching 3).  The earliest proposal happens; the others
are forgotten and drawn afresh from the new state, as a person looks at
the new top card.  Times are rounded to milliseconds so logs replay exactly.

Each bot, at each moment:

* if the newest card was a mistake by someone else, notices it with the
  level's ``notice_chance`` and calls it (it may also call a correct card
  by ``false_call_rate``);
* otherwise plays a legal side if it has one: a change card when the other
  mode fits more of its hand, else a plain caterpillar, the butterfly only
  in a dead end; with ``error_rate`` it slips (a wrong side, a forgotten
  "Aphid!" or a forgotten announcement).

>>> import random
>>> from caterpillar_learn.raupe.referee import deal
>>> event = propose(deal(2, random.Random(1)), 0, LEVELS["expert"], random.Random(2))
>>> type(event).__name__, event.time > 0
('Play', True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from caterpillar_learn.errors import describe
from caterpillar_learn.raupe.cards import Card, Mode, Side
from caterpillar_learn.raupe.errors import UnknownLevelError
from caterpillar_learn.raupe.hints import change_advice
from caterpillar_learn.raupe.referee import Call, Event, Play, State, legal_plays, playable_sides

__all__ = ["LEVELS", "BotLevel", "choose_start_mode", "get_level", "propose"]

#: Time rounding of every bot event (milliseconds).
TIME_DECIMALS = 3


@dataclass(frozen=True, slots=True)
class BotLevel:
    """How a bot plays: speed, reliability and attention."""

    name: str
    reaction_median: float  # seconds to react with an empty-ish hand
    search_per_card: float  # extra seconds per card held
    reaction_sigma: float  # spread of the log-normal reaction time
    error_rate: float  # chance that a play slips
    notice_chance: float  # chance to notice someone else's mistake
    false_call_rate: float  # chance to call a correct card


LEVELS: dict[str, BotLevel] = {
    level.name: level
    for level in (
        BotLevel("beginner", 1.6, 0.08, 0.45, 0.15, 0.35, 0.01),
        BotLevel("advanced", 1.1, 0.05, 0.35, 0.07, 0.6, 0.005),
        BotLevel("expert", 0.7, 0.03, 0.25, 0.02, 0.9, 0.0),
    )
}


def get_level(name: str) -> BotLevel:
    """The bot level called ``name``.

    >>> get_level("expert").notice_chance
    0.9
    >>> get_level("godlike")
    Traceback (most recent call last):
    ...
    caterpillar_learn.raupe.errors.UnknownLevelError: bot level: got 'godlike', \
expected one of beginner, advanced, expert
    """
    try:
        return LEVELS[name]
    except KeyError:
        raise UnknownLevelError(describe("bot level", name, "one of " + ", ".join(LEVELS))) from None


def reaction_time(level: BotLevel, cards_held: int, rng: random.Random) -> float:
    """Seconds a bot needs to act (drawn from the level's log-normal distribution).

    >>> 0 < reaction_time(LEVELS["beginner"], 20, random.Random(0)) < 20
    True
    """
    median = level.reaction_median + level.search_per_card * cards_held
    return median * rng.lognormvariate(0.0, level.reaction_sigma)


def choose_start_mode(hand: tuple[Card, ...], top: Side) -> Mode:
    """The youngest player's starting mode: the one that fits more of their hand.

    >>> from caterpillar_learn.raupe.cards import parse_hand, parse_side
    >>> hand = parse_hand("jagged-green@round-red|straight-green@round-yellow")
    >>> choose_start_mode(hand, parse_side("straight-red@round-green"))
    <Mode.COLOUR: 1>
    """
    shape = len(playable_sides(hand, top, Mode.SHAPE))
    colour = len(playable_sides(hand, top, Mode.COLOUR))
    return Mode.COLOUR if colour > shape else Mode.SHAPE


def _choose_play(state: State, seat: int, rng: random.Random, level: BotLevel) -> Play | None:
    hand = state.hands[seat]
    options = legal_plays(state, seat)
    if not options:
        return None
    top = state.pile[-1].face
    mode = state.mode
    chosen = None
    if top is not None and state.follow_up is None:
        advice = change_advice(hand, top, mode, options)
        if advice is not None:
            chosen = advice.option
    if chosen is None:
        plain = [o for o in options if hand[o.card].sides and not hand[o.card].is_change]
        caterpillars = plain or [o for o in options if hand[o.card].sides]
        chosen = caterpillars[0] if caterpillars else options[0]
    card = hand[chosen.card]
    side = chosen.side
    aphid = state.aphid_owed
    announce: Mode | None = None
    if card.is_change:
        announce = mode.other
    elif card.is_butterfly:
        announce = mode
    if rng.random() < level.error_rate:
        slip = rng.randrange(3)
        if slip == 0 and top is not None and state.follow_up is None:
            wrong = [
                (index, s)
                for index, other in enumerate(hand)
                for s in range(len(other.sides))
                if not other.sides[s].can_follow(top, mode)
            ]
            if wrong:
                index, side = wrong[rng.randrange(len(wrong))]
                card = hand[index]
                announce = mode.other if card.is_change else None
        elif slip == 1:
            aphid = False
        elif card.is_change:
            announce = None
    time = state.clock + reaction_time(level, len(hand), rng)
    return Play(round(time, TIME_DECIMALS), seat, card, side, aphid, announce)


def propose(state: State, seat: int, level: BotLevel, rng: random.Random) -> Event | None:
    """The bot's next action, or None if it waits.

    A proposed :class:`Call` has no cuts yet: the table draws them
    (:func:`~caterpillar_learn.raupe.referee.draw_cuts`) if the call happens.
    """
    if state.finished:
        return None
    last = state.last
    if last is not None and last.player != seat:
        chance = level.notice_chance if last.mistakes else level.false_call_rate
        if chance and rng.random() < chance:
            time = state.clock + reaction_time(level, 0, rng)
            return Call(round(time, TIME_DECIMALS), seat, ())
    return _choose_play(state, seat, rng, level)
