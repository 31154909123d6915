"""A lesson's save and its resume (caterpillar_learn/ui/resume.py), in the widget logic.

A save taken after any action of a played lesson, sent through JSON (as the
page's localStorage keeps it) and resumed on a fresh widget, gives the same
lesson: step, sheet, dice, questions, record, explanation.  Every kind of
tampering is refused with one line naming the field, and the lesson then
starts fresh and says so.  (The same in Chromium, reloaded:
tests/browser/test_voila_resume.py.)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caterpillar_learn.i18n import language, text
from caterpillar_learn.lessons import SETUPS
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard, CaterpillarsLesson
from caterpillar_learn.ui.caterpillars.lesson import LessonSession
from caterpillar_learn.ui.lab import LabWidget
from caterpillar_learn.ui.raupe import RaupeWidget
from caterpillar_learn.ui.raupe.controller import RaupeTable
from caterpillar_learn.ui.resume import MAX_SAVED_EVENTS, SaveError, storage_key

from .test_lesson_follows import GAME_LESSONS, careless, do

MAX_ACTIONS = 600


def picture(board: CaterpillarsLesson) -> dict[str, Any]:
    """What the learner sees and what the lesson holds, comparable across two widgets.

    The sheet's pattern ids carry a per-widget uid, an answer's time is when
    it was checked (a replay checks it again), and ``message`` is why the
    last tap was refused (a refused tap is not kept): these are set aside.
    """
    session = board.session
    views = {name: getattr(board, name) for name in board.view_names if name not in ("saved", "strings", "message")}
    shown = json.loads(json.dumps(views).replace(session.uid, "UID"))
    for answer in shown["record"].get("answers", []):
        answer.pop("time")
    return {
        "views": shown,
        "step": session.step,
        "engine": session.game.to_json(),
        "progress": vars(session.progress),
        "quiz": (session.quiz.key, sorted(session.quiz.selected), session.quiz.wrong_tries, session.quiz.showing),
        "numbers": session.numbers,
        "lang": board.lang,
    }


def resumed(board: CaterpillarsLesson) -> CaterpillarsLesson:
    """A new page of the same lesson that hands back what the old page kept (through JSON, as localStorage): the
    practice book, then the lesson's place."""
    kept = json.loads(json.dumps(board.saved["data"]))
    page = CaterpillarsLesson(board.session.lesson.name, board.session.start_seed)
    if board.book:  # the practice book first, as the page hands it back (widgets/resume.js, keepBook)
        page.act("book", book=json.loads(json.dumps(board.book["data"])))
    page.act("resume", save=kept)
    return page


def play(name: str, actions: int, seed: int = 1) -> CaterpillarsLesson:
    """A lesson after ``actions`` marked things done (at most to its end)."""
    board, rng = CaterpillarsLesson(name), random.Random(seed)
    for _ in range(actions):
        if board.lesson["index"] == board.lesson["count"] - 1 and board.lesson["target"] == "new_game":
            break
        do(board, board.lesson["target"], rng)
    return board


def test_a_played_lesson_comes_back_after_every_action() -> None:
    """01-beginner played to its end and into a second game: after each action, the resume is the same lesson."""
    board, rng = CaterpillarsLesson("01-beginner"), random.Random(3)
    compared = 0
    for _ in range(MAX_ACTIONS):
        target = board.lesson["target"]
        if target == "new_game" and board.session.games_made > 1:
            break
        do(board, target, rng)
        back = resumed(board)
        assert back.saved["status"] == "resumed"
        assert picture(back) == picture(board), f"after {target} at step {board.step}"
        compared += 1
    assert board.session.games_made == 2 and compared > 40


