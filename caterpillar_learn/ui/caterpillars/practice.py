"""The lesson's practice panel: a game's costliest moves, played again on the board (issue 33).

After a free game the lesson hands the game to :meth:`PracticePanel.after_game`;
the book (:class:`~caterpillar_learn.practice.Book`) takes in the game's
costliest moves and starts a practice with them and the positions due.
The game's end comes first: the practice is *offered* beside the end scene
(the flight, the score, the stars), and begins when the child taps it
(:meth:`PracticePanel.start`, issue 40).  While it runs, the board shows the position (the same sheet, the same dice)
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
>>> panel.offers(game), panel.is_active(game), panel.view(game)["status"]
(True, False, 'offered')
>>> panel.start()
>>> panel.is_active(game), panel.target()
(True, 'sheet')
>>> panel.play(panel.current.chosen)
>>> panel.said == text("practice.same")
True
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from caterpillar_learn.advice.child import child_hint
from caterpillar_learn.caterpillars import Game, Move, why_not
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import plural, text
from caterpillar_learn.practice import Book, Item, Mistake, PracticeError, game_key, judge
from caterpillar_learn.ui.caterpillars.advice import ADVICE_LOCK, Warmup, prepare
from caterpillar_learn.ui.events import BadEventError

__all__ = ["SHOW_AFTER", "BoxTries", "PracticePanel", "book_key", "worked_out"]

#: Misses after which the best move is shown as the thing to do.
SHOW_AFTER = 2


def book_key(lesson: str) -> str:
    """The page's ``localStorage`` key of a lesson's practice book (one per lesson, across seeds and days).

    >>> book_key("01-beginner")
    'caterpillar-learn.practice:01-beginner'
    """
    return f"caterpillar-learn.practice:{lesson}"


def worked_out(
    state: object, game: dict[str, Any], book: dict[str, Any], day: str
) -> tuple[dict[str, Any], dict[int, Mistake]]:
    """A finished game (its save) taken into ``book`` (its JSON) on ``day``, and the practice's positions worked out:
    what :meth:`PracticePanel.after_game` does, as a classroom worker's job (``state``: the layout it reads first).

    >>> from caterpillar_learn.caterpillars import Game
    >>> played = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=7)
    >>> while not played.is_over:
    ...     played.play(played.legal_moves()[-1])
    >>> empty = Book.empty("beginner").to_json()
    >>> book, worked = worked_out(played.state, played.to_json(), empty, "2026-12-05")
    >>> sorted(worked) == book["run"], book["games"]
    (True, 1)
    """
    game_now = Game.from_json(game)
    taken = Book.from_json(book, game_now.level).after_game(game_now, datetime.date.fromisoformat(day))
    return taken.to_json(), taken.worked_out()


class BoxTries:
    """A tap on a box of a position as a try, where only some moves are offered (the practice of one's own moves,
    a puzzle set): the box's one move is tried, several open its menu, none says why not (or, once the best is
    shown, to take it).  A class gives :meth:`offered` and :meth:`try_move`, and keeps ``menu_slot``, ``said``
    and ``misses``."""

    menu_slot: int | None
    said: str
    misses: int

    def offered(self) -> list[Move]:
        """The moves a tap may try now."""
        raise NotImplementedError

    def try_move(self, move: Move) -> None:
        """Try ``move``."""
        raise NotImplementedError

    def try_box(self, slot: int, board: Game) -> None:
        """A tap on the box ``slot`` of ``board``'s position."""
        moves = [move for move in self.offered() if move.slot == slot]
        if not moves:
            self.menu_slot = None
            shown = self.misses >= SHOW_AFTER
            self.said = text("practice.show") if shown else why_not(board.state, board.roll(), slot)
        elif len(moves) == 1:
            self.try_move(moves[0])
        else:
            self.menu_slot = slot

    def try_option(self, index: int) -> None:
        """The open menu's option ``index`` (of :meth:`offered`) is a try."""
        moves = self.offered()
        if not 0 <= index < len(moves) or (self.menu_slot is not None and moves[index].slot != self.menu_slot):
            raise BadEventError(describe("option index", index, "one of the options shown"))
        self.try_move(moves[index])


