"""A lesson as a file a teacher writes: TOML read into steps, and checked against the rules as it is read.

A lesson file says what a lesson does in the teacher's own words (format 1, Caterpillars): the level, the
title, the youngest age it is for, the one line the gallery shows, the language its words are written in,
the sheet it starts from, and its steps in order.  Each step says something (``say``, with a ``title``) and does
at most one thing:

* ``roll = "3 3"``: the child rolls, and these are the dice (a level's dice: two at Beginner, three after,
  the action die's face last at Expert);
* ``ask = "boxes"`` (or ``zero``, ``split``, ``bonus``, ``fly``): one of the lessons' questions about the dice
  just rolled, or ``ask = "choice"`` with ``options`` and the index of the ``right`` one: the teacher's own;
* ``place = true``: the child places the dice (``lead = true``: the helper's move is the only one offered);
* ``hint = true``: the child asks the helper;
* ``finish = true``: the game is played to its end (``ask = "fly"`` may follow).

What a step claims is checked by the engine (:func:`check`): dice the level cannot roll, an unknown label,
"nothing fits" on dice that fit a box (on every line the child can take to it), a choice without exactly one
right answer, more words than a young child reads.  Each problem is one line naming the step.

A Räuber Raupe lesson (``game = "raupe"``) is the other half of format 1, read by :mod:`.raupe_files`;
:func:`read_any` and :func:`check_any` take a file of either game (``caterpillar-learn lesson check``).

>>> lesson = parse('''
... format = 1
... level = "beginner"
... title = "Doubles"
... age = 5
... line = "Two dice the same"
... [[step]]
... say = "Tap Roll."
... roll = "2 6"
... [[step]]
... ask = "boxes"
... ''', "doubles.toml")
>>> [step.kind for step in lesson.steps], lesson.steps[0].dice
(['roll', 'ask'], '2 6')
>>> check(lesson)
[]
>>> check(parse('format = 1\\nlevel = "beginner"\\ntitle = "T"\\nage = 5\\nline = "L"\\n'
...             '[[step]]\\nroll = "2 6"\\n[[step]]\\nask = "zero"', "zero.toml"))
['zero.toml step 2: ask = "zero" claims nothing fits 2 6, but it fits a box (Alex box 2 at least)']
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from caterpillar_learn.caterpillars import Game, Move, apply, legal_moves, parse_roll
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.sheet import describe_slot
from caterpillar_learn.errors import CaterpillarLearnError, brief, describe
from caterpillar_learn.i18n import available_languages
from caterpillar_learn.lessons.caterpillars import LEVEL_LESSONS, Lesson, Step, sheet_labels
from caterpillar_learn.lessons.questions import KINDS
from caterpillar_learn.lessons.scenarios import Scenario

if TYPE_CHECKING:
    from caterpillar_learn.lessons.raupe_files import RaupeLessonFile

__all__ = [
    "FORMAT",
    "FileStep",
    "LessonFile",
    "LessonFileError",
    "beside",
    "check",
    "check_any",
    "lesson_of",
    "parse",
    "play",
    "raise_problems",
    "read",
    "read_any",
]

#: The version of the format this module reads.
FORMAT = 1
#: The questions a step may ask: the lessons' own kinds, and the teacher's own choice.
QUESTIONS = (*KINDS, "choice")
#: The most words a step shows a child of 7 or younger (its title and what it says).
YOUNG_WORDS = 40
#: The most lines of play the check follows to a question (beyond, the rounds before it must be led).
MOST_LINES = 2000
#: The keys a lesson and a step may have.
LESSON_KEYS = ("format", "game", "level", "title", "age", "line", "language", "seed", "labels", "step")
STEP_KEYS = ("title", "say", "roll", "ask", "options", "right", "place", "lead", "hint", "finish")


class LessonFileError(CaterpillarLearnError):
    """A lesson file that cannot be read: one line naming the file, the step and the field."""


@dataclass(frozen=True)
class FileStep:
    """One step of a lesson file: its words and the one thing it does (``kind``)."""

    kind: str  # "say", "roll", "ask", "place", "hint" or "finish"
    title: str = ""
    say: str = ""
    dice: str | None = None
    question: str | None = None
    options: tuple[str, ...] = ()
    right: int | None = None
    lead: bool = False


@dataclass(frozen=True)
class LessonFile:
    """A teacher's lesson as its file says it (:func:`parse`), before the engine checks it (:func:`check`)."""

    name: str
    level: str
    title: str
    age: int
    line: str
    language: str
    seed: int
    labels: tuple[int, ...]
    steps: tuple[FileStep, ...]

    def rolls(self) -> list[str]:
        """The dice of the lesson's roll steps, in order: the guided game's first rounds."""
        return [step.dice for step in self.steps if step.dice is not None]


