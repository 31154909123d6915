"""Practise your own mistakes, in the lesson's logic (issue 33): a scripted child who always makes one kind
of mistake, a careful child, a reload, two days.  (The same by touch in Chromium:
tests/browser/test_practice_walk.py.)"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

import pytest

from caterpillar_learn.advice.review import review
from caterpillar_learn.advice.values import rank_options
from caterpillar_learn.caterpillars import Move
from caterpillar_learn.i18n import plural, text
from caterpillar_learn.practice import threshold
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
from caterpillar_learn.ui.caterpillars.lesson import LessonSession
from tests.ui.test_lesson_follows import follow

DAY = datetime.date(2026, 12, 7)
Chooser = Callable[[LessonSession], Move]


def lowest_score(session: LessonSession) -> Move:
    """Always the smaller die as the score (then the best box for it): one kind of mistake only."""
    options, _ = rank_options(session.game.state, session.game.roll())
    placed = [o.move for o in options if not o.move.zero]
    if not placed:
        return options[0].move
    low = min(move.score for move in placed)
    return next(move for move in placed if move.score == low)  # ranked: the best of the low scores


def careful(session: LessonSession) -> Move:
    """The hint's move, every round."""
    options, _ = rank_options(session.game.state, session.game.roll())
    return options[0].move


def play(board: CaterpillarsLesson, move: Move) -> None:
    board.act("box", caterpillar=move.caterpillar, box=move.box)
    if board.menu.get("options"):
        board.act("option", index=next(o["index"] for o in board.menu["options"] if o["score"] == move.score
                                       and o["zero"] == move.zero))  # fmt: skip


def free_game(board: CaterpillarsLesson, choose: Chooser, *, begin: bool = True) -> None:
    """A free game from New game to its end, each move chosen by ``choose``; with ``begin``, the practice
    offered at its end is begun (the child's tap on Practise)."""
    session = board.session
    assert isinstance(session, LessonSession)
    board.act("new_game")
    while session.game.phase != "over":
        board.act("roll")
        play(board, choose(session))
        assert not board.message, board.message
    if begin and board.practice.get("status") == "offered":
        board.act("practice_start")
        assert not board.message, board.message


def test_the_free_games_end_comes_first_and_the_practice_is_offered_beside_it() -> None:
    board = lesson_at_free_play([DAY])
    session = board.session
    assert isinstance(session, LessonSession) and session.practice_panel is not None
    free_game(board, lowest_score, begin=False)
    # The end scene: the game's own sheet, the flight and the score, the stars; nothing of the practice on the board.
    assert board.sheet["phase"] == "over" and board.final["text"] and "stars" in board.final
    assert board.final == session.views()["final"] and board.legal == []
    runs = len(session.practice_panel.book.run)
    assert board.practice == {"status": "offered", "title": text("practice.title"),
                              "said": plural("practice.offer", runs), "start": text("practice.start")}  # fmt: skip
    assert board.lesson["target"] == "practice_start" and not board.lesson["new_game"]
    assert "New game" not in board.lesson["body"]  # the guided game's "Tap New game" is stale here
    board.act("box", caterpillar="alex", box=1)  # a tap on the finished board does not begin it
    assert board.practice["status"] == "offered" and board.sheet["phase"] == "over"
    board.act("practice_start")
    assert board.practice["status"] == "active" and board.final == {} and board.lesson["target"] == "sheet"


def test_a_new_game_instead_of_the_offered_practice_brings_it_after_the_next_game() -> None:
    day = [DAY]
    board = lesson_at_free_play(day)
    session = board.session
    assert isinstance(session, LessonSession) and session.practice_panel is not None
    free_game(board, lowest_score, begin=False)
    offered = set(session.practice_panel.book.run)
    free_game(board, careful, begin=False)  # New game instead of Practise
    assert offered <= set(session.practice_panel.book.run) and board.practice["status"] == "offered"


