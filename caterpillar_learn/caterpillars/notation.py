"""JSON views of states and moves, as the command line and the widgets use them.

>>> data = {"level": "beginner",
...         "labels": {"Alex": [1, 2, 4, 3], "Bobby": [5, 6, 1, 1], "Charlie": [1, 6, 2, 5]},
...         "scores": {"Alex": [None, 3, None, None], "Bobby": [None] * 4,
...                    "Charlie": [2, None, None, None]}}
>>> state = state_from_json(data)
>>> state.totals
(3, 0, 2)
>>> state_to_json(state)["scores"]["Alex"]
[None, 3, None, None]
>>> state_from_json({**data, "level": "pro"})
Traceback (most recent call last):
...
caterpillar_learn.caterpillars.errors.InvalidStateError: level: got 'pro', \
expected one of 'beginner', 'intermediate', 'advanced', 'expert'
"""

from __future__ import annotations

from typing import Any, TypeGuard

from caterpillar_learn.caterpillars.errors import InvalidStateError
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.rules import Move, validate
from caterpillar_learn.caterpillars.sheet import BONUS_BOXES, BOXES, CATERPILLARS, State
from caterpillar_learn.errors import describe
from caterpillar_learn.reading import parse_json

JsonState = dict[str, Any]
MOVE_KEYS = ("caterpillar", "box", "score", "zero", "bonus", "how")


def _boxes(data: dict[str, Any], field: str) -> list[Any]:
    section = data.get(field)
    if not isinstance(section, dict) or set(section) != set(CATERPILLARS):
        raise InvalidStateError(describe(field, section, "an object with the keys 'Alex', 'Bobby' and 'Charlie'"))
    flat: list[Any] = []
    for name in CATERPILLARS:
        boxes = section[name]
        if not isinstance(boxes, list) or len(boxes) != BOXES:
            raise InvalidStateError(describe(f"{field}.{name}", boxes, "a list of 4 boxes"))
        flat.extend(boxes)
    return flat


def state_from_json(data: object) -> State:
    """A validated :class:`State` from its JSON object (``bonus`` optional below Advanced)."""
    if not isinstance(data, dict):
        raise InvalidStateError(describe("state", data, "a JSON object"))
    unknown = [key for key in data if key not in ("level", "labels", "scores", "bonus")]
    if unknown:
        raise InvalidStateError(describe("state", unknown[0], "only level, labels, scores, bonus"))
    level = Level.parse(data.get("level"))
    labels = _boxes(data, "labels")
    scores = _boxes(data, "scores") if "scores" in data else [None] * 12
    bonus_data = data.get("bonus")
    if bonus_data is None:
        bonus = [None, None, None]
    elif isinstance(bonus_data, dict) and set(bonus_data) <= set(BONUS_BOXES):
        bonus = [bonus_data.get(box) for box in BONUS_BOXES]
    else:
        raise InvalidStateError(describe("bonus", bonus_data, "an object with the keys 'A', 'B' and 'C'"))
    return validate(State(level, tuple(labels), tuple(scores), (bonus[0], bonus[1], bonus[2])))


def state_to_json(state: State) -> JsonState:
    data: JsonState = {
        "level": state.level.value,
        "labels": {name: list(state.labels_of(name)) for name in CATERPILLARS},
        "scores": {name: list(state.scores_of(name)) for name in CATERPILLARS},
    }
    if state.level.rules.bonus_boxes:
        data["bonus"] = dict(zip(BONUS_BOXES, state.bonus))
    return data


def parse_state(text: str) -> State:
    """A state from JSON text, with a one-line error for malformed, deep or huge JSON."""
    return state_from_json(parse_json(text, "state", error=InvalidStateError))


def move_to_json(move: Move) -> dict[str, Any]:
    """The move object of the command line, with its ways in words.

    >>> move_to_json(Move.of("Alex", 1, 5))
    {'caterpillar': 'Alex', 'box': 1, 'score': 5, 'zero': False, 'bonus': None, 'how': []}
    """
    bonus = None if move.bonus is None else {"box": BONUS_BOXES[move.bonus[0]], "value": move.bonus[1]}
    return {
        "caterpillar": move.caterpillar,
        "box": move.box,
        "score": move.score,
        "zero": move.zero,
        "bonus": bonus,
        "how": move.how,
    }


def move_from_json(data: object) -> Move:
    """A move from the object :func:`move_to_json` writes (``how`` is ignored).

    >>> move_from_json({"caterpillar": "Bobby", "box": 2, "score": 7, "zero": "no"})
    Traceback (most recent call last):
    ...
    caterpillar_learn.caterpillars.errors.InvalidStateError: move.zero: got 'no', expected true or false
    """
    if not isinstance(data, dict):
        raise InvalidStateError(describe("move", data, "a JSON object"))
    unknown = [key for key in data if key not in MOVE_KEYS]
    if unknown:
        raise InvalidStateError(describe("move key", unknown[0], "only " + ", ".join(MOVE_KEYS)))
    bonus = data.get("bonus")
    entry = None
    if bonus is not None:
        if (
            not isinstance(bonus, dict)
            or set(bonus) != {"box", "value"}
            or not isinstance(bonus["box"], str)
            or not _is_whole(bonus["value"])
        ):
            raise InvalidStateError(describe("move.bonus", bonus, 'null or {"box": "A", "value": 5}'))
        entry = (bonus["box"], bonus["value"])
    score = data.get("score")
    if not _is_whole(score):
        raise InvalidStateError(describe("move.score", score, "a whole number"))
    zero = data.get("zero", False)
    if not isinstance(zero, bool):
        raise InvalidStateError(describe("move.zero", zero, "true or false"))
    return Move.of(
        data.get("caterpillar"),  # type: ignore[arg-type]  # checked by Move.of
        data.get("box"),  # type: ignore[arg-type]
        score,
        zero=zero,
        bonus=entry,
    )


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
