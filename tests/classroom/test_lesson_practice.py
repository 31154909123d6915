"""Practice in a lesson room (issue 33): three pupils who make different mistakes; the teacher's grid shows each
pupil's ideas, a class line names the idea most of them still miss, and the progress file holds the same.  With
the server's workers the practice is worked out there (the server's process solves nothing) and a restart's
replay of the log brings every pupil's practice back."""

from __future__ import annotations

import csv
import io
import threading
import time
from collections.abc import Callable
from pathlib import Path

from caterpillar_learn.advice import solver
from caterpillar_learn.advice.values import rank_options
from caterpillar_learn.advice.workers import Solves
from caterpillar_learn.caterpillars import Level, Move
from caterpillar_learn.caterpillars.sheet import BOXES
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.lesson.room import CSV_COLUMNS, LessonPupil, LessonRoom
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.i18n import text
from caterpillar_learn.practice import IDEAS
from caterpillar_learn.practice.ideas import ideas_at
from caterpillar_learn.ui.caterpillars import advice
from tests.classroom.test_lesson_room import Clock, arrive, grid, lesson_of, lesson_room, right_step

Chooser = Callable[[LessonPupil], Move]


def smaller_score(pupil: LessonPupil) -> Move:
    """The smaller die as the score, then the best box for it."""
    session = lesson_of(pupil)
    options, _ = rank_options(session.game.state, session.game.roll())
    placed = [o.move for o in options if not o.move.zero] or [options[0].move]
    return next(m for m in placed if m.score == min(p.score for p in placed))


