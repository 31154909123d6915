"""The lesson file's format as a JSON Schema, made from the readers' own names (:mod:`.files`, :mod:`.raupe_files`).

Editors that read TOML with a schema (Even Better TOML, Taplo) then complete a lesson's keys and underline
a wrong one as the teacher types; ``caterpillar-learn lesson check`` stays the judge of what a lesson claims
(dice that fit, the right answer), which no schema can say.  ``scripts/write_lesson_schema.py`` writes it to
``docs/lesson.schema.json``, where a lesson file names it on its first line::

    #:schema https://…/docs/lesson.schema.json

A lesson is one of two shapes (``oneOf``): a Caterpillars lesson, or a Räuber Raupe lesson (``game = "raupe"``).

>>> caterpillars, raupe = schema()["oneOf"]
>>> caterpillars["properties"]["level"]["enum"], sorted(caterpillars["required"])
(['beginner', 'intermediate', 'advanced', 'expert'], ['age', 'format', 'level', 'line', 'step', 'title'])
>>> raupe["properties"]["game"]["const"], raupe["properties"]["bots"]["enum"]
('raupe', ['beginner', 'advanced', 'expert', 'sloppy'])
"""

from __future__ import annotations

from typing import Any

from caterpillar_learn.i18n import _shipped
from caterpillar_learn.lessons.caterpillars import LEVEL_LESSONS
from caterpillar_learn.lessons.files import FORMAT, LESSON_KEYS, QUESTIONS, STEP_KEYS
from caterpillar_learn.lessons.raupe import CALLS
from caterpillar_learn.lessons.raupe_files import BOTS, CATERPILLAR_CARDS, RAUPE_KEYS, SPEEDS
from caterpillar_learn.raupe.referee import MAX_PLAYERS, MIN_PLAYERS

__all__ = ["schema"]

#: What each key of a lesson and of a step is, in a teacher's words (an editor shows these beside the key).
SAID = {
    "format": "The version of the lesson format: 1.",
    "game": "The game: caterpillars (or left out); raupe writes a Räuber Raupe lesson.",
    "level": "The level the lesson's game is played at.",
    "title": "The lesson's name, at the top of its page and on its card.",
    "age": "The youngest age it is for; 7 or younger keeps each step to 40 words.",
    "line": "The one line the lesson list shows under the title.",
    "language": "The language the lesson's words are written in.",
    "seed": "The dice after the lesson's own, in its free play (the same for a whole class).",
    "labels": "The sheet's twelve labels, a caterpillar per /: 1 2 6 3 / 6 2 1 5 / 5 1 2 6.",
    "step": "The steps, in the order a child meets them.",
}
STEP_SAID = {
    "title": "The step's title.",
    "say": "What the step says (and, with ask = choice, the question).",
    "roll": "The dice the child rolls: two at Beginner, three after, the action die's face last at Expert.",
    "ask": "A question about the dice just rolled, or choice: your own question.",
    "options": "A choice question's answers, in order.",
    "right": "The number of a choice question's one right answer, from 1.",
    "place": "The child places the dice.",
    "lead": "With place: only the helper's move is offered.",
    "hint": "The child asks the helper for a hint.",
    "finish": "The game is played to its end.",
}
_TYPES: dict[str, dict[str, Any]] = {
    "format": {"const": FORMAT},
    "game": {"const": "caterpillars"},
    "level": {"enum": list(LEVEL_LESSONS)},
    "title": {"type": "string", "minLength": 1},
    "age": {"type": "integer", "minimum": 3, "maximum": 99},
    "line": {"type": "string", "minLength": 1},
    "seed": {"type": "integer", "minimum": 0, "maximum": 2**32 - 1},
    "labels": {"type": "string", "pattern": r"^\s*(\d{1,2}[\s/]+){11}\d{1,2}\s*$"},
}
_STEP_TYPES: dict[str, dict[str, Any]] = {
    "title": {"type": "string"},
    "say": {"type": "string"},
    "roll": {"type": "string", "minLength": 3},
    "ask": {"enum": list(QUESTIONS)},
    "options": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 2, "uniqueItems": True},
    "right": {"type": "integer", "minimum": 1},
    "place": {"const": True},
    "lead": {"const": True},
    "hint": {"const": True},
    "finish": {"const": True},
}
#: What each key of a Räuber Raupe lesson is (the keys it shares with a Caterpillars lesson: :data:`SAID`).
RAUPE_SAID = {
    "game": "The game: raupe, a Räuber Raupe lesson.",
    "age": "The youngest age it is for; 7 or younger keeps each line of intro and try to 40 words.",
    "seed": "The deal: the same number deals a whole class the same cards.",
    "players": "The players: the child and one to three bots.",
    "mode": "What must match when the game starts.",
    "bots": "The bots' level; sloppy: slow bots that slip, for spot the mistake.",
    "speed": "How fast the bots play: 0.25 (slow) to 2.5 (fast).",
    "cards": "How many caterpillar cards are dealt; 0: all of them.",
    "change_cards": "Whether the deck has change cards (the cards with a sky).",
    "butterflies": "Whether the deck has butterflies (they come with change cards).",
    "aphids": "Whether the deck has cards with an aphid (they come with change cards).",
    "calls": "The calls the lesson teaches; with mistake, the bots slip now and then.",
    "referee": "The child watches and calls the bots' mistakes.",
    "question": "Ask Which of your cards fit? before the first game.",
    "show_below": "Show the card under the top of the pile.",
    "hints": "The strategy line under the calls.",
    "intro": "The lines shown before the game, each read aloud on its own.",
    "try": "The Try this items below the table.",
}
_FLAG = {"type": "boolean"}
_LINES = {"type": "array", "items": {"type": "string", "minLength": 1}}
_RAUPE_TYPES: dict[str, dict[str, Any]] = {
    "game": {"const": "raupe"},
    "players": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
    "mode": {"enum": ["shape", "colour"]},
    "bots": {"enum": list(BOTS)},
    "speed": {"type": "number", "minimum": SPEEDS[0], "maximum": SPEEDS[1]},
    "cards": {"type": "integer", "minimum": 0, "maximum": CATERPILLAR_CARDS},
    "calls": {"type": "array", "items": {"enum": list(CALLS)}, "uniqueItems": True},
    "intro": {**_LINES, "minItems": 1},
    "try": _LINES,
    **{key: _FLAG for key in ("change_cards", "butterflies", "aphids", "referee", "question", "show_below", "hints")},
}
#: The keys whose shape is made below, not read from :data:`_TYPES`.
OWN_SHAPE = ("step", "language")
#: A language's code, as a catalogue folder is named: "en", "de", "pt-BR".
LANGUAGE_CODE = r"^[a-z]{2,3}(-[A-Za-z]{2,4})?$"
#: The things a step does: at most one of them a step.
DOING = ("roll", "ask", "place", "hint", "finish")


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a lesson file of :data:`~.files.FORMAT`: of either game."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A caterpillar-learn lesson (format 1)",
        "oneOf": [_caterpillars(), _raupe()],
    }


