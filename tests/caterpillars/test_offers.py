"""What a roll offers (``offers``) against the moves it gives on a sheet."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.caterpillars import (
    IllegalMoveError,
    InvalidStateError,
    Level,
    Roll,
    State,
    legal_moves,
    offers,
    producible_scores,
)
from caterpillar_learn.caterpillars.dice import ACTION_FACES
from caterpillar_learn.caterpillars.sheet import LABEL_VALUES, SLOTS
from tests.caterpillars.reference_moves import reference_effects

Bonus = tuple[int | None, int | None, int | None]


@st.composite
def rolls(draw: st.DrawFn) -> tuple[Level, Roll, Bonus]:
    """A level, one of its rolls and the bonus boxes at the start of the round."""
    level = draw(st.sampled_from(list(Level)))
    dice = draw(st.lists(st.integers(1, 6), min_size=level.rules.dice, max_size=level.rules.dice))
    action = draw(st.sampled_from(ACTION_FACES)) if level.rules.action_die else None
    bonus: Bonus = (None, None, None)
    if level.rules.bonus_boxes:
        a, b, c = (draw(st.one_of(st.none(), st.integers(1, 6))) for _ in range(3))
        bonus = (a, b, c)
    return level, Roll(tuple(sorted(dice)), action), bonus


def every_label_sheet(level: Level, bonus: Bonus) -> State:
    """An empty sheet with each label from 1 to 12 once: box ``slot`` is labelled ``slot + 1``."""
    return State(level, tuple(range(1, SLOTS + 1)), (None,) * SLOTS, bonus)


@given(rolls())
@settings(max_examples=400, deadline=None)
def test_pairs_are_the_moves_on_a_sheet_with_every_label(found: tuple[Level, Roll, Bonus]) -> None:
    level, roll, bonus = found
    offered = offers(level, roll, bonus=bonus)
    moves = legal_moves(every_label_sheet(level, bonus), roll)
    assert offered[0].bonus is None, "the choice without a bonus box comes first"
    assert {offer.bonus for offer in offered} == {m.bonus for m in moves}
    assert len(offered) == len({offer.bonus for offer in offered}), "one offer per bonus choice"
    for offer in offered:
        placed = {(m.score, m.slot + 1) for m in moves if m.bonus == offer.bonus and not m.zero}
        assert offer.pairs == placed
        zeros = {m.slot for m in moves if m.bonus == offer.bonus and m.zero}
        assert zeros == (set() if offer.can_fill(LABEL_VALUES) else set(range(SLOTS)))


@given(rolls())
@settings(max_examples=400, deadline=None)
def test_pairs_agree_with_the_reference_generator(found: tuple[Level, Roll, Bonus]) -> None:
    """The same question put to the plain generator written from the rule text."""
    level, roll, bonus = found
    sheet = every_label_sheet(level, bonus)
    effects = reference_effects(level.value, sheet.labels, sheet.scores, bonus, roll.dice, roll.action)
    offered = offers(level, roll, bonus=bonus)
    assert {offer.bonus for offer in offered} == {bonus for _, _, _, bonus in effects}
    for offer in offered:
        assert offer.pairs == {(score, slot + 1) for slot, score, zero, b in effects if b == offer.bonus and not zero}
        assert all(score in producible_scores(level) and label in LABEL_VALUES for score, label in offer.pairs)


@given(rolls(), st.lists(st.integers(1, 12), min_size=SLOTS, max_size=SLOTS), st.sets(st.integers(0, SLOTS - 1)))
@settings(max_examples=400, deadline=None)
def test_an_offer_that_fills_no_empty_label_gives_zeros(
    found: tuple[Level, Roll, Bonus], labels: list[int], filled: set[int]
) -> None:
    """Rule 4 per bonus choice, on sheets with repeated labels and filled boxes."""
    level, roll, bonus = found
    if len(filled) == SLOTS:
        filled.discard(0)
    scores = tuple(0 if slot in filled else None for slot in range(SLOTS))
    state = State(level, tuple(labels), scores, bonus)
    moves = legal_moves(state, roll)
    empty_labels = {labels[slot] for slot in range(SLOTS) if slot not in filled}
    for offer in offers(level, roll, bonus=bonus):
        mine = {(m.slot, m.score, m.zero) for m in moves if m.bonus == offer.bonus}
        if offer.can_fill(empty_labels):
            assert mine == {
                (slot, score, False)
                for slot in range(SLOTS)
                if slot not in filled
                for score, label in offer.pairs
                if label == labels[slot]
            }
        else:
            assert mine == {(slot, 0, True) for slot in range(SLOTS) if slot not in filled}


def test_action_faces_change_what_is_offered() -> None:
    plain = offers("expert", Roll((1, 2, 4), "butterfly"))[0]
    assert plain.butterfly and all((7, label) in plain.pairs for label in LABEL_VALUES)
    ten = offers("expert", Roll((1, 2, 4), "10"))[0]
    assert (10, 7) in ten.pairs and (7, 10) in ten.pairs and not ten.butterfly
    doubled = offers("expert", Roll((1, 2, 4), "2x"))[0]
    assert (8, 3) in doubled.pairs and (8, 3) not in ten.pairs
    stored = offers("expert", Roll((1, 2, 4), "B"), bonus=(None, 5, None))[0]
    assert (5, 7) in stored.pairs
    assert (5, 7) not in offers("expert", Roll((1, 2, 4), "B"))[0].pairs, "an empty bonus box brings nothing"


def test_only_empty_bonus_boxes_take_a_die() -> None:
    found = offers("advanced", Roll((1, 1, 6)), bonus=(3, None, 2))
    assert [offer.bonus for offer in found] == [None, (1, 1), (1, 6)]
    assert found[2].pairs == {(1, 1)}
    assert [offer.bonus for offer in offers("intermediate", Roll((1, 1, 6)))] == [None]


def test_a_roll_of_another_level_or_a_bad_bonus_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="a roll of the beginner level"):
        offers("beginner", Roll((1, 2, 3)))
    with pytest.raises(InvalidStateError, match="bonus"):
        offers("advanced", Roll((1, 2, 3)), bonus=(None, None))
