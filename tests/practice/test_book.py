"""The practice book: its spaced schedule, mastery, and a book read back only as the engine can replay it."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.caterpillars import Game
from caterpillar_learn.practice import GAPS, Book, PracticeError

DAY = datetime.date(2026, 12, 5)


def played(seed: int) -> Game:
    """A Beginner game played with the last move every round (costly enough to practise)."""
    game = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=seed)
    while not game.is_over:
        game.play(game.legal_moves()[-1])
    return game


@pytest.fixture(scope="module")
def book() -> Book:
    found = Book.empty("beginner").after_game(played(7), DAY)
    assert found.run, "the game gave nothing to practise"
    return found


def test_a_game_is_taken_in_once(book: Book) -> None:
    assert book.after_game(played(7), DAY) is book
    assert book.games == 1 and len(book.booked) == 1


def test_a_right_first_try_comes_back_after_one_game_then_two_then_a_day_then_is_learnt(book: Book) -> None:
    item_id, day = book.run[0], DAY
    seen = []
    for unit, gap in GAPS:
        book = book.answered(item_id, right=True, today=day)
        item = book.item(item_id)
        seen.append((item.due_games, item.due_day))
        assert not item.is_due(book.games, day)
        if unit == "games":
            assert item.due_games == book.games + gap and item.is_due(book.games + gap, day)
        else:
            assert item.due_day == day + datetime.timedelta(days=gap) and item.is_due(book.games, item.due_day)
    assert seen == [(2, None), (3, None), (None, DAY + datetime.timedelta(days=1))]
    book = book.answered(item_id, right=True, today=day)
    learnt = book.item(item_id)
    assert not learnt.is_due(10**4, day + datetime.timedelta(days=999))  # learnt: never due again
    later = book.next().next().next().after_game(played(9), day)
    assert item_id not in {item.id for item in later.items}  # and gone once the next game is taken in


def test_a_miss_brings_it_back_after_the_next_game_and_starts_the_idea_again(book: Book) -> None:
    item = book.item(book.run[0])
    book = book.answered(item.id, right=True, today=DAY)
    book = book.answered(item.id, right=True, today=DAY + datetime.timedelta(days=1))
    assert book.idea_state(item.idea) == "mastered"
    book = book.answered(item.id, right=False, today=DAY + datetime.timedelta(days=2))
    assert book.item(item.id).due_games == book.games + 1
    assert book.idea_state(item.idea) == "practising" and book.ideas[item.idea].misses == 1


def test_two_right_tries_on_one_day_do_not_master(book: Book) -> None:
    first, second = book.run[:2] if len(book.run) > 1 else (book.run[0], book.run[0])
    book = book.answered(first, right=True, today=DAY).answered(second, right=True, today=DAY)
    assert book.idea_state(book.item(first).idea) == "practising"


def test_a_practice_left_early_brings_its_untried_positions_after_the_next_game(book: Book) -> None:
    left = book.stopped()
    assert left.current is None and left.run == ()
    assert all(item.due_games == book.games + 1 for item in left.items)
    assert left.waiting(DAY) == len(book.run)


def test_the_next_game_brings_the_due_positions_back(book: Book) -> None:
    item_id = book.run[0]
    book = book.answered(item_id, right=True, today=DAY)
    for position in book.run[1:]:
        book = book.answered(position, right=True, today=DAY)
    book = book.next().next().next()
    later = book.after_game(played(8), DAY)
    assert item_id in later.run and later.run_for != book.run_for


def test_json_round_trip(book: Book) -> None:
    text = json.dumps(book.to_json())
    assert Book.from_json(json.loads(text), "beginner") == book


def test_a_practice_is_offered_until_begun_and_a_book_kept_before_that_reads_as_it_was(book: Book) -> None:
    assert not book.begun and book.started().begun and not book.started().stopped().begun
    assert Book.from_json(book.started().to_json(), "beginner").begun
    older = {key: value for key, value in book.to_json().items() if key != "begun"}  # kept by an older page
    assert Book.from_json(older, "beginner") == book  # at its first position, no try: offered
    assert Book.from_json({**older, "at": 1}, "beginner").begun  # past its first position: under way


def _edit(data: dict[str, Any], path: str, value: object) -> dict[str, Any]:
    edited = json.loads(json.dumps(data))
    parts = path.split(".")
    node = edited
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return edited


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        ("format", 2, "book.format"),
        ("level", "expert", "book.level"),
        ("games", "many", "book.games"),
        ("next_id", 0, "book.next_id"),
        ("booked", ["x"], "book.booked"),
        ("run", [999], "book.run"),
        ("at", 9, "book.at"),
        ("run_for", "0123456789abcdef", "book.run_for"),
        ("items.0.id", 10**6, "book.items[0].id"),
        ("items.0.chosen.score", 12, "book.items[0].chosen"),
        ("items.0.idea", "luck", "book.items[0].idea"),
        ("items.0.step", 9, "book.items[0].step"),
        ("items.0.due_day", "tomorrow", "book.items[0].due_day"),
        ("items.0.game", "x", "book.items[0].game"),
        ("tries", [{"caterpillar": "Alex", "box": 0, "score": 99, "zero": False, "bonus": None}], "book.tries[0]"),
        ("tries", [None, None, None, None], "book.tries"),
        ("items.0.position.rolls.0", "7 7", "book.items[0].position"),
        ("items.0.position.labels.0", 13, "book.items[0].position"),
        ("items.0.position.moves", [], "book.items[0].position.moves"),
        ("ideas.luck", {"right_days": [], "misses": 0}, "book.ideas"),
        ("begun", "yes", "book.begun"),
    ],
)
def test_an_edited_book_is_refused_in_one_line_naming_the_field(
    book: Book, path: str, value: object, named: str
) -> None:
    with pytest.raises(PracticeError) as refused:
        Book.from_json(_edit(book.to_json(), path, value), "beginner")
    message = str(refused.value)
    assert message.startswith(named) and "\n" not in message, message


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=12))  # fmt: skip
@settings(max_examples=200, deadline=None)
def test_any_json_at_all_is_a_book_or_one_line(data: object) -> None:
    try:
        Book.from_json(data, "beginner")
    except PracticeError as error:
        assert "\n" not in str(error)
