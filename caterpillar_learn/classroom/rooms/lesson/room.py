"""A lesson room: the class plays one of the lessons, every pupil's answers and steps an event of the log.

A :class:`LessonRoom` holds the lesson the teacher chose
(:class:`~.lessonpupil.LessonSettings`) and one controller per pupil, the
very controller the lesson runs on in Voila
(:class:`~.lessonpupil.LessonPupil`, :mod:`.lessonpupil`).  A pupil's
event is checked by the room (a known kind of that controller, a small JSON
object, the class not paused), written to the log and committed
(``lesson_event``), and only then handed to the controller
(:meth:`LessonRoom.apply`) and shown.  The controllers are deterministic, so
a restart replays each pupil's events through a fresh controller and the
pupil is back at the same step; a reload or another tablet with the pupil's
secret finds the controller in the room as it is.

The room knows nothing about Panel.  What the teacher does is an event too:
``dice_released`` (mode ``together``: the teacher's roll shows the lesson's
next dice on every sheet, and nobody rolls ahead), ``step_held`` (nobody
goes past that step), ``class_paused`` and ``names_hidden``.  Each event's
handler is in :meth:`LessonRoom.appliers`; an unknown kind is refused.

A Räuber Raupe lesson's table runs on the server's clock, as the
classroom's own tables do (:meth:`LessonRoom.tick`, four times a second):
the pages send no ticks (one that does is not written).  The room moves a
table's clock when its bots have a move due and shows the move at once; the
steps it took are written together, at most every :data:`CLOCK_WRITE`
seconds for the whole room (``tables_clock``: each step's table and seconds,
in order), and always before any other event of the room; the time since a
pupil's table last moved is a step of its own, taken just before that
pupil's event (an older log carried it inside the event, as ``elapsed``,
and still replays).  A replay
moves each table's clock by the same steps, so the bots play again exactly
as they did; a crash forgets at most the bots' last few seconds, which the
table then plays again the same way.  A table whose pupil has done nothing
for :data:`IDLE_PAUSE` seconds is paused by the room (once, a step of that
row), and a table nobody's page shows waits, so while nobody plays nothing
is written.  An event that the pupil's controller refuses, or that
changes nothing (a tick, the same speed again), is not written: a pupil's
event is tried on the controller first and written once it took it
(:meth:`~.eventroom.EventRoom.record`).  Each pupil, however many tabs they
open, may send at most :data:`EVENTS_PER_MINUTE` events a minute (a burst
of :data:`EVENT_BURST` first; one token bucket a pupil, :attr:`LessonRoom.pace`,
which the page's widget asks, :class:`~caterpillar_learn.classroom.rooms.lesson.page.InRoom`),
and at most :data:`PAGES_PER_PUPIL` of their pages play: a newer tab takes
over from the oldest, which says so in one line.

What the teacher sees of each pupil is :meth:`LessonRoom.progress`: the
step, the questions asked and right at the first try, and whether the pupil
is stuck (no progress for :data:`STUCK_SECONDS`, or :data:`STUCK_WRONG`
wrong answers in a row).

>>> room = LessonRoom("KX47PQ", LessonSettings.build("01-beginner"), clock=lambda: 100.0)
>>> ada = room.join("Ada")
>>> room.act(ada.id, {"type": "step", "delta": 1})
>>> room.act(ada.id, {"type": "roll"})
>>> row = room.progress()[0]
>>> row["nickname"], row["step"], row["steps"], row["asked"], row["stuck"]
('Ada', 3, 13, 0, False)
>>> [kind for kind, _ in room.log]
['pupil_joined', 'lesson_event', 'lesson_event']
>>> room.act(ada.id, {"type": "fly"})
Traceback (most recent call last):
...
caterpillar_learn.classroom.codes.ClassroomError: event type: got 'fly', expected one of roll, box, option, close, \
die, hint, review, new_game, whatif, device, step, answer, check, numbers, nickname, practice_next, practice_start, \
practice_stop
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar, TypedDict

from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.sheet import ROUNDS
from caterpillar_learn.classroom.codes import ClassroomError, JoinLimit
from caterpillar_learn.classroom.eventroom import EventRoom
from caterpillar_learn.classroom.rooms.lesson.pupil import (
    LESSON_NAMES,
    MODES,
    LessonPupil,
    LessonSettings,
    RoomLesson,
    RoomTable,
    SharedHelper,
    lesson_kind,
    lesson_title,
    new_controller,
    table_steps,
)
from caterpillar_learn.errors import CaterpillarLearnError, describe, one_line
from caterpillar_learn.i18n import current_language, language, text
from caterpillar_learn.lessons.caterpillars import step_title
from caterpillar_learn.practice import IDEAS
from caterpillar_learn.practice.ideas import ideas_at
from caterpillar_learn.ui.caterpillars.advice import Helper
from caterpillar_learn.ui.events import BadEventError, event_type
from caterpillar_learn.ui.raupe.controller import MAX_TICK

__all__ = [
    "CSV_COLUMNS",
    "EVENTS",
    "LESSON_NAMES",
    "MODES",
    "LessonPupil",
    "LessonRoom",
    "LessonSettings",
    "ProgressRow",
    "RoomLesson",
    "RoomTable",
    "lesson_kind",
    "lesson_title",
]

log = logging.getLogger("caterpillar_learn.classroom")

#: Seconds without progress after which a pupil shows as stuck.
STUCK_SECONDS = 90.0
#: Wrong answers in a row after which a pupil shows as stuck.
STUCK_WRONG = 3
#: The longest event a page may send, as JSON (a lesson's events are a few fields).
MAX_EVENT_CHARS = 600
#: Seconds without an action of its pupil after which a running Räuber Raupe table is paused by the room.
IDLE_PAUSE = 45.0
#: Seconds between the rows that write the Räuber Raupe tables' steps (the bots' moves, the room's pauses): the
#: most a crash can forget of them, and at most one row in that time for the whole room.
CLOCK_WRITE = 5.0
#: The events a pupil's page may send (a token bucket per page: a burst, then this many a minute); a child
#: taps a few times a second at most.
EVENT_BURST = 40
EVENTS_PER_MINUTE = 600.0
#: The pages that play one pupil's lesson at once: a tablet and one more (a reload whose old page Bokeh has not
#: closed yet, a second device).  A newer page takes over from the oldest, which is told so in one line.
PAGES_PER_PUPIL = 2
#: The progress file's first columns, one row per pupil and lesson; then one per idea of the practice that the
#: lesson's level has (issue 33), named in the teacher's words (issue 42: "A zero where it hurts least", not a
#: code name), each "not met yet", "practising" or "mastered" in words too (:meth:`LessonRoom.csv_columns`).
CSV_COLUMNS = (
    "nickname", "lesson", "step_reached", "steps", "round", "questions_asked", "right_first_try", "final_score",
    "minutes",
)  # fmt: skip

#: The pupil number a change for the teacher alone is announced with (a pupil's page listens for its own).
TEACHER = -1


class ProgressRow(TypedDict):
    """One pupil's line of a lesson room's progress: the teacher's grid shows it (the payload's row) and the progress
    file writes it.  ``name`` is what the projector shows ("Pupil 3" while the names are hidden), ``nickname`` the
    pupil's own ("" while hidden); the file takes the nickname from the pupil."""

    id: int
    name: str
    nickname: str
    step: int
    steps: int
    title: str
    asked: int
    right_first: int
    stuck: bool
    why_stuck: str
    held: bool
    #: The ideas the pupil's practice has met: idea → its state in words (practising, mastered).
    ideas: dict[str, str]
    #: "round 4" beside the step ("": a card lesson).
    round: str
    #: The final score of the pupil's last game (``None``: none finished), and the minutes since joining.
    final: int | None
    minutes: float


