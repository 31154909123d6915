"""JSON forms of Räuber Raupe: events, decks and whole games, round trips and hostile input."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.raupe import Game, RaupeError, replay
from caterpillar_learn.raupe.bots import LEVELS
from caterpillar_learn.raupe.cards import Card, Mode
from caterpillar_learn.raupe.deck import MAX_CARDS, standard_deck
from caterpillar_learn.raupe.errors import DeckError, IllegalEventError, NotationError, SetupError
from caterpillar_learn.raupe.game import MAX_EVENTS, MAX_SEED
from caterpillar_learn.raupe.notation import deck_from_json, deck_to_json, event_from_json, event_to_json
from caterpillar_learn.raupe.referee import Call, Close, Event, Play
from caterpillar_learn.raupe.simulate import next_table_event, play_bot_game

DECK = standard_deck()
#: A short deck as the lessons deal it: the first 25 caterpillar cards, then every change card and butterfly.
SHORT_DECK = (
    *[card for card in DECK if card.sides and not card.is_change][:25],
    *[card for card in DECK if not card.sides or card.is_change],
)


def through_text(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` after a trip through JSON text, as a file or a widget trait would carry it."""
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded


def check_one_line(error: BaseException) -> str:
    message = str(error)
    assert "\n" not in message and 0 < len(message) < 300, message
    return message


# -- events and decks -------------------------------------------------------------

times = st.floats(0, 1e6, allow_nan=False)
seats = st.integers(0, 3)
cards = st.sampled_from(DECK)
events = st.one_of(
    st.builds(
        Play,
        times,
        seats,
        cards,
        st.integers(0, 1),
        st.booleans(),
        st.one_of(st.none(), st.sampled_from(Mode)),
    ),
    st.builds(Call, times, seats, st.lists(st.integers(1, 80), min_size=1, max_size=4).map(tuple)),
    st.builds(Close, times),
)


@given(event=events)
def test_every_event_round_trips_through_json_text(event: Event) -> None:
    assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event


@given(deck=st.lists(cards, min_size=1, max_size=60))
def test_a_deck_round_trips_in_order(deck: list[Card]) -> None:
    if not any(card.sides and not card.is_change for card in deck):
        deck.append(DECK[0])
    assert deck_from_json(json.loads(json.dumps(deck_to_json(deck)))) == tuple(deck)


PLAY = {"t": 1.5, "play": 0, "card": "butterfly", "side": 0}
HOSTILE_EVENTS: list[tuple[object, str]] = [
    (None, "event: got None"),
    ("play", "event: got 'play'"),
    ({"t": 1.0}, "exactly one of play, call, close"),
    ({"t": 1.0, "call": 0, "close": True, "cuts": [1]}, "exactly one of play, call, close"),
    ({**PLAY, "colour": "red"}, "play event key: got 'colour'"),
    ({**PLAY, "t": "soon"}, "t: got 'soon'"),
    ({**PLAY, "t": True}, "t: got True"),
    ({**PLAY, "t": float("nan")}, "t: got nan"),
    ({**PLAY, "t": 10**400}, "t: got <a whole number of 1329 bits>"),
    ({**PLAY, "play": "0"}, "play: got '0'"),
    ({**PLAY, "play": 1.0}, "play: got 1.0"),
    ({**PLAY, "card": "dragon"}, "card: got 'dragon'"),
    ({**PLAY, "card": ["butterfly"]}, "card: got ['butterfly']"),
    ({**PLAY, "card": None}, "card: got None"),
    ({**PLAY, "side": False}, "side: got False"),
    ({**PLAY, "aphid": "yes"}, "aphid: got 'yes'"),
    ({**PLAY, "announce": "size"}, "mode: got 'size'"),
    ({**PLAY, "announce": 1}, "mode: got 1"),
    ({"t": 1.0, "call": 0, "cuts": []}, "cuts: got []"),
    ({"t": 1.0, "call": 0, "cuts": "3"}, "cuts: got '3'"),
    ({"t": 1.0, "call": 0, "cuts": [2, "3"]}, "cut depth: got '3'"),
    ({"t": 1.0, "call": 0, "cuts": [2, True]}, "cut depth: got True"),
    ({"t": 1.0, "call": None, "cuts": [1]}, "call: got None"),
    ({"t": 1.0, "close": "yes"}, "close: got 'yes'"),
]