def read(path: str) -> LessonFile:
    """The lesson in the file ``path`` (:func:`parse`), read with the limits of every command's input."""
    from caterpillar_learn.reading import read_document

    return parse(read_document(path, path, error=LessonFileError), path)


def parse(source: str, name: str = "lesson") -> LessonFile:
    """The lesson ``source`` says (TOML, format 1), or :class:`LessonFileError` in one line naming ``name``."""
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as error:
        raise LessonFileError(f"{name}: not TOML ({error})") from None
    if data.get("game") == "raupe":  # the other half of the format: its reader's problem first, in its words
        from caterpillar_learn.lessons import raupe_files

        raupe_files.from_data(data, name)
        raise LessonFileError(
            f"{name}: {describe('game', 'raupe', 'caterpillars: a Räuber Raupe lesson plays in RaupeWidget')}"
        )
    unknown = sorted(set(data) - set(LESSON_KEYS))
    if unknown:
        raise LessonFileError(f"{name}: {describe('key', unknown[0], 'one of ' + ', '.join(LESSON_KEYS))}")
    field = _Fields(data, name)
    if (version := field.get("format", int)) != FORMAT:
        raise LessonFileError(
            f"{name}: {describe('format', version, f'{FORMAT} (this version reads format {FORMAT})')}"
        )
    if (game := field.get("game", str, "caterpillars")) != "caterpillars":
        raise LessonFileError(
            f"{name}: {describe('game', game, 'caterpillars (format 1 writes Caterpillars lessons)')}"
        )
    level = field.get("level", str)
    try:
        level = Level.parse(level).value
    except CaterpillarLearnError:
        raise LessonFileError(f"{name}: {describe('level', level, 'one of ' + ', '.join(LEVEL_LESSONS))}") from None
    language = field.get("language", str, "en")
    if language not in available_languages():
        raise LessonFileError(f"{name}: {describe('language', language, 'one of ' + ', '.join(available_languages()))}")
    age = field.get("age", int)
    if not 3 <= age <= 99:
        raise LessonFileError(f"{name}: {describe('age', age, 'the youngest age it is for, from 3 to 99')}")
    seed = field.get("seed", int, 1)
    if not 0 <= seed < 2**32:
        raise LessonFileError(f"{name}: {describe('seed', seed, 'a whole number from 0 to 4294967295')}")
    labels = _labels(field.get("labels", str, ""), level, name)
    steps = data.get("step")
    if steps is None:
        raise LessonFileError(f"{name}: step: missing, expected one [[step]] table or more")
    if not isinstance(steps, list) or not steps or not all(isinstance(step, Mapping) for step in steps):
        raise LessonFileError(f"{name}: {describe('step', brief(steps), 'one [[step]] table or more')}")
    return LessonFile(
        name=name,
        level=level,
        title=field.get("title", str),
        age=age,
        line=field.get("line", str),
        language=language,
        seed=seed,
        labels=labels,
        steps=tuple(_step(step, f"{name} step {number}") for number, step in enumerate(steps, 1)),
    )


