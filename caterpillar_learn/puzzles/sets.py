"""Puzzle sets: five to ten puzzles on one idea, each chosen near the child's rating, and when an idea is mastered.

**Choosing.** The next puzzle of a set (:meth:`PuzzleSet.next_puzzle`,
:func:`choose`) is, of the level's puzzles on the set's idea that the child
has not met (in this set, or named in ``avoid``), the one whose rating is
nearest to the child's rating for the idea; of two as near, the easier (then
the smaller id).  Each answer is a Glicko-2 game
(:func:`~caterpillar_learn.puzzles.rating.duel`): right, the child's rating
rises and the next puzzle is harder; wrong, it falls and the next is easier.
A puzzle's rating starts at its difficulty
(:attr:`~caterpillar_learn.puzzles.bank.Puzzle.rating`); the ratings the
answers give the puzzles are handed back for the host to keep, and handed in
again (``ratings``) to choose by them.

**Mastery** of an idea by the puzzles (:func:`puzzle_mastery`): ``new`` before
the first answer; ``mastered`` once the child's rating for the idea, less
twice its deviation (:attr:`~caterpillar_learn.puzzles.rating.Rating.low`:
what the rating is at least, in 19 cases of 20), reaches :data:`MASTERY`, the
difficulty of the bank's middle puzzle (a margin of two thresholds, one
tempting move); else ``practising``.  A wrong answer lowers the rating, and
time without puzzles widens the deviation
(:func:`~caterpillar_learn.puzzles.rating.rest`), so mastery can be lost.
The practice book names an idea by the child's own mistakes
(:meth:`~caterpillar_learn.practice.book.Book.idea_state`); :func:`idea_state`
counts both: ``practising`` if either is, ``mastered`` if one is and the other
is mastered or new, ``new`` if both are new.

>>> from caterpillar_learn.puzzles.bank import load_bank
>>> bank = load_bank("beginner")
>>> puzzles = PuzzleSet.start("beginner", "score_die", size=5)
>>> first = puzzles.next_puzzle(bank)
>>> first.idea, abs(first.difficulty - 1500) < 100
('score_die', True)
>>> puzzles, _ = puzzles.answered(first, right=False)
>>> puzzles.rating.rating < 1500 and puzzles.next_puzzle(bank).difficulty < first.difficulty
True
>>> PuzzleSet.from_json(puzzles.to_json()) == puzzles
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.errors import describe
from caterpillar_learn.practice.ideas import ideas_at
from caterpillar_learn.puzzles.bank import Bank, Puzzle
from caterpillar_learn.puzzles.errors import PuzzleError
from caterpillar_learn.puzzles.rating import HIGHEST, LOWEST, IdeaRatings, Rating, duel

#: How many puzzles a set can have, and how many unless told.
SET_SIZES, SET_SIZE = range(5, 11), 8
#: The rating an idea's lower bound must reach to be mastered: the bank's middle puzzle.
MASTERY = 1500.0
#: The most puzzles a set can be told to avoid (those met before).
MOST_AVOIDED = 1000
#: The version of :meth:`PuzzleSet.to_json`.
SET_FORMAT = 1
_SET_KEYS = ("format", "level", "idea", "size", "rating", "answers", "avoid")
STATES = ("new", "practising", "mastered")


def choose(
    puzzles: Iterable[Puzzle], rating: Rating, seen: Collection[str] = (), ratings: Mapping[str, Rating] | None = None
) -> Puzzle | None:
    """Of ``puzzles`` not ``seen`` (ids), the one whose rating (from ``ratings``, else its starting one) is
    nearest to ``rating``; of two as near, the easier, then the smaller id; ``None`` if none is left.

    >>> from caterpillar_learn.puzzles.bank import load_bank
    >>> on_zero = load_bank("beginner").on("zero")
    >>> choose(on_zero, Rating(400)) == on_zero[0], choose(on_zero, Rating(3000)) == on_zero[-1]
    (True, True)
    """
    ratings = ratings or {}

    def strength(puzzle: Puzzle) -> float:
        return ratings[puzzle.id].rating if puzzle.id in ratings else puzzle.difficulty

    left = [puzzle for puzzle in puzzles if puzzle.id not in seen]
    if not left:
        return None
    return min(left, key=lambda p: (abs(strength(p) - rating.rating), strength(p), p.id))


@dataclass(frozen=True)
class Answer:
    """A puzzle of a set answered: which, whether right, and its rating when met."""

    puzzle: str
    right: bool
    difficulty: float

    def to_json(self) -> list[Any]:
        return [self.puzzle, self.right, self.difficulty]


@dataclass(frozen=True)
class PuzzleSet:
    """A set of ``size`` puzzles on ``idea`` at ``level``, with the child's ``rating`` for the idea as it stands
    now and the answers so far."""

    level: Level
    idea: str
    size: int = SET_SIZE
    rating: Rating = field(default_factory=Rating)
    answers: tuple[Answer, ...] = ()
    #: Puzzles not to give (met before this set).
    avoid: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "level", Level.parse(self.level))
        if self.idea not in ideas_at(self.level):
            expected = "one of " + ", ".join(ideas_at(self.level)) + f" (the ideas at {self.level.value})"
            raise PuzzleError(describe("idea", self.idea, expected))
        if isinstance(self.size, bool) or self.size not in SET_SIZES:
            raise PuzzleError(describe("size", self.size, f"{SET_SIZES[0]} to {SET_SIZES[-1]} puzzles"))
        if len(self.answers) > self.size:
            raise PuzzleError(describe("answers", len(self.answers), f"at most the set's {self.size} puzzles"))
        if len(self.avoid) > MOST_AVOIDED:
            raise PuzzleError(describe("avoid", len(self.avoid), f"at most {MOST_AVOIDED} puzzles"))

    @classmethod
    def start(
        cls,
        level: Level | str,
        idea: str,
        ratings: IdeaRatings | None = None,
        *,
        size: int = SET_SIZE,
        avoid: Iterable[str] = (),
    ) -> PuzzleSet:
        """A new set on ``idea``, from the child's ``ratings`` (an unknown child's if none)."""
        rating = (ratings or IdeaRatings()).of(idea) if idea in ideas_at(Level.parse(level)) else Rating()
        return cls(Level.parse(level), idea, size, rating, (), frozenset(avoid))

    @property
    def is_done(self) -> bool:
        return len(self.answers) >= self.size

    @property
    def right(self) -> int:
        """How many answers were right."""
        return sum(answer.right for answer in self.answers)

    def seen(self) -> frozenset[str]:
        return self.avoid | {answer.puzzle for answer in self.answers}

    def next_puzzle(self, bank: Bank, ratings: Mapping[str, Rating] | None = None) -> Puzzle | None:
        """The set's next puzzle from ``bank`` (:func:`choose`), or ``None`` when the set is done or the bank has no
        puzzle on the idea left."""
        if bank.level != self.level:
            raise PuzzleError(describe("bank", bank.level.value, f"the {self.level.value} bank"))
        if self.is_done:
            return None
        return choose(bank.on(self.idea), self.rating, self.seen(), ratings)

    def answered(self, puzzle: Puzzle, *, right: bool, puzzle_rating: Rating | None = None) -> tuple[PuzzleSet, Rating]:
        """The set after ``puzzle`` was answered (``right`` or not), and the puzzle's new rating (from
        ``puzzle_rating``, else its starting one)."""
        if puzzle.idea != self.idea or puzzle.level != self.level:
            raise PuzzleError(describe("puzzle", puzzle.id, f"a {self.level.value} puzzle on {self.idea}"))
        if puzzle.id in self.seen():
            raise PuzzleError(describe("puzzle", puzzle.id, "a puzzle not met before in this set"))
        if self.is_done:
            raise PuzzleError(describe("answers", len(self.answers), f"at most the set's {self.size} puzzles"))
        before = puzzle_rating or puzzle.rating
        child, after = duel(self.rating, before, right)
        answer = Answer(puzzle.id, right, before.rating)
        return replace(self, rating=child, answers=(*self.answers, answer)), after

    def ratings_after(self, ratings: IdeaRatings) -> IdeaRatings:
        """The child's ``ratings`` with this set's idea rated as it stands now."""
        return ratings.with_rating(self.idea, self.rating) if self.answers else ratings

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SET_FORMAT,
            "level": self.level.value,
            "idea": self.idea,
            "size": self.size,
            "rating": self.rating.to_json(),
            "answers": [answer.to_json() for answer in self.answers],
            "avoid": sorted(self.avoid),
        }

    @classmethod
    def from_json(cls, data: object) -> PuzzleSet:
        """The set ``data`` holds, as :meth:`to_json` writes it (or :class:`PuzzleError` naming the field)."""
        if not isinstance(data, dict) or set(data) != set(_SET_KEYS):
            raise PuzzleError(describe("set", data, "an object {" + ", ".join(_SET_KEYS) + "}"))
        if isinstance(data["format"], bool) or data["format"] != SET_FORMAT:
            raise PuzzleError(describe("set.format", data["format"], str(SET_FORMAT)))
        try:
            level = Level.parse(data["level"])
        except ValueError:
            raise PuzzleError(describe("set.level", data["level"], "a level")) from None
        rating = Rating.from_json(data["rating"], "set.rating")
        answers, avoid = data["answers"], data["avoid"]
        if not isinstance(answers, list) or not all(_is_answer(raw) for raw in answers):
            raise PuzzleError(describe("set.answers", answers, f"[id, right, rating {LOWEST:g}-{HIGHEST:g}] each"))
        if not isinstance(avoid, list) or not all(_is_id(raw) for raw in avoid):
            raise PuzzleError(describe("set.avoid", avoid, "a list of puzzle ids"))
        try:
            found = cls(level, data["idea"], data["size"], rating, (), frozenset(avoid))
            return replace(found, answers=tuple(Answer(key, right, float(d)) for key, right, d in answers))
        except PuzzleError as error:
            raise PuzzleError(f"set.{error}") from None


def _is_id(raw: object) -> bool:
    return isinstance(raw, str) and len(raw) == 12 and all(c in "0123456789abcdef" for c in raw)


def _is_answer(raw: object) -> bool:
    if not isinstance(raw, list) or len(raw) != 3:
        return False
    key, right, difficulty = raw
    number = isinstance(difficulty, (int, float)) and not isinstance(difficulty, bool)
    return _is_id(key) and isinstance(right, bool) and number and LOWEST <= difficulty <= HIGHEST


def puzzle_mastery(rating: Rating | None) -> str:
    """What the puzzles say of an idea: ``new`` (no rating), ``mastered`` (:attr:`Rating.low` at least
    :data:`MASTERY`) or ``practising``.

    >>> puzzle_mastery(None), puzzle_mastery(Rating(1700, 150)), puzzle_mastery(Rating(1800, 140))
    ('new', 'practising', 'mastered')
    """
    if rating is None:
        return "new"
    return "mastered" if rating.low >= MASTERY else "practising"


def idea_state(book: str, puzzles: str) -> str:
    """An idea's state counting the child's own mistakes (``book``: the practice book's
    :meth:`~caterpillar_learn.practice.book.Book.idea_state`) and the puzzles (:func:`puzzle_mastery`).

    >>> idea_state("new", "mastered"), idea_state("mastered", "practising"), idea_state("new", "new")
    ('mastered', 'practising', 'new')
    """
    for name, state in (("book", book), ("puzzles", puzzles)):
        if state not in STATES:
            raise PuzzleError(describe(name, state, "one of " + ", ".join(STATES)))
    if "practising" in (book, puzzles):
        return "practising"
    return "mastered" if "mastered" in (book, puzzles) else "new"


__all__ = [
    "MASTERY",
    "SET_SIZE",
    "SET_SIZES",
    "STATES",
    "Answer",
    "PuzzleSet",
    "choose",
    "idea_state",
    "puzzle_mastery",
]
