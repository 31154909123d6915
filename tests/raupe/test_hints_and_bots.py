"""Hints (with catalogue texts) and bot behaviour."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from caterpillar_learn.raupe.bots import (
    LEVELS,
    choose_start_mode,
    get_level,
    propose,
    reaction_time,
)
from caterpillar_learn.raupe.cards import BUTTERFLY, Mode, parse_card, parse_hand, parse_side
from caterpillar_learn.raupe.errors import UnknownLevelError
from caterpillar_learn.raupe.hints import (
    aphid_text,
    call_text,
    change_advice,
    explain_mistake,
    mode_name,
    penalty_text,
    playable_hint,
    strategy_hint,
    winner_text,
)
from caterpillar_learn.raupe.referee import Call, Mistake, Placed, Play, State, apply
from caterpillar_learn.raupe.simulate import simulate

TOP = parse_side("straight-red@round-yellow")  # shape wants round, colour wants yellow
ROUND = parse_card("round-green@jagged-red|jagged-red@straight-green")
YELLOW = parse_card("straight-yellow@jagged-red|jagged-yellow@straight-green")
NEITHER = parse_card("straight-green@jagged-red|jagged-red@straight-green")
CHANGE = parse_card("round-red@jagged-green+sky|jagged-green@round-red+sky")  # fits shape
CATALOGUE = Path(__file__).resolve().parents[2] / "caterpillar_learn" / "i18n" / "en" / "raupe.json"


def test_every_catalogue_key_is_used_and_every_template_is_valid() -> None:
    messages = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    source = "".join(path.read_text(encoding="utf-8") for path in (CATALOGUE.parents[2] / "raupe").glob("*.py"))
    for key, template in messages.items():
        list(string.Formatter().parse(template))  # raises on a broken template
        prefix = key.rsplit(".", 1)[0]
        assert f'"raupe.{key}"' in source or f"raupe.{prefix}." in source, key


def test_keep_the_butterfly_while_a_caterpillar_fits() -> None:
    assert "keep the butterfly" in strategy_hint((BUTTERFLY, ROUND), TOP, Mode.SHAPE)
    assert "dead end" in strategy_hint((BUTTERFLY, NEITHER), TOP, Mode.SHAPE)
    assert "wait" in strategy_hint((NEITHER,), TOP, Mode.SHAPE)
    assert "any card may follow" in strategy_hint((NEITHER,), TOP, Mode.SHAPE, after_butterfly=True)


def test_change_card_advice_counts_both_modes() -> None:
    # After the change card (leaf jagged-green, colour mode) two green caterpillars fit;
    # now, in shape mode, only ROUND fits the round leaf.
    hand = (CHANGE, ROUND, NEITHER, NEITHER)
    advice = change_advice(hand, TOP, Mode.SHAPE)
    assert advice is not None and (advice.now, advice.after) == (1, 3)
    assert "Play card 1, the change card: in Colour mode 3" in strategy_hint(hand, TOP, Mode.SHAPE)
    assert change_advice((CHANGE, ROUND, ROUND), TOP, Mode.SHAPE) is None  # a draw: 2 and 2
    assert change_advice((CHANGE, YELLOW), TOP, Mode.SHAPE) is None


def test_playable_hint_lists_sides_in_words() -> None:
    state = State(
        hands=((ROUND, NEITHER, BUTTERFLY), (NEITHER,)),
        pile=(Placed(parse_card("straight-red@round-yellow|jagged-red@round-green"), 0),),
        out=(),
        mode=Mode.SHAPE,
    )
    assert playable_hint(state, 0) == [
        "Card 1, side 1: a round green caterpillar on a jagged red leaf.",
        "Card 3: the butterfly (a joker).",
    ]
    assert playable_hint(state, 1) == ["None of your cards may go on the pile now."]


def test_texts() -> None:
    assert mode_name(Mode.SHAPE) == "Shape"
    assert "announcing the new mode" in explain_mistake(Mistake.MISSING_ANNOUNCEMENT)
    assert winner_text((0, 1, 3), stalemate=True).endswith("players 1, 2 and 4 win together.")
    assert call_text(Mode.COLOUR) == "Colour!" and aphid_text() == "Aphid!"
    assert winner_text((2,), stalemate=True).startswith("Nobody can play any more. Player 3")


def test_levels_are_ordered_by_skill() -> None:
    beginner, advanced, expert = (LEVELS[n] for n in ("beginner", "advanced", "expert"))
    assert beginner.reaction_median > advanced.reaction_median > expert.reaction_median
    assert beginner.error_rate > advanced.error_rate > expert.error_rate
    assert beginner.notice_chance < advanced.notice_chance < expert.notice_chance
    with pytest.raises(UnknownLevelError, match="bot level: got 'pro'"):
        get_level("pro")


def test_reaction_time_grows_with_the_hand() -> None:
    few = [reaction_time(LEVELS["advanced"], 2, random.Random(s)) for s in range(200)]
    many = [reaction_time(LEVELS["advanced"], 20, random.Random(s)) for s in range(200)]
    assert sum(many) > sum(few) and min(few) > 0


def test_bots_call_mistakes_they_notice() -> None:
    state = State(hands=((NEITHER, NEITHER), (ROUND,)), pile=(Placed(ROUND, 1),), out=(), mode=Mode.COLOUR)
    # ROUND side 1 has a straight green leaf: in colour mode NEITHER side 0 fits; side 1 does not.
    state = apply(state, Play(1.0, 0, NEITHER, 1))
    assert state.last is not None and state.last.mistakes == (Mistake.WRONG_CARD,)
    noticed = propose(state, 1, LEVELS["expert"], random.Random(0))
    assert isinstance(noticed, Call) and noticed.time > 1.0


def test_bots_play_only_legal_sides_when_they_do_not_slip() -> None:
    flawless = LEVELS["expert"].__class__("flawless", 1.0, 0.0, 0.1, 0.0, 1.0, 0.0)
    state = State(
        hands=((NEITHER, ROUND, BUTTERFLY), (NEITHER,)),
        pile=(Placed(parse_card("straight-red@round-yellow|jagged-red@round-green"), 0),),
        out=(),
        mode=Mode.SHAPE,
    )
    event = propose(state, 0, flawless, random.Random(1))
    assert isinstance(event, Play) and event.card == ROUND and event.side == 0
    assert propose(state, 1, flawless, random.Random(1)) is None


def test_start_mode_and_simulation_statistics() -> None:
    assert choose_start_mode(parse_hand("straight-yellow@round-red|straight-green@round-red"), TOP) is Mode.COLOUR
    stats = simulate(players=4, seed=3, games=30, level="beginner")
    assert stats.games == 30 and sum(stats.wins) >= 30
    assert stats.mistakes_caught <= stats.mistakes_made
    assert 20 < stats.mean_plays < 200 and stats.mean_seconds > 0
    assert simulate(players=4, seed=3, games=30, level="beginner") == stats


def test_penalty_text_after_calls() -> None:
    state = State(
        hands=((NEITHER, ROUND), (NEITHER, NEITHER, YELLOW, ROUND)),
        pile=(Placed(ROUND, 1),),
        out=(),
        mode=Mode.COLOUR,
    )
    wrong = apply(state, Play(1.0, 0, NEITHER, 1))
    right_call = apply(wrong, Call(2.0, 1, (1,)))
    assert right_call.penalty is not None
    assert penalty_text(right_call.penalty) == (
        "Player 2 was right: player 1 takes 3 of player 2's cards. That caterpillar does not fit the leaf below."
    )
    fine = apply(state, Play(1.0, 0, NEITHER, 0))
    false_call = apply(fine, Call(2.0, 1, (1,)))
    assert false_call.penalty is not None
    assert penalty_text(false_call.penalty) == ("There was no mistake: player 2 takes 1 of player 1's cards.")


def test_a_person_and_a_bot_share_the_referee() -> None:
    """A widget's loop: the person acts at a fixed pace unless the bot is quicker."""
    from caterpillar_learn.raupe.game import Game
    from caterpillar_learn.raupe.referee import Close
    from caterpillar_learn.raupe.simulate import next_table_event

    game = Game(players=2, seed=21)
    levels = [None, LEVELS["beginner"]]
    for _ in range(400):
        if game.state.finished:
            break
        bot_event = next_table_event(game.state, levels, game.rng)
        options = game.legal_plays(0)
        person_time = game.state.clock + 4.0
        if options and (bot_event is None or person_time < bot_event.time):
            card = game.state.hands[0][options[0].card]
            game.play(
                0,
                card,
                options[0].side,
                time=person_time,
                aphid=game.state.aphid_owed,
                announce=game.state.mode.other if card.is_change else None,
            )
        elif bot_event is not None:
            game.submit(bot_event)
        else:
            game.submit(Close(game.state.clock + 2.0))
    assert game.state.finished
    assert any(isinstance(e, Play) and e.player == 0 for e in game.events)
    assert any(isinstance(e, Play) and e.player == 1 for e in game.events)
