"""JSON views of events, decks and the table, as saved games and the widgets use them.

Cards travel in card notation (see :mod:`~caterpillar_learn.raupe.cards`).
Reading is strict: anything that :func:`event_to_json` or
:func:`deck_to_json` would not write is refused with a one-line
:class:`~caterpillar_learn.raupe.errors.NotationError` (or
:class:`~caterpillar_learn.raupe.errors.DeckError` for a deck) that names
the field and the bad value.

>>> event = event_from_json({"t": 2.5, "play": 1, "card": "butterfly", "announce": "colour"})
>>> event_to_json(event)
{'t': 2.5, 'play': 1, 'card': 'butterfly', 'side': 0, 'announce': 'colour'}
>>> event_from_json({"t": 2.5, "play": "one", "card": "butterfly"})
Traceback (most recent call last):
...
caterpillar_learn.raupe.errors.NotationError: play: got 'one', expected a seat number (a whole number)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from caterpillar_learn.errors import describe
from caterpillar_learn.raupe.cards import Card, format_card, parse_card, parse_mode
from caterpillar_learn.raupe.deck import MAX_CARDS, check_deck
from caterpillar_learn.raupe.errors import DeckError, NotationError
from caterpillar_learn.raupe.referee import Call, Close, Event, Play, State, outcome

__all__ = [
    "deck_from_json",
    "deck_to_json",
    "event_from_json",
    "event_to_json",
    "state_to_json",
    "whole_number",
]

#: The keys each kind of event may carry; the kind is the one of play, call, close present.
EVENT_KEYS = {
    "play": frozenset({"t", "play", "card", "side", "aphid", "announce"}),
    "call": frozenset({"t", "call", "cuts"}),
    "close": frozenset({"t", "close"}),
}
EVENT_EXPECTED = "a play, call or close object with a time 't'"


def whole_number(value: object, field: str, expected: str = "a whole number") -> int:
    """``value`` if it is a JSON whole number (``True`` is not one).

    >>> whole_number(3, "seat")
    3
    >>> whole_number(2.0, "seat")
    Traceback (most recent call last):
    ...
    caterpillar_learn.raupe.errors.NotationError: seat: got 2.0, expected a whole number
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(describe(field, value, expected))
    return value


def _seconds(value: object) -> float:
    if not isinstance(value, bool) and isinstance(value, int | float):
        try:
            seconds = float(value)
        except OverflowError:  # a whole number too large for a float
            seconds = math.inf
        if math.isfinite(seconds):
            return seconds
    raise NotationError(describe("t", value, "a finite number of seconds"))