def _language() -> dict[str, Any]:
    """A teacher may add a language of their own (TRANSLATING.md): a language's code, the shipped ones as examples."""
    codes = sorted(_shipped())
    return {"type": "string", "pattern": LANGUAGE_CODE, "examples": codes, "description": SAID["language"]}


def _raupe() -> dict[str, Any]:
    """A Räuber Raupe lesson (:mod:`.raupe_files`): its table and its words; the check judges what they claim."""
    properties = {
        key: {**(_RAUPE_TYPES.get(key) or _TYPES[key]), "description": RAUPE_SAID.get(key) or SAID[key]}
        for key in RAUPE_KEYS
        if key != "language"
    }
    properties["language"] = _language()
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "game", "title", "age", "line", "mode", "intro"],
        "properties": properties,
    }


def _caterpillars() -> dict[str, Any]:
    """A Caterpillars lesson (:mod:`.files`): its sheet and its steps."""
    step = {
        "type": "object",
        "additionalProperties": False,
        "properties": {key: {**_STEP_TYPES[key], "description": STEP_SAID[key]} for key in STEP_KEYS},
        "anyOf": [{"required": ["say"]}, {"required": ["title"]}, *({"required": [key]} for key in DOING)],
        "not": {"anyOf": [{"required": [one, other]} for i, one in enumerate(DOING) for other in DOING[i + 1 :]]},
        "dependentRequired": {"lead": ["place"], "options": ["ask", "right", "say"], "right": ["options"]},
    }
    properties = {key: {**_TYPES[key], "description": SAID[key]} for key in LESSON_KEYS if key not in OWN_SHAPE}
    properties["language"] = _language()
    properties["step"] = {"type": "array", "minItems": 1, "items": step, "description": SAID["step"]}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "level", "title", "age", "line", "step"],
        "properties": properties,
    }
