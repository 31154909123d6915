"""A Räuber Raupe lesson as a file a teacher writes: TOML read into a table and its words, checked as it is read.

The Räuber Raupe half of format 1 (``game = "raupe"``; the Caterpillars half is :mod:`.files`).  A Räuber Raupe
lesson has no steps to write: its page always asks, starts, plays and ends a game.  Its file says the table
(who sits there, the mode, the bots' level and speed, which cards are dealt, which calls the lesson has taught)
and the words around it: the lines shown before the game (``intro``) and the "try this" items (``try``).
``seed`` is the deal: the same number deals a whole class the same cards (each New game deals the next); there
is no other ``deal`` key.  The keys a teacher writes are in docs/AUTHORING.md; :func:`table_of` fills
:class:`~caterpillar_learn.lessons.raupe.TableSetup` from them: ``players``, ``mode``, ``speed``, ``referee``,
``question``, ``show_below``, ``hints``, ``butterflies``, ``aphids`` and ``calls`` by the same names, ``bots`` as
``level``, ``cards`` as ``caterpillar_cards``, ``change_cards`` as ``extras``; ``bot_mistakes`` is whether
``calls`` has "mistake", ``speak_bots`` whether it has any call; the rest (``show_fits``, ``controls``,
``bot_wait``) is TableSetup's own.  :func:`words_of` makes the page's ``lesson_text`` of ``title``, ``intro`` and
``try``.

What the table claims is checked by the engine (:func:`check`): a call the deck never needs ("aphid" without
aphids) or one it needs and the lesson has not taught, butterflies or aphids without change cards, bots that slip
where nobody may call "Mistake!", a deck that cannot be dealt to the players, more words than a young child reads.
Each problem is one line naming the file and the field.

>>> lesson = parse('''
... format = 1
... game = "raupe"
... title = "Same shape"
... age = 5
... line = "Put the same shape on the leaf"
... mode = "shape"
... change_cards = false
... intro = ["Look at the leaf on the pile.", "Put a caterpillar of the same shape on it."]
... ''', "shape.toml")
>>> lesson.players, lesson.bots, lesson.calls, check(lesson)
(2, 'beginner', (), [])
>>> table_of(lesson).extras, table_of(lesson).bot_mistakes
(False, False)
>>> check(parse('format = 1\\ngame = "raupe"\\ntitle = "T"\\nage = 5\\nline = "L"\\nmode = "colour"\\n'
...             'intro = ["Go."]\\naphids = false\\ncalls = ["shape", "colour", "aphid"]', "colour.toml"))
['colour.toml: calls: "aphid" is taught, but this deck has no aphids, expected aphids = true or no "aphid"']
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from caterpillar_learn.errors import brief, describe
from caterpillar_learn.i18n import available_languages, text
from caterpillar_learn.lessons.files import FORMAT, YOUNG_WORDS, LessonFileError, _Fields
from caterpillar_learn.lessons.raupe import CALLS, SLOPPY, TableSetup
from caterpillar_learn.raupe import LEVELS, Game, RaupeError, parse_mode, standard_deck
from caterpillar_learn.raupe.referee import MAX_PLAYERS, MIN_PLAYERS

__all__ = [
    "BOTS",
    "RAUPE_KEYS",
    "SPEEDS",
    "RaupeLessonFile",
    "check",
    "from_data",
    "parse",
    "play",
    "read",
    "table_of",
    "words_of",
]

#: The bots' speed factor a table takes, slowest to fastest (the page's slider has the same range).
SPEEDS = (0.25, 2.5)
#: The bots' levels a lesson may seat: the engine's, and the slow, careless bots of "spot the mistake".
BOTS = (*LEVELS, SLOPPY.name)
#: The caterpillar cards of the standard deck (``cards = 0`` deals them all).
CATERPILLAR_CARDS = sum(1 for card in standard_deck() if card.sides and not card.is_change)
#: The keys a Räuber Raupe lesson may have.
RAUPE_KEYS = (
    "format", "game", "title", "age", "line", "language", "seed", "players", "mode", "bots", "speed", "cards",
    "change_cards", "butterflies", "aphids", "calls", "referee", "question", "show_below", "hints", "intro", "try",
)  # fmt: skip
#: A Caterpillars lesson's keys that a Räuber Raupe lesson has not: a file with one is a Caterpillars lesson.
CATERPILLARS_KEYS = ("level", "labels", "step")
#: The oldest child whose lines keep to :data:`~.files.YOUNG_WORDS` words (as :func:`.files.check`).
YOUNG_AGE = 7
#: The table a lesson file leaves unsaid is :class:`TableSetup`'s own.
_TABLE = TableSetup()


@dataclass(frozen=True)
class RaupeLessonFile:
    """A teacher's Räuber Raupe lesson as its file says it (:func:`parse`), before the engine checks it."""

    name: str
    title: str
    age: int
    line: str
    language: str
    seed: int
    players: int
    mode: str  # "shape" or "colour"
    bots: str  # one of BOTS
    speed: float
    cards: int  # caterpillar cards dealt, 0 = all
    change_cards: bool
    butterflies: bool
    aphids: bool
    calls: tuple[str, ...]  # in the order of CALLS
    referee: bool
    question: bool
    show_below: bool
    hints: bool
    intro: tuple[str, ...]
    try_this: tuple[str, ...]


