"""A lesson written in Python: the lesson format's objects built in a notebook cell, read back as a file is (so
the same checks run), played on a board, and saved as a file a teacher shares.

>>> doubles = lesson(
...     "Doubles", level="beginner", age=5, line="Two dice the same",
...     steps=[say("Two dice with one number are a double."), roll("2 2", say="Tap Roll."), ask("boxes"),
...            place(say="Tap a box with a star."), finish()],
... )
>>> from caterpillar_learn.lessons.files import check
>>> [step.kind for step in doubles.steps], check(doubles)
(['say', 'roll', 'ask', 'place', 'finish'], [])
>>> print(to_toml(doubles).splitlines()[2])
level = "beginner"
>>> lesson("Oops", level="beginner", age=5, line="L", steps=[roll("2 7")])
Traceback (most recent call last):
...
caterpillar_learn.lessons.files.LessonFileError: Oops step 1: roll = '2 7': roll: got die 7, expected 1 to 6
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from caterpillar_learn.caterpillars import Game
from caterpillar_learn.caterpillars.dice import format_roll
from caterpillar_learn.caterpillars.sheet import ROUNDS
from caterpillar_learn.errors import CaterpillarLearnError
from caterpillar_learn.i18n import language, text
from caterpillar_learn.lessons.files import FileStep, LessonFile, LessonFileError, parse, raise_problems

__all__ = ["ask", "choice", "finish", "from_game", "hint", "lesson", "place", "roll", "save", "say", "to_toml"]


def say(words: str, *, title: str = "") -> FileStep:
    """A step that says something; the child goes on with Next."""
    return FileStep("say", title, words)


def roll(dice: str, *, say: str = "", title: str = "") -> FileStep:
    """The child rolls, and gets ``dice``."""
    return FileStep("roll", title, say, dice=dice)


def ask(question: str, *, say: str = "", title: str = "") -> FileStep:
    """One of the lessons' questions about the dice just rolled (``boxes``, ``zero``, ``split``, ``bonus``) or
    which caterpillar flies (``fly``)."""
    return FileStep("ask", title, say, question=question)


def choice(question: str, options: Sequence[str], right: int, *, title: str = "") -> FileStep:
    """The teacher's own question: its words, its answers in order, the number of the right one (from 1)."""
    return FileStep("ask", title, question, question="choice", options=tuple(options), right=right)


def place(*, say: str = "", title: str = "", lead: bool = False) -> FileStep:
    """The child places the dice (``lead``: only the helper's move is offered)."""
    return FileStep("place", title, say, lead=lead)


def hint(*, say: str = "", title: str = "") -> FileStep:
    """The child asks the helper for a hint."""
    return FileStep("hint", title, say)


def finish(*, say: str = "", title: str = "") -> FileStep:
    """The game is played to its end."""
    return FileStep("finish", title, say)


def lesson(
    title: str,
    *,
    level: str,
    age: int,
    line: str,
    steps: Sequence[FileStep],
    language: str = "en",
    seed: int = 1,
    labels: str = "",
    name: str = "",
) -> LessonFile:
    """A lesson built in Python, read back through the file reader and checked by the engine as a file is: a
    problem raises :class:`~caterpillar_learn.lessons.files.LessonFileError` in one line naming the step.
    ``name``: the file's (the title, by default)."""
    written = LessonFile(name or title, level, title, age, line, language, seed, (), tuple(steps))
    source = to_toml(written, labels=labels)
    found = parse(source, written.name)
    raise_problems(found, written.name)
    return found