def read_any(path: str) -> LessonFile | RaupeLessonFile:
    """The lesson in the file ``path``, of either game: a Räuber Raupe lesson (``game = "raupe"``) as
    :mod:`.raupe_files` reads it, any other as :func:`read` does (``lesson check`` reads both).

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     cards = pathlib.Path(folder, "cards.toml")
    ...     _ = cards.write_text('format = 1\\ngame = "raupe"\\ntitle = "Cards"\\nage = 6\\nline = "L"\\n'
    ...                          'mode = "colour"\\nintro = ["Same colour."]\\n', encoding="utf-8")
    ...     found = read_any(str(cards))
    >>> type(found).__name__, found.mode, check_any(found)
    ('RaupeLessonFile', 'colour', [])
    """
    from caterpillar_learn.lessons import raupe_files
    from caterpillar_learn.reading import read_document

    source = read_document(path, path, error=LessonFileError)
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError:
        data = {}  # parse says why, in one line
    return raupe_files.from_data(data, path) if data.get("game") == "raupe" else parse(source, path)


def check_any(lesson: LessonFile | RaupeLessonFile) -> list[str]:
    """Every problem the engine finds in a lesson of either game (:func:`check`, :func:`.raupe_files.check`).

    >>> check_any(parse(_EXAMPLE, "doubles.toml"))
    []
    """
    if isinstance(lesson, LessonFile):
        return check(lesson)
    from caterpillar_learn.lessons import raupe_files

    return raupe_files.check(lesson)


class _Fields:
    """A table's fields read with their expected type, each error one line naming the field."""

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        self.data, self.where = data, where

    def get(self, key: str, kind: type, default: Any = None) -> Any:
        value = self.data.get(key, default)
        if value is None:
            raise LessonFileError(f"{self.where}: {key}: missing, expected {_TYPE_WORDS[kind]}")
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise LessonFileError(f"{self.where}: {describe(key, value, _TYPE_WORDS[kind])}")
        return value


_TYPE_WORDS = {str: "text in quotes", int: "a whole number", bool: "true or false", list: "a list in [ ]"}


def _labels(words: str, level: str, name: str) -> tuple[int, ...]:
    """The sheet's twelve labels ("1 2 6 3 / 6 2 1 5 / 5 1 2 6"), or the level's lesson sheet when none."""
    if not words:
        return tuple(label for label in sheet_labels(LEVEL_LESSONS[level]) if label is not None)
    tokens = words.replace("/", " ").split()
    most = 12 if Level.parse(level).rules.dice > 2 else 6
    if len(tokens) != 12 or not all(token.isdigit() and 1 <= int(token) <= most for token in tokens):
        bad = next((token for token in tokens if not (token.isdigit() and 1 <= int(token) <= most)), None)
        got = brief(bad) if bad is not None else f"{len(tokens)} labels"
        raise LessonFileError(f"{name}: labels: got {got}, expected 12 labels from 1 to {most}, a caterpillar per /")
    return tuple(int(token) for token in tokens)


def _step(data: Mapping[str, Any], where: str) -> FileStep:
    """One ``[[step]]`` table: its words and the one thing it does."""
    unknown = sorted(set(data) - set(STEP_KEYS))
    if unknown:
        raise LessonFileError(f"{where}: {describe('key', unknown[0], 'one of ' + ', '.join(STEP_KEYS))}")
    field = _Fields(data, where)
    title, say = field.get("title", str, ""), field.get("say", str, "")
    doing = [key for key in ("roll", "ask", "place", "hint", "finish") if key in data]
    if len(doing) > 1:
        raise LessonFileError(f"{where}: does {' and '.join(doing)}, expected one thing a step (split it in two)")
    for flag in ("place", "hint", "finish", "lead"):
        if flag in data and field.get(flag, bool) is not True:
            raise LessonFileError(f"{where}: {describe(flag, data[flag], 'true (or no ' + flag + ' at all)')}")
    if "lead" in data and doing != ["place"]:
        raise LessonFileError(f"{where}: lead: only a step with place = true leads the child's move")
    if not doing:
        if not (title or say):
            raise LessonFileError(
                f"{where}: says nothing and does nothing, expected say, roll, ask, place, hint or finish"
            )
        return FileStep("say", title, say)
    kind = doing[0]
    if kind == "roll":
        return FileStep("roll", title, say, dice=field.get("roll", str))
    if kind != "ask":
        return FileStep(kind, title, say, lead=bool(data.get("lead")))
    question = field.get("ask", str)
    if question not in QUESTIONS:
        raise LessonFileError(f"{where}: {describe('ask', question, 'one of ' + ', '.join(QUESTIONS))}")
    if question != "choice":
        if "options" in data or "right" in data:
            raise LessonFileError(f'{where}: options and right: only ask = "choice" has its own options')
        return FileStep("ask", title, say, question=question)
    options = field.get("options", list)
    if len(options) < 2 or not all(isinstance(option, str) and option.strip() for option in options):
        raise LessonFileError(
            f"{where}: {describe('options', brief(options), 'two answers or more, each text in quotes')}"
        )
    if len(set(options)) != len(options):
        raise LessonFileError(f"{where}: options: two answers are the same, expected each one once")
    right = field.get("right", int)
    if not 1 <= right <= len(options):
        raise LessonFileError(
            f"{where}: {describe('right', right, f'the number of the one right answer, 1 to {len(options)}')}"
        )
    if not say:
        raise LessonFileError(f"{where}: say: missing, expected the question in words")
    return FileStep("ask", title, say, question="choice", options=tuple(options), right=right)