@pytest.mark.parametrize("name", [name for name in GAME_LESSONS if name != "01-beginner"])
def test_every_lesson_comes_back_at_its_questions_and_its_end(name: str) -> None:
    """The other lessons: resumed as each question comes on screen, and at the end (each resume replays the whole
    lesson so far, the helper's answers included; every action of 01-beginner is the test above, every one of 00 here).
    """
    board, rng = CaterpillarsLesson(name), random.Random(5)
    session = board.session
    asked = {i for i, step in enumerate(session.lesson.steps) if step.question is not None}
    resumed_at = set()
    for _ in range(MAX_ACTIONS):
        target = board.lesson["target"]
        if board.lesson["index"] == board.lesson["count"] - 1 and target == "new_game":
            break
        do(board, target, rng)
        if (board.question and board.step not in resumed_at) or name == "00-setup":  # a new question (00: every tap)
            assert picture(resumed(board)) == picture(board), f"step {board.step}"
            resumed_at.add(board.step)
    assert picture(resumed(board)) == picture(board)
    assert asked <= resumed_at and len(resumed_at) >= min(3, len(session.lesson.steps))


def test_a_careless_child_comes_back_with_the_taps_that_were_refused_left_out() -> None:
    board = CaterpillarsLesson("01-beginner")
    careless(board, random.Random(11), 60)
    played = len(board.session.accepted)
    assert played < 60  # some taps were refused, and the save does not keep them
    assert picture(resumed(board)) == picture(board)


TAP = st.one_of(
    st.just({"type": "roll"}),
    st.builds(
        lambda n, b: {"type": "box", "caterpillar": n, "box": b},
        st.sampled_from(["Alex", "Bobby", "Charlie"]),
        st.integers(0, 3),
    ),
    st.builds(lambda d: {"type": "step", "delta": d}, st.sampled_from([1, -1])),
    st.builds(lambda i: {"type": "option", "index": i}, st.integers(0, 3)),
    st.builds(lambda o: {"type": "answer", "option": o}, st.sampled_from(["yes", "no", "Alex", "Bobby", "Charlie"])),
    st.sampled_from([{"type": "check"}, {"type": "close"}, {"type": "new_game"}, {"type": "numbers", "value": True}]),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TAP, max_size=40))
def test_any_taps_come_back_the_same(taps: list[dict[str, Any]]) -> None:
    """Whatever a learner taps (accepted or refused), the resume of the save is the same lesson."""
    board = CaterpillarsLesson("01-beginner")
    for tap in taps:
        board.act(tap["type"], **{key: value for key, value in tap.items() if key != "type"})
    assert picture(resumed(board)) == picture(board)


def test_the_page_keeps_the_save_under_the_lessons_name_and_seed() -> None:
    board = CaterpillarsLesson("00-setup", seed=9)
    assert board.saved["key"] == storage_key("caterpillars-lesson", "00-setup", 9)
    others = CaterpillarsLesson("00-setup").saved["key"], CaterpillarsLesson("01-beginner").saved["key"]
    assert board.saved["key"] not in others and others[0] != others[1]
    board.act("roll")
    assert board.saved["data"]["events"] == [{"type": "roll"}]  # without its seq
    assert board.saved["data"]["engine"] == board.session.game.to_json()


# -- tampering -------------------------------------------------------------------------------------------


def mid_game() -> dict[str, Any]:
    """A save of 01-beginner in the middle of its guided game (through JSON)."""
    board = play("01-beginner", 25)
    assert board.session.game.phase == "play" and board.step > 2
    return json.loads(json.dumps(board.saved["data"]))


def edited_score(save: dict[str, Any]) -> None:
    save["engine"]["choices"][-1]["score"] += 1


def illegal_move(save: dict[str, Any]) -> None:
    rolled = next(i for i, event in enumerate(save["events"]) if event["type"] == "roll")
    save["events"].insert(rolled + 1, {"type": "option", "index": 7})


def other_box(save: dict[str, Any]) -> None:
    """The last box tapped, moved to another caterpillar (the events no longer reach the saved game)."""
    last = [event for event in save["events"] if event["type"] == "box"][-1]
    names = ["Alex", "Bobby", "Charlie"]
    last["caterpillar"] = names[(names.index(last["caterpillar"]) + 1) % 3]


