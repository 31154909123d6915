"""Fair to a child in real time (issue 15): what the table does without a browser.

A card is judged against the pile the learner saw; a lesson deals only what it
has taught; its bots slip only once calling is taught; a call's three cards
come from the player who noticed, and a bot's call never hands over its last
cards (docs/RULES.md, "Mistake").
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import SETUPS, get_table
from caterpillar_learn.raupe import Play, State, legal_plays
from caterpillar_learn.raupe.cards import Card
from caterpillar_learn.raupe.referee import PENALTY_CARDS
from caterpillar_learn.ui.raupe import RaupeTable, RaupeWidget
from caterpillar_learn.ui.raupe.controller import TOO_LATE
from tests.raupe_ui.helpers import ready


def state(widget: RaupeWidget) -> State:
    return widget.session.game.state


def fits(s: State, card: Card, side: int) -> bool:
    return any(s.hands[0][o.card] == card and o.side == side for o in legal_plays(s, 0))


def a_late_tap(lesson: str = "10-raupe-shape") -> tuple[RaupeWidget, int, int, State]:
    """A moment just after a bot's card, with a card of the learner that fitted the pile before it and not now."""
    for seed in range(1, 80):
        widget = ready(lesson, seed=seed)
        widget.act("start")
        for _ in range(400):
            before = state(widget)
            widget.act("tick", dt=0.25)
            after = state(widget)
            if after.finished:
                break
            if len(after.pile) == len(before.pile) + 1 and after.last is not None and after.last.player != 0:
                for index, card in enumerate(after.hands[0]):
                    side = widget.hand[index]["side"]
                    if card.sides and fits(before, card, side) and not fits(after, card, side):
                        return widget, index, len(before.pile), after
    pytest.fail("no bot ever covered a card the learner could play")


def test_a_card_tapped_after_the_pile_changed_is_too_late_and_costs_nothing() -> None:
    widget, index, seen, after = a_late_tap()
    plays, hand = after.plays, len(after.hands[0])
    widget.act("play", index=index, seen=seen, since=1.2)  # the page still showed the pile before the bot's card
    assert widget.message == text("raupe_lessons.msg.too_late") == "Too late: the pile changed."
    assert state(widget).plays == plays and len(state(widget).hands[0]) == hand  # no card played, no mistake
    assert widget.session.tally["slips"] == 0


def test_a_card_tapped_within_half_a_second_of_the_change_is_too_late() -> None:
    widget, index, _, after = a_late_tap()
    widget.act("play", index=index, seen=len(after.pile), since=TOO_LATE / 2)
    assert widget.message == text("raupe_lessons.msg.too_late") and state(widget).plays == after.plays
    # The table's own clock says so too, when the page sends nothing.
    widget.act("play", index=index)
    assert widget.message == text("raupe_lessons.msg.too_late") and state(widget).plays == after.plays


def test_the_same_card_later_is_judged_as_any_card() -> None:
    widget, index, _, after = a_late_tap()
    widget.session.real += TOO_LATE  # half a second later, with no bot card in between
    card = after.hands[0][index]
    widget.act("play", index=index, seen=len(after.pile), since=TOO_LATE + 0.1)
    assert state(widget).plays == after.plays + 1 and state(widget).pile[-1].card == card
    assert state(widget).last is not None and state(widget).last.mistakes  # a slip now, seen and tapped


def test_a_card_that_still_fits_is_never_too_late() -> None:
    widget, _, seen, after = a_late_tap()
    option = legal_plays(after, 0)
    if not option:
        pytest.skip("no card fits the new pile in this deal")
    index = option[0].card
    if widget.hand[index]["side"] != option[0].side:
        widget.act("flip", index=index)
    widget.act("play", index=index, seen=seen, since=0.0)
    assert state(widget).plays == after.plays + 1 and not state(widget).last.mistakes  # type: ignore[union-attr]


