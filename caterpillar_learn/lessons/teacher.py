"""What a teacher reads under a lesson: the class's dice for a seed, and a sample game.

Every learner who starts a lesson with the same seed gets the same dice, in
the same order, whatever they choose (the dice never depend on the choices):
the guided game's designed dice first (the lesson's scenario), then dice
drawn from the seed.
The sample game always takes the first highlighted move (the first option of
a box's menu), which is also what a browser test does by clicking the first
``legal-move`` and the first ``move-option``; in the rounds a guided game
leads, the one highlighted move is the helper's.

>>> print(class_dice("01-beginner", seed=1).splitlines()[0])
Seed 1, Beginner level: the dice of every round.
"""

from __future__ import annotations

from caterpillar_learn.caterpillars import Game, format_roll
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.caterpillars import get_lesson, guided_game
from caterpillar_learn.lessons.scenarios import best_move, is_led


def sample_game(name: str, seed: int | None = None) -> Game:
    """The lesson's game played to the end, always with the first highlighted choice.

    >>> sample_game("01-beginner", seed=1).phase
    'over'
    """
    lesson = get_lesson(name)
    game = guided_game(lesson, seed)
    while game.phase != "over":
        if lesson.scenario is not None and is_led(lesson.scenario, game):
            game.play(best_move(game.state, game.roll()))
        else:
            game.play(game.legal_moves()[0])
    return game


def class_dice(name: str, seed: int | None = None) -> str:
    """The dice of each round of the lesson's guided game for ``seed``, as text."""
    return game_dice(guided_game(get_lesson(name), seed), game_seed(name, seed))


def game_dice(game: Game, seed: int) -> str:
    """The dice of every turn of ``game`` (which is left as it is), as text.

    The dice never depend on the choices, so a copy played with the first legal choices draws them.
    """
    copy = Game.from_json(game.to_json())
    while copy.phase != "over":
        copy.play(copy.legal_moves()[0])
    level = text(f"caterpillars.level.{copy.level.value}")
    lines = [text("lessons.teacher.heading", seed=seed, level=level)]
    setup = [turn.roll for turn in copy.history if turn.is_setup]
    for number, roll in enumerate(setup, start=1):
        lines.append(text("lessons.teacher.setup_roll", number=number, dice=format_roll(roll)))
    for number, roll in enumerate(copy.rolls[len(setup) :], start=1):
        lines.append(text("lessons.teacher.round", number=number, dice=format_roll(roll)))
    return "\n".join(lines)


def game_seed(name: str, seed: int | None) -> int:
    return get_lesson(name).seed if seed is None else seed


__all__ = ["class_dice", "game_dice", "game_seed", "sample_game"]