def read(path: str) -> RaupeLessonFile:
    """The Räuber Raupe lesson in the file ``path`` (:func:`parse`), read with the limits of every command's input."""
    from caterpillar_learn.reading import read_document

    return parse(read_document(path, path, error=LessonFileError), path)


def play(path: str) -> RaupeLessonFile:
    """The lesson in the file ``path``, read and checked, to play; :class:`~.files.LessonFileError` in one line
    (the file and the field) if the engine finds a problem.

    >>> play("no-such-lesson.toml")
    Traceback (most recent call last):
    ...
    caterpillar_learn.lessons.files.LessonFileError: no-such-lesson.toml: got 'no-such-lesson.toml', \
expected a readable text file (No such file or directory)
    """
    lesson = read(path)
    problems = check(lesson)
    if problems:
        more = f" (and {len(problems) - 1} more: caterpillar-learn lesson check {path})" if len(problems) > 1 else ""
        raise LessonFileError(problems[0] + more)
    return lesson


def parse(source: str, name: str = "lesson") -> RaupeLessonFile:
    """The Räuber Raupe lesson ``source`` says (TOML, format 1), or :class:`~.files.LessonFileError` in one line
    naming ``name`` and the field.

    >>> parse('format = 1\\ngame = "raupe"\\nlevel = "beginner"', "mixed.toml")
    Traceback (most recent call last):
    ...
    caterpillar_learn.lessons.files.LessonFileError: mixed.toml: game: got 'raupe', expected caterpillars for a \
lesson with level (a Räuber Raupe lesson has bots, intro and try instead of level, labels and steps)
    """
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as error:
        raise LessonFileError(f"{name}: not TOML ({error})") from None
    return from_data(data, name)


def from_data(data: Mapping[str, Any], name: str) -> RaupeLessonFile:
    """The Räuber Raupe lesson of a TOML table already read (what :func:`parse` reads, and :mod:`.files` hands
    on for ``game = "raupe"``)."""
    game = data.get("game")
    if game != "raupe":
        expected = '"raupe" for a Räuber Raupe lesson (CaterpillarsLesson plays the others)'
        said = f"game: missing, expected {expected}" if game is None else describe("game", game, expected)
        raise LessonFileError(f"{name}: {said}")
    theirs = [key for key in CATERPILLARS_KEYS if key in data]
    if theirs:
        instead = "a Räuber Raupe lesson has bots, intro and try instead of level, labels and steps"
        said = describe("game", game, f"caterpillars for a lesson with {theirs[0]} ({instead})")
        raise LessonFileError(f"{name}: {said}")
    unknown = sorted(set(data) - set(RAUPE_KEYS))
    if unknown:
        raise LessonFileError(f"{name}: {describe('key', unknown[0], 'one of ' + ', '.join(RAUPE_KEYS))}")
    field = _Fields(data, name)
    if (version := field.get("format", int)) != FORMAT:
        raise LessonFileError(
            f"{name}: {describe('format', version, f'{FORMAT} (this version reads format {FORMAT})')}"
        )
    language = field.get("language", str, "en")
    if language not in available_languages():
        raise LessonFileError(f"{name}: {describe('language', language, 'one of ' + ', '.join(available_languages()))}")
    return RaupeLessonFile(
        name=name,
        title=field.get("title", str),
        age=_whole(field, "age", None, 3, 99, "the youngest age it is for, from 3 to 99"),
        line=field.get("line", str),
        language=language,
        seed=_whole(field, "seed", 1, 0, 2**32 - 1, "a whole number from 0 to 4294967295"),
        **_table(data, field, name),
        intro=_lines(field, "intro", None, name),
        try_this=_lines(field, "try", [], name),
    )


