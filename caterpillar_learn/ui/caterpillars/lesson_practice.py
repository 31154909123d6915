"""A lesson's practice of the learner's own costliest moves, beside its free games (issue 33).

A :class:`LessonPractice` joins a :class:`~caterpillar_learn.ui.caterpillars.lesson.LessonSession` to its
:class:`~caterpillar_learn.ui.caterpillars.practice.PracticePanel`: a finished free game goes to the helper
(at once on a page, to a worker in a classroom), the practice is offered beside the game's end, a tap on the
board while practising is a try, and the page's book comes back as the page opens.  While it runs the board
shows the practice's position instead of the game.

>>> from caterpillar_learn.ui.caterpillars import LessonSession
>>> lesson = LessonSession("01-beginner")
>>> lesson.practice_part is not None, lesson.practising
(True, False)
>>> LessonSession("00-setup").practice_part is None  # a lesson of labels only: no free game to practise
True
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from caterpillar_learn.caterpillars.sheet import slot_of
from caterpillar_learn.errors import CaterpillarLearnError, one_line
from caterpillar_learn.i18n import text
from caterpillar_learn.practice import Book, Mistake, game_key
from caterpillar_learn.ui.caterpillars.controller import log
from caterpillar_learn.ui.caterpillars.practice import PracticePanel, worked_out
from caterpillar_learn.ui.caterpillars.views import dice_view, legal_view, menu_view, sheet_view
from caterpillar_learn.ui.events import BadEventError, event_type, handler, whole

if TYPE_CHECKING:
    from caterpillar_learn.ui.caterpillars.lesson import LessonSession

__all__ = ["PRACTICE_EVENTS", "LessonPractice", "no_practice"]

#: The events of a practice under way: the book keeps what they did, so a save does not keep them.
PRACTICE_EVENTS = frozenset({"box", "option", "close", "practice_start", "practice_next", "practice_stop"})


def no_practice(event: Mapping[str, Any]) -> None:
    """A practice's event in a lesson without practice (its setup, the lab): refused in the child's words."""
    raise BadEventError(text("practice.done"))


class LessonPractice:
    """``session``'s practice, kept by ``panel``."""

    def __init__(self, session: LessonSession, panel: PracticePanel) -> None:
        self.session = session
        self.panel = panel

    @property
    def active(self) -> bool:
        """Whether a practice is under way (the board shows its position)."""
        return self.panel.is_active(self.session.game)

    def offered(self) -> bool:
        """Whether the finished game's practice is offered beside its end (the one thing to do then)."""
        return self.panel.offers(self.session.game)

    def takes(self, kind: str) -> bool:
        """Whether an event of ``kind`` is the practice's: a try on its board, or one of its buttons."""
        return kind in PRACTICE_EVENTS and (self.active or kind.startswith("practice"))

    def handle(self, event: Mapping[str, Any]) -> None:
        """A practice event: a try on the board (a box, a menu's option), or on to the next position."""
        panel, session = self.panel, self.session
        session.message = ""
        kind = event_type(event, session.events)
        if not self.active and not (kind == "practice_start" and self.offered()):
            raise BadEventError(text("practice.done"))
        if kind == "box":
            panel.tap(slot_of(event.get("caterpillar"), event.get("box")))  # type: ignore[arg-type]
        elif kind == "option":
            panel.choose(whole(event.get("index"), "option index"))
        elif kind == "close":
            panel.menu_slot = None
        else:
            handler(event, session.handlers())(event)

    def on_book(self, event: Mapping[str, Any]) -> None:
        """The page's practice book (``localStorage``), handed back as the page opens: checked by the engine;
        a book that cannot be read is refused in one line and the practice starts again."""
        session = self.session
        try:
            self.panel.load(event.get("book"))
        except CaterpillarLearnError as error:
            log.warning("%s: a practice book was refused: %s", session.lesson.name, one_line(str(error)))
            session.message = text("practice.refused", why=one_line(str(error)))
        if session.free_game_over():
            self.panel.after_game(session.game)

    def game_over(self) -> None:
        """The finished free game goes to the practice, worked out by the helper (here at once, or elsewhere)."""
        session, panel = self.session, self.panel
        key = game_key(session.game)
        if key in panel.book.booked or "practice" in session.coming:
            return
        job = (session.game.to_json(), panel.book.to_json(), panel.today().isoformat())
        future = session.helper.work(worked_out, session.game.state, *job, urgent=False)
        session.expect("practice", future, partial(self._take, key), keep=True)

    def _take(self, key: str, found: tuple[dict[str, Any], dict[int, Mistake]] | None) -> None:
        panel = self.panel
        if found is None or key in panel.book.booked:
            return
        book, worked = found
        panel.take(Book.from_json(book, panel.level), worked)

    def views(self, views: dict[str, Any]) -> None:
        """The practice's part of the lesson's views: its panel, the page's book, and its board while it runs."""
        session, panel = self.session, self.panel
        views["practice"] = panel.view(session.game)
        if "practice" in session.coming:  # the finished game's practice, on its way from the helper
            thinking = text("lessons.ui.thinking")
            views["practice"] = {"status": "thinking", "title": text("practice.title"), "said": thinking}
        views["book"] = panel.stored(session.lesson.name)
        if self.active:
            self._board(views)

    def _board(self, views: dict[str, Any]) -> None:
        """The board while practising: the position's sheet and dice, its offered moves, no scoring."""
        panel, session = self.panel, self.session
        assert panel.board is not None
        board, shown = panel.board, panel.shown_board()
        assert shown is not None
        legal = legal_view(board, panel.legal(), [])
        views["sheet"] = sheet_view(shown, legal, {}, session.uid)  # once answered, with the answer written in
        views["dice"] = dice_view(board, revealed=True, count=session.roll_count, used=[], selected=None)
        views["legal"], views["menu"] = legal, menu_view(panel.menu_slot, legal)
        views["final"], views["review"], views["hint"], views["whatif"], views["explanation"] = {}, {}, {}, {}, ""
        # The practice panel says what to do: the free play's words wait (few words on screen, issue 29).
        views["lesson"] = {**views["lesson"], "new_game": False, "todo": "", "body": ""}
        if not session.numbers:  # the idea's name is for grown-ups
            views["practice"] = {**views["practice"], "idea": ""}