def wrong_caterpillar(pupil: LessonPupil) -> Move:
    """The best score, but into the caterpillar where it is worth least."""
    session = lesson_of(pupil)
    options, _ = rank_options(session.game.state, session.game.roll())
    best = options[0].move
    same = [o.move for o in options if o.move.score == best.score and o.move.slot // BOXES != best.slot // BOXES]
    return same[-1] if same else best  # no other caterpillar takes that score: no mistake


def to_free_play(room: LessonRoom, pupil: LessonPupil) -> None:
    session = lesson_of(pupil)
    for _ in range(200):
        if session.step == len(session.lesson.steps) - 1 and session.todo_target() == "new_game":
            return
        right_step(room, pupil)
    raise AssertionError("the pupil never reached free play")


def free_game(room: LessonRoom, pupil: LessonPupil, choose: Chooser) -> None:
    session = lesson_of(pupil)
    room.act(pupil.id, {"type": "new_game"})
    while session.game.phase != "over":
        room.act(pupil.id, {"type": "roll"})
        move = choose(pupil)
        room.act(pupil.id, {"type": "option", "index": session.legal_moves().index(move)})
        assert pupil.refusal == "", pupil.refusal
    if session.views()["practice"].get("status") == "offered":  # beside the game's end: the pupil taps Practise
        room.act(pupil.id, {"type": "practice_start"})
        assert pupil.refusal == "" and session.views()["practice"]["status"] == "active", pupil.refusal


def practise_wrongly_once(room: LessonRoom, pupil: LessonPupil) -> None:
    """The first practice position, tried with the very move first played (a miss: the idea stays practising)."""
    panel = lesson_of(pupil).practice_panel
    assert panel is not None
    item = panel.current
    room.act(pupil.id, {"type": "box", "caterpillar": item.chosen.caterpillar, "box": item.chosen.box})
    if lesson_of(pupil).practice_panel.menu_slot is not None:  # type: ignore[union-attr]
        index = lesson_of(pupil).practice_panel.legal().index(item.chosen)  # type: ignore[union-attr]
        room.act(pupil.id, {"type": "option", "index": index})


def test_three_pupils_the_grid_the_class_line_and_the_progress_file() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console, room = lesson_room(lobby)
    room.clock = Clock()
    ada, ben, cara = arrive(room, "Ada", "Ben", "Cara")
    for pupil, choose in ((ada, smaller_score), (ben, wrong_caterpillar), (cara, smaller_score)):
        to_free_play(room, pupil)
        free_game(room, pupil, choose)
        practise_wrongly_once(room, pupil)
    books = {p.nickname: lesson_of(p).practice_panel.book for p in (ada, ben, cara)}  # type: ignore[union-attr]
    assert "score_die" in books["Ada"].ideas and "score_die" in books["Cara"].ideas
    assert "middle" in books["Ben"].ideas and "score_die" not in books["Ben"].ideas
    rows = grid(console)
    lesson = console.room["lesson"]
    columns = [column["idea"] for column in lesson["ideas"]]
    assert set(columns) == {idea for book in books.values() for idea in book.ideas}
    assert columns == [idea for idea in IDEAS if idea in columns]  # in the list's order
    for name, book in books.items():
        shown = rows[name]["ideas"]
        assert shown == {idea: text(f"practice.state.{book.idea_state(idea)}") for idea in book.ideas}
        assert all(state == text("practice.state.practising") for state in shown.values())  # missed, none mastered
    # The class line names the idea most pupils still miss: Ada's and Cara's, the score die (Ben's not).
    assert lesson["class_line"] == text(
        "classroom.lesson.most_missed", idea=text("practice.idea.score_die"), count=2, pupils=3
    )
    console.act("export")
    file = list(csv.DictReader(io.StringIO(console.download["text"])))
    level_ideas = ideas_at(Level.BEGINNER)
    assert tuple(file[0]) == (*CSV_COLUMNS, *(text(f"practice.idea.{idea}") for idea in level_ideas))
    for row in file:
        book = books[row["nickname"]]
        assert {idea: row[text(f"practice.idea.{idea}")] for idea in level_ideas} == {
            idea: text(f"practice.state.{book.idea_state(idea) if idea in book.ideas else 'new'}")
            for idea in level_ideas
        }


def test_the_class_line_says_most_only_above_half() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console, room = lesson_room(lobby)
    room.clock = Clock()
    ada, _ben = arrive(room, "Ada", "Ben")
    to_free_play(room, ada)
    free_game(room, ada, smaller_score)
    practise_wrongly_once(room, ada)
    console.refresh()
    assert console.room["lesson"]["class_line"] == text(
        "classroom.lesson.some_missed", idea=text("practice.idea.score_die"), count=1, pupils=2
    )  # one of two: not "most"


def test_with_workers_the_practice_comes_from_them_and_a_restart_brings_it_back(pool: Solves, tmp_path: Path) -> None:
    lobby = Lobby(EventStore(str(tmp_path / "class.sqlite")))
    _, room = lesson_room(lobby)
    (ada,) = arrive(room, "Ada")
    session = lesson_of(ada)
    # The lesson up to the free game's last round: solved here; then the room is given the server's workers.
    to_free_play(room, ada)
    room.act(ada.id, {"type": "new_game"})
    while len(session.game.history) < session.game.turns - 1:
        room.act(ada.id, {"type": "roll"})
        room.act(ada.id, {"type": "option", "index": len(session.legal_moves()) - 1})
    room.act(ada.id, {"type": "roll"})
    lobby.work_in(advice.PooledHelper(pool))
    advice.join_background_solves()
    solver.clear_cache()  # from here on, anything solved in this process would show
    told = threading.Event()
    session.told = told.set
    room.act(ada.id, {"type": "option", "index": len(session.legal_moves()) - 1})  # the game's last move
    assert session.game.phase == "over"
    deadline = time.monotonic() + 120
    session.catch_up()
    while session.views()["practice"].get("status") != "offered":
        assert session.views()["practice"]["status"] == "thinking"  # the page says the helper is at it
        assert told.wait(max(0.0, deadline - time.monotonic())), "the practice never came"
        told.clear()
        session.catch_up()  # what the page's redraw does first (the widget's refresh)
    room.act(ada.id, {"type": "practice_start"})  # offered beside the game's end: Ada begins it
    assert session.views()["practice"]["status"] == "active"
    practise_wrongly_once(room, ada)
    before = session.views()["practice"]
    assert before["said"] == text("practice.same")
    assert not solver._CACHE, "the server's process solved nothing: the practice came from a worker"
    # A restart: a new lobby on the same file replays the log; the practice is back, the miss with it.
    again = Lobby(EventStore(str(tmp_path / "class.sqlite")))
    back = again.rooms[room.code]
    assert isinstance(back, LessonRoom)
    ada_back = next(p for p in back.pupils.values() if p.nickname == "Ada")
    assert lesson_of(ada_back).views()["practice"] == before
    assert lesson_of(ada_back).practice_panel.book == session.practice_panel.book  # type: ignore[union-attr]
