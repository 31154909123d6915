"""The child does the matching (issue 29): no card is marked as the one that fits until the learner has waited.

A lesson's table marks the hand as the thing to do.  After :data:`HINT_PAUSE`
real seconds without a change of the pile it says in words how to find a card
(the mode's hint); after twice as long it marks the card the hints would play.
When nothing in the hand fits, the pile is marked (the page never makes it
glow) and the line says to watch it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from caterpillar_learn.i18n import text
from caterpillar_learn.raupe import legal_plays
from caterpillar_learn.ui.raupe import seat
from caterpillar_learn.ui.raupe.seat import HINT_PAUSE
from tests.raupe_ui.helpers import ready


class Waited:
    """A lesson's real table, as if the learner had waited ``waited`` seconds since the pile changed."""

    def __init__(self, table: Any, waited: float) -> None:
        self._table, self.waited = table, waited

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)


@pytest.mark.parametrize("lesson", ["10-raupe-shape", "11-raupe-colour"])
def test_the_hand_first_then_words_then_one_card(lesson: str) -> None:
    widget = ready(lesson, seed=5)
    widget.act("start")
    table = widget.session
    assert legal_plays(table.game.state, 0), "this seed deals a fitting card"
    assert table.waited < HINT_PAUSE and table.to_do() == "hand"
    assert table.now_text("hand") == text("raupe_lessons.now.play")
    assert not any("fits" in card for card in widget.hand) and widget.table["todo"] == "hand"
    words = seat.now_text(Waited(table, HINT_PAUSE), "hand")
    assert words == text(f"raupe_lessons.now.hint_{table.game.state.mode.word}")
    assert seat.to_do(Waited(table, HINT_PAUSE)) == "hand"  # words first: nothing marked yet
    marked = seat.to_do(Waited(table, 2 * HINT_PAUSE))
    kind, _, detail = marked.partition(":")
    assert kind in ("card", "flip", "call"), marked
    if kind == "card":  # the card marked fits, as it lies
        assert any(o.card == int(detail) and o.side == table.faces[o.card] for o in legal_plays(table.game.state, 0))


def test_the_pile_is_watched_when_nothing_fits_and_the_race_never_hints() -> None:
    race = ready("15-raupe-race", seed=1)
    race.act("start")
    assert seat.to_do(Waited(race.session, 10 * HINT_PAUSE)) in ("hand", "pile")  # the race gives no hint
    widget = ready("10-raupe-shape", seed=5)
    widget.act("start")
    table = widget.session
    state = table.game.state
    unfit = [i for i in range(len(state.hands[0])) if not any(o.card == i for o in legal_plays(state, 0))]
    table.game.state = replace(state, hands=(tuple(state.hands[0][i] for i in unfit), *state.hands[1:]))
    assert not legal_plays(table.game.state, 0)
    assert seat.to_do(Waited(table, 3 * HINT_PAUSE)) == "pile"
    assert table.now_text("pile") == text("raupe_lessons.now.wait")
