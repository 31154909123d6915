"""The practice book: the positions a learner missed, when each comes back, and which ideas are mastered.

A book belongs to one lesson (one level) in one browser; it is plain JSON
that the page keeps beside the lesson's save and hands back when the page
opens.  Reading it back (:meth:`Book.from_json`) replays every position
through the engine and checks every field, so an edited book is refused in
one line (:class:`~caterpillar_learn.practice.mistakes.PracticeError`).

The schedule (:data:`GAPS`): a costly move is practised at once, after its
game; right at the first try, it comes back after the next game, then two
games later, then the next day, and after that it is learnt.  A miss (a
wrong first try) brings it back after the next game.  An idea is
*mastered* after right first tries on two different days; a miss of it
starts it again.

>>> import datetime
>>> from caterpillar_learn.caterpillars import Game
>>> game = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1], seed=7)
>>> while not game.is_over:
...     game.play(game.legal_moves()[-1])
>>> day = datetime.date(2026, 12, 5)
>>> book = Book.empty("beginner").after_game(game, day)
>>> len(book.run) > 0, book.games
(True, 1)
>>> first = book.item(book.run[0])
>>> book = book.answered(first.id, right=True, today=day)
>>> book.item(first.id).due_games, book.idea_state(first.idea)
(2, 'practising')
>>> Book.from_json(book.to_json(), "beginner") == book
True
>>> Book.from_json({**book.to_json(), "games": -1}, "beginner")
Traceback (most recent call last):
...
caterpillar_learn.practice.mistakes.PracticeError: book.games: got -1, expected a whole number from 0 to 100000
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from caterpillar_learn.caterpillars.dice import format_roll
from caterpillar_learn.caterpillars.errors import CaterpillarsError
from caterpillar_learn.caterpillars.game import Game, choice_from_json, choice_to_json
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.rules import Move, legal_moves
from caterpillar_learn.errors import describe
from caterpillar_learn.practice.ideas import IDEAS
from caterpillar_learn.practice.mistakes import Mistake, Position, PracticeError, costliest, mistake_at

#: The version of a book; any other is refused.
BOOK_FORMAT = 1
#: What each right first try earns: the gap before the position comes back (``games`` or ``days``).
GAPS: tuple[tuple[str, int], ...] = (("games", 1), ("games", 2), ("days", 1))
#: The most positions a book keeps (the newest), the most games it remembers, the most in one practice.
MOST_ITEMS, MOST_BOOKED, MOST_IN_RUN = 30, 50, 5
#: Right first tries on this many different days master an idea.
MASTERY_DAYS = 2
_MOST_GAMES = 100_000
_BOOK_KEYS = (
    "format", "level", "games", "booked", "next_id", "items", "ideas", "run", "at", "run_for", "tries", "begun",
)  # fmt: skip
#: The most tries kept at one position (two misses, then the shown move).
_MOST_TRIES = 3
_ITEM_KEYS = ("id", "position", "chosen", "idea", "step", "due_games", "due_day", "game")


@dataclass(frozen=True)
class Item:
    """One position to practise and when it comes back (``step``: how many right first tries so far)."""

    id: int
    position: Position
    chosen: Move
    idea: str
    step: int = 0
    due_games: int | None = None
    due_day: datetime.date | None = None
    #: The key of the game it was found in (:func:`game_key`).
    game: str = ""

    def is_due(self, games: int, today: datetime.date) -> bool:
        """Whether the item waits for practice after ``games`` games, on ``today``."""
        by_games = self.due_games is not None and games >= self.due_games
        return by_games or (self.due_day is not None and today >= self.due_day)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "position": self.position.to_json(),
            "chosen": choice_to_json(self.chosen),
            "idea": self.idea,
            "step": self.step,
            "due_games": self.due_games,
            "due_day": None if self.due_day is None else self.due_day.isoformat(),
            "game": self.game,
        }


@dataclass(frozen=True)
class IdeaRecord:
    """What a learner showed of one idea: the days of right first tries since the last miss, and the misses."""

    right_days: tuple[datetime.date, ...] = ()
    misses: int = 0


@dataclass(frozen=True)
class Book:
    """A learner's practice in one lesson (see the module)."""

    level: Level
    games: int = 0
    #: The games already taken into the book (a digest each), so that a replayed game is not taken twice.
    booked: tuple[str, ...] = ()
    next_id: int = 1
    items: tuple[Item, ...] = ()
    ideas: dict[str, IdeaRecord] = field(default_factory=dict)
    #: The practice under way: item ids in order, how many are done, and the game it follows (its key).
    run: tuple[int, ...] = ()
    at: int = 0
    run_for: str = ""
    #: The moves tried so far at the current position, in order.
    tries: tuple[Move, ...] = ()
    #: Whether the learner began the practice under way: until then it is offered beside the game's end (issue 40).
    begun: bool = False

    @classmethod
    def empty(cls, level: Level | str) -> Book:
        return cls(Level.parse(level))

    # -- reading ----------------------------------------------------------------
    def item(self, item_id: int) -> Item:
        found = next((item for item in self.items if item.id == item_id), None)
        if found is None:
            raise PracticeError(describe("practice item", item_id, "an item of the book"))
        return found

    @property
    def current(self) -> Item | None:
        """The item being practised now, if a practice is under way."""
        return self.item(self.run[self.at]) if self.at < len(self.run) else None

    def due(self, today: datetime.date) -> list[Item]:
        """The items waiting for practice now."""
        return [item for item in self.items if item.is_due(self.games, today)]

    def waiting(self, today: datetime.date) -> int:
        """How many positions the next practice brings: the rest of one under way, or those due after the next
        game (what a gallery card counts)."""
        left = len(self.run) - self.at
        return left + sum(1 for item in self.items if item.id not in self.run and item.is_due(self.games + 1, today))

    def idea_state(self, idea: str) -> str:
        """``new`` (never missed), ``practising`` or ``mastered``."""
        record = self.ideas.get(idea)
        if record is None:
            return "new"
        return "mastered" if len(set(record.right_days)) >= MASTERY_DAYS else "practising"

    # -- changing (each returns a new book) -------------------------------------------
    def worked_out(self, known: Mapping[int, Mistake] | None = None) -> dict[int, Mistake]:
        """Each item of the practice under way as a :class:`Mistake` worked out with its layout's solve (the
        best move, what every move loses); ``known`` ones are kept."""
        known = known or {}
        return {i: known[i] if i in known else mistake_at(self.item(i).position, self.item(i).chosen) for i in self.run}

    def after_game(self, game: Game, today: datetime.date) -> Book:
        """The book once ``game`` (over) is taken in: its costliest moves join, and the practice starts with
        them and the positions due.  A game already taken in changes nothing."""
        key = game_key(game)
        if key in self.booked or not game.is_over:
            return self
        return self.with_mistakes(costliest(game), key, today)

    def with_mistakes(self, found: list[Mistake], key: str, today: datetime.date) -> Book:
        """The book with a game's mistakes (``key`` names the game) and the practice that follows it (a practice
        left unfinished before, by a lesson started again, is left first: its untried positions come now)."""
        if self.run:
            return self.stopped().with_mistakes(found, key, today)
        games = self.games + 1
        fresh = [Item(self.next_id + i, m.position, m.chosen, m.idea, game=key) for i, m in enumerate(found)]
        ideas = dict(self.ideas)
        for item in fresh:
            ideas.setdefault(item.idea, IdeaRecord())
        due = [item.id for item in self.items if item.step <= len(GAPS) and item.is_due(games, today)]
        kept_items = tuple(item for item in self.items if item.step <= len(GAPS))  # the learnt ones go
        items = (*kept_items, *fresh)[-MOST_ITEMS:]
        kept = {item.id for item in items}
        run = tuple(i for i in (*[item.id for item in fresh], *due) if i in kept)[:MOST_IN_RUN]
        booked = (*self.booked, key)[-MOST_BOOKED:]
        return replace(self, games=games, booked=booked, next_id=self.next_id + len(fresh), items=items,
                       ideas=ideas, run=run, at=0, run_for=key, tries=(), begun=False)  # fmt: skip

    def answered(self, item_id: int, *, right: bool, today: datetime.date) -> Book:
        """The book after the learner's first try at item ``item_id``: its next gap (or learnt), and its idea's
        record."""
        item = self.item(item_id)
        record = self.ideas.get(item.idea, IdeaRecord())
        if right:
            record = replace(record, right_days=tuple(sorted({*record.right_days, today})))
            step = item.step + 1
        else:
            record = IdeaRecord((), record.misses + 1)
            step = 1
        items = list(self.items)
        index = items.index(item)
        if step > len(GAPS):  # learnt: never due again, and gone from the book after the next game
            items[index] = replace(item, step=step, due_games=None, due_day=None)
        else:
            unit, gap = GAPS[step - 1]
            due_games = self.games + gap if unit == "games" else None
            due_day = today + datetime.timedelta(days=gap) if unit == "days" else None
            items[index] = replace(item, step=step, due_games=due_games, due_day=due_day)
        return replace(self, items=tuple(items), ideas={**self.ideas, item.idea: record})

    def started(self) -> Book:
        """The practice under way, begun by the learner (it was offered beside the game's end)."""
        return replace(self, begun=True)

    def tried(self, move: Move) -> Book:
        """The book with ``move`` tried at the current position (what the page shows is worked out from them)."""
        return replace(self, tries=(*self.tries, move))

    def renamed(self, item_id: int, idea: str) -> Book:
        """The book with item ``item_id`` named by ``idea`` (the engine's, worked out again)."""
        items = tuple(replace(item, idea=idea) if item.id == item_id else item for item in self.items)
        ideas = dict(self.ideas)
        ideas.setdefault(idea, IdeaRecord())
        return replace(self, items=items, ideas=ideas)

    def next(self) -> Book:
        """The book with the practice moved on to its next position (or ended)."""
        return replace(self, at=min(self.at + 1, len(self.run)), tries=())

    def stopped(self) -> Book:
        """The book with the practice under way left: a position not tried yet comes back after the next game."""
        left = set(self.run[self.at :])
        items = tuple(
            replace(item, due_games=self.games + 1) if item.id in left and item.step == 0 else item
            for item in self.items
        )
        return replace(self, items=items, run=(), at=0, run_for="", tries=(), begun=False)

    # -- JSON -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": BOOK_FORMAT,
            "level": self.level.value,
            "games": self.games,
            "booked": list(self.booked),
            "next_id": self.next_id,
            "items": [item.to_json() for item in self.items],
            "ideas": {
                idea: {"right_days": [day.isoformat() for day in record.right_days], "misses": record.misses}
                for idea, record in sorted(self.ideas.items())
            },
            "run": list(self.run),
            "at": self.at,
            "run_for": self.run_for,
            "tries": [choice_to_json(move) for move in self.tries],
            "begun": self.begun,
        }

    @classmethod
    def from_json(cls, data: object, level: Level | str) -> Book:
        """The book ``data`` holds, each position replayed by the engine (or :class:`PracticeError`)."""
        level = Level.parse(level)
        if not isinstance(data, dict):
            raise PracticeError(describe("book", data, "a JSON object"))
        unknown = [key for key in data if key not in _BOOK_KEYS]
        if unknown:
            raise PracticeError(describe("book key", unknown[0], "only " + ", ".join(_BOOK_KEYS)))
        if data.get("format") != BOOK_FORMAT:
            raise PracticeError(describe("book.format", data.get("format"), str(BOOK_FORMAT)))
        if data.get("level") != level.value:
            raise PracticeError(describe("book.level", data.get("level"), repr(level.value)))
        games = _whole(data.get("games"), "book.games", 0, _MOST_GAMES)
        next_id = _whole(data.get("next_id"), "book.next_id", 1, 10**9)
        booked = _list(data.get("booked"), "book.booked", MOST_BOOKED)
        if not all(isinstance(key, str) and len(key) == 16 for key in booked):
            raise PracticeError(describe("book.booked", booked, "game digests of 16 letters"))
        raw_items = _list(data.get("items"), "book.items", MOST_ITEMS)
        items = tuple(_item(raw, level, f"book.items[{i}]", next_id) for i, raw in enumerate(raw_items))
        if len({item.id for item in items}) != len(items):
            raise PracticeError(describe("book.items", [item.id for item in items], "items with different ids"))
        ideas = _ideas(data.get("ideas"))
        ids = {item.id for item in items}
        run = _list(data.get("run"), "book.run", MOST_IN_RUN)
        if not all(isinstance(i, int) and not isinstance(i, bool) and i in ids for i in run):
            raise PracticeError(describe("book.run", run, "ids of the book's items"))
        at = _whole(data.get("at"), "book.at", 0, len(run))
        run_for = data.get("run_for")
        if run_for not in ("", *booked):
            raise PracticeError(describe("book.run_for", run_for, "one of the booked games, or ''"))
        begun = data.get("begun", bool(at))  # a book kept before issue 40: a practice past its first position is begun
        if not isinstance(begun, bool):
            raise PracticeError(describe("book.begun", begun, "true or false"))
        book = cls(level, games, tuple(booked), next_id, items, ideas, tuple(run), at, str(run_for))
        tries = _tries(data.get("tries"), book.current)
        return replace(book, tries=tries, begun=begun or bool(tries))