class PracticePanel(BoxTries):
    """One learner's practice in one lesson: the book, and the position on the board now."""

    def __init__(
        self,
        level: Level | str,
        *,
        today: Callable[[], datetime.date] = datetime.date.today,
        solve: Callable[[Level, Sequence[int | None]], Warmup | None] = prepare,
    ) -> None:
        self.level = Level.parse(level)
        self.today = today
        #: Starts the solve of a layout in the background (the session's helper's, :func:`.advice.prepare`).
        self.solve = solve
        self.book = Book.empty(self.level)
        #: The practice's positions worked out with their layouts' solves, by item id.
        self.worked: dict[int, Mistake] = {}
        #: The position being practised, worked out again by the engine (``None`` between positions).
        self.mistake: Mistake | None = None
        self.board: Game | None = None
        self.misses = 0
        self.answered = False
        self.said = ""
        self.menu_slot: int | None = None
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
        self._warmups = [w for w in (self.solve(self.level, item.position.labels) for item in soon[:5]) if w]

    def after_game(self, game: Game) -> None:
        """Take in a finished game: its costliest moves, and the practice that follows it (worked out here, with
        the layouts' solves; a classroom works it out in its workers and hands it to :meth:`take`)."""
        if not game.is_over:
            return
        with ADVICE_LOCK:
            book = self.book.after_game(game, self.today())
            worked = book.worked_out(self.worked) if book is not self.book else self.worked
        self.take(book, worked)

    def take(self, book: Book, worked: Mapping[int, Mistake]) -> None:
        """Adopt ``book`` (the one :meth:`after_game` makes) and its practice's positions worked out."""
        self.book, self.worked = book, {**self.worked, **worked}
        self._open()

    def follows(self, game: Game) -> bool:
        """Whether a practice follows ``game`` (offered, or under way)."""
        return self.book.current is not None and self.book.run_for == game_key(game)

    def offers(self, game: Game) -> bool:
        """Whether a practice follows ``game`` and waits for the child to begin it (the end scene stays)."""
        return self.follows(game) and not self.book.begun

    def is_active(self, game: Game) -> bool:
        """Whether a practice of ``game`` is under way (the board shows its position)."""
        return self.follows(game) and self.book.begun

    def start(self) -> None:
        """The child begins the practice offered after the game (the board shows its first position)."""
        if self.book.current is None:
            raise BadEventError(text("practice.done"))
        self.book = self.book.started()

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
        if item.id not in self.worked:  # a book read back from the page: its positions are worked out here
            with ADVICE_LOCK:
                self.worked = {**self.worked, **self.book.worked_out(self.worked)}
        self.mistake = self.worked[item.id]
        if self.mistake.idea != item.idea:  # a book names ideas; the engine's comparison decides
            self.book = self.book.renamed(item.id, self.mistake.idea)
        self.board = item.position.game()
        self._from_tries()

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
        if self.board is None or self.answered:
            raise BadEventError(text("practice.next_first") if self.answered else text("practice.done"))
        self.try_box(slot, self.board)

    def choose(self, index: int) -> None:
        """The menu's option ``index`` (of :meth:`legal`) is a try."""
        self.try_option(index)

    def offered(self) -> list[Move]:
        return self.legal()

    def try_move(self, move: Move) -> None:
        self.play(move)

    def play(self, move: Move) -> None:
        """A try at the current position: kept in the book (the first one sets when it comes back), and what
        the page shows worked out again from the book's tries."""
        item, mistake = self.current, self.mistake
        assert mistake is not None and self.board is not None
        if move not in self.legal():
            raise BadEventError(describe("practice move", repr(move), "a move offered on the board"))
        self.menu_slot = None
        book = self.book.tried(move)
        if len(book.tries) == 1:  # the first try decides: right, or back after the next game
            book = book.answered(item.id, right=judge(mistake, move).right, today=self.today())
        self.book = book
        self._from_tries()

    def _from_tries(self) -> None:
        """What the page shows of the current position, from the book's tries (the same after a reload):
        misses, the last try's line, and the answer once right (or once the shown move is tapped)."""
        self.misses, self.answered, self.said, self.written = 0, False, "", None
        mistake, board = self.mistake, self.board
        if mistake is None or board is None:
            return
        for move in self.book.tries:
            verdict = judge(mistake, move)  # what each move loses came with the mistake: no solver here
            if verdict.right or self.misses >= SHOW_AFTER:
                key = "practice.right" if self.misses < SHOW_AFTER else "practice.right_shown"
                self.answered, self.written = True, move
                self.said = text(key, why=child_hint(board.state, move))
                return
            self.misses += 1
            # After the second miss the shown box is the news (few words: the try's line gives way).
            shown = self.misses >= SHOW_AFTER
            self.said = text("practice.show") if shown else text("practice.same" if verdict.same else "practice.wrong")

    def next(self) -> None:
        """On to the next position, or the practice's end."""
        if not self.answered:
            raise BadEventError(text("practice.try_first"))
        self.book = self.book.next()
        self._open()

    def stop(self) -> None:
        """Leave the practice (what was not tried comes back after the next game)."""
        self.book = self.book.stopped()
        self._open()

    def new_game(self, left: Game) -> None:
        """A new game starts instead of ``left``: the practice that follows ``left`` is left, its last line goes.
        (A practice that follows another game, a later one, is a replayed lesson's future: it stays.)"""
        if self.follows(left):
            self.stop()
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
        """The one thing to do while practising: ``practice_next`` once answered, ``menu``, or ``sheet``
        (``practice_start`` while it is only offered)."""
        if self.book.current is not None and not self.book.begun:
            return "practice_start"
        if self.answered:
            return "practice_next"
        return "menu" if self.menu_slot is not None else "sheet"

    def view(self, game: Game) -> dict[str, Any]:
        """The panel's JSON (``{}`` when there is nothing to show after ``game``), all of it from the book, so
        that a reload shows the same."""
        book = self.book
        if not game.is_over or book.run_for != game_key(game):
            return {}
        fresh = any(item.game == book.run_for for item in book.items)  # the game had costly moves of its own
        if self.offers(game):  # the end scene first; the practice is the one thing offered beside it
            return {
                "status": "offered",
                "title": text("practice.title"),
                "said": plural("practice.offer", len(book.run) - book.at),
                "start": text("practice.start"),
            }
        if self.is_active(game):
            item = self.current
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
                "joy": "" if fresh or book.at else text("practice.none"),
            }
        if book.run:  # the practice after this game is done
            return {"status": "done", "title": text("practice.title"), "said": text("practice.done")}
        return {"status": "none", "title": text("practice.title"), "said": text("practice.none")}

    def stored(self, lesson: str) -> dict[str, Any]:
        """The book for the page's ``localStorage``: its key and its JSON."""
        return {"key": book_key(lesson), "data": self.book.to_json()}

    def copy_to(self, other: PracticePanel) -> None:
        """Hand this learner's book (and clock) to another panel of the same lesson (a lesson started again)."""
        other.book, other.today, other.worked = self.book, self.today, self.worked
        other._open()


def refused(error: PracticeError) -> str:
    """The line a refused book leaves in the log and on the page."""
    return text("practice.refused", why=str(error))