@pytest.mark.parametrize(("data", "fragment"), HOSTILE_EVENTS, ids=[f[1] for f in HOSTILE_EVENTS])
def test_a_bad_event_is_one_short_notation_error(data: object, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        event_from_json(data)
    assert fragment in check_one_line(info.value)


def test_a_bad_deck_is_one_short_deck_error() -> None:
    cases: list[tuple[object, str]] = [
        ("butterfly", "deck: got 'butterfly', expected a list"),
        (["butterfly"] * (MAX_CARDS + 1), f"deck: got '{MAX_CARDS + 1} cards', expected at most {MAX_CARDS}"),
        (["butterfly", 7], "deck[1]: card: got 7"),
        (["butterfly"] * 5, "expected at least one caterpillar card"),
    ]
    for data, fragment in cases:
        with pytest.raises(DeckError) as info:
            deck_from_json(data)
        assert fragment in check_one_line(info.value)


# -- whole games ------------------------------------------------------------------


def bot_game(seed: int, players: int, level: str, deck: tuple[Card, ...] | None) -> Game:
    """A bots' game replayed into a :class:`Game` (bots and deal share one seeded generator)."""
    played = play_bot_game(players, random.Random(seed), [LEVELS[level]] * players, deck)
    game = Game(players, seed, played.initial.mode, deck)
    assert game.initial == played.initial
    for event in played.events:
        game.submit(event)
    assert game.state == played.final
    return game


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 4),
    level=st.sampled_from(sorted(LEVELS)),
    short=st.booleans(),
)
def test_bot_games_round_trip_through_to_json(seed: int, players: int, level: str, short: bool) -> None:
    game = bot_game(seed, players, level, SHORT_DECK if short else None)
    saved = game.to_json()
    assert ("deck" in saved) is short
    loaded = Game.from_json(through_text(saved))
    assert loaded.state == game.state and loaded.events == game.events and loaded.is_over
    assert loaded.initial == game.initial
    assert loaded.to_json() == saved
    assert replay(loaded.initial, loaded.events) == game.state


def test_the_standard_deck_is_left_out_and_a_custom_one_kept_in_order() -> None:
    assert "deck" not in Game(2, 1, deck=standard_deck()).to_json()
    reordered = (*DECK[1:], DECK[0])
    saved = Game(2, 1, deck=reordered).to_json()
    assert saved["deck"][-1] == deck_to_json([DECK[0]])[0]
    assert Game.from_json(saved).initial == Game(2, 1, deck=reordered).initial != Game(2, 1).initial


def person_and_bot(seed: int, moves: int) -> Game:
    """A person (seat 0) who calls every newly played bot card, so the game draws the cuts."""
    game = Game(2, seed, deck=SHORT_DECK)
    bot_rng = random.Random(seed + 1)
    for _ in range(moves):
        if game.is_over:
            break
        last = game.state.last
        if last is not None and last.player == 1:
            game.call(0, time=game.state.clock + 0.5)
            continue
        event = next_table_event(game.state, [None, LEVELS["beginner"]], bot_rng)
        options = game.legal_plays(0)
        if options and (event is None or isinstance(event, Close)):
            card = game.state.hands[0][options[0].card]
            game.play(
                0,
                card,
                options[0].side,
                time=game.state.clock + 1.0,
                aphid=game.state.aphid_owed,
                announce=game.state.mode.other if card.is_change else None,
            )
        elif event is not None:
            game.submit(event)
    return game


