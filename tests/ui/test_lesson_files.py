"""A teacher's lesson file played on a lesson's board (issue 44): the guide's first lesson, copied, is played
by a child who does only what is marked, to its end, in the teacher's words and with the teacher's dice; a
teacher's own question, the n-th roll, a led place, the file's language, a save that comes back, and a file
the engine refuses (one line, no board)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from caterpillar_learn.caterpillars import parse_roll
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.files import LessonFileError, lesson_of, parse
from caterpillar_learn.lessons.scenarios import best_move
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson, LessonSession

from ..lessons.test_files import first_lesson
from .test_lesson_follows import follow

HEAD = 'format = 1\nlevel = "beginner"\ntitle = "Mine"\nage = 8\nline = "A line"\n'


def write(tmp_path: Path, source: str, name: str = "mine.toml") -> str:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return str(path)


def test_the_guides_lesson_is_played_to_its_end_in_the_teachers_words(tmp_path: Path) -> None:
    board = CaterpillarsLesson(write(tmp_path, first_lesson(), "doubles.toml"))
    session = board.session
    assert isinstance(session, LessonSession)
    assert board.lesson["heading"] == "Doubles" and board.lesson["title"] == "Doubles"
    assert board.lesson["body"].startswith("Two dice with the same number are a double.")
    titles = {board.lesson["title"]}
    met = []
    rng = random.Random(3)
    for _ in range(40):  # the steps before the game's end, each title seen as it comes
        if board.lesson["index"] == board.lesson["count"] - 1:
            break
        target = board.lesson["target"]
        met.append(target)
        follow_one(board, target, rng)
        titles.add(board.lesson["title"])
    assert titles >= {"Doubles", "Roll", "Where can they go?", "Choose", "Play on"}, titles
    assert session.game.rolls[0] == parse_roll("2 2", "beginner"), "the teacher's dice came first"
    assert "question" in met and "roll" in met
    met += follow(board, rng)  # the last step: the game to its end, then New game
    assert session.game.phase == "over" and board.final["final"] == session.game.score().final


def follow_one(board: CaterpillarsLesson, target: str, rng: random.Random) -> None:
    from .test_lesson_follows import do, doable

    assert doable(board, target), (target, board.lesson["title"], board.message)
    do(board, target, rng)


def test_a_teachers_question_waits_for_its_right_answer(tmp_path: Path) -> None:
    source = HEAD + (
        '[[step]]\nask = "choice"\nsay = "Which caterpillar flies?"\noptions = ["the longest", "the middle one"]\n'
        'right = 2\n[[step]]\nsay = "Yes: the middle one."\n'
    )
    board = CaterpillarsLesson(write(tmp_path, source))
    assert board.lesson["target"] == "question" and board.question["text"] == "Which caterpillar flies?"
    assert [option["label"] for option in board.question["options"]] == ["the longest", "the middle one"]
    board.act("answer", option="0")
    board.act("check")
    assert board.question["feedback"]["correct"] is False and not board.lesson["can_next"]
    board.act("step", delta=1)
    assert board.message == text("lessons.question.answer_first")
    board.act("answer", option="1")
    board.act("check")  # right: on to the next step, "Right!" in sight
    assert board.lesson["index"] == 1 and board.lesson["body"] == "Yes: the middle one."
    assert board.explanation == text("lessons.feedback.right")


def test_the_second_roll_step_waits_for_the_second_roll_and_a_led_place_offers_the_helpers_move(
    tmp_path: Path,
) -> None:
    source = HEAD + (
        '[[step]]\nroll = "2 6"\n[[step]]\nplace = true\nlead = true\n'
        '[[step]]\nsay = "Again."\nroll = "1 4"\n[[step]]\nplace = true\n[[step]]\nsay = "Well done."\n'
    )
    session = LessonSession(lesson_of(parse(source, "two.toml")))
    session.handle({"type": "roll"})
    session.catch_up()  # as a page's refresh does: the helper's move for the led round arrives
    assert session.step == 1 and session.lesson.scenario is not None and session.lesson.scenario.led == (1,)
    led = best_move(session.game.state, session.game.roll())
    assert session.legal_moves() == [led], "a led place offers the helper's move only"
    session.handle({"type": "box", **dict(zip(("caterpillar", "box"), _where(led.slot), strict=True))})
    assert session.step == 2 and not session.is_step_done(), "the second roll is not rolled yet"
    session.handle({"type": "roll"})
    assert session.step == 3 and session.game.roll().dice == (1, 4)
    assert len(session.legal_moves()) > 1, "an unled place offers every legal move"


def _where(slot: int) -> tuple[str, int]:
    from caterpillar_learn.caterpillars.sheet import describe_slot

    return describe_slot(slot)


def test_a_german_file_opens_a_german_page(tmp_path: Path) -> None:
    source = HEAD.replace("Mine", "Meins") + 'language = "de"\n[[step]]\nsay = "Tippe auf Würfeln."\nroll = "2 6"\n'
    board = CaterpillarsLesson(write(tmp_path, source))
    assert board.lang == "de" and board.strings["roll"] == "Würfeln"
    assert board.lesson["heading"] == "Meins" and board.lesson["body"] == "Tippe auf Würfeln."
    english = CaterpillarsLesson(write(tmp_path, source), lang="en")
    assert english.strings["roll"] == "Roll", "the teacher's lang= wins over the file's"


def test_a_file_lesson_comes_back_from_its_save(tmp_path: Path) -> None:
    path = write(tmp_path, first_lesson(), "doubles.toml")
    board = CaterpillarsLesson(path)
    for _ in range(3):
        follow_one(board, board.lesson["target"], random.Random(1))
    saved = board.session.save()
    assert saved["lesson"] == "doubles"
    back = CaterpillarsLesson(path)
    back.resume(saved)
    assert back.resume_status == "resumed" and back.step == board.step
    assert back.session.game.to_json() == board.session.game.to_json()


def test_a_file_the_engine_refuses_opens_no_board(tmp_path: Path) -> None:
    source = HEAD + '[[step]]\nroll = "2 6"\n[[step]]\nask = "zero"\n[[step]]\nroll = "9 9"\n'
    with pytest.raises(LessonFileError) as refused:
        CaterpillarsLesson(write(tmp_path, source))
    said = str(refused.value)
    assert "\n" not in said and said.startswith(str(tmp_path / "mine.toml") + " step 2: ")
    assert "(and 1 more: caterpillar-learn lesson check" in said
