"""What a roll offers, legal moves for a state and a roll, and the pure ``apply``.

What a roll offers does not depend on the sheet: :func:`offers` lists, per
bonus choice, the ``(score, label)`` pairs the dice can write (an
:class:`Offer`), and the hint generator asks it instead of building sheets.
:func:`legal_moves` reads the same offers and keeps the pairs whose label
an empty box carries.

A :class:`Move` is an *effect*: which box receives which score, whether it is
a crossed-out zero, and which bonus box (if any) receives which die.  Every
distinct effect is listed once; its :attr:`Move.ways` say how the dice make
it, so a lesson can explain it.

The seed's Beginner example, 3 and 5 on a sheet with an empty box labelled 3:

>>> from caterpillar_learn.caterpillars.sheet import State
>>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
>>> moves = legal_moves(state, Roll((3, 5)))
>>> moves
LegalMoves[Alex 1 ← 5, Bobby 2 ← 3, Bobby 3 ← 3]
>>> moves.first().how
['Score 5, in a box labelled 3.']
>>> apply(state, moves.first()).scores_of("Alex")
(None, 5, None, None)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property

from caterpillar_learn.caterpillars.dice import BONUS_FACES, TEN, Roll, chance_outcomes
from caterpillar_learn.caterpillars.errors import IllegalMoveError, InvalidStateError
from caterpillar_learn.caterpillars.levels import LEVEL_RULES, Level
from caterpillar_learn.caterpillars.sheet import (
    BONUS_BOXES,
    CATERPILLARS,
    LABEL_VALUES,
    State,
    describe_slot,
    slot_of,
)
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text

# -- pieces: what the dice put on the table ---------------------------------


@dataclass(frozen=True, order=True)
class Piece:
    """One value in play: a regular die, a doubled die, the 10, or a bonus box's value."""

    value: int
    source: str = "die"  # "die", "doubled", "ten", or the bonus box "A" / "B" / "C"

    def __str__(self) -> str:
        if self.source == "die":
            return str(self.value)
        if self.source == "doubled":
            return text("caterpillars.piece.doubled", value=self.value, face=self.value // 2)
        if self.source == "ten":
            return text("caterpillars.piece.ten", value=self.value)
        return text("caterpillars.piece.bonus", value=self.value, box=self.source)


def _expression(pieces: tuple[Piece, ...]) -> str:
    total = sum(p.value for p in pieces)
    if len(pieces) == 1:
        return str(pieces[0])
    return " + ".join(str(p) for p in pieces) + f" = {total}"


@dataclass(frozen=True)
class Way:
    """One way a move arises from the roll."""

    score_pieces: tuple[Piece, ...] = ()
    label_pieces: tuple[Piece, ...] = ()
    bonus: tuple[int, int] | None = None  # (bonus box index, die face)
    butterfly: bool = False
    zero: bool = False
    #: A zero's regular dice left in play after the bonus choice (the whole roll without one).
    left: tuple[int, ...] = ()
    #: A zero's action die adds to those dice (a 10, a doubling, a filled bonus box's value).
    action_joins: bool = False

    def explain(self) -> str:
        """This way in words, through the message catalogue.

        A zero after a bonus choice says what happened: the dice left in play
        fit no empty box, although the whole roll might have filled one (rule
        decision 4 in ``docs/RULES.md``: the turn goes on with the remaining dice).

        >>> Way(bonus=(1, 6), zero=True, left=(2, 2)).explain()
        'With the 6 in bonus box B, the 2 and the 2 fit no empty box, so cross out a box of your choice with 0.'
        """
        if self.zero and self.bonus is not None:
            box, value = self.bonus
            return text("caterpillars.how.zero_bonus", value=value, box=BONUS_BOXES[box], dice=self._left())
        parts = []
        if self.bonus is not None:
            box, value = self.bonus
            parts.append(text("caterpillars.how.bonus", value=value, box=BONUS_BOXES[box]))
        if self.zero:
            parts.append(text("caterpillars.how.zero"))
        elif self.butterfly:
            parts.append(text("caterpillars.how.butterfly", score=_expression(self.score_pieces)))
        else:
            parts.append(
                text(
                    "caterpillars.how.place",
                    score=_expression(self.score_pieces),
                    label=_expression(self.label_pieces),
                )
            )
        return " ".join(parts)

    def _left(self) -> str:
        """The dice left in play, in words: "the 2 and the 5" (and the action die)."""
        items = [text("caterpillars.how.die", value=die) for die in self.left]
        if self.action_joins:
            items.append(text("caterpillars.how.action_die"))
        if len(items) == 1:
            return items[0]
        return text("caterpillars.list_and", items=", ".join(items[:-1]), last=items[-1])


@dataclass(frozen=True, slots=True)
class Move:
    """The effect of one legal choice.  Equality ignores :attr:`ways`."""

    slot: int
    score: int
    zero: bool = False
    bonus: tuple[int, int] | None = None  # (bonus box index 0-2, die face)
    ways: tuple[Way, ...] = field(default=(), compare=False, hash=False)

    @classmethod
    def of(
        cls,
        caterpillar: str,
        box: int,
        score: int,
        *,
        zero: bool = False,
        bonus: tuple[str, int] | None = None,
    ) -> Move:
        """Build a move from names: ``Move.of("Alex", 2, 5, bonus=("A", 5))``."""
        entry = None
        if bonus is not None:
            name, value = bonus
            if name not in BONUS_BOXES:
                raise IllegalMoveError(describe("bonus box", name, "'A', 'B' or 'C'"))
            entry = (BONUS_BOXES.index(name), value)
        return cls(slot_of(caterpillar, box), score, zero, entry)

    @property
    def caterpillar(self) -> str:
        return describe_slot(self.slot)[0]

    @property
    def box(self) -> int:
        return describe_slot(self.slot)[1]

    @property
    def how(self) -> list[str]:
        return [way.explain() for way in self.ways]

    def describe(self) -> str:
        """The move in a learner's words (boxes counted from 1).

        >>> Move.of("Bobby", 2, 7, bonus=("C", 6)).describe()
        'Bobby, box 3: score 7 (and 6 into bonus box C)'
        """
        name, box = describe_slot(self.slot)
        key = "caterpillars.move.zero" if self.zero else "caterpillars.move.place"
        out = text(key, caterpillar=name, number=box + 1, score=self.score)
        if self.bonus is not None:
            out += text("caterpillars.move.bonus", box=BONUS_BOXES[self.bonus[0]], value=self.bonus[1])
        return out

    def __repr__(self) -> str:
        name, box = describe_slot(self.slot)
        out = f"{name} {box} ← {self.score}" + (" (zero)" if self.zero else "")
        if self.bonus is not None:
            out += f", bonus {BONUS_BOXES[self.bonus[0]]} ← {self.bonus[1]}"
        return out


class LegalMoves:
    """The legal moves of one state and roll: iterable, sized, supports ``in``."""

    __slots__ = ("_moves",)

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self._moves = moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves)

    def __len__(self) -> int:
        return len(self._moves)

    def __bool__(self) -> bool:
        return bool(self._moves)

    def __contains__(self, move: object) -> bool:
        return move in self._moves

    def __getitem__(self, index: int) -> Move:
        return self._moves[index]

    def count(self) -> int:
        return len(self._moves)

    def first(self) -> Move:
        return self._moves[0]

    def find(self, move: Move) -> Move | None:
        """The listed move equal to ``move`` (with its ways), if any."""
        for listed in self._moves:
            if listed == move:
                return listed
        return None

    def __repr__(self) -> str:
        return "LegalMoves[" + ", ".join(repr(m) for m in self._moves) + "]"


