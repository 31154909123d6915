"""Predict, then check, on screen: the state of one question and the learner's record of answers.

Both games' lesson controllers hold a :class:`Quiz`.  It keeps the question
being asked (built by :mod:`caterpillar_learn.lessons.questions` from the
engine), the options the learner has chosen, the feedback of the last check,
and every checked answer in :attr:`Quiz.answers` (the record a learner can
save as JSON).  The payloads are ``QuestionView`` (with its ``OptionView``
and ``FeedbackView``) and ``RecordView`` (with its ``AnswerView``) here and
the ``@typedef`` of the same names in ``widgets/question.js``
(``tests/ui/test_payloads.py`` keeps the two alike).

>>> from caterpillar_learn.lessons.questions import Option, Question
>>> quiz = Quiz()
>>> quiz.ask(Question("zero", "Any box?", (Option("yes", "Yes"), Option("no", "No")), frozenset({"no"}), False), "q1")
>>> quiz.choose("yes"); quiz.check().correct, quiz.is_answered, quiz.is_pending
(False, True, True)
>>> quiz.choose("no"); quiz.check().correct, len(quiz.answers)
(True, 2)

A lesson for children teaches a wrong answer in pictures (``show_after``):
the record keeps the first try only, a wrong try marks the choices that
were wrong (and the boxes that were missed), and after that many wrong
tries the quiz shows the answer and waits for the learner to do it.

>>> quiz = Quiz(show_after=2)
>>> quiz.ask(Question("zero", "Any box?", (Option("yes", "Yes"), Option("no", "No")), frozenset({"no"}), False), "q1")
>>> quiz.choose("yes"); quiz.check().correct, quiz.view()["marks"]
(False, {'missed': [], 'wrong': ['yes']})
>>> quiz.choose("yes"); _ = quiz.check(); quiz.showing, quiz.next_to_do(), len(quiz.answers)
(True, 'no', 1)
>>> quiz.choose("no"); quiz.next_to_do(), quiz.check().correct, quiz.answers[0]["correct"]
('check', True, False)

The record is saved under the learner's nickname, asked once by the page
(which remembers it), and the day's date:

>>> quiz.name_learner("  Ada  Lovelace ")
>>> record = quiz.record("01-beginner", today=datetime.date(2026, 12, 3))
>>> record["nickname"], record["file"]
('Ada Lovelace', 'Ada-Lovelace-01-beginner-2026-12-03-answers.json')
"""

from __future__ import annotations

import datetime
import re
import time
import unicodedata
from typing import TypedDict

from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.questions import Feedback, Question, check
from caterpillar_learn.ui.events import BadEventError

__all__ = ["AnswerView", "FeedbackView", "OptionView", "QuestionView", "Quiz", "RecordView", "answers_file", "nickname"]

#: The longest nickname on a file of answers, and the marks it may hold besides letters, digits and spaces.
NICKNAME_LENGTH, NICKNAME_MARKS = 20, "-_.'"


class OptionView(TypedDict):
    id: str
    label: str
    selected: bool


class FeedbackView(TypedDict):
    correct: bool
    text: str
    shown: bool  # the answer is shown for the learner to tap


class QuestionView(TypedDict, total=False):
    kind: str
    text: str
    options: list[OptionView]
    #: Whether the options are drawn by the board itself (boxes, cards) rather than as buttons.
    on_board: bool
    multiple: bool
    answered: bool
    feedback: FeedbackView
    check: str
    #: After a wrong try: the options that were wrong (they shake) and those missed (boxes glow).
    marks: dict[str, list[str]]
    #: While the quiz shows the answer: the right options, which the learner now chooses.
    show: list[str]
    #: What the question is about, drawn by Python (Räuber Raupe: a slip's leaf and card, issue 33).
    picture: str


class AnswerView(TypedDict):
    """One checked answer in the learner's record."""

    step: str
    kind: str
    question: str
    #: The labels of the chosen options, sorted.
    given: list[str]
    correct: bool
    #: When it was checked, local time, ``YYYY-MM-DDTHH:MM:SS``.
    time: str


class RecordView(TypedDict):
    lesson: str
    #: The learner's nickname ("" until the page has asked for it).
    nickname: str
    #: The name of the saved file: ``<nickname>-<lesson>-<YYYY-MM-DD>-answers.json`` ("" without a nickname).
    file: str
    answers: list[AnswerView]


