"""Hypothesis properties: any game keeps every card, ends, and penalties move min(3, held)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.raupe.bots import LEVELS
from caterpillar_learn.raupe.cards import Card, Mode
from caterpillar_learn.raupe.deck import standard_deck
from caterpillar_learn.raupe.errors import IllegalEventError
from caterpillar_learn.raupe.game import Game, replay
from caterpillar_learn.raupe.referee import (
    PENALTY_CARDS,
    Call,
    Close,
    Event,
    Play,
    State,
    apply,
    draw_cuts,
    has_empty_hand,
    nobody_can_play,
    outcome,
)
from caterpillar_learn.raupe.simulate import play_bot_game

DECK = Counter(standard_deck())
# Every play removes a card from the hands; calls need a play between them.
MAX_EVENTS = 2 * 81 + 2


def all_cards(state: State) -> Counter[Card]:
    cards: Counter[Card] = Counter(placed.card for placed in state.pile)
    cards.update(state.out)
    for hand in state.hands:
        cards.update(hand)
    return cards


def check_step(before: State, event: Event, after: State) -> None:
    assert all_cards(after) == DECK
    if isinstance(event, Call):
        penalty = after.penalty
        assert penalty is not None
        held = len(before.hands[penalty.giver])
        moved = min(PENALTY_CARDS, held)
        assert len(penalty.cards) == moved
        assert len(after.hands[penalty.giver]) == held - moved
        assert len(after.hands[penalty.receiver]) == len(before.hands[penalty.receiver]) + moved
        assert after.mode is before.mode
        assert after.pile[-1].card.sides, "a cut always ends on a caterpillar card"
        assert len(after.pile) == len(before.pile)
    if isinstance(event, Play):
        assert len(after.pile) == len(before.pile) + 1
        assert sum(map(len, after.hands)) == sum(map(len, before.hands)) - 1


levels = st.sampled_from(sorted(LEVELS))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    level_names=st.lists(levels, min_size=4, max_size=4),
)
def test_bot_games_keep_cards_end_and_penalise_correctly(seed: int, players: int, level_names: list[str]) -> None:
    bots = [LEVELS[name] for name in level_names[:players]]
    game = play_bot_game(players, random.Random(seed), bots)
    assert len(game.events) <= MAX_EVENTS
    state = game.initial
    for event in game.events:
        after = apply(state, event)
        check_step(state, event, after)
        state = after
    assert state == game.final and state.finished
    result = outcome(state)
    assert result is not None and result.winners
    sizes = [len(hand) for hand in state.hands]
    assert all(sizes[seat] == min(sizes) for seat in result.winners)
    if not result.stalemate:
        assert min(sizes) == 0
    # The same seed and events replay to the same end through a fresh deal.
    fresh = Game(players, seed, game.initial.mode)
    assert replay(fresh.initial, list(game.events)) == state


def chaos_event(state: State, rng: random.Random) -> Event:
    """Any event a careless person might produce, legal or not."""
    time = state.clock + rng.random()
    roll = rng.random()
    if roll < 0.1:
        return Close(time)
    if roll < 0.25:
        return Call(time, rng.randrange(state.players), draw_cuts(state.pile, rng))
    seat = state.follow_up if state.follow_up is not None else rng.randrange(state.players)
    hand = state.hands[seat]
    if not hand:
        return Close(time)
    card = hand[rng.randrange(len(hand))]
    side = rng.randrange(2) if card.sides else 0
    announce = rng.choice([None, Mode.SHAPE, Mode.COLOUR])
    return Play(time, seat, card, side, rng.random() < 0.7, announce)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_careless_players_never_break_the_table(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = Game(players, seed)
    state = game.state
    for _ in range(5000):
        if state.finished:
            break
        event = chaos_event(state, rng)
        try:
            after = apply(state, event)
        except IllegalEventError:
            if isinstance(event, Close):
                assert not (has_empty_hand(state) or nobody_can_play(state))
            continue
        check_step(state, event, after)
        state = after
    assert state.finished
