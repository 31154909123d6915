"""The puzzle bank is exact (issue 45): a sample of each exact level's puzzles solved again, the bank's size per
idea, the marks of the estimated levels, the bank made again from its seed, and a hand-edited bank refused.

The "only move" rule is written here again from the rules' words, not taken from the module: boxes of one
caterpillar with one label are one box; every other move loses at least the stated margin, and the margin is at
least the level's practice threshold."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from caterpillar_learn.advice.values import rank_options
from caterpillar_learn.caterpillars import Level, Move, State
from caterpillar_learn.practice import idea_of, threshold
from caterpillar_learn.puzzles.bank import Bank, Puzzle, load_bank, read_bank
from caterpillar_learn.puzzles.errors import PuzzleError
from caterpillar_learn.puzzles.players import RECIPES, SEED, about, make_level

pytestmark = pytest.mark.usefixtures("solve_cache")

BANK_FILE = Path(__file__).resolve().parents[2] / "caterpillar_learn" / "puzzles" / "bank.json"
EXACT = (Level.BEGINNER, Level.INTERMEDIATE)
SAMPLE = 50
#: The ideas the exact levels can name with a clear margin: "box" needs one caterpillar and one score in two boxes,
#: which with dice alone means one label twice (interchangeable boxes); bonus boxes and the action die are not played.
EXACT_IDEAS = ("zero", "score_die", "middle")


def same_box(state: State, a: Move, b: Move) -> bool:
    """One effect: the same score (or zero, or bonus) into a box of the same caterpillar with the same label."""
    return (a.slot // 4, state.labels[a.slot], a.score, a.zero, a.bonus) == (
        b.slot // 4,
        state.labels[b.slot],
        b.score,
        b.zero,
        b.bonus,
    )


def check_against_the_hint(puzzle: Puzzle) -> None:
    state, roll, level = puzzle.state, puzzle.roll, puzzle.level
    options, exact = rank_options(state, roll)
    assert exact == puzzle.exact
    top = options[0]
    assert top.move == puzzle.best, (puzzle.id, top.move, puzzle.best)
    others = [option for option in options if not same_box(state, option.move, top.move)]
    assert others, puzzle.id
    for option in others:
        assert top.expected_final - option.expected_final >= puzzle.margin, (puzzle.id, option.move)
    rival = others[0]
    assert top.expected_final - rival.expected_final < puzzle.margin + 1e-4  # the margin is the rival's, rounded down
    assert puzzle.margin >= threshold(level)
    assert idea_of(level, roll, rival.move, top.move) == puzzle.idea


@pytest.mark.slow
@pytest.mark.parametrize("level", EXACT, ids=[level.value for level in EXACT])
def test_a_sample_of_the_exact_bank_is_solved_again(level: Level) -> None:
    bank = load_bank(level)
    sample = random.Random(f"sample {level.value}").sample(bank.puzzles, SAMPLE)
    for puzzle in sample:
        check_against_the_hint(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("level", [Level.ADVANCED, Level.EXPERT], ids=["advanced", "expert"])
def test_the_estimated_levels_are_the_strong_hints_and_say_so(level: Level) -> None:
    """Advanced and Expert read the Intermediate solves of the Intermediate layouts (solved just above)."""
    bank = load_bank(level)
    assert len(bank.puzzles) >= 40 and len(bank.ideas()) >= 4
    assert not all(puzzle.exact for puzzle in bank.puzzles)
    assert all(puzzle.exact == (puzzle.round >= 11) for puzzle in bank.puzzles)  # exact only in the last two rounds
    for puzzle in random.Random(f"sample {level.value}").sample(bank.puzzles, 10):
        check_against_the_hint(puzzle)


@pytest.mark.parametrize("level", EXACT, ids=[level.value for level in EXACT])
def test_each_idea_of_an_exact_level_has_thirty_puzzles_and_a_spread(level: Level) -> None:
    bank = load_bank(level)
    assert bank.ideas() == EXACT_IDEAS
    for idea in EXACT_IDEAS:
        puzzles = bank.on(idea)
        assert len(puzzles) >= 30, idea
        assert all(puzzle.exact and puzzle.idea == idea for puzzle in puzzles)
        difficulties = [puzzle.difficulty for puzzle in puzzles]
        assert difficulties == sorted(difficulties)
        assert difficulties[0] < 1000 and difficulties[-1] > 1800, (idea, difficulties)  # a set can follow anyone


def test_each_position_is_in_the_bank_once_and_reachable() -> None:
    for level in Level:
        bank = load_bank(level)
        keys = [(p.state.labels, p.state.scores, p.state.bonus, p.roll) for p in bank.puzzles]
        assert len(set(keys)) == len(keys) == len({p.id for p in bank.puzzles})
        for puzzle in bank.puzzles:
            assert puzzle.position.game().state == puzzle.state  # the engine replays the game that reached it
            assert puzzle.round == puzzle.state.filled + 1


def test_the_bank_says_how_it_was_made() -> None:
    data = json.loads(BANK_FILE.read_text(encoding="utf-8"))
    assert data["about"] == json.loads(json.dumps(about(SEED)))
    assert set(data["levels"]) == {level.value for level in Level}
    assert BANK_FILE.stat().st_size < 200_000


@pytest.mark.slow
def test_the_beginner_bank_is_made_again_from_its_seed() -> None:
    """scripts/make_puzzles.py's Beginner bank, made again: the same puzzles, so the shipped file is the code's."""
    assert RECIPES[Level.BEGINNER].layouts <= 8  # the test solves each layout (0.4 s each)
    assert make_level(Level.BEGINNER, SEED).to_json() == load_bank(Level.BEGINNER).to_json()


def shipped_entry(level: str, index: int = 0) -> dict[str, object]:
    data = json.loads(BANK_FILE.read_text(encoding="utf-8"))
    entry: dict[str, object] = data["levels"][level][index]
    return entry


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"margin": 0.1}, "bank.beginner[0].margin"),
        ({"idea": "bonus"}, "bank.beginner[0].idea"),
        ({"exact": False}, "bank.beginner[0].exact"),
        ({"id": "000000000000"}, "bank.beginner[0].id"),
        ({"best": [0, 7]}, "bank.beginner[0].best"),
        ({"best": [0, 7, 2]}, "bank.beginner[0].best"),
        ({"moves": [[0, 99]]}, "bank.beginner[0].moves"),
        ({"difficulty": "hard"}, "bank.beginner[0].difficulty"),
        ({"tempting": -1}, "bank.beginner[0].tempting"),
        ({"labels": [1] * 11}, "bank.beginner[0].labels"),
    ],
)
def test_an_edited_puzzle_is_refused_in_one_line(change: dict[str, object], field: str) -> None:
    entry = {**shipped_entry("beginner"), **change}
    with pytest.raises(PuzzleError) as refused:
        Bank.from_json([entry], "beginner")
    message = str(refused.value)
    assert message.startswith(field + ":") and "\n" not in message and len(message) < 300, message


def test_a_bank_with_a_position_twice_or_of_another_format_is_refused() -> None:
    entry = shipped_entry("beginner")
    with pytest.raises(PuzzleError, match=r"^bank\.beginner: got '\w+', expected each position once"):
        Bank.from_json([entry, entry], "beginner")
    with pytest.raises(PuzzleError, match=r"^bank\.format: got 2, expected 1"):
        read_bank({"format": 2, "about": {}, "levels": {}}, "beginner")


def test_an_idea_without_puzzles_is_refused_naming_the_ideas_there_are() -> None:
    with pytest.raises(PuzzleError, match=r"^idea: got 'box', expected one of zero, score_die, middle"):
        load_bank("intermediate").on("box")


def test_the_check_finds_a_wrong_best_move_margin_or_idea() -> None:
    puzzle = load_bank("beginner").on("middle")[0]
    check_against_the_hint(puzzle)
    options, _ = rank_options(puzzle.state, puzzle.roll)
    rival = next(option.move for option in options if not same_box(puzzle.state, option.move, puzzle.best))
    for wrong in (
        replace(puzzle, best=rival),
        replace(puzzle, margin=puzzle.margin + 0.01),
        replace(puzzle, idea="score_die"),
    ):
        with pytest.raises(AssertionError):
            check_against_the_hint(wrong)