def game_key(game: Game) -> str:
    """A digest of a game's dice and moves: the same game played the same way has the same key."""
    turns = [[format_roll(turn.roll), choice_to_json(turn.choice)] for turn in game.history]
    record = json.dumps(turns, sort_keys=True)
    return hashlib.sha256(record.encode()).hexdigest()[:16]


def _whole(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PracticeError(describe(name, value, f"a whole number from {low} to {high}"))
    return value


def _list(value: object, name: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise PracticeError(describe(name, value, f"a list of at most {most}"))
    return value


def _day(value: object, name: str) -> datetime.date:
    try:
        if not isinstance(value, str):
            raise ValueError
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise PracticeError(describe(name, value, "a day written 2026-12-05")) from None


def _item(raw: object, level: Level, name: str, next_id: int) -> Item:
    if not isinstance(raw, dict) or set(raw) != set(_ITEM_KEYS):
        raise PracticeError(describe(name, raw, "an object {" + ", ".join(_ITEM_KEYS) + "}"))
    item_id = _whole(raw["id"], f"{name}.id", 1, next_id - 1)
    try:
        position = Position.from_json(raw["position"], level)
    except PracticeError as error:
        raise PracticeError(f"{name}.{error}") from None
    try:
        chosen = choice_from_json(raw["chosen"])
    except CaterpillarsError as error:
        raise PracticeError(f"{name}.chosen: {error}") from None
    if not isinstance(chosen, Move) or chosen not in legal_moves(position.state, position.roll):
        raise PracticeError(describe(f"{name}.chosen", raw["chosen"], "a legal move of its round"))
    if raw["idea"] not in IDEAS:
        raise PracticeError(describe(f"{name}.idea", raw["idea"], "one of " + ", ".join(IDEAS)))
    step = _whole(raw["step"], f"{name}.step", 0, len(GAPS) + 1)
    due_games = None if raw["due_games"] is None else _whole(raw["due_games"], f"{name}.due_games", 0, _MOST_GAMES)
    due_day = None if raw["due_day"] is None else _day(raw["due_day"], f"{name}.due_day")
    game = raw["game"]
    if not isinstance(game, str) or len(game) != 16 or any(c not in "0123456789abcdef" for c in game):
        raise PracticeError(describe(f"{name}.game", game, "a game digest of 16 letters"))
    return Item(item_id, position, chosen, raw["idea"], step, due_games, due_day, game)


def _tries(raw: object, current: Item | None) -> tuple[Move, ...]:
    tries = _list(raw, "book.tries", _MOST_TRIES)
    if tries and current is None:
        raise PracticeError(describe("book.tries", tries, "no tries without a practice under way"))
    moves = []
    for index, move in enumerate(tries):
        try:
            chosen = choice_from_json(move)
        except CaterpillarsError as error:
            raise PracticeError(f"book.tries[{index}]: {error}") from None
        assert current is not None
        if not isinstance(chosen, Move) or chosen not in legal_moves(current.position.state, current.position.roll):
            raise PracticeError(describe(f"book.tries[{index}]", move, "a legal move of the current position"))
        moves.append(chosen)
    return tuple(moves)


def _ideas(raw: object) -> dict[str, IdeaRecord]:
    if not isinstance(raw, dict) or any(idea not in IDEAS for idea in raw):
        raise PracticeError(describe("book.ideas", raw, "an object of ideas: " + ", ".join(IDEAS)))
    ideas = {}
    for idea, record in raw.items():
        if not isinstance(record, dict) or set(record) != {"right_days", "misses"}:
            raise PracticeError(describe(f"book.ideas.{idea}", record, 'an object {"right_days", "misses"}'))
        days = _list(record["right_days"], f"book.ideas.{idea}.right_days", 1000)
        parsed = tuple(_day(day, f"book.ideas.{idea}.right_days") for day in days)
        ideas[idea] = IdeaRecord(parsed, _whole(record["misses"], f"book.ideas.{idea}.misses", 0, _MOST_GAMES))
    return ideas


__all__ = ["BOOK_FORMAT", "GAPS", "MASTERY_DAYS", "Book", "IdeaRecord", "Item", "game_key"]