def other_dice(save: dict[str, Any]) -> None:
    """This turn's dice, not yet played, changed for others (dice a game could roll)."""
    dice = save["engine"]["rolls"][-1]["dice"]
    save["engine"]["rolls"][-1]["dice"] = [7 - value for value in dice] if dice != [7 - v for v in dice] else [1, 1]


Mutation = Callable[[dict[str, Any]], object]
TAMPERING: list[tuple[str, Mutation, str]] = [
    ("a wrong version", lambda s: s.update(format=2), "save format: got 2, expected 1"),
    ("another lesson", lambda s: s.update(lesson="02-intermediate"), "save lesson: got '02-intermediate'"),
    ("another seed", lambda s: s.update(seed=2), "save seed: got 2, expected 1"),
    ("an unknown field", lambda s: s.update(score=99), "save field: got 'score'"),
    ("another kind of save", lambda s: s.update(kind="raupe-table"), "save kind: got 'raupe-table'"),
    ("an edited score", edited_score, "save engine: choices["),
    ("other dice this turn", other_dice, "save engine.rolls: got"),
    ("an edited random state", lambda s: s["engine"]["rng"][1].__setitem__(5, 7), "save engine.rng: got"),
    ("a move the dice do not allow", illegal_move, "save events["),
    ("another box tapped", other_box, "save engine."),
    (
        "an event the lesson does not know",
        lambda s: s["events"].insert(0, {"type": "fly"}),
        "save events[0]: event type",
    ),
    ("an event with its seq", lambda s: s["events"][0].update(seq=5), "save events[0]: got"),
    ("a page's own event", lambda s: s["events"].insert(0, {"type": "device", "touch": False}), "save events[0]"),
    ("events cut short", lambda s: s["events"].pop(), "save engine."),
    ("too many events", lambda s: s.update(events=[{"type": "close"}] * (MAX_SAVED_EVENTS + 1)), "save events: got"),
    ("no engine", lambda s: s.pop("engine"), "save engine: got None"),
]


@pytest.mark.parametrize(("mutate", "field"), [(m, f) for _, m, f in TAMPERING], ids=[t[0] for t in TAMPERING])
def test_a_tampered_save_is_refused_in_one_line_naming_the_field(
    mutate: Callable[[dict[str, Any]], object], field: str
) -> None:
    save = mid_game()
    mutate(save)
    with pytest.raises(SaveError) as refused:
        LessonSession.restore(save, lesson="01-beginner", seed=1)
    line = str(refused.value)
    assert line.startswith(field) and "\n" not in line and len(line) < 400, line


@pytest.mark.parametrize("kept", ["not json {", 42, None, [], {"format": 1}])
def test_what_is_not_a_save_is_refused_too(kept: object) -> None:
    with pytest.raises(SaveError, match=r"^save"):
        LessonSession("01-beginner").replay(kept)


@pytest.mark.parametrize(("mutate", "field"), [(m, f) for _, m, f in TAMPERING[:8]], ids=[t[0] for t in TAMPERING[:8]])
def test_a_page_with_a_tampered_save_starts_fresh_and_says_so(
    mutate: Callable[[dict[str, Any]], object], field: str
) -> None:
    save = mid_game()
    mutate(save)
    page = CaterpillarsLesson("01-beginner")
    fresh = picture(CaterpillarsLesson("01-beginner"))
    page.act("resume", save=save)
    assert page.saved["status"] == "refused" and page.saved["data"]["events"] == []
    assert page.strings["refused"] == text("ui.resume.refused") and page.message == ""
    assert picture(page) == fresh  # the lesson starts from its first step
    page.act("step", delta=1)  # and plays on; the note goes with the learner's first action
    assert page.step == 1 and page.saved["status"] == ""


def test_the_refusal_is_said_in_the_pages_language() -> None:
    page = CaterpillarsLesson("01-beginner", lang="de")
    page.act("resume", save="kaputt")
    assert page.saved["status"] == "refused"
    with language("de"):
        german = text("ui.resume.refused")
    assert page.strings["refused"] == german != text("ui.resume.refused")


