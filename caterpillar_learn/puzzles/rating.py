"""Ratings of children and puzzles by Glicko-2: how strong, how sure, how steady.

A :class:`Rating` is Glickman's triple: the rating ``r`` (1500 for someone
unknown), the rating deviation ``RD`` (how unsure the rating is: 350 for
someone unknown, smaller the more answers it rests on) and the volatility
``σ`` (how erratic the results are).  A child has one rating per idea
(:class:`IdeaRatings`), a puzzle one rating of its own (its difficulty as a
starting rating, :mod:`caterpillar_learn.puzzles.bank`).  An answer is a game
between the two: the child wins a puzzle answered right and loses one
answered wrong, and :func:`duel` rates both.

The update (:func:`rate`) follows the steps of Glickman's "Example of the
Glicko-2 system" (Boston University, 2013), one rating period at a time:

1. onto the Glicko-2 scale: ``μ = (r − 1500) / 173.7178`` and ``φ = RD / 173.7178``;
2. for each opponent ``j``: ``g(φj) = 1 / √(1 + 3φj²/π²)`` and the expected
   score ``E = 1 / (1 + exp(−g(φj)(μ − μj)))``;
3. the estimated variance ``v = 1 / Σ g(φj)² E (1 − E)``;
4. the estimated improvement ``Δ = v Σ g(φj)(sj − E)`` (``sj`` = 1 for a win, 0 for a loss);
5. the new volatility ``σ′ = exp(A / 2)``, where ``A`` is the root of
   ``f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − ln σ²) / τ²``,
   found by the Illinois variant of regula falsi to within ``ε`` = 10⁻⁶;
6. the deviation grows with the volatility: ``φ* = √(φ² + σ′²)``;
7. ``φ′ = 1 / √(1/φ*² + 1/v)`` and ``μ′ = μ + φ′² Σ g(φj)(sj − E)``;
8. back: ``r′ = 173.7178 μ′ + 1500`` and ``RD′ = 173.7178 φ′``.

A period without games only does step 6 (:func:`rest`).  ``τ`` (:data:`TAU`)
bounds how fast the volatility moves.  Two bounds of our own, as rating sites
keep: the deviation stays within :data:`MIN_DEVIATION` and
:data:`MAX_DEVIATION` (a rating never freezes, nor becomes less known than an
unknown one) and the rating within :data:`LOWEST` and :data:`HIGHEST`.

Glickman's worked example: a player of 1500 (RD 200, σ 0.06) beats a 1400
(RD 30) and loses to a 1550 (RD 100) and to a 1700 (RD 300):

>>> player = Rating(1500, 200, 0.06)
>>> games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
>>> after = rate(player, games)
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)

(The paper, rounding each step's numbers, prints 1464.06, 151.52 and 0.05999.)
>>> Rating.from_json(after.to_json()) == after
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from caterpillar_learn.errors import describe
from caterpillar_learn.practice.ideas import IDEAS
from caterpillar_learn.puzzles.errors import PuzzleError

#: Glicko-2's scale: rating points per unit of ``μ``.
SCALE = 173.7178
#: The rating, deviation and volatility of someone (or some puzzle) not yet rated.
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
#: How fast the volatility may change (Glickman suggests 0.3 to 1.2); Lichess plays 0.75, we play his example's.
TAU = 0.5
#: The volatility iteration stops when its bracket is this narrow.
EPSILON = 1e-6
#: The deviation never falls below this (a rating keeps moving) nor rises above an unknown one's.
MIN_DEVIATION, MAX_DEVIATION = 45.0, START_DEVIATION
#: The ratings a child or a puzzle can have.
LOWEST, HIGHEST = 100.0, 3500.0
#: The most a volatility can be (a rating read back from JSON with more is refused).
MAX_VOLATILITY = 1.0
#: The version of :meth:`IdeaRatings.to_json`.
RATINGS_FORMAT = 1


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: ``rating`` (points), ``deviation`` (its RD) and ``volatility`` (σ).

    >>> Rating().rating, Rating(1200.0).deviation
    (1500.0, 350.0)
    >>> Rating(1500, -5)
    Traceback (most recent call last):
    ...
    caterpillar_learn.puzzles.errors.PuzzleError: rating.deviation: got -5, expected a number from 0 to 350.0
    """

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def __post_init__(self) -> None:
        object.__setattr__(self, "rating", _check(self.rating, "rating.rating", LOWEST, HIGHEST))
        object.__setattr__(self, "deviation", _check(self.deviation, "rating.deviation", 0.0, MAX_DEVIATION))
        object.__setattr__(self, "volatility", _check(self.volatility, "rating.volatility", 0.0, MAX_VOLATILITY))
        if self.deviation == 0 or self.volatility == 0:
            raise PuzzleError(describe("rating", self.to_json(), "a deviation and a volatility above 0"))

    @property
    def low(self) -> float:
        """The rating less twice its deviation: what the rating is at least, in 19 cases of 20.

        >>> Rating(1700, 100).low
        1500.0
        """
        return self.rating - 2 * self.deviation

    def to_json(self) -> dict[str, float]:
        return {"rating": self.rating, "deviation": self.deviation, "volatility": self.volatility}

    @classmethod
    def from_json(cls, data: object, field: str = "rating") -> Rating:
        """The rating ``data`` holds, as :meth:`to_json` writes it (or :class:`PuzzleError` naming ``field``).

        >>> Rating.from_json({"rating": 1500, "deviation": "wide", "volatility": 0.06}, "ratings.ideas.zero")
        Traceback (most recent call last):
        ...
        caterpillar_learn.puzzles.errors.PuzzleError: ratings.ideas.zero.deviation: got 'wide', \
expected a number from 0 to 350.0
        """
        keys = ("rating", "deviation", "volatility")
        if not isinstance(data, dict) or set(data) != set(keys):
            raise PuzzleError(describe(field, data, 'an object {"rating", "deviation", "volatility"}'))
        bounds = {"rating": (LOWEST, HIGHEST), "deviation": (0.0, MAX_DEVIATION), "volatility": (0.0, MAX_VOLATILITY)}
        values = [_check(data[key], f"{field}.{key}", *bounds[key]) for key in keys]
        try:
            return cls(*values)
        except PuzzleError as error:
            raise PuzzleError(f"{field}: {str(error).partition(': ')[2]}") from None