# -- what a roll offers, independent of the sheet (cached) -------------------

#: Bonus boxes as the offers see them below Advanced: none can take a die.
_CLOSED = (False, False, False)


@dataclass(frozen=True, eq=False)
class Offer:
    """What a roll offers for one bonus choice, whatever the sheet.

    ``bonus`` is the die this choice keeps in a bonus box, as ``(box index 0-2,
    face)``, or ``None``.  The remaining dice, with the action die's effect (a
    bonus box's value, a doubled die, the 10), make :attr:`pairs`: every
    ``(score, label)`` this choice can write, a score into a box with that
    label (labels 1 to 12).  With the butterfly the remaining dice's total may
    go into any box, so it is paired with every label.  An offer that can fill
    none of a sheet's empty labels gives a 0 in any empty box instead
    (rule 4, see :meth:`can_fill`).  Equality ignores the ways.
    """

    bonus: tuple[int, int] | None
    butterfly: bool
    #: label -> ((score, ways), ...) by score, butterfly placements merged in (what legal_moves lists)
    placements: Mapping[int, tuple[tuple[int, tuple[Way, ...]], ...]] = field(repr=False)
    #: labels a split of the dice makes, above 12 too (the zero rule and why_not read it)
    reach: frozenset[int] = field(repr=False)
    #: how its zero arises: one way, the cross
    zero_ways: tuple[Way] = field(repr=False)

    @cached_property
    def pairs(self) -> frozenset[tuple[int, int]]:
        """Every ``(score, label)`` this offer can write, labels 1 to 12.

        Built on first use: legal moves read :attr:`placements` and never need it.
        """
        return frozenset((score, label) for label in LABEL_VALUES for score, _ in self.placements[label])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Offer):
            return NotImplemented
        return (self.bonus, self.butterfly, self.pairs) == (other.bonus, other.butterfly, other.pairs)

    def __hash__(self) -> int:
        return hash((self.bonus, self.butterfly, self.pairs))

    def can_fill(self, labels: Iterable[int]) -> bool:
        """Whether this offer writes a score into a box with one of ``labels`` (else: a 0 anywhere).

        >>> offer = offers("beginner", Roll((3, 5)))[0]
        >>> offer.can_fill([1, 3]), offer.can_fill([1, 2])
        (True, False)
        """
        return self.butterfly or not self.reach.isdisjoint(labels)

    def __repr__(self) -> str:
        bonus = "" if self.bonus is None else f"bonus {BONUS_BOXES[self.bonus[0]]} ← {self.bonus[1]}: "
        butterfly = " (butterfly)" if self.butterfly else ""
        pairs = ", ".join(f"{label} ← {score}" for label, score in sorted((lab, s) for s, lab in self.pairs))
        return f"Offer[{bonus}{pairs}{butterfly}]"


