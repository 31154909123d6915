"""A game's costliest moves, as positions to try again, and the verdict on a new try.

A :class:`Position` is a round of a game: the sheet's labels, the dice of
every round up to it and the moves played before it.  It is kept as those
facts, never as a drawn sheet, so that reading one back replays it through
the engine (:meth:`Position.from_json`): an edited position that the rules
cannot reach is refused in one line.

:func:`costliest` takes the review's losses (:mod:`caterpillar_learn.advice.review`)
and keeps at most :data:`MOST` moves that each lost at least the level's
:func:`threshold`; :func:`judge` says whether a new try is right: within
half the threshold of the best, and never the move first played.

>>> from caterpillar_learn.caterpillars import Game
>>> game = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=7)
>>> while not game.is_over:
...     game.play(game.legal_moves()[-1])
>>> found = costliest(game)
>>> 0 < len(found) <= MOST and all(m.loss >= threshold("beginner") for m in found)
True
>>> first = found[0]
>>> judge(first, first.chosen).right, judge(first, first.best).right
(False, True)
>>> Position.from_json(first.position.to_json(), "beginner") == first.position
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from caterpillar_learn.advice.review import Review, review
from caterpillar_learn.advice.values import rank_options
from caterpillar_learn.caterpillars.dice import Roll, format_roll, parse_roll
from caterpillar_learn.caterpillars.errors import CaterpillarsError
from caterpillar_learn.caterpillars.game import Game, choice_from_json, choice_to_json
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.rules import Move, legal_moves
from caterpillar_learn.caterpillars.sheet import ROUNDS, SLOTS, State
from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.practice.ideas import idea_of

#: The most moves a game gives to practise.
MOST = 3
#: A level's threshold is this share of the gap per round between the hint's play and random play.
SHARE = 1.0


class PracticeError(CaterpillarLearnError):
    """A practice position or book that the engine cannot replay, or that is not of this lesson."""


@cache
def threshold(level: Level | str) -> float:
    """The least a move must lose to be worth practising: the level's gap per round between the hint's
    play and random play (``lessons/yardsticks.json``), so a level where moves matter more asks more.

    >>> round(threshold("beginner"), 2), round(threshold("expert"), 2)
    (0.23, 1.01)
    """
    data = json.loads(resources.files("caterpillar_learn.lessons").joinpath("yardsticks.json").read_text())
    entry = data[Level.parse(level).value]
    return SHARE * float(entry["hint"] - entry["random"]) / ROUNDS


@dataclass(frozen=True)
class Position:
    """A round of a game to play again: its labels, every roll up to it and the moves before it."""

    level: Level
    labels: tuple[int, ...]
    rolls: tuple[Roll, ...]
    moves: tuple[Move, ...]

    def game(self) -> Game:
        """A game at this round, its dice on the table (the engine replays the moves)."""
        game = Game(self.level, self.labels, rolls=self.rolls)
        for move in self.moves:
            game.play(move)
        return game

    @property
    def state(self) -> State:
        return self.game().state

    @property
    def roll(self) -> Roll:
        return self.rolls[-1]

    @property
    def round(self) -> int:
        return len(self.moves) + 1

    def to_json(self) -> dict[str, Any]:
        return {
            "labels": list(self.labels),
            "rolls": [format_roll(roll) for roll in self.rolls],
            "moves": [choice_to_json(move) for move in self.moves],
        }

    @classmethod
    def from_json(cls, data: object, level: Level | str) -> Position:
        """The position ``data`` names, replayed through the engine (or :class:`PracticeError`)."""
        if not isinstance(data, dict) or set(data) != {"labels", "rolls", "moves"}:
            raise PracticeError(describe("position", data, 'an object {"labels", "rolls", "moves"}'))
        labels, rolls, moves = data["labels"], data["rolls"], data["moves"]
        if not isinstance(labels, list) or len(labels) != SLOTS:
            raise PracticeError(describe("position.labels", labels, f"{SLOTS} labels"))
        if not isinstance(rolls, list) or not 1 <= len(rolls) <= ROUNDS:
            raise PracticeError(describe("position.rolls", rolls, f"1 to {ROUNDS} rolls"))
        if not isinstance(moves, list) or len(moves) != len(rolls) - 1:
            raise PracticeError(describe("position.moves", moves, "one move fewer than the rolls"))
        try:
            level = Level.parse(level)
            if not all(isinstance(roll, str) for roll in rolls):
                raise PracticeError(describe("position.rolls", rolls, "rolls written as '3 5'"))
            parsed = tuple(parse_roll(roll, level) for roll in rolls)
            chosen = tuple(choice_from_json(move) for move in moves)
            if not all(isinstance(move, Move) for move in chosen):
                raise PracticeError(describe("position.moves", moves, "moves of the game's rounds"))
            position = cls(level, tuple(labels), parsed, chosen)  # type: ignore[arg-type]
            position.game()  # the engine replays it, or says why not
        except CaterpillarsError as error:
            raise PracticeError(f"position: {error}") from None
        return position


@dataclass(frozen=True)
class Mistake:
    """A costly move: where, what was played, the best move, what it cost and the idea it missed; and what
    every legal move of the round would lose (so that a new try is judged without the solver)."""

    position: Position
    chosen: Move
    best: Move
    loss: float
    idea: str
    losses: tuple[tuple[Move, float], ...] = ()


@dataclass(frozen=True)
class Verdict:
    """A new try at a mistake's position."""

    right: bool
    loss: float
    #: The try is the very move first played (never right).
    same: bool


