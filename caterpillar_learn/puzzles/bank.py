"""The puzzle bank: positions where one move is clearly best, by level and by the idea the tempting move misses.

A :class:`Puzzle` is a round of a game whose best move beats every other by
a clear margin.  It is kept as a practice
:class:`~caterpillar_learn.practice.mistakes.Position` (the labels, every
roll up to the round and the moves before it), so it is reachable by
construction and reading it back replays it through the engine; its sheet is
what ``caterpillar-learn hint`` reads (:meth:`Puzzle.to_line`).

* the **best** move is the hint's (:func:`~caterpillar_learn.advice.values.rank_options`:
  the exact solver at Beginner and Intermediate, the strong hint's estimate
  at Advanced and Expert, where a puzzle says ``exact: false`` unless its
  values were exact, as in the last two rounds);
* the **rival**, the most tempting move, is the next best one, the boxes of
  one caterpillar with one label counting as one box (they are
  interchangeable: either is right, :meth:`Puzzle.is_best`).  The **margin**
  is what the rival loses against the best in expected final score, rounded
  down to 4 decimals.  A position is a puzzle only if the margin is at least
  the level's practice :func:`~caterpillar_learn.practice.mistakes.threshold`
  (the "only move" rule);
* the **idea** is the one the rival misses, named by the practice's own
  :func:`~caterpillar_learn.practice.ideas.idea_of`;
* the **tempting** moves are the distinct moves other than the best that lose
  at most :data:`TEMPTING` thresholds (the rival among them when it is that
  close);
* the **difficulty**, a puzzle's starting rating (:func:`difficulty_of`),
  grows as the margin shrinks and as the tempting moves grow.

A :class:`Bank` is one level's puzzles; ``bank.json`` beside this module
holds every level's, made by ``scripts/make_puzzles.py``
(:mod:`caterpillar_learn.puzzles.players`) and read by :func:`load_bank`.

>>> bank = load_bank("beginner")
>>> bank.ideas()
('zero', 'score_die', 'middle')
>>> puzzle = bank.on("score_die")[0]
>>> puzzle.exact, puzzle.margin >= threshold("beginner"), puzzle.best in legal_moves(puzzle.state, puzzle.roll)
(True, True, True)
>>> Puzzle.from_json(puzzle.to_json(), "beginner") == puzzle
True
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from caterpillar_learn.advice.levels import level_advice
from caterpillar_learn.advice.values import Option, rank_options
from caterpillar_learn.caterpillars.dice import Roll, format_roll
from caterpillar_learn.caterpillars.game import choice_to_json
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.notation import move_to_json, state_to_json
from caterpillar_learn.caterpillars.rules import Move, legal_moves
from caterpillar_learn.caterpillars.sheet import BOXES, SLOTS, State
from caterpillar_learn.errors import describe
from caterpillar_learn.practice.ideas import idea_of, ideas_at
from caterpillar_learn.practice.mistakes import Position, PracticeError, threshold
from caterpillar_learn.puzzles.errors import PuzzleError
from caterpillar_learn.puzzles.rating import HIGHEST, LOWEST, Rating

#: The version of ``bank.json``; any other is refused.
BANK_FORMAT = 1
#: A move other than the best is tempting if it loses at most this many of the level's thresholds.
TEMPTING = 3.0
#: The difficulty of a puzzle whose margin is two thresholds, with one tempting move (the rival).
MIDDLE = 1500.0
#: Rating points a puzzle gains for each halving of its margin, and for each tempting move past the first.
PER_HALVING, PER_TEMPTING = 400.0, 100.0
#: The easiest and the hardest a puzzle's starting difficulty can be.
EASIEST, HARDEST = 700.0, 2300.0
#: A puzzle's starting rating deviation: its difficulty is an informed guess, better known than a new child.
PUZZLE_DEVIATION = 200.0
#: Margins are rounded down to this many decimals (so a margin worked out again is never below the stated one).
MARGIN_DIGITS = 4
_KEYS = ("id", "labels", "rolls", "moves", "best", "margin", "idea", "tempting", "difficulty", "exact")
_MOST_TEMPTING = 200


def move_to_row(move: Move) -> list[int]:
    """A move as the bank keeps it: ``[slot, score]``, then ``1`` for a zero, then the bonus box and its die.

    >>> move_to_row(Move.of("Bobby", 2, 7)), move_to_row(Move.of("Alex", 0, 0, zero=True))
    ([6, 7], [0, 0, 1])
    >>> move_to_row(Move.of("Charlie", 3, 5, bonus=("A", 4)))
    [11, 5, 0, 0, 4]
    """
    row = [move.slot, move.score]
    if move.zero or move.bonus is not None:
        row.append(int(move.zero))
    if move.bonus is not None:
        row.extend(move.bonus)
    return row


def move_from_row(row: object, name: str = "move") -> Move:
    """The move a row of :func:`move_to_row` names (whether it is legal is the position's to say).

    >>> move_from_row([11, 5, 0, 0, 4])
    Charlie 3 ← 5, bonus A ← 4
    >>> move_from_row([12, 5])
    Traceback (most recent call last):
    ...
    caterpillar_learn.puzzles.errors.PuzzleError: move: got [12, 5], expected [slot 0-11, score] (then 1 for a \
zero, then a bonus box 0-2 and its die)
    """
    expected = "[slot 0-11, score] (then 1 for a zero, then a bonus box 0-2 and its die)"
    whole = isinstance(row, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in row)
    if not isinstance(row, list) or not whole or len(row) not in (2, 3, 5):
        raise PuzzleError(describe(name, row, expected))
    slot, score, *flags = (int(value) for value in row)
    zero = bool(flags) and flags[0] == 1
    bonus = (flags[1], flags[2]) if len(flags) == 3 else None
    if (
        not 0 <= slot < SLOTS
        or score < 0
        or (flags and flags[0] not in (0, 1))
        or (bonus and bonus[0] not in (0, 1, 2))
    ):
        raise PuzzleError(describe(name, row, expected))
    return Move(slot, score, zero, bonus)


def position_key(state: State, roll: Roll) -> str:
    """A puzzle's identity: a digest of the level, the labels, the filled boxes, the bonus boxes and the roll.
    Two games that reach the same sheet and roll give the same puzzle.

    >>> state = State.new("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
    >>> position_key(state, Roll((2, 6)))
    '1e7e26a7d560'
    """
    facts = [state.level.value, list(state.labels), list(state.scores), list(state.bonus), format_roll(roll)]
    return hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:12]


def difficulty_of(level: Level | str, margin: float, tempting: int) -> float:
    """A puzzle's starting difficulty: :data:`MIDDLE` at a margin of two thresholds and one tempting move,
    :data:`PER_HALVING` more for each halving of the margin and :data:`PER_TEMPTING` more for each tempting move
    past the first (fewer, less), kept within :data:`EASIEST` and :data:`HARDEST`.

    >>> limit = threshold("beginner")
    >>> [difficulty_of("beginner", share * limit, tempting) for share, tempting in ((2, 1), (1, 3), (8, 0))]
    [1500.0, 2100.0, 700.0]
    """
    if not margin > 0:
        raise PuzzleError(describe("margin", margin, "a number above 0"))
    halvings = math.log2(2 * threshold(level) / margin)
    found = MIDDLE + PER_HALVING * halvings + PER_TEMPTING * (tempting - 1)
    return round(min(max(found, EASIEST), HARDEST), 1)


def _same_effect(state: State, a: Move, b: Move) -> bool:
    """Whether ``a`` and ``b`` write the same into boxes of one caterpillar with one label: interchangeable."""
    return (a.slot // BOXES, state.labels[a.slot], a.score, a.zero, a.bonus) == (
        b.slot // BOXES,
        state.labels[b.slot],
        b.score,
        b.zero,
        b.bonus,
    )


@dataclass(frozen=True)
class Puzzle:
    """A position, its roll, the best move and what makes it a puzzle (see the module)."""

    id: str
    position: Position
    best: Move
    margin: float
    idea: str
    tempting: int
    difficulty: float
    exact: bool
    #: The sheet at the puzzle's round (the position replayed once).
    state: State = field(repr=False, compare=False)

    @property
    def level(self) -> Level:
        return self.position.level

    @property
    def roll(self) -> Roll:
        return self.position.roll

    @property
    def round(self) -> int:
        return self.position.round

    def is_best(self, move: Move) -> bool:
        """Whether ``move`` solves the puzzle: the best move, or the same in a box of the same caterpillar with the
        same label (every other move loses at least the margin).

        >>> puzzle = load_bank("beginner").on("zero")[0]
        >>> moves = legal_moves(puzzle.state, puzzle.roll)
        >>> puzzle.is_best(puzzle.best), [move for move in moves if puzzle.is_best(move)][0] == puzzle.best
        (True, True)
        """
        return _same_effect(self.state, move, self.best)

    @property
    def rating(self) -> Rating:
        """The puzzle's starting rating: its difficulty, with :data:`PUZZLE_DEVIATION`."""
        return Rating(self.difficulty, PUZZLE_DEVIATION)

    def to_json(self) -> dict[str, Any]:
        """The puzzle as ``bank.json`` keeps it: the position's labels and rolls as a practice position has them,
        its moves (and the best) as short rows (:func:`move_to_row`)."""
        return {
            "id": self.id,
            "labels": list(self.position.labels),
            "rolls": [format_roll(roll) for roll in self.position.rolls],
            "moves": [move_to_row(move) for move in self.position.moves],
            "best": move_to_row(self.best),
            "margin": self.margin,
            "idea": self.idea,
            "tempting": self.tempting,
            "difficulty": self.difficulty,
            "exact": self.exact,
        }

    def to_line(self) -> dict[str, Any]:
        """The puzzle as ``caterpillar-learn puzzles`` prints it: ``state`` and ``roll`` as ``hint --jsonl``
        reads them, the ``best`` move as ``hint`` prints moves, and the rest of the facts."""
        return {
            "id": self.id,
            "level": self.level.value,
            "round": self.round,
            "state": state_to_json(self.state),
            "roll": format_roll(self.roll),
            "best": move_to_json(self.best),
            "margin": self.margin,
            "idea": self.idea,
            "tempting": self.tempting,
            "difficulty": self.difficulty,
            "exact": self.exact,
        }

    @classmethod
    def from_json(cls, data: object, level: Level | str, name: str = "puzzle") -> Puzzle:
        """The puzzle ``data`` holds, its position replayed by the engine and every fact checked against it
        (the values are not worked out again: that is the bank's test), or :class:`PuzzleError` naming ``name``."""
        level = Level.parse(level)
        if not isinstance(data, dict) or set(data) != set(_KEYS):
            raise PuzzleError(describe(name, data, "an object {" + ", ".join(_KEYS) + "}"))
        try:
            played = data["moves"]
            if not isinstance(played, list):
                raise PuzzleError(describe("moves", played, "a list of moves"))
            rows = [choice_to_json(move_from_row(row, f"moves[{i}]")) for i, row in enumerate(played)]
            position = Position.from_json({"labels": data["labels"], "rolls": data["rolls"], "moves": rows}, level)
            state = position.state
            best = move_from_row(data["best"], "best")
        except (PracticeError, PuzzleError) as error:
            raise PuzzleError(f"{name}.{str(error).removeprefix('position.')}") from None
        moves = legal_moves(state, position.roll)
        if best not in moves:
            raise PuzzleError(describe(f"{name}.best", data["best"], "a legal move of the puzzle's roll"))
        if data["id"] != position_key(state, position.roll):
            raise PuzzleError(describe(f"{name}.id", data["id"], repr(position_key(state, position.roll))))
        margin = data["margin"]
        number = isinstance(margin, (int, float)) and not isinstance(margin, bool) and math.isfinite(margin)
        if not number or not margin >= threshold(level):
            raise PuzzleError(describe(f"{name}.margin", margin, f"at least the threshold {threshold(level):.4f}"))
        if data["idea"] not in ideas_at(level):
            raise PuzzleError(describe(f"{name}.idea", data["idea"], "one of " + ", ".join(ideas_at(level))))
        tempting = data["tempting"]
        if isinstance(tempting, bool) or not isinstance(tempting, int) or not 0 <= tempting <= _MOST_TEMPTING:
            raise PuzzleError(describe(f"{name}.tempting", tempting, f"a whole number from 0 to {_MOST_TEMPTING}"))
        difficulty = data["difficulty"]
        if (
            isinstance(difficulty, bool)
            or not isinstance(difficulty, (int, float))
            or not LOWEST <= difficulty <= HIGHEST
        ):
            raise PuzzleError(describe(f"{name}.difficulty", difficulty, f"a rating from {LOWEST:g} to {HIGHEST:g}"))
        exact = data["exact"]
        if not isinstance(exact, bool) or (level_advice(level).exact and not exact):
            raise PuzzleError(describe(f"{name}.exact", exact, "true or false (true at an exact level)"))
        best = moves.find(best) or best  # the engine's own move, with its ways
        return cls(data["id"], position, best, float(margin), data["idea"], tempting, float(difficulty), exact, state)


def puzzle_at(position: Position) -> Puzzle | None:
    """The puzzle of ``position``, or ``None`` if no move is clearly best there (solves the layout).

    A shipped puzzle, worked out again, is itself; the sheet before it was none:

    >>> shipped = load_bank("beginner").on("middle")[0]
    >>> puzzle_at(shipped.position) == shipped
    True
    >>> puzzle_at(Position(Level.BEGINNER, shipped.position.labels, (Roll((2, 6)),), ())) is None
    True
    """
    state = position.state
    options, exact = rank_options(state, position.roll)
    return puzzle_from(position, state, options, exact)


def puzzle_from(position: Position, state: State, options: Sequence[Option], exact: bool) -> Puzzle | None:
    """The puzzle of ``position`` (whose sheet is ``state``) from its ranked ``options``, or ``None``: what
    :func:`puzzle_at` does once the hint has ranked the moves."""
    best = options[0]
    rivals = [option for option in options[1:] if not _same_effect(state, option.move, best.move)]
    if not rivals:
        return None
    limit = threshold(position.level)
    margin = math.floor((best.expected_final - rivals[0].expected_final) * 10**MARGIN_DIGITS) / 10**MARGIN_DIGITS
    if margin < limit:
        return None
    distinct: list[Move] = []
    for option in rivals:
        if best.expected_final - option.expected_final <= TEMPTING * limit and not any(
            _same_effect(state, option.move, seen) for seen in distinct
        ):
            distinct.append(option.move)
    tempting = len(distinct)
    idea = idea_of(position.level, position.roll, rivals[0].move, best.move)
    key = position_key(state, position.roll)
    difficulty = difficulty_of(position.level, margin, tempting)
    return Puzzle(key, position, best.move, margin, idea, tempting, difficulty, exact, state)


def spread(puzzles: Sequence[Puzzle], most: int) -> tuple[Puzzle, ...]:
    """At most ``most`` of ``puzzles``, evenly spaced over their difficulties, easiest first.

    >>> kept = spread(load_bank("beginner").on("score_die"), 3)
    >>> [p.difficulty for p in kept]
    [700.0, 1296.9, 2167.4]
    """
    order = sorted(puzzles, key=lambda puzzle: (puzzle.difficulty, puzzle.id))
    if len(order) <= most:
        return tuple(order)
    if most == 1:
        return (order[len(order) // 2],)
    return tuple(order[round(i * (len(order) - 1) / (most - 1))] for i in range(most))


@dataclass(frozen=True)
class Bank:
    """One level's puzzles, by idea (in :data:`~caterpillar_learn.practice.ideas.IDEAS` order), easiest first."""

    level: Level
    puzzles: tuple[Puzzle, ...]

    def __post_init__(self) -> None:
        ideas = ideas_at(self.level)
        order = sorted(self.puzzles, key=lambda p: (ideas.index(p.idea), p.difficulty, p.id))
        object.__setattr__(self, "puzzles", tuple(order))

    def ideas(self) -> tuple[str, ...]:
        """The ideas the bank has puzzles on."""
        found = {puzzle.idea for puzzle in self.puzzles}
        return tuple(idea for idea in ideas_at(self.level) if idea in found)

    def on(self, idea: str | None = None) -> tuple[Puzzle, ...]:
        """The puzzles on ``idea`` (every puzzle if ``None``), easiest first; an idea without puzzles is refused.

        >>> load_bank("beginner").on("box")
        Traceback (most recent call last):
        ...
        caterpillar_learn.puzzles.errors.PuzzleError: idea: got 'box', expected one of zero, score_die, middle \
(the ideas of the beginner puzzles)
        """
        if idea is None:
            return self.puzzles
        if idea not in self.ideas():
            expected = f"one of {', '.join(self.ideas())} (the ideas of the {self.level.value} puzzles)"
            raise PuzzleError(describe("idea", idea, expected))
        return tuple(puzzle for puzzle in self.puzzles if puzzle.idea == idea)

    def find(self, puzzle_id: str) -> Puzzle:
        """The puzzle ``puzzle_id`` names."""
        for puzzle in self.puzzles:
            if puzzle.id == puzzle_id:
                return puzzle
        raise PuzzleError(describe("puzzle", puzzle_id, f"the id of a {self.level.value} puzzle of the bank"))

    def to_json(self) -> list[dict[str, Any]]:
        return [puzzle.to_json() for puzzle in self.puzzles]

    @classmethod
    def from_json(cls, data: object, level: Level | str) -> Bank:
        """The level's bank ``data`` holds (a list of puzzles), each checked (or :class:`PuzzleError`)."""
        level = Level.parse(level)
        if not isinstance(data, list):
            raise PuzzleError(describe(f"bank.{level.value}", data, "a list of puzzles"))
        puzzles = tuple(Puzzle.from_json(raw, level, f"bank.{level.value}[{i}]") for i, raw in enumerate(data))
        ids = [puzzle.id for puzzle in puzzles]
        if len(set(ids)) != len(ids):
            twice = next(key for key in ids if ids.count(key) > 1)
            raise PuzzleError(describe(f"bank.{level.value}", twice, "each position once"))
        return cls(level, puzzles)


def banks_to_text(banks: Iterable[Bank], about: dict[str, Any]) -> str:
    """``bank.json``'s text: the format, how it was made (``about``), then each level's puzzles, one a line (so
    that a regenerated bank's diff reads puzzle by puzzle)."""
    levels = []
    for bank in banks:
        rows = ",\n".join("   " + json.dumps(puzzle.to_json(), separators=(",", ":")) for puzzle in bank.puzzles)
        levels.append(f'  "{bank.level.value}": [\n{rows}\n  ]')
    head = f'{{"format": {BANK_FORMAT},\n "about": {json.dumps(about, ensure_ascii=False)},\n "levels": {{\n'
    return head + ",\n".join(levels) + "\n }\n}\n"


def read_bank(data: object, level: Level | str) -> Bank:
    """``level``'s bank from the whole of ``bank.json`` (``data``), checked (or :class:`PuzzleError`)."""
    level = Level.parse(level)
    if not isinstance(data, dict) or set(data) != {"format", "about", "levels"}:
        raise PuzzleError(describe("bank", data, 'an object {"format", "about", "levels"}'))
    if isinstance(data["format"], bool) or data["format"] != BANK_FORMAT:
        raise PuzzleError(describe("bank.format", data["format"], str(BANK_FORMAT)))
    levels = data["levels"]
    if not isinstance(levels, dict) or level.value not in levels:
        raise PuzzleError(describe("bank.levels", levels, f"an object with the level {level.value!r}"))
    return Bank.from_json(levels[level.value], level)


@cache
def _shipped() -> object:
    return json.loads(resources.files("caterpillar_learn.puzzles").joinpath("bank.json").read_text(encoding="utf-8"))


def load_bank(level: Level | str) -> Bank:
    """The shipped bank of ``level`` (read once a process; its positions are replayed, no layout is solved)."""
    return _load(Level.parse(level))


@cache
def _load(level: Level) -> Bank:
    return read_bank(_shipped(), level)


__all__ = [
    "BANK_FORMAT",
    "EASIEST",
    "HARDEST",
    "MIDDLE",
    "PER_HALVING",
    "PER_TEMPTING",
    "PUZZLE_DEVIATION",
    "TEMPTING",
    "Bank",
    "Puzzle",
    "banks_to_text",
    "difficulty_of",
    "load_bank",
    "move_from_row",
    "move_to_row",
    "position_key",
    "puzzle_at",
    "puzzle_from",
    "read_bank",
    "spread",
]