# -- the page's side ------------------------------------------------------------------------------------


def test_the_language_and_the_grown_ups_switch_come_back() -> None:
    board = play("01-beginner", 12)
    board.act("numbers", value=True)
    board.act("language", value="de")
    back = resumed(board)
    assert back.lang == "de" and back.lesson["numbers"] is True
    assert picture(back) == picture(board)


def test_a_resume_after_the_learners_first_action_is_ignored() -> None:
    kept = mid_game()
    page = CaterpillarsLesson("01-beginner")
    page.act("step", delta=1)
    page.act("resume", save=kept)
    assert page.step == 1 and page.saved["status"] == "" and page.message == ""


def test_an_empty_save_resumes_without_a_note() -> None:
    page = CaterpillarsLesson("00-setup")
    page.act("resume", save=json.loads(json.dumps(CaterpillarsLesson("00-setup").saved["data"])))
    assert page.saved["status"] == "" and page.message == ""


def test_start_again_goes_back_to_the_first_step_and_clears_the_save() -> None:
    page = CaterpillarsLesson("01-beginner")
    page.act("resume", save=mid_game())
    assert page.saved["status"] == "resumed" and page.step > 2
    page.act("start_over")
    assert page.step == 0 and page.saved["data"]["events"] == [] and page.saved["status"] == ""
    assert picture(page) == picture(CaterpillarsLesson("01-beginner"))


def test_only_lessons_keep_a_save() -> None:
    assert CaterpillarsBoard("beginner", seed=1).saved == {}
    assert LabWidget("beginner", games=20, seed=1).saved == {}


# -- the answers' file ------------------------------------------------------------------------------------


def test_the_answers_file_is_named_by_nickname_lesson_and_date() -> None:
    board = play("01-beginner", 12)
    assert board.record["answers"] and board.record["nickname"] == "" and board.record["file"] == ""
    board.act("nickname", value=" Ada  Lovelace ")
    assert board.record["nickname"] == "Ada Lovelace"
    file = board.record["file"]
    assert file.startswith("Ada-Lovelace-01-beginner-20") and file.endswith("-answers.json")
    assert "nickname" not in json.dumps(board.saved["data"]["events"])  # the page's, not the lesson's
    assert resumed(board).record["nickname"] == ""  # a new page gives it again (it remembers it)


@pytest.mark.parametrize("typed", ["", "   ", "../../etc/passwd", "a" * 21, "<b>", 7, "---"])
def test_a_bad_nickname_is_one_line_and_changes_nothing(typed: object) -> None:
    board = play("01-beginner", 12)
    before = picture(board)
    board.act("nickname", value=typed)
    assert board.message.startswith("nickname: got ") and board.record["file"] == ""
    assert picture(board) == before


def test_the_raupe_record_carries_the_nickname_too() -> None:
    table = RaupeWidget("10-raupe-shape", seed=4)
    for option in sorted(table.session.quiz.question.correct):
        table.act("answer", option=option)
    table.act("check")
    table.act("nickname", value="Jörg")
    assert table.record["nickname"] == "Jörg" and table.record["file"].startswith("Jörg-10-raupe-shape-")


# -- Räuber Raupe: back at the step, with the same cards ------------------------------------------------

RAUPE_LESSONS = sorted(SETUPS)


def raupe_played(name: str, games: int = 1, speed: float | None = None) -> RaupeWidget:
    """A Räuber Raupe lesson: its question answered (wrong, then right), ``games`` games started, played a while."""
    table = RaupeWidget(name, seed=3)
    quiz = table.session.quiz
    if quiz.question is not None:
        table.act("play", index=0)  # a card tapped answers the question
        table.act("check")
        if not quiz.is_right:
            for option in sorted(set(quiz.selected) ^ set(quiz.question.correct)):
                table.act("answer", option=option)
            table.act("check")
    if speed is not None:
        table.act("speed", value=speed)
    for _ in range(games):
        table.act("start")
        while table.session.asking:  # a slip of the game before comes back first ("Does this one fit?")
            for option in sorted(table.session.quiz.question.correct):
                table.act("answer", option=option)
            table.act("check")
            if not table.session.asking:
                table.act("start")
        for _ in range(12):
            table.act("tick", dt=0.5)
        table.act("flip", index=0)
        table.act("play", index=0)
    return table