def offers(level: Level | str, roll: Roll, *, bonus: Sequence[int | None] = (None, None, None)) -> tuple[Offer, ...]:
    """What ``roll`` offers at ``level``, one :class:`Offer` per bonus choice (no bonus first).

    ``bonus`` holds the bonus boxes' values at the start of the round
    (:attr:`State.bonus <caterpillar_learn.caterpillars.sheet.State.bonus>`,
    ``None`` for an empty box): which boxes can take a die, and what an A, B
    or C face brings.  :func:`legal_moves` reads the same offers.

    The seed's Beginner roll, 3 and 5: score 5 into a box labelled 3, or 3
    into a box labelled 5 (shown as ``label ← score``).

    >>> offers("beginner", Roll((3, 5)))
    (Offer[3 ← 5, 5 ← 3],)
    >>> sorted(offers("beginner", Roll((3, 5)))[0].pairs)
    [(3, 5), (5, 3)]

    At Advanced a die may go into an empty bonus box instead (here B or C):

    >>> found = offers("advanced", Roll((2, 2, 5)), bonus=(4, None, None))
    >>> [offer.bonus for offer in found]
    [None, (1, 2), (2, 2), (1, 5), (2, 5)]
    >>> found[3]
    Offer[bonus B ← 5: 2 ← 2]
    """
    level = Level.parse(level)
    if len(bonus) != len(BONUS_BOXES):
        raise InvalidStateError(describe("bonus", bonus, "3 bonus box values (None for an empty box)"))
    return _offers(level, roll, bonus)