def _table(data: Mapping[str, Any], field: _Fields, name: str) -> dict[str, Any]:
    """The table's keys, each read and its value checked on its own (what they claim together: :func:`check`)."""
    players = _whole(field, "players", _TABLE.players, MIN_PLAYERS, MAX_PLAYERS, f"{MIN_PLAYERS} to {MAX_PLAYERS}")
    mode = field.get("mode", str)
    if mode not in ("shape", "colour"):
        raise LessonFileError(f"{name}: {describe('mode', mode, 'shape or colour')}")
    bots = field.get("bots", str, _TABLE.level)
    if bots not in BOTS:
        raise LessonFileError(f"{name}: {describe('bots', bots, 'one of ' + ', '.join(BOTS))}")
    speed = data.get("speed", _TABLE.speed)
    if isinstance(speed, bool) or not isinstance(speed, int | float) or not SPEEDS[0] <= speed <= SPEEDS[1]:
        raise LessonFileError(f"{name}: {describe('speed', speed, f'a number from {SPEEDS[0]} to {SPEEDS[1]}')}")
    cards = _whole(field, "cards", _TABLE.caterpillar_cards, 0, CATERPILLAR_CARDS,
                   f"0 (all) or 1 to {CATERPILLAR_CARDS} caterpillar cards")  # fmt: skip
    changes = field.get("change_cards", bool, _TABLE.extras)
    # Butterflies and aphids come with the change cards (TableSetup.deck): left out, they follow change_cards.
    butterflies, aphids = field.get("butterflies", bool, changes), field.get("aphids", bool, changes)
    needed = (*(("shape", "colour") if changes else ()), *(("aphid",) if changes and aphids else ()))
    calls = field.get("calls", list, list(needed))
    wrong = next((call for call in calls if call not in CALLS), None)
    if wrong is not None or len(set(calls)) != len(calls):
        got = brief(wrong) if wrong is not None else "a call twice"
        raise LessonFileError(f"{name}: calls: got {got}, expected some of {', '.join(CALLS)}, each once")
    return {
        "players": players, "mode": mode, "bots": bots, "speed": float(speed), "cards": cards,
        "change_cards": changes, "butterflies": butterflies, "aphids": aphids,
        "calls": tuple(call for call in CALLS if call in calls),
        **{key: field.get(key, bool, getattr(_TABLE, key)) for key in ("referee", "question", "show_below", "hints")},
    }  # fmt: skip


def _whole(field: _Fields, key: str, default: int | None, low: int, high: int, expected: str) -> int:
    """A whole number from ``low`` to ``high``."""
    value: int = field.get(key, int, default)
    if not low <= value <= high:
        raise LessonFileError(f"{field.where}: {describe(key, value, expected)}")
    return value


def _lines(field: _Fields, key: str, default: list[str] | None, name: str) -> tuple[str, ...]:
    """The lines of ``intro`` or ``try``: a list of text, each line with words (``intro``: one line at least)."""
    lines = field.get(key, list, default)
    least = 1 if default is None else 0
    if len(lines) < least or not all(isinstance(line, str) and line.strip() for line in lines):
        many = "one line or more" if least else "a list of lines"
        raise LessonFileError(f"{name}: {describe(key, lines, many + ', each text in quotes')}")
    return tuple(lines)


# -- The engine's checks --------------------------------------------------------------------------------------


def check(lesson: RaupeLessonFile) -> list[str]:
    """Every problem of ``lesson`` the engine finds, one line each naming the field (``[]``: the lesson is fine)."""
    where = lesson.name
    problems = [f"{where}: {problem}" for problem in _deck_problems(lesson) + _call_problems(lesson)]
    if lesson.age <= YOUNG_AGE:
        said = [("title", lesson.title)] + [(f"intro {n}", line) for n, line in enumerate(lesson.intro, 1)]
        for field, line in said + [(f"try {n}", line) for n, line in enumerate(lesson.try_this, 1)]:
            words = len(line.split())
            if words > YOUNG_WORDS:
                problems.append(
                    f"{where}: {field}: {words} words, expected at most {YOUNG_WORDS} for a child of {lesson.age}"
                )
    return problems


