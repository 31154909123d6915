"""Predict, then check: the questions a lesson asks before it shows, and their feedback.

A :class:`Question` is plain data built from the engine at the moment it is
asked: its words, its options (each with an ``id`` and a label), and the set
of right answers.  :func:`check` compares a learner's choice with it and
says, in words, what was right, what was missed and why.  Every answer is
computed by the rules engine (or, for the bonus question, by the hint
generator: both answers are right when its values for them are closer than
the scenarios' :data:`~caterpillar_learn.lessons.scenarios.CLEAR_MARGIN`),
never typed in.

The kinds:

* ``boxes``: "Tap every box these dice can fill" (the board's boxes are the
  options; right = the boxes with a legal non-zero move);
* ``zero``: "Can these dice fill any empty box?" (yes / no);
* ``split``: "Which dice make the score?" for one box (the dice are the options);
* ``bonus``: "Should a die go into a bonus box this round?" (yes / no);
* ``fly``: "Which caterpillar will fly?" (a tie accepts each caterpillar it could be);
* ``cards`` (Räuber Raupe): "Which of your cards fit on the pile?"

>>> from caterpillar_learn.caterpillars import Roll, State
>>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
>>> question = ask_boxes(state, Roll((3, 5)))
>>> sorted(question.correct)
['Alex-1', 'Bobby-2', 'Bobby-3']
>>> check(question, {"Alex-1"}).correct
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from caterpillar_learn.caterpillars import CATERPILLARS, Move, Roll, State, legal_moves, score, why_not
from caterpillar_learn.caterpillars.sheet import describe_slot, slot_of
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import dice_words, text
from caterpillar_learn.lessons.scenarios import CLEAR_MARGIN, bonus_margin

__all__ = [
    "CHILD_MARGIN",
    "KINDS",
    "Feedback",
    "Option",
    "Question",
    "ask_bonus",
    "ask_boxes",
    "ask_call",
    "ask_cards",
    "ask_fit",
    "ask_fly",
    "ask_split",
    "ask_zero",
    "bonus_values",
    "box_id",
    "check",
]

KINDS = ("boxes", "zero", "split", "bonus", "fly", "cards")
#: The smallest difference in expected final score a child could tell apart: one point, the smallest
#: step on a sheet.  A lesson asks its bonus question as right or wrong only beyond it.
CHILD_MARGIN = 1.0


@dataclass(frozen=True)
class Option:
    id: str
    label: str


@dataclass(frozen=True)
class Question:
    """One question: its words, options, right answers, and what each answer is told."""

    kind: str
    text: str
    options: tuple[Option, ...]
    correct: frozenset[str]
    #: Whether several options may be chosen (else exactly one).
    multiple: bool
    #: Why each option is right or wrong, by option id (the feedback quotes these).
    reasons: tuple[tuple[str, str], ...] = ()

    def reason(self, option: str) -> str:
        return dict(self.reasons).get(option, "")

    def accepts(self, given: Iterable[str]) -> bool:
        """Whether ``given`` is a right answer (for a single choice: any one of the right options)."""
        chosen = frozenset(given)
        if self.kind == "split":  # right: dice whose values make the score (equal dice stand for each other)
            return split_key(chosen) in self.correct
        if self.multiple:
            return chosen == self.correct
        return len(chosen) == 1 and chosen <= self.correct


@dataclass(frozen=True)
class Feedback:
    correct: bool
    text: str


def box_id(slot: int) -> str:
    """The option id of a board box: ``"Bobby-2"`` (box counted from 0, as ``data-box``)."""
    name, box = describe_slot(slot)
    return f"{name}-{box}"


def _box_words(slot: int) -> str:
    name, box = describe_slot(slot)
    return text("lessons.question.box", caterpillar=name, number=box + 1)


def _yes_no(kind: str, question: str, yes: bool, why_yes: str, why_no: str) -> Question:
    options = (Option("yes", text("lessons.question.yes")), Option("no", text("lessons.question.no")))
    return Question(
        kind, question, options, frozenset({"yes" if yes else "no"}), False, (("yes", why_yes), ("no", why_no))
    )


def said(roll: Roll) -> str:
    """The dice of ``roll`` as a child says them, for a question's ``{dice}``: "a 2 and a 3" ("eine 2 und eine 3").

    >>> said(Roll((2, 3)))
    'a 2 and a 3'
    """
    return dice_words(roll.dice, roll.action)


def ask_boxes(state: State, roll: Roll) -> Question:
    """Which empty boxes can these dice fill?"""
    moves = [m for m in legal_moves(state, roll) if not m.zero]
    fits = {m.slot for m in moves}
    reasons = []
    for slot in state.empty_slots():
        if slot in fits:
            move = next(m for m in moves if m.slot == slot)
            reasons.append((box_id(slot), move.how[0] if move.how else move.describe()))
        else:
            reasons.append((box_id(slot), why_not(state, roll, slot)))
    options = tuple(Option(box_id(s), _box_words(s)) for s in state.empty_slots())
    words = text("lessons.question.boxes", dice=said(roll))
    return Question("boxes", words, options, frozenset(box_id(s) for s in fits), True, tuple(reasons))


def ask_zero(state: State, roll: Roll) -> Question:
    """Can these dice fill any empty box (or must a 0 go somewhere)?"""
    fitting = [m for m in legal_moves(state, roll) if not m.zero]
    why_yes = text("lessons.question.zero_yes", move=fitting[0].describe()) if fitting else ""
    why_no = text("caterpillars.how.zero")
    return _yes_no("zero", text("lessons.question.zero", dice=said(roll)), bool(fitting), why_yes, why_no)


def ask_split(state: State, roll: Roll, slot: int) -> Question:
    """For the box at ``slot``: which dice make the score (the rest make the label)?"""
    ways = [way for move in legal_moves(state, roll) if move.slot == slot and not move.zero for way in move.ways]
    if not ways:
        raise ValueError(describe_slot(slot)[0] + ": no way into this box")
    options = tuple(
        Option(f"{index}:{value}", text("lessons.question.die", value=value)) for index, value in enumerate(roll.dice)
    )
    # Right: the values of dice that make the score (equal dice stand for each other), e.g. "2+3".
    keyed = {"+".join(str(p.value) for p in sorted(way.score_pieces, key=lambda p: p.value)): way for way in ways}
    name, box = describe_slot(slot)
    label = state.labels[slot]
    words = text("lessons.question.split", caterpillar=name, number=box + 1, label=label, dice=said(roll))
    reasons = tuple((key, way.explain()) for key, way in sorted(keyed.items()))
    return Question("split", words, options, frozenset(keyed), True, reasons)


def ask_bonus(state: State, roll: Roll, best: Move, margin: float = CLEAR_MARGIN) -> Question:
    """Should a die go into a bonus box this round?  ``best`` is the helper's best move (the feedback names it).

    The answer is the hint generator's: the best expected final score with a
    die put into a bonus box this round against the best without one, both
    quoted in the feedback.  Closer than ``margin`` (by default :data:`CLEAR_MARGIN`, the margin
    the lessons' scenarios choose their bonus rounds by; a lesson for children passes
    :data:`CHILD_MARGIN`), the two are about as good and either answer is right.  With every
    bonus box full, no.
    """
    if not state.level.rules.bonus_boxes:
        raise ValueError(describe("level", state.level.value, "a level with bonus boxes"))
    words = text("lessons.question.bonus", dice=said(roll))
    with_bonus, without = bonus_values(state, roll)
    if with_bonus is None:
        why = text("lessons.question.bonus_full")
        return _yes_no("bonus", words, False, why, why)
    if abs(with_bonus - without) < margin:
        why = text("lessons.question.bonus_close", with_bonus=with_bonus, without=without)
        options = (Option("yes", text("lessons.question.yes")), Option("no", text("lessons.question.no")))
        return Question("bonus", words, options, frozenset({"yes", "no"}), False, (("yes", why), ("no", why)))
    why = " ".join(
        (
            text("lessons.question.bonus_values", with_bonus=with_bonus, without=without),
            text("lessons.question.bonus_why", move=best.describe()),
        )
    )
    return _yes_no("bonus", words, with_bonus > without, why, why)


def bonus_values(state: State, roll: Roll) -> tuple[float | None, float]:
    """The hint generator's best expected final score with a die put into a bonus box, and without one.

    ``None`` for the first when no bonus box is empty.
    """
    with_bonus, without = bonus_margin(state, roll)  # the same values the scenarios' bonus rounds were chosen by
    return (None if with_bonus == float("-inf") else with_bonus), without


def ask_fly(state: State) -> Question:
    """Which caterpillar will fly?  In a tie, each caterpillar with the middle total may."""
    result = score(state)
    totals = dict(zip(CATERPILLARS, state.totals))
    middle = totals[result.flying]
    may = frozenset(name for name, total in totals.items() if total == middle)
    listed = ", ".join(f"{name} {total}" for name, total in totals.items())
    if len(may) > 1:
        names = sorted(may)
        tied = text("caterpillars.list_and", items=", ".join(names[:-1]), last=names[-1])
        tie = text("lessons.question.fly_tie", totals=listed, names=tied)
        why = tie + " " + text("lessons.question.fly_tie_helper", flying=result.flying)
    else:
        why = text("lessons.question.fly_why", totals=listed, flying=result.flying)
    options = tuple(Option(name, name) for name in CATERPILLARS)
    return Question("fly", text("lessons.question.fly"), options, may, False, tuple((n, why) for n in CATERPILLARS))


def ask_choice(words: str, options: Sequence[str], right: int) -> Question:
    """A teacher's own question (a lesson file's ``ask = "choice"``): its words, its answers, the right one's number
    (from 1).  The feedback is the catalogue's "Right!" or "Not quite", with no reason the teacher did not write.

    >>> question = ask_choice("Which caterpillar flies?", ["the biggest", "the middle one"], 2)
    >>> question.accepts({"1"}), question.options[1].label
    (True, 'the middle one')
    """
    choices = tuple(Option(str(number), label) for number, label in enumerate(options))
    return Question("choice", words, choices, frozenset({str(right - 1)}), False)


def ask_cards(labels: Iterable[str], fitting: Iterable[int], reasons: Iterable[str]) -> Question:
    """Räuber Raupe: which hand cards (as they lie) fit on the pile?  The table computes ``fitting``."""
    options = tuple(Option(str(index), label) for index, label in enumerate(labels))
    why = tuple(zip((o.id for o in options), reasons))
    right = frozenset(str(index) for index in fitting)
    return Question("cards", text("raupe_lessons.question.cards"), options, right, True, why)


def ask_fit(fits: bool, why: str) -> Question:
    """Räuber Raupe: "Does this one fit?" about one card on one leaf (a slip of the learner's last game, issue 33).
    The table says whether it fits and why (the rule of matching, in words)."""
    return _yes_no("slip", text("raupe_lessons.question.fit"), fits, why, why)


def ask_call(needed: bool, why: str) -> Question:
    """Räuber Raupe: "Did this one need a call?" about one card put on one card (a missed "Aphid!" or change of
    mode of the learner's last game, issue 33)."""
    return _yes_no("slip", text("raupe_lessons.question.call"), needed, why, why)


def check(question: Question, given: Iterable[str]) -> Feedback:
    """Whether ``given`` is right, and in words what was right, what was missed and why."""
    chosen = frozenset(given)
    ok = question.accepts(chosen)
    labels = {option.id: option.label for option in question.options}
    lines = [text("lessons.feedback.right" if ok else "lessons.feedback.wrong")]
    if question.kind in ("boxes", "cards"):
        found = sorted(chosen & question.correct)
        missed = sorted(question.correct - chosen)
        extra = sorted(chosen - question.correct)
        if found and not missed:
            lines.append(text("lessons.feedback.found_all"))
        elif found:
            lines.append(text("lessons.feedback.found", items=", ".join(labels[i] for i in found)))
        lines += [text("lessons.feedback.missed", item=labels[i], why=question.reason(i)) for i in missed]
        lines += [text("lessons.feedback.extra", item=labels[i], why=question.reason(i)) for i in extra]
        if not question.correct and not chosen:
            lines.append(text("lessons.feedback.none_fit"))
    elif question.kind == "split":
        lines.append(question.reason(split_key(chosen)) or question.reasons[0][1])
    else:
        shown = next(iter(chosen & question.correct), None) if ok else next(iter(sorted(question.correct)))
        lines.append(question.reason(shown or ""))
    return Feedback(ok, " ".join(line for line in lines if line))


def split_key(chosen: Iterable[str]) -> str:
    """The values of the chosen dice (option ids ``"index:value"``), as ``"2+3"``."""
    return "+".join(sorted((option.partition(":")[2] for option in chosen), key=int))


def slot_from_id(option: str) -> int:
    """The slot of a box option id (``"Bobby-2"``)."""
    name, _, box = option.partition("-")
    return slot_of(name, int(box))
