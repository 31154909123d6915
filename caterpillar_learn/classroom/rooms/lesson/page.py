"""What a pupil's page runs in a lesson room: the lesson's own widget on the pupil's controller in the room.

Each widget is the lesson's widget class (the same ES module, traits,
questions, read-aloud and language menu as in Voila) around the pupil's
controller held by the :class:`~caterpillar_learn.classroom.rooms.lesson.room.LessonRoom`:
:class:`LessonBoard` (the Caterpillars lessons) and :class:`LessonTable`
(Räuber Raupe).  Only the way an
event travels differs: the widget hands it to the room
(:meth:`~caterpillar_learn.classroom.rooms.lesson.room.LessonRoom.act`), which
checks it, writes it to the log and has the controller play it; the widget
then shows the result.  The language switch stays the page's own.

A widget made with ``read_only=True`` is the teacher's look at a pupil's
screen: the same views, and every event the page sends is ignored.

>>> from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom, LessonSettings
>>> room = LessonRoom("KX47PQ", LessonSettings.build("01-beginner"))
>>> ada = room.join("Ada")
>>> board = lesson_widget(room, ada)
>>> board.act("step", delta=1); board.act("roll")
>>> board.lesson["index"], board.dice["rolled"]
(2, True)
>>> look = lesson_widget(room, ada, read_only=True)
>>> look.act("step", delta=1); look.lesson["index"], [kind for kind, _ in room.log].count("lesson_event")
(2, 2)
>>> room.pause(True); board.act("roll"); board.message
'Eyes on your teacher.'
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Mapping
from typing import Any

from caterpillar_learn.classroom import refusals
from caterpillar_learn.classroom.rooms.lesson.room import (
    LessonPupil,
    LessonRoom,
    RoomLesson,
    RoomTable,
)
from caterpillar_learn.errors import CaterpillarLearnError, one_line
from caterpillar_learn.i18n import available_languages, language, text
from caterpillar_learn.ui.base import LANGUAGE_EVENT, LearnWidget
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard
from caterpillar_learn.ui.events import MAX_EVENT_FIELDS
from caterpillar_learn.ui.raupe import RaupeWidget

__all__ = ["LessonBoard", "LessonTable", "lesson_widget", "widget_class"]

log = logging.getLogger("caterpillar_learn.classroom")

#: Events a page sends by itself, many times a second or at every load: never logged as refused.
QUIET = ("tick", "device")
#: Events a page told that a newer tab took over may still send (dropped) before it is closed.
CLOSE_AFTER = 20
#: Each page's number in this process (what the room knows of the pages that play a pupil's lesson).
PAGE_NUMBERS = itertools.count(1)


class InRoom:
    """What the three lesson widgets share: the room and the pupil, and events that go through the room."""

    room: LessonRoom
    pupil: LessonPupil
    read_only: bool

    def place(self, room: LessonRoom, pupil: LessonPupil, read_only: bool) -> None:
        self.room, self.pupil, self.read_only = room, pupil, read_only
        #: This page's number: the room's list of the pages that play the pupil's lesson holds it.
        self.page = next(PAGE_NUMBERS)
        if not read_only and room.play_on(pupil.id, self.page):
            room.notify(pupil.id)  # the pages taken over from say so at once (:meth:`refresh`)

    def plays(self) -> bool:
        """Whether this page plays the pupil's lesson: not the teacher's look, and no newer tab took over."""
        return not self.read_only and self.room.plays(self.pupil.id, self.page)

    def refresh(self) -> None:
        """The lesson's views; on a page a newer tab took over from, the line that says so."""
        widget: Any = self
        super().refresh()  # type: ignore[misc]
        if not self.read_only and not self.plays():
            with language(widget.lang):
                widget.message = text("classroom.lesson.taken_over")

    def close(self) -> None:
        """The page has gone: it plays the pupil's lesson no more (a newer tab need not take over from it)."""
        self.room.leave(self.pupil.id, self.page)
        super().close()  # type: ignore[misc]

    def resumable(self) -> bool:
        """Never: in a room the log keeps a pupil's place (a reload replays it), so the page keeps no save
        of its own and sends no ``resume`` (:mod:`caterpillar_learn.ui.resume` is the Voila lessons')."""
        return False

    def saved_view(self) -> dict[str, Any]:
        return {}  # no save in the page's localStorage, and none sent with every change

    def front_end_strings(self) -> dict[str, str]:
        strings: dict[str, str] = super().front_end_strings()  # type: ignore[misc]
        if self.read_only:  # the projector never reads a pupil's steps aloud by itself
            strings["voice_default"] = "off"
        return strings

    def drops(self, event: object) -> bool:
        """A page told already that a newer tab took over, or that its pupil taps too fast, and still sending:
        what it sends now is dropped before the server reads it, so that one pupil's tabs cannot slow another
        pupil's taps (issue 46: twelve tabs each sending a hundred taps a second)."""
        widget: Any = self
        if self.read_only:
            return False
        if not self.plays():
            with language(widget.lang):
                return bool(widget.message == text("classroom.lesson.taken_over"))
        if self.room.pace.has_room(str(self.pupil.id)):
            return False
        with language(widget.lang):
            return bool(widget.message == text("classroom.lesson.too_fast"))

    def closes_after(self, dropped: int) -> bool:
        """Whether a page that has had ``dropped`` events dropped at the door is closed: one told that a newer tab
        took over, which went on sending :data:`CLOSE_AFTER` more.  An honest page stops when it is told, so
        only a broken or hostile one is closed; its messages cost the server their reading even when dropped
        (issue 46: another pupil's taps beside twelve tabs).  A page told that it taps too fast is never closed."""
        return not self.read_only and not self.plays() and dropped >= CLOSE_AFTER

    def through_room(self, event: object) -> bool:
        """Play ``event`` through the room; ``False`` for the language switch (the widget's own)."""
        widget: Any = self
        if isinstance(event, Mapping) and len(event) <= MAX_EVENT_FIELDS and event.get("type") == LANGUAGE_EVENT:
            return False
        if self.read_only:
            return True  # the teacher looks; nothing a page sends here reaches the pupil's lesson
        if not self.plays():  # a newer tab of this pupil took over: this one says so (on this page alone)
            with language(widget.lang):
                widget.message = text("classroom.lesson.taken_over")
            refusals.tell(self, f"room {self.room.code}, pupil {self.pupil.nickname!r}", event, widget.message)
            return True
        self.pupil.lang = widget.lang  # what the teacher's roll or start speaks on this pupil's screen
        with language(widget.lang):
            if not self.room.pace.allow(str(self.pupil.id)):  # a flood from a pupil's tabs is refused here,
                # before the lesson sees it: only the line changes, so the views are not worked out again (issue 46:
                # a flooding tab must not slow another pupil's taps)
                widget.session.message = widget.message = text("classroom.lesson.too_fast")
                refusals.tell(self, f"room {self.room.code}, pupil {self.pupil.nickname!r}", event, widget.message)
                return True
            try:
                self.room.act(self.pupil.id, event)
            except CaterpillarLearnError as error:
                widget.session.message = one_line(str(error))
                kind = event.get("type") if isinstance(event, Mapping) else None
                if kind not in QUIET:
                    refusals.tell(self, f"room {self.room.code}, pupil {self.pupil.nickname!r}", event, str(error))
            except Exception:  # never lose the lesson to a surprise
                log.exception("room %s, pupil %r: event %.200r failed", self.room.code, self.pupil.nickname, event)
                widget.session.message = text("ui.internal")
        widget.refresh()
        return True


