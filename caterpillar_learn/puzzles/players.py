"""Noisy players whose seeded games give the bank its positions, and the making of one level's bank.

A best player only reaches the sheets a best player reaches; a child reaches
others (a hungry caterpillar, an early zero).  So the positions come from
games of noisy players (:data:`PLAYERS`): each move is drawn with a softmax
over the hint's values (weight ``exp(−loss / (temperature × threshold))``,
the loss in expected final score, the level's practice threshold as the
unit) or, now and then (``blunder``), uniformly from every legal move.  A
game's player is the next of :data:`PLAYERS` in turn.

Each game starts from a layout made the way a sheet is set up (the printed
labels, the blanks filled by seeded setup rolls, :func:`layouts`): a careful
setter's (choices drawn among those that give each caterpillar the most
different labels) and a careless one's (any choice) in turn, with the
standard setup, the same at every level.  Every round
of every game is tried as a puzzle
(:func:`~caterpillar_learn.puzzles.bank.puzzle_from`); a position met twice is
kept once (:func:`~caterpillar_learn.puzzles.bank.position_key`).  Of each
idea's puzzles at most ``most`` are kept, spread evenly over their
difficulties (:func:`~caterpillar_learn.puzzles.bank.spread`), so that a set can follow any child.

The exact levels solve each layout once (0.4 s at Beginner, about 3 s at
Intermediate); Advanced and Expert read the Intermediate solve of the same
layout, so the script gives those levels the Intermediate layouts.

>>> layouts(seed=45, count=2)[0]
(1, 2, 6, 5, 1, 2, 3, 5, 5, 4, 2, 3)
>>> bank = make_bank("beginner", layouts(seed=45, count=1), games=2, seed=45, most=3)
>>> 0 < len(bank.puzzles) <= 3 * len(bank.ideas())
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from caterpillar_learn.advice.values import Option, rank_options
from caterpillar_learn.caterpillars.dice import Roll, roll_dice, roll_setup_dice
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.rules import Move, apply
from caterpillar_learn.caterpillars.setup import apply_setup, setup_choices
from caterpillar_learn.caterpillars.sheet import BOXES, ROUNDS, State
from caterpillar_learn.errors import describe
from caterpillar_learn.practice.ideas import ideas_at
from caterpillar_learn.practice.mistakes import Position, threshold
from caterpillar_learn.puzzles.bank import Bank, Puzzle, puzzle_from, spread
from caterpillar_learn.puzzles.errors import PuzzleError


@dataclass(frozen=True)
class Player:
    """A noisy player: a softmax over the hint's values, ``temperature`` thresholds wide, and a share of moves
    (``blunder``) drawn uniformly at random."""

    temperature: float
    blunder: float

    def choose(self, level: Level, options: Sequence[Option], rng: random.Random) -> Move:
        """A move of the ranked ``options`` (best first), drawn with ``rng``.

        >>> from caterpillar_learn.caterpillars import Roll
        >>> state = State.new("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
        >>> options, _ = rank_options(state, Roll((5, 6)))
        >>> Player(0.01, 0.0).choose(Level.BEGINNER, options, random.Random(1)) == options[0].move
        True
        """
        if rng.random() < self.blunder:
            return rng.choice(options).move
        width = self.temperature * threshold(level)
        top = options[0].expected_final
        weights = [math.exp((option.expected_final - top) / width) for option in options]
        return rng.choices(options, weights=weights)[0].move


#: The players of the games in turn: a careful one, a middling one, a wild one.
PLAYERS: tuple[Player, ...] = (Player(1.0, 0.05), Player(4.0, 0.1), Player(16.0, 0.25))


def _different(state: State) -> int:
    """How many different labels the caterpillars have, summed (blank labels aside)."""
    return sum(len({label for label in state.labels[i : i + BOXES] if label is not None}) for i in (0, 4, 8))


def random_layout(rng: random.Random, *, careful: bool = False) -> tuple[int, ...]:
    """A layout as a sheet gets it: the printed labels, the blanks filled by setup rolls, each choice at random;
    a ``careful`` setter draws only among the choices that leave each caterpillar the most different labels."""
    state = State.new(Level.BEGINNER)
    while not state.is_setup_done:
        after = [apply_setup(state, choice) for choice in setup_choices(state, roll_setup_dice(rng))]
        if careful:
            most = max(_different(sheet) for sheet in after)
            after = [sheet for sheet in after if _different(sheet) == most]
        state = rng.choice(after)
    return tuple(label for label in state.labels if label is not None)


def layouts(seed: int, count: int) -> tuple[tuple[int, ...], ...]:
    """``count`` layouts of seeded setups, a careful setter's and a careless one's in turn (a layout met twice is
    kept once, and another drawn)."""
    rng = random.Random(f"layouts {seed}")
    found: dict[tuple[int, ...], None] = {}
    while len(found) < count:
        found[random_layout(rng, careful=len(found) % 2 == 0)] = None
    return tuple(found)


def play(level: Level, labels: Sequence[int], player: Player, rng: random.Random) -> Iterator[Puzzle]:
    """One game of ``player`` on ``labels``, its dice and choices drawn with ``rng``: the puzzles of its rounds."""
    state = State.new(level, labels)
    rolls: list[Roll] = []
    moves: list[Move] = []
    for _ in range(ROUNDS):
        roll = roll_dice(level, rng)
        rolls.append(roll)
        options, exact = rank_options(state, roll)
        puzzle = puzzle_from(Position(level, tuple(labels), tuple(rolls), tuple(moves)), state, options, exact)
        if puzzle is not None:
            yield puzzle
        move = player.choose(level, options, rng)
        moves.append(move)
        state = apply(state, move)


def make_bank(level: Level | str, labels: Sequence[Sequence[int]], *, games: int, seed: int, most: int) -> Bank:
    """``level``'s bank: ``games`` games on each of the layouts ``labels``, the players in turn, seeded by
    ``seed``; at most ``most`` puzzles an idea (:func:`~caterpillar_learn.puzzles.bank.spread`)."""
    level = Level.parse(level)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise PuzzleError(describe("games", games, "a whole number of at least 1"))
    if isinstance(most, bool) or not isinstance(most, int) or most < 1:
        raise PuzzleError(describe("most", most, "a whole number of at least 1"))
    rng = random.Random(f"puzzles {seed} {level.value}")
    found: dict[str, Puzzle] = {}
    for layout in labels:
        for game in range(games):
            for puzzle in play(level, layout, PLAYERS[game % len(PLAYERS)], rng):
                found.setdefault(puzzle.id, puzzle)
    kept: list[Puzzle] = []
    for idea in ideas_at(level):
        kept.extend(spread([puzzle for puzzle in found.values() if puzzle.idea == idea], most))
    return Bank(level, tuple(kept))


@dataclass(frozen=True)
class Recipe:
    """How one level's shipped bank is made: how many layouts, games on each, puzzles kept an idea."""

    layouts: int
    games: int
    most: int


#: The seed of the shipped bank (the issue's number).
SEED = 45
#: Each level's recipe.  Every level draws its layouts from the same seeded list, so the 3-dice levels share
#: theirs (one Intermediate solve a layout serves all three); the bank's test solves every exact layout again.
RECIPES: dict[Level, Recipe] = {
    Level.BEGINNER: Recipe(layouts=8, games=30, most=40),
    Level.INTERMEDIATE: Recipe(layouts=3, games=80, most=40),
    Level.ADVANCED: Recipe(layouts=3, games=20, most=15),
    Level.EXPERT: Recipe(layouts=3, games=20, most=15),
}


def make_level(level: Level | str, seed: int = SEED) -> Bank:
    """``level``'s bank by its :data:`RECIPES` entry: what ``scripts/make_puzzles.py`` ships."""
    level = Level.parse(level)
    recipe = RECIPES[level]
    return make_bank(level, layouts(seed, recipe.layouts), games=recipe.games, seed=seed, most=recipe.most)


def about(seed: int = SEED) -> dict[str, Any]:
    """How the bank was made, as ``bank.json`` records it: the seed, the players and each level's recipe."""
    return {
        "made_by": "scripts/make_puzzles.py",
        "seed": seed,
        "players": [[player.temperature, player.blunder] for player in PLAYERS],
        "recipes": {level.value: [r.layouts, r.games, r.most] for level, r in RECIPES.items()},
    }


__all__ = [
    "PLAYERS",
    "RECIPES",
    "SEED",
    "Player",
    "Recipe",
    "about",
    "layouts",
    "make_bank",
    "make_level",
    "play",
    "random_layout",
]