# -- A lesson to play -----------------------------------------------------------------------------------------


#: The check of each kind of step that does something (a ``say`` step checks nothing: *next* goes on).
CHECK_OF = {"roll": "rolled", "place": "played", "hint": "hint", "finish": "game_over"}


def lesson_of(lesson: LessonFile) -> Lesson:
    """The lesson a page plays from ``lesson`` (checked or not: :func:`play` checks first).

    Each step keeps the teacher's words; the n-th ``roll`` step waits for the n-th roll and the n-th ``place``
    for the n-th move; the dice are the guided game's first rolls, and a ``place`` with ``lead`` leads its
    round.  After its last step the child plays on: the game to its end, then New game.

    >>> played = lesson_of(parse(_EXAMPLE, "doubles.toml"))
    >>> played.name, [(step.check, step.times, step.question) for step in played.steps]
    ('doubles', [('rolled', 1, None), ('none', 1, 'boxes'), ('played', 1, None)])
    >>> played.scenario.rolls, played.labels[:4]
    (('2 6',), (1, 2, 6, 3))
    """
    steps, counted, led = [], {"rolled": 0, "played": 0}, []
    for number, step in enumerate(lesson.steps, 1):
        check = CHECK_OF.get(step.kind, "none")
        times = 1
        if check in counted:
            counted[check] += 1
            times = counted[check]
        if step.kind == "place" and step.lead:
            led.append(counted["played"])
        steps.append(
            Step(
                f"file.{number}", check, question=step.question, times=times, own=True, title=step.title, say=step.say,
                options=step.options, right=step.right or 0,
            )
        )  # fmt: skip
    return Lesson(
        name=PurePath(lesson.name).stem,
        level=lesson.level,
        title_key=f"lessons.title.{lesson.level}",
        steps=tuple(steps),
        seed=lesson.seed,
        scenario=Scenario(tuple(lesson.rolls()), led=tuple(led)),
        title=lesson.title,
        line=lesson.line,
        age=lesson.age,
        language=lesson.language,
        labels=lesson.labels,
    )


def play(path: str) -> Lesson:
    """The lesson in the file ``path``, read and checked, to play; :class:`LessonFileError` (one line naming the
    file and the step) if the engine finds a problem."""
    found = read(path)
    raise_problems(found, path)
    return lesson_of(found)


def raise_problems(lesson: LessonFile, where: str) -> None:
    """Raise :class:`LessonFileError` with the engine's first problem of ``lesson`` in one line (and how many
    more ``lesson check`` shows), if it finds any."""
    problems = check(lesson)
    if problems:
        more = f" (and {len(problems) - 1} more: caterpillar-learn lesson check {where})" if len(problems) > 1 else ""
        raise LessonFileError(problems[0] + more)


def beside(notebook: Path) -> LessonFile | None:
    """The teacher's lesson a notebook plays, if the notebook has one beside it (``doubles.toml`` beside
    ``doubles.ipynb``, as ``caterpillar-learn lesson notebook`` writes it) and the engine finds it fine; else
    ``None`` (the lesson list then shows the notebook's name only)."""
    path = notebook.with_suffix(".toml")
    if not path.is_file():
        return None
    try:
        lesson = read(str(path))
    except LessonFileError:
        return None
    return None if check(lesson) else lesson


