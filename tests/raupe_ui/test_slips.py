"""Räuber Raupe, lightly (issue 33): the learner's slips of a game (a card that did not fit) come back before
the next game as "Does this one fit?" about that card on that leaf, with the questions' rules: a wrong answer
is tried again, after two the answer is shown for the learner to tap, and the game starts once it is right.
A reload in the middle deals the same game."""

from __future__ import annotations

import json

from caterpillar_learn.i18n import text
from caterpillar_learn.ui.quiz import QuestionView
from caterpillar_learn.ui.raupe import RaupeWidget
from caterpillar_learn.ui.raupe.controller import TOO_LATE
from caterpillar_learn.ui.raupe.seat import to_do
from tests.raupe_ui.helpers import ready, slip
from tests.raupe_ui.test_table import state


def slipped(times: int, lesson: str = "10-raupe-shape") -> RaupeWidget:
    """A table whose learner played ``times`` cards that did not fit, then tapped Start for the next game."""
    widget = ready(lesson, seed=3)
    widget.act("start")
    for _ in range(times):
        slip(widget)  # a card that does not fit, put down in plain sight
        assert "slip" in widget.table and not widget.message.startswith("You put")  # shown as wrong at once
    widget.act("start")  # the next game: dealt, and first the slips
    return widget


def test_a_slip_comes_back_as_does_this_one_fit() -> None:
    widget = slipped(1)
    table = widget.session
    assert not table.started and table.games == 1
    question = widget.question
    assert question["kind"] == "slip" and question["text"] == text("raupe_lessons.question.fit")
    assert 'data-leaf="' in question["picture"] and question["picture"].count("<svg") == 2
    assert "picture" in question and set(question) <= set(QuestionView.__annotations__)  # its TypedDict's fields
    assert to_do(table) == "question"
    widget.act("start")
    assert widget.message == text("lessons.question.answer_first") and not table.started
    widget.act("answer", option="yes")
    widget.act("check")
    assert widget.question["feedback"]["correct"] is False
    widget.act("answer", option="no")
    widget.act("check")
    assert widget.question["feedback"]["correct"] is True
    assert to_do(table) == "start"
    widget.act("start")
    assert table.started and table.games == 1


def test_two_misses_show_the_answer_and_two_slips_are_asked_in_turn() -> None:
    widget = slipped(3)
    table = widget.session
    assert len(table.questions.slips_asked) == 2  # one or two, the last ones
    for _ in range(2):
        widget.act("answer", option="yes")
        widget.act("check")
    assert to_do(table) == "answer:no"  # shown: the right button is the thing to tap
    assert widget.table["now"] == text("raupe_lessons.now.show_answer")  # a glowing answer, not a card (issue 40)
    widget.act("answer", option="no")
    assert to_do(table) == "check"
    widget.act("check")
    assert widget.question["kind"] == "slip" and len(table.questions.slips_asked) == 1  # the second slip
    assert to_do(table) == "question"
    widget.act("answer", option="no")
    widget.act("check")
    assert to_do(table) == "start"


def test_a_reload_after_the_slips_deals_the_same_game() -> None:
    widget = slipped(1)
    widget.act("answer", option="no")
    widget.act("check")
    widget.act("start")
    dealt = widget.session.dealt
    saved = json.loads(json.dumps(widget.saved["data"]))
    again = RaupeWidget("10-raupe-shape", seed=3)
    again.act("resume", save=saved)
    assert again.saved["status"] == "resumed", again.message
    assert again.session.dealt == dealt and again.session.games == 1


def test_no_slip_no_question() -> None:
    widget = ready("10-raupe-shape", seed=3)
    widget.act("start")
    widget.act("start")
    assert widget.session.started and widget.question.get("kind") != "slip"


def test_a_missed_aphid_comes_back_as_did_this_one_need_a_call() -> None:
    """The learner's card fitted, but the card below had an aphid and nobody shouted: "Did you need to call out?"
    (yes, and why: the rule in words)."""
    from caterpillar_learn.raupe import legal_plays
    from caterpillar_learn.raupe.hints import explain_mistake
    from caterpillar_learn.raupe.referee import Mistake

    widget = ready("13-raupe-butterflies-and-aphids", seed=3)
    table = widget.session
    widget.act("start")
    for _ in range(2000):  # the bots play until an aphid lies on top and one of the learner's cards fits on it
        s = state(widget)
        options = legal_plays(s, 0)
        if s.aphid_owed and options and not table.game.state.finished:
            break
        widget.act("tick", dt=0.25)
    else:
        raise AssertionError("no aphid came")
    while table.real - table.pile_changed < TOO_LATE:
        widget.act("tick", dt=0.1)
    s = state(widget)
    option = legal_plays(s, 0)[0]
    if widget.hand[option.card]["side"] != option.side:
        widget.act("flip", index=option.card)
    if s.hands[0][option.card].is_change:
        widget.act("shout", word=s.mode.other.word)  # the change called: only the aphid is missed
    widget.act("play", index=option.card, seen=len(s.pile), since=9.0)  # no "Aphid!"
    assert Mistake.MISSING_APHID in state(widget).last.mistakes
    widget.act("start")
    assert widget.question["text"] == text("raupe_lessons.question.call")
    widget.act("answer", option="yes")
    widget.act("check")
    assert widget.question["feedback"]["correct"] is True
    assert explain_mistake(Mistake.MISSING_APHID) in widget.question["feedback"]["text"]
