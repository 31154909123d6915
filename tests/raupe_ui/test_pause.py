"""The pause button of every Räuber Raupe lesson, without a browser.

While a game is paused its clock stands still (ticks are ignored, so the
bots wait), and the learner's cards, flips, shouts and calls are refused with
one line; the engine's state behind the widget is checked to be the very same
object before and after, so nothing slipped through.
"""

from __future__ import annotations

import pytest

from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import SETUPS
from caterpillar_learn.raupe import Game, legal_plays
from caterpillar_learn.ui.assets import widget_file
from caterpillar_learn.ui.raupe import RaupeWidget
from tests.raupe_ui.helpers import ready

PAUSED = text("raupe_lessons.msg.is_paused")


def started(lesson: str, seed: int = 5) -> RaupeWidget:
    widget = ready(lesson, seed=seed)
    widget.act("start")
    widget.act("tick", dt=0.5)
    return widget


@pytest.mark.parametrize("lesson", sorted(SETUPS))
def test_pause_stops_the_clock_and_the_bots_in_every_lesson(lesson: str) -> None:
    widget = started(lesson)
    table = widget.session
    assert widget.table["paused"] is False and widget.table["running"]
    widget.act("pause")
    assert widget.table["paused"] is True and widget.message == text("raupe_lessons.msg.paused")
    assert widget.log[0] == widget.message
    now, before = table.now, table.game.state
    due = table.pending
    assert due is not None  # a bot has an event waiting: only the clock holds it back
    for _ in range(4 * 60):  # a minute of ticks, longer than any bot waits
        widget.act("tick", dt=0.25)
    assert table.now == now and table.game.state is before and table.pending == due
    widget.act("pause")
    assert widget.table["paused"] is False and widget.message == text("raupe_lessons.msg.resumed")
    plays = before.plays
    for _ in range(4 * 60):
        widget.act("tick", dt=0.25)
        if table.game.state.plays > plays or table.game.state.finished:
            break
    assert table.now > now and table.game.state is not before  # the bots act again


@pytest.mark.parametrize("lesson", sorted(name for name, setup in SETUPS.items() if not setup.referee))
def test_the_learners_actions_are_refused_while_paused(lesson: str) -> None:
    widget = started(lesson, seed=9)
    table = widget.session
    widget.act("pause")
    before = table.game.state
    views = (dict(widget.table), list(widget.hand))
    fitting = legal_plays(before, 0)
    index = fitting[0].card if fitting else 0
    for kind, fields in (
        ("play", {"index": index}),
        ("flip", {"index": 0}),
        ("shout", {"word": "aphid"}),
        ("shout", {"word": "colour"}),
        ("mistake", {}),
    ):
        widget.act(kind, **fields)
        assert widget.message == PAUSED, kind
        assert table.game.state is before
        assert (widget.table, widget.hand) == views
    assert not table.armed_aphid and table.armed_mode is None
    widget.act("pause")
    if fitting:  # once resumed, the same card is taken
        option = fitting[0]
        if widget.hand[option.card]["side"] != option.side:
            widget.act("flip", index=option.card)
        if before.aphid_owed:
            widget.act("shout", word="aphid")
        if before.hands[0][option.card].is_change:
            widget.act("shout", word=before.mode.other.word)
        widget.act("play", index=option.card)
        assert widget.message != PAUSED and table.game.state is not before
    assert Game.from_json(widget.table["record"]).state == table.game.state


def test_the_referee_cannot_call_while_paused() -> None:
    widget = started("14-raupe-spot-the-mistake")
    widget.act("pause")
    widget.act("mistake")
    assert widget.message == PAUSED
    assert widget.session.tally == {"fits": 0, "slips": 0, "caught": 0, "right": 0, "wrong": 0, "missed": 0}


def test_pause_only_while_a_game_runs_and_a_new_game_starts_unpaused() -> None:
    widget = ready("15-raupe-race", seed=2)
    widget.act("pause")
    assert widget.message == text("raupe_lessons.msg.nothing_to_pause")
    assert widget.table["paused"] is False
    widget.act("start")
    widget.act("pause")
    widget.act("speed", value=2)  # the controls still answer while paused
    widget.act("level", value="expert")
    assert widget.table["controls"]["speed"] == 2.0 and widget.table["controls"]["level"] == "expert"
    assert widget.table["paused"] is True
    widget.act("start")  # New game
    assert widget.table["paused"] is False and widget.session.games == 1
    widget.act("tick", dt=0.5)
    assert widget.session.now == pytest.approx(1.0)


def test_a_finished_game_cannot_be_paused() -> None:
    widget = started("10-raupe-shape", seed=3)
    for _ in range(3000):  # the learner plays whatever fits, the bot plays too, until someone wins
        game = widget.session.game.state
        if game.finished:
            break
        options = legal_plays(game, 0) if game.follow_up in (None, 0) else []
        if options:
            option = options[0]
            if widget.hand[option.card]["side"] != option.side:
                widget.act("flip", index=option.card)
            if game.aphid_owed:
                widget.act("shout", word="aphid")
            if game.hands[0][option.card].is_change:
                widget.act("shout", word=game.mode.other.word)
            widget.act("play", index=option.card)
        widget.act("tick", dt=0.5)
    assert widget.table["finished"] and widget.table["running"] is False
    widget.act("pause")
    assert widget.message == text("raupe_lessons.msg.nothing_to_pause") and widget.table["paused"] is False


def test_the_button_is_in_the_front_ends_words_and_shows_its_key() -> None:
    # The button itself (data-testid raupe-pause, aria-pressed, the p key) is tried in tests/browser/test_raupe.py.
    strings = RaupeWidget().strings
    assert strings["pause"] == text("raupe_lessons.ui.pause")
    source = widget_file("raupe.js").read_text(encoding="utf-8")
    assert 'p: ["pause", null]' in source  # the key does it ...
    assert 'pause: "p"' in source and "keyed(pause, " in source  # ... and the button shows it (not the keys line)