_EXAMPLE = """
format = 1
level = "beginner"
title = "Doubles"
age = 5
line = "Two dice the same"
[[step]]
say = "Tap Roll."
roll = "2 6"
[[step]]
ask = "boxes"
[[step]]
say = "Tap a box with a star."
place = true
"""


# -- The engine's checks --------------------------------------------------------------------------------------


def check(lesson: LessonFile) -> list[str]:
    """Every problem of ``lesson`` the engine finds, one line each naming the step (``[]``: the lesson is fine)."""
    problems: list[str] = []
    level = Level.parse(lesson.level)
    rolls: list[Any] = []
    for number, step in enumerate(lesson.steps, 1):
        where = f"{lesson.name} step {number}"
        words = len(f"{step.title} {step.say} {' '.join(step.options)}".split())
        if lesson.age <= 7 and words > YOUNG_WORDS:
            problems.append(f"{where}: {words} words, expected at most {YOUNG_WORDS} for a child of {lesson.age}")
        if step.dice is not None:
            try:
                rolls.append(parse_roll(step.dice, level))
            except CaterpillarLearnError as error:
                problems.append(f"{where}: roll = {step.dice!r}: {error}")
                return problems  # the dice after it would be another game's
        if step.kind == "ask" and step.question not in (None, "choice"):
            problem = _claim(lesson, step, len(rolls), rolls)
            if problem:
                problems.append(f"{where}: {problem}")
    return problems


def _claim(lesson: LessonFile, step: FileStep, rolled: int, rolls: list[Any]) -> str:
    """What is wrong with the question ``step`` asks about the ``rolled``-th roll ("" if nothing)."""
    question = step.question
    level = Level.parse(lesson.level)
    finished = any(earlier.kind == "finish" for earlier in lesson.steps[: lesson.steps.index(step)])
    if question == "fly":
        return (
            ""
            if finished
            else 'ask = "fly": asked before the game is over, expected it after a step with finish = true'
        )
    if not rolled or finished:
        return f'ask = "{question}": no dice to ask about, expected it after a step with roll'
    if question == "split" and level.rules.dice < 3:
        return f'ask = "split": a {lesson.level} roll has two dice, expected it at Intermediate or later'
    if question == "bonus" and not level.rules.bonus_boxes:
        return f'ask = "bonus": the {lesson.level} sheet has no bonus boxes, expected it at Advanced or Expert'
    roll = rolls[rolled - 1]
    shown = " ".join(str(die) for die in roll.dice)
    for state in _positions(lesson, rolls[: rolled - 1]):
        if state is None:
            many = f"more than {MOST_LINES} ways to reach it"
            return f'ask = "{question}": {many}, expected lead = true on the places before it'
        moves = legal_moves(state, roll)
        fits = [move for move in moves if isinstance(move, Move) and not move.zero]
        if question == "zero" and fits:
            name, box = describe_slot(fits[0].slot)
            return f'ask = "zero" claims nothing fits {shown}, but it fits a box ({name} box {box + 1} at least)'
        if question == "boxes" and not fits:
            return f'ask = "boxes" on {shown}, which fit no box: expected ask = "zero"'
    return ""


def _positions(lesson: LessonFile, before: list[Any]) -> Iterator[Any]:
    """Every sheet the child can have when the next roll comes, after the rolls ``before`` (a ``place`` with
    ``lead`` offers one move, the helper's; ``None`` last if there are more than :data:`MOST_LINES`)."""
    led = [step.lead for step in lesson.steps if step.kind == "place"]
    states = [Game(lesson.level, lesson.labels, seed=lesson.seed).state]
    for index, roll in enumerate(before):
        following = []
        for state in states:
            if index < len(led) and led[index]:
                from caterpillar_learn.lessons.scenarios import best_move

                following.append(apply(state, best_move(state, roll), roll))
            else:
                following.extend(
                    apply(state, move, roll) for move in legal_moves(state, roll) if isinstance(move, Move)
                )
        states = list(dict.fromkeys(following))  # a position reached two ways is followed once
        if len(states) > MOST_LINES:
            yield None
            return
    yield from states