@pytest.mark.parametrize("seed", [3, 17])
def test_cuts_drawn_by_the_game_load_back_and_the_generator_goes_on(seed: int) -> None:
    game = person_and_bot(seed, 25)
    saved = game.to_json()
    assert saved["drawn_cuts"] and all("call" in saved["events"][i] for i in saved["drawn_cuts"])
    loaded = Game.from_json(through_text(saved))
    assert loaded.state == game.state and loaded.drawn_cuts == game.drawn_cuts
    assert loaded.rng.getstate() == game.rng.getstate()
    tampered = copy.deepcopy(saved)
    index = saved["drawn_cuts"][0]
    tampered["events"][index]["cuts"] = [1] if saved["events"][index]["cuts"] != [1] else [2]
    with pytest.raises(RaupeError, match=rf"^events\[{index}\]: "):
        Game.from_json(tampered)


def test_a_refused_call_draws_nothing() -> None:
    game = Game(2, 5)
    option = game.legal_plays(0)[0]
    game.play(0, game.state.hands[0][option.card], option.side, time=1.0, aphid=game.state.aphid_owed)
    before = game.rng.getstate()
    with pytest.raises(IllegalEventError, match="caller: got 0"):
        game.call(0, time=2.0)  # nobody calls their own card
    assert game.rng.getstate() == before and len(game.events) == 1
    game.call(1, time=2.0)
    assert Game.from_json(game.to_json()).rng.getstate() == game.rng.getstate()


def test_is_over_follows_the_state() -> None:
    game = bot_game(8, 2, "advanced", None)
    assert game.is_over and game.state.finished
    assert not Game(2, 8).is_over


def test_the_constructor_refuses_what_a_save_could_not_hold() -> None:
    with pytest.raises(SetupError, match="seed: got -1"):
        Game(2, -1)
    with pytest.raises(SetupError, match=f"seed: got {MAX_SEED + 1}"):
        Game(2, MAX_SEED + 1)
    with pytest.raises(SetupError, match="players: got '2'"):
        Game("2", 1)  # type: ignore[arg-type]
    with pytest.raises(SetupError, match="mode: got 0"):
        Game(2, 1, 0)  # type: ignore[arg-type]
    with pytest.raises(DeckError, match=f"expected at most {MAX_CARDS}"):
        Game(2, 1, deck=(*DECK,) * 7)


#: A card the standard deck does not have (its leaves match their caterpillars' colours).
OTHER_CARD = "round-red@round-red|straight-green@jagged-green"


def saved_game() -> dict[str, Any]:
    """A short custom-deck game with a game-drawn call, as plain JSON data."""
    return through_text(person_and_bot(3, 6).to_json())


def deep(levels: int) -> object:
    value: object = []
    for _ in range(levels):
        value = [value]
    return value


def changed(**fields: object) -> Callable[[dict[str, Any]], object]:
    return lambda data: {**data, **fields}


def without(key: str) -> Callable[[dict[str, Any]], object]:
    return lambda data: {k: v for k, v in data.items() if k != key}


def event_changed(index: int, **fields: object) -> Callable[[dict[str, Any]], object]:
    def change(data: dict[str, Any]) -> object:
        result = copy.deepcopy(data)
        result["events"][index].update(fields)
        return result

    return change