def nickname(value: object) -> str:
    """A learner's nickname as typed: 1 to 20 letters, digits, single spaces and ``- _ . '``, or one line.

    >>> nickname(" Jörg ")
    'Jörg'
    >>> nickname("../../etc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.events.BadEventError: nickname: got '../../etc', expected 1 to 20 letters, digits, spaces...
    """
    expected = f"1 to {NICKNAME_LENGTH} letters, digits, spaces or {' '.join(NICKNAME_MARKS)}"
    if not isinstance(value, str) or len(value) > 4 * NICKNAME_LENGTH:
        raise BadEventError(describe("nickname", value, expected))
    name = " ".join(unicodedata.normalize("NFC", value).split())
    fits = all(char.isalnum() or char == " " or char in NICKNAME_MARKS for char in name)
    if not 1 <= len(name) <= NICKNAME_LENGTH or not fits or not any(char.isalnum() for char in name):
        raise BadEventError(describe("nickname", value, expected))
    return name


def answers_file(name: str, lesson: str, day: datetime.date) -> str:
    """The file a learner's answers are saved in: nickname, lesson and date, with only letters, digits and ``-``.

    >>> answers_file("O'Neil.J", "10-raupe-shape", datetime.date(2026, 1, 9))
    'O-Neil-J-10-raupe-shape-2026-01-09-answers.json'
    """
    parts = [part for part in re.split(r"[^\w]+|_", f"{name}-{lesson}") if part]
    return "-".join(parts) + f"-{day.isoformat()}-answers.json"


