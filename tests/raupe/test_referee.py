"""The referee on hand-made positions: matching, mistakes, calls, cuts, the end."""

from __future__ import annotations

import random

import pytest

from caterpillar_learn.raupe.cards import BUTTERFLY, Card, Mode, parse_card
from caterpillar_learn.raupe.errors import IllegalEventError, SetupError
from caterpillar_learn.raupe.game import Game
from caterpillar_learn.raupe.notation import state_to_json
from caterpillar_learn.raupe.referee import (
    Call,
    Close,
    Mistake,
    Placed,
    Play,
    PlayableSide,
    State,
    apply,
    cut_pile,
    deal,
    legal_plays,
    nobody_can_play,
    outcome,
    playable_sides,
)

# Top card: a round red caterpillar on a jagged green leaf (side 0).
START = parse_card("round-red@jagged-green|straight-yellow@round-red")
APHID_START = parse_card("round-red@jagged-green+aphid|straight-yellow@round-red")
JAGGED = parse_card("jagged-yellow@straight-red|round-yellow@round-green")  # side 0 fits shape
GREEN = parse_card("straight-green@round-red|round-yellow@straight-green")  # side 0 fits colour
NEITHER = parse_card("straight-red@round-yellow|round-yellow@straight-red")
CHANGE = parse_card("jagged-red@round-yellow+sky|straight-green@jagged-red+sky")


def table(*hands: tuple[Card, ...], top: Card = START, mode: Mode = Mode.SHAPE) -> State:
    return State(hands=tuple(hands), pile=(Placed(top, 0),), out=(), mode=mode)


def test_a_matching_side_is_no_mistake() -> None:
    state = apply(table((JAGGED, NEITHER), (NEITHER,)), Play(1.0, 0, JAGGED, 0))
    assert state.last is not None and state.last.mistakes == ()
    assert state.hands[0] == (NEITHER,)
    assert state.pile[-1] == Placed(JAGGED, 0)


def test_the_mode_decides_what_matches() -> None:
    state = table((JAGGED, GREEN, NEITHER), (NEITHER,), mode=Mode.COLOUR)
    assert legal_plays(state, 0) == [PlayableSide(1, 0)]
    after = apply(state, Play(1.0, 0, JAGGED, 0))
    assert after.last is not None and after.last.mistakes == (Mistake.WRONG_CARD,)


def test_either_side_of_a_hand_card_may_be_played() -> None:
    back_fits = parse_card("straight-red@round-yellow|jagged-yellow@round-red")
    assert legal_plays(table((back_fits, NEITHER), (NEITHER,)), 0) == [PlayableSide(0, 1)]


def test_missing_aphid_is_a_mistake_and_the_call_clears_it() -> None:
    state = table((JAGGED, NEITHER), (NEITHER,), top=APHID_START)
    assert state.aphid_owed
    quiet = apply(state, Play(1.0, 0, JAGGED, 0))
    assert quiet.last is not None and quiet.last.mistakes == (Mistake.MISSING_APHID,)
    shouted = apply(state, Play(1.0, 0, JAGGED, 0, aphid=True))
    assert shouted.last is not None and shouted.last.mistakes == ()


def test_change_card_flips_the_mode_and_needs_the_announcement() -> None:
    state = table((CHANGE, NEITHER), (NEITHER,))
    assert PlayableSide(0, 0) in legal_plays(state, 0)
    good = apply(state, Play(1.0, 0, CHANGE, 0, announce=Mode.COLOUR))
    assert good.mode is Mode.COLOUR and good.last is not None and good.last.mistakes == ()
    silent = apply(state, Play(1.0, 0, CHANGE, 0))
    assert silent.mode is Mode.COLOUR
    assert silent.last is not None and silent.last.mistakes == (Mistake.MISSING_ANNOUNCEMENT,)
    wrong_word = apply(state, Play(1.0, 0, CHANGE, 0, announce=Mode.SHAPE))
    assert wrong_word.last is not None
    assert wrong_word.last.mistakes == (Mistake.MISSING_ANNOUNCEMENT,)


def test_butterfly_then_any_card_by_the_same_player() -> None:
    state = table((BUTTERFLY, NEITHER, JAGGED), (NEITHER, JAGGED))
    state = apply(state, Play(1.0, 0, BUTTERFLY, announce=Mode.COLOUR))
    assert state.mode is Mode.COLOUR and state.follow_up == 0
    assert legal_plays(state, 1) == []
    with pytest.raises(IllegalEventError, match="player: got 1, expected seat 0"):
        apply(state, Play(1.1, 1, NEITHER, 0))
    state = apply(state, Play(1.2, 0, NEITHER, 1))
    assert state.last is not None and state.last.mistakes == ()
    assert state.follow_up is None