def _positions(game: Game) -> list[Position]:
    """Each round of ``game`` as a position (setup turns left out: the labels are known)."""
    labels = tuple(label for label in game.state.labels if label is not None)
    plays = [turn for turn in game.history if isinstance(turn.choice, Move)]
    rolls = tuple(turn.roll for turn in plays)
    moves = tuple(turn.choice for turn in plays if isinstance(turn.choice, Move))
    return [Position(game.level, labels, rolls[: i + 1], moves[:i]) for i in range(len(plays))]


def costliest(game: Game, most: int = MOST, reviewed: Review | None = None) -> list[Mistake]:
    """The moves of ``game`` that lost the most (at most ``most``, each at least :func:`threshold`), costliest
    first; none if the game was near-perfect.  Reads the layout's solve (``reviewed``: the game's review, if
    already made)."""
    limit = threshold(game.level)
    entries = (review(game) if reviewed is None else reviewed).entries
    positions = _positions(game)
    costly = [
        (entry.loss, entry.round, position, entry.choice)
        for entry, position in zip(entries, positions, strict=True)
        if entry.loss >= limit
    ]
    costly.sort(key=lambda found: (-found[0], found[1]))
    return [mistake_at(position, chosen) for _, _, position, chosen in costly[:most]]


def review_ideas(level: Level | str, reviewed: Review, most: int = MOST) -> dict[str, list[int]]:
    """The ideas of a review's costliest moves (at most ``most``, each at least :func:`threshold`), each with its
    rounds in order: what the review a grown-up opens names (no solve: the review has the best moves)."""
    level = Level.parse(level)
    costly = sorted((e for e in reviewed.entries if e.loss >= threshold(level)), key=lambda e: (-e.loss, e.round))
    ideas: dict[str, list[int]] = {}
    for entry in sorted(costly[:most], key=lambda e: e.round):
        ideas.setdefault(idea_of(level, entry.roll, entry.choice, entry.best), []).append(entry.round)
    return ideas


def mistake_at(position: Position, chosen: Move) -> Mistake:
    """The mistake of playing ``chosen`` at ``position``, worked out with the layout's solve (a book keeps only
    the facts): the best move, the loss, the idea and what every legal move would lose."""
    state, roll = position.state, position.roll
    if chosen not in legal_moves(state, roll):
        raise PracticeError(describe("practice move", repr(chosen), "a legal move of its round"))
    options, _ = rank_options(state, roll)
    top = options[0].expected_final
    losses = tuple((option.move, max(top - option.expected_final, 0.0)) for option in options)
    best = options[0].move
    loss = dict(losses)[chosen]
    return Mistake(position, chosen, best, loss, idea_of(state.level, roll, chosen, best), losses)


def judge(mistake: Mistake, move: Move) -> Verdict:
    """Whether ``move`` is a right new try at ``mistake``: within half the level's threshold of the best,
    and not the move first played (what each move loses came with the mistake: no solver here)."""
    losses = dict(mistake.losses)
    if move not in losses:
        raise PracticeError(describe("practice move", repr(move), "a legal move of this round"))
    same = move == mistake.chosen
    return Verdict(not same and losses[move] <= threshold(mistake.position.level) / 2, losses[move], same)


__all__ = [
    "MOST",
    "Mistake",
    "Position",
    "PracticeError",
    "Verdict",
    "costliest",
    "judge",
    "mistake_at",
    "review_ideas",
    "threshold",
]