def _flag(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise NotationError(describe(field, value, "true or false"))
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """A plain JSON object for one event (``aphid`` and ``announce`` only when shouted).

    >>> event_to_json(Call(3.25, 1, (4,)))
    {'t': 3.25, 'call': 1, 'cuts': [4]}
    """
    if isinstance(event, Play):
        data: dict[str, Any] = {
            "t": event.time,
            "play": event.player,
            "card": format_card(event.card),
            "side": event.side,
        }
        if event.aphid:
            data["aphid"] = True
        if event.announce is not None:
            data["announce"] = event.announce.word
        return data
    if isinstance(event, Call):
        return {"t": event.time, "call": event.caller, "cuts": list(event.cuts)}
    return {"t": event.time, "close": True}


def event_from_json(data: object) -> Event:
    """Read an event written by :func:`event_to_json`; anything else is a :class:`NotationError`.

    Whether the seats exist and the card is in that hand is for the referee
    to say (:func:`~caterpillar_learn.raupe.referee.apply`).

    >>> event_from_json({"t": 1.0, "play": 0, "card": "butterfly", "announce": "shape"})
    Play(time=1.0, player=0, card=Card(sides=()), side=0, aphid=False, announce=<Mode.SHAPE: 0>)
    >>> event_from_json({"t": 1.0, "call": 1, "cuts": []})
    Traceback (most recent call last):
    ...
    caterpillar_learn.raupe.errors.NotationError: cuts: got [], expected a list of cut depths (at least one)
    """
    if not isinstance(data, dict):
        raise NotationError(describe("event", data, EVENT_EXPECTED))
    kinds = [kind for kind in EVENT_KEYS if kind in data]
    if len(kinds) != 1:
        raise NotationError(describe("event", data, EVENT_EXPECTED + " (exactly one of play, call, close)"))
    kind = kinds[0]
    unknown = [key for key in data if key not in EVENT_KEYS[kind]]
    if unknown:
        raise NotationError(describe(f"{kind} event key", unknown[0], "only " + ", ".join(sorted(EVENT_KEYS[kind]))))
    time = _seconds(data.get("t"))
    if kind == "play":
        announce = data.get("announce")
        return Play(
            time,
            whole_number(data["play"], "play", "a seat number (a whole number)"),
            parse_card(data.get("card")),  # type: ignore[arg-type]  # parse_card checks the type
            whole_number(data.get("side", 0), "side", "0 or 1"),
            _flag(data.get("aphid", False), "aphid"),
            None if announce is None else parse_mode(announce),
        )
    if kind == "call":
        cuts = data.get("cuts")
        if not isinstance(cuts, list) or not cuts:
            raise NotationError(describe("cuts", cuts, "a list of cut depths (at least one)"))
        depths = tuple(whole_number(depth, "cut depth") for depth in cuts)
        return Call(time, whole_number(data["call"], "call", "a seat number (a whole number)"), depths)
    if data["close"] is not True:
        raise NotationError(describe("close", data["close"], "true"))
    return Close(time)


def deck_to_json(cards: Sequence[Card]) -> list[str]:
    """The cards in card notation, in their order (the order fixes the deal).

    >>> deck_to_json(deck_from_json(["butterfly", "jagged-green@round-red|round-red@jagged-yellow"]))
    ['butterfly', 'jagged-green@round-red|round-red@jagged-yellow']
    """
    return [format_card(card) for card in cards]


def deck_from_json(data: object) -> tuple[Card, ...]:
    """Read a deck written by :func:`deck_to_json` (at most :data:`~caterpillar_learn.raupe.deck.MAX_CARDS`).

    >>> deck_from_json(["butterfly", "round-red"])
    Traceback (most recent call last):
    ...
    caterpillar_learn.raupe.errors.DeckError: deck[1]: card: got 'round-red', expected SIDE|SIDE or butterfly
    """
    if not isinstance(data, list):
        raise DeckError(describe("deck", data, "a list of cards in card notation"))
    if len(data) > MAX_CARDS:
        raise DeckError(describe("deck", f"{len(data)} cards", f"at most {MAX_CARDS}"))
    cards = []
    for index, item in enumerate(data):
        try:
            cards.append(parse_card(item))
        except NotationError as error:
            raise DeckError(f"deck[{index}]: {error}") from None
    return check_deck(cards)


def state_to_json(state: State) -> dict[str, Any]:
    """A plain JSON view of the table, for widgets (cards in notation).

    >>> import random
    >>> from caterpillar_learn.raupe.referee import deal
    >>> view = state_to_json(deal(2, random.Random(1)))
    >>> view["mode"], len(view["hands"][0]), view["pile_size"], view["winners"]
    ('shape', 38, 1, None)
    """
    top = state.pile[-1]
    result = outcome(state)
    return {
        "hands": [[format_card(card) for card in hand] for hand in state.hands],
        "top": {"card": format_card(top.card), "side": top.side},
        "pile_size": len(state.pile),
        "out_size": len(state.out),
        "mode": state.mode.word,
        "clock": state.clock,
        "aphid_owed": state.aphid_owed,
        "follow_up": state.follow_up,
        "last": None
        if state.last is None
        else {
            "player": state.last.player,
            "mistakes": [mistake.value for mistake in state.last.mistakes],
        },
        "penalty": None
        if state.penalty is None
        else {
            "caller": state.penalty.caller,
            "accused": state.penalty.accused,
            "right": state.penalty.right,
            "giver": state.penalty.giver,
            "receiver": state.penalty.receiver,
            "cards": [format_card(card) for card in state.penalty.cards],
        },
        "plays": state.plays,
        "finished": state.finished,
        "winners": None if result is None else list(result.winners),
        "stalemate": None if result is None else result.stalemate,
    }