#: Each event of a lesson room's log (its handler: :meth:`LessonRoom.appliers`).
EVENTS: tuple[str, ...] = (
    "pupil_joined",
    "pupil_let_in",
    "pupil_removed",
    "pupil_renamed",
    "lesson_event",
    "table_clock",
    "tables_clock",
    "dice_released",
    "step_held",
    "class_paused",
    "names_hidden",
)
#: The events of one pupil's lesson: they redraw that pupil's page (and the teacher's).
PUPILS_OWN = ("lesson_event", "table_clock")


@dataclass
class LessonRoom(EventRoom):
    """One class in one lesson; every change is an event of its log, written before it is shown."""

    settings: LessonSettings
    clock: Callable[[], float] = time.time
    game_name: str = field(init=False, default="lesson")
    pupils: dict[int, LessonPupil] = field(init=False, default_factory=dict)
    #: The teacher's rolls (``together``): how many of the lesson's rolls every pupil may have.
    released: int = field(init=False, default=0)
    hold: int | None = field(init=False, default=None)
    paused: bool = field(init=False, default=False)
    anonymous: bool = field(init=False, default=False)
    _stuck: frozenset[int] = field(init=False, default=frozenset(), repr=False)
    #: The room's helper: the best moves worked out for any pupil, shared by all of them (:meth:`work_in`).
    shared: SharedHelper = field(init=False, default_factory=SharedHelper, repr=False)
    #: The real time that passed at each pupil's running table and is not written yet, and when it was last
    #: looked at (the server's monotonic clock): see :meth:`tick`.
    _unwritten: dict[int, float] = field(init=False, default_factory=dict, repr=False)
    _ticked: dict[int, float] = field(init=False, default_factory=dict, repr=False)
    #: The tables' steps shown and not written yet (``tables_clock``), and when the first of them was taken.
    _steps: list[dict[str, Any]] = field(init=False, default_factory=list, repr=False)
    _steps_since: float = field(init=False, default=0.0, repr=False)
    #: What each pupil's pages may still send, together (a token bucket a pupil, keyed by the pupil's number):
    #: a burst of :data:`EVENT_BURST`, then :data:`EVENTS_PER_MINUTE`, however many tabs the pupil opens.
    pace: JoinLimit = field(init=False, default_factory=lambda: JoinLimit(EVENT_BURST, EVENTS_PER_MINUTE), repr=False)
    #: The pages that play each pupil's lesson now, oldest first (at most :data:`PAGES_PER_PUPIL`).
    _playing: dict[int, list[int]] = field(init=False, default_factory=dict, repr=False)
    #: Set while a pupil's event is tried (:meth:`trial`): the controller's refusal then raises.
    _trying: bool = field(init=False, default=False, repr=False)
    #: A pupil's tap is tried on their controller before it is written: a refused one is not written.
    TRIED: ClassVar[tuple[str, ...]] = ("lesson_event",)

    def work_in(self, helper: Helper) -> None:
        """The room's helper works with ``helper`` (the server's worker processes) from now on, moves still shared."""
        super().work_in(helper)
        self.shared.inner = helper

    # -- what pages read ---------------------------------------------------------------
    @property
    def kind(self) -> str:
        return self.settings.kind

    def counted(self) -> list[LessonPupil]:
        """The pupils whose page has connected (or who did something before a restart)."""
        return [pupil for pupil in self.pupils.values() if pupil.id in self.roster.seen]

    def steps(self) -> list[str]:
        """The lesson's step titles, in the current language (what the teacher can hold the class at)."""
        settings = self.settings
        if settings.kind == "caterpillars":
            return [step_title(step) for step in settings.lesson_object().steps]
        return [text(f"classroom.lesson.raupe_step.{name}") for name in table_steps(settings.lesson)]

    def can_roll(self) -> bool:
        """Whether the teacher's roll (or start) means something: ``together``, in a lesson that rolls or starts."""
        return self.settings.mode == "together" and self.kind in ("caterpillars", "raupe")

    def is_stuck(self, pupil: LessonPupil, now: float | None = None) -> str:
        """Why ``pupil`` is stuck ("" if not): wrong answers in a row, or no progress for a while.

        A pupil the teacher holds, the whole class paused, and a pupil at the lesson's end are not stuck.
        """
        if pupil.wrong_run >= STUCK_WRONG:
            return "wrong"
        step, steps = pupil.place()
        held = pupil.session.held
        if self.paused or held or step >= steps:
            return ""
        if self.settings.mode == "together" and self._waits_for_teacher(pupil):
            return ""
        now = self.clock() if now is None else now
        return "idle" if now - pupil.progress_at >= STUCK_SECONDS else ""

    def _waits_for_teacher(self, pupil: LessonPupil) -> bool:
        session = pupil.session
        if isinstance(session, RoomLesson):
            return session.rolls_for_learner()
        if isinstance(session, RoomTable):
            return not session.started and self.released == 0
        return False

    def progress(self, now: float | None = None) -> list[ProgressRow]:
        """The teacher's grid: one row per pupil shown, in the order they joined."""
        now = self.clock() if now is None else now
        rows: list[ProgressRow] = []
        for pupil in self.counted():
            step, steps = pupil.place()
            answers = pupil.answers()
            why = self.is_stuck(pupil, now)
            played = self.round_of(pupil)
            rows.append(
                {
                    "id": pupil.id,
                    "name": self.shown(pupil.id, pupil.nickname),
                    "nickname": "" if self.anonymous else pupil.nickname,
                    "step": step,
                    "steps": steps,
                    "title": self._step_title(pupil),
                    "asked": len(answers),
                    "right_first": sum(1 for answer in answers if answer["correct"]),
                    "stuck": bool(why),
                    "why_stuck": text(f"classroom.lesson.stuck_{why}") if why else "",
                    "held": pupil.session.held,
                    "ideas": {idea: text(f"practice.state.{state}") for idea, state in self.ideas_of(pupil)},
                    "round": "" if played is None else text("classroom.lesson.round", round=played),
                    "final": pupil.final,
                    "minutes": round((pupil.last_at - pupil.joined_at) / 60.0, 1),
                }
            )
        return rows

    def shown(self, ident: int, nickname: str) -> str:
        """The name the projector shows: the nickname, or "Pupil 3" while the names are hidden."""
        return text("classroom.ui.anonymous", number=ident) if self.anonymous else nickname

    @staticmethod
    def round_of(pupil: LessonPupil) -> int | None:
        """The round of ``pupil``'s game as the sheet says it (``None`` in a card lesson): the grid shows it beside
        the step, so that a teacher sees who played on (issue 42)."""
        session = pupil.session
        return min(session.game.state.round, ROUNDS) if isinstance(session, RoomLesson) else None

    @staticmethod
    def ideas_of(pupil: LessonPupil) -> tuple[tuple[str, str], ...]:
        """The ideas ``pupil``'s practice has met, each ``practising`` or ``mastered`` (none in a card lesson)."""
        session = pupil.session
        if not isinstance(session, RoomLesson) or session.practice_panel is None:
            return ()
        book = session.practice_panel.book
        return tuple((idea, book.idea_state(idea)) for idea in IDEAS if idea in book.ideas)

    def most_missed(self) -> tuple[str, int] | None:
        """The idea most pupils are practising now (still missing), and how many: what to show the whole class
        next (the first of :data:`IDEAS` among equals); ``None`` when no pupil is practising one."""
        met = [self.ideas_of(pupil) for pupil in self.counted()]
        counts = {idea: sum(1 for ideas in met if (idea, "practising") in ideas) for idea in IDEAS}
        most = max(counts.values(), default=0)
        return None if most == 0 else (next(idea for idea in IDEAS if counts[idea] == most), most)

    def _step_title(self, pupil: LessonPupil) -> str:
        session = pupil.session
        if isinstance(session, RoomLesson):
            return step_title(session.current)
        return text(f"classroom.lesson.raupe_step.{session.step}")

    def progress_csv(self) -> str:
        """The room's progress as CSV (:data:`CSV_COLUMNS`), one row per pupil of the lesson.

        A nickname that a spreadsheet would read as a formula is written with a leading ``'``.
        """
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(self.csv_columns())
        ideas = self.csv_ideas()
        new = text("practice.state.new")
        for row in self.progress():
            pupil = self.pupils[row["id"]]
            played = self.round_of(pupil)
            writer.writerow(
                [
                    _cell(pupil.nickname),
                    self.settings.lesson,
                    pupil.reached,
                    row["steps"],
                    "" if played is None else played,
                    row["asked"],
                    row["right_first"],
                    "" if row["final"] is None else row["final"],
                    f"{row['minutes']:.1f}",
                    *(row["ideas"].get(idea, new) for idea in ideas),
                ]
            )
        return out.getvalue()

    def csv_ideas(self) -> tuple[str, ...]:
        """The ideas the progress file has a column for: those of the lesson's level (none in a card lesson)."""
        if self.settings.kind != "caterpillars":
            return ()
        return ideas_at(Level(self.settings.lesson_object().level))

    def csv_columns(self) -> tuple[str, ...]:
        """The progress file's columns: :data:`CSV_COLUMNS`, then each idea of :meth:`csv_ideas` in words."""
        return (*CSV_COLUMNS, *(text(f"practice.idea.{idea}") for idea in self.csv_ideas()))

    def csv_name(self) -> str:
        """The download's file name: the lesson, the room and the date (``01-beginner-KX47PQ-2026-12-03.csv``)."""
        return f"{self.settings.lesson}-{self.code}-{time.strftime('%Y-%m-%d', time.localtime(self.clock()))}.csv"

    # -- what happens (each one an event, written before it is applied) ---------------------
    def joining(self) -> dict[str, Any]:
        """When a new pupil joined (the room's clock)."""
        return {"at": self.clock()}

    def play_on(self, pupil: int, page: int) -> list[int]:
        """Page number ``page`` plays ``pupil``'s lesson from now on; the pages it takes over from (the oldest
        beyond :data:`PAGES_PER_PUPIL`), which play no more.

        >>> room = LessonRoom("KX47PQ", LessonSettings.build("01-beginner"))
        >>> [room.play_on(1, page) for page in (7, 8, 9)], room.plays(1, 7), room.plays(1, 9)
        ([[], [], [7]], False, True)
        """
        with self.lock:
            pages = [number for number in self._playing.get(pupil, []) if number != page] + [page]
            self._playing[pupil] = pages[-PAGES_PER_PUPIL:]
            return pages[:-PAGES_PER_PUPIL]

    def plays(self, pupil: int, page: int) -> bool:
        """Whether page number ``page`` plays ``pupil``'s lesson (no newer pages took over from it)."""
        return page in self._playing.get(pupil, ())

    def leave(self, pupil: int, page: int) -> None:
        """Page number ``page`` has closed: it plays no more."""
        with self.lock:
            pages = self._playing.get(pupil, [])
            if page in pages:
                pages.remove(page)

    def act(self, pupil: int, event: object) -> None:
        """A pupil's page sends ``event``: checked by the room, tried on the pupil's controller, and written
        once the controller took it (:meth:`~.eventroom.EventRoom.record`).

        Raises :class:`ClassroomError` (one line, nothing written) for an
        event the room or the controller refuses; the controller's refusal
        is also the pupil's :attr:`LessonPupil.refusal` (and its ``message``).
        """
        with self.lock:
            if self.closed is not None:  # archived, stopped, or its last write failed: every tap hears why
                raise ClassroomError(self.closed_line())
            found = self.pupils.get(pupil)
            if found is None:
                raise ClassroomError(text("classroom.msg.no_pupil"))
            try:
                kind = event_type(event, found.session.events)
            except BadEventError as error:
                raise ClassroomError(str(error)) from None
            assert isinstance(event, Mapping)
            try:
                line = json.dumps(dict(event), allow_nan=False, separators=(",", ":"))
            except (TypeError, ValueError):
                raise ClassroomError(describe("event", "…", "plain JSON")) from None
            if len(line) > MAX_EVENT_CHARS:
                raise ClassroomError(describe("event", f"{len(line)} characters", f"at most {MAX_EVENT_CHARS}"))
            if self.paused and kind != "device":
                raise ClassroomError(text("classroom.lesson.paused"))
            if self.settings.mode == "together":
                self._check_together(found, kind)
            if kind in ("box", "option") and isinstance(found.session, RoomLesson) and found.session.awaits_helper():
                raise ClassroomError(text("classroom.lesson.wait_helper"))  # not written: a replay plays no other move
            data: dict[str, Any] = {"pupil": pupil, "event": json.loads(line), "at": self.clock()}
            if self.changes_nothing("lesson_event", data):
                return
            elapsed = self._unwritten.pop(pupil, 0.0)
            if elapsed:  # the table's clock first (a step written before the event), then the pupil's event
                self._step(found, {"elapsed": round(elapsed, 3)}, time.monotonic(), tell=False)
            self.record("lesson_event", data)

    def changes_nothing(self, kind: str, data: Mapping[str, Any]) -> bool:
        """Whether an event would change nothing and so is not written (see :meth:`EventRoom.record`): the
        teacher's pause, hold or hidden names as they are already; a page's tick (a table's clock is the
        server's) or the speed its table has already.

        >>> room = LessonRoom("KX47PQ", LessonSettings.build("10-raupe-shape"))
        >>> room.pause(False); room.hide_names(False); room.hold_at(None); room.log
        []
        """
        same = {"class_paused": self.paused, "names_hidden": self.anonymous}
        if kind in same:
            return data.get("on") == same[kind]
        if kind == "step_held":
            return data.get("step") == self.hold
        if kind != "lesson_event":
            return False
        pupil, event = self.pupils.get(data.get("pupil", -1)), data.get("event")
        if pupil is None or not isinstance(event, Mapping) or not isinstance(pupil.session, RoomTable):
            return False
        return event.get("type") == "tick" or (
            event.get("type") == "speed" and event.get("value") == pupil.session.speed
        )

    def trial(self, kind: str, data: Mapping[str, Any]) -> None:
        """Play a pupil's event on their controller: its refusal raises (one line) and changes nothing."""
        self._trying = True
        try:
            self.appliers()[kind](data)
        finally:
            self._trying = False

    def before_write(self) -> None:
        """The tables' steps not written yet are written before any other event."""
        self.write_steps()

    def part_of(self, kind: str, data: Mapping[str, Any]) -> int | None:
        """A pupil's event redraws that pupil's page (and the teacher's); a pupil joining the teacher's, as it
        changes nothing on the other pupils' screens; the teacher's events every page."""
        who = data.get("pupil") if kind in PUPILS_OWN else TEACHER if kind == "pupil_joined" else None
        return who if isinstance(who, int) else None

    def _check_together(self, pupil: LessonPupil, kind: str) -> None:
        session = pupil.session
        if isinstance(session, RoomLesson) and kind == "roll" and self._waits_for_teacher(pupil):
            raise ClassroomError(text("classroom.msg.wait_roll"))
        if isinstance(session, RoomTable) and kind == "start" and self.released == 0 and not session.started:
            raise ClassroomError(text("classroom.lesson.wait_start"))

    def release(self) -> None:
        """The teacher's roll (``together``): the lesson's next dice on every sheet (a Räuber Raupe lesson: go)."""
        with self.lock:
            if not self.can_roll():
                raise ClassroomError(text("classroom.lesson.no_roll"))
            if self.kind == "raupe" and self.released:
                raise ClassroomError(text("classroom.raupe.already_started"))
            self.record("dice_released", {"turn": self.released, "at": self.clock()})

    def hold_at(self, step: object) -> None:
        """Hold the class at ``step`` (1-based, as the grid shows it), or let go (``None``)."""
        steps = len(self.steps())
        if step is not None and (isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= steps):
            raise ClassroomError(describe("hold step", step, f"a step from 1 to {steps}, or none"))
        with self.lock:
            self.record("step_held", {"step": None if step is None else step - 1, "at": self.clock()})

    def pause(self, on: object) -> None:
        if not isinstance(on, bool):
            raise ClassroomError(describe("pause", on, "true or false"))
        with self.lock:
            self.record("class_paused", {"on": on, "at": self.clock()})

    def hide_names(self, on: object) -> None:
        if not isinstance(on, bool):
            raise ClassroomError(describe("anonymize", on, "true or false"))
        with self.lock:
            self.record("names_hidden", {"on": on})

    EVENT_WORDS = "an event of a lesson room"

    def appliers(self) -> Mapping[str, Callable[[Mapping[str, Any]], None]]:
        """Each event of :data:`EVENTS` and its handler below."""
        return {
            **super().appliers(),
            "lesson_event": self._on_lesson_event,
            "table_clock": self._on_table_clock,
            "tables_clock": self._on_tables_clock,
            "dice_released": self._on_released,
            "step_held": self._on_held,
            "class_paused": self._on_paused,
            "names_hidden": self._on_hidden,
        }

    # -- the handlers, one per event of the log ----------------------------------------------
    def seated(self, ident: int, nickname: str, data: Mapping[str, Any]) -> LessonPupil:
        session = new_controller(self.settings, self.shared)
        session.hold = self.hold
        if isinstance(session, RoomLesson):
            session.told = partial(self.notify, ident)  # a worker's answer redraws this pupil's page
            session.teacher_rolls, session.released = self.settings.mode == "together", self.released
        return LessonPupil(ident, nickname, session, float(data.get("at", 0.0)))

    def _on_lesson_event(self, data: Mapping[str, Any]) -> None:
        pupil = self.pupils[int(data["pupil"])]
        event = data["event"]
        if not isinstance(event, Mapping):
            raise ClassroomError(describe("lesson_event", event, "an event object"))
        self.roster.seen.add(pupil.id)  # a pupil who acted had a page (also after a restart)
        self._advance(pupil, data.get("elapsed", 0.0))
        self._play(pupil, event, float(data.get("at", pupil.last_at)))

    def _on_table_clock(self, data: Mapping[str, Any]) -> None:
        """One table's clock moved (the rows of a log written before ``tables_clock``)."""
        self._advance(self.pupils[int(data["pupil"])], data["elapsed"])

    def _on_tables_clock(self, data: Mapping[str, Any]) -> None:
        """The tables' steps in the order they were taken: a clock moved (``elapsed``) or a table paused (``at``)."""
        steps = data["steps"]
        if not isinstance(steps, list):
            raise ClassroomError(describe("tables_clock steps", steps, "a list"))
        for step in steps:
            if not isinstance(step, Mapping):
                raise ClassroomError(describe("tables_clock step", step, "an object"))
            self._take_step(self.pupils[self._pupil_id(step["pupil"])], step)

    def _take_step(self, pupil: LessonPupil, step: Mapping[str, Any]) -> None:
        if "at" in step:  # the room paused the table of a pupil who did nothing
            self.roster.seen.add(pupil.id)
            self._play(pupil, {"type": "pause"}, float(step["at"]))
        else:
            self._advance(pupil, step["elapsed"])

    @staticmethod
    def _advance(pupil: LessonPupil, elapsed: object) -> None:
        """Move the pupil's table's clock by ``elapsed`` real seconds, a tick's longest step at a time (as the
        page's own ticks did); the bots' moves now due are played."""
        if isinstance(elapsed, bool) or not isinstance(elapsed, int | float) or not 0 <= elapsed <= 86_400:
            raise ClassroomError(describe("elapsed", elapsed, "seconds from 0 to 86400"))
        session = pupil.session
        if not elapsed or not isinstance(session, RoomTable):
            return
        left = float(elapsed)
        while left > 0:
            step = min(left, MAX_TICK)
            session.advance(step)
            left = round(left - step, 3)

    def _play(self, pupil: LessonPupil, event: Mapping[str, Any], at: float) -> None:
        """Hand ``event`` to the pupil's controller and note what changed for the teacher's grid."""
        session = pupil.session
        before = (pupil.place()[0], len(pupil.answers()), pupil.moves())
        if isinstance(session, RoomLesson) and session.practice_panel is not None:
            day = datetime.date.fromtimestamp(at)  # the log's day, live and replayed alike
            session.practice_panel.today = lambda: day
        session.message = ""
        try:
            session.handle(event)
        except CaterpillarLearnError as error:
            session.message = one_line(str(error))
            if self._trying:  # refused live: the controller changed nothing, and nothing is written
                pupil.refusal = session.message
                raise ClassroomError(session.message) from None
        except Exception:  # a surprise in a controller must not stop the room (nor its replay)
            log.exception("room %s, pupil %r: event %.200r failed", self.code, pupil.nickname, event)
            session.message = text("ui.internal")
        pupil.refusal = session.message
        pupil.last_at = max(pupil.last_at, at)
        step = pupil.place()[0]
        pupil.reached = max(pupil.reached, step)
        if event.get("type") == "check" and session.message == "":
            right = step > before[0] or session.quiz.is_right  # a right answer moves the lesson on
            pupil.wrong_run = 0 if right else pupil.wrong_run + 1
        if (step, len(pupil.answers()), pupil.moves()) != before and not (
            event.get("type") == "check" and pupil.wrong_run
        ):
            pupil.progress_at = at
        if isinstance(session, RoomLesson) and session.game.phase == "over":
            pupil.final = session.game.score().final

    def _on_released(self, data: Mapping[str, Any]) -> None:
        if data["turn"] != self.released:
            raise ClassroomError(describe("dice_released turn", data["turn"], f"turn {self.released}"))
        self.released += 1
        at = float(data.get("at", 0.0))
        for pupil in self.pupils.values():  # the dice appear on every sheet that waits for them
            session = pupil.session
            if isinstance(session, RoomLesson):
                session.released = self.released
            with language(pupil.lang or self.settings.lang or current_language()):  # in the words of the pupil's page
                if isinstance(session, RoomLesson) and not session.revealed and session.game.phase != "over":
                    if session.progress.rolls < self.released:
                        self._play(pupil, {"type": "roll"}, at)
                elif isinstance(session, RoomTable) and not session.started and not session.asking:
                    self._play(pupil, {"type": "start"}, at)

    def _on_held(self, data: Mapping[str, Any]) -> None:
        step = data["step"]
        self.hold = None if step is None else int(step)
        at = float(data.get("at", 0.0))
        for pupil in self.pupils.values():
            session = pupil.session
            if isinstance(session, RoomLesson | RoomTable):
                session.hold = self.hold
                session.let_go()
                pupil.reached = max(pupil.reached, pupil.place()[0])
            pupil.progress_at = max(pupil.progress_at, at)  # waiting for the teacher was not being stuck

    def _on_paused(self, data: Mapping[str, Any]) -> None:
        self.paused = bool(data["on"])
        if not self.paused:  # the time under the cover does not count as being stuck
            at = float(data.get("at", 0.0))
            for pupil in self.pupils.values():
                pupil.progress_at = max(pupil.progress_at, at)

    def _on_hidden(self, data: Mapping[str, Any]) -> None:
        self.anonymous = bool(data["on"])

    # -- the clock -----------------------------------------------------------------------------
    def tick(self, clock: Callable[[], float] = time.monotonic) -> None:
        """Move the Räuber Raupe tables' clocks (see the module) and tell the teacher's console when a pupil
        becomes stuck (or no longer is) with time alone.  The server calls this four times a second."""
        with self.lock:
            if self.kind == "raupe" and not self.paused:
                self._move_tables(clock())
            stuck = frozenset(pupil.id for pupil in self.counted() if self.is_stuck(pupil))
            if stuck != self._stuck:
                self._stuck = stuck
                self.notify(TEACHER)

    def write_steps(self) -> None:
        """Write the tables' steps taken since the last row (they are shown already), as one ``tables_clock``."""
        if not self._steps:
            return
        data: dict[str, Any] = {"steps": self._steps}
        if self.write is not None:
            self.write("tables_clock", data)  # a write that fails keeps them for the next row
        self._steps = []
        self.log.append(("tables_clock", data))
        self.version += 1

    def _step(self, pupil: LessonPupil, step: dict[str, Any], now: float, *, tell: bool = True) -> None:
        """Take a step at ``pupil``'s table now and show it (``tell``); it is written with the next row.

        A bots' move that leaves the pupil's place in the lesson as it was redraws the pupil's page (and the
        teacher's look at it) but not the teacher's grid, which shows nothing of it: 30 tables' bots would
        otherwise redraw the whole grid many times a second."""
        before = (pupil.place(), pupil.final)
        self._take_step(pupil, step)
        if not self._steps:
            self._steps_since = now
        self._steps.append({"pupil": pupil.id, **step})
        if tell:
            self.notify(pupil.id, alone=(pupil.place(), pupil.final) == before)

    def _move_tables(self, now: float) -> None:
        """Add the real time since the last look to each running table a page shows; move its clock when the
        bots move; pause a table whose pupil has done nothing for :data:`IDLE_PAUSE` seconds; write the steps
        every :data:`CLOCK_WRITE` seconds."""
        followed = self.followed()
        for pupil in list(self.pupils.values()):
            table, ident = pupil.session, pupil.id
            last = self._ticked.get(ident)
            self._ticked[ident] = now
            if not isinstance(table, RoomTable) or not table.running or table.paused or ident not in followed:
                continue  # a table nobody looks at waits: its next look adds no time
            if last is None:
                continue
            if self.clock() - pupil.last_at > IDLE_PAUSE:
                elapsed = round(self._unwritten.pop(ident, 0.0), 3)
                if elapsed:
                    self._step(pupil, {"elapsed": elapsed}, now)
                self._step(pupil, {"at": self.clock()}, now)
                continue
            elapsed = self._unwritten.get(ident, 0.0) + min(now - last, MAX_TICK)
            due = table.pending
            if due is not None and due.time <= table.now + elapsed * table.speed:
                self._unwritten.pop(ident, None)
                self._step(pupil, {"elapsed": round(elapsed, 3)}, now)
            else:
                self._unwritten[ident] = elapsed
        if self._steps and now - self._steps_since >= CLOCK_WRITE:
            self.write_steps()


def _cell(value: str) -> str:
    """A text cell a spreadsheet shows as text (never runs it as a formula).

    >>> _cell("=1+1"), _cell("Ada")
    ("'=1+1", 'Ada')
    """
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value
