"""The ideas a mistake is named by: one claim test per idea (issue 33, point 2).

Each claim is written here again as a fact about the two sheets the moves
leave (not as the module's own comparison), and checked on random positions
of every level and on every pair of legal moves: the idea named holds, and
no idea before it in the list does.  Then the named idea is checked on real
mistakes, against the solver's best move."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.caterpillars import CATERPILLARS, Game, Move, Roll, State, apply, legal_moves
from caterpillar_learn.practice import IDEAS, costliest, idea_of
from tests.caterpillars.test_properties import positions


def _after(state: State, move: Move) -> State:
    return apply(state, move)


def _gain(state: State, move: Move) -> int:
    """The points the move adds to the three caterpillars together."""
    return sum(_after(state, move).totals) - sum(state.totals)


def _grown(state: State, move: Move) -> str:
    """The caterpillar whose sheet the move writes into."""
    after = _after(state, move)
    changed = [slot for slot in range(12) if after.scores[slot] != state.scores[slot]]
    return CATERPILLARS[changed[0] // 4]


Claim = Callable[[State, Roll, Move, Move], bool]

CLAIMS: dict[str, Claim] = {
    # What goes into the bonus boxes differs between the two sheets.
    "bonus": lambda s, r, a, b: _after(s, a).bonus != _after(s, b).bonus,
    # The action die added to the dice (a 10, a doubling), and the two sheets gained different points.
    "action": lambda s, r, a, b: r.action in ("10", "2x") and _gain(s, a) != _gain(s, b),
    # One of the two moves writes a zero into its box.
    "zero": lambda s, r, a, b: any(_after(s, m).scores[m.slot] == 0 and m.zero for m in (a, b)),
    # Both write points, and different points: the dice played other roles.
    "score_die": lambda s, r, a, b: _gain(s, a) != _gain(s, b),
    # The same points, into another caterpillar.
    "middle": lambda s, r, a, b: _gain(s, a) == _gain(s, b) and _grown(s, a) != _grown(s, b),
    # The same points into the same caterpillar, in another box.
    "box": lambda s, r, a, b: _grown(s, a) == _grown(s, b) and a.slot != b.slot,
}


def test_every_idea_has_a_claim_and_words_for_teachers() -> None:
    from pathlib import Path

    assert list(CLAIMS) == list(IDEAS)
    teachers = (Path(__file__).parents[2] / "docs" / "ENGINEERS.md").read_text()
    for idea in IDEAS:
        assert f"`{idea}`" in teachers, f"docs/ENGINEERS.md does not explain the idea {idea!r}"


@given(positions(), st.randoms(use_true_random=False))
@settings(max_examples=300, deadline=None)
def test_the_idea_named_holds_and_no_earlier_idea_does(position: tuple[State, Roll], rng: random.Random) -> None:
    state, roll = position
    moves = list(legal_moves(state, roll))
    if len(moves) < 2:
        return
    for _ in range(6):
        chosen, best = rng.sample(moves, 2)
        idea = idea_of(state.level, roll, chosen, best)
        assert CLAIMS[idea](state, roll, chosen, best), (idea, chosen, best)
        for earlier in IDEAS[: IDEAS.index(idea)]:
            assert not CLAIMS[earlier](state, roll, chosen, best), (earlier, idea, chosen, best)


@pytest.mark.parametrize("level", ["beginner", "intermediate"])
def test_real_mistakes_are_named_by_a_claim_that_holds(level: str) -> None:
    """Random play's costliest moves (the solver's best beside them): each named idea holds."""
    named = set()
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(level, seed=seed)
        while not game.is_over:
            options = game.legal_moves()
            game.play(options[rng.randrange(len(options))])
        for mistake in costliest(game):
            state, roll = mistake.position.state, mistake.position.roll
            assert CLAIMS[mistake.idea](state, roll, mistake.chosen, mistake.best), mistake
            named.add(mistake.idea)
    assert named, "random play made no costly move in three games"
