"""Puzzles adapt (issue 45): a scripted child who always misses gets easier and easier puzzles on the idea, one who
always answers right gets harder ones and then mastery, one right half the time stays practising; a set never
repeats a puzzle, and comes back from JSON."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import pytest

from caterpillar_learn.caterpillars import Level, Move, legal_moves
from caterpillar_learn.puzzles.bank import Puzzle, load_bank
from caterpillar_learn.puzzles.errors import PuzzleError
from caterpillar_learn.puzzles.rating import IdeaRatings, Rating
from caterpillar_learn.puzzles.sets import MASTERY, PuzzleSet, choose, idea_state, puzzle_mastery

Child = Callable[[Puzzle, int], Move]


def always_misses(puzzle: Puzzle, turn: int) -> Move:
    """The child plays a move that is not the best (the last of the engine's list that is not)."""
    return [move for move in legal_moves(puzzle.state, puzzle.roll) if not puzzle.is_best(move)][-1]


def always_right(puzzle: Puzzle, turn: int) -> Move:
    return puzzle.best


def right_every_other_time(puzzle: Puzzle, turn: int) -> Move:
    return always_right(puzzle, turn) if turn % 2 else always_misses(puzzle, turn)


def play_set(child: Child, level: Level, idea: str = "score_die", size: int = 10) -> tuple[PuzzleSet, list[Puzzle]]:
    bank = load_bank(level)
    puzzles = PuzzleSet.start(level, idea, IdeaRatings(), size=size)
    met: list[Puzzle] = []
    while (puzzle := puzzles.next_puzzle(bank)) is not None:
        met.append(puzzle)
        move = child(puzzle, len(met))
        assert move in legal_moves(puzzle.state, puzzle.roll)
        puzzles, _ = puzzles.answered(puzzle, right=puzzle.is_best(move))
    assert puzzles.is_done and len(met) == size
    assert all(puzzle.idea == idea for puzzle in met) and len({p.id for p in met}) == size
    return puzzles, met


@pytest.mark.parametrize("level", [Level.BEGINNER, Level.INTERMEDIATE], ids=["beginner", "intermediate"])
def test_a_child_who_always_misses_the_score_die_gets_easier_puzzles(level: Level) -> None:
    done, met = play_set(always_misses, level)
    difficulties = [puzzle.difficulty for puzzle in met]
    assert all(later < earlier for earlier, later in pairwise(difficulties)), difficulties
    assert difficulties[-1] < difficulties[0] - 500
    assert done.right == 0 and done.rating.rating < 1000
    assert puzzle_mastery(done.rating) == "practising"


@pytest.mark.parametrize("level", [Level.BEGINNER, Level.INTERMEDIATE], ids=["beginner", "intermediate"])
def test_a_child_who_always_answers_right_gets_harder_puzzles_then_mastery(level: Level) -> None:
    puzzles = PuzzleSet.start(level, "score_die", size=10)
    bank = load_bank(level)
    difficulties, states = [], []
    while not puzzles.is_done:
        puzzle = puzzles.next_puzzle(bank)
        assert puzzle is not None
        difficulties.append(puzzle.difficulty)
        states.append(puzzle_mastery(puzzles.rating if puzzles.answers else None))
        puzzles, _ = puzzles.answered(puzzle, right=puzzle.is_best(always_right(puzzle, 0)))
    mastered = puzzle_mastery(puzzles.rating)
    assert mastered == "mastered" and puzzles.rating.low >= MASTERY
    first_mastered = states.index("mastered") if "mastered" in states else len(states)
    assert first_mastered >= 3, states  # not at once: a few right answers first
    rising = difficulties[:first_mastered]
    assert all(later > earlier for earlier, later in pairwise(rising)), difficulties
    assert states[0] == "new" and set(states[1:first_mastered]) == {"practising"}
    assert set(states[first_mastered:]) <= {"mastered"}


def test_a_child_right_every_other_time_is_still_practising() -> None:
    done, met = play_set(right_every_other_time, Level.BEGINNER)
    assert done.right == 5
    assert puzzle_mastery(done.rating) == "practising"
    assert abs(met[-1].difficulty - 1500) < 400  # the puzzles stay near the middle


def test_the_next_set_avoids_the_puzzles_met_and_starts_from_the_childs_rating() -> None:
    bank = load_bank("beginner")
    first, met = play_set(always_misses, Level.BEGINNER)
    ratings = first.ratings_after(IdeaRatings())
    assert ratings.of("score_die") == first.rating and not ratings.has("zero")
    second = PuzzleSet.start("beginner", "score_die", ratings, size=5, avoid=first.seen())
    puzzle = second.next_puzzle(bank)
    assert puzzle is not None and puzzle.id not in {p.id for p in met}
    assert abs(puzzle.difficulty - first.rating.rating) < abs(met[0].difficulty - first.rating.rating)
    everything = PuzzleSet.start("beginner", "score_die", avoid={p.id for p in bank.on("score_die")})
    assert everything.next_puzzle(bank) is None


def test_puzzles_are_chosen_by_the_ratings_the_host_kept() -> None:
    on_zero = load_bank("beginner").on("zero")
    easiest = on_zero[0]
    assert choose(on_zero, Rating(1500)) != easiest
    assert choose(on_zero, Rating(1500), ratings={easiest.id: Rating(1500, 100)}) == easiest


def test_a_set_refuses_what_does_not_belong_to_it() -> None:
    bank = load_bank("beginner")
    puzzles = PuzzleSet.start("beginner", "score_die", size=5)
    with pytest.raises(PuzzleError, match=r"^puzzle: got '"):
        puzzles.answered(bank.on("zero")[0], right=True)
    first = puzzles.next_puzzle(bank)
    assert first is not None
    puzzles, _ = puzzles.answered(first, right=True)
    with pytest.raises(PuzzleError, match="a puzzle not met before"):
        puzzles.answered(first, right=True)
    with pytest.raises(PuzzleError, match=r"^size: got 11, expected 5 to 10 puzzles"):
        PuzzleSet.start("beginner", "score_die", size=11)
    with pytest.raises(PuzzleError, match=r"^idea: got 'bonus', expected one of zero, score_die, middle, box"):
        PuzzleSet.start("beginner", "bonus")
    with pytest.raises(PuzzleError, match=r"^bank: got 'intermediate'"):
        puzzles.next_puzzle(load_bank("intermediate"))


def test_a_set_comes_back_from_json_and_an_edited_one_is_refused() -> None:
    done, _ = play_set(right_every_other_time, Level.BEGINNER, size=6)
    assert PuzzleSet.from_json(done.to_json()) == done
    good = done.to_json()
    refused = [
        ({**good, "size": 4}, "set.size: got 4"),
        ({**good, "level": "pro"}, "set.level: got 'pro'"),
        ({**good, "answers": [["nothex", True, 1500.0]]}, "set.answers: got"),
        ({**good, "answers": good["answers"] * 2}, "set.answers: got 12, expected at most the set's 6 puzzles"),
        ({**good, "rating": {"rating": 1500}}, "set.rating: got"),
        ({**good, "format": 0}, "set.format: got 0, expected 1"),
    ]
    for data, said in refused:
        with pytest.raises(PuzzleError) as error:
            PuzzleSet.from_json(data)
        assert str(error.value).startswith(said) and "\n" not in str(error.value), str(error.value)


def test_an_idea_is_mastered_by_puzzles_and_by_ones_own_games_together() -> None:
    table = {
        ("new", "new"): "new",
        ("new", "practising"): "practising",
        ("new", "mastered"): "mastered",
        ("practising", "mastered"): "practising",  # the child's own games still miss it
        ("mastered", "practising"): "practising",  # the puzzles still miss it
        ("mastered", "new"): "mastered",
        ("mastered", "mastered"): "mastered",
    }
    for (book, puzzles), state in table.items():
        assert idea_state(book, puzzles) == state, (book, puzzles)
    with pytest.raises(PuzzleError, match=r"^book: got 'done'"):
        idea_state("done", "new")
