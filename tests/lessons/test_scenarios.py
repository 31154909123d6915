"""The guided games' designed dice show what each lesson teaches.

Each scenario is replayed through the engine along the helper's best moves
(what the lesson's hints show) and must cover its list; the questions the
lessons ask on those rounds must have a true answer.
"""

from __future__ import annotations

import pytest

from caterpillar_learn.caterpillars import Roll
from caterpillar_learn.lessons import LESSONS, get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game
from caterpillar_learn.lessons.scenarios import CLEAR_MARGIN, Scenario, coverage, play_guided

SCRIPTED = [name for name, lesson in LESSONS.items() if lesson.scenario is not None]


def test_every_level_lesson_has_a_scenario() -> None:
    assert SCRIPTED == ["01-beginner", "02-intermediate", "03-advanced", "04-expert"]


@pytest.mark.parametrize("name", SCRIPTED)
def test_the_scenario_covers_its_list(name: str) -> None:
    lesson = get_lesson(name)
    assert lesson.scenario is not None and lesson.scenario.covers
    game = play_guided(guided_game(lesson))
    assert game.is_over
    shown = coverage(game)
    assert set(lesson.scenario.covers) <= shown, set(lesson.scenario.covers) - shown


@pytest.mark.parametrize("name", SCRIPTED)
def test_the_guided_game_plays_the_scenario_dice_then_the_seed(name: str) -> None:
    lesson = get_lesson(name)
    assert lesson.scenario is not None
    game = guided_game(lesson)
    setup = game.turns - 12
    assert len(lesson.scenario.rolls) == game.turns  # every turn is designed
    for turn, words in enumerate(lesson.scenario.rolls):
        dice = tuple(sorted(int(d) for d in words.split()[: 3 if turn < setup else game.level.rules.dice]))
        assert game.rolls[turn].dice == dice


def test_a_scenario_that_misses_its_rule_fails_the_check() -> None:
    """The check can fail: Beginner's dice with round 2 changed to a double 6 (a label 6 exists)."""
    lesson = get_lesson("01-beginner")
    assert lesson.scenario is not None
    rolls = list(lesson.scenario.rolls)
    rolls[3] = "6 6"
    broken = type(lesson)(**{**lesson.__dict__, "scenario": Scenario(tuple(rolls), lesson.scenario.covers)})
    assert "zero" not in coverage(play_guided(guided_game(broken)))


def test_the_margin_is_positive() -> None:
    assert CLEAR_MARGIN > 0


def test_every_expert_action_face_appears() -> None:
    game = guided_game(get_lesson("04-expert"))
    faces = {roll.action for roll in game.rolls if isinstance(roll, Roll) and roll.action}
    assert faces == {"A", "B", "C", "2x", "10", "butterfly"}