def from_game(
    record: Mapping[str, Any], *, name: str = "game", title: str = "", age: int = 6, lang: str = "en"
) -> LessonFile:
    """A lesson made from a played game's record (``Game.to_json``, or a lesson page's save, whose ``engine`` it
    is): the sheet as its setup left it, and each round's dice as a step to roll and a step to place, then the
    flight.  The words are placeholders in ``lang`` for the teacher to change, as Board Game Arena's tutorials are
    made from replays.  A record the engine cannot replay raises one line naming the field.

    >>> from caterpillar_learn.caterpillars import Game
    >>> played = Game("beginner", seed=3)
    >>> while not played.is_over:
    ...     played.play(played.legal_moves()[0])
    >>> again = from_game(played.to_json(), name="seed3")
    >>> [step.kind for step in again.steps][:5], again.steps[1].dice, len(again.steps)
    (['say', 'roll', 'place', 'roll', 'place'], '4 6', 27)
    """
    engine = record.get("engine", record) if isinstance(record, Mapping) else record
    try:
        game = Game.from_json(engine)
    except CaterpillarLearnError as error:
        raise LessonFileError(f"{name}: the game's record: {error}") from None
    setup_rolls = game.turns - ROUNDS
    replayed = Game(game.level, game.initial.labels, variation=game.variation, rolls=game.rolls[:setup_rolls])
    for turn in game.history[:setup_rolls]:
        replayed.play(turn.choice)
    rounds = game.rolls[setup_rolls : setup_rolls + len(game.history) - setup_rolls]
    with language(lang):
        steps = [say(text("lessons.from_game.intro"))]
        for number, dice in enumerate(rounds, 1):
            steps += [roll(format_roll(dice), say=text("lessons.from_game.roll", round=number)),
                      place(say=text("lessons.from_game.place"))]  # fmt: skip
        if len(rounds) == ROUNDS:
            steps += [finish(), ask("fly")]
        words = (title or text("lessons.from_game.title"), text("lessons.from_game.line"))
    labels = _labels([label or 0 for label in replayed.state.labels])
    return lesson(words[0], level=game.level.value, age=age, line=words[1], steps=steps, language=lang,
                  labels=labels, name=name)  # fmt: skip


def to_toml(lesson: LessonFile, *, labels: str | None = None) -> str:
    """``lesson`` as the text of its file (format 1); ``labels`` as written ("" to leave them out), else the
    lesson's own."""
    shown = _labels(lesson.labels) if labels is None else labels
    head: dict[str, Any] = {
        "format": 1, "game": "caterpillars", "level": lesson.level, "title": lesson.title, "age": lesson.age,
        "line": lesson.line, "language": lesson.language, "seed": lesson.seed, "labels": shown,
    }  # fmt: skip
    lines = [f"{key} = {_value(value)}" for key, value in head.items() if value != ""]
    for step in lesson.steps:
        lines += ["", "[[step]]", *(f"{key} = {_value(value)}" for key, value in _step(step).items())]
    return "\n".join(lines) + "\n"


def save(lesson: LessonFile, path: str | Path) -> Path:
    """Write ``lesson`` to the file ``path`` (``.toml``), for ``lesson check``, ``lesson notebook`` and sharing."""
    target = Path(path)
    target.write_text(to_toml(lesson), encoding="utf-8")
    return target


def _step(step: FileStep) -> dict[str, Any]:
    """A step's keys, in the order a teacher writes them."""
    keys: dict[str, Any] = {"title": step.title, "say": step.say}
    if step.kind == "roll":
        keys["roll"] = step.dice
    elif step.kind == "ask":
        keys["ask"] = step.question
        if step.question == "choice":
            keys["options"], keys["right"] = list(step.options), step.right
    elif step.kind in ("place", "hint", "finish"):
        keys[step.kind] = True
        if step.lead:
            keys["lead"] = True
    return {key: value for key, value in keys.items() if value not in ("", None)}


def _labels(labels: Sequence[int]) -> str:
    """Twelve labels as a teacher writes them: a caterpillar per ``/``."""
    return " / ".join(" ".join(str(label) for label in labels[start : start + 4]) for start in (0, 4, 8))


def _value(value: object) -> str:
    """A TOML value: JSON's strings, numbers, booleans and lists are TOML's too (strings as basic strings)."""
    return json.dumps(value, ensure_ascii=False)
