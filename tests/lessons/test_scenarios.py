"""The guided games' designed dice show what each lesson teaches.

Each scenario is replayed through the engine along every line a learner can
take (any move in the rounds the lesson does not lead, the helper's move in
those it leads) and must cover its list on each of them.
"""

from __future__ import annotations

import pytest

from caterpillar_learn.caterpillars import Move, Roll
from caterpillar_learn.lessons import LESSONS, get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game
from caterpillar_learn.lessons.scenarios import (
    CLEAR_MARGIN,
    Scenario,
    best_move,
    coverage,
    guided_lines,
    is_led,
    play_guided,
)

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
def test_every_line_a_learner_can_take_covers_the_list(name: str) -> None:
    lesson = get_lesson(name)
    assert lesson.scenario is not None
    ends = list(guided_lines(guided_game(lesson), lesson.scenario))
    assert ends and all(end.is_over for end in ends)
    for end in ends:
        assert set(lesson.scenario.covers) <= coverage(end), set(lesson.scenario.covers) - coverage(end)


def test_a_choice_left_free_that_breaks_a_rule_is_caught() -> None:
    """Beginner with no round led: some first moves lead to a game without a tie."""
    lesson = get_lesson("01-beginner")
    assert lesson.scenario is not None
    free = Scenario(lesson.scenario.rolls, lesson.scenario.covers, led=())
    ends = list(guided_lines(guided_game(lesson), free))
    assert len(ends) == 2  # nothing led: the helper's finish and the first-move finish
    assert any("tie" not in coverage(end) for end in ends)


def test_the_beginner_lesson_leaves_the_first_choice_to_the_learner() -> None:
    lesson = get_lesson("01-beginner")
    assert lesson.scenario is not None and 1 not in lesson.scenario.led
    first = [end for end in guided_lines(guided_game(lesson), lesson.scenario)]
    played = {next(t.choice for t in end.history if not t.is_setup) for end in first}
    assert len({move.slot for move in played}) >= 2  # a real choice of boxes


def test_the_beginner_child_picks_every_box_once_the_rule_was_shown_twice() -> None:
    """Issue 29: round 1 is the child's choice, round 2 (nothing fits) is led, every later round is the child's."""
    lesson = get_lesson("01-beginner")
    scenario = lesson.scenario
    assert scenario is not None
    game = guided_game(lesson)
    while game.phase == "setup":
        game.play(game.legal_moves()[0])
    led, choices = [], []
    while game.phase == "play":
        if is_led(scenario, game):
            led.append(game.state.round)
        elif game.state.round >= 3 and len({m.slot for m in game.legal_moves() if isinstance(m, Move)}) >= 2:
            choices.append(game.state.round)
        game.play(best_move(game.state, game.roll()))
    assert led == [2], led
    assert len(choices) >= 6, choices  # the child's own choices of box, from round 3 on


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
