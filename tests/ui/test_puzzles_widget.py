"""Puzzles for a child on the board (issue 45), in the widget's logic: a scripted child who always taps the best
box, one who always misses, a reload that hands the ratings back, a spoilt page, the German words.  Each action is
what the page sends (``board.act``), and at every moment the thing the page marks can be done."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from caterpillar_learn.caterpillars import Move
from caterpillar_learn.errors import CaterpillarLearnError
from caterpillar_learn.i18n import catalogue, language, text
from caterpillar_learn.puzzles.bank import load_bank
from caterpillar_learn.puzzles.rating import IdeaRatings
from caterpillar_learn.puzzles.sets import PuzzleSet, puzzle_mastery
from caterpillar_learn.ui.caterpillars import CaterpillarsPuzzles
from caterpillar_learn.ui.caterpillars.practice import SHOW_AFTER
from caterpillar_learn.ui.caterpillars.puzzles import PuzzleSession, ratings_key
from caterpillar_learn.ui.events import BadEventError

STARRED = re.compile(r'<g data-testid="(box-[\w-]+)"[^>]*><g data-testid="legal-move">')  # the page's own pattern
CATALOGUES = Path(__file__).resolve().parents[2] / "caterpillar_learn" / "i18n"


def session_of(board: CaterpillarsPuzzles) -> PuzzleSession:
    assert isinstance(board.session, PuzzleSession)
    return board.session


def tap(board: CaterpillarsPuzzles, move: Move) -> None:
    """Tap ``move``'s box as a child does (and its option, if the box opens a menu)."""
    board.act("box", caterpillar=move.caterpillar, box=move.box)
    if board.menu.get("options"):
        board.act("option", index=session_of(board).legal_moves().index(move))
    assert not board.message, board.message


def a_miss(board: CaterpillarsPuzzles) -> Move:
    """A move on offer that does not solve the puzzle (every puzzle has a rival)."""
    session = session_of(board)
    return next(move for move in session.legal_moves() if not session.puzzle.is_best(move))


def marked_can_be_done(board: CaterpillarsPuzzles) -> None:
    """Exactly one thing is marked, and it can be done now."""
    target = board.lesson["target"]
    if target == "sheet":
        assert board.legal and board.practice["status"] == "active" and not board.practice["answered"]
    elif target == "practice_next":
        assert board.practice["answered"]
    elif target == "new_game":
        assert board.lesson["new_game"] and not board.practice and board.lesson["body"]
    else:
        assert target == "menu" and board.menu.get("options"), target


def rating_of(board: CaterpillarsPuzzles, idea: str) -> float:
    return IdeaRatings.from_json(board.book["data"]).of(idea).rating


def test_a_child_who_always_taps_the_best_box_meets_harder_puzzles_and_masters_the_idea() -> None:
    board = CaterpillarsPuzzles("beginner", "score_die", size=8)
    session = session_of(board)
    assert board.book == {"key": ratings_key("beginner"), "data": IdeaRatings().to_json()}
    difficulties, ratings = [], [rating_of(board, "score_die")]
    for number in range(1, 9):
        marked_can_be_done(board)
        assert board.practice["count"] == f"Puzzle {number} of 8" and board.lesson["index"] == number - 1
        puzzle = session.puzzle
        difficulties.append(puzzle.difficulty)
        tap(board, puzzle.best)
        assert board.practice["right"] and board.practice["said"].startswith("Right! Put ")
        assert board.lesson["target"] == "practice_next" and board.legal == []
        ratings.append(rating_of(board, "score_die"))
        board.act("practice_next")
    assert not board.practice and session.puzzles.right == 8  # the end's line is the stepper's (in view)
    assert ratings == sorted(ratings) and len(set(ratings)) == 9  # each right answer raised the rating
    assert difficulties[1] > difficulties[0] and sum(difficulties[4:]) > sum(difficulties[:4])
    assert puzzle_mastery(IdeaRatings.from_json(board.book["data"]).of("score_die")) == "mastered"
    assert board.lesson["body"] == "8 of 8 right at the first try! You have learned it!"
    marked_can_be_done(board)
    assert board.strings["new_game"] == "More puzzles"
    board.act("new_game")  # More puzzles: a new set, harder still, none of the last set's puzzles again
    assert board.practice["count"] == "Puzzle 1 of 8" and session.puzzle.id not in session.met
    assert session.puzzle.difficulty > difficulties[0]