def raupe_resumed(table: RaupeWidget) -> RaupeWidget:
    kept = json.loads(json.dumps(table.saved["data"]))
    page = RaupeWidget(table.session.name, seed=3)
    page.act("resume", save=kept)
    return page


def answers(widget: RaupeWidget) -> list[dict[str, Any]]:
    return [{k: v for k, v in answer.items() if k != "time"} for answer in widget.session.quiz.answers]


@pytest.mark.parametrize("name", RAUPE_LESSONS)
def test_a_raupe_lesson_comes_back_at_its_step_with_the_same_cards_paused(name: str) -> None:
    table = raupe_played(name, games=2, speed=0.5)
    live = table.session
    assert live.game.to_json()["events"], "the game was played a while"
    page = raupe_resumed(table)
    back = page.session
    assert page.saved["status"] == "resumed" and page.saved["data"] == {**table.saved["data"]}
    assert back.games == live.games == 1 and back.speed == 0.5 and answers(page) == answers(table)
    assert back.game.to_json() == live.dealt  # the same game, dealt again
    assert back.started and back.paused and not back.game.to_json()["events"]
    page.act("tick", dt=0.5)
    assert page.saved["status"] == "resumed"  # a tick is the page's clock, not the learner
    page.act("pause")  # the learner plays on, and the note goes
    assert not back.paused and page.saved["status"] == ""


def test_a_raupe_save_before_the_game_keeps_the_question_answered() -> None:
    table = raupe_played("10-raupe-shape", games=0)
    page = raupe_resumed(table)
    assert answers(page) == answers(table) and page.session.quiz.is_right and not page.session.started
    assert page.session.to_do() == table.session.to_do() == "start"


RAUPE_TAMPERING: list[tuple[str, Mutation, str]] = [
    ("a card played in the game", lambda s: s["events"].append({"type": "play", "index": 0}), "save events["),
    ("another deal", lambda s: s["engine"].update(seed=s["engine"]["seed"] + 1), "save engine.seed"),
    ("a tick", lambda s: s["events"].append({"type": "tick", "dt": 1.0}), "save events["),
    ("another lesson", lambda s: s.update(lesson="11-raupe-colour"), "save lesson: got '11-raupe-colour'"),
    ("a Caterpillars save", lambda s: s.update(kind="caterpillars-lesson"), "save kind"),
    ("an unreadable deal", lambda s: s["engine"].update(players=9), "save engine: "),
]


@pytest.mark.parametrize(
    ("mutate", "field"), [(m, f) for _, m, f in RAUPE_TAMPERING], ids=[t[0] for t in RAUPE_TAMPERING]
)
def test_a_tampered_raupe_save_is_refused_and_the_table_starts_fresh(mutate: Mutation, field: str) -> None:
    table = raupe_played("10-raupe-shape")
    save = json.loads(json.dumps(table.saved["data"]))
    mutate(save)
    with pytest.raises(SaveError) as refused:
        RaupeTable.restore(save, lesson="10-raupe-shape")
    assert str(refused.value).startswith(field), str(refused.value)
    page = RaupeWidget("10-raupe-shape", seed=3)
    page.act("resume", save=save)
    assert page.saved["status"] == "refused" and page.saved["data"]["events"] == [] and not page.session.started


def test_a_surprise_while_resuming_keeps_the_lesson_on_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    page = CaterpillarsLesson("01-beginner")
    before = picture(page)

    def broken(self: LessonSession) -> LessonSession:
        raise RuntimeError("a surprise")

    monkeypatch.setattr(LessonSession, "fresh", broken)
    page.act("resume", save=mid_game())
    assert page.message == text("ui.internal") and picture(page) == before
