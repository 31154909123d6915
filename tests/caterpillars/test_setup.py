"""Setup: the standard way and the variation, with their legal choices."""

from __future__ import annotations

import pytest

from caterpillar_learn.caterpillars import (
    IllegalMoveError,
    SetupChoice,
    State,
    apply_setup,
    rolls_needed,
    setup_choices,
)
from caterpillar_learn.caterpillars.sheet import slot_of


def test_standard_setup_puts_each_value_on_its_own_blank_label() -> None:
    state = State.new("beginner")
    choices = setup_choices(state, (2, 3, 6))
    assert len(choices) == 6 * 5 * 4  # three distinct values onto three of six blanks, in order
    for choice in choices:
        assert sorted(v for _, v in choice.assignments) == [2, 3, 6]
        assert len({s for s, _ in choice.assignments}) == 3
        assert all(state.labels[s] is None for s, _ in choice.assignments)


def test_equal_values_are_one_choice_not_two() -> None:
    choices = setup_choices(State.new("beginner"), (4, 4, 4))
    assert len(choices) == 20  # which three of six blanks: C(6, 3)


def test_two_standard_rolls_or_three_variation_rolls_fill_the_sheet() -> None:
    state = State.new("expert")
    assert rolls_needed(state) == 2 and rolls_needed(state, variation=True) == 3
    for dice in [(1, 2, 3), (4, 5, 6)]:
        state = apply_setup(state, setup_choices(state, dice)[0], dice)
    assert state.is_setup_done and rolls_needed(state) == 0


def test_variation_one_die_alone_and_the_sum_of_the_other_two() -> None:
    """'Choose 1 die and assign its value to a blank label ... add up the other 2 dice.'"""
    state = State.new("intermediate")
    choices = setup_choices(state, (2, 3, 6), variation=True)
    pairs = {tuple(sorted(v for _, v in c.assignments)) for c in choices}
    assert pairs == {(2, 9), (3, 8), (5, 6)}
    assert len(choices) == 3 * 6 * 5
    choice = SetupChoice.of(("Alex", 1, 3), ("Charlie", 3, 8))
    after = apply_setup(state, choice, (2, 3, 6), variation=True)
    assert after.labels[slot_of("Charlie", 3)] == 8  # 'The value ... may now be higher than 6'


def test_variation_is_not_for_beginners() -> None:
    with pytest.raises(IllegalMoveError, match="setup variation: got 'beginner'"):
        setup_choices(State.new("beginner"), (1, 2, 3), variation=True)


def test_illegal_setup_choices_are_refused() -> None:
    state = State.new("beginner")
    with pytest.raises(IllegalMoveError, match="a legal choice for the dice"):
        apply_setup(state, SetupChoice.of(("Alex", 1, 5)), (2, 3, 6))
    with pytest.raises(IllegalMoveError, match="a blank label"):
        apply_setup(state, SetupChoice.of(("Alex", 0, 5)))
    with pytest.raises(IllegalMoveError, match="three dice from 1 to 6"):
        setup_choices(state, (2, 3, 7))


def test_setup_choice_explains_itself_counting_boxes_from_one() -> None:
    assert SetupChoice.of(("Bobby", 0, 9)).explain() == "Write 9 on the blank label of Bobby's box 1."