def test_butterfly_without_announcement_keeps_the_mode() -> None:
    state = apply(table((BUTTERFLY, NEITHER), (NEITHER,)), Play(1.0, 0, BUTTERFLY))
    assert state.mode is Mode.SHAPE
    assert state.last is not None and state.last.mistakes == ()


def test_butterfly_needs_a_card_to_follow_unless_it_is_the_last() -> None:
    assert playable_sides((BUTTERFLY, BUTTERFLY), START.sides[0], Mode.SHAPE) == []
    assert playable_sides((BUTTERFLY,), START.sides[0], Mode.SHAPE) == [PlayableSide(0, 0)]
    with pytest.raises(IllegalEventError, match="butterfly"):
        apply(table((BUTTERFLY, BUTTERFLY), (NEITHER,)), Play(1.0, 0, BUTTERFLY))


def test_right_call_gives_the_offender_three_cards_from_the_caller() -> None:
    caller_hand = (NEITHER, GREEN, JAGGED, NEITHER, BUTTERFLY)
    state = apply(table((NEITHER, JAGGED), caller_hand), Play(1.0, 0, NEITHER, 0))
    state = apply(state, Call(1.5, 1, (1,)))
    penalty = state.penalty
    assert penalty is not None and penalty.right and penalty.receiver == 0
    assert len(penalty.cards) == 3 and BUTTERFLY not in penalty.cards
    assert len(state.hands[0]) == 4 and len(state.hands[1]) == 2
    assert state.last is None and state.mode is Mode.SHAPE


def test_false_call_gives_the_caller_cards_from_the_accused() -> None:
    state = apply(table((JAGGED, NEITHER), (NEITHER,)), Play(1.0, 0, JAGGED, 0))
    state = apply(state, Call(1.5, 1, (1,)))
    penalty = state.penalty
    assert penalty is not None and not penalty.right
    # The accused held a single card: fewer than 3 move, and that empties the hand.
    assert penalty.cards == (NEITHER,) and state.hands == ((), (NEITHER, NEITHER))


def test_calls_that_the_table_refuses() -> None:
    state = table((JAGGED, NEITHER), (NEITHER,))
    with pytest.raises(IllegalEventError, match="call: got 1, expected a newly played card"):
        apply(state, Call(1.0, 1, (1,)))
    state = apply(state, Play(1.0, 0, JAGGED, 0))
    with pytest.raises(IllegalEventError, match="caller: got 0"):
        apply(state, Call(1.5, 0, (1,)))
    with pytest.raises(IllegalEventError, match="cut depth: got 3, expected 1 to 2"):
        apply(state, Call(1.5, 1, (3,)))


def test_cut_turns_the_lifted_block_over() -> None:
    pile = (Placed(START, 0), Placed(JAGGED, 0), Placed(GREEN, 1))
    assert cut_pile(pile, 1) == (Placed(START, 0), Placed(JAGGED, 0), Placed(GREEN, 0))
    assert cut_pile(pile, 3) == (Placed(GREEN, 0), Placed(JAGGED, 1), Placed(START, 1))


def test_a_cut_showing_a_butterfly_must_be_cut_again() -> None:
    state = table((BUTTERFLY, JAGGED, NEITHER), (NEITHER, GREEN))
    state = apply(state, Play(1.0, 0, BUTTERFLY))
    state = apply(state, Play(1.1, 0, NEITHER, 0))
    # Depth 2 shows the butterfly, so a second cut is required.
    with pytest.raises(IllegalEventError, match="cuts again only while a butterfly shows"):
        apply(state, Call(2.0, 1, (2,)))
    with pytest.raises(IllegalEventError, match="cuts again only while a butterfly shows"):
        apply(state, Call(2.0, 1, (1, 1)))
    with pytest.raises(IllegalEventError, match="cuts again only while a butterfly shows"):
        apply(state, Call(2.0, 1, (2, 1)))  # the butterfly alone is turned: still on top
    after = apply(state, Call(2.0, 1, (2, 2)))
    assert after.pile[-1] == Placed(NEITHER, 0)