def _check(value: object, field: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise PuzzleError(describe(field, value, f"a number from {low:g} to {high}"))
    return float(value)


def _g(phi: float) -> float:
    """How much a game against someone that unsure counts (1 for a sure opponent, less for an unsure one)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The share of games ``player`` is expected to win against ``opponent`` (step 2).

    >>> round(expected_score(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    >>> expected_score(Rating(1500), Rating(1500))
    0.5
    """
    return _expected(_mu(player), _mu(opponent), opponent.deviation / SCALE)


def _mu(rating: Rating) -> float:
    return (rating.rating - START_RATING) / SCALE


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, the root of ``f`` by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0  # the Illinois step: the end that stays is weighed half
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)


def _bounded(rating: float, deviation: float, volatility: float) -> Rating:
    return Rating(
        min(max(rating, LOWEST), HIGHEST),
        min(max(deviation, MIN_DEVIATION), MAX_DEVIATION),
        min(volatility, MAX_VOLATILITY),
    )


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period of ``games`` (each an opponent and a score: 1 win, 0 loss,
    ½ draw); no games is :func:`rest`.

    >>> won = rate(Rating(), [(Rating(1500), 1.0)])
    >>> won.rating > 1500 and won.deviation < 350
    True
    """
    if not games:
        return rest(player)
    for opponent, outcome in games:
        if not isinstance(opponent, Rating) or outcome not in (0, 0.5, 1):
            raise PuzzleError(describe("game", (opponent, outcome), "a Rating and a score of 0, 0.5 or 1"))
    mu, phi = _mu(player), player.deviation / SCALE
    weights = []
    for opponent, outcome in games:
        phi_j = opponent.deviation / SCALE
        e = _expected(mu, _mu(opponent), phi_j)
        weights.append((_g(phi_j), e, float(outcome)))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in weights)
    gain = sum(g * (s - e) for g, e, s in weights)
    sigma = _volatility(phi, player.volatility, v * gain, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return _bounded(SCALE * mu_new + START_RATING, SCALE * phi_new, sigma)


def rest(player: Rating, periods: int = 1) -> Rating:
    """``player``'s rating after ``periods`` rating periods without a game: only less sure (step 6).

    >>> round(rest(Rating(1500, 100, 0.06), 10).deviation, 1)
    105.3
    """
    if isinstance(periods, bool) or not isinstance(periods, int) or periods < 0:
        raise PuzzleError(describe("periods", periods, "a whole number of at least 0"))
    phi = player.deviation / SCALE
    phi_rested = math.sqrt(phi * phi + periods * player.volatility**2)
    return _bounded(player.rating, SCALE * phi_rested, player.volatility)


def duel(child: Rating, puzzle: Rating, right: bool) -> tuple[Rating, Rating]:
    """The child's and the puzzle's ratings after one answer (a rating period each, as Lichess rates puzzles): a
    right answer is the child's win, a wrong one the puzzle's.

    >>> child, puzzle = duel(Rating(), Rating(1500, 200), right=False)
    >>> child.rating < 1500 < puzzle.rating
    True
    """
    won = 1.0 if right else 0.0
    return rate(child, [(puzzle, won)]), rate(puzzle, [(child, 1.0 - won)])


@dataclass(frozen=True)
class IdeaRatings:
    """A child's rating per idea (:data:`~caterpillar_learn.practice.ideas.IDEAS`), for the ideas met so far.

    >>> ratings = IdeaRatings().with_rating("score_die", Rating(1580, 220, 0.06))
    >>> ratings.of("score_die").rating, ratings.of("middle") == Rating(), ratings.has("middle")
    (1580.0, True, False)
    >>> IdeaRatings.from_json(ratings.to_json()) == ratings
    True
    >>> IdeaRatings.from_json({"format": 1, "ideas": {"luck": Rating().to_json()}})
    Traceback (most recent call last):
    ...
    caterpillar_learn.puzzles.errors.PuzzleError: ratings.ideas: got 'luck', expected ideas among bonus, action, \
