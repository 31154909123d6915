"""The exact solver against an independent brute-force expectimax on small subgames."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.advice import solve_layout
from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.tables import solved_as
from caterpillar_learn.caterpillars import State, apply, chance_outcomes, legal_moves

LAYOUTS = [
    (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1),
    (1, 1, 6, 4, 2, 2, 2, 5, 5, 6, 2, 1),
    (12, 9, 1, 7, 3, 3, 8, 11, 2, 10, 6, 4),
]


def brute_force(state: State) -> Fraction:
    """Expectimax straight from the engine's rules, in exact fractions."""

    @cache
    def value(scores: tuple[int | None, ...]) -> Fraction:
        here = State(state.level, state.labels, scores)
        if here.is_complete:
            return Fraction(sorted(here.totals)[1])
        total = Fraction(0)
        for roll, p in chance_outcomes(state.level):
            total += p * max(value(apply(here, m).scores) for m in legal_moves(here, roll))
        return total

    return value(state.scores)


def random_subgame(level: str, labels: tuple[int, ...], empty: int, seed: int) -> State:
    rng = random.Random(seed)
    top = 6 if level == "beginner" else 12
    slots = rng.sample(range(12), 12 - empty)
    scores = [rng.randint(0, top) if i in slots else None for i in range(12)]
    return State(level, labels, tuple(scores))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("layout", LAYOUTS[:2])
def test_beginner_three_empty_boxes_match_brute_force(layout: tuple[int, ...], seed: int) -> None:
    state = random_subgame("beginner", layout, 3, seed)
    solution = solve_layout("beginner", layout)
    assert solution.value(state) == pytest.approx(float(brute_force(state)), abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    "layout",
    [LAYOUTS[0], *(pytest.param(layout, marks=pytest.mark.slow) for layout in LAYOUTS[1:])],
)
def test_intermediate_two_empty_boxes_match_brute_force(layout: tuple[int, ...], seed: int) -> None:
    state = random_subgame("intermediate", layout, 2, seed)
    solution = solve_layout("intermediate", layout)
    assert solution.value(state) == pytest.approx(float(brute_force(state)), abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_intermediate_three_empty_boxes_match_brute_force(seed: int) -> None:
    layout = LAYOUTS[0]
    state = random_subgame("intermediate", layout, 3, seed)
    assert solve_layout("intermediate", layout).value(state) == pytest.approx(float(brute_force(state)), abs=1e-9)


def test_beginner_four_empty_boxes_in_one_caterpillar_match_brute_force() -> None:
    layout = LAYOUTS[1]
    scores = (3, 0, 5, 1, None, None, None, None, 2, 6, 4, 4)
    state = State("beginner", layout, scores)
    assert solve_layout("beginner", layout).value(state) == pytest.approx(float(brute_force(state)), abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_beginner_labels_no_roll_offers_match_brute_force(seed: int) -> None:
    # Labels 7 to 12 never match a Beginner die: only forced zeros can fill those boxes.
    layout = LAYOUTS[2]
    state = random_subgame("beginner", layout, 3, seed)
    assert solve_layout("beginner", layout).value(state) == pytest.approx(float(brute_force(state)), abs=1e-9)


def test_beginner_labels_shared_by_caterpillars_match_brute_force() -> None:
    # Four empty boxes, two labelled 6 (Alex, Bobby) and two labelled 5 (Bobby, Charlie): a roll's
    # offer can be placed in either caterpillar, and the sets met on the way have different table shapes.
    layout = LAYOUTS[0]
    scores = (3, 1, None, 2, None, 4, 2, None, None, 6, 4, 5)
    state = State("beginner", layout, scores)
    assert solve_layout("beginner", layout).value(state) == pytest.approx(float(brute_force(state)), abs=1e-9)


def test_full_sheet_is_worth_its_median() -> None:
    layout = LAYOUTS[0]
    state = State("intermediate", layout, (12,) * 4 + (0,) * 4 + (5, 5, 5, 4))
    assert solve_layout("intermediate", layout).value(state) == 19


def test_values_grow_with_a_caterpillars_total() -> None:
    layout = LAYOUTS[0]
    solution = solve_layout("beginner", layout)
    low = State("beginner", layout, (1, None, None, None) + (None,) * 8)
    high = State("beginner", layout, (5, None, None, None) + (None,) * 8)
    assert solution.value(high) >= solution.value(low)


def test_unsolvable_level_and_unfinished_layout_are_refused() -> None:
    with pytest.raises(AdviceError, match="level"):
        solve_layout("expert", LAYOUTS[0])
    with pytest.raises(AdviceError, match="labels"):
        solve_layout("beginner", (None,) * 12)


def test_the_cache_returns_the_same_solution() -> None:
    assert solve_layout("beginner", LAYOUTS[0]) is solve_layout("beginner", LAYOUTS[0])


def reordered(values: tuple[Any, ...], orders: tuple[tuple[int, ...], ...]) -> tuple[Any, ...]:
    """Each caterpillar's four boxes put in the order ``orders[c]`` (labels and scores alike)."""
    return tuple(values[4 * c + i] for c, order in enumerate(orders) for i in order)


SHUFFLED = ((3, 1, 0, 2), (2, 0, 3, 1), (1, 3, 2, 0))


def test_boxes_in_another_order_share_the_solve_and_their_values_are_exact() -> None:
    first = solve_layout("beginner", LAYOUTS[1])
    layout = reordered(LAYOUTS[1], SHUFFLED)
    assert layout != LAYOUTS[1] and solved_as(layout) == solved_as(LAYOUTS[1])
    solution = solve_layout("beginner", layout)
    assert solution.values is first.values, "one solve for both orders"
    assert solution.labels == layout, "each order answers for its own boxes"
    assert solve_layout("beginner", layout) is solution
    for seed in range(3):
        state = random_subgame("beginner", layout, 3, seed)
        assert solution.value(state) == pytest.approx(float(brute_force(state)), abs=1e-9)
    other = (5, 5, 2, 1) + LAYOUTS[1][4:]  # another caterpillar's labels: not the same game
    assert solved_as(other) != solved_as(LAYOUTS[1])


@settings(max_examples=60, deadline=None)
@given(
    orders=st.tuples(*(st.permutations(range(4)).map(tuple) for _ in range(3))),
    scores=st.lists(st.one_of(st.none(), st.integers(0, 6)), min_size=12, max_size=12),
)
def test_a_state_is_worth_the_same_whatever_the_order_of_its_boxes(
    orders: tuple[tuple[int, ...], ...], scores: list[int | None]
) -> None:
    state = State("beginner", LAYOUTS[0], tuple(scores))
    moved = State("beginner", reordered(LAYOUTS[0], orders), reordered(tuple(scores), orders))
    assert solve_layout("beginner", moved.labels).value(moved) == solve_layout("beginner", LAYOUTS[0]).value(state)


@pytest.mark.slow
def test_start_value_matches_many_simulated_optimal_games() -> None:
    from caterpillar_learn.advice.playout import optimal_finals

    solution = solve_layout("beginner", LAYOUTS[0])
    finals = optimal_finals(solution, 100_000, random.Random(2024))
    stderr = finals.std(ddof=1) / len(finals) ** 0.5
    assert abs(finals.mean() - solution.start_value) < 3 * stderr