def _offers(level: Level, roll: Roll, bonus: Sequence[int | None]) -> tuple[Offer, ...]:
    """:func:`offers` without the checks a :class:`State` makes anyway (legal_moves asks on every call)."""
    rules = LEVEL_RULES[level]
    if len(roll.dice) != rules.dice or (roll.action is not None) != rules.action_die:
        raise IllegalMoveError(describe("roll", str(roll), f"a roll of the {level.value} level"))
    # The cache is keyed on what matters only: which bonus boxes are open, and
    # the value an A/B/C face brings (None when its box is empty: no effect).
    empty = (bonus[0] is None, bonus[1] is None, bonus[2] is None) if rules.bonus_boxes else _CLOSED
    stored = bonus[BONUS_FACES.index(roll.action)] if roll.action in BONUS_FACES else None
    return _options(roll, empty, stored)


@cache
def _splits(pieces: tuple[Piece, ...]) -> dict[tuple[int, int], list[tuple[tuple[Piece, ...], ...]]]:
    """Every split of ``pieces`` into a non-empty score group and label group."""
    n = len(pieces)
    found: dict[tuple[int, int], list[tuple[tuple[Piece, ...], ...]]] = {}
    seen = set()
    for mask in range(1, (1 << n) - 1):
        score = tuple(sorted(pieces[i] for i in range(n) if mask >> i & 1))
        label = tuple(sorted(pieces[i] for i in range(n) if not mask >> i & 1))
        if (score, label) in seen:
            continue
        seen.add((score, label))
        key = (sum(p.value for p in score), sum(p.value for p in label))
        found.setdefault(key, []).append((score, label))
    return found


def _pools(dice: tuple[int, ...], action: str | None, stored: int | None) -> list[tuple[Piece, ...]]:
    """The groups of pieces the remaining regular ``dice`` and the action die give.

    ``stored`` is the value the bonus box named by an A/B/C face held at the
    start of the round (``None`` when empty: then the face changes nothing).
    """
    regular = tuple(Piece(d) for d in dice)
    if action in BONUS_FACES:
        return [(*regular, Piece(stored, action))] if stored is not None else [regular]
    if action == "10":
        return [regular + (Piece(TEN, "ten"),)]
    if action == "2x":
        pools = []
        for i, die in enumerate(dice):
            if die not in dice[:i]:
                pools.append(regular[:i] + (Piece(2 * die, "doubled"),) + regular[i + 1 :])
        return pools
    return [regular]


@cache
def _options(roll: Roll, empty_bonus: tuple[bool, ...], stored: int | None) -> tuple[Offer, ...]:
    # What ``roll`` offers with the bonus boxes ``empty_bonus`` open and an A/B/C
    # face bringing ``stored``: at most 336 x 8 x 8 entries.
    choices: list[tuple[tuple[int, int] | None, tuple[int, ...]]] = [(None, roll.dice)]
    for i, die in enumerate(roll.dice):
        if die in roll.dice[:i]:
            continue
        rest = roll.dice[:i] + roll.dice[i + 1 :]
        for box, is_empty in enumerate(empty_bonus):
            if is_empty:
                choices.append(((box, die), rest))
    joins = roll.action in ("10", "2x") or (roll.action in BONUS_FACES and stored is not None)
    options = []
    for bonus, dice in choices:
        placements: dict[tuple[int, int], list[Way]] = {}
        for pool in _pools(dice, roll.action, stored):
            for key, groups in _splits(pool).items():
                ways = placements.setdefault(key, [])
                ways.extend(Way(s, lab, bonus) for s, lab in groups)
        by_label: dict[int, dict[int, list[Way]]] = {label: {} for label in range(1, 13)}
        for (score, label), ways in placements.items():
            by_label.setdefault(label, {})[score] = list(dict.fromkeys(ways))
        butterfly = roll.action == "butterfly"
        if butterfly:
            way = Way(tuple(Piece(d) for d in dice), (), bonus, butterfly=True)
            for scores in by_label.values():
                scores.setdefault(sum(dice), []).append(way)
        entries = {
            label: tuple((score, tuple(ways)) for score, ways in sorted(scores.items()))
            for label, scores in by_label.items()
        }
        reach = frozenset(label for _, label in placements)
        zero = Way(bonus=bonus, zero=True, left=dice, action_joins=joins)
        options.append(Offer(bonus, butterfly, entries, reach, (zero,)))
    return tuple(options)


