"""A puzzle set on the board: five to ten puzzles on one idea, played as the practice of one's own moves is played.

A :class:`PuzzleSession` is a :class:`~caterpillar_learn.ui.caterpillars.controller.Session` whose board shows a
puzzle of a :class:`~caterpillar_learn.puzzles.sets.PuzzleSet` (issue 45) instead of a game: the puzzle's sheet and
dice, in the practice panel's view (``practice``, ``status: "active"``, drawn by ``widgets/caterpillars-panels.js``).
A tap on a box is a try; the first try of a puzzle is its answer, right if
:meth:`~caterpillar_learn.puzzles.bank.Puzzle.is_best` says so, and rates the child and the puzzle
(:meth:`PuzzleSet.answered <caterpillar_learn.puzzles.sets.PuzzleSet.answered>`).  As in the practice
(:mod:`.practice`), the child hears why in the helper's child words
(:func:`~caterpillar_learn.advice.child.child_hint`), tries again after a miss, and after
:data:`~.practice.SHOW_AFTER` misses only the best box is offered and marked.  *Next* brings the puzzle whose
difficulty is nearest the child's new rating for the idea; the end is a line of joy: how many were right at the
first try, and whether the idea is now mastered (:func:`~caterpillar_learn.puzzles.sets.puzzle_mastery`).

The child's ratings per idea (:class:`~caterpillar_learn.puzzles.rating.IdeaRatings`) are the page's to keep, as the
practice book is: the ``book`` view holds them under :func:`ratings_key`, the page writes them to its
``localStorage`` and hands them back as the event ``book`` when it opens; the engine reads them
(:meth:`IdeaRatings.from_json <caterpillar_learn.puzzles.rating.IdeaRatings.from_json>`) and a spoilt one is
refused in one line, the ratings starting afresh.  The puzzles' own ratings stay with the session.

No rules here: the engine says what is legal, the bank which move is best.

>>> session = PuzzleSession("beginner", "score_die", size=5)
>>> session.practice_view()["count"], session.todo_target()
('Puzzle 1 of 5', 'sheet')
>>> first = session.puzzle
>>> session.tap(first.best)
>>> session.answered, session.puzzles.right, session.todo_target()
(True, 1, 'practice_next')
>>> session.handle({"type": "practice_next"})
>>> session.puzzle.difficulty > first.difficulty
True
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

from caterpillar_learn.advice.child import child_hint
from caterpillar_learn.caterpillars import Game, Move
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.sheet import slot_of
from caterpillar_learn.errors import CaterpillarLearnError, describe, one_line
from caterpillar_learn.i18n import plural, text
from caterpillar_learn.puzzles.bank import Bank, Puzzle, load_bank
from caterpillar_learn.puzzles.rating import IdeaRatings, Rating
from caterpillar_learn.puzzles.sets import SET_SIZE, PuzzleSet, choose, puzzle_mastery
from caterpillar_learn.ui.caterpillars.controller import Session
from caterpillar_learn.ui.caterpillars.practice import SHOW_AFTER, BoxTries
from caterpillar_learn.ui.caterpillars.views import dice_view, legal_view, menu_view, sheet_view
from caterpillar_learn.ui.events import BadEventError, Handler, whole

__all__ = ["NEAREST", "PuzzleSession", "ratings_key"]

log = logging.getLogger("caterpillar_learn.ui")

#: With a seed, the next puzzle is drawn from this many of the nearest to the child's rating (without one, the
#: nearest: every child of the same ratings meets the same puzzles, a class in step).
NEAREST = 3


def ratings_key(level: Level | str) -> str:
    """The page's ``localStorage`` key of a child's puzzle ratings at ``level`` (a puzzle's difficulty is measured
    against its level's threshold, so each level's ratings are their own).

    >>> ratings_key("beginner")
    'caterpillar-learn.puzzles:beginner'
    """
    return f"caterpillar-learn.puzzles:{Level.parse(level).value}"


class PuzzleSession(Session, BoxTries):
    """One child's puzzle sets on ``idea`` at ``level``: the set under way, its puzzle on the board, the ratings.

    ``seed``: ``None`` gives the puzzle nearest the child's rating each time; a number draws among the
    :data:`NEAREST` nearest, the same draws for the same seed.
    """

    def __init__(
        self, level: Level | str = "beginner", idea: str = "score_die", *, size: int = SET_SIZE, seed: int | None = None
    ) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise CaterpillarLearnError(describe("seed", seed, "a whole number, or None"))
        self.bank: Bank = load_bank(level)
        self.bank.on(idea)  # an idea without puzzles at this level is refused here, naming it
        self.idea = idea
        self.draw_seed = seed
        #: The child's ratings per idea as the set began (the page's, once handed back).
        self.ratings = IdeaRatings()
        #: The puzzles' ratings the answers gave them (handed in again to choose by them; not the child's to keep).
        self.puzzle_ratings: dict[str, Rating] = {}
        #: The puzzles met in this session's earlier sets (the next set avoids them while the bank has others).
        self.met: frozenset[str] = frozenset()
        #: Whether the child has tried a box yet (the page's ratings are taken only before).
        self.tried = False
        self.puzzles = PuzzleSet.start(self.bank.level, idea, size=size)
        #: How many puzzles the board has shown (each one's dice tumble in: the dice's count).
        self.shown = 0
        self._begin()
        super().__init__(self.bank.level.value, 0, self.game.state.labels, numbers=False)
        self.roll_count = self.shown  # (the session's start counted no roll)

    # -- the set -------------------------------------------------------------------------------
    def _begin(self) -> None:
        """Start a set from :attr:`ratings`, avoiding :attr:`met`, and show its first puzzle."""
        on_idea = {puzzle.id for puzzle in self.bank.on(self.idea)}
        avoid = self.met & on_idea
        if len(on_idea - avoid) < self.puzzles.size:  # the bank has too few new ones left: all come back
            avoid = frozenset()
        self.puzzles = PuzzleSet.start(self.bank.level, self.idea, self.ratings, size=self.puzzles.size, avoid=avoid)
        #: How many puzzles this set brings (fewer than its size where the bank has fewer on the idea).
        self.total = min(self.puzzles.size, len(on_idea - avoid))
        self.rng = None if self.draw_seed is None else random.Random(self.draw_seed)
        self.done = False
        #: The puzzles of this set put on the board, and those answered (right, or the shown box tapped).
        self.number = self.finished = 0
        self._open(self._draw())

    def _draw(self) -> Puzzle | None:
        """The set's next puzzle: the nearest to the child's rating, or (with a seed) one of the nearest few."""
        nearest = self.puzzles.next_puzzle(self.bank, self.puzzle_ratings)
        if nearest is None or self.rng is None:
            return nearest
        near, seen = [nearest], set(self.puzzles.seen()) | {nearest.id}
        while len(near) < NEAREST:
            found = choose(self.bank.on(self.idea), self.puzzles.rating, seen, self.puzzle_ratings)
            if found is None:
                break
            near.append(found)
            seen.add(found.id)
        return self.rng.choice(near)

    def _open(self, puzzle: Puzzle | None) -> None:
        """Put ``puzzle`` on the board (or end the set if there is none)."""
        self.misses, self.answered, self.said, self.menu_slot = 0, False, "", None
        #: The move that answered the puzzle, written on the board once answered.
        self.written: Move | None = None
        if puzzle is None:
            self.done = True
            return
        self.puzzle = puzzle
        self.game = puzzle.position.game()
        self.number += 1
        self.shown += 1
        self.roll_count = self.shown  # new dice tumble in with each puzzle

    def make_game(self, seed: int) -> Game:
        """The board is the puzzle's position (the session's start shows it; no game is dealt)."""
        return self.puzzle.position.game()

    def solve_layout(self) -> None:
        """Nothing to solve: the bank knows each puzzle's best move."""

    def ratings_now(self) -> IdeaRatings:
        """The child's ratings with this set's answers in them (what the page keeps)."""
        return self.puzzles.ratings_after(self.ratings)

    # -- a try ---------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """The moves offered now: every legal one, only the best after two misses, none once answered."""
        if self.answered or self.done:
            return []
        if self.misses >= SHOW_AFTER:
            return [self.puzzle.best]
        return [move for move in self.game.legal_moves() if isinstance(move, Move)]

    def click_box(self, slot: int) -> None:
        """A tap on a box: its one move is a try; several open the box's menu; none says why not."""
        if self.done:
            raise BadEventError(text("practice.puzzles.more"))
        if self.answered:
            raise BadEventError(text("practice.next_first"))
        self.try_box(slot, self.game)

    def choose(self, index: int) -> None:
        """The menu's option ``index`` (of :meth:`legal_moves`) is a try."""
        self.try_option(index)

    def offered(self) -> list[Move]:
        return self.legal_moves()

    def try_move(self, move: Move) -> None:
        self.tap(move)

    def tap(self, move: Move) -> None:
        """A try at the puzzle on the board; the first one is the answer that rates the child and the puzzle."""
        if move not in self.legal_moves():
            raise BadEventError(describe("puzzle move", repr(move), "a move offered on the board"))
        puzzle, right = self.puzzle, self.puzzle.is_best(move)
        self.menu_slot, self.tried = None, True
        if self.misses == 0:  # the first try decides
            self.puzzles, after = self.puzzles.answered(
                puzzle, right=right, puzzle_rating=self.puzzle_ratings.get(puzzle.id)
            )
            self.puzzle_ratings[puzzle.id] = after
        if right or self.misses >= SHOW_AFTER:
            key = "practice.right" if self.misses < SHOW_AFTER else "practice.right_shown"
            self.answered, self.written = True, move
            self.finished += 1
            self.said = text(key, why=child_hint(self.game.state, move))
            return
        self.misses += 1
        # After the second miss the shown box is the news (few words: the try's line gives way).
        self.said = text("practice.show") if self.misses >= SHOW_AFTER else text("practice.wrong")

    def go_on(self) -> None:
        """*Next*: the next puzzle of the set, or its end."""
        if not self.answered:
            raise BadEventError(text("practice.try_first"))
        self._open(None if self.puzzles.is_done else self._draw())

    # -- events --------------------------------------------------------------------------------
    def handlers(self) -> dict[str, Handler]:
        """The events a puzzle board takes: a try (a box, a menu's option), *Next*, *Later*, *More puzzles*, the
        page's ratings, the grown-ups' numbers and the kind of screen."""
        return {
            "box": self.on_box, "option": self.on_option, "close": self.on_close,
            "practice_next": self.on_practice_next, "practice_stop": self.on_practice_stop,
            "new_game": self.on_new_game, "book": self.on_book, "numbers": self.on_numbers, "device": self.on_device,
        }  # fmt: skip

    def on_box(self, event: Mapping[str, Any]) -> None:
        self.click_box(slot_of(event.get("caterpillar"), event.get("box")))  # type: ignore[arg-type]

    def on_option(self, event: Mapping[str, Any]) -> None:
        self.choose(whole(event.get("index"), "option index"))

    def on_practice_next(self, event: Mapping[str, Any]) -> None:
        self.go_on()

    def on_practice_stop(self, event: Mapping[str, Any]) -> None:
        """*Later*: the set ends here (what was answered stays rated)."""
        if self.done:
            raise BadEventError(text("practice.puzzles.more"))
        self.menu_slot, self.done = None, True

    def on_new_game(self, event: Mapping[str, Any]) -> None:
        """*More puzzles*, once a set is over: a new set on the idea, from the ratings the last one left."""
        if not self.done:
            raise BadEventError(text("practice.puzzles.finish"))
        self.met |= self.puzzles.seen()
        self.ratings = self.ratings_now()
        self._begin()

    def on_book(self, event: Mapping[str, Any]) -> None:
        """The page's ratings (``localStorage``), handed back as it opens: checked by the engine, and the set
        begun again from them; spoilt ones are refused in one line and the ratings start afresh.  Once the child
        has tried a box the ratings here are newer than any page's, and a late one (a second view) is ignored."""
        if self.tried:
            log.info("puzzles: ratings handed back after the child's first try were ignored")
            return
        try:
            self.ratings = IdeaRatings.from_json(event.get("book"))
        except CaterpillarLearnError as error:
            why = one_line(str(error))
            log.warning("puzzles: the page's ratings were refused: %s", why)
            self.message = one_line(text("practice.puzzles.refused", why=why))
            self.ratings = IdeaRatings()
        self._begin()

    def on_numbers(self, event: Mapping[str, Any]) -> None:
        value = event.get("value")
        if not isinstance(value, bool):
            raise BadEventError(describe("numbers", value, "true or false"))
        self.numbers = value

    # -- what the page shows ---------------------------------------------------------------------
    def todo_target(self) -> str:
        """The one thing to do now, which the page marks: ``sheet``, ``menu``, ``practice_next`` once answered,
        ``new_game`` (*More puzzles*) once the set is over."""
        if self.done:
            return "new_game"
        if self.answered:
            return "practice_next"
        return "menu" if self.menu_slot is not None else "sheet"

    def shown_board(self) -> Game:
        """The board to draw: the puzzle, and once answered the puzzle with the answer written in."""
        if self.written is None:
            return self.game
        board = self.puzzle.position.game()
        board.play(self.written)
        return board

    def end_line(self) -> str:
        """The line of joy at the set's end: how many were right at the first try (or, if none, how many were
        solved with help), and whether the idea is learned now; if nothing was solved, come back later."""
        right = self.puzzles.right
        if not right and not self.finished:
            return text("practice.puzzles.later")
        if right:
            said = text("practice.puzzles.end", right=right, count=len(self.puzzles.answers))
        else:
            said = plural("practice.puzzles.helped", self.finished)
        mastered = puzzle_mastery(self.puzzles.rating) == "mastered"
        return said + " " + text("practice.puzzles.learned" if mastered else "practice.puzzles.keep_going")

    def practice_view(self) -> dict[str, Any]:
        """The practice panel's JSON for the puzzle on the board, or the set's end."""
        title = text("practice.puzzles.title")
        if self.done:  # the end's line is the stepper's, at the top beside the board (in view on a tablet)
            return {}
        idea = text("practice.idea_line", idea=text(f"practice.idea.{self.idea}"))
        return {
            "status": "active",
            "title": title,
            "count": text("practice.puzzles.count", number=self.number, count=self.total),
            # What came of the last try takes the prompt's place (few words on screen).
            "prompt": "" if self.said else text("practice.puzzles.prompt"),
            "idea": idea if self.numbers else "",  # the idea's name is for grown-ups
            "said": self.said,
            "answered": self.answered,
            "right": self.answered and self.misses == 0,
            "next": text("practice.next"),
            "stop": text("practice.stop"),
            "joy": "",
        }

    def grown_ups(self) -> dict[str, list[str]]:
        """The numbers for grown-ups: the puzzle's difficulty and margin, the child's rating for the idea."""
        rating = self.puzzles.rating
        known = rating if self.puzzles.answers or self.ratings.has(self.idea) else None
        state = text(f"practice.state.{puzzle_mastery(known)}")
        lines = [
            text("practice.puzzles.rating", rating=round(rating.rating), deviation=round(rating.deviation), state=state)
        ]
        if not self.done:
            puzzle = self.puzzle
            about = text("practice.puzzles.about", difficulty=round(puzzle.difficulty), margin=puzzle.margin)
            lines.insert(0, about)
        return {"help": lines, "teacher": []}

    def lesson_view(self) -> dict[str, Any]:
        """The stepper around the board: the idea as its title, a pip per puzzle, and the one thing to do."""
        level = text(f"caterpillars.level.{self.bank.level.value}")
        return {
            "name": "puzzles",
            "heading": text("practice.puzzles.heading", level=level),
            "title": text(f"practice.idea.{self.idea}"),
            # the panel says what to do (few words on screen); at the set's end, its line of joy, in view
            "body": self.end_line() if self.done else "",
            "index": self.finished,
            "count": self.total,
            "progress": text("practice.puzzles.count", number=self.number, count=self.total),
            "can_back": False,
            "can_next": False,
            "todo": "",
            "target": self.todo_target(),
            "waits": False,
            "no_hint": True,  # the child finds the box: no helper's Hint on a puzzle
            "new_game": self.done,
            "guide": "",
            "numbers": self.numbers,
            "grown_ups": self.grown_ups() if self.numbers else {},
            "quiet_talk": True,
            "rights": self.puzzles.right,
        }

    def views(self) -> dict[str, Any]:
        """Every view trait's JSON: the puzzle's sheet and dice, its offered moves, the panel, the ratings."""
        board = self.game
        legal = legal_view(board, self.legal_moves(), [])
        return {
            "sheet": sheet_view(self.shown_board(), legal, {}, self.uid),  # once answered, with the answer written in
            "dice": dice_view(board, revealed=True, count=self.roll_count, used=[], selected=None),
            "legal": legal,
            "menu": menu_view(self.menu_slot, legal),
            "hint": {}, "explanation": "", "final": {}, "review": {}, "whatif": {}, "question": {}, "record": {},
            "lesson": self.lesson_view(),
            "practice": self.practice_view(),
            "book": {"key": ratings_key(self.bank.level), "data": self.ratings_now().to_json()},
        }  # fmt: skip
