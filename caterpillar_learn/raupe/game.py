"""A game in progress: seed, event log, replay and JSON save/load.

The pure :func:`~caterpillar_learn.raupe.referee.apply` does the judging;
:class:`Game` is the thin mutable wrapper a widget or a notebook holds.  A
game is fully described by its seed (which fixes the deal), the starting
mode and the event log (which carries every later chance outcome: the cuts).

>>> game = Game(players=2, seed=11)
>>> option = game.legal_plays(0)[0]
>>> card = game.state.hands[0][option.card]
>>> _ = game.play(0, card, option.side, time=2.0, aphid=game.state.aphid_owed,
...               announce=game.state.mode.other if card.is_change else None)
>>> _ = game.call(1, time=2.5)          # a false call: player 1 takes cards
>>> game.state.penalty.right, len(game.state.penalty.cards)
(False, 3)
>>> Game.from_json(game.to_json()).state == game.state
True
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from caterpillar_learn.errors import describe
from caterpillar_learn.raupe.cards import (
    Card,
    Mode,
    NotationError,
    format_card,
    parse_card,
    parse_mode,
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
    outcome,
)

__all__ = ["Game", "event_from_json", "event_to_json", "replay", "state_to_json"]


def event_to_json(event: Event) -> dict[str, Any]:
    """A plain JSON object for one event.

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


def event_from_json(data: dict[str, Any]) -> Event:
    """Read an event written by :func:`event_to_json`.

    >>> event_from_json({"t": 1.0, "play": 0, "card": "butterfly", "announce": "shape"})
    Play(time=1.0, player=0, card=Card(sides=()), side=0, aphid=False, announce=<Mode.SHAPE: 0>)
    """
    try:
        time = float(data["t"])
        if "play" in data:
            announce = data.get("announce")
            return Play(
                time,
                int(data["play"]),
                parse_card(str(data["card"])),
                int(data.get("side", 0)),
                bool(data.get("aphid", False)),
                None if announce is None else parse_mode(str(announce)),
            )
        if "call" in data:
            return Call(time, int(data["call"]), tuple(int(d) for d in data["cuts"]))
        if data.get("close"):
            return Close(time)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, NotationError):
            raise
    raise NotationError(describe("event", data, "a play, call or close object with a time 't'"))


def state_to_json(state: State) -> dict[str, Any]:
    """A plain JSON view of the table, for widgets (cards in notation).

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


def replay(initial: State, events: list[Event]) -> State:
    """The state after applying ``events`` one by one to ``initial``."""
    state = initial
    for event in events:
        state = apply(state, event)
    return state


class Game:
    """A mutable table: the dealt state, the event log and the current state."""

    def __init__(
        self,
        players: int,
        seed: int,
        mode: Mode = Mode.SHAPE,
        deck: tuple[Card, ...] | None = None,
    ) -> None:
        self.players = players
        self.seed = seed
        self.deck = deck
        # One generator: first the deal, then every cut, so the seed fixes all chance.
        self.rng = random.Random(seed)
        self.initial = deal(players, self.rng, deck, mode)
        self.state = self.initial
        self.events: list[Event] = []

    def submit(self, event: Event) -> State:
        """Apply one event (from a bot or a person) and log it."""
        if isinstance(event, Call) and not event.cuts and self.state.last is not None:
            event = replace(event, cuts=draw_cuts(self.state.pile, self.rng))
        self.state = apply(self.state, event)
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

    def to_json(self) -> str:
        """The seed, starting mode and event log as JSON (standard deck only)."""
        return json.dumps(
            {
                "players": self.players,
                "seed": self.seed,
                "mode": self.initial.mode.word,
                "events": [event_to_json(event) for event in self.events],
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Rebuild a game written by :meth:`to_json`, replaying every event."""
        data = json.loads(text)
        game = cls(int(data["players"]), int(data["seed"]), parse_mode(str(data["mode"])))
        for item in data["events"]:
            event = event_from_json(item)
            if isinstance(event, Call) and game.state.last is not None:
                # Keep the generator where the original game had it, so a loaded
                # game goes on exactly as it would have without saving.
                draw_cuts(game.state.pile, game.rng)
            game.submit(event)
        return game