def test_a_reload_before_the_practice_begins_shows_the_end_and_the_offer_again() -> None:
    board = lesson_at_free_play([DAY])
    free_game(board, lowest_score, begin=False)
    again = CaterpillarsLesson("01-beginner")
    again.act("book", book=board.book["data"])
    again.handle({"type": "resume", "save": board.saved["data"], "seq": 1})
    assert again.practice == board.practice and again.practice["status"] == "offered"
    assert again.final["text"] == board.final["text"] and again.lesson["target"] == "practice_start"


def lesson_at_free_play(day: list[datetime.date]) -> CaterpillarsLesson:
    board = CaterpillarsLesson("01-beginner")
    session = board.session
    assert isinstance(session, LessonSession) and session.practice_panel is not None
    session.practice_panel.today = lambda: day[0]
    follow(board, random.Random(1))
    return board


def test_a_child_who_always_scores_the_smaller_die_practises_that_idea() -> None:
    day = [DAY]
    board = lesson_at_free_play(day)
    free_game(board, lowest_score)
    session = board.session
    assert isinstance(session, LessonSession)
    panel = session.practice_panel
    assert panel is not None
    # The practice offers this game's costliest moves by the review, costliest first, all of one idea.
    costly = sorted((e for e in review(session.game).entries if e.loss >= threshold("beginner")),
                    key=lambda e: (-e.loss, e.round))[:3]  # fmt: skip
    assert costly, "the scripted child made no costly move"
    items = [panel.book.item(i) for i in panel.book.run]
    assert [item.position.round for item in items] == [e.round for e in costly]
    assert [item.chosen for item in items] == [e.choice for e in costly]
    assert {item.idea for item in items} == {"score_die"}
    assert board.practice["status"] == "active"
    assert board.practice["idea"] == ""  # for grown-ups: the idea is named with the numbers
    board.act("numbers", value=True)
    assert board.practice["idea"] == text("practice.idea_line", idea=text("practice.idea.score_die"))
    board.act("numbers", value=False)
    assert board.lesson["target"] == "sheet" and not board.final and not board.lesson["new_game"]
    # The board shows the position: the same dice, the sheet before the move.
    first = items[0]
    assert board.dice["values"] == list(first.position.roll.dice)
    assert board.sheet["round"] == first.position.round
    # The move first played is refused; the best is accepted.
    play(board, first.chosen)
    assert board.practice["said"] == text("practice.same") and not board.practice["answered"]
    assert board.lesson["target"] == "sheet"
    best = rank_options(first.position.state, first.position.roll)[0][0].move
    play(board, best)
    assert board.practice["answered"] and board.practice["said"].startswith(text("practice.right", why="").strip())
    assert board.lesson["target"] == "practice_next"
    board.act("practice_next")
    assert board.practice["count"] == text("practice.count", number=2, count=len(items))


def test_after_two_misses_only_the_best_is_offered_and_marked() -> None:
    day = [DAY]
    board = lesson_at_free_play(day)
    free_game(board, lowest_score)
    session = board.session
    assert isinstance(session, LessonSession) and session.practice_panel is not None
    item = session.practice_panel.current
    options, _ = rank_options(item.position.state, item.position.roll)
    wrong = [o.move for o in options[1:] if o.move != item.chosen]
    play(board, item.chosen)
    play(board, wrong[-1] if wrong else item.chosen)
    assert text("practice.show") in board.practice["said"]
    best = options[0].move
    assert [(e["caterpillar"], e["box"], e["score"]) for e in board.legal] == [(best.caterpillar, best.box, best.score)]
    play(board, best)
    assert board.practice["answered"] and not board.practice["right"]


def test_a_careful_child_gets_no_practice_and_a_joyful_line() -> None:
    day = [DAY]
    board = lesson_at_free_play(day)
    free_game(board, careful)
    assert board.practice == {"status": "none", "title": text("practice.title"), "said": text("practice.none")}
    assert board.lesson["target"] == "new_game" and board.final


