"""What the Caterpillars front end draws: the JSON of each view trait, described once.

Each payload is a :class:`~typing.TypedDict` here and a JSDoc ``@typedef`` of
the same name and fields in ``widgets/caterpillars.js`` (a test keeps the two
alike).  The functions build them from the engine's objects and change
nothing, so a test can call them at any moment; every word comes from the
message catalogue, and the sheet's picture from
:func:`caterpillar_learn.caterpillars.svg.sheet_svg`, the one drawing of it.

>>> from caterpillar_learn.caterpillars import Game
>>> game = Game("beginner", seed=1)
>>> sorted(final_view(game)), dice_view(game, revealed=False, count=0, used=[], selected=None)["rolled"]
([], False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from caterpillar_learn.caterpillars import CATERPILLARS, Game, Move, move_to_json, state_to_json
from caterpillar_learn.caterpillars.sheet import describe_slot
from caterpillar_learn.caterpillars.svg import Board, sheet_svg
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.stars import MOST, stars

__all__ = [
    "DiceView",
    "FinalView",
    "HintView",
    "LegalEntry",
    "LessonView",
    "MenuView",
    "OutcomeView",
    "ReviewView",
    "SheetView",
    "WhatIfView",
    "dice_view",
    "final_view",
    "legal_view",
    "menu_view",
    "review_view",
    "sheet_view",
]


class SheetView(TypedDict, total=False):
    level: str
    labels: dict[str, list[int | None]]
    scores: dict[str, list[int | None]]
    bonus: dict[str, int | None]
    phase: str
    round: int
    totals: dict[str, int]
    pending: list[tuple[str, int]]
    svg: str


class DiceView(TypedDict, total=False):
    rolled: bool
    kind: str
    count: int
    values: list[int]
    action: str | None
    used: list[int]
    selected: int | None


class LegalEntry(TypedDict, total=False):
    caterpillar: str
    box: int
    index: int
    score: int
    zero: bool
    bonus: str | None
    how: list[str]
    text: str
    setup: bool
    #: Which dice (indices into the roll) give the score and which the label, for the picture of the rule.
    dice: dict[str, list[int]]


class MenuView(TypedDict, total=False):
    caterpillar: str
    box: int
    title: str
    options: list[LegalEntry]


class HintView(TypedDict, total=False):
    status: str
    title: str
    lines: list[str]
    options: list[dict[str, Any]]
    #: The best move in a child's words, without numbers (shown while the numbers are off).
    child: str
    #: The best move's box, which the sheet marks.
    best: dict[str, Any]


class FinalView(TypedDict, total=False):
    flying: str
    final: int
    struck: list[str]
    explanation: list[str]
    text: str
    #: Stars (1 to 3) against the level's yardstick (:mod:`caterpillar_learn.lessons.stars`), and in words.
    stars: int
    stars_text: str


class ReviewView(TypedDict, total=False):
    title: str
    rounds: list[str]
    advice: list[str]
    reviewed: bool
    thinking: str


class OutcomeView(TypedDict, total=False):
    text: str
    value: float
    value_text: str
    exact: bool
    svg: str


class WhatIfView(TypedDict, total=False):
    title: str
    yours: OutcomeView
    other: OutcomeView
    index: int
    options: list[str]


class LessonView(TypedDict, total=False):
    name: str
    heading: str
    title: str
    body: str
    index: int
    count: int
    progress: str
    can_back: bool
    can_next: bool
    todo: str
    #: The one thing to do now, which the page marks (``LessonSession.todo_target``).
    target: str
    #: Whether the stepper offers *new game* itself (lesson 0's end, where no scoring shows).
    new_game: bool
    #: Why only one box has a star (a round the lesson leads), or "".
    guide: str
    #: Whether the numbers for grown-ups (values, chances, the review) are shown.
    numbers: bool
    #: The grown-ups' notes while the numbers show: how the board works, and the class's dice.
    grown_ups: dict[str, list[str]]
    #: Whether the move's words are shown without the voice reading them by itself (the long run of rounds).
    quiet_talk: bool
    #: How many of the lesson's questions were answered right so far (a new one sounds "Right!").
    rights: int
    #: Whether the learner waits for the teacher (a hold, or the class's roll): nothing is theirs to do (issue 42).
    waits: bool
    #: Whether the room switched the helper's Hint off (after the guided game).
    no_hint: bool


def dice_roles(dice: Sequence[int], move: Move) -> dict[str, list[int]]:
    """Which of ``dice`` give ``move``'s score and which its label (its first way; a zero has neither).

    >>> from caterpillar_learn.caterpillars import Roll, State, legal_moves
    >>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
    >>> move = next(m for m in legal_moves(state, Roll((3, 5))) if m.score == 5)
    >>> dice_roles((3, 5), move)
    {'score': [1], 'label': [0]}
    """
    roles: dict[str, list[int]] = {"score": [], "label": []}
    if move.zero or not move.ways:
        return roles
    free = list(range(len(dice)))
    way = move.ways[0]
    for role, pieces in (("score", way.score_pieces), ("label", way.label_pieces)):
        for piece in pieces:
            value = piece.value if piece.source == "die" else piece.value // 2 if piece.source == "doubled" else None
            index = next((i for i in free if dice[i] == value), None)
            if index is not None:
                free.remove(index)
                roles[role].append(index)
    return roles


def legal_view(game: Game, moves: Sequence[Move], blanks: Sequence[int]) -> list[LegalEntry]:
    """In play, each legal move (with its index, words and dice); in setup, each blank label still open."""
    if game.phase == "play":
        dice = game.roll().dice if game.has_roll else ()
        return [
            {**move_to_json(move), "index": index, "text": move.describe(), "dice": dice_roles(dice, move)}  # type: ignore[typeddict-item]
            for index, move in enumerate(moves)
        ]
    entries: list[LegalEntry] = []
    for slot in blanks:
        name, box = describe_slot(slot)
        entries.append({"caterpillar": name, "box": box, "setup": True, "index": len(entries)})
    return entries


def sheet_view(
    game: Game,
    legal: Sequence[LegalEntry],
    pending: Mapping[int, int],
    uid: str,
    *,
    answers: frozenset[int] | None = None,
    chosen: frozenset[int] | None = None,
    result: bool = True,
) -> SheetView:
    """The sheet's data (with the setup labels placed this roll) and its picture.

    While a question asks about the boxes, ``answers`` are the boxes that are
    its options and ``chosen`` those the learner picked; ``result=False`` keeps
    a full sheet's scoring hidden until "Which caterpillar will fly?" is answered.
    """
    state = game.state
    data = state_to_json(state)
    for slot, value in pending.items():
        name, box = describe_slot(slot)
        data["labels"][name][box] = value
    slots = frozenset(CATERPILLARS.index(entry["caterpillar"]) * 4 + entry["box"] for entry in legal)
    view: SheetView = {
        **data,  # type: ignore[typeddict-item]
        "phase": game.phase,
        "round": min(state.round, 12),
        "totals": dict(zip(CATERPILLARS, state.totals)),
        "pending": [describe_slot(slot) for slot in pending],
        "svg": sheet_svg(
            state,
            board=Board(
                legal=slots,
                pending=dict(pending),
                uid=uid,
                answers=answers or frozenset(),
                chosen=chosen or frozenset(),
                result=result,
            ),
        ),
    }
    return view


def dice_view(game: Game, *, revealed: bool, count: int, used: list[int], selected: int | None) -> DiceView:
    """The dice tray: hidden until rolled; the setup dice also say which are used or chosen."""
    view: DiceView = {"rolled": revealed, "kind": game.phase, "count": count}
    if revealed and game.phase != "over":
        roll = game.roll()
        view["values"], view["action"] = list(roll.dice), roll.action
        view["used"], view["selected"] = used, selected
    return view


def menu_view(slot: int | None, legal: Sequence[LegalEntry]) -> MenuView:
    """The per-box menu when one box has several moves (``{}`` when closed)."""
    if slot is None:
        return {}
    name, box = describe_slot(slot)
    return {
        "caterpillar": name,
        "box": box,
        "title": text("lessons.menu.title", caterpillar=name, number=box + 1),
        "options": [entry for entry in legal if entry["box"] == box and entry["caterpillar"] == name],
    }


def final_view(game: Game) -> FinalView:
    """The scoring once the game is over (``{}`` before)."""
    if game.phase != "over":
        return {}
    result = game.score()
    earned = stars(game.state.level, result.final)
    return {
        **result.to_json(),  # type: ignore[typeddict-item]
        "struck": [name for name in CATERPILLARS if name != result.flying],
        "text": text("lessons.final.text", final=result.final),
        "stars": earned,
        "stars_text": text("lessons.final.stars", count=earned, most=MOST),
    }


def review_view(game: Game, advice_review: Mapping[str, list[str]] | None) -> ReviewView:
    """The game round by round; after the ``review`` event, the helper's verdict on each round."""
    if game.phase != "over":
        return {}
    rounds = []
    for number, turn in enumerate((t for t in game.history if not t.is_setup), start=1):
        assert isinstance(turn.choice, Move)
        rounds.append(text("lessons.review.round", number=number, dice=str(turn.roll), move=turn.choice.describe()))
    view: ReviewView = {"title": text("lessons.review.title"), "rounds": rounds, "advice": [], "reviewed": False}
    if advice_review is not None:
        view["advice"], view["reviewed"] = advice_review["summary"], True
        view["rounds"] = advice_review["rounds"] or rounds
    return view