def test_a_call_on_a_fine_card_that_just_arrived_is_too_late() -> None:
    widget = ready("14-raupe-spot-the-mistake", seed=3)
    widget.act("start")
    for _ in range(400):
        widget.act("tick", dt=0.25)
        last = state(widget).last
        if last is not None and last.player != 0 and not last.mistakes:
            break
    hands = [len(hand) for hand in state(widget).hands]
    widget.act("mistake", seen=len(state(widget).pile) - 1, since=2.0)
    assert widget.message == text("raupe_lessons.msg.too_late")
    assert [len(hand) for hand in state(widget).hands] == hands and state(widget).penalty is None


@pytest.mark.parametrize("seed", range(1, 21))
def test_lesson_twelve_deals_no_aphid_and_no_butterfly(seed: int) -> None:
    game = RaupeTable(get_table("12-raupe-change-card"), seed).game
    cards = [card for hand in game.state.hands for card in hand] + [placed.card for placed in game.state.pile]
    assert not any(side.aphid for card in cards for side in card.sides)
    assert not any(card.is_butterfly for card in cards)
    assert sum(card.is_change for card in cards) == game.players  # what lesson 12 teaches: one each


def bot_plays(lesson: str, seed: int, seconds: float = 240.0) -> list[dict[str, object]]:
    """The events of a game in which the learner only watches (and plays when the bots wait on them)."""
    widget = ready(lesson, seed=seed)
    widget.act("start")
    elapsed = 0.0
    while elapsed < seconds and not state(widget).finished:
        widget.act("tick", dt=0.5)
        elapsed += 0.5
        s = state(widget)
        if widget.session.pending is None and not s.finished and legal_plays(s, 0):
            option = legal_plays(s, 0)[0]
            card = s.hands[0][option.card]
            widget.session.submit(
                Play(
                    max(s.clock, widget.session.now),
                    0,
                    card,
                    option.side,
                    s.aphid_owed,
                    s.mode.other if card.is_change else s.mode if card.is_butterfly else None,
                )
            )
    return list(widget.table["record"]["events"])


@pytest.mark.parametrize(
    "lesson", ["10-raupe-shape", "11-raupe-colour", "12-raupe-change-card", "13-raupe-butterflies-and-aphids"]
)
def test_before_lesson_fourteen_the_bots_make_no_mistakes(lesson: str) -> None:
    for seed in range(1, 4):
        widget = ready(lesson, seed=seed)
        widget.act("start")
        for _ in range(600):
            if state(widget).finished:
                break
            widget.act("tick", dt=0.5)
            last = state(widget).last
            assert last is None or last.player == 0 or not last.mistakes, (lesson, seed)
            penalty = state(widget).penalty
            assert penalty is None or penalty.right, "a bot called a fine card"
    assert get_table(lesson).bot_level(get_table(lesson).level).error_rate == 0.0


def test_from_lesson_fourteen_on_the_bots_slip() -> None:
    slips = 0
    for seed in range(1, 4):
        widget = ready("14-raupe-spot-the-mistake", seed=seed)
        widget.act("start")
        for _ in range(400):
            if state(widget).finished:
                break
            widget.act("tick", dt=0.5)
            last = state(widget).last
            slips += last is not None and last.player != 0 and bool(last.mistakes)
    assert slips >= 3


def test_lesson_fourteen_plays_slowly_and_shows_the_card_below() -> None:
    gaps = []
    for seed in range(1, 6):
        widget = ready("14-raupe-spot-the-mistake", seed=seed)
        widget.act("start")
        times = []
        for _ in range(240):
            before = state(widget).plays
            widget.act("tick", dt=0.25)
            if state(widget).plays > before:
                times.append(widget.session.real)
            if len(state(widget).pile) > 1:
                assert widget.table["pile"]["below"].startswith("<svg")
        gaps += [b - a for a, b in itertools.pairwise(times)]
    assert gaps and sum(gaps) / len(gaps) >= 3.0, f"a bot card every {sum(gaps) / len(gaps):.1f} s"
    assert get_table("10-raupe-shape").show_below is False and ready("10-raupe-shape").table["pile"]["below"] == ""