# -- legal moves and apply -----------------------------------------------------


def legal_moves(state: State, roll: Roll) -> LegalMoves:
    """Every distinct legal move of ``state`` for ``roll``, each with its ways."""
    found = _offers(state.level, roll, state.bonus)
    labels, scores = state.labels, state.scores
    if None in labels:
        raise InvalidStateError(describe("labels", list(labels), "every label set (finish the setup first)"))
    empty = [i for i in range(12) if scores[i] is None]
    empty_labels = {labels[i] for i in empty}
    # Rule 4, per bonus choice: an offer that fills no empty label gives a 0 in any empty box.
    live = [
        (
            offer.bonus,
            offer.placements if offer.butterfly or not offer.reach.isdisjoint(empty_labels) else None,
            offer.zero_ways,
        )
        for offer in found
    ]
    moves: list[Move] = []
    add = moves.append
    for slot in empty:
        label = labels[slot]
        for bonus, placements, zero_ways in live:
            if placements is None:
                add(Move(slot, 0, True, bonus, zero_ways))
            else:
                for score, ways in placements.get(label, ()):  # type: ignore[arg-type]
                    add(Move(slot, score, False, bonus, ways))
    return LegalMoves(tuple(moves))


def apply(state: State, move: Move, roll: Roll | None = None) -> State:
    """The state after ``move``; with ``roll`` the move must be legal for it.

    >>> from caterpillar_learn.caterpillars.sheet import State
    >>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
    >>> apply(state, Move.of("Alex", 0, 4), Roll((3, 5)))
    Traceback (most recent call last):
    ...
    caterpillar_learn.caterpillars.errors.IllegalMoveError: move: got Alex 0 ← 4, \
expected one of Alex 1 ← 5, Bobby 2 ← 3, Bobby 3 ← 3
    """
    if roll is not None:
        moves = legal_moves(state, roll)
        if move not in moves:
            listed = ", ".join(repr(m) for m in moves)
            raise IllegalMoveError(f"move: got {move!r}, expected one of {listed}")
    else:
        _check_structure(state, move)
    new = state.with_score(move.slot, move.score)
    if move.bonus is not None:
        new = new.with_bonus(*move.bonus)
    return new


def _check_structure(state: State, move: Move) -> None:
    """What can be checked of a move without its roll."""
    if not 0 <= move.slot < 12:
        raise IllegalMoveError(describe("move slot", move.slot, "0 to 11"))
    if state.scores[move.slot] is not None:
        name, box = describe_slot(move.slot)
        raise IllegalMoveError(describe(f"move: box {box} of {name}", state.scores[move.slot], "an empty box"))
    if move.score not in producible_scores(state.level):
        raise IllegalMoveError(describe("move score", move.score, f"a score the {state.level.value} level can produce"))
    if move.bonus is not None:
        box, value = move.bonus
        if not state.level.rules.bonus_boxes:
            raise IllegalMoveError(describe("move bonus", move.bonus, "no bonus box below advanced"))
        if state.bonus[box] is not None:
            raise IllegalMoveError(describe(f"bonus box {BONUS_BOXES[box]}", state.bonus[box], "an empty bonus box"))
        if value not in range(1, 7):
            raise IllegalMoveError(describe("move bonus value", value, "a die face from 1 to 6"))


