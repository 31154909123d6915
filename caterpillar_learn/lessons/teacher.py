"""What a teacher reads under a lesson: the class's dice for a seed, and a sample game.

Every learner who starts a lesson with the same seed gets the same dice, in
the same order, whatever they choose (the dice never depend on the choices):
the guided game's designed dice first (the lesson's scenario), then dice
drawn from the seed.
The sample game always takes the first highlighted move (the first option of
a box's menu), which is also what a browser test does by clicking the first
``legal-move`` and the first ``move-option``.

>>> print(class_dice("01-beginner", seed=1).splitlines()[0])
Seed 1, Beginner level: the dice of every round.
"""

from __future__ import annotations

from caterpillar_learn.caterpillars import Game, Move, format_roll
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.caterpillars import get_lesson, guided_game


def sample_game(name: str, seed: int | None = None) -> Game:
    """The lesson's game played to the end, always with the first legal choice.

    >>> sample_game("01-beginner", seed=1).phase
    'over'
    """
    game = guided_game(get_lesson(name), seed)
    while game.phase != "over":
        choices = game.legal_moves()
        game.play(choices[0])
    return game


def class_dice(name: str, seed: int | None = None) -> str:
    """The dice of each round for ``seed`` and the sample game's final score, as text."""
    lesson = get_lesson(name)
    game = sample_game(name, seed)
    level = text(f"caterpillars.level.{lesson.level}")
    lines = [text("lessons.teacher.heading", seed=game_seed(name, seed), level=level)]
    setup = [turn for turn in game.history if turn.is_setup]
    play = [turn for turn in game.history if isinstance(turn.choice, Move)]
    for number, turn in enumerate(setup, start=1):
        lines.append(text("lessons.teacher.setup_roll", number=number, dice=format_roll(turn.roll)))
    for number, turn in enumerate(play, start=1):
        lines.append(text("lessons.teacher.round", number=number, dice=format_roll(turn.roll)))
    lines.append(text("lessons.teacher.sample", final=game.score().final))
    return "\n".join(lines)


def game_seed(name: str, seed: int | None) -> int:
    return get_lesson(name).seed if seed is None else seed


__all__ = ["class_dice", "game_seed", "sample_game"]