def test_a_child_who_always_misses_is_shown_the_best_box_and_meets_easier_puzzles() -> None:
    board = CaterpillarsPuzzles("beginner", "score_die", size=6)
    session = session_of(board)
    difficulties, ratings = [], [rating_of(board, "score_die")]
    for _ in range(6):
        puzzle = session.puzzle
        difficulties.append(puzzle.difficulty)
        for miss in range(1, SHOW_AFTER + 1):
            marked_can_be_done(board)
            tap(board, a_miss(board))
            assert not board.practice["answered"]
            if miss < SHOW_AFTER:
                assert board.practice["said"] == text("practice.wrong") and len(board.legal) > 1
        # After two misses only the best box is offered, and it is the one box the page marks.
        assert board.practice["said"] == text("practice.show")
        best = (puzzle.best.caterpillar, puzzle.best.box)
        assert [(entry["caterpillar"], entry["box"]) for entry in board.legal] == [best]
        assert STARRED.findall(board.sheet["svg"]) == [f"box-{puzzle.best.caterpillar}-{puzzle.best.box}"]
        assert board.lesson["target"] == "sheet"
        other = next(slot for slot in range(12) if slot != puzzle.best.slot)
        board.act("box", caterpillar=["Alex", "Bobby", "Charlie"][other // 4], box=other % 4)
        assert board.practice["said"] == text("practice.show") and not board.practice["answered"]
        tap(board, puzzle.best)
        assert board.practice["answered"] and not board.practice["right"]
        assert board.practice["said"].startswith("Yes! Put ")
        ratings.append(rating_of(board, "score_die"))
        board.act("practice_next")
    assert difficulties == sorted(difficulties, reverse=True) and len(set(difficulties)) == 6
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == 7  # only the first try counts
    assert session.puzzles.right == 0 and not board.practice
    assert board.lesson["body"] == "You solved 6 puzzles with a little help! More puzzles will help you learn it."


def test_the_ratings_come_back_with_the_page_and_choose_the_next_set() -> None:
    first = CaterpillarsPuzzles("beginner", "middle", size=5)
    for _ in range(3):
        tap(first, session_of(first).puzzle.best)
        first.act("practice_next")
    kept = json.loads(json.dumps(first.book["data"]))  # what localStorage held
    rating = IdeaRatings.from_json(kept).of("middle")
    assert rating.rating > 1500

    again = CaterpillarsPuzzles("beginner", "middle", size=5)  # the page reloaded: a new kernel's widget
    fresh_first = session_of(again).puzzle
    again.act("book", book=kept)
    session = session_of(again)
    assert not again.message and again.book["data"] == kept and session.puzzles.rating == rating
    chosen = PuzzleSet.start("beginner", "middle", IdeaRatings.from_json(kept), size=5).next_puzzle(
        load_bank("beginner")
    )
    assert session.puzzle == chosen and chosen.difficulty > fresh_first.difficulty
    tap(again, session.puzzle.best)
    assert rating_of(again, "middle") > rating.rating
    again.act("book", book=IdeaRatings().to_json())  # a second view's late hand-back: the newer ratings stay
    assert rating_of(again, "middle") > rating.rating and again.practice["answered"]


@pytest.mark.parametrize(
    ("spoilt", "field"),
    [
        ({"format": 2, "ideas": {}}, "ratings.format"),
        ({"format": 1, "ideas": {"luck": {"rating": 1500, "deviation": 350, "volatility": 0.06}}}, "ratings.ideas"),
        ({"format": 1, "ideas": {"zero": {"rating": "high", "deviation": 350, "volatility": 0.06}}}, "ratings.ideas"),
        ("{not json", "ratings"),
    ],
    ids=["format", "idea", "rating", "text"],
)
def test_spoilt_ratings_are_refused_in_one_line_and_the_set_still_plays(spoilt: object, field: str) -> None:
    board = CaterpillarsPuzzles("beginner", "zero", size=5)
    board.act("book", book=spoilt)
    assert "\n" not in board.message and field in board.message
    assert board.message.startswith("The puzzle ratings kept in this browser could not be read")
    assert board.book["data"] == IdeaRatings().to_json() and board.practice["count"] == "Puzzle 1 of 5"
    tap(board, session_of(board).puzzle.best)
    assert board.practice["answered"] and rating_of(board, "zero") > 1500


def test_a_wrong_event_is_refused_in_one_line_and_changes_nothing() -> None:
    board = CaterpillarsPuzzles("beginner", "zero", size=5)
    before = board.session.views()
    refused: list[tuple[str, dict[str, object], str]] = [
        ("roll", {}, "event type: got 'roll'"),
        ("practice_next", {}, text("practice.try_first")),
        ("new_game", {}, text("practice.puzzles.finish")),
        ("option", {"index": 99}, "option index: got 99"),
        ("numbers", {"value": "yes"}, "numbers: got 'yes'"),
    ]
    for kind, fields, said in refused:
        board.act(kind, **fields)
        assert board.message.startswith(said) and "\n" not in board.message, kind
        assert board.session.views() == before, kind


def test_the_controllers_events_are_its_own_methods() -> None:
    session = PuzzleSession("beginner", "zero")
    for kind, method in session.handlers().items():
        assert inspect.ismethod(method) and method.__self__ is session, kind
    with pytest.raises(BadEventError, match="event type: got 'hint'"):
        session.handle({"type": "hint"})


def test_later_ends_the_set_and_more_puzzles_starts_another() -> None:
    board = CaterpillarsPuzzles("beginner", "zero", size=5)
    tap(board, session_of(board).puzzle.best)
    board.act("practice_next")
    board.act("practice_stop")
    assert not board.practice and board.lesson["target"] == "new_game"
    assert board.lesson["body"].startswith("1 of 1 right at the first try!")
    board.act("box", caterpillar="Alex", box=0)
    assert board.message == text("practice.puzzles.more")
    board.act("new_game")
    assert board.practice["status"] == "active" and board.practice["count"] == "Puzzle 1 of 5"


def test_the_grown_ups_numbers_name_the_idea_the_puzzle_and_the_rating() -> None:
    board = CaterpillarsPuzzles("beginner", "score_die")
    assert board.practice["idea"] == "" and board.lesson["grown_ups"] == {}
    board.act("numbers", value=True)
    puzzle = session_of(board).puzzle
    assert board.practice["idea"] == "The idea: Which die is the score."
    about, rating = board.lesson["grown_ups"]["help"]
    assert f"difficulty {round(puzzle.difficulty)}." in about and f"{puzzle.margin:.2f} points" in about
    assert rating == "Rating for this idea: 1500, give or take 350. By the puzzles: not met yet."


def test_a_seed_draws_among_the_nearest_puzzles_the_same_way_each_time() -> None:
    def first_puzzles(seed: int | None) -> list[str]:
        session = PuzzleSession("beginner", "middle", size=5, seed=seed)
        found = []
        for _ in range(5):
            found.append(session.puzzle.id)
            session.tap(session.puzzle.best)
            session.go_on()
        return found

    nearest = first_puzzles(None)
    assert first_puzzles(7) == first_puzzles(7)
    assert any(first_puzzles(seed) != nearest for seed in range(1, 6))


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"level": "pro"}, "level: got 'pro', expected one of"),
        ({"idea": "luck"}, "idea: got 'luck', expected one of zero, score_die, middle"),
        ({"idea": "box"}, "idea: got 'box', expected one of zero, score_die, middle"),
        ({"size": 11}, "size: got 11, expected 5 to 10 puzzles"),
        ({"seed": "x"}, "seed: got 'x', expected a whole number, or None"),
        ({"labels": [1]}, "keyword: got 'labels'"),
    ],
    ids=["level", "idea", "idea-without-puzzles", "size", "seed", "board-keyword"],
)
def test_an_unknown_option_is_refused_in_one_line_naming_it(options: dict[str, object], said: str) -> None:
    with pytest.raises(CaterpillarLearnError) as refused:
        CaterpillarsPuzzles(**options)  # type: ignore[arg-type]
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)


