"""The mutable Game: seeded rolls, history, undo, save and load."""

from __future__ import annotations

import json
import random

import pytest

from caterpillar_learn.caterpillars import (
    CaterpillarsError,
    Game,
    IllegalMoveError,
    InvalidStateError,
    Move,
)


def play_out(game: Game, rng: random.Random) -> None:
    while game.phase != "over":
        choices = game.legal_moves()
        game.play(choices[rng.randrange(len(choices))])


def test_same_seed_same_rolls_whatever_the_choices() -> None:
    """All players share the dice: a class with one seed sees the same rolls."""
    a, b = Game("expert", seed=11), Game("expert", seed=11)
    play_out(a, random.Random(1))
    play_out(b, random.Random(2))
    assert a.rolls == b.rolls and a.state != b.state


def test_undo_keeps_the_roll_and_the_later_rolls() -> None:
    game = Game("intermediate", seed=5)
    play_out(game, random.Random(3))
    rolls = list(game.rolls)
    for _ in range(5):
        game.undo()
    assert game.roll() == rolls[len(game.history)]
    play_out(game, random.Random(4))
    assert game.rolls == rolls


def test_history_records_every_choice_with_its_roll() -> None:
    game = Game("advanced", variation=True, seed=8)
    play_out(game, random.Random(8))
    assert len(game.history) == 3 + 12
    assert [t.is_setup for t in game.history] == [True] * 3 + [False] * 12
    assert all(isinstance(t.choice, Move) and t.choice.ways for t in game.history[3:])


def test_save_and_load_round_trip_mid_game_including_the_generator() -> None:
    game = Game("expert", seed=21)
    rng = random.Random(0)
    for _ in range(7):
        choices = game.legal_moves()
        game.play(choices[rng.randrange(len(choices))])
    saved = json.loads(json.dumps(game.to_json()))
    loaded = Game.from_json(saved)
    assert loaded.state == game.state and loaded.rolls == game.rolls
    assert [t.choice for t in loaded.history] == [t.choice for t in game.history]
    play_out(game, random.Random(9))
    play_out(loaded, random.Random(9))
    assert loaded.state == game.state


def test_an_illegal_move_changes_nothing() -> None:
    game = Game("beginner", labels=[1] * 12, seed=1)
    before = game.state
    roll = game.roll()
    bad = Move.of("Alex", 0, 6 if 6 not in roll.dice else 5)
    with pytest.raises(IllegalMoveError):
        game.play(bad)
    assert game.state == before and not game.history


def test_a_tampered_save_is_refused_with_a_clear_error() -> None:
    game = Game("beginner", labels=[1] * 12, seed=1)
    game.play(game.legal_moves()[0])
    saved = game.to_json()
    saved["rolls"][0]["dice"] = [7, 1]
    with pytest.raises(CaterpillarsError, match="got die 7"):
        Game.from_json(saved)
    with pytest.raises(InvalidStateError, match="saved game format"):
        Game.from_json({"format": 99})


def test_undo_at_the_start_and_rolling_after_the_end_are_errors() -> None:
    game = Game("beginner", labels=[1] * 12, seed=1)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()
    play_out(game, random.Random(1))
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.roll()


def test_a_malformed_save_is_one_clear_error() -> None:
    game = Game("beginner", labels=[1] * 12, seed=1)
    saved = game.to_json()
    del saved["rng"]
    with pytest.raises(InvalidStateError, match="saved game: got a malformed save"):
        Game.from_json(saved)
