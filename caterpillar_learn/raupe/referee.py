"""The referee: an immutable game state and the events that change it.

Räuber Raupe is played in real time, so nothing here has turns.  Every
action is an event carrying a timestamp in seconds: :class:`Play` (a card
put on the pile, with the calls shouted), :class:`Call` (a player stops the
game for a mistake) and :class:`Close` (the table agrees that the game is
over).  :func:`apply` checks one event and returns the next state; bots and
people at a widget go through the very same function.  Events that break the
rules of the *table* (a card not in hand, time running backwards) raise
:class:`IllegalEventError`; a card that breaks the rules of the *game* is
accepted and recorded as a :class:`Mistake`, which only matters if someone
calls it.

>>> import random
>>> state = deal(2, random.Random(7))
>>> [len(hand) for hand in state.hands], len(state.pile), len(state.out)
([38, 38], 1, 4)
>>> option = legal_plays(state, 0)[0]
>>> card = state.hands[0][option.card]
>>> state = apply(state, Play(1.5, 0, card, option.side, aphid=state.aphid_owed,
...                           announce=state.mode.other if card.is_change else None))
>>> len(state.hands[0]), state.last.mistakes
(37, ())
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from enum import Enum

from caterpillar_learn.errors import describe
from caterpillar_learn.raupe.cards import Card, Mode, Side, format_card
from caterpillar_learn.raupe.deck import standard_deck
from caterpillar_learn.raupe.errors import IllegalEventError, SetupError
from caterpillar_learn.raupe.pile import (
    Placed,
    PlayableSide,
    choose_gift,
    cut_pile,
    draw_cuts,
    playable_sides,
)

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PENALTY_CARDS",
    "Call",
    "Close",
    "Event",
    "Mistake",
    "Outcome",
    "Penalty",
    "Placed",
    "Play",
    "PlayableSide",
    "State",
    "apply",
    "choose_gift",
    "cut_pile",
    "deal",
    "draw_cuts",
    "has_empty_hand",
    "legal_plays",
    "nobody_can_play",
    "outcome",
    "playable_sides",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 4
PENALTY_CARDS = 3


class Mistake(Enum):
    """The three mistakes a player can be called for."""

    WRONG_CARD = "wrong_card"
    MISSING_ANNOUNCEMENT = "missing_announcement"
    MISSING_APHID = "missing_aphid"


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The newest card on the pile: who played it and what was wrong with it."""

    player: int
    mistakes: tuple[Mistake, ...]


@dataclass(frozen=True, slots=True)
class Penalty:
    """What the last call did: who called whom, who was right, which cards moved."""

    caller: int
    accused: int
    right: bool
    mistakes: tuple[Mistake, ...]
    giver: int
    receiver: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """A card put on the pile at ``time`` seconds, with what its player shouted."""

    time: float
    player: int
    card: Card
    side: int = 0
    aphid: bool = False
    announce: Mode | None = None


@dataclass(frozen=True, slots=True)
class Call:
    """``caller`` stops the game: the newest card is a mistake, they say.

    ``cuts`` are the chance outcomes of cutting the pile afterwards (see
    :func:`cut_pile`); :func:`draw_cuts` draws them with a seeded generator.
    """

    time: float
    caller: int
    cuts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Close:
    """The table ends the game: a hand is empty or nobody can play."""

    time: float


Event = Play | Call | Close


