"""A lesson's steps, followed as the game goes: which step is on, when it is done, and its question.

A :class:`Stepper` belongs to one :class:`~caterpillar_learn.ui.caterpillars.lesson.LessonSession`, whose
:attr:`~caterpillar_learn.ui.caterpillars.lesson.LessonSession.step` it moves.  A step whose action is done
moves on by itself, a roll on a step that only shows words goes on to the step it serves, and once the
guided game is over the steps about its rounds are passed; a question is asked once the game has reached
it (its dice rolled, or the end).  No rules here: a step's check is the lesson's
(:data:`~caterpillar_learn.lessons.CHECKS`), a question's answer the engine's.

>>> from caterpillar_learn.ui.caterpillars import LessonSession
>>> lesson = LessonSession("01-beginner")
>>> lesson.stepper.current.key, lesson.stepper.done(), lesson.stepper.can_go_on()
('beginner.intro', True, True)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import Step
from caterpillar_learn.lessons.questions import (
    CHILD_MARGIN,
    ask_bonus,
    ask_boxes,
    ask_choice,
    ask_fly,
    ask_split,
    ask_zero,
)
from caterpillar_learn.ui.events import BadEventError

if TYPE_CHECKING:
    from caterpillar_learn.ui.caterpillars.lesson import LessonSession

__all__ = ["Stepper", "shows_words"]


def shows_words(step: Step) -> bool:
    """Whether a step only shows words (no action of its own: the learner goes on with *next*)."""
    return step.question is None and step.check == "none"


class Stepper:
    """``session``'s steps."""

    def __init__(self, session: LessonSession) -> None:
        self.session = session
        steps = session.lesson.steps
        self.last = len(steps) - 1
        #: The step (0-based) that asks which caterpillar flies, if one does.
        self.fly = next((i for i, step in enumerate(steps) if step.question == "fly"), None)

    @property
    def current(self) -> Step:
        session = self.session
        return session.lesson.steps[session.step]

    def done(self) -> bool:
        """The current step's check (every check passes once a game is finished).

        A question needs its answer, except a question about a round's dice
        once the game is over (its moment has passed).
        """
        session, current = self.session, self.current
        if current.question is not None:
            answered = session.quiz.key == current.key and session.quiz.is_right
            about_dice = current.question not in ("fly", "choice")
            return answered or (about_dice and session.game.phase == "over")
        return current.passed(session.progress) or session.progress.games_finished >= 1

    def is_last(self) -> bool:
        """Whether no step comes after this one for now (the last, or the step a teacher holds the class at)."""
        return self.session.step == self.last or self.session.held

    def can_go_on(self) -> bool:
        session = self.session
        return session.step < self.last and self.done() and not session.held

    def move(self, delta: int) -> None:
        session = self.session
        session.step = max(0, min(self.last, session.step + delta))
        if self.current.question is None or session.quiz.key != self.current.key:
            session.quiz.close()
        self.ask()

    def go(self, delta: object) -> None:
        """*next* (1) or *back* (-1), asked for by the learner: refused in words while the step is not done."""
        if isinstance(delta, bool) or delta not in (1, -1):
            raise BadEventError(describe("step delta", delta, "1 (next) or -1 (back)"))
        if delta == 1 and self.session.held:
            raise BadEventError(text("classroom.lesson.held"))
        if delta == 1 and not self.can_go_on():
            if self.current.question is not None:
                raise BadEventError(text("lessons.question.answer_first"))
            raise BadEventError(text(f"lessons.todo.{self.current.check}"))
        self.move(delta)

    def pass_words(self) -> None:
        """A roll on a step of words goes on: the learner is already doing what comes next."""
        while not self.is_last() and shows_words(self.current):
            self.move(1)

    def follow(self) -> None:
        """Move on from every step whose action is done (a step of words waits for *next*, except the
        guided game's steps about its rounds once it is over)."""
        session = self.session
        while not self.is_last():
            current = self.current
            if shows_words(current):
                over = session.progress.games_finished >= 1 and self.fly is not None and session.step < self.fly
                if not over:
                    return
            elif not self.done():
                return
            quiz = session.quiz
            if current.question is not None and quiz.key == current.key and quiz.feedback is not None:
                # "Right!" stays in sight on the next step (why, in full words, with the numbers for grown-ups);
                # the flight's why is the lesson's point (the middle one flies) and stays whole; elsewhere the
                # next step says what to do, and only "Right!" stays (issue 29: fewer words, once)
                sentences = re.split(r"(?<=[.!?])\s+", quiz.feedback.text)
                if current.question != "fly":
                    said = sentences[0]  # "Right!", "Both are fine here."
                else:  # the totals are on the board beside the end scene now: the why without them (issue 40)
                    said = " ".join(sentence for sentence in sentences if not re.search(r"\d", sentence))
                session.explanation = quiz.detail if session.numbers else said
            self.move(1)

    def hides_result(self) -> bool:
        """Whether the guided game's scoring waits for "Which caterpillar will fly?" (asked at a later step)."""
        session = self.session
        if self.fly is None or session.games_made > 1 or session.game.phase != "over":
            return False
        asked_here = self.current.question == "fly" and session.quiz.is_right
        return session.step <= self.fly and not asked_here

    def ask(self) -> None:
        """Ask the current step's question once the game has reached it (dice rolled, or the end)."""
        session, kind = self.session, self.current.question
        quiz = session.quiz
        if kind is None:
            if quiz.question is not None:
                quiz.close()
            return
        if quiz.question is not None and quiz.key == self.current.key:
            return
        if kind == "choice":  # a teacher's own question: asked as its step comes
            quiz.ask(ask_choice(self.current.say, self.current.options, self.current.right), self.current.key)
            return
        game = session.game
        if kind == "fly":
            if game.phase == "over":
                quiz.ask(ask_fly(game.state), self.current.key)
            return
        if game.phase != "play" or not session.revealed:
            return
        state, roll = game.state, game.roll()
        if kind == "boxes":
            question = ask_boxes(state, roll)
        elif kind == "zero":
            question = ask_zero(state, roll)
        elif kind == "bonus":
            question = ask_bonus(state, roll, session.led.best_now(), CHILD_MARGIN)
        else:
            question = ask_split(state, roll, session.led.best_now().slot)
        quiz.ask(question, self.current.key)
