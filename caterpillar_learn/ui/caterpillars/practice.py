"""The lesson's practice panel: a game's costliest moves, played again on the board (issue 33).

After a free game the lesson hands the game to :meth:`PracticePanel.after_game`;
the book (:class:`~caterpillar_learn.practice.Book`) takes in the game's
costliest moves and starts a practice with them and the positions due.
While it runs, the board shows the position (the same sheet, the same dice)
and a tap on a box is a new try: right (:func:`~caterpillar_learn.practice.judge`),
and the child hears why in the helper's words; wrong, and the child tries
again; after two misses only the best move is offered, marked as the thing
to do.  The book is the page's to keep (``localStorage``): the event
``book`` hands it back when the page opens, checked by the engine.

No rules here: the engine says what is legal, the solver what is right.

>>> import datetime
>>> from caterpillar_learn.caterpillars import Game
>>> game = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=7)
>>> while not game.is_over:
...     game.play(game.legal_moves()[-1])
>>> panel = PracticePanel("beginner", today=lambda: datetime.date(2026, 12, 5))
>>> panel.after_game(game)
>>> panel.is_active(game), panel.target()
(True, 'sheet')
>>> panel.play(panel.current.chosen)
>>> panel.said == text("practice.same")
True
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from caterpillar_learn.advice.child import child_hint
from caterpillar_learn.caterpillars import Game, Move, why_not
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.practice import Book, Item, Mistake, PracticeError, game_key, judge, mistake_at
from caterpillar_learn.ui.base import BadEventError
from caterpillar_learn.ui.caterpillars.advice import ADVICE_LOCK, Warmup, prepare

__all__ = ["SHOW_AFTER", "PracticePanel", "book_key"]

#: Misses after which the best move is shown as the thing to do.
SHOW_AFTER = 2


def book_key(lesson: str) -> str:
    """The page's ``localStorage`` key of a lesson's practice book (one per lesson, across seeds and days).

    >>> book_key("01-beginner")
    'caterpillar-learn.practice:01-beginner'
    """
    return f"caterpillar-learn.practice:{lesson}"


class PracticePanel:
    """One learner's practice in one lesson: the book, and the position on the board now."""

    def __init__(self, level: Level | str, *, today: Callable[[], datetime.date] = datetime.date.today) -> None:
        self.level = Level.parse(level)
        self.today = today
        self.book = Book.empty(self.level)
        #: The position being practised, worked out again by the engine (``None`` between positions).
        self.mistake: Mistake | None = None
        self.board: Game | None = None
        self.misses = 0
        self.answered = False
        self.said = ""
        self.menu_slot: int | None = None
        #: Whether the last game taken in had nothing to practise (the joyful line).
        self.perfect = False
        #: Whether a practice has just ended (its last line stays until the next game).
        self.finished = False
        self._warmups: list[Warmup] = []

    # -- the book -----------------------------------------------------------------
    def load(self, data: object) -> None:
        """Adopt the book the page kept, or raise :class:`PracticeError` (one line) and keep this one."""
        book = Book.from_json(data, self.level)
        self.book = book
        self._open()
        self.warm()

    def warm(self) -> None:
        """Start solving the layouts of the positions the next practice brings (in the background)."""
        today = self.today()
        soon = [item for item in self.book.items if item.is_due(self.book.games + 1, today)]
        self._warmups = [w for w in (prepare(self.level, item.position.labels) for item in soon[:5]) if w is not None]

    def after_game(self, game: Game) -> None:
        """Take in a finished game: its costliest moves, and the practice that follows it."""
        if not game.is_over:
            return
        before = self.book
        with ADVICE_LOCK:
            self.book = self.book.after_game(game, self.today())
        if self.book is not before:
            self.perfect = self.book.next_id == before.next_id
            self.finished = False
        self._open()

    def is_active(self, game: Game) -> bool:
        """Whether a practice follows ``game`` now (the board shows its position)."""
        return self.book.current is not None and self.book.run_for == game_key(game)

    @property
    def current(self) -> Item:
        item = self.book.current
        if item is None:
            raise BadEventError(text("practice.done"))
        return item

    def _open(self) -> None:
        """Set the board to the practice's current position (the engine works out its best move again)."""
        self.misses, self.answered, self.said, self.menu_slot = 0, False, "", None
        #: The move that answered the position, written on the board once answered.
        self.written: Move | None = None
        item = self.book.current
        #: "Found in this game" or "back from an earlier one".
        self.prompt = "practice.found" if item is None or item.game == self.book.run_for else "practice.again"
        if item is None:
            self.mistake = self.board = None
            return
        with ADVICE_LOCK:
            self.mistake = mistake_at(item.position, item.chosen)
        if self.mistake.idea != item.idea:  # a book names ideas; the engine's comparison decides
            self.book = self.book.renamed(item.id, self.mistake.idea)
        self.board = item.position.game()

    # -- a try ------------------------------------------------------------------------
    def legal(self) -> list[Move]:
        """The moves offered now: every legal one, only the best after two misses, none once answered."""
        if self.board is None or self.mistake is None or self.answered:
            return []
        if self.misses >= SHOW_AFTER:
            return [self.mistake.best]
        return [move for move in self.board.legal_moves() if isinstance(move, Move)]

    def tap(self, slot: int) -> None:
        """A tap on a box: its one move is a try; several open the box's menu; none says why not."""
        moves = [move for move in self.legal() if move.slot == slot]
        if self.board is None or self.answered:
            raise BadEventError(text("practice.next_first") if self.answered else text("practice.done"))
        if not moves:
            self.menu_slot = None
            shown = self.misses >= SHOW_AFTER
            self.said = text("practice.show") if shown else why_not(self.board.state, self.board.roll(), slot)
        elif len(moves) == 1:
            self.play(moves[0])
        else:
            self.menu_slot = slot

    def choose(self, index: int) -> None:
        """The menu's option ``index`` (of :meth:`legal`) is a try."""
        moves = self.legal()
        if not 0 <= index < len(moves) or (self.menu_slot is not None and moves[index].slot != self.menu_slot):
            raise BadEventError(describe("option index", index, "one of the options shown"))
        self.play(moves[index])

    def play(self, move: Move) -> None:
        """A try at the current position: right, or tried again (after two misses the best is shown)."""
        item, mistake = self.current, self.mistake
        assert mistake is not None and self.board is not None
        if move not in self.legal():
            raise BadEventError(describe("practice move", repr(move), "a move offered on the board"))
        self.menu_slot = None
        with ADVICE_LOCK:
            verdict = judge(mistake, move)
            why = child_hint(self.board.state, move)
        if verdict.right or self.misses >= SHOW_AFTER:
            self.written = move
            if self.misses == 0:
                self.book = self.book.answered(item.id, right=True, today=self.today())
            self.answered = True
            self.said = text("practice.right" if self.misses < SHOW_AFTER else "practice.right_shown", why=why)
            return
        self.misses += 1
        if self.misses == 1:
            self.book = self.book.answered(item.id, right=False, today=self.today())
        # After the second miss the shown box is the news (few words: the try's line gives way).
        self.said = (
            text("practice.show")
            if self.misses >= SHOW_AFTER
            else text("practice.same" if verdict.same else "practice.wrong")
        )

    def next(self) -> None:
        """On to the next position, or the practice's end."""
        if not self.answered:
            raise BadEventError(text("practice.try_first"))
        self.book = self.book.next()
        self._open()
        if self.book.current is None:
            self.finished = True

    def stop(self) -> None:
        """Leave the practice (what was not tried comes back after the next game)."""
        self.book = self.book.stopped()
        self._open()
        self.finished = False

    def new_game(self, left: Game) -> None:
        """A new game starts instead of ``left``: the practice that follows ``left`` is left, its last line goes.
        (A practice that follows another game, a later one, is a replayed lesson's future: it stays.)"""
        if self.is_active(left):
            self.stop()
        self.perfect = self.finished = False
        self.warm()

    # -- what the page shows -------------------------------------------------------------
    def shown_board(self) -> Game | None:
        """The board to draw: the position, and once answered the position with the answer written in."""
        if self.board is None or self.written is None:
            return self.board
        item = self.current
        board = item.position.game()
        board.play(self.written)
        return board

    def target(self) -> str:
        """The one thing to do while practising: ``practice_next`` once answered, ``menu``, or ``sheet``."""
        if self.answered:
            return "practice_next"
        return "menu" if self.menu_slot is not None else "sheet"

    def view(self, game: Game) -> dict[str, Any]:
        """The panel's JSON (``{}`` when there is nothing to show after ``game``)."""
        if self.is_active(game):
            item = self.current
            book = self.book
            assert self.mistake is not None
            return {
                "status": "active",
                "title": text("practice.title"),
                "count": text("practice.count", number=book.at + 1, count=len(book.run)),
                # What came of the last try takes the prompt's place (few words on screen).
                "prompt": "" if self.said else text(self.prompt, round=item.position.round),
                "idea": text("practice.idea_line", idea=text(f"practice.idea.{self.mistake.idea}")),
                "said": self.said,
                "answered": self.answered,
                "right": self.answered and self.misses == 0,
                "next": text("practice.next"),
                "stop": text("practice.stop"),
                "joy": text("practice.none") if self.perfect and book.at == 0 else "",
            }
        if game.is_over and (self.finished or self.perfect):
            line = text("practice.done") if self.finished else text("practice.none")
            return {"status": "done" if self.finished else "none", "title": text("practice.title"), "said": line}
        return {}

    def stored(self, lesson: str) -> dict[str, Any]:
        """The book for the page's ``localStorage``: its key and its JSON."""
        return {"key": book_key(lesson), "data": self.book.to_json()}

    def copy_to(self, other: PracticePanel) -> None:
        """Hand this learner's book (and clock) to another panel of the same lesson (a lesson started again)."""
        other.book, other.today = self.book, self.today
        other._open()


def refused(error: PracticeError) -> str:
    """The line a refused book leaves in the log and on the page."""
    return text("practice.refused", why=str(error))
