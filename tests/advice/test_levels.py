"""The advice registry per level, and the advice's questions to the engine."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.advice import LEVEL_ADVICE, AdviceError, estimate, level_advice, solved_level
from caterpillar_learn.advice.explain import label_chance
from caterpillar_learn.advice.tables import exact_level, max_box_score, roll_table
from caterpillar_learn.caterpillars import Level, State, chance_outcomes, legal_moves
from caterpillar_learn.caterpillars.levels import LEVEL_RULES
from caterpillar_learn.caterpillars.sheet import SLOTS


def test_every_level_has_rules_and_advice() -> None:
    assert set(LEVEL_RULES) == set(Level)
    assert set(LEVEL_ADVICE) == set(Level)


@pytest.mark.parametrize("level", list(Level))
def test_entries_are_consistent_with_the_rules(level: Level) -> None:
    advice = level_advice(level)
    solved = advice.solved_level
    assert advice.exact == (solved is level), "an exact level reads its own solve, an estimated one another's"
    assert LEVEL_ADVICE[solved].exact and LEVEL_ADVICE[solved].solved_level is solved
    assert solved.rules.dice == level.rules.dice, "the solve the estimate reads rolls the same dice"
    chance = advice.chance_level.rules
    assert chance.dice == level.rules.dice and not chance.bonus_boxes and not chance.action_die
    assert advice.box_mean > 0 and advice.box_variance > 0
    assert not (advice.exact and advice.rescale_totals), "an exact level reads its own scale"
    assert not advice.solve_setup or advice.exact


def test_the_ui_reads_the_solve_each_level_builds_on() -> None:
    assert [solved_level(level) for level in Level] == [
        Level.BEGINNER,
        Level.INTERMEDIATE,
        Level.INTERMEDIATE,
        Level.INTERMEDIATE,
    ]
    assert solved_level("expert") is Level.INTERMEDIATE


@pytest.mark.parametrize("level", [Level.ADVANCED, Level.EXPERT])
def test_the_estimate_solves_the_registered_level(level: Level, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    monkeypatch.setattr(estimate, "solve_layout", lambda level, labels, progress=False: asked.append(level))
    estimate.no_bonus_solution(State.new(level, (1,) * SLOTS))
    assert asked == [solved_level(level)]


def test_exact_levels_and_their_score_bounds() -> None:
    assert [level for level in Level if level_advice(level).exact] == [Level.BEGINNER, Level.INTERMEDIATE]
    assert (max_box_score(Level.BEGINNER), max_box_score(Level.INTERMEDIATE)) == (6, 12)
    with pytest.raises(AdviceError, match="expected beginner or intermediate for an exact solve"):
        exact_level("expert")


# -- what a roll offers, as the advice asks it, against moves on a sheet --------------


@pytest.mark.parametrize("level", [Level.BEGINNER, Level.INTERMEDIATE])
def test_roll_table_matches_moves_on_a_sheet_with_every_label(level: Level) -> None:
    sheet = State.new(level, range(1, SLOTS + 1))
    grouped: dict[frozenset[tuple[int, int]], Fraction] = {}
    for roll, p in chance_outcomes(level):
        pairs = frozenset((m.score, m.slot + 1) for m in legal_moves(sheet, roll) if not m.zero)
        grouped[pairs] = grouped.get(pairs, Fraction(0)) + p
    table = roll_table(level)
    assert dict(zip(table.pairs, table.probs)) == {pairs: float(p) for pairs, p in grouped.items()}


@pytest.mark.parametrize("level", list(Level))
def test_label_chance_counts_the_rolls_that_fill_a_box_with_that_label(level: Level) -> None:
    dice = level_advice(level).chance_level
    for label in range(1, 13):
        sheet = State.new(dice, (label,) * SLOTS)
        expected = sum(
            (p for roll, p in chance_outcomes(dice) if not legal_moves(sheet, roll).first().zero), Fraction(0)
        )
        assert label_chance(level, label) == expected
    assert label_chance(level, 12) < label_chance(level, 6)


@given(
    level=st.sampled_from([Level.ADVANCED, Level.EXPERT]),
    label=st.integers(1, 12),
    bonus=st.tuples(*(st.one_of(st.none(), st.integers(1, 6)) for _ in range(3))),
)
@settings(max_examples=40, deadline=None)
def test_last_round_moves_match_a_sheet_with_one_empty_box(
    level: Level, label: int, bonus: tuple[int | None, int | None, int | None]
) -> None:
    sheet = State(level, (label,) * SLOTS, (0,) * (SLOTS - 1) + (None,), bonus)
    found = estimate._last_moves(level, label, bonus)
    for (roll, p), (q, moves) in zip(chance_outcomes(level), found, strict=True):
        assert q == float(p)
        assert set(moves) == {(m.score, m.bonus) for m in legal_moves(sheet, roll)}