@dataclass(frozen=True, slots=True)
class State:
    """Everything on the table; the last item of ``pile`` is its top."""

    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[Placed, ...]
    out: tuple[Card, ...]
    mode: Mode
    clock: float = 0.0
    last: LastPlay | None = None
    follow_up: int | None = None
    penalty: Penalty | None = None
    finished: bool = False
    plays: int = 0

    @property
    def top(self) -> Side | None:
        """The visible side on top of the pile (None if a butterfly lies there)."""
        return self.pile[-1].face

    @property
    def aphid_owed(self) -> bool:
        """Whether the next card must come with the call "Aphid!"."""
        top = self.pile[-1].face
        return top is not None and top.aphid

    @property
    def players(self) -> int:
        """The number of players."""
        return len(self.hands)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended."""

    winners: tuple[int, ...]
    stalemate: bool


def deal(
    players: int,
    rng: random.Random,
    deck: tuple[Card, ...] | None = None,
    mode: Mode = Mode.SHAPE,
) -> State:
    """Shuffle and deal: one caterpillar card starts the pile, the rest are shared.

    Each player also gets one butterfly and one change card, as the rule book
    says; a deck with none of them at all (the first lessons' short deck)
    deals none.

    >>> state = deal(4, random.Random(1))
    >>> [len(hand) for hand in state.hands], len(state.out)
    ([20, 20, 20, 20], 0)
    >>> deal(5, random.Random(1))
    Traceback (most recent call last):
    ...
    caterpillar_learn.raupe.errors.SetupError: players: got 5, expected 2 to 4
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(describe("players", players, f"{MIN_PLAYERS} to {MAX_PLAYERS}"))
    cards = standard_deck() if deck is None else deck
    caterpillars = [card for card in cards if card.sides and not card.is_change]
    changes = [card for card in cards if card.is_change]
    butterflies = [card for card in cards if card.is_butterfly]
    if not caterpillars:
        raise SetupError(describe("caterpillar cards", 0, "at least 1 to start the pile"))
    for name, group in (("change cards", changes), ("butterflies", butterflies)):
        if group and len(group) < players:
            raise SetupError(describe(name, len(group), f"at least one per player ({players})"))
    for group in (caterpillars, changes, butterflies):
        rng.shuffle(group)
    start = Placed(caterpillars[0], rng.randrange(2))
    rest = caterpillars[1:]
    share = len(rest) // players
    hands = tuple(
        (*rest[seat::players][:share], *butterflies[seat : seat + 1], *changes[seat : seat + 1])
        for seat in range(players)
    )
    out = (*rest[share * players :], *butterflies[players:], *changes[players:])
    return State(hands=hands, pile=(start,), out=tuple(out), mode=mode)


def legal_plays(state: State, seat: int) -> list[PlayableSide]:
    """The sides ``seat`` may play without a mistake right now.

    >>> state = deal(3, random.Random(2))
    >>> all(opt.side in (0, 1) for opt in legal_plays(state, 1))
    True
    """
    if state.finished or has_empty_hand(state):
        return []
    if state.follow_up is not None:
        if state.follow_up != seat:
            return []
        return playable_sides(state.hands[seat], None, state.mode, after_butterfly=True)
    return playable_sides(state.hands[seat], state.pile[-1].face, state.mode)


def has_empty_hand(state: State) -> bool:
    """Whether some player has no cards left (the game ends once calls are over)."""
    return any(not hand for hand in state.hands)


def nobody_can_play(state: State) -> bool:
    """Whether no player has a card that may go on the pile now (a stalemate).

    >>> nobody_can_play(deal(2, random.Random(3)))  # everyone holds a butterfly
    False
    """
    return all(not legal_plays(state, seat) for seat in range(state.players))


def outcome(state: State) -> Outcome | None:
    """Winners of a finished game: the empty hand, or else the fewest cards.

    >>> outcome(deal(2, random.Random(3))) is None
    True
    """
    if not state.finished:
        return None
    sizes = [len(hand) for hand in state.hands]
    fewest = min(sizes)
    winners = tuple(seat for seat, size in enumerate(sizes) if size == fewest)
    return Outcome(winners=winners, stalemate=fewest > 0)


def apply(state: State, event: Event) -> State:
    """The state after ``event``; raises :class:`IllegalEventError` if the table refuses it."""
    if state.finished:
        raise IllegalEventError(describe("event", event, "none: the game is over"))
    if not _is_finite(event.time) or event.time < state.clock:
        raise IllegalEventError(describe("event time", event.time, f"a number of seconds >= {state.clock}"))
    if isinstance(event, Play):
        return _apply_play(state, event)
    if isinstance(event, Call):
        return _apply_call(state, event)
    return _apply_close(state, event)


def _is_finite(time: float) -> bool:
    try:
        return math.isfinite(time)
    except (TypeError, OverflowError):  # an event built by hand may carry anything
        return False


def _check_seat(state: State, field: str, seat: int) -> None:
    if not (isinstance(seat, int) and 0 <= seat < len(state.hands)):
        raise IllegalEventError(describe(field, seat, f"a seat from 0 to {len(state.hands) - 1}"))


def _apply_play(state: State, event: Play) -> State:
    seat, card = event.player, event.card
    _check_seat(state, "player", seat)
    if has_empty_hand(state):
        raise IllegalEventError(describe("event", "play", "a call or close: a hand is empty"))
    if state.follow_up is not None and state.follow_up != seat:
        raise IllegalEventError(describe("player", seat, f"seat {state.follow_up}, who plays after their butterfly"))
    hand = state.hands[seat]
    try:
        index = hand.index(card)
    except ValueError:
        raise IllegalEventError(describe("card", format_card(card), f"a card in the hand of seat {seat}")) from None
    if event.side not in ((0, 1) if card.sides else (0,)):
        raise IllegalEventError(describe("side", event.side, "0 or 1 (0 for a butterfly)"))
    top = state.pile[-1].face
    mode = state.mode
    mistakes: list[Mistake] = []
    if state.aphid_owed and not event.aphid:
        mistakes.append(Mistake.MISSING_APHID)
    rest = hand[:index] + hand[index + 1 :]
    follow_up = None
    if not card.sides:
        if top is None:
            raise IllegalEventError(describe("card", "butterfly", "a caterpillar card on top"))
        if rest and not any(other.sides for other in rest):
            raise IllegalEventError(describe("card", "butterfly", "a caterpillar card in hand to play after it"))
        if event.announce is not None:
            mode = event.announce
        follow_up = seat if rest else None
    else:
        face = card.sides[event.side]
        if state.follow_up is None and top is not None and face.caterpillar_key[mode] is not top.leaf_key[mode]:
            mistakes.append(Mistake.WRONG_CARD)
        if face.sky:
            mode = mode.other
            if event.announce is not mode:
                mistakes.append(Mistake.MISSING_ANNOUNCEMENT)
    hands = (*state.hands[:seat], rest, *state.hands[seat + 1 :])
    return State(
        hands=hands,
        pile=(*state.pile, Placed(card, event.side)),
        out=state.out,
        mode=mode,
        clock=event.time,
        last=LastPlay(seat, tuple(mistakes)),
        follow_up=follow_up,
        penalty=None,
        finished=False,
        plays=state.plays + 1,
    )


def _apply_call(state: State, event: Call) -> State:
    caller = event.caller
    _check_seat(state, "caller", caller)
    last = state.last
    if last is None:
        raise IllegalEventError(describe("call", caller, "a newly played card to call"))
    if last.player == caller:
        raise IllegalEventError(describe("caller", caller, "a player other than the accused"))
    right = bool(last.mistakes)
    giver, receiver = (caller, last.player) if right else (last.player, caller)
    giving = state.hands[giver]
    chosen = choose_gift(giving, min(PENALTY_CARDS, len(giving)))
    gift = tuple(giving[i] for i in chosen)
    hands = list(state.hands)
    hands[giver] = tuple(card for i, card in enumerate(giving) if i not in chosen)
    hands[receiver] = hands[receiver] + gift
    if not event.cuts:
        raise IllegalEventError(describe("cuts", event.cuts, "at least one cut depth"))
    pile = state.pile
    for number, depth in enumerate(event.cuts):
        pile = cut_pile(pile, depth)
        is_last = number == len(event.cuts) - 1
        if bool(pile[-1].card.sides) != is_last:
            raise IllegalEventError(describe("cuts", event.cuts, "cuts again only while a butterfly shows"))
    penalty = Penalty(caller, last.player, right, last.mistakes, giver, receiver, gift)
    return replace(
        state,
        hands=tuple(hands),
        pile=pile,
        clock=event.time,
        last=None,
        follow_up=None,
        penalty=penalty,
    )


def _apply_close(state: State, event: Close) -> State:
    if not (has_empty_hand(state) or nobody_can_play(state)):
        raise IllegalEventError(describe("close", event.time, "an empty hand or a table where nobody can play"))
    return replace(state, clock=event.time, finished=True, penalty=None)
