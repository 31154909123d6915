"""A game in progress: seed, deck, event log, replay and JSON save/load.

The pure :func:`~caterpillar_learn.raupe.referee.apply` does the judging;
:class:`Game` is the thin mutable wrapper a widget or a notebook holds.  A
game is fully described by its players, seed and deck (which fix the deal),
the starting mode and the event log (which carries every later chance
outcome: the cuts).  :meth:`Game.to_json` writes exactly that, so a saved
game is also the record a teacher or a test replays.

>>> game = Game(players=2, seed=11)
>>> option = game.legal_plays(0)[0]
>>> card = game.state.hands[0][option.card]
>>> _ = game.play(0, card, option.side, time=2.0, aphid=game.state.aphid_owed,
...               announce=game.state.mode.other if card.is_change else None)
>>> _ = game.call(1, time=2.5)          # a false call: player 1 takes cards
>>> game.state.penalty.right, len(game.state.penalty.cards)
(False, 3)
>>> saved = game.to_json()
>>> sorted(saved), saved["events"][1]
(['drawn_cuts', 'events', 'format', 'mode', 'players', 'seed'], {'t': 2.5, 'call': 1, 'cuts': [2]})
>>> Game.from_json(saved).state == game.state
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from caterpillar_learn.errors import check_saved, describe
from caterpillar_learn.raupe.cards import Card, Mode, parse_mode
from caterpillar_learn.raupe.deck import MAX_CARDS, check_deck, standard_deck
from caterpillar_learn.raupe.errors import IllegalEventError, NotationError, RaupeError, SetupError
from caterpillar_learn.raupe.notation import (
    deck_from_json,
    deck_to_json,
    event_from_json,
    event_to_json,
    whole_number,
)
from caterpillar_learn.raupe.referee import (
    Call,
    Close,
    Event,
    Play,
    PlayableSide,
    State,
    apply,
    deal,
    draw_cuts,
    legal_plays,
)

__all__ = ["MAX_EVENTS", "MAX_SEED", "SAVE_FORMAT", "Game", "replay"]

SAVE_FORMAT = 1
MAX_SEED = 2**64 - 1
#: No game has more events: each play moves a card to the pile for good, and
#: each call needs a new play before it, so a deck of MAX_CARDS allows fewer.
MAX_EVENTS = 2 * MAX_CARDS
SAVE_KEYS = ("format", "players", "seed", "mode", "deck", "events", "drawn_cuts")


def replay(initial: State, events: list[Event]) -> State:
    """The state after applying ``events`` one by one to ``initial``.

    >>> replay(deal(2, random.Random(1)), []).plays
    0
    """
    state = initial
    for event in events:
        state = apply(state, event)
    return state


class Game:
    """A mutable table: the dealt state, the event log and the current state.

    ``deck`` is the deck to deal from (``None`` for the standard deck); a
    call with no cuts gets its cuts drawn from the game's own generator,
    seeded like the deal, and :attr:`drawn_cuts` lists those calls.
    """

    def __init__(
        self,
        players: int,
        seed: int,
        mode: Mode = Mode.SHAPE,
        deck: Sequence[Card] | None = None,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupError(describe("players", players, "a whole number from 2 to 4"))
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise SetupError(describe("seed", seed, f"a whole number from 0 to {MAX_SEED}"))
        if not isinstance(mode, Mode):
            raise SetupError(describe("mode", mode, "Mode.SHAPE or Mode.COLOUR"))
        self.players = players
        self.seed = seed
        #: The deck dealt from, or None for the standard deck (which a save leaves out).
        self.deck = None if deck is None or tuple(deck) == standard_deck() else check_deck(deck)
        # One generator: first the deal, then every cut drawn here, so the seed fixes all chance.
        self.rng = random.Random(seed)
        self.initial = deal(players, self.rng, self.deck, mode)
        self.state = self.initial
        self.events: list[Event] = []
        #: Indices in :attr:`events` of the calls whose cuts this game's generator drew.
        self.drawn_cuts: list[int] = []

    @property
    def is_over(self) -> bool:
        """Whether the game has been closed (:attr:`state` is finished)."""
        return self.state.finished

    def submit(self, event: Event) -> State:
        """Apply one event (from a bot or a person) and log it; a refused one changes nothing."""
        if isinstance(event, Call) and not event.cuts and self.state.last is not None:
            before = self.rng.getstate()
            event = replace(event, cuts=draw_cuts(self.state.pile, self.rng))
            try:
                return self._record(event, drawn=True)
            except RaupeError:
                self.rng.setstate(before)  # as if the call never came: the next cut draws the same
                raise
        return self._record(event, drawn=False)

    def _record(self, event: Event, *, drawn: bool) -> State:
        self.state = apply(self.state, event)
        if drawn:
            self.drawn_cuts.append(len(self.events))
        self.events.append(event)
        return self.state

    def play(
        self,
        player: int,
        card: Card,
        side: int = 0,
        *,
        time: float,
        aphid: bool = False,
        announce: Mode | None = None,
    ) -> State:
        """``player`` puts ``card`` on the pile with ``side`` up."""
        return self.submit(Play(time, player, card, side, aphid, announce))

    def call(self, caller: int, *, time: float) -> State:
        """``caller`` calls a mistake on the newest card; the cut is drawn here."""
        return self.submit(Call(time, caller, ()))

    def close(self, *, time: float) -> State:
        """End the game once a hand is empty or nobody can play."""
        return self.submit(Close(time))

    def legal_plays(self, seat: int) -> list[PlayableSide]:
        """The sides ``seat`` may play now without a mistake."""
        return legal_plays(self.state, seat)

    # -- save and load -----------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything needed to replay and continue this game, as plain JSON data.

        The keys: ``format`` (1), ``players``, ``seed``, ``mode`` (the
        starting mode), ``deck`` (the cards in card notation, in order; left
        out for the standard deck), ``events`` (see
        :func:`~caterpillar_learn.raupe.notation.event_to_json`) and
        ``drawn_cuts`` (which calls had their cuts drawn by the game).

        >>> Game(players=3, seed=5, mode=Mode.COLOUR).to_json()
        {'format': 1, 'players': 3, 'seed': 5, 'mode': 'colour', 'events': [], 'drawn_cuts': []}
        """
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "players": self.players,
            "seed": self.seed,
            "mode": self.initial.mode.word,
        }
        if self.deck is not None:
            data["deck"] = deck_to_json(self.deck)
        data["events"] = [event_to_json(event) for event in self.events]
        data["drawn_cuts"] = list(self.drawn_cuts)
        return data

    @classmethod
    def from_json(cls, data: object) -> Game:
        """Rebuild a game written by :meth:`to_json`, replaying and checking every event.

        Anything else is refused with a one-line :class:`RaupeError` naming
        the field: a :class:`NotationError` for what cannot be read, a
        :class:`DeckError` or :class:`SetupError` for what cannot be dealt and
        an :class:`IllegalEventError` for an event the table refuses.

        >>> Game.from_json({"format": 1, "players": 2, "seed": 1, "mode": "shape",
        ...                 "events": [{"t": 1.0, "close": True}]})
        Traceback (most recent call last):
        ...
        caterpillar_learn.raupe.errors.IllegalEventError: events[0]: close: got 1.0, \
expected an empty hand or a table where nobody can play
        """
        if not isinstance(data, dict):
            raise NotationError(describe("saved game", data, "a JSON object as Game.to_json writes"))
        check_saved(data, NotationError, SAVE_FORMAT, SAVE_KEYS, fields=("format", "saved game key"))
        players = whole_number(data.get("players"), "players", "a whole number from 2 to 4")
        seed = whole_number(data.get("seed"), "seed", f"a whole number from 0 to {MAX_SEED}")
        mode = parse_mode(data.get("mode"))  # type: ignore[arg-type]  # parse_mode checks the type
        deck = deck_from_json(data["deck"]) if "deck" in data else None
        events = data.get("events")
        if not isinstance(events, list) or len(events) > MAX_EVENTS:
            shown = f"{len(events)} events" if isinstance(events, list) else events
            raise NotationError(describe("events", shown, f"a list of at most {MAX_EVENTS} events"))
        drawn = _drawn_cuts(data.get("drawn_cuts", []), len(events))
        game = cls(players, seed, mode, deck)
        for index, item in enumerate(events):
            try:
                event = event_from_json(item)
                if index in drawn:
                    game._redraw(event)
                game._record(event, drawn=index in drawn)
            except RaupeError as error:
                raise type(error)(f"events[{index}]: {error}") from None
        return game

    def _redraw(self, event: Event) -> None:
        """Draw the cuts of a loaded call again, so the generator goes on as it did."""
        if not isinstance(event, Call) or self.state.last is None:
            raise NotationError(describe("drawn_cuts", len(self.events), "indices of calls on a newly played card"))
        cuts = draw_cuts(self.state.pile, self.rng)
        if cuts != event.cuts:
            raise IllegalEventError(describe("cuts", list(event.cuts), f"the cuts the seed draws, {list(cuts)}"))


def _drawn_cuts(data: object, events: int) -> frozenset[int]:
    expected = f"a list of increasing indices of call events (below {events})"
    if not isinstance(data, list) or len(data) > events:
        raise NotationError(describe("drawn_cuts", data, expected))
    indices = [whole_number(index, "drawn_cuts", expected) for index in data]
    if indices != sorted(set(indices)) or (indices and not 0 <= indices[0] <= indices[-1] < events):
        raise NotationError(describe("drawn_cuts", data, expected))
    return frozenset(indices)