def _deck_problems(lesson: RaupeLessonFile) -> list[str]:
    """What the deck claims: butterflies and aphids with the change cards, and a deal the engine can make."""
    for extra in ("butterflies", "aphids"):
        if getattr(lesson, extra) and not lesson.change_cards:
            return [f"{extra}: true, but a deck without change cards has none, expected {extra} = false "
                    "or change_cards = true"]  # fmt: skip
    setup = table_of(lesson)
    caterpillars = sum(1 for card in setup.deck() if card.sides and not card.is_change)
    if lesson.cards > caterpillars:
        return [
            describe("cards", lesson.cards, f"0 (all) or 1 to {caterpillars}: this deck has no more without aphids")
        ]
    if caterpillars - 1 < lesson.players:
        return [f"cards: {caterpillars} caterpillar cards leave a hand empty (one starts the pile), expected at least "
                f"{lesson.players + 1} for {lesson.players} players"]  # fmt: skip
    try:
        Game(setup.players, lesson.seed, parse_mode(setup.mode), setup.deck())
    except RaupeError as error:
        return [f"players: {lesson.players} cannot be dealt this deck ({error})"]
    return []


def _call_problems(lesson: RaupeLessonFile) -> list[str]:
    """What the calls claim: each one taught is one this deck needs, and each one it needs is taught."""
    problems = []
    aphids = lesson.change_cards and lesson.aphids
    for call, needed, cards, key, why in (
        ("shape", lesson.change_cards, "change cards", "change_cards", "a change card's player calls the new mode"),
        ("colour", lesson.change_cards, "change cards", "change_cards", "a change card's player calls the new mode"),
        ("aphid", aphids, "aphids", "aphids", "the card after an aphid is played with a call"),
    ):
        if call in lesson.calls and not needed:
            problems.append(
                f'calls: "{call}" is taught, but this deck has no {cards}, expected {key} = true or no "{call}"'
            )
        elif needed and call not in lesson.calls:
            problems.append(f'calls: this deck has {cards}, expected "{call}" in calls ({why})')
    for key, slips in (("referee", lesson.referee), ("bots", lesson.bots == SLOPPY.name)):
        if slips and "mistake" not in lesson.calls:
            what = "a referee calls the bots' mistakes" if key == "referee" else f'"{SLOPPY.name}" bots slip'
            problems.append(f'{key}: {what}, expected "mistake" in calls')
    return problems


# -- A lesson to play -----------------------------------------------------------------------------------------


def table_of(lesson: RaupeLessonFile) -> TableSetup:
    """The table a page plays ``lesson`` at.  The bots slip only where the lesson has taught "Mistake!", and
    their cards are read aloud only where it teaches a call (as in our first lessons, which teach none).

    >>> table = table_of(parse(_EXAMPLE, "spot.toml"))
    >>> table.players, table.level, table.extras, table.butterflies, table.calls, table.bot_mistakes
    (3, 'sloppy', True, False, ('shape', 'colour', 'aphid', 'mistake'), True)
    """
    return TableSetup(
        players=lesson.players, mode=lesson.mode, level=lesson.bots, speed=lesson.speed,
        caterpillar_cards=lesson.cards, referee=lesson.referee, hints=lesson.hints, extras=lesson.change_cards,
        butterflies=lesson.butterflies, aphids=lesson.aphids, calls=lesson.calls,
        bot_mistakes="mistake" in lesson.calls, show_below=lesson.show_below, question=lesson.question,
        speak_bots=bool(lesson.calls),
    )  # fmt: skip


def words_of(lesson: RaupeLessonFile) -> dict[str, Any]:
    """The words around the table (a ``LessonText`` of :mod:`caterpillar_learn.ui.raupe.views`): the teacher's
    title, intro and "try this" lines as written; the "try this" heading in the current language.

    >>> words = words_of(parse(_EXAMPLE, "spot.toml"))
    >>> words["title"], words["intro"][0], words["try_title"], words["try_items"]
    ('Spot the mistake', 'The bots are sloppy today.', 'Try this', ['Count the mistakes you catch.'])
    """
    return {
        "title": lesson.title,
        "intro": list(lesson.intro),
        "try_title": text("raupe_lessons.ui.try"),
        "try_items": list(lesson.try_this),
    }


_EXAMPLE = """
format = 1
game = "raupe"
title = "Spot the mistake"
age = 8
line = "Call Mistake! when a bot slips"
players = 3
mode = "shape"
bots = "sloppy"
butterflies = false
calls = ["shape", "colour", "aphid", "mistake"]
referee = true
intro = ["The bots are sloppy today.", "Tap Mistake! when a card does not fit."]
try = ["Count the mistakes you catch."]
"""
