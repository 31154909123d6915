"""Hypothesis properties of the engine: playouts, moves, chance, the zero rule."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.caterpillars import (
    Game,
    Level,
    Roll,
    State,
    apply,
    chance_outcomes,
    legal_moves,
    producible_scores,
    score,
    validate,
)
from caterpillar_learn.caterpillars.dice import ACTION_FACES
from tests.caterpillars.reference_moves import reference_effects

LEVELS = [level.value for level in Level]

levels = st.sampled_from(LEVELS)
label_values = st.integers(min_value=1, max_value=12)


@st.composite
def positions(draw: st.DrawFn) -> tuple[State, Roll]:
    """A reachable-looking position: any labels, some boxes filled, a roll."""
    level = Level(draw(levels))
    labels = tuple(draw(st.lists(label_values, min_size=12, max_size=12)))
    allowed = sorted(producible_scores(level))
    filled = draw(st.lists(st.booleans(), min_size=12, max_size=12))
    scores = tuple(draw(st.sampled_from(allowed)) if f else None for f in filled)
    bonus: tuple[int | None, int | None, int | None] = (None, None, None)
    if level.rules.bonus_boxes:
        count = min(sum(filled), 3)
        values = [draw(st.one_of(st.none(), st.integers(1, 6))) for _ in range(3)]
        kept = [v for v in values if v is not None][:count]
        bonus = tuple(kept + [None] * (3 - len(kept)))  # type: ignore[assignment]
    dice = tuple(sorted(draw(st.lists(st.integers(1, 6), min_size=level.rules.dice, max_size=level.rules.dice))))
    action = draw(st.sampled_from(ACTION_FACES)) if level.rules.action_die else None
    return validate(State(level, labels, scores, bonus)), Roll(dice, action)


@given(level=levels, seed=st.integers(0, 2**32 - 1), variation=st.booleans())
@settings(max_examples=60, deadline=None)
def test_random_playouts_end_after_12_rounds_with_every_box_filled(level: str, seed: int, variation: bool) -> None:
    rng = random.Random(seed)
    game = Game(level, variation=variation and level != "beginner", seed=seed)
    setup_turns = 0
    while game.phase == "setup":
        choices = game.legal_moves()
        game.play(choices[rng.randrange(len(choices))])
        setup_turns += 1
    assert setup_turns == (3 if game.variation else 2)
    rounds = 0
    while game.phase == "play":
        moves = game.legal_moves()
        assert moves, "every round offers at least one move"
        game.play(moves[rng.randrange(len(moves))])
        rounds += 1
    assert rounds == 12 and game.state.is_complete
    bonus_filled = sum(v is not None for v in game.state.bonus)
    assert bonus_filled <= 3 and (bonus_filled == 0 or Level(level).rules.bonus_boxes)
    result = score(game.state)
    assert result.complete and result.final >= sorted(game.state.totals)[1]


@given(positions())
@settings(max_examples=300, deadline=None)
def test_every_listed_move_applies_and_changes_one_box(position: tuple[State, Roll]) -> None:
    state, roll = position
    for move in legal_moves(state, roll):
        after = apply(state, move, roll)
        changed = [i for i in range(12) if after.scores[i] != state.scores[i]]
        assert changed == [move.slot] and after.scores[move.slot] == move.score
        assert validate(after) is after
        assert move.ways, "every move says how it arises"


@given(positions())
@settings(max_examples=400, deadline=None)
def test_moves_agree_with_the_reference_generator(position: tuple[State, Roll]) -> None:
    """The effects equal those of a plain generator written from the rule text."""
    state, roll = position
    engine = {(m.slot, m.score, m.zero, m.bonus) for m in legal_moves(state, roll)}
    reference = reference_effects(state.level.value, state.labels, state.scores, state.bonus, roll.dice, roll.action)
    assert engine == reference
    assert len(engine) == len(legal_moves(state, roll)), "each effect listed once"


@given(positions())
@settings(max_examples=300, deadline=None)
def test_zero_only_when_rule_4_allows(position: tuple[State, Roll]) -> None:
    state, roll = position
    moves = legal_moves(state, roll)
    by_bonus: dict[object, list[bool]] = {}
    for move in moves:
        by_bonus.setdefault(move.bonus, []).append(move.zero)
    for zeros in by_bonus.values():
        # for one bonus choice either every move is a zero or none is
        assert all(zeros) or not any(zeros)
    for move in moves:
        if move.zero:
            assert move.score == 0 and all(way.zero for way in move.ways)


def test_chance_outcomes_sum_to_one_and_match_the_dice() -> None:
    for level in Level:
        outcomes = chance_outcomes(level)
        assert sum(p for _, p in outcomes) == 1
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert len({roll for roll, _ in outcomes}) == len(outcomes)
    assert len(chance_outcomes("beginner")) == 21
    assert len(chance_outcomes("intermediate")) == 56
    assert len(chance_outcomes("expert")) == 56 * 6
    doubles = sum(p for roll, p in chance_outcomes("beginner") if roll.dice[0] == roll.dice[1])
    assert doubles == Fraction(1, 6)


def test_rolling_follows_the_chance_outcomes() -> None:
    """Seeded rolls land on each outcome about as often as its probability says."""
    rng = random.Random(2024)
    counts: dict[Roll, int] = {}
    n = 60_000
    from caterpillar_learn.caterpillars import roll_dice

    for _ in range(n):
        r = roll_dice("beginner", rng)
        counts[r] = counts.get(r, 0) + 1
    for roll, p in chance_outcomes("beginner"):
        expected = n * float(p)
        assert abs(counts.get(roll, 0) - expected) < 5 * (expected**0.5)
