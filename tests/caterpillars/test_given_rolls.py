"""Dice given from outside (a class's shared roll, real dice typed in), and checking a choice before making it."""

from __future__ import annotations

import random

import pytest

from caterpillar_learn.caterpillars import (
    Game,
    IllegalMoveError,
    InvalidRollError,
    InvalidStateError,
    Move,
    Roll,
    SetupChoice,
)
from caterpillar_learn.caterpillars.game import choice_from_json, choice_to_json


def _pick(game: Game, rng: random.Random) -> Move | SetupChoice:
    choices = game.legal_moves()
    choice = choices[rng.randrange(len(choices))]
    assert isinstance(choice, Move | SetupChoice)
    return choice


@pytest.mark.parametrize(("level", "variation"), [("beginner", False), ("advanced", True), ("expert", False)])
def test_a_game_given_the_rolls_of_a_seeded_game_plays_it_again(level: str, variation: bool) -> None:
    seeded = Game(level, variation=variation, seed=9)
    given = Game(level, variation=variation, seed=12345)  # its own generator is never used
    rng = random.Random(4)
    while seeded.phase != "over":
        assert not given.has_roll
        given.add_roll(seeded.roll())
        assert given.has_roll and given.roll() == seeded.roll()
        choice = _pick(seeded, rng)
        seeded.play(choice)
        given.play(choice)
    assert given.state == seeded.state and given.rolls == seeded.rolls and not given.has_roll


def test_rolls_may_be_given_ahead_and_are_kept_in_order() -> None:
    game = Game("beginner", labels=[1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1])
    for dice in [(1, 2), (3, 4), (5, 6)]:
        game.add_roll(Roll(dice))
    game.play(game.legal_moves().first())
    assert game.roll() == Roll((3, 4)) and len(game.rolls) == 3


@pytest.mark.parametrize(
    ("labels", "roll", "error"),
    [
        (None, Roll((1, 2)), InvalidStateError),  # a setup turn takes three dice
        ([1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1], Roll((1, 2, 3)), InvalidRollError),  # Beginner plays two
        ([1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1], Roll((1, 7)), InvalidRollError),
        ([1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1], Roll((1, 2), "butterfly"), InvalidRollError),
        ([1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1], (1, 2), InvalidStateError),
    ],
)
def test_a_bad_roll_is_refused_and_changes_nothing(labels: list[int] | None, roll: object, error: type) -> None:
    game = Game("beginner") if labels is None else Game("beginner", labels=labels)
    with pytest.raises(error) as refused:
        game.add_roll(roll)  # type: ignore[arg-type]
    assert str(refused.value).startswith("rolls[0]: ") and game.rolls == []


def test_no_more_rolls_than_turns() -> None:
    game = Game("beginner", labels=[1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1])
    for _ in range(game.turns):
        game.add_roll(Roll((2, 2)))
    with pytest.raises(IllegalMoveError, match="at most 12"):
        game.add_roll(Roll((2, 2)))


def test_check_names_the_move_play_would_record_and_changes_nothing() -> None:
    game = Game("intermediate", labels=[1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1], rolls=[Roll((2, 3, 6))])
    move = game.legal_moves().first()
    checked = game.check(Move(move.slot, move.score, move.zero, move.bonus))  # the bare effect, without its ways
    assert checked == move and isinstance(checked, Move) and checked.ways == move.ways
    assert game.state.filled == 0 and not game.history
    illegal = Move.of("Alex", 0, 12)  # label 1 cannot take 12 from the dice 2 3 6
    with pytest.raises(IllegalMoveError) as by_check:
        game.check(illegal)
    with pytest.raises(IllegalMoveError) as by_play:
        game.play(illegal)
    assert str(by_check.value) == str(by_play.value) and game.state.filled == 0


def test_choices_round_trip_through_json() -> None:
    game = Game("advanced", variation=True, seed=3)
    rng = random.Random(7)
    while game.phase != "over":
        game.play(_pick(game, rng))
    replayed = Game("advanced", variation=True, rolls=game.rolls)
    for turn in game.history:
        saved = choice_to_json(turn.choice)
        assert choice_from_json(saved) == turn.choice
        replayed.play(choice_from_json(saved))
    assert replayed.state == game.state
