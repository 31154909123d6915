"""Glicko-2 (issue 45): Glickman's worked example, the volatility as the root of his function (written here
again), the direction of every update, the bounds, and the ratings' JSON."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.practice import IDEAS
from caterpillar_learn.puzzles.errors import PuzzleError
from caterpillar_learn.puzzles.rating import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    IdeaRatings,
    Rating,
    duel,
    expected_score,
    rate,
    rest,
)

ratings = st.builds(
    Rating,
    st.floats(600, 2400),
    st.floats(MIN_DEVIATION, MAX_DEVIATION),
    st.floats(0.03, 0.09),
)


def test_glickmans_worked_example() -> None:
    """ "Example of the Glicko-2 system" (Glickman, 2013): 1464.06, 151.52 and 0.05999 (rounded at each step)."""
    player = Rating(1500, 200, 0.06)
    after = rate(player, [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def glickman_f(x: float, delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5's function, whose root is the logarithm of the new volatility squared."""
    ex = math.exp(x)
    return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - math.log(sigma**2)) / tau**2


@given(ratings, st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=5))
@settings(max_examples=200, deadline=None)
def test_the_new_volatility_is_the_root_of_glickmans_function(
    player: Rating, games: list[tuple[Rating, float]]
) -> None:
    scale = 173.7178
    mu, phi = (player.rating - 1500) / scale, player.deviation / scale
    terms = []
    for opponent, score in games:
        phi_j = opponent.deviation / scale
        g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
        e = 1 / (1 + math.exp(-g * (mu - (opponent.rating - 1500) / scale)))
        terms.append((g, e, score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    sigma = rate(player, games).volatility
    x = math.log(sigma**2)
    slope = abs(
        glickman_f(x + 1e-4, delta, phi, v, player.volatility, 0.5)
        - glickman_f(x, delta, phi, v, player.volatility, 0.5)
    )
    assert abs(glickman_f(x, delta, phi, v, player.volatility, 0.5)) <= slope * 1e-2 + 1e-9


@given(ratings, ratings)
@settings(max_examples=200, deadline=None)
def test_a_right_answer_raises_the_child_and_lowers_the_puzzle(child: Rating, puzzle: Rating) -> None:
    won_child, lost_puzzle = duel(child, puzzle, right=True)
    lost_child, won_puzzle = duel(child, puzzle, right=False)
    assert lost_child.rating < child.rating < won_child.rating
    assert lost_puzzle.rating < puzzle.rating < won_puzzle.rating
    for after in (won_child, lost_child):  # a game makes the rating surer than a period without one would
        widened = math.hypot(child.deviation, 173.7178 * after.volatility)
        assert MIN_DEVIATION <= after.deviation <= max(widened, MIN_DEVIATION) + 1e-9


@given(ratings, ratings)
@settings(max_examples=100, deadline=None)
def test_the_expected_scores_of_two_equally_sure_players_add_up_to_one(a: Rating, b: Rating) -> None:
    b = Rating(b.rating, a.deviation, b.volatility)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)
    if abs(a.rating - b.rating) > 1e-6:  # ratings a rounding apart expect the same, within a float's precision
        assert (expected_score(a, b) > 0.5) == (a.rating > b.rating)


def test_time_without_puzzles_only_widens_the_deviation_up_to_an_unknown_ones() -> None:
    known = Rating(1800, 60, 0.06)
    later = rest(known, 20)
    assert later.rating == 1800 and 60 < later.deviation < MAX_DEVIATION
    assert rest(known, 100_000).deviation == MAX_DEVIATION
    assert rate(known, []) == rest(known)


@given(ratings)
def test_a_rating_comes_back_from_json(rating: Rating) -> None:
    assert Rating.from_json(rating.to_json()) == rating


def test_idea_ratings_come_back_from_json_and_refuse_what_is_not_a_rating() -> None:
    child = IdeaRatings().with_rating("middle", Rating(1410, 180)).with_rating("zero", Rating(1620, 90))
    assert [idea for idea, _ in child.ratings] == ["zero", "middle"]  # the ideas' order
    assert IdeaRatings.from_json(child.to_json()) == child
    assert child.of("score_die") == Rating() and not child.has("score_die")
    good = child.to_json()
    refused = [
        ({**good, "format": 2}, "ratings.format: got 2, expected 1"),
        ({**good, "ideas": {"luck": Rating().to_json()}}, "ratings.ideas: got 'luck', expected ideas among"),
        (
            {**good, "ideas": {"zero": {**Rating().to_json(), "deviation": 900}}},
            "ratings.ideas.zero.deviation: got 900",
        ),
        ({**good, "ideas": {"zero": {**Rating().to_json(), "rating": True}}}, "ratings.ideas.zero.rating: got True"),
        ({**good, "ideas": {"zero": {**Rating().to_json(), "volatility": 0}}}, "ratings.ideas.zero: got {"),
        ([], "ratings: got []"),
    ]
    for data, said in refused:
        with pytest.raises(PuzzleError) as error:
            IdeaRatings.from_json(data)
        assert str(error.value).startswith(said) and "\n" not in str(error.value), str(error.value)
    assert set(IDEAS) >= {idea for idea, _ in child.ratings}
