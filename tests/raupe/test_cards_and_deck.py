"""Cards, notation and the generated deck."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caterpillar_learn.raupe.cards import (
    BUTTERFLY,
    Card,
    Colour,
    Mode,
    Shape,
    Side,
    format_card,
    format_side,
    parse_card,
    parse_hand,
    parse_mode,
    parse_side,
)
from caterpillar_learn.raupe.deck import (
    BUTTERFLY_CARDS,
    CATERPILLAR_CARDS,
    CHANGE_CARDS,
    load_deck,
    parse_deck,
    standard_deck,
)
from caterpillar_learn.raupe.errors import DeckError, NotationError

sides = st.builds(
    Side,
    shape=st.sampled_from(Shape),
    colour=st.sampled_from(Colour),
    leaf_shape=st.sampled_from(Shape),
    leaf_colour=st.sampled_from(Colour),
    aphid=st.booleans(),
    sky=st.booleans(),
)


@given(sides)
def test_side_notation_round_trips(side: Side) -> None:
    assert parse_side(format_side(side)) == side


@given(sides, sides)
def test_card_notation_round_trips(front: Side, back: Side) -> None:
    back = Side(back.shape, back.colour, back.leaf_shape, back.leaf_colour, back.aphid, front.sky)
    card = Card((front, back))
    assert parse_card(format_card(card)) == card


def test_square_is_read_as_jagged_and_case_is_ignored() -> None:
    assert parse_side("Square-Red@ROUND-green").shape is Shape.JAGGED


@pytest.mark.parametrize(
    ("notation", "field"),
    [
        ("round-red", "side"),
        ("round-red@jagged", "side"),
        ("oval-red@jagged-green", "caterpillar shape"),
        ("round-red@jagged-blue", "leaf colour"),
        ("round-red@jagged-green+fly", "side mark"),
        ("round-red@jagged-green+aphid+aphid", "side mark"),
    ],
)
def test_bad_side_names_the_field(notation: str, field: str) -> None:
    with pytest.raises(NotationError, match=f"^{field}: got"):
        parse_side(notation)


def test_half_sky_card_is_refused() -> None:
    with pytest.raises(NotationError, match=r"card: got .* expected \+sky on both sides"):
        parse_card("round-red@jagged-green+sky|jagged-red@round-green")


def test_hand_and_mode_parsing() -> None:
    hand = parse_hand("butterfly;round-red@jagged-green|jagged-red@round-green")
    assert hand[0] is BUTTERFLY
    assert parse_mode("color") is Mode.COLOUR
    with pytest.raises(NotationError, match="mode: got 'size', expected shape or colour"):
        parse_mode("size")


def test_standard_deck_has_the_printed_counts() -> None:
    deck = standard_deck()
    kinds = Counter("butterfly" if c.is_butterfly else "change" if c.is_change else "caterpillar" for c in deck)
    assert kinds == {
        "caterpillar": CATERPILLAR_CARDS,
        "change": CHANGE_CARDS,
        "butterfly": BUTTERFLY_CARDS,
    }
    assert len(deck) == 81


def test_standard_deck_is_balanced() -> None:
    faces = [side for card in standard_deck() for side in card.sides]
    assert len(faces) == 154
    for trait in ("shape", "colour", "leaf_shape", "leaf_colour"):
        counts = Counter(getattr(side, trait) for side in faces).values()
        assert len(counts) == 3
        assert max(counts) - min(counts) <= 1, trait
    assert all(side.colour is not side.leaf_colour for side in faces)
    # Every one of the 54 combinations is used, none more than 3 times.
    combos = Counter((s.shape, s.colour, s.leaf_shape, s.leaf_colour) for s in faces)
    assert len(combos) == 54
    assert max(combos.values()) <= 3
    aphids = sum(side.aphid for side in faces)
    assert abs(aphids - len(faces) / 4) <= 1
    # The two sides of a card never show the same caterpillar.
    for card in standard_deck():
        if card.sides:
            assert card.sides[0].caterpillar_key != card.sides[1].caterpillar_key


def test_standard_deck_is_deterministic() -> None:
    standard_deck.cache_clear()
    first = [format_card(c) for c in standard_deck()]
    standard_deck.cache_clear()
    assert [format_card(c) for c in standard_deck()] == first


def test_custom_deck_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "deck.txt"
    path.write_text(
        "# teacher's deck\n\nround-red@jagged-green|jagged-red@round-green\n"
        "butterfly # joker\nbutterfly\n"
        "round-red@jagged-green+sky|jagged-red@round-green+sky\n"
        "straight-red@jagged-green+sky|jagged-red@round-green+sky\n",
        encoding="utf-8",
    )
    deck = load_deck(path)
    assert len(deck) == 5
    assert sum(card.is_change for card in deck) == 2


def test_bad_deck_files() -> None:
    with pytest.raises(DeckError, match="deck line 2: caterpillar colour: got 'blue'"):
        parse_deck("butterfly\nround-blue@jagged-green|jagged-red@round-green\n")
    with pytest.raises(DeckError, match="expected at least one caterpillar card"):
        parse_deck("butterfly\n")