def test_after_a_reload_the_practice_is_still_waiting() -> None:
    day = [DAY]
    board = lesson_at_free_play(day)
    free_game(board, lowest_score)
    first_prompt = board.practice["prompt"]
    assert first_prompt == text("practice.found")
    play(board, board.session.practice_panel.current.chosen)  # type: ignore[attr-defined]  # a miss first
    assert board.practice["prompt"] == ""  # the try's line takes its place
    before = board.practice
    saved, book = board.saved["data"], board.book
    assert book["key"] == "caterpillar-learn.practice:01-beginner"
    again = CaterpillarsLesson("01-beginner")
    again.act("book", book=book["data"])
    again.handle({"type": "resume", "save": saved, "seq": 1})
    assert again.saved["status"] == "resumed"
    assert again.practice == before and again.legal == board.legal  # the miss's line too: the book keeps the tries
    assert before["said"] == text("practice.same") and first_prompt
    assert again.book["data"] == book["data"]  # the game taken in once, not twice


def test_an_edited_book_is_refused_in_one_line_and_the_lesson_goes_on() -> None:
    day = [DAY]
    board = lesson_at_free_play(day)
    free_game(board, lowest_score)
    book = board.book["data"]
    item = book["items"][0]
    edited = {**book, "items": [{**item, "chosen": {**item["chosen"], "score": 12}}, *book["items"][1:]]}
    again = CaterpillarsLesson("01-beginner")
    again.act("book", book=edited)
    assert again.message.startswith(text("practice.refused", why="").strip())
    assert "book.items[0].chosen" in again.message and "\n" not in again.message
    assert again.book["data"]["items"] == [] and again.lesson["target"] == "next"


def test_two_right_first_tries_on_two_days_master_the_idea() -> None:
    day = [DAY]
    board = lesson_at_free_play(day)
    session = board.session
    assert isinstance(session, LessonSession) and session.practice_panel is not None
    panel = session.practice_panel
    free_game(board, lowest_score)

    def practise_all() -> None:
        while board.practice.get("status") == "active":
            item = panel.current
            play(board, rank_options(item.position.state, item.position.roll)[0][0].move)
            board.act("practice_next")

    practise_all()
    assert panel.book.idea_state("score_die") == "practising"  # right, but on one day only
    day[0] = DAY + datetime.timedelta(days=1)
    free_game(board, careful)  # the next game: the positions come back after it
    assert board.practice["status"] == "active"
    assert all(panel.book.item(i).step == 1 for i in panel.book.run)
    practise_all()
    assert panel.book.idea_state("score_die") == "mastered"
    assert board.practice["status"] == "done" and board.lesson["target"] == "new_game"


@pytest.mark.parametrize("lesson", ["01-beginner", "00-setup"])
@pytest.mark.parametrize("kind", ["practice_next", "practice_stop"])
def test_practice_events_without_a_practice_are_refused_in_one_line(kind: str, lesson: str) -> None:
    board = CaterpillarsLesson(lesson)
    board.act(kind)
    assert board.message == text("practice.done")


def test_a_practice_left_by_starting_the_lesson_again_comes_after_the_next_game() -> None:
    day = [DAY]
    board = lesson_at_free_play(day)
    free_game(board, lowest_score)
    session = board.session
    assert isinstance(session, LessonSession) and session.practice_panel is not None
    left = set(session.practice_panel.book.run)
    board.act("start_over")  # "Start again": the lesson from its first step, the book kept
    again = board.session
    assert isinstance(again, LessonSession) and again.practice_panel is not None
    again.practice_panel.today = lambda: day[0]
    assert again.practice_panel.book.run == tuple(sorted(left)) and not board.practice
    follow(board, random.Random(1))
    free_game(board, careful)
    assert left <= set(again.practice_panel.book.run)  # the untried positions come with the next practice


def test_the_review_names_the_ideas_of_the_costliest_moves() -> None:
    """The review a grown-up opens (and a teacher in the classroom) names the ideas, with their rounds."""
    from caterpillar_learn.caterpillars import Game
    from caterpillar_learn.practice import costliest
    from caterpillar_learn.ui.caterpillars.advice import review_view

    game = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=7)
    while not game.is_over:
        game.play(game.legal_moves()[-1])
    found = costliest(game)
    assert found
    line = review_view(game)["summary"][-1]
    assert line.startswith(text("practice.review_ideas", ideas="").rstrip("."))
    for mistake in found:
        assert text(f"practice.idea.{mistake.idea}") in line and str(mistake.position.round) in line