class Quiz:
    """One question at a time; every check goes into :attr:`answers`."""

    def __init__(self, show_after: int | None = None) -> None:
        self.question: Question | None = None
        self.key = ""
        self.selected: set[str] = set()
        self.feedback: Feedback | None = None
        self.answers: list[AnswerView] = []
        #: Wrong tries after which the answer is shown (``None``: never; every check is recorded).
        self.show_after = show_after
        self.wrong_tries = 0
        #: Whether the answer is shown and the learner is to choose it.
        self.showing = False
        self.marks: dict[str, list[str]] = {}
        #: The last check's feedback in full words (what was right, missed and why, with the helper's
        #: values): for grown-ups, where the learner sees one short line.
        self.detail = ""
        #: The learner's nickname, for the saved answers (the page asks once and remembers it).
        self.nickname = ""
        #: How many checks were right (the page sounds "Right!" when this grows).
        self.rights = 0

    def name_learner(self, value: object) -> None:
        """Put the learner's nickname on the record (checked: :func:`nickname`)."""
        self.nickname = nickname(value)

    def ask(self, question: Question, key: str) -> None:
        """Ask ``question`` (its step's ``key`` goes into the record)."""
        self.question, self.key = question, key
        self.selected = set()
        self.feedback = None
        self.wrong_tries, self.showing, self.marks = 0, False, {}

    def close(self) -> None:
        self.question = None
        self.feedback = None
        self.selected = set()

    @property
    def is_answered(self) -> bool:
        """Whether the question has been checked at least once (then the step may go on)."""
        return self.question is not None and self.feedback is not None

    @property
    def is_right(self) -> bool:
        """Whether the last check was right."""
        return self.feedback is not None and self.feedback.correct

    @property
    def is_pending(self) -> bool:
        """Whether a question waits for a right answer (its answer stays hidden meanwhile; it can be tried again)."""
        return self.question is not None and not self.is_right

    def choose(self, option: object) -> None:
        """Toggle ``option`` (or, for a single-choice question, choose it)."""
        question = self.question
        if question is None:
            raise BadEventError(text("lessons.question.none"))
        ids = [o.id for o in question.options]
        if not isinstance(option, str) or option not in ids:
            raise BadEventError(describe("answer", option, "one of " + ", ".join(ids)))
        if self.feedback is not None and self.feedback.correct:
            raise BadEventError(text("lessons.question.done"))
        if question.multiple:
            self.selected ^= {option}
        else:
            self.selected = {option}
        self.marks = {}  # the learner is changing the answer: the last try's marks go

    def check(self) -> Feedback:
        """Check the chosen options: feedback at once, and one more line in the record."""
        question = self.question
        if question is None:
            raise BadEventError(text("lessons.question.none"))
        if not self.selected and question.correct and not question.multiple:
            raise BadEventError(text("lessons.question.choose_first"))
        first = self.feedback is None
        self.feedback = check(question, self.selected)
        self.rights += self.feedback.correct
        self.detail = self.feedback.text
        if self.show_after is not None:
            self._in_pictures(question)
            if not first:
                return self.feedback  # the record keeps the first try
        labels = {o.id: o.label for o in question.options}
        self.answers.append(
            {
                "step": self.key,
                "kind": question.kind,
                "question": question.text,
                "given": sorted(labels[i] for i in self.selected),
                "correct": self.feedback.correct,
                "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
            }
        )
        return self.feedback

    def _in_pictures(self, question: Question) -> None:
        """A child's feedback: one short line; the board and the buttons show the rest."""
        assert self.feedback is not None
        chosen = frozenset(self.selected)
        if self.feedback.correct:
            self.marks = {}
            self.showing = False
            if question.kind == "bonus":  # its reasons quote the helper's values: numbers for grown-ups
                both = len(question.correct) > 1
                self.feedback = Feedback(True, text("lessons.feedback.both_fine" if both else "lessons.feedback.right"))
            return
        self.wrong_tries += 1
        if question.kind == "boxes":
            missed, wrong = sorted(question.correct - chosen), sorted(chosen - question.correct)
        else:
            missed, wrong = [], sorted(chosen)
        self.marks = {"missed": missed, "wrong": wrong}
        if self.wrong_tries >= (self.show_after or 0):
            self.showing, self.selected, self.marks = True, set(), {"missed": [], "wrong": wrong}
            line = text("lessons.feedback.show")
        elif missed:
            line = text("lessons.feedback.look_missed")
        elif wrong and question.kind == "boxes":
            line = text("lessons.feedback.look_wrong")
        else:
            line = text("lessons.feedback.try_again")
        self.feedback = Feedback(False, line)

    def shown_answer(self) -> list[str]:
        """The right options the quiz shows (one right answer; equal dice stand for each other)."""
        question = self.question
        if question is None:
            return []
        if question.kind == "split":
            values = sorted(question.correct)[0].split("+")
            picked: list[str] = []
            for option in question.options:
                value = option.id.partition(":")[2]
                if value in values:
                    values.remove(value)
                    picked.append(option.id)
            return picked
        if question.multiple:
            return sorted(question.correct)
        return sorted(question.correct)[:1]

    def next_to_do(self) -> str:
        """While the answer is shown: the next right option to choose, else ``"check"``."""
        if self.question is not None and self.question.multiple:
            wrong = sorted(self.selected - set(self.shown_answer()))
            if wrong:  # a box chosen that does not fit: take it back first
                return wrong[0]
        for option in self.shown_answer():
            if option not in self.selected:
                return option
        return "check"

    def view(self) -> QuestionView:
        """The question panel's JSON (``{}`` when no question is asked)."""
        question = self.question
        if question is None:
            return {}
        view: QuestionView = {
            "kind": question.kind,
            "text": question.text,
            "options": [{"id": o.id, "label": o.label, "selected": o.id in self.selected} for o in question.options],
            "on_board": question.kind in ("boxes", "cards"),
            "multiple": question.multiple,
            "answered": self.is_answered,
            "check": text("lessons.question.check"),
        }
        if self.feedback is not None:
            # shown: the answer is on the board for the learner to tap (an instruction, with no ✗ beside it)
            view["feedback"] = {"correct": self.feedback.correct, "text": self.feedback.text, "shown": self.showing}
        if self.show_after is not None:
            view["marks"] = self.marks or {"missed": [], "wrong": []}
            view["show"] = self.shown_answer() if self.showing else []
        return view

    def record(self, lesson: str, today: datetime.date | None = None) -> RecordView:
        """The learner's answers so far, to save as JSON (named by :func:`answers_file` once there is a nickname)."""
        day = today or datetime.date.today()
        file = answers_file(self.nickname, lesson, day) if self.nickname else ""
        return {"lesson": lesson, "nickname": self.nickname, "file": file, "answers": list(self.answers)}
