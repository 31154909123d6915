"""The lesson model: every lesson has a notebook, every step its texts and a
known check, and the checks mean what the steps say."""

from __future__ import annotations

from pathlib import Path

import pytest

from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import CHECKS, LESSONS, Progress, Step, get_lesson
from caterpillar_learn.lessons.teacher import class_dice, sample_game

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["00-setup", "01-beginner", "02-intermediate", "03-advanced", "04-expert", "05-strategy-lab"]


def test_the_lessons_and_their_notebooks() -> None:
    assert list(LESSONS) == NAMES
    for name in NAMES:
        assert (ROOT / "lessons" / f"{name}.ipynb").is_file()
        assert (ROOT / "lessons" / f"{name}.py").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_every_step_has_its_texts(name: str) -> None:
    lesson = get_lesson(name)
    assert text(lesson.title_key)
    for step in lesson.steps:
        assert text(f"lessons.{step.key}.title") and text(f"lessons.{step.key}.body")
        if step.check != "none":
            assert text(f"lessons.todo.{step.check}")


@pytest.mark.parametrize("name", [n for n, lesson in LESSONS.items() if lesson.scenario is not None])
def test_the_guided_part_ends_in_a_whole_game_then_scoring_and_free_play(name: str) -> None:
    checks = [step.check for step in get_lesson(name).steps]
    assert "game_over" in checks
    after = checks[checks.index("game_over") + 1 :]
    assert after and all(check == "none" for check in after)


def test_lesson_zero_plays_no_game_before_lesson_one_teaches_placing() -> None:
    checks = [step.check for step in get_lesson("00-setup").steps]
    assert checks[-2:] == ["setup_done", "none"] and not {"rolled", "played", "game_over"} & set(checks)


@pytest.mark.parametrize("name", [n for n, lesson in LESSONS.items() if lesson.scenario is not None])
def test_every_level_lesson_asks_at_least_three_questions(name: str) -> None:
    asked = [step.question for step in get_lesson(name).steps if step.question]
    assert len(asked) >= 3 and asked[-1] == "fly"
    assert {"02-intermediate": "split", "03-advanced": "bonus"}.get(name, asked[0]) in asked


def test_checks() -> None:
    assert not CHECKS["rolled"](Progress(rolls=2, setup_rolls=2))
    assert CHECKS["rolled"](Progress(rolls=3, setup_rolls=2))
    assert CHECKS["game_over"](Progress(games_finished=1))
    with pytest.raises(ValueError, match="step check: got 'magic'"):
        Step("common.roll", "magic")


def test_class_dice_lists_every_roll_whatever_is_played() -> None:
    lines = class_dice("03-advanced", seed=9).splitlines()
    game = sample_game("03-advanced", seed=9)  # the first highlighted moves: other choices than class_dice's copy
    assert len(lines) == 1 + 2 + 12
    assert lines[0].startswith("Seed 9,")
    assert lines[3] == f"Round 1: {game.history[2].roll}"
    assert lines[-1] == f"Round 12: {game.history[-1].roll}"
