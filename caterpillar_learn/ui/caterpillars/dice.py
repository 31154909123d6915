"""Where a session's dice come from, and who may roll them: a policy the session is given.

A :class:`~caterpillar_learn.ui.caterpillars.controller.Session` never
decides this itself; it asks its ``dice`` (a :class:`DiceSource`):

* :meth:`DiceSource.roll` answers the page's Roll button;
* :meth:`DiceSource.check_rolled` refuses, in one line, a move made before
  the dice are there;
* :meth:`DiceSource.catch_up` brings the session up to date with dice rolled
  elsewhere, before the session is drawn or plays an event.

:class:`OwnDice` is a lesson's: the learner rolls.  A classroom's pupil gets
the room's (:class:`caterpillar_learn.classroom.rooms.caterpillars.pupil.RoomDice`): the teacher
rolls, and the dice appear on every sheet.

>>> from caterpillar_learn.ui.caterpillars.controller import Session
>>> session = Session("beginner", seed=3, auto_setup=True)
>>> session.handle({"type": "box", "caterpillar": "Alex", "box": 0})
Traceback (most recent call last):
...
caterpillar_learn.ui.events.BadEventError: Roll the dice first.
>>> session.handle({"type": "roll"}); session.revealed
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from caterpillar_learn.i18n import text
from caterpillar_learn.ui.events import BadEventError

if TYPE_CHECKING:
    from caterpillar_learn.ui.caterpillars.controller import Session

__all__ = ["DiceSource", "OwnDice"]


class DiceSource(Protocol):
    """Where a session's dice come from and who may roll them."""

    def roll(self, session: Session) -> None:
        """The page's Roll button: show this turn's dice, or refuse in one line (:class:`BadEventError`)."""

    def check_rolled(self, session: Session) -> None:
        """Refuse in one line a move (or a die chosen, a hint asked) before this turn's dice are shown."""

    def catch_up(self, session: Session) -> None:
        """Bring ``session`` up to date with dice rolled elsewhere (nothing for a lesson's own dice)."""


class OwnDice:
    """A lesson's dice: the learner rolls them with the Roll button, once a turn."""

    def roll(self, session: Session) -> None:
        if session.game.phase == "over":
            raise BadEventError(text("lessons.msg.over"))
        if not session.revealed:
            session.revealed = True
            session.whatif = {}
            session.roll_count += 1
            session.progress.rolls += 1
            if session.game.phase == "setup":
                session.progress.setup_rolls += 1
            session.explanation = ""

    def check_rolled(self, session: Session) -> None:
        if session.game.phase == "over":
            raise BadEventError(text("lessons.msg.over"))
        if not session.revealed:
            raise BadEventError(text("lessons.msg.roll_first"))

    def catch_up(self, session: Session) -> None:
        return None