def test_table_rules_time_and_cards() -> None:
    state = table((JAGGED, NEITHER), (NEITHER,))
    with pytest.raises(IllegalEventError, match=r"card: got .* expected a card in the hand"):
        apply(state, Play(1.0, 0, GREEN, 0))
    with pytest.raises(IllegalEventError, match="player: got 2, expected a seat from 0 to 1"):
        apply(state, Play(1.0, 2, JAGGED, 0))
    state = apply(state, Play(2.0, 0, JAGGED, 0))
    with pytest.raises(IllegalEventError, match=r"event time: got 1\.0"):
        apply(state, Play(1.0, 1, NEITHER, 0))
    with pytest.raises(IllegalEventError, match="close"):
        apply(table((JAGGED,), (NEITHER,)), Close(1.0))


def test_empty_hand_wins_after_the_call_window() -> None:
    state = apply(table((JAGGED,), (NEITHER, GREEN)), Play(1.0, 0, JAGGED, 0))
    with pytest.raises(IllegalEventError, match="a hand is empty"):
        apply(state, Play(1.5, 1, NEITHER, 0))
    assert outcome(state) is None
    done = apply(state, Close(3.0))
    result = outcome(done)
    assert result is not None and result.winners == (0,) and not result.stalemate
    with pytest.raises(IllegalEventError, match="the game is over"):
        apply(done, Close(4.0))


def test_a_called_last_card_comes_back_with_penalty_cards() -> None:
    state = apply(table((NEITHER,), (JAGGED, GREEN, NEITHER, CHANGE)), Play(1.0, 0, NEITHER, 0))
    state = apply(state, Call(1.4, 1, (1,)))
    assert len(state.hands[0]) == 3 and len(state.hands[1]) == 1


def test_stalemate_fewest_cards_win_and_ties_share() -> None:
    stuck = table((NEITHER, NEITHER), (NEITHER, NEITHER), (NEITHER, NEITHER, NEITHER))
    assert nobody_can_play(stuck)
    result = outcome(apply(stuck, Close(2.0)))
    assert result is not None and result.winners == (0, 1) and result.stalemate


def test_deal_shares_cards_and_keeps_extras_out() -> None:
    for players in (2, 3, 4):
        state = deal(players, random.Random(players))
        sizes = {len(hand) for hand in state.hands}
        assert len(sizes) == 1
        for hand in state.hands:
            assert sum(card.is_butterfly for card in hand) == 1
            assert sum(card.is_change for card in hand) == 1
        total = sum(map(len, state.hands)) + len(state.pile) + len(state.out)
        assert total == 81 and len(state.out) == 2 * (4 - players)
        assert not state.pile[-1].card.is_change and state.pile[-1].card.sides
    with pytest.raises(SetupError, match="players: got 1, expected 2 to 4"):
        deal(1, random.Random(0))


def test_deal_is_seeded() -> None:
    assert deal(3, random.Random(9)) == deal(3, random.Random(9))
    assert deal(3, random.Random(9)) != deal(3, random.Random(10))


def test_game_draws_cuts_and_round_trips_as_json() -> None:
    game = Game(players=2, seed=3)
    option = game.legal_plays(0)[0]
    card = game.state.hands[0][option.card]
    game.play(0, card, option.side, time=1.0, aphid=False)
    game.call(1, time=1.5)
    copy = Game.from_json(game.to_json())
    assert copy.state == game.state and copy.events == game.events


def test_deal_puts_the_remainder_of_a_custom_deck_out_of_the_game() -> None:
    deck = (START,) * 8 + (BUTTERFLY,) * 3 + (CHANGE,) * 4
    state = deal(3, random.Random(0), deck)
    assert [len(hand) for hand in state.hands] == [4, 4, 4]  # 2 caterpillars + 2 specials
    assert len(state.out) == 1 + 1  # one caterpillar left over, one change card
    with pytest.raises(SetupError, match="butterflies: got 3, expected at least one per player"):
        deal(4, random.Random(0), deck)


def test_game_json_continues_like_the_original() -> None:
    game = Game(players=3, seed=8)
    for seat, when in ((0, 1.0), (1, 2.0)):
        options = game.legal_plays(seat)
        card = game.state.hands[seat][options[0].card]
        game.play(
            seat,
            card,
            options[0].side,
            time=when,
            aphid=game.state.aphid_owed,
            announce=game.state.mode.other if card.is_change else None,
        )
        game.call((seat + 1) % 3, time=when + 0.5)
    copy = Game.from_json(game.to_json())
    assert copy.rng.random() == game.rng.random()
    assert state_to_json(copy.state) == state_to_json(game.state)