HOSTILE_GAMES: list[tuple[str, Callable[[dict[str, Any]], object], type[RaupeError], str]] = [
    ("a list", lambda data: [data], NotationError, "saved game: got [{"),
    ("JSON text", lambda data: json.dumps(data), NotationError, "saved game: got '{"),
    ("no format", without("format"), NotationError, "format: got None, expected 1"),
    ("format 2", changed(format=2), NotationError, "format: got 2"),
    ("format true", changed(format=True), NotationError, "format: got True"),
    ("unknown key", changed(caterpillar_cards=25), NotationError, "saved game key: got 'caterpillar_cards'"),
    ("no players", without("players"), NotationError, "players: got None"),
    ("players text", changed(players="2"), NotationError, "players: got '2'"),
    ("players 9", changed(players=9), SetupError, "players: got 9, expected 2 to 4"),
    ("seed float", changed(seed=1.5), NotationError, "seed: got 1.5"),
    ("seed negative", changed(seed=-3), SetupError, "seed: got -3"),
    ("seed huge", changed(seed=10**5000), SetupError, "seed: got <a whole number of 16610 bits>"),
    ("mode", changed(mode="size"), NotationError, "mode: got 'size'"),
    ("mode missing", without("mode"), NotationError, "mode: got None"),
    ("deck text", changed(deck="standard"), DeckError, "deck: got 'standard'"),
    ("deck card", changed(deck=["butterfly", "round-blue@jagged-red|x"]), DeckError, "deck[1]: caterpillar"),
    ("deck too big", changed(deck=["butterfly"] * 100_000), DeckError, "deck: got '100000 cards'"),
    (
        "deck 1 butterfly",
        changed(deck=[*deck_to_json(DECK[:40] + DECK[73:77]), "butterfly"]),
        SetupError,
        "butterflies",
    ),
    ("events missing", without("events"), NotationError, "events: got None"),
    ("events dict", changed(events={}), NotationError, "events: got {}"),
    ("events too many", changed(events=[{}] * (MAX_EVENTS + 1)), NotationError, f"{MAX_EVENTS + 1} events"),
    ("events deep", changed(events=deep(100_000), drawn_cuts=[]), NotationError, "events[0]: event: got [[[["),
    ("event unknown card", event_changed(0, card="dragon"), NotationError, "events[0]: card: got 'dragon'"),
    ("event not in hand", event_changed(0, card=OTHER_CARD), IllegalEventError, "events[0]: card: got 'round-red@"),
    ("event seat 7", event_changed(0, play=7), IllegalEventError, "events[0]: player: got 7"),
    ("event seat huge", event_changed(0, play=10**5000), IllegalEventError, "player: got <a whole number of"),
    ("event time back", event_changed(1, t=-1.0), IllegalEventError, "events[1]: event time: got -1.0"),
    ("drawn text", changed(drawn_cuts="all"), NotationError, "drawn_cuts: got 'all'"),
    ("drawn bool", changed(drawn_cuts=[True]), NotationError, "drawn_cuts: got True"),
    ("drawn range", changed(drawn_cuts=[99]), NotationError, "drawn_cuts: got [99]"),
    ("drawn twice", lambda data: {**data, "drawn_cuts": data["drawn_cuts"] * 2}, NotationError, "drawn_cuts: got ["),
    ("drawn a play", changed(drawn_cuts=[0]), NotationError, "events[0]: drawn_cuts: got 0"),
]


@pytest.mark.parametrize(("name", "spoil", "error", "fragment"), HOSTILE_GAMES, ids=[c[0] for c in HOSTILE_GAMES])
def test_a_bad_save_is_one_short_error_of_the_engine(
    name: str, spoil: Callable[[dict[str, Any]], object], error: type[RaupeError], fragment: str
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
    events = saved["events"]
    target = data.draw(st.sampled_from(["top", "event", "event field"]))
    if target == "top":
        saved[data.draw(st.sampled_from([*saved, "extra"]))] = value
    elif target == "event":
        events[data.draw(st.integers(0, len(events) - 1))] = value
    else:
        event = events[data.draw(st.integers(0, len(events) - 1))]
        event[data.draw(st.sampled_from([*event, "t"]))] = value
    try:
        Game.from_json(saved)
    except RaupeError as error:
        check_one_line(error)


def test_the_unchanged_save_used_above_loads() -> None:
    saved = saved_game()
    assert Game.from_json(saved).to_json() == saved
    assert saved["drawn_cuts"] and "deck" in saved


def test_an_event_log_cannot_start_with_a_call() -> None:
    saved = Game(2, 4).to_json()
    saved["events"] = [{"t": 1.0, "call": 1, "cuts": [1]}]
    with pytest.raises(IllegalEventError, match=r"^events\[0\]: call: got 1, expected a newly played card"):
        Game.from_json(saved)