def test_every_new_word_is_in_german_and_a_german_set_speaks_german() -> None:
    english = json.loads((CATALOGUES / "en" / "practice.json").read_text(encoding="utf-8"))
    german = json.loads((CATALOGUES / "de" / "practice.json").read_text(encoding="utf-8"))
    new = [key for key in english if key.startswith("puzzles.")]
    assert len(new) > 10 and all(key in german and german[key] != english[key] for key in new)
    assert {key for key in german if key.startswith("puzzles.")} == set(new)
    assert all(f"practice.{key}" in catalogue("de") for key in new)
    board = CaterpillarsPuzzles("intermediate", "zero", size=5, lang="de")
    assert board.practice["count"] == "Rätsel 1 von 5" and board.strings["new_game"] == "Mehr Rätsel"
    assert board.lesson["heading"] == "Rätsel: " + _level_in_german()
    tap(board, session_of(board).puzzle.best)
    assert board.practice["said"].startswith("Richtig! Schreib ")


def _level_in_german() -> str:
    with language("de"):
        return text("caterpillars.level.intermediate")


def test_a_beginner_set_reads_aloud_by_itself_and_a_notebook_may_say_otherwise() -> None:
    assert CaterpillarsPuzzles("beginner", "zero").strings["voice_default"] == "on"
    assert CaterpillarsPuzzles("intermediate", "zero").strings["voice_default"] == "off"
    assert CaterpillarsPuzzles("beginner", "zero", voice=False).strings["voice_default"] == "off"
