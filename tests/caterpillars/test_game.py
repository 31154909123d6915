"""The mutable Game: seeded rolls, history, undo, save and load."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.caterpillars import (
    CaterpillarsError,
    Game,
    IllegalMoveError,
    InvalidRollError,
    InvalidStateError,
    Level,
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
    with pytest.raises(InvalidStateError, match=r"^rng: got None, expected \[3, a list of 625 whole numbers"):
        Game.from_json(saved)


def test_is_over_and_initial_name_the_same_ideas_as_in_raupe() -> None:
    game = Game("intermediate", seed=2)
    start = game.initial
    assert not game.is_over and game.start is start
    play_out(game, random.Random(2))
    assert game.is_over and game.phase == "over" and game.initial is start
    assert Game.from_json(game.to_json()).is_over


def test_the_constructor_refuses_bad_labels_and_variation() -> None:
    with pytest.raises(InvalidStateError, match=r"^labels\.Bobby\[0\]: got 13, expected a label from 1 to 12"):
        Game("beginner", labels=[1, 2, 3, 4, 13, 2, 3, 4, 1, 2, 3, 4])
    with pytest.raises(InvalidStateError, match=r"^variation: got 'no', expected true or false"):
        Game("advanced", variation="no")  # type: ignore[arg-type]


# -- round trips and hostile saves -------------------------------------------------


def through_text(data: dict[str, Any]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded


def check_one_line(error: BaseException) -> str:
    message = str(error)
    assert "\n" not in message and 0 < len(message) < 300, message
    return message


@settings(max_examples=30, deadline=None)
@given(
    level=st.sampled_from(list(Level)),
    variation=st.booleans(),
    seed=st.integers(0, 2**32),
    turns=st.integers(0, 16),
    undos=st.integers(0, 3),
)
def test_any_game_round_trips_through_json_text(
    level: Level, variation: bool, seed: int, turns: int, undos: int
) -> None:
    game = Game(level, variation=variation and level.rules.setup_variation, seed=seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over:
            break
        choices = game.legal_moves()
        game.play(choices[rng.randrange(len(choices))])
    for _ in range(min(undos, len(game.history))):
        game.undo()
    saved = game.to_json()
    loaded = Game.from_json(through_text(saved))
    assert loaded.state == game.state and loaded.rolls == game.rolls and loaded.initial == game.initial
    assert [t.choice for t in loaded.history] == [t.choice for t in game.history]
    assert loaded.to_json() == saved
    if not game.is_over:
        assert loaded.roll() == game.roll()


def saved_game() -> dict[str, Any]:
    """An Advanced game with the setup variation, set up and three rounds in."""
    game = Game("advanced", variation=True, seed=4)
    rng = random.Random(4)
    for _ in range(6):
        choices = game.legal_moves()
        game.play(choices[rng.randrange(len(choices))])
    return through_text(game.to_json())


def changed(**fields: object) -> Callable[[dict[str, Any]], object]:
    return lambda data: {**data, **fields}


def without(key: str) -> Callable[[dict[str, Any]], object]:
    return lambda data: {k: v for k, v in data.items() if k != key}


def label(value: object) -> Callable[[dict[str, Any]], object]:
    return lambda data: {**data, "labels": [value, *data["labels"][1:]]}


def at(key: str, index: int, value: object) -> Callable[[dict[str, Any]], object]:
    def change(data: dict[str, Any]) -> object:
        result = copy.deepcopy(data)
        result[key][index] = value
        return result

    return change


def deep(levels: int) -> object:
    value: object = []
    for _ in range(levels):
        value = [value]
    return value


SETUP_ROLL = {"dice": [1, 2, 3], "action": None}
HOSTILE: list[tuple[str, Callable[[dict[str, Any]], object], type[CaterpillarsError], str]] = [
    ("a list", lambda data: [data], InvalidStateError, "saved game: got [{"),
    ("JSON text", json.dumps, InvalidStateError, "saved game: got '{"),
    ("format missing", without("format"), InvalidStateError, "saved game format: got None"),
    ("format true", changed(format=True), InvalidStateError, "saved game format: got True"),
    ("unknown key", changed(seed=4), InvalidStateError, "saved game key: got 'seed'"),
    ("level", changed(level="pro"), InvalidStateError, "level: got 'pro'"),
    ("level list", changed(level=["advanced"]), InvalidStateError, "level: got ['advanced']"),
    ("label 99", label(99), InvalidStateError, "labels.Alex[0]: got 99, expected a label from 1 to 12"),
    ("label 0", label(0), InvalidStateError, "labels.Alex[0]: got 0"),
    ("label 0.5", label(0.5), InvalidStateError, "labels.Alex[0]: got 0.5"),
    ("label '7'", label("7"), InvalidStateError, "labels.Alex[0]: got '7'"),
    ("label True", label(True), InvalidStateError, "labels.Alex[0]: got True"),
    ("label huge", label(10**5000), InvalidStateError, "labels.Alex[0]: got <a whole number of 16610 bits>"),
    ("label deep", label(deep(100_000)), InvalidStateError, "labels.Alex[0]: got [[[["),
    ("labels 11", lambda data: {**data, "labels": data["labels"][1:]}, InvalidStateError, "expected 12 labels"),
    ("labels text", changed(labels="1 2 3"), InvalidStateError, "labels: got '1 2 3'"),
    ("variation 'no'", changed(variation="no"), InvalidStateError, "variation: got 'no', expected true or false"),
    ("variation 1", changed(variation=1), InvalidStateError, "variation: got 1"),
    ("rolls dict", changed(rolls={}), InvalidStateError, "rolls: got {}"),
    ("rolls beyond", lambda data: {**data, "rolls": data["rolls"] * 4}, InvalidStateError, "rolls: got '24 items'"),
    ("roll text", at("rolls", 0, "1 2 3"), InvalidStateError, "rolls[0]: roll: got '1 2 3'"),
    ("roll extra key", at("rolls", 0, {**SETUP_ROLL, "x": 1}), InvalidStateError, "rolls[0]: roll: got {"),
    ("setup roll 7", at("rolls", 0, {"dice": [1, 2, 7]}), InvalidStateError, "rolls[0]: setup roll: got {"),
    ("setup action", at("rolls", 0, {**SETUP_ROLL, "action": "A"}), InvalidStateError, "rolls[0]: setup roll"),
    ("setup bool die", at("rolls", 0, {"dice": [1, True, 2]}), InvalidStateError, "rolls[0]: setup roll"),
    ("roll die 7", at("rolls", 4, {"dice": [7, 1, 2]}), InvalidRollError, "rolls[4]: roll: got die 7"),
    ("roll die deep", at("rolls", 4, {"dice": deep(100_000)}), InvalidRollError, "rolls[4]: roll: got die [[[["),
    ("roll action", at("rolls", 4, {"dice": [1, 2, 3], "action": "A"}), InvalidRollError, "rolls[4]: roll: got"),
    ("choices beyond", lambda data: {**data, "choices": data["choices"] * 2}, InvalidStateError, "choices: got"),
    ("setup choice '7'", at("choices", 0, [["1", 7]]), InvalidStateError, "choices[0]: setup choice: got [['1', 7]]"),
    ("setup choice 13", at("choices", 0, [[1, 13]]), InvalidStateError, "choices[0]: setup choice: got [[1, 13]]"),
    ("setup choice deep", at("choices", 0, deep(100_000)), InvalidStateError, "choices[0]: setup choice: got [[["),
    ("setup choice illegal", at("choices", 0, [[1, 12]]), IllegalMoveError, "choices[0]: setup choice: got"),
    ("move as setup", at("choices", 0, {"caterpillar": "Alex", "box": 0, "score": 3}), IllegalMoveError, "choice"),
    (
        "move zero 'no'",
        at("choices", 4, {"caterpillar": "Alex", "box": 0, "score": 3, "zero": "no"}),
        InvalidStateError,
        "choices[4]: move.zero: got 'no'",
    ),
    (
        "move key",
        at("choices", 4, {"caterpillar": "Alex", "box": 0, "score": 3, "z": 1}),
        InvalidStateError,
        "choices[4]: move key: got 'z'",
    ),
    (
        "move box",
        at("choices", 4, {"caterpillar": "Alex", "box": 10**5000, "score": 3}),
        InvalidStateError,
        "choices[4]: box: got <a whole number",
    ),
    (
        "move bonus",
        at("choices", 4, {"caterpillar": "Alex", "box": 0, "score": 3, "bonus": {"box": "A", "value": "5"}}),
        InvalidStateError,
        "choices[4]: move.bonus: got {",
    ),
    (
        "move score 1000",
        at("choices", 4, {"caterpillar": "Alex", "box": 0, "score": 1000}),
        IllegalMoveError,
        "choices[4]: ",
    ),
    ("rng missing", without("rng"), InvalidStateError, "rng: got None"),
    ("rng version", lambda data: {**data, "rng": [2, *data["rng"][1:]]}, InvalidStateError, "rng: got [2, ["),
    ("rng short", lambda data: {**data, "rng": [3, data["rng"][1][1:], None]}, InvalidStateError, "rng: got [3, ["),
    ("rng word", lambda data: {**data, "rng": [3, [2**32] * 625, None]}, InvalidStateError, "rng: got [3, ["),
    ("rng position", lambda data: {**data, "rng": [3, [0] * 624 + [625], None]}, InvalidStateError, "rng: got"),
    ("rng gauss", lambda data: {**data, "rng": [*data["rng"][:2], "x"]}, InvalidStateError, "rng: got [3, ["),
]


@pytest.mark.parametrize(("name", "spoil", "error", "fragment"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_a_bad_save_is_one_short_error_of_the_engine(
    name: str, spoil: Callable[[dict[str, Any]], object], error: type[CaterpillarsError], fragment: str
) -> None:
    with pytest.raises(error) as info:
        Game.from_json(spoil(saved_game()))
    assert fragment in check_one_line(info.value)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), value=json_values)
def test_any_json_in_any_field_is_refused_cleanly_or_loads(data: st.DataObject, value: object) -> None:
    saved = saved_game()
    key = data.draw(st.sampled_from([*saved, "extra"]))
    if key in ("labels", "rolls", "choices") and data.draw(st.booleans()):
        saved[key][data.draw(st.integers(0, len(saved[key]) - 1))] = value
    elif key in ("rolls", "choices") and data.draw(st.booleans()):
        item = saved[key][data.draw(st.integers(0, len(saved[key]) - 1))]
        if isinstance(item, dict):
            item[data.draw(st.sampled_from([*item, "extra"]))] = value
        else:
            item[0][data.draw(st.integers(0, 1))] = value
    else:
        saved[key] = value
    try:
        Game.from_json(saved)
    except CaterpillarsError as error:
        check_one_line(error)