class LessonBoard(InRoom, CaterpillarsBoard):
    """A Caterpillars lesson's board (``CaterpillarsLesson`` in Voila) on a pupil's controller in a room."""

    def __init__(
        self, room: LessonRoom, pupil: LessonPupil, *, read_only: bool = False, lang: str | None = None
    ) -> None:
        assert isinstance(pupil.session, RoomLesson)
        self.place(room, pupil, read_only)
        super().__init__(session=pupil.session, lang=lang)

    def handle(self, event: object) -> None:
        if not self.through_room(event):
            super().handle(event)


class LessonTable(InRoom, RaupeWidget):
    """A Räuber Raupe lesson's table on a pupil's controller in a room."""

    def __init__(
        self, room: LessonRoom, pupil: LessonPupil, *, read_only: bool = False, lang: str | None = None
    ) -> None:
        table = pupil.session
        assert isinstance(table, RoomTable)
        self.place(room, pupil, read_only)
        self.lesson = room.settings.lesson
        LearnWidget.__init__(self, table, lang=lang)  # RaupeWidget's own __init__ deals a table of its own
        with language(self.lang):
            table.translate()
        self.refresh()

    def handle(self, event: object) -> None:
        if not self.through_room(event):
            super().handle(event)

    def switch_language(self, value: object) -> None:
        if self.read_only and isinstance(value, str) and value in available_languages():
            # the teacher's look must not ask the pupil's question again in another language
            LearnWidget.switch_language(self, value)
            return
        super().switch_language(value)


LessonWidget = LessonBoard | LessonTable


def lesson_widget(room: LessonRoom, pupil: LessonPupil, *, read_only: bool = False) -> LessonWidget:
    """The widget of ``pupil``'s lesson (the class for the room's lesson), in the language the pupil's page last
    used, or else the one the teacher set the room up with (issue 42)."""
    lang = pupil.lang or room.settings.lang
    if room.kind == "raupe":
        return LessonTable(room, pupil, read_only=read_only, lang=lang)
    return LessonBoard(room, pupil, read_only=read_only, lang=lang)


def widget_class(room: LessonRoom) -> type[LessonWidget]:
    """The widget class of the room's lesson (what its Panel component is declared with)."""
    return LessonTable if room.kind == "raupe" else LessonBoard
