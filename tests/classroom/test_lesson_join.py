"""A class joining one lesson room: what the pupils share, what stays each pupil's own, and the helper in the workers.

* what is the same for every pupil is made once (the helper's moves for one sheet and one roll, the door's
  cards in one language), and none of it carries one pupil's step, dice or sheet onto another's page;
* a pupil joining, or playing, asks no other pupil's page to redraw;
* with the server's workers, a led round's move and a hint are worked out in a worker: meanwhile the sheet
  has no star, the lesson says the helper is thinking, a tap on a box is refused without being written,
  and the page is told to redraw once the answer is there; the answer is the helper's own;
* a replay of that log (a restart) reaches the same sheet.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from caterpillar_learn.advice import hint
from caterpillar_learn.advice.workers import Solves
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.consoles import door_cards
from caterpillar_learn.classroom.rooms.lesson.page import lesson_widget
from caterpillar_learn.classroom.rooms.lesson.room import TEACHER, LessonRoom, LessonSettings
from caterpillar_learn.i18n import text
from caterpillar_learn.ui.caterpillars.advice import PooledHelper
from tests.classroom.test_lesson_room import lesson_of, right_step

#: Long enough never to fire in a passing test, short enough to end a failing one (a loaded machine).
SAFETY = 240.0
#: What a pupil's page shows of the lesson.
SHOWN = ("lesson", "dice", "sheet", "legal", "question", "hint", "message", "explanation")
#: Another Beginner layout than the lesson's: its solve keeps the one worker busy for a second or more.
BUSY = (1, 1, 6, 4, 2, 2, 2, 5, 5, 6, 2, 1)


def page_of(widget: Any) -> dict[str, Any]:
    widget.refresh()
    return {name: getattr(widget, name) for name in SHOWN}


def to_led_round(room: LessonRoom, pupil: Any) -> None:
    """Do what the lesson asks until the dice of its first led round are on the sheet."""
    session = lesson_of(pupil)
    for _ in range(40):
        if session.led.leads() and not session.asking:
            return
        right_step(room, pupil)
    raise AssertionError(f"no led round: {session.current.key}, {session.todo_target()}")


def test_two_pupils_share_the_lesson_but_not_their_steps() -> None:
    room = LessonRoom("KX47PQ", LessonSettings.build("01-beginner"))
    ada, bob = room.join("Ada"), room.join("Bob")
    ada_page, bob_page = lesson_widget(room, ada), lesson_widget(room, bob)
    bob_first = page_of(bob_page)
    redraws: list[int | None] = []
    room.subscribe(redraws.append, bob.id)  # what Bob's page is asked to redraw for
    teacher: list[int | None] = []
    room.subscribe(teacher.append)
    room.join("Cem")
    to_led_round(room, ada)
    ada_shown = page_of(ada_page)
    assert ada_shown["lesson"]["index"] > 0 and ada_shown["dice"]["rolled"] and ada_shown["legal"]
    assert page_of(bob_page) == bob_first  # nothing of Ada's lesson on Bob's page
    assert redraws == []  # neither Cem's arrival nor Ada's taps redraw Bob's page
    assert TEACHER in teacher and ada.id in teacher  # the teacher's grid follows both
    # Bob gets to the same sheet: the room's helper gives him the move worked out for Ada, not another one.
    session = lesson_of(bob)
    to_led_round(room, bob)
    assert session.game.state == lesson_of(ada).game.state and session.game.roll() == lesson_of(ada).game.roll()
    assert session.led_move() is lesson_of(ada).led_move()
    assert page_of(bob_page)["legal"] == ada_shown["legal"]
    right_step(room, bob)
    assert page_of(ada_page) == ada_shown  # Bob's move stays on Bob's sheet


def test_the_doors_cards_are_made_once_a_language() -> None:
    english, german = door_cards("en", "/static/"), door_cards("de", "/static/")
    assert door_cards("en", "/static/") is english
    assert [card["name"] for card in english] == [card["name"] for card in german]
    assert english[1]["title"] != german[1]["title"]
    assert {card["language"] for card in german} == {"de"}


def test_a_led_move_and_a_hint_come_from_a_worker(pool: Solves) -> None:
    busy = pool.solve(Level.BEGINNER, BUSY)  # the one worker is busy: the lesson's answers must wait
    room = LessonRoom("KX47PQ", LessonSettings.build("01-beginner"))
    room.work_in(PooledHelper(pool))
    ada = room.join("Ada")
    page = lesson_widget(room, ada)
    told = threading.Event()
    room.subscribe(lambda _part: told.set(), ada.id)
    to_led_round(room, ada)
    session = lesson_of(ada)
    assert not busy.done(), "the worker finished its first solve before the test could look"
    shown = page_of(page)
    assert session.awaits_helper()
    assert shown["legal"] == [] and shown["lesson"]["guide"] == text("classroom.lesson.helper_thinking")
    written = len(room.log)
    with pytest.raises(ClassroomError, match=text("classroom.lesson.wait_helper")):
        room.act(ada.id, {"type": "box", "caterpillar": "Alex", "box": 0})
    assert len(room.log) == written  # refused before the log: a replay plays no other move
    page.act("box", caterpillar="Alex", box=0)
    assert page.message == text("classroom.lesson.wait_helper")

    deadline = time.monotonic() + SAFETY
    while session.awaits_helper():  # the room tells the page once the worker has answered
        assert told.wait(max(0.0, deadline - time.monotonic())), "the page was never told"
        told.clear()
        session.catch_up()  # what the page's redraw does first (the widget's refresh)
    state, roll = session.game.state, session.game.roll()
    best = hint(state, roll).move  # the helper in this process
    shown = page_of(page)
    assert session.led_move() == best
    assert [(move["caterpillar"], move["box"]) for move in shown["legal"]] == [(best.caterpillar, best.box)]
    assert shown["lesson"]["guide"] == text("lessons.guided.led")

    told.clear()
    room.act(ada.id, {"type": "hint"})
    assert page.hint == {} or page.hint.get("status") in ("thinking", "ready")
    assert page_of(page)["hint"]["status"] in ("thinking", "ready")
    while page_of(page)["hint"]["status"] != "ready":
        assert told.wait(max(0.0, deadline - time.monotonic())), "the hint never came"
        told.clear()
    assert page.hint["best"] == {"caterpillar": best.caterpillar, "box": best.box, "text": best.describe()}

    room.act(ada.id, {"type": "box", "caterpillar": best.caterpillar, "box": best.box})
    assert ada.refusal == ""
    again = LessonRoom("KX47PQ", room.settings)  # a restart: the same log replayed
    for kind, data in room.log:
        again.apply(kind, data)
    assert lesson_of(again.pupils[ada.id]).game.state == session.game.state
    assert lesson_of(again.pupils[ada.id]).explanation == session.explanation


def test_a_lessons_review_comes_from_a_worker(pool: Solves) -> None:
    from caterpillar_learn.advice import solver
    from caterpillar_learn.caterpillars import Game
    from caterpillar_learn.ui.caterpillars.advice import review_view

    solver.clear_cache()
    room = LessonRoom("KX47PQ", LessonSettings.build("01-beginner"))
    room.work_in(PooledHelper(pool))
    ada = room.join("Ada")
    page = lesson_widget(room, ada)
    told = threading.Event()
    room.subscribe(lambda _part: told.set(), ada.id)
    session = lesson_of(ada)
    # A free game after the guided one, finished (the lesson's steps before it are tested elsewhere).
    game = Game("beginner", list(session.game.state.labels), seed=5)
    while game.phase != "over":
        game.play(game.legal_moves()[0])
    session.game, session.games_made, session.numbers = game, 2, True
    room.act(ada.id, {"type": "review"})
    assert page_of(page) and page.review.get("thinking") == text("lessons.ui.review_thinking"), page.review
    deadline = time.monotonic() + SAFETY
    while not page.review.get("reviewed"):  # the room tells the page once the worker has answered
        assert told.wait(max(0.0, deadline - time.monotonic())), "the review never came"
        told.clear()
        page.refresh()
    assert "thinking" not in page.review
    assert not solver._CACHE, "the server's process solved nothing: the review came from a worker"
    expected = review_view(game)
    assert page.review["advice"] == expected["summary"] and page.review["rounds"] == expected["rounds"]
