"""Bot-only games and their statistics, for lessons and the command line.

A game is driven by the same referee a widget uses: each bot proposes an
event (:func:`~caterpillar_learn.raupe.bots.propose`), the earliest one is
applied.  When nobody can play, or a hand is empty, the table waits
``CALL_WINDOW`` seconds for a call and then closes the game.

>>> stats = simulate(players=3, seed=1, games=5, level="advanced")
>>> sum(stats.wins) >= 5, stats.games
(True, 5)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from caterpillar_learn.errors import describe
from caterpillar_learn.raupe.bots import BotLevel, choose_start_mode, get_level, propose
from caterpillar_learn.raupe.cards import Card
from caterpillar_learn.raupe.errors import SetupError
from caterpillar_learn.raupe.referee import (
    Call,
    Close,
    Event,
    Outcome,
    Play,
    State,
    apply,
    deal,
    draw_cuts,
    has_empty_hand,
    nobody_can_play,
    outcome,
)

__all__ = [
    "CALL_WINDOW",
    "YOUNGEST",
    "BotGame",
    "Statistics",
    "next_table_event",
    "play_bot_game",
    "simulate",
]

#: Seconds the table waits for a call before closing a finished or stuck game.
CALL_WINDOW = 2.0
#: The seat of the youngest player, who chooses the starting mode.
YOUNGEST = 0
MAX_GAMES = 1_000_000


@dataclass(frozen=True, slots=True)
class BotGame:
    """One finished bot game: its deal, its events and what happened."""

    initial: State
    events: tuple[Event, ...]
    final: State
    outcome: Outcome
    mistakes_made: int
    mistakes_caught: int
    false_calls: int


def next_table_event(state: State, levels: Sequence[BotLevel | None], rng: random.Random) -> Event | None:
    """The next event of the bots at the table (``None`` in ``levels`` marks a person).

    The earliest bot proposal wins; a call gets its cuts drawn here.  When a
    hand is empty or nobody can play, :class:`Close` comes ``CALL_WINDOW``
    seconds later unless a call comes first.  ``None`` means only a person
    can act now.  A widget applies this event at its time unless the person
    acts earlier, and then asks again.

    >>> from caterpillar_learn.raupe.bots import LEVELS
    >>> from caterpillar_learn.raupe.referee import deal
    >>> state = deal(2, random.Random(1))
    >>> next_table_event(state, [None, LEVELS["expert"]], random.Random(2)).player
    1
    """
    best: Event | None = None
    someone_plays = False
    for seat, level in enumerate(levels):
        if level is None:
            continue
        event = propose(state, seat, level, rng)
        if event is None:
            continue
        if type(event) is Play:
            someone_plays = True
        if best is None or event.time < best.time:
            best = event
    if not someone_plays and (has_empty_hand(state) or nobody_can_play(state)):
        close = Close(state.clock + CALL_WINDOW)
        if best is None or best.time > close.time:
            best = close
    if type(best) is Call:
        best = replace(best, cuts=draw_cuts(state.pile, rng))
    return best


def play_bot_game(
    players: int,
    rng: random.Random,
    levels: Sequence[BotLevel],
    deck: tuple[Card, ...] | None = None,
) -> BotGame:
    """Deal with ``rng`` and let the bots play to the end.

    >>> from caterpillar_learn.raupe.bots import LEVELS
    >>> game = play_bot_game(2, random.Random(3), [LEVELS["expert"]] * 2)
    >>> game.final.finished, len(game.outcome.winners) >= 1
    (True, True)
    """
    if len(levels) != players:
        raise SetupError(describe("bot levels", len(levels), f"one per player ({players})"))
    state = deal(players, rng, deck)
    top = state.pile[-1].face
    assert top is not None  # the pile starts with a caterpillar card
    state = replace(state, mode=choose_start_mode(state.hands[YOUNGEST], top))
    initial = state
    events: list[Event] = []
    made = caught = false_calls = 0
    while not state.finished:
        best = next_table_event(state, levels, rng)
        assert best is not None, "a bot always acts while somebody can play"
        state = apply(state, best)
        events.append(best)
        if type(best) is Play:
            made += bool(state.last and state.last.mistakes)
        elif state.penalty is not None:
            if state.penalty.right:
                caught += 1
            else:
                false_calls += 1
    result = outcome(state)
    assert result is not None
    return BotGame(initial, tuple(events), state, result, made, caught, false_calls)


@dataclass(frozen=True, slots=True)
class Statistics:
    """Totals over many bot games (a tie counts as a win for each winner)."""

    players: int
    games: int
    level: str
    seed: int
    wins: list[int]
    mean_plays: float
    mean_seconds: float
    mistakes_made: int
    mistakes_caught: int
    false_calls: int
    stalemates: int

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object of the statistics."""
        return asdict(self)


def simulate(
    players: int,
    seed: int,
    games: int,
    level: str,
    deck: tuple[Card, ...] | None = None,
) -> Statistics:
    """Play ``games`` bot games at ``level`` from one seeded generator."""
    if not 1 <= games <= MAX_GAMES:
        raise SetupError(describe("games", games, f"1 to {MAX_GAMES}"))
    bot = get_level(level)
    rng = random.Random(seed)
    wins = [0] * players
    plays = seconds = 0.0
    made = caught = false_calls = stalemates = 0
    for _ in range(games):
        game = play_bot_game(players, rng, [bot] * players, deck)
        for seat in game.outcome.winners:
            wins[seat] += 1
        plays += game.final.plays
        seconds += game.final.clock
        made += game.mistakes_made
        caught += game.mistakes_caught
        false_calls += game.false_calls
        stalemates += game.outcome.stalemate
    return Statistics(
        players=players,
        games=games,
        level=level,
        seed=seed,
        wins=wins,
        mean_plays=round(plays / games, 3),
        mean_seconds=round(seconds / games, 3),
        mistakes_made=made,
        mistakes_caught=caught,
        false_calls=false_calls,
        stalemates=stalemates,
    )