def test_a_bot_with_three_cards_or_fewer_does_not_call() -> None:
    """Its call would give away its last cards and win on the spot: it keeps quiet (docs/RULES.md)."""
    table = RaupeTable(replace(get_table("15-raupe-race"), level="expert"), seed=4)
    table.start()
    s = table.game.state
    for seat in range(1, s.players):
        short = s.hands[seat][:PENALTY_CARDS]
        table.game.state = s = replace(s, hands=(*s.hands[:seat], short, *s.hands[seat + 1 :]))
    assert all(level is None or level.notice_chance == 0.0 for level in table.levels)
    full = RaupeTable(replace(get_table("15-raupe-race"), level="expert"), seed=4)
    assert all(level is None or level.notice_chance == 0.9 for level in full.levels)


def test_the_question_shows_its_answer_after_a_second_miss() -> None:
    widget = RaupeWidget("10-raupe-shape", seed=4)
    table = widget.session
    question = table.quiz.question
    assert question is not None and table.to_do() == "question"
    wrong = next(str(i) for i in range(len(widget.hand)) if str(i) not in question.correct)
    widget.act("answer", option=wrong)
    widget.act("check")
    assert widget.question["feedback"]["correct"] is False and table.to_do() == "question"
    widget.act("check")
    assert table.to_do() == f"card:{wrong}"  # shown: take the wrong card back first
    assert widget.table["now"] == text("raupe_lessons.now.show")
    widget.act("answer", option=wrong)
    for option in sorted(question.correct, key=int):
        assert table.to_do() == f"card:{option}"
        widget.act("play", index=int(option))  # a tap on the marked card
    assert table.to_do() == "check"
    widget.act("start")
    assert widget.message == text("lessons.question.answer_first")  # not before it is right
    widget.act("check")
    assert widget.question["feedback"]["correct"] is True and table.to_do() == "start"
    assert widget.record["answers"][0]["correct"] is False  # the first try is kept


@pytest.mark.parametrize("lesson", sorted(SETUPS))
def test_one_thing_to_do_and_the_steps_follow_the_game(lesson: str) -> None:
    widget = ready(lesson, seed=2)
    assert widget.table["todo"] == "start" and widget.table["progress"]["step"] == widget.table["progress"]["count"] - 2
    widget.act("start")
    seen = set()
    rng = random.Random(1)
    for _ in range(2000):
        if state(widget).finished:
            break
        todo = widget.table["todo"]
        seen.add(todo.partition(":")[0])
        assert widget.table["now"]
        kind, _, detail = todo.partition(":")
        if kind == "card":
            widget.act("play", index=int(detail), seen=len(state(widget).pile), since=1.0)
        elif kind == "flip":
            widget.act("flip", index=int(detail))
        elif kind == "call":
            widget.act("shout", word=detail)
        elif rng.random() < 0.3 and kind == "hand":
            options = legal_plays(state(widget), 0)
            if options and widget.hand[options[0].card]["side"] == options[0].side:
                widget.act("play", index=options[0].card, seen=len(state(widget).pile), since=1.0)
        widget.act("tick", dt=0.5)
    assert state(widget).finished, "the game did not end"
    progress = widget.table["progress"]
    assert widget.table["todo"] == "start" and progress["step"] == progress["count"]
    assert widget.table["now"] in (text("raupe_lessons.now.won"), text("raupe_lessons.now.over"))


def test_every_table_has_the_speed_control_and_the_learner_is_player_one() -> None:
    for name in SETUPS:
        widget = ready(name, seed=1)
        assert "speed" in widget.table["controls"] and widget.table["controls"]["speed_text"].startswith("×")
        assert widget.session.human == 0 and all(o["seat"] != 0 for o in widget.table["opponents"])
        assert widget.table["hand_title"] == text("raupe_lessons.ui.hand") and widget.hand