zero, score_die, middle, box
    """

    ratings: tuple[tuple[str, Rating], ...] = ()

    def __post_init__(self) -> None:
        ideas = [idea for idea, _ in self.ratings]
        unknown = [idea for idea in ideas if idea not in IDEAS]
        if unknown:
            raise PuzzleError(describe("ratings.ideas", unknown[0], "ideas among " + ", ".join(IDEAS)))
        if len(set(ideas)) != len(ideas):
            raise PuzzleError(describe("ratings.ideas", ideas, "each idea once"))
        if not all(isinstance(rating, Rating) for _, rating in self.ratings):
            raise PuzzleError(describe("ratings", self.ratings, "a Rating per idea"))
        object.__setattr__(self, "ratings", tuple(sorted(self.ratings, key=lambda pair: IDEAS.index(pair[0]))))

    def has(self, idea: str) -> bool:
        """Whether the child has met ``idea`` in a puzzle."""
        return any(known == idea for known, _ in self.ratings)

    def of(self, idea: str) -> Rating:
        """The child's rating for ``idea`` (an unknown one's if never met)."""
        if idea not in IDEAS:
            raise PuzzleError(describe("idea", idea, "one of " + ", ".join(IDEAS)))
        return dict(self.ratings).get(idea, Rating())

    def with_rating(self, idea: str, rating: Rating) -> IdeaRatings:
        return IdeaRatings(tuple({**dict(self.ratings), idea: rating}.items()))

    def as_dict(self) -> Mapping[str, Rating]:
        return dict(self.ratings)

    def to_json(self) -> dict[str, Any]:
        return {"format": RATINGS_FORMAT, "ideas": {idea: rating.to_json() for idea, rating in self.ratings}}

    @classmethod
    def from_json(cls, data: object) -> IdeaRatings:
        """The ratings ``data`` holds, as :meth:`to_json` writes them (or :class:`PuzzleError`)."""
        if not isinstance(data, dict) or set(data) != {"format", "ideas"}:
            raise PuzzleError(describe("ratings", data, 'an object {"format", "ideas"}'))
        if isinstance(data["format"], bool) or data["format"] != RATINGS_FORMAT:
            raise PuzzleError(describe("ratings.format", data["format"], str(RATINGS_FORMAT)))
        ideas = data["ideas"]
        if not isinstance(ideas, dict):
            raise PuzzleError(describe("ratings.ideas", ideas, "an object of ideas"))
        unknown = [idea for idea in ideas if idea not in IDEAS]
        if unknown:
            raise PuzzleError(describe("ratings.ideas", unknown[0], "ideas among " + ", ".join(IDEAS)))
        return cls(tuple((idea, Rating.from_json(raw, f"ratings.ideas.{idea}")) for idea, raw in ideas.items()))


__all__ = [
    "HIGHEST",
    "LOWEST",
    "MAX_DEVIATION",
    "MIN_DEVIATION",
    "RATINGS_FORMAT",
    "SCALE",
    "TAU",
    "IdeaRatings",
    "Rating",
    "duel",
    "expected_score",
    "rate",
    "rest",
]