@cache
def producible_scores(level: Level | str) -> frozenset[int]:
    """Every score the dice of ``level`` can write into a box (0 for a cross).

    >>> sorted(producible_scores("beginner"))
    [0, 1, 2, 3, 4, 5, 6]
    >>> max(producible_scores("expert"))
    22
    """
    level = Level.parse(level)
    rules = level.rules
    scores = {0}
    full_bonus = (1, 2, 3, 4, 5, 6)
    for roll, _ in chance_outcomes(level):
        sizes = [roll.dice] + ([roll.dice[1:], roll.dice[:-1]] if rules.bonus_boxes else [])
        for dice in sizes:
            for stored in full_bonus if roll.action in BONUS_FACES else (None,):
                for pool in _pools(dice, roll.action, stored):
                    scores.update(score for score, _ in _splits(pool))
            if roll.action == "butterfly":
                scores.add(sum(dice))
    return frozenset(scores)


def validate(state: State) -> State:
    """``state`` itself if it describes a possible sheet, else a one-line error."""
    level = Level.parse(state.level)
    if len(state.labels) != 12 or len(state.scores) != 12 or len(state.bonus) != 3:
        raise InvalidStateError("state: expected 12 labels, 12 scores and 3 bonus boxes")
    allowed = producible_scores(level)
    for slot, (label, score) in enumerate(zip(state.labels, state.scores)):
        name, box = describe_slot(slot)
        if label is not None and (not isinstance(label, int) or isinstance(label, bool) or not 1 <= label <= 12):
            raise InvalidStateError(describe(f"labels.{name}[{box}]", label, "a label from 1 to 12 or null"))
        if score is None:
            continue
        if not isinstance(score, int) or isinstance(score, bool) or score not in allowed:
            low, high = min(allowed), max(allowed)
            raise InvalidStateError(
                describe(f"scores.{name}[{box}]", score, f"a score from {low} to {high} at {level.value}")
            )
        if label is None:
            raise InvalidStateError(
                describe(f"scores.{name}[{box}]", score, "no score in a box whose label is still blank")
            )
    filled_bonus = 0
    for box_name, value in zip(BONUS_BOXES, state.bonus):
        if value is None:
            continue
        filled_bonus += 1
        if not level.rules.bonus_boxes:
            raise InvalidStateError(describe(f"bonus.{box_name}", value, f"null at {level.value} (no bonus boxes)"))
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise InvalidStateError(describe(f"bonus.{box_name}", value, "a die face from 1 to 6 or null"))
    if filled_bonus > state.filled:
        raise InvalidStateError(
            describe("bonus", filled_bonus, f"at most {state.filled} filled bonus boxes (one per round played)")
        )
    return state


def why_not(state: State, roll: Roll, slot: int) -> str:
    """Why no legal move of ``roll`` writes into ``slot`` (for a learner's click).

    >>> from caterpillar_learn.caterpillars.sheet import State
    >>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
    >>> why_not(state, Roll((3, 5)), 0)
    "This box's label is 1. With 3 and 5, only labels 3 or 5 fit."
    """
    name = describe_slot(slot)[0]
    if state.scores[slot] is not None:
        return text("caterpillars.why_not.filled", caterpillar=name, score=state.scores[slot])
    if any(move.slot == slot for move in legal_moves(state, roll)):
        return text("caterpillars.why_not.legal")
    reachable = sorted({label for offer in _offers(state.level, roll, state.bonus) for label in offer.reach})
    dice = text("caterpillars.list_and", items=", ".join(map(str, roll.dice[:-1])), last=roll.dice[-1])
    labels = (
        text("caterpillars.list_or", items=", ".join(map(str, reachable[:-1])), last=reachable[-1])
        if len(reachable) > 1
        else str(reachable[0])
    )
    return text("caterpillars.why_not.label", label=state.labels[slot], dice=dice, labels=labels)


__all__ = [
    "CATERPILLARS",
    "LegalMoves",
    "Move",
    "Offer",
    "Piece",
    "Way",
    "apply",
    "legal_moves",
    "offers",
    "producible_scores",
    "validate",
    "why_not",
]
