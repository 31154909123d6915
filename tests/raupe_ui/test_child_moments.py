"""Three of a child's moments at lessons 10 and 11 (issue 40), through the widget's events, the clock driven by ticks.

* **Help follows the child, not the pile.**  The hint's words come after
  :data:`HINT_PAUSE` real seconds in which the child did nothing, and a
  fitting card is marked after twice as long, however often the bots played
  meanwhile; the child's own action (a flip) starts the wait again, and so
  does a card fitting again after a spell where none did.
* **A wrong card is shown as wrong at once**: the child's line says so (not
  the good card's sentence) and the table's view holds the card beside the
  leaf it went on, each with its shape and colour in words.  A tap just after
  the child's own card is not "too late".
* **The voice says less**: a bot's move is shown in the line and marked
  ``quiet`` (not read aloud) in lessons 10 and 11, not at lesson 12.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from caterpillar_learn.i18n import language, text
from caterpillar_learn.raupe import Mistake, Play, legal_plays
from caterpillar_learn.raupe.hints import trait_name
from caterpillar_learn.ui.raupe import RaupeWidget
from caterpillar_learn.ui.raupe.controller import TOO_LATE
from caterpillar_learn.ui.raupe.seat import HINT_PAUSE
from caterpillar_learn.ui.raupe.views import slip_text
from tests.raupe_ui.helpers import ready
from tests.raupe_ui.test_table import state, tick_until, wrong_side

TICK = 0.25
FIRST = ("10-raupe-shape", "11-raupe-colour")


def bot_cards(widget: RaupeWidget) -> int:
    return sum(isinstance(event, Play) and event.player != 0 for event in widget.session.game.events)


def watch_an_idle_child(widget: RaupeWidget, seconds: float) -> list[tuple[float, str, str, bool]]:
    """Tick ``seconds`` with the child doing nothing; at each tick: the child's idle seconds as this test counts
    them (since Start, or since a card fitted again after none did), the thing to do, the line, whether a card
    fits."""
    seen, idle, could = [], 0.0, bool(legal_plays(state(widget), 0))
    for _ in range(int(seconds / TICK)):
        widget.act("tick", dt=TICK)
        idle += TICK
        can = bool(legal_plays(state(widget), 0))
        if can and not could:
            idle = 0.0
        could = can
        if state(widget).finished:
            break
        seen.append((idle, widget.table["todo"], widget.table["now"], can))
    return seen


@pytest.mark.parametrize("lesson", FIRST)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_words_come_after_eight_idle_seconds_and_a_card_glows_after_sixteen_whatever_the_bots_do(
    lesson: str, seed: int
) -> None:
    widget = ready(lesson, seed=seed)
    widget.act("start")
    seen = watch_an_idle_child(widget, 24.0)
    assert bot_cards(widget) >= 3, "the bots played while the child sat still"
    words = text(f"raupe_lessons.now.hint_{state(widget).mode.word}")
    glowed = hinted = 0
    for idle, todo, now, can in seen:
        if not can:
            assert todo == "pile"
            continue
        kind = todo.partition(":")[0]
        if idle < HINT_PAUSE:
            assert todo == "hand" and now == text("raupe_lessons.now.play"), (idle, todo, now)
        elif idle < 2 * HINT_PAUSE:
            assert todo == "hand" and now == words, (idle, todo, now)
            hinted += 1
        else:
            assert kind in ("card", "flip"), (idle, todo)
            glowed += 1
    assert hinted and glowed, f"the child was never idle long enough with a card that fits: {seen[-1]}"


def test_the_childs_own_flip_starts_the_wait_again() -> None:
    widget = ready("10-raupe-shape", seed=1)
    widget.act("start")
    tick_until(widget, lambda w: w.session.waited >= 2 * HINT_PAUSE and bool(legal_plays(state(w), 0)))
    assert widget.table["todo"].partition(":")[0] in ("card", "flip")
    flippable = next(i for i, card in enumerate(state(widget).hands[0]) if card.sides)
    widget.act("flip", index=flippable)
    assert widget.session.waited == 0.0 and widget.table["todo"] in ("hand", "pile")
    if widget.table["todo"] == "hand":
        assert widget.table["now"] == text("raupe_lessons.now.play")


def test_a_child_who_was_rightly_watching_is_not_hinted_at_once() -> None:
    widget = ready("10-raupe-shape", seed=11)
    widget.act("start")
    table = widget.session
    s = state(widget)
    unfit = [i for i in range(len(s.hands[0])) if not any(o.card == i for o in legal_plays(s, 0))]
    table.game.state = replace(s, hands=(tuple(s.hands[0][i] for i in unfit), *s.hands[1:]))
    table.faces = [table.faces[i] for i in unfit]
    table.could_play = False  # nothing in the hand fits now: the child watches the pile
    widget.refresh()
    assert widget.table["todo"] == "pile"
    tick_until(widget, lambda w: bool(legal_plays(state(w), 0)))
    assert table.real > HINT_PAUSE, "this seed's spell of watching is longer than the words' pause"
    assert widget.table["todo"] == "hand" and widget.table["now"] == text("raupe_lessons.now.play")
    assert table.waited == 0.0


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_wrong_card_is_shown_wrong_at_once_beside_its_leaf(lang: str) -> None:
    widget = ready("10-raupe-shape", seed=3)
    widget.act("language", value=lang)
    widget.act("start")
    tick_until(widget, lambda w: w.session.real >= 1.0)
    s = state(widget)
    index, side = wrong_side(s)
    if widget.hand[index]["side"] != side:
        widget.act("flip", index=index)
    face, leaf = s.hands[0][index].sides[side], s.pile[-1].face
    assert leaf is not None
    widget.act("play", index=index, seen=len(s.pile), since=9.0)
    assert Mistake.WRONG_CARD in state(widget).last.mistakes  # type: ignore[union-attr]
    slip = widget.table["slip"]
    with language(lang):
        said = slip_text(face, leaf)
        mine = [trait_name(face.shape.value), trait_name(face.colour.value)]
        theirs = [trait_name(leaf.leaf_shape.value), trait_name(leaf.leaf_colour.value)]
        good = text("raupe_lessons.msg.you_played", words="").split("{")[0].strip()
        short = text(f"raupe_lessons.slip.not_{s.mode.word}")
    assert widget.message == short and not widget.message.startswith(good)
    assert slip["card"].startswith("<svg") and slip["leaf"].startswith("<svg") and slip["said"] == said
    assert all(word in slip["card_text"] for word in mine) and all(word in slip["leaf_text"] for word in theirs)
    assert widget.table["quiet"] is False  # the child's own move is said aloud
    # While the card may be called (a bot's call meanwhile leaves the picture in sight); the next card takes it.
    played = state(widget).plays
    tick_until(widget, lambda w: state(w).penalty is not None or state(w).plays > played)
    if state(widget).penalty is not None:
        with language(lang):
            caught = text("raupe_lessons.call.caught_you_shown", player=2, count=3)
        assert "slip" in widget.table and widget.message == caught  # the why is the picture, still in sight
    tick_until(widget, lambda w: state(w).plays > played)
    assert "slip" not in widget.table


def test_a_tap_just_after_the_childs_own_card_is_not_too_late() -> None:
    widget = ready("10-raupe-shape", seed=5)
    widget.act("start")
    tick_until(widget, lambda w: w.session.real - w.session.others_changed >= TOO_LATE + 0.5)
    s = state(widget)
    drawn = len(s.pile)
    option = legal_plays(s, 0)[0]
    if widget.hand[option.card]["side"] != option.side:
        widget.act("flip", index=option.card)
    widget.act("play", index=option.card, seen=drawn, since=3.0)
    assert state(widget).last.player == 0  # type: ignore[union-attr]
    # At once, the page still showing the pile before the child's card: the second card is judged, not refused.
    widget.act("play", index=0, seen=drawn, since=3.1)
    assert widget.message != text("raupe_lessons.msg.too_late")
    assert len(state(widget).pile) == drawn + 2 and state(widget).last.player == 0  # type: ignore[union-attr]


@pytest.mark.parametrize(("lesson", "quiet"), [("10-raupe-shape", True), ("11-raupe-colour", True),
                                                ("12-raupe-change-card", False)])  # fmt: skip
def test_a_bots_move_is_shown_and_not_spoken_in_the_first_lessons(lesson: str, quiet: bool) -> None:
    widget = ready(lesson, seed=2)
    widget.act("start")
    assert widget.table["quiet"] is False  # "Go!" is said
    tick_until(widget, lambda w: bot_cards(w) > 0)
    assert widget.message.startswith(text("raupe_lessons.msg.played", player=2, words="")[:8])
    assert widget.table["quiet"] is quiet
