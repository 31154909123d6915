"""A lesson's Caterpillars game behind a widget: the board's session, with the lesson's steps around it.

A :class:`LessonSession` is a :class:`~caterpillar_learn.ui.caterpillars.controller.Session`
(the game, the board's events, the helper it is given) plus a lesson
(:mod:`caterpillar_learn.lessons`): its steps, its questions, its guided
game whose led rounds offer the helper's move only, the grown-ups' numbers,
the practice of a free game's costliest moves, a save that replays it, and
the step a teacher may hold a class at.

>>> lesson = LessonSession("01-beginner")
>>> lesson.current.key, lesson.todo_target()
('beginner.intro', 'next')
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, ClassVar

from caterpillar_learn.caterpillars import Game, Move
from caterpillar_learn.caterpillars.sheet import slot_of
from caterpillar_learn.errors import CaterpillarLearnError, describe, one_line
from caterpillar_learn.i18n import current_language, text
from caterpillar_learn.lessons import CHECKS, LESSONS, Lesson, Step, get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game
from caterpillar_learn.lessons.questions import (
    CHILD_MARGIN,
    ask_bonus,
    ask_boxes,
    ask_fly,
    ask_split,
    ask_zero,
    box_id,
    slot_from_id,
)
from caterpillar_learn.lessons.scenarios import is_led
from caterpillar_learn.lessons.teacher import game_dice
from caterpillar_learn.practice import Book, Mistake, game_key
from caterpillar_learn.ui.caterpillars.advice import (
    HERE,
    WAIT_SECONDS,
    Helper,
    helper_move,
)
from caterpillar_learn.ui.caterpillars.controller import Session, log
from caterpillar_learn.ui.caterpillars.practice import PracticePanel, worked_out
from caterpillar_learn.ui.caterpillars.views import (
    dice_view,
    legal_view,
    menu_view,
    sheet_view,
)
from caterpillar_learn.ui.events import BadEventError, Handler, event_type, handler, whole
from caterpillar_learn.ui.quiz import Quiz
from caterpillar_learn.ui.resume import SAVE_FORMAT, SaveError, SaveRecord, check_save

__all__ = ["HELP", "PAGE_EVENTS", "PRACTICE_EVENTS", "LessonSession"]

#: Events that describe the page, not the lesson: a save does not keep them (the next page sends its own).
#: ``book`` is the page's practice book, kept apart from the lesson's save (:mod:`.practice`).
PAGE_EVENTS = frozenset({"device", "nickname", "book"})
#: The events of a practice under way: the book keeps what they did, so a save does not keep them.
PRACTICE_EVENTS = frozenset({"box", "option", "close", "practice_start", "practice_next", "practice_stop"})
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
        name: str = "01-beginner",
        seed: int | None = None,
        *,
        helper: Helper = HERE,
        told: Callable[[], None] = lambda: None,
    ) -> None:
        self.lesson: Lesson = get_lesson(name)
        #: The step (0-based) nobody goes past: a teacher holds the class there (``None``: no hold).
        self.hold: int | None = None
        #: Whether the helper's Hint is offered once the guided game is over (a classroom's room may switch it
        #: off: issue 42); a step that teaches the hint keeps it.
        self.free_hints = True
        lesson = self.lesson
        #: The practice of the learner's own costliest moves, in a lesson whose free games keep its level.
        self.practice_panel: PracticePanel | None = None
        if self.practises and lesson.auto_setup and lesson.practice is None and "board" in lesson.widgets:
            self.practice_panel = PracticePanel(lesson.level, solve=helper.prepare)
        #: The lesson's starting seed (*new game* moves :attr:`seed` on; a save names this one).
        self.start_seed = self.lesson.seed if seed is None else seed
        #: Every event this lesson accepted, in order, without ``seq``: what :meth:`save` replays.
        self.accepted: list[dict[str, Any]] = []
        self.step = 0
        self.quiz = Quiz(show_after=2)
        self.games_made = 0
        self._led: tuple[int, Move] | None = None  # (turn, the led move), once worked out
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
        self._ask()

    def make_game(self, seed: int) -> Game:
        self.games_made += 1
        self._led = None
        if self.games_made == 1 and self.lesson.scenario is not None:
            return guided_game(self.lesson, seed)
        return super().make_game(seed)

    def _helper(self) -> Move:
        """The helper's best move for this round, waited for (a question about the round needs it now)."""
        future = self.helper.move(self.game.state, self.game.roll(), self.warmup)
        try:
            return future.result(WAIT_SECONDS)
        except Exception:  # the lesson goes on: worked out here instead
            log.exception("%s: the helper's move failed", self.lesson.name)
            return helper_move(self.game.state, self.game.roll())

    def _led_round(self) -> bool:
        scenario = self.lesson.scenario
        return scenario is not None and self.games_made == 1 and self.revealed and is_led(scenario, self.game)

    def led_move(self) -> Move | None:
        """The one move the lesson offers this round, in a round its guided game leads (else ``None``).

        ``None`` too while the helper works it out elsewhere (:meth:`awaits_helper`): its arrival redraws.
        """
        if not self._led_round():
            return None
        if self.led_known() is None and "led" not in self.coming:
            self.expect("led", self.helper.move(self.game.state, self.game.roll(), self.warmup), self._take_led)
        return self.led_known()

    def led_known(self) -> Move | None:
        """This round's led move if the helper has found it (asks nothing: :meth:`led_move` asks)."""
        if self._led is None or self._led[0] != len(self.game.history) or not self._led_round():
            return None
        return self._led[1]

    def _take_led(self, move: Move | None) -> None:
        if move is None:  # the helper failed elsewhere (said in one line): worked out here
            move = helper_move(self.game.state, self.game.roll())
        self._led = (len(self.game.history), move)

    def awaits_helper(self) -> bool:
        """Whether the helper still works out this round's led move, the hint asked for or the practice of the
        finished game (no move meanwhile: a server refuses it, and the board shows no star)."""
        led_missing = self._led_round() and self.led_known() is None
        return led_missing or any(self.awaits(kind) for kind in ("hint", "practice"))

    def catch_up(self) -> None:
        super().catch_up()
        if self._led_round():
            self.led_move()  # asked for as soon as the round is revealed: its star is on the board

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
            self._pass_words()  # the learner rolled on a step of words: they are doing what comes next
        self._follow()

    @property
    def current(self) -> Step:
        return self.lesson.steps[self.step]

    def is_step_done(self) -> bool:
        """The current step's check (every check passes once a game is finished).

        A question needs its answer, except a question about a round's dice
        once the game is over (its moment has passed).
        """
        kind = self.current.question
        if kind is not None:
            answered = self.quiz.key == self.current.key and self.quiz.is_right
            return answered or (kind != "fly" and self.game.phase == "over")
        return CHECKS[self.current.check](self.progress) or self.progress.games_finished >= 1

    @staticmethod
    def _shows_words(step: Step) -> bool:
        """Whether a step only shows words (no action of its own: the learner goes on with *next*)."""
        return step.question is None and step.check == "none"

    def _fly_step(self) -> int | None:
        return next((i for i, step in enumerate(self.lesson.steps) if step.question == "fly"), None)

    def _is_last(self) -> bool:
        return self.step == len(self.lesson.steps) - 1 or self.held

    def _move(self, delta: int) -> None:
        self.step = max(0, min(len(self.lesson.steps) - 1, self.step + delta))
        if self.current.question is None or self.quiz.key != self.current.key:
            self.quiz.close()
        self._ask()

    def _pass_words(self) -> None:
        """A roll on a step of words goes on: the learner is already doing what comes next."""
        while not self._is_last() and self._shows_words(self.current):
            self._move(1)

    def _follow(self) -> None:
        """Move on from every step whose action is done (a step of words waits for *next*, except the
        guided game's steps about its rounds once it is over)."""
        fly = self._fly_step()
        while not self._is_last():
            current = self.current
            if self._shows_words(current):
                over = self.progress.games_finished >= 1 and fly is not None and self.step < fly
                if not over:
                    return
            elif not self.is_step_done():
                return
            if current.question is not None and self.quiz.key == current.key and self.quiz.feedback is not None:
                # "Right!" stays in sight on the next step (why, in full words, with the numbers for grown-ups);
                # the child's why was on the screen already, and the next step says what to do (issue 29)
                # the flight's why is the lesson's point (the middle one flies) and stays whole; elsewhere the
                # next step says what to do, and only "Right!" stays (issue 29: fewer words, once)
                said = self.quiz.feedback.text
                sentences = re.split(r"(?<=[.!?])\s+", said)
                if current.question != "fly":
                    said = sentences[0]  # "Right!", "Both are fine here."
                else:  # the totals are on the board beside the end scene now: the why without them (issue 40)
                    said = " ".join(sentence for sentence in sentences if not re.search(r"\d", sentence))
                self.explanation = self.quiz.detail if self.numbers else said
            self._move(1)

    @property
    def practising(self) -> bool:
        """Whether a practice of this game's costliest moves is under way (the board shows its position)."""
        return self.practice_panel is not None and self.practice_panel.is_active(self.game)

    def _free_game_over(self) -> bool:
        """Whether the game on the board is a finished free game of the lesson's free play (its last step: the
        guided game and its questions come first)."""
        free = self.games_made > 1 or self.lesson.scenario is None
        return self.game.phase == "over" and free and self.step == len(self.lesson.steps) - 1

    def _free_game_under_way(self) -> bool:
        """Whether a free game the learner started (New game at the lesson's last step) is on the board."""
        return self.games_made > 1 and self._is_last() and self.lesson.auto_setup

    def todo_target(self) -> str:
        """The one thing to do now, which the page marks: ``question`` (the question's panel), ``answer:<id>``
        or ``check`` (the answer being shown), ``next``, ``roll``, ``sheet`` (a box with a star, or a blank
        label), ``menu``, ``hint``, ``new_game``, or while practising ``sheet``, ``menu`` or ``practice_next``."""
        if self.practice_panel is not None and (self.practising or self.practice_panel.offers(self.game)):
            return self.practice_panel.target()  # offered: the end scene stays, and the practice is the one thing to do
        if self.waits_for_teacher:
            return "wait"  # nothing of the learner's to do: the teacher holds the class here
        quiz = self.quiz
        if quiz.question is not None and quiz.is_pending:
            if quiz.showing:
                step = quiz.next_to_do()
                return step if step == "check" else f"answer:{step}"
            return "question"
        if self._shows_words(self.current) and not self._is_last():
            return "next"
        phase = self.game.phase
        if phase == "over" or (self._is_last() and not self.lesson.auto_setup and phase == "play"):
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
        fly = [i for i, step in enumerate(self.lesson.steps) if step.question == "fly"]
        if not fly or self.games_made > 1 or self.game.phase != "over":
            return False
        asked_here = self.current.question == "fly" and self.quiz.is_right
        return self.step <= fly[0] and not asked_here

    def can_go_on(self) -> bool:
        return self.step < len(self.lesson.steps) - 1 and self.is_step_done() and not self.held

    # -- questions ------------------------------------------------------------
    def _ask(self) -> None:
        """Ask the current step's question once the game has reached it (dice rolled, or the end)."""
        kind = self.current.question
        if kind is None:
            if self.quiz.question is not None:
                self.quiz.close()
            return
        if self.quiz.question is not None and self.quiz.key == self.current.key:
            return
        game = self.game
        if kind == "fly":
            if game.phase == "over":
                self.quiz.ask(ask_fly(game.state), self.current.key)
            return
        if game.phase != "play" or not self.revealed:
            return
        state, roll = game.state, game.roll()
        if kind == "boxes":
            question = ask_boxes(state, roll)
        elif kind == "zero":
            question = ask_zero(state, roll)
        elif kind == "bonus":
            question = ask_bonus(state, roll, self._helper(), CHILD_MARGIN)
        else:
            question = ask_split(state, roll, self._helper().slot)
        self.quiz.ask(question, self.current.key)

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
        practice_event = kind in PRACTICE_EVENTS and (self.practising or kind.startswith("practice"))
        if practice_event and self.practice_panel is None:
            raise BadEventError(text("practice.done"))  # a lesson without practice (its setup, the lab)
        if self.practice_panel is not None and practice_event:
            self.message = ""
            self._practise(event)  # the book keeps it: not an event of the lesson's save
            return
        if kind in HELD_MOVES and self.waits_for_teacher:
            raise BadEventError(text("classroom.lesson.held"))
        if kind == "hint" and not self.offers_hint():
            raise BadEventError(text("classroom.msg.hints_off"))
        if kind == "roll" and self.game.phase != "over" and not self.revealed:
            self._pass_words()
        if kind in ("option", "hint") and self.asking:
            raise BadEventError(text("lessons.question.answer_first"))
        if kind == "box" and self.asking:  # a tap on a box answers the question
            self.message = ""
            self._answer_with_box(event)
        else:
            super().handle(event)
        self._ask()
        if kind not in ("step", "numbers", "device", "nickname", "book"):
            self._follow()
        if self.practice_panel is not None and kind in ("box", "option") and self._free_game_over():
            self._practise_game()
        if kind not in PAGE_EVENTS:
            self.accepted.append(copy.deepcopy({name: value for name, value in event.items() if name != "seq"}))

    # -- save and resume (caterpillar_learn.ui.resume) ------------------------------------
    def save(self) -> SaveRecord:
        """This lesson as JSON: its accepted events and the engine's save of the game on the board.

        >>> lesson = LessonSession("00-setup")
        >>> lesson.handle({"type": "step", "delta": 1, "seq": 7})
        >>> saved = lesson.save()
        >>> saved["kind"], saved["seed"], saved["events"], saved["engine"]["level"]
        ('caterpillars-lesson', 1, [{'type': 'step', 'delta': 1}], 'beginner')
        """
        self._draw_turn()
        return {
            "format": SAVE_FORMAT,
            "kind": self.save_kind,
            "lesson": self.lesson.name,
            "seed": self.start_seed,
            "events": copy.deepcopy(self.accepted),
            "engine": self.game.to_json(),
        }

    def replay(self, save: object) -> None:
        """Replay ``save`` on this fresh lesson through its own guard, or raise :class:`SaveError`.

        Each event must be one the lesson accepts at that moment, and the
        engine's save (read back with ``Game.from_json``) must be the game the
        events reach.  After a :class:`SaveError` this lesson is spoilt: build
        another (:meth:`fresh`).

        >>> lesson = LessonSession("01-beginner")
        >>> saved = {**lesson.save(), "events": [{"type": "option", "index": 0}]}
        >>> LessonSession("01-beginner").replay(saved)
        Traceback (most recent call last):
        ...
        caterpillar_learn.ui.resume.SaveError: save events[0]: Roll the dice first.
        """
        if self.accepted:
            raise SaveError(describe("lesson", f"{len(self.accepted)} events played", "a fresh lesson to replay on"))
        events = check_save(save, self.save_kind, self.lesson.name, self.start_seed)
        assert isinstance(save, Mapping)
        engine = save["engine"]
        try:
            Game.from_json(engine)
        except CaterpillarLearnError as error:
            raise SaveError(f"save engine: {error}") from None
        for index, event in enumerate(events):
            try:
                if event_type(event, self.events) in PAGE_EVENTS:
                    raise BadEventError(describe("event type", event["type"], "an event of the lesson"))
                self.handle(event)
            except CaterpillarLearnError as error:
                raise SaveError(f"save events[{index}]: {error}") from None
            except Exception as error:  # whatever the event was, the save is refused, never the page
                raise SaveError(f"save events[{index}]: could not be replayed ({type(error).__name__})") from None
            if self.message:  # an event the lesson refused in words (not raised): not one it accepted
                raise SaveError(f"save events[{index}]: {self.message}")
        self._draw_turn()
        replayed = self.game.to_json()
        if replayed != engine:
            field = next((key for key in replayed if replayed[key] != engine.get(key)), "format")
            raise SaveError(describe(f"save engine.{field}", engine.get(field), "the game its events reach"))

    def _draw_turn(self) -> None:
        """Draw this turn's dice if not yet drawn (the board shows them), so that two saves of one moment agree."""
        if self.game.phase != "over":
            self.game.roll()

    def fresh(self) -> LessonSession:
        """The same lesson and seed from its start, on the same page (touch or mouse)."""
        lesson = type(self)(self.lesson.name, self.start_seed)
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
        self._step(event.get("delta"))

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
        """The page's practice book (``localStorage``), handed back as the page opens: checked by the engine;
        a book that cannot be read is refused in one line and the practice starts again."""
        if self.practice_panel is None:
            return
        try:
            self.practice_panel.load(event.get("book"))
        except CaterpillarLearnError as error:
            log.warning("%s: a practice book was refused: %s", self.lesson.name, one_line(str(error)))
            self.message = text("practice.refused", why=one_line(str(error)))
        if self._free_game_over():
            self.practice_panel.after_game(self.game)

    def _practise_game(self) -> None:
        """The finished free game goes to the practice, worked out by the helper (here at once, or elsewhere)."""
        panel = self.practice_panel
        assert panel is not None
        key = game_key(self.game)
        if key in panel.book.booked or "practice" in self.coming:
            return
        job = (self.game.to_json(), panel.book.to_json(), panel.today().isoformat())
        future = self.helper.work(worked_out, self.game.state, *job, urgent=False)
        self.expect("practice", future, partial(self._take_practice, key), keep=True)

    def _take_practice(self, key: str, found: tuple[dict[str, Any], dict[int, Mistake]] | None) -> None:
        panel = self.practice_panel
        if found is None or panel is None or key in panel.book.booked:
            return
        book, worked = found
        panel.take(Book.from_json(book, panel.level), worked)

    def on_practice_start(self, event: Mapping[str, Any]) -> None:
        assert self.practice_panel is not None
        self.practice_panel.start()

    def on_practice_next(self, event: Mapping[str, Any]) -> None:
        assert self.practice_panel is not None
        self.practice_panel.next()

    def on_practice_stop(self, event: Mapping[str, Any]) -> None:
        assert self.practice_panel is not None
        self.practice_panel.stop()

    def _practise(self, event: Mapping[str, Any]) -> None:
        """A practice event: a try on the board (a box, a menu's option), or on to the next position."""
        practice = self.practice_panel
        assert practice is not None
        kind = event_type(event, self.events)
        if not self.practising and not (kind == "practice_start" and practice.offers(self.game)):
            raise BadEventError(text("practice.done"))
        if kind == "box":
            practice.tap(slot_of(event.get("caterpillar"), event.get("box")))  # type: ignore[arg-type]
        elif kind == "option":
            practice.choose(whole(event.get("index"), "option index"))
        elif kind == "close":
            practice.menu_slot = None
        else:
            handler(event, self.handlers())(event)

    def on_numbers(self, event: Mapping[str, Any]) -> None:
        value = event.get("value")
        if not isinstance(value, bool):
            raise BadEventError(describe("numbers", value, "true or false"))
        self.numbers = value

    def _step(self, delta: object) -> None:
        if isinstance(delta, bool) or delta not in (1, -1):
            raise BadEventError(describe("step delta", delta, "1 (next) or -1 (back)"))
        if delta == 1 and self.held:
            raise BadEventError(text("classroom.lesson.held"))
        if delta == 1 and not self.can_go_on():
            if self.current.question is not None:
                raise BadEventError(text("lessons.question.answer_first"))
            raise BadEventError(text(f"lessons.todo.{self.current.check}"))
        self._move(delta)

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
        if self.games_made > 1 and self._free_game_over() and not self.numbers:  # the end scene is the news now
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
        body = self.words(f"lessons.{current.key}.body")
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
            "heading": text(lesson.title_key),
            "title": text(f"lessons.{current.key}.title"),
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
            "guide": self._guide(),
            "numbers": self.numbers,
            "grown_ups": self.grown_ups() if self.numbers else {},
            # A move's words are read aloud while the lesson teaches with them; in the long run of rounds and in
            # free play the board shows the move and the voice keeps quiet (issue 40: the voice for the child).
            "quiet_talk": current.check == "game_over" or self._is_last(),
            "rights": self.quiz.rights,
        }
        views["question"] = self.quiz.view()
        views["record"] = self.quiz.record(lesson.name)
        if self.practice_panel is not None:
            views["practice"] = self.practice_panel.view(self.game)
            if "practice" in self.coming:  # the finished game's practice, on its way from the helper
                views["practice"] = {
                    "status": "thinking",
                    "title": text("practice.title"),
                    "said": text("lessons.ui.thinking"),
                }
            views["book"] = self.practice_panel.stored(lesson.name)
            if self.practising:
                self._practice_board(views)
        return views

    def _guide(self) -> str:
        """The line about a led round: the helper's move is the one offered (or it is on its way)."""
        if self.asking:
            return ""
        if self._led_round() and self.led_known() is None:
            return text(self.helper.move_thinking)
        return text("lessons.guided.led") if self.led_known() is not None else ""

    def _practice_board(self, views: dict[str, Any]) -> None:
        """The board while practising: the position's sheet and dice, its offered moves, no scoring."""
        practice = self.practice_panel
        assert practice is not None and practice.board is not None
        board, shown = practice.board, practice.shown_board()
        assert shown is not None
        legal = legal_view(board, practice.legal(), [])
        views["sheet"] = sheet_view(shown, legal, {}, self.uid)  # once answered, with the answer written in
        views["dice"] = dice_view(board, revealed=True, count=self.roll_count, used=[], selected=None)
        views["legal"], views["menu"] = legal, menu_view(practice.menu_slot, legal)
        views["final"], views["review"], views["hint"], views["whatif"], views["explanation"] = {}, {}, {}, {}, ""
        # The practice panel says what to do: the free play's words wait (few words on screen, issue 29).
        views["lesson"] = {**views["lesson"], "new_game": False, "todo": "", "body": ""}
        if not self.numbers:  # the idea's name is for grown-ups
            views["practice"] = {**views["practice"], "idea": ""}


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
