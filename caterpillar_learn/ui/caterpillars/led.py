"""The rounds a lesson's guided game leads: the helper's move is the only one offered (a tutorial's scripted move).

A :class:`LedRounds` belongs to one :class:`~caterpillar_learn.ui.caterpillars.lesson.LessonSession`: it asks
the session's helper for the led round's move (at once on a page, from a worker in a classroom) and keeps it
for that round only.  No rules here: which rounds are led is the scenario's
(:func:`~caterpillar_learn.lessons.scenarios.is_led`), what is best the helper's.

>>> from caterpillar_learn.ui.caterpillars import LessonSession
>>> lesson = LessonSession("01-beginner")
>>> lesson.led.leads(), lesson.led.known()
(False, None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from caterpillar_learn.caterpillars import Move
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.scenarios import is_led
from caterpillar_learn.ui.caterpillars.advice import WAIT_SECONDS, helper_move
from caterpillar_learn.ui.caterpillars.controller import log

if TYPE_CHECKING:
    from caterpillar_learn.ui.caterpillars.lesson import LessonSession

__all__ = ["LedRounds"]


class LedRounds:
    """The led rounds of ``session``'s guided game, and the helper's move for the round on the board."""

    def __init__(self, session: LessonSession) -> None:
        self.session = session
        self._led: tuple[int, Move] | None = None  # (turn, the led move), once worked out

    def forget(self) -> None:
        """A new game: no round's move is known."""
        self._led = None

    def leads(self) -> bool:
        """Whether the round on the board is one the guided game leads (its dice revealed)."""
        session = self.session
        scenario = session.lesson.scenario
        return scenario is not None and session.games_made == 1 and session.revealed and is_led(scenario, session.game)

    def move(self) -> Move | None:
        """The one move the lesson offers this round, in a round its guided game leads (else ``None``).

        ``None`` too while the helper works it out elsewhere (:meth:`missing`): its arrival redraws.
        """
        if not self.leads():
            return None
        session = self.session
        if self.known() is None and "led" not in session.coming:
            game = session.game
            session.expect("led", session.helper.move(game.state, game.roll(), session.warmup), self._take)
        return self.known()

    def known(self) -> Move | None:
        """This round's led move if the helper has found it (asks nothing: :meth:`move` asks)."""
        if self._led is None or self._led[0] != len(self.session.game.history) or not self.leads():
            return None
        return self._led[1]

    def missing(self) -> bool:
        """Whether this round is led and its move is still on its way from the helper."""
        return self.leads() and self.known() is None

    def line(self) -> str:
        """The line about a led round: the helper's move is the one offered (or it is on its way)."""
        if self.missing():
            return text(self.session.helper.move_thinking)
        return text("lessons.guided.led") if self.known() is not None else ""

    def _take(self, move: Move | None) -> None:
        game = self.session.game
        if move is None:  # the helper failed elsewhere (said in one line): worked out here
            move = helper_move(game.state, game.roll())
        self._led = (len(game.history), move)

    def best_now(self) -> Move:
        """The helper's best move for this round, waited for (a question about the round needs it now)."""
        session = self.session
        game = session.game
        future = session.helper.move(game.state, game.roll(), session.warmup)
        try:
            return future.result(WAIT_SECONDS)
        except Exception:  # the lesson goes on: worked out here instead
            log.exception("%s: the helper's move failed", session.lesson.name)
            return helper_move(game.state, game.roll())
