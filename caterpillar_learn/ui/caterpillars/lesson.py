"""A lesson's Caterpillars game behind a widget: the board's session, with the lesson's steps around it.

A :class:`LessonSession` is a :class:`~caterpillar_learn.ui.caterpillars.controller.Session`
(the game, the board's events, the helper it is given) plus a lesson
(:mod:`caterpillar_learn.lessons`): its steps, its questions, its guided
game whose led rounds offer the helper's move only, the grown-ups' numbers,
the practice of a free game's costliest moves, a save that replays it, and
the step a teacher may hold a class at.  Its parts are collaborators, each
in its own module: the steps (:mod:`.stepper`), the led rounds (:mod:`.led`),
the practice (:mod:`.lesson_practice`) and the save (:mod:`.lesson_save`).

>>> lesson = LessonSession("01-beginner")
>>> lesson.current.key, lesson.todo_target()
('beginner.intro', 'next')
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from caterpillar_learn.caterpillars import Game, Move
from caterpillar_learn.caterpillars.sheet import slot_of
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import current_language, text
from caterpillar_learn.lessons import LESSONS, Lesson, Step, get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game, lesson_title, step_title
from caterpillar_learn.lessons.questions import (
    box_id,
    slot_from_id,
)
from caterpillar_learn.lessons.teacher import game_dice
from caterpillar_learn.ui.caterpillars.advice import (
    HERE,
    Helper,
)
from caterpillar_learn.ui.caterpillars.controller import Session
from caterpillar_learn.ui.caterpillars.led import LedRounds
from caterpillar_learn.ui.caterpillars.lesson_practice import PRACTICE_EVENTS, LessonPractice, no_practice
from caterpillar_learn.ui.caterpillars.lesson_save import PAGE_EVENTS, replay, save_of
from caterpillar_learn.ui.caterpillars.practice import PracticePanel
from caterpillar_learn.ui.caterpillars.stepper import Stepper, shows_words
from caterpillar_learn.ui.caterpillars.views import (
    sheet_view,
)
from caterpillar_learn.ui.events import BadEventError, Handler
from caterpillar_learn.ui.quiz import Quiz
from caterpillar_learn.ui.resume import SaveError, SaveRecord

__all__ = ["HELP", "PAGE_EVENTS", "PRACTICE_EVENTS", "LessonSession"]

#: The moves a hold stops once the held step is done: the dice and the board wait for the teacher (issue 42).
HELD_MOVES = frozenset({"roll", "box", "option"})
#: The grown-ups' notes on how the board works (``lessons.help.<key>``); ``led`` only where rounds are led.
HELP = ("roll", "click", "menu", "hint", "questions", "whatif", "led", "seed")


class LessonSession(Session):
    """A lesson's game with its stepper: explain → roll → ask → play → ... → score → free play.

    The guided game plays the lesson's designed dice
    (:class:`~caterpillar_learn.lessons.scenarios.Scenario`); in the rounds
    the scenario leads, the only move offered is the helper's (a tutorial's
    scripted move, so that the rule to come certainly comes up), and a click
    on another box says so.  *new game* then plays seeded dice, every move
    free.  The event ``numbers`` (``{"value": true}``) shows or hides the
    numbers for grown-ups.  A question step asks before it shows: while its
    question waits for its right answer, the stars (or the scoring) stay hidden
    and the board's boxes answer instead of playing; a wrong try is shown in
    pictures and tried again, and after two the answer is shown for the
    learner to do (:class:`~caterpillar_learn.ui.quiz.Quiz`).

    The lesson follows the game: a step whose action is done moves on by
    itself, a roll on a step that only shows words goes on to the step it
    serves, and once the guided game is over the steps about its rounds are
    passed.  *next* and *back* stay for a grown-up.  At every moment
    :meth:`todo_target` names the one thing to do now, which the page marks.

    >>> lesson = LessonSession("01-beginner")
    >>> lesson.current.key, lesson.todo_target()
    ('beginner.intro', 'next')
    >>> lesson.handle({"type": "roll"})
    >>> lesson.current.key, lesson.todo_target()
    ('question.boxes', 'question')
    """

    #: The ``kind`` of this controller's saves (:mod:`caterpillar_learn.ui.resume`).
    save_kind: ClassVar[str] = "caterpillars-lesson"
    #: Whether a free game is followed by practice of its costliest moves (issue 33).
    practises: ClassVar[bool] = True

    def __init__(
        self,
        name: str | Lesson = "01-beginner",
        seed: int | None = None,
        *,
        helper: Helper = HERE,
        told: Callable[[], None] = lambda: None,
    ) -> None:
        #: The lesson: one of ours by name, or a teacher's (:func:`caterpillar_learn.lessons.files.lesson_of`).
        self.lesson: Lesson = name if isinstance(name, Lesson) else get_lesson(name)
        #: The step (0-based) nobody goes past: a teacher holds the class there (``None``: no hold).
        self.hold: int | None = None
        #: Whether the helper's Hint is offered once the guided game is over (a classroom's room may switch it
        #: off: issue 42); a step that teaches the hint keeps it.
        self.free_hints = True
        lesson = self.lesson
        #: The practice of the learner's own costliest moves, in a lesson whose free games keep its level.
        self.practice_part: LessonPractice | None = None
        if self.practises and lesson.auto_setup and lesson.practice is None and "board" in lesson.widgets:
            self.practice_part = LessonPractice(self, PracticePanel(lesson.level, solve=helper.prepare))
        #: The lesson's starting seed (*new game* moves :attr:`seed` on; a save names this one).
        self.start_seed = self.lesson.seed if seed is None else seed
        #: Every event this lesson accepted, in order, without ``seq``: what :meth:`save` replays.
        self.accepted: list[dict[str, Any]] = []
        self.step = 0
        self.quiz = Quiz(show_after=2)
        self.games_made = 0
        #: The lesson's steps, followed as the game goes.
        self.stepper = Stepper(self)
        #: The rounds the guided game leads, and the helper's move for the one on the board.
        self.led = LedRounds(self)
        self._notes: dict[tuple[int, bool, str], dict[str, list[str]]] = {}  # (game, playing, language) → notes
        practice = None if lesson.practice is None else (lesson.practice.level, lesson.practice.variation)
        super().__init__(
            lesson.level,
            lesson.seed if seed is None else seed,
            variation=lesson.variation,
            auto_setup=lesson.auto_setup,
            practice=practice,
            numbers=lesson.numbers,
            helper=helper,
            told=told,
        )
        self.stepper.ask()

    def make_game(self, seed: int) -> Game:
        self.games_made += 1
        self.led.forget()
        if self.games_made == 1 and self.lesson.scenario is not None:
            return guided_game(self.lesson, seed)
        return super().make_game(seed)

    def led_move(self) -> Move | None:
        """The one move the lesson offers this round (:meth:`LedRounds.move <.led.LedRounds.move>`)."""
        return self.led.move()

    def led_known(self) -> Move | None:
        """This round's led move if the helper has found it (:meth:`LedRounds.known <.led.LedRounds.known>`)."""
        return self.led.known()

    def awaits_helper(self) -> bool:
        """Whether the helper still works out this round's led move, the hint asked for or the practice of the
        finished game (no move meanwhile: a server refuses it, and the board shows no star)."""
        return self.led.missing() or any(self.awaits(kind) for kind in ("hint", "practice"))

    def catch_up(self) -> None:
        super().catch_up()
        if self.led.leads():
            self.led.move()  # asked for as soon as the round is revealed: its star is on the board

    @property
    def held(self) -> bool:
        """Whether a teacher holds the class at (or before) this step."""
        return self.hold is not None and self.step >= self.hold

    def rolls_for_learner(self) -> bool:
        """Whether the next roll is someone else's (a classroom where the teacher rolls for the class): then the
        page marks nothing of the learner's and says whose roll it is.  Here, in a lesson of one's own: never."""
        return False

    def offers_hint(self) -> bool:
        """Whether the Hint is the learner's now: always in the guided game, after it as :attr:`free_hints` says."""
        return self.free_hints or self.games_made <= 1

    @property
    def waits_for_teacher(self) -> bool:
        """Whether the learner has done the step the teacher holds the class at: the dice and the board wait
        (issue 42: a hold that holds), so that what comes after it is about the dice on this board."""
        return self.held and self.is_step_done() and not self.practising

    def let_go(self) -> None:
        """The teacher let go (or moved the hold on): the lesson catches up with what the learner did meanwhile."""
        if self.held:
            return
        if self.revealed and self.game.phase != "over":
            self.stepper.pass_words()  # the learner rolled on a step of words: they are doing what comes next
        self.stepper.follow()

    @property
    def current(self) -> Step:
        return self.stepper.current

    def is_step_done(self) -> bool:
        """The current step's check (:meth:`Stepper.done <.stepper.Stepper.done>`)."""
        return self.stepper.done()

    @property
    def practice_panel(self) -> PracticePanel | None:
        """The practice's panel (its book, its position), in a lesson whose free games are practised."""
        return None if self.practice_part is None else self.practice_part.panel

    @property
    def practising(self) -> bool:
        """Whether a practice of this game's costliest moves is under way (the board shows its position)."""
        return self.practice_part is not None and self.practice_part.active

    def free_game_over(self) -> bool:
        """Whether the game on the board is a finished free game of the lesson's free play (its last step: the
        guided game and its questions come first)."""
        free = self.games_made > 1 or self.lesson.scenario is None
        return self.game.phase == "over" and free and self.step == len(self.lesson.steps) - 1

    def _free_game_under_way(self) -> bool:
        """Whether a free game the learner started (New game at the lesson's last step) is on the board."""
        return self.games_made > 1 and self.stepper.is_last() and self.lesson.auto_setup

    def todo_target(self) -> str:
        """The one thing to do now, which the page marks: ``question`` (the question's panel), ``answer:<id>``
        or ``check`` (the answer being shown), ``next``, ``roll``, ``sheet`` (a box with a star, or a blank
        label), ``menu``, ``hint``, ``new_game``, or while practising ``sheet``, ``menu`` or ``practice_next``."""
        practice = self.practice_part
        if practice is not None and (practice.active or practice.offered()):
            return practice.panel.target()  # offered: the end scene stays, and the practice is the one thing to do
        if self.waits_for_teacher:
            return "wait"  # nothing of the learner's to do: the teacher holds the class here
        quiz = self.quiz
        if quiz.question is not None and quiz.is_pending:
            if quiz.showing:
                step = quiz.next_to_do()
                return step if step == "check" else f"answer:{step}"
            return "question"
        if shows_words(self.current) and not self.stepper.is_last():
            return "next"
        phase = self.game.phase
        if phase == "over" or (self.stepper.is_last() and not self.lesson.auto_setup and phase == "play"):
            return "new_game"  # lesson 0 fills labels only: its end offers another setup
        if self.menu_slot is not None:
            return "menu"
        if not self.revealed:
            return "wait" if self.rolls_for_learner() else "roll"
        if self.current.check == "hint" and phase == "play" and not self.hint:
            return "hint"
        return "sheet"

    @property
    def hides_result(self) -> bool:
        """Whether the guided game's scoring waits for "Which caterpillar will fly?" (asked at a later step)."""
        return self.stepper.hides_result()

    def can_go_on(self) -> bool:
        return self.stepper.can_go_on()

    @property
    def asking(self) -> bool:
        """Whether a question waits for a right answer (its answer is not shown yet; *next* opens once checked)."""
        return self.quiz.is_pending

    def legal_moves(self) -> list[Move]:
        """None while a question about this round waits for its right answer (the stars would give it away),
        while the helper works out what the round needs (:meth:`awaits_helper`), or while the lesson waits for the
        teacher (:attr:`waits_for_teacher`)."""
        if self.waits_for_teacher:
            return []
        question = self.quiz.question
        if self.asking and question is not None and question.kind != "fly":
            return []
        if self.awaits_helper():
            return []
        led = self.led_known()
        return [led] if led is not None else super().legal_moves()

    def choose(self, index: int) -> None:
        self.settle("led", "hint")
        super().choose(index)

    def click_box(self, slot: int) -> None:
        # A move comes after what the helper works out for the round (live, a server refuses it before: this
        # waits only where nobody waits for a page, a replay), so a replayed move meets the same led move.
        self.led_move()
        self.settle("led", "hint")
        led = self.led_known()
        if led is not None and slot != led.slot and any(m.slot == slot for m in super().legal_moves()):
            self.menu_slot = None  # a move the rules allow, but this round the lesson leads
            self.explanation = text("lessons.guided.follow")
            return
        super().click_box(slot)

    def handle(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        if kind in PRACTICE_EVENTS and "practice" in self.coming:
            self.settle("practice")  # a tap on the practice's board waits for the practice
        practice = self.practice_part
        if practice is None and kind in PRACTICE_EVENTS and kind.startswith("practice"):
            no_practice(event)  # a lesson without practice (its setup, the lab)
        if practice is not None and practice.takes(kind):
            practice.handle(event)  # the book keeps it: not an event of the lesson's save
            return
        if kind in HELD_MOVES and self.waits_for_teacher:
            raise BadEventError(text("classroom.lesson.held"))
        if kind == "hint" and not self.offers_hint():
            raise BadEventError(text("classroom.msg.hints_off"))
        if kind == "roll" and self.game.phase != "over" and not self.revealed:
            self.stepper.pass_words()
        if kind in ("option", "hint") and self.asking:
            raise BadEventError(text("lessons.question.answer_first"))
        if kind == "box" and self.asking:  # a tap on a box answers the question
            self.message = ""
            self._answer_with_box(event)
        else:
            super().handle(event)
        self.stepper.ask()
        if kind not in ("step", "numbers", "device", "nickname", "book"):
            self.stepper.follow()
        if practice is not None and kind in ("box", "option") and self.free_game_over():
            practice.game_over()
        if kind not in PAGE_EVENTS:
            self.accepted.append(copy.deepcopy({name: value for name, value in event.items() if name != "seq"}))

    # -- save and resume (caterpillar_learn.ui.resume) ------------------------------------
    def save(self) -> SaveRecord:
        """This lesson as JSON (:func:`.lesson_save.save_of`)."""
        return save_of(self)

    def replay(self, save: object) -> None:
        """Replay ``save`` on this fresh lesson through its own guard, or raise :class:`SaveError`
        (:func:`.lesson_save.replay`); after a :class:`SaveError` this lesson is spoilt."""
        replay(self, save)

    def fresh(self) -> LessonSession:
        """The same lesson and seed from its start, on the same page (touch or mouse)."""
        lesson = type(self)(self.lesson, self.start_seed)
        lesson.touch, lesson.quiz.nickname = self.touch, self.quiz.nickname
        if self.practice_panel is not None and lesson.practice_panel is not None:
            self.practice_panel.copy_to(lesson.practice_panel)  # the learner's practice goes on
        return lesson

    def close(self) -> None:
        """Drop the background solve if it has not started (a running one ends unread)."""
        if self.warmup is not None:
            self.warmup.cancel()

    @classmethod
    def restore(cls, save: object, *, lesson: str | None = None, seed: int | None = None) -> LessonSession:
        """The lesson ``save`` names, replayed (or :class:`SaveError`, one line naming the field and value).

        ``lesson`` and ``seed``, when given, are the lesson and starting seed the save must be of.
        """
        name = save.get("lesson") if isinstance(save, Mapping) else None
        if lesson is not None:
            name = lesson
        if seed is None:
            seed = save.get("seed") if isinstance(save, Mapping) else None
        if not isinstance(name, str) or name not in LESSONS:
            raise SaveError(describe("save lesson", name, "one of " + ", ".join(LESSONS)))
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
            raise SaveError(describe("save seed", seed, "a whole number from 0 to 4294967295"))
        restored = cls(name, seed)
        try:
            restored.replay(save)
        except SaveError:
            restored.close()
            raise
        return restored

    def _answer_with_box(self, event: Mapping[str, Any]) -> None:
        question = self.quiz.question
        assert question is not None
        slot = slot_of(event.get("caterpillar"), event.get("box"))  # type: ignore[arg-type]
        if question.kind != "boxes":
            raise BadEventError(text("lessons.question.answer_first"))
        self.quiz.choose(box_id(slot))

    def handlers(self) -> dict[str, Handler]:
        """A lesson's events: the board's, and its steps, questions, the grown-ups' switch and the practice."""
        return {
            **super().handlers(), "step": self.on_step, "answer": self.on_answer, "check": self.on_check,
            "numbers": self.on_numbers, "nickname": self.on_nickname, "book": self.on_book,
            "practice_next": self.on_practice_next, "practice_start": self.on_practice_start,
            "practice_stop": self.on_practice_stop,
        }  # fmt: skip

    # -- a lesson's own handlers ---------------------------------------------------------
    def on_step(self, event: Mapping[str, Any]) -> None:
        self.stepper.go(event.get("delta"))

    def on_answer(self, event: Mapping[str, Any]) -> None:
        self.quiz.choose(event.get("option"))

    def on_check(self, event: Mapping[str, Any]) -> None:
        self.quiz.check()

    def on_nickname(self, event: Mapping[str, Any]) -> None:
        self.quiz.name_learner(event.get("value"))

    def on_new_game(self, event: Mapping[str, Any]) -> None:
        if self.practice_panel is not None:
            self.practice_panel.new_game(self.game)
        super().on_new_game(event)

    def on_book(self, event: Mapping[str, Any]) -> None:
        """The page's practice book, handed back as the page opens (:meth:`LessonPractice.on_book
        <.lesson_practice.LessonPractice.on_book>`); a lesson without practice has none to read."""
        if self.practice_part is not None:
            self.practice_part.on_book(event)

    def on_practice_start(self, event: Mapping[str, Any]) -> None:
        self._practice(event).panel.start()

    def on_practice_next(self, event: Mapping[str, Any]) -> None:
        self._practice(event).panel.next()

    def on_practice_stop(self, event: Mapping[str, Any]) -> None:
        self._practice(event).panel.stop()

    def _practice(self, event: Mapping[str, Any]) -> LessonPractice:
        if self.practice_part is None:
            no_practice(event)  # a lesson without practice (its setup, the lab)
        assert self.practice_part is not None
        return self.practice_part

    def on_numbers(self, event: Mapping[str, Any]) -> None:
        value = event.get("value")
        if not isinstance(value, bool):
            raise BadEventError(describe("numbers", value, "true or false"))
        self.numbers = value

    # -- views ------------------------------------------------------------------
    def grown_ups(self) -> dict[str, list[str]]:
        """The grown-ups' notes: how the board works, and (in a game lesson) the class's dice for the seed."""
        playing = self.game.phase != "setup" or self.auto_setup  # the labels are known: so are the dice
        key = (self.games_made, playing, current_language())
        if key not in self._notes:  # the class's dice replay a whole game: once per game and language
            help_keys = [name for name in HELP if name != "led" or self.lesson.scenario is not None]
            teacher = game_dice(self.game, self.seed).splitlines() if playing else []
            self._notes[key] = {"help": [text(f"lessons.help.{name}") for name in help_keys], "teacher": teacher}
        return self._notes[key]

    def views(self) -> dict[str, Any]:
        views = super().views()
        lesson, current = self.lesson, self.current
        hide_result = self.hides_result
        if hide_result:  # "Which caterpillar will fly?" comes before the scoring
            views["final"], views["review"] = {}, {}
        question = self.quiz.question
        if self.asking and not self.numbers:  # the question is the thing now: the last move's words are old news
            views["explanation"] = ""
        if self.games_made > 1 and self.free_game_over() and not self.numbers:  # the end scene is the news now
            views["explanation"] = ""
        if self.asking or hide_result:
            boxes = question is not None and question.kind == "boxes" and self.asking
            answers = frozenset(slot_from_id(o.id) for o in question.options) if boxes and question else None
            chosen = frozenset(slot_from_id(i) for i in self.quiz.selected) if boxes else None
            views["sheet"] = sheet_view(
                self.game, [], self.pending, self.uid, answers=answers, chosen=chosen, result=not hide_result
            )
        target = self.todo_target()
        todo = "" if self.is_step_done() else self.words(f"lessons.todo.{current.check}")
        if current.question is not None and not self.is_step_done():  # an open question says what to do itself
            todo = "" if self.quiz.question is not None else self.words("lessons.todo.rolled")
        body = current.say if current.own else self.words(f"lessons.{current.key}.body")
        if current.question is not None and self.asking:  # the question below says it, once (issue 29)
            body = ""
        if self._free_game_under_way() or (self.practice_panel is not None and self.practice_panel.offers(self.game)):
            # "Tap New game" was for the guided game's end: a free game under way, or its end with the practice
            # offered beside it, says no more than the board does (issue 40: no stale instruction, few words)
            body = ""
        if todo and (todo in body or _same_button(todo, body)):  # said once is enough (issues 29 and 40)
            todo = ""
        if self.waits_for_teacher:  # what the learner does now: wait (a picture beside it on the page)
            todo, body = text("classroom.lesson.held"), ""
        elif target == "wait":  # the teacher rolls for the class: "Tap Roll" is not the learner's to do
            todo, body = text("classroom.msg.wait_roll"), ""
        views["lesson"] = {
            "name": lesson.name,
            "heading": lesson_title(lesson),
            "title": step_title(current),
            "body": body,
            "index": self.step,
            "count": len(lesson.steps),
            "progress": text("lessons.ui.step_of", number=self.step + 1, count=len(lesson.steps)),
            "can_back": self.step > 0,
            "can_next": self.can_go_on(),
            "todo": todo,
            "target": target,
            "waits": target == "wait",
            "no_hint": not self.offers_hint(),
            "new_game": target == "new_game" and not views["final"],
            "guide": "" if self.asking else self.led.line(),
            "numbers": self.numbers,
            "grown_ups": self.grown_ups() if self.numbers else {},
            # A move's words are read aloud while the lesson teaches with them; in the long run of rounds and in
            # free play the board shows the move and the voice keeps quiet (issue 40: the voice for the child).
            "quiet_talk": current.check == "game_over" or self.stepper.is_last(),
            "rights": self.quiz.rights,
        }
        views["question"] = self.quiz.view()
        views["record"] = self.quiz.record(lesson.name)
        if self.practice_part is not None:
            self.practice_part.views(views)
        return views


#: The lesson's buttons, by their catalogue keys: an instruction names one of them by its label.
BUTTONS = ("lessons.ui.roll", "lessons.ui.hint", "lessons.ui.new_game")


def _same_button(todo: str, body: str) -> bool:
    """Whether the step's words and the line of what to do name the same button (one instruction, said twice:
    "Tap Roll again." and "Tap Roll for round 2.").

    >>> _same_button("Tap Roll for round 2.", "Tap Roll again."), _same_button("Tap Hint.", "Tap Roll again.")
    (True, False)
    """
    return any(re.search(rf"\b{re.escape(label)}\b", todo) and re.search(rf"\b{re.escape(label)}\b", body)
               for label in map(text, BUTTONS))  # fmt: skip
