"""The teacher's console and the pupils' door: controllers and widgets like the lessons' own.

Both follow the widgets' skeleton (:mod:`caterpillar_learn.ui.base`): a
controller takes one event and gives its views; a
:class:`~caterpillar_learn.ui.base.LearnWidget` around it owns the only
writable trait (``event``), the error guard and the refresh, so a bad or
hostile message becomes one line and changes nothing.  Panel shows them with
:func:`~caterpillar_learn.classroom.components.classroom_component`, like the
lessons' widgets.

Teacher events: ``create`` (a new room from the form's fields), ``open
{code}``, ``roll`` (``{dice}`` when the real dice are typed in), ``hints
{on}``, ``auto {on}`` (roll again as soon as every pupil has placed),
``review {nickname}`` and ``start`` (start every Räuber Raupe table); in
rooms of both games ``remove {pupil}``, ``rename {pupil, nickname}``, and
``let_in {request}`` or ``refuse {request}`` for a page asking to be a pupil
who is on another tablet already.  In a lesson room
(:mod:`~caterpillar_learn.classroom.rooms.lesson.room`): ``roll`` (``together``:
the lesson's next dice for the class), ``hold {step}`` (``null`` lets go),
``pause {on}``, ``anonymize {on}``, ``watch {pupil}`` (that pupil's screen,
read-only, under the console; ``null`` closes it) and ``export`` (the
progress file, handed to this page alone in its ``download`` trait: the
console's own session is the teacher's authority, no address carries it).
``archive {code}`` writes a finished room's record to a file and removes it
from the live log (:meth:`~caterpillar_learn.classroom.lobby.Lobby.archive`;
the page asks twice first).  The door's events are ``join {code,
nickname}`` (the form) and ``resume {code, secret}`` (a page that kept its
secret: a reload, the same tablet), see :mod:`~caterpillar_learn.classroom.identity`.
Below its form the door shows what the class can play: the lesson gallery's
cards (:func:`caterpillar_learn.lessons.gallery.cards`), to look at, not to
open (the teacher opens a room and gives its code).

>>> from caterpillar_learn.classroom.lobby import Lobby
>>> from caterpillar_learn.classroom.store import EventStore
>>> lobby = Lobby(EventStore(":memory:"))
>>> console = TeacherWidget(TeacherConsole(lobby, "http://127.0.0.1:5006/join"))
>>> console.act("create", game="caterpillars", level="beginner", layout="standard", dice="typed", hints=True)
>>> code = console.room["code"]
>>> console.act("roll", dice="3 9")
>>> console.message
'roll: got die 9, expected 1 to 6'
>>> door = JoinWidget(JoinDesk(lobby, "10.0.0.7", lambda room, pupil: None))
>>> door.act("join", code=code, nickname="Ada"); door.message, console.room["pupils"] == []
('', True)
>>> console.refresh(); [pupil["nickname"] for pupil in console.room["pupils"]]
['Ada']
>>> other = JoinWidget(JoinDesk(lobby, "10.0.0.8", lambda room, pupil: None))
>>> other.act("join", code=code, nickname="ADA"); other.door["state"], other.door["note"]
('waiting', 'Ask your teacher: Ada is playing on another tablet already.')
>>> console.refresh(); [line["text"] for line in console.room["requests"]]
['Ada wants to join on another tablet.']
>>> console.act("refuse", request=console.room["requests"][0]["id"]); other.refresh(); other.door["state"]
'refused'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import lru_cache, partial
from typing import Any, ClassVar

import traitlets

from caterpillar_learn.classroom import refusals
from caterpillar_learn.classroom.codes import ClassroomError, parse_code, parse_nickname
from caterpillar_learn.classroom.identity import RejoinNeeded, Removed, is_secret, new_secret
from caterpillar_learn.classroom.lobby import AnyRoom, Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.rooms.lesson.own import OwnLessons
from caterpillar_learn.classroom.rooms.lesson.room import LESSON_NAMES, LessonPupil, LessonRoom, LessonSettings
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
from caterpillar_learn.classroom.screens import JoinView, desk_view, room_view
from caterpillar_learn.i18n import current_language, language, text
from caterpillar_learn.lessons.gallery import cards, picture_file
from caterpillar_learn.ui.assets import es_module, widget_styles
from caterpillar_learn.ui.base import BadEventError, LearnWidget, handler
from caterpillar_learn.ui.events import Dispatcher, Handler

__all__ = [
    "JoinDesk",
    "JoinWidget",
    "TeacherConsole",
    "TeacherWidget",
]

log = logging.getLogger("caterpillar_learn.classroom")

#: The teacher's events only a lesson room takes.
LESSON_EVENTS = ("hold", "pause", "anonymize", "watch", "export")
#: The door's states: the form; waiting for the teacher; refused; taken out by the teacher; joined.
DOOR_STATES = ("door", "waiting", "refused", "removed", "joined")

#: Told which pupil's screen the teacher looks at (``None``, ``None``: none).
Looker = Callable[[LessonRoom | None, LessonPupil | None], None]


class TeacherConsole(Dispatcher):
    """The teacher's page: the rooms of the server, one of them on the projector."""

    def __init__(self, lobby: Lobby, join_base: str, *, watch: Callable[[AnyRoom | None], None] | None = None) -> None:
        self.lobby = lobby
        self.join_base = join_base
        #: Told which room the console shows, so the page can follow that room's changes.
        self.watch = watch
        self.message = ""
        #: Good news for the teacher (a room archived: where its file is), until the next event; not an error.
        self.notice = ""
        #: Told which pupil's screen the teacher looks at (the page shows it under the console).
        self.look: Looker | None = None
        #: The pupil whose screen the teacher looks at (a lesson room).
        self.watching: int | None = None
        #: The last progress file asked for: its name, its text and a number the page downloads it by once.
        self.download: dict[str, Any] = {}
        self.room: AnyRoom | None = None
        self.open(self._newest())

    def _newest(self) -> AnyRoom | None:
        """The newest room that can be shown; it wakes, and the others sleep on."""
        for code in reversed(list(self.lobby.rooms)):
            room = self.lobby.rooms.get(code)
            if room is not None:
                return room
        return None

    def open(self, room: AnyRoom | None) -> None:
        self.room = room
        self.look_at(None)
        if self.watch is not None:
            self.watch(room)

    def look_at(self, pupil: LessonPupil | None) -> None:
        """Show ``pupil``'s screen under the console (``None``: close it)."""
        self.watching = None if pupil is None else pupil.id
        if self.look is not None:
            room = self.room if isinstance(self.room, LessonRoom) else None
            self.look(room if pupil is not None else None, pupil)

    def interim(self, event: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def handle(self, event: Mapping[str, Any]) -> None:
        """Apply one of the teacher's events through its handler (:meth:`handlers`); a bad one raises and
        changes nothing."""
        self.message = self.notice = ""
        handler(event, self.handlers())(event)

    def handlers(self) -> dict[str, Handler]:
        """What the teacher's page may send, and the method that plays each."""
        return {
            "create": self.on_create, "open": self.on_open, "archive": self.on_archive,
            # the door of a room of either game
            "remove": self.on_remove, "rename": self.on_rename, "let_in": self.on_let_in, "refuse": self.on_refuse,
            # the dice (Caterpillars; a lesson room together), the start (Räuber Raupe), a pupil's review
            "roll": self.on_roll, "hints": self.on_hints, "auto": self.on_auto, "review": self.on_review,
            "start": self.on_start,
            # only a lesson room (LESSON_EVENTS): hold the class at a step, pause it, hide the names, look at a
            # pupil's screen, download the progress
            "hold": self.on_hold, "pause": self.on_pause, "anonymize": self.on_anonymize, "watch": self.on_watch,
            "export": self.on_export,
        }  # fmt: skip

    # -- the handlers, one an event ------------------------------------------------------------------
    def on_create(self, event: Mapping[str, Any]) -> None:
        self.open(self.lobby.create(_settings(event, self.lobby.own_lessons)))

    def on_open(self, event: Mapping[str, Any]) -> None:
        room = self.lobby.rooms.get(parse_code(event.get("code")))
        if room is None:
            raise ClassroomError(text("classroom.msg.no_room", code=event.get("code")))
        self.open(room)

    def on_archive(self, event: Mapping[str, Any]) -> None:
        """Archive room ``code`` (a finished one): its record to a file, its events out of the live log."""
        written = self.lobby.archive(event.get("code"))
        if self.room is not None and self.room.code not in self.lobby.rooms:
            self.open(self._newest())
        self.notice = text("classroom.archive.done", file=str(written))

    def on_remove(self, event: Mapping[str, Any]) -> None:
        room = self._current()
        room.remove(event.get("pupil"))
        if self.watching is not None and self.watching not in room.pupils:
            self.look_at(None)

    def on_rename(self, event: Mapping[str, Any]) -> None:
        self._current().rename(event.get("pupil"), event.get("nickname"))

    def on_let_in(self, event: Mapping[str, Any]) -> None:
        self._current().let_in(event.get("request"))

    def on_refuse(self, event: Mapping[str, Any]) -> None:
        self._current().refuse(event.get("request"))

    def on_roll(self, event: Mapping[str, Any]) -> None:
        room = self._current()
        if isinstance(room, LessonRoom):
            room.release()  # together: the lesson's next dice for the class
        else:
            room = self._caterpillars(room)
            room.roll(event.get("dice") if room.settings.dice == "typed" else None)

    def on_hints(self, event: Mapping[str, Any]) -> None:
        self._caterpillars(self._current()).set_hints(event.get("on"))

    def on_auto(self, event: Mapping[str, Any]) -> None:
        self._caterpillars(self._current()).set_auto(event.get("on"))

    def on_review(self, event: Mapping[str, Any]) -> None:
        room = self._caterpillars(self._current())
        pupil = room.pupil_named(parse_nickname(event.get("nickname")))
        if pupil is None:
            raise ClassroomError(text("classroom.msg.no_pupil"))
        room.review(pupil)

    def on_start(self, event: Mapping[str, Any]) -> None:
        room = self._current()
        if isinstance(room, LessonRoom):  # a lesson together starts with the teacher's roll (on_roll)
            raise BadEventError(text("classroom.msg.not_for_lesson"))
        if not isinstance(room, RaupeRoom):
            raise BadEventError(text("classroom.msg.only_raupe"))
        room.start_all()

    def on_hold(self, event: Mapping[str, Any]) -> None:
        self._lesson().hold_at(event.get("step"))

    def on_pause(self, event: Mapping[str, Any]) -> None:
        self._lesson().pause(event.get("on"))

    def on_anonymize(self, event: Mapping[str, Any]) -> None:
        self._lesson().hide_names(event.get("on"))

    def on_watch(self, event: Mapping[str, Any]) -> None:
        room = self._lesson()
        pupil = event.get("pupil")
        self.look_at(None if pupil is None else room.pupils[room._pupil_id(pupil)])

    def on_export(self, event: Mapping[str, Any]) -> None:
        room = self._lesson()
        seq = int(self.download.get("seq", 0)) + 1
        self.download = {"name": room.csv_name(), "text": room.progress_csv(), "seq": seq}

    # -- which room a handler may act on -------------------------------------------------------------
    def _current(self) -> AnyRoom:
        if self.room is None:
            raise BadEventError(text("classroom.msg.no_room_yet"))
        return self.room

    def _caterpillars(self, room: AnyRoom) -> CaterpillarsRoom:
        """``room`` if it is a Caterpillars room; the others refuse the dice game's events in one line."""
        if isinstance(room, LessonRoom):
            raise BadEventError(text("classroom.msg.not_for_lesson"))
        if isinstance(room, RaupeRoom):
            raise BadEventError(text("classroom.msg.not_for_raupe"))
        return room

    def _lesson(self) -> LessonRoom:
        room = self._current()
        if not isinstance(room, LessonRoom):
            raise BadEventError(text("classroom.msg.only_lesson"))
        return room

    def views(self) -> dict[str, Any]:
        current = "" if self.room is None else self.room.code
        room = room_view(self.room, self.join_base)
        if isinstance(self.room, LessonRoom) and self.watching is not None:
            room["watching"] = self.watching
        if self.room is not None:
            room["archivable"] = self.lobby.can_archive(self.room)
        return {
            "desk": {
                **desk_view(self.lobby.listing(), current, self.lobby.own_lessons.titles()),
                "notice": self.notice,
            },
            "room": room,
            "damage": self.lobby.damage_view(current),  # a room stopped at a damaged event (lobby.Damage)
            "download": self.download,
        }


def _settings(event: Mapping[str, Any], own: OwnLessons) -> RoomSettings | TableSettings | LessonSettings:
    """A new room's settings from the form's fields (each one checked); a teacher's lesson is read from the folder
    the classroom serves (``own``), by the name the form sends."""
    if event.get("game") == "lesson":
        source = None if event.get("lesson") in LESSON_NAMES else own.source(event.get("lesson"))
        return LessonSettings.build(
            event.get("lesson"), event.get("mode", "own"), event.get("seed"), event.get("hints"), event.get("lang"),
            source,
        )  # fmt: skip
    if event.get("game") == "raupe":
        return TableSettings.build(event.get("seats", 2), event.get("bots", "beginner"), hints=event.get("hints", True))
    if event.get("game") not in ("caterpillars", None):
        raise ClassroomError(text("classroom.msg.bad_game"))
    return RoomSettings.build(
        event.get("level"),
        event.get("layout", "standard"),
        event.get("labels", ""),
        dice=event.get("dice", "server"),
        hints=event.get("hints", True),
        variation=event.get("variation", False),
    )


class JoinDesk(Dispatcher):
    """The pupils' door: a room code and a nickname give a new pupil a sheet and the page a secret.

    The page keeps the secret and shows it again (``resume``) to get the same
    sheet back.  A nickname that reads as a pupil's already, from a page
    without their secret, waits for the teacher (``waiting``); the teacher's
    answer comes through :meth:`answered`, on the page's own turn
    (``schedule``, which the server points at the page's document).
    """

    def __init__(
        self,
        lobby: Lobby,
        client: str,
        on_join: Callable[[AnyRoom, Any], None],
        *,
        code: str = "",
        nickname: str = "",
        schedule: Callable[[Callable[[], None]], None] | None = None,
        pictures: str | None = None,
    ) -> None:
        self.lobby = lobby
        self.client = client
        self.on_join = on_join
        #: Where the server serves the gallery's pictures (:func:`~caterpillar_learn.lessons.gallery.write_pictures`);
        #: ``None``: each card carries its picture's markup.
        self.pictures = pictures
        self.code = code[:12]
        self.nickname = nickname[:20]
        self.message = ""
        self.state = "door"
        #: The secret handed to this page once it has joined ("" before).
        self.secret = ""
        #: The secret the page showed with its last event (the widget takes it out of the event, so no log holds it).
        self.offered: object = None
        self.presented: object = None
        self.schedule = schedule or (lambda step: step())
        #: The room and number of this page's request to the teacher, while it waits.
        self.waiting: tuple[AnyRoom, int] | None = None
        self.answer_seen: Callable[[], None] = lambda: None

    def interim(self, event: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def handlers(self) -> dict[str, Handler]:
        """Each event the door's page may send, and the method that applies it."""
        return {"join": self.on_join_form, "resume": self.on_resume}

    def handle(self, event: Mapping[str, Any]) -> None:
        self.message = ""
        apply = handler(event, self.handlers())
        #: The secret this event came with (each event's own: taken from :attr:`offered`).
        self.presented, self.offered = self.offered, None
        if self.state in ("waiting", "joined"):
            return  # the teacher answers a waiting page; a joined page has its sheet
        apply(event)

    def on_resume(self, event: Mapping[str, Any]) -> None:
        """A page that has joined before comes back with its secret (and nothing happens without one)."""
        if is_secret(self.presented):
            self._resume(event.get("code"), str(self.presented))

    def on_join_form(self, event: Mapping[str, Any]) -> None:
        """The door's form: a room's code and a nickname."""
        secret = new_secret()
        try:
            room, pupil = self.lobby.join(event.get("code"), event.get("nickname"), client=self.client, secret=secret)
        except RejoinNeeded as need:
            self._ask(need)
            return
        self._joined(room, pupil, secret)

    def _resume(self, code: object, secret: str) -> None:
        try:
            room, pupil = self.lobby.join(code, None, client=self.client, secret=secret)
        except Removed:
            self.state = "removed"
            return
        except ClassroomError:  # an old room's secret, kept by the browser: the form, without a word
            return
        self._joined(room, pupil, secret)

    def _ask(self, need: RejoinNeeded) -> None:
        room: AnyRoom = need.room
        self.code, self.nickname = room.code, room.pupils[need.pupil].nickname
        pupil = need.pupil

        def answer(secret: str | None) -> None:
            self.schedule(partial(self.answered, room, pupil, secret))

        self.waiting = (room, room.ask(pupil, answer))
        self.state = "waiting"
        log.info("room %s: a page from %s asks to be %r", room.code, self.client, self.nickname)

    def answered(self, room: AnyRoom, pupil: int, secret: str | None) -> None:
        """The teacher's answer to this page's request: the sheet (with a secret of its own), or no."""
        self.waiting = None
        if secret is None or pupil not in room.pupils:
            self.state = "refused"
        else:
            self._joined(room, room.pupils[pupil], secret)
        self.answer_seen()

    def removed(self) -> None:
        """The teacher took this page's pupil out of the room."""
        self.state, self.secret = "removed", ""

    def close(self) -> None:
        """The page has closed: a request still waiting leaves the console."""
        if self.waiting is not None:
            room, request = self.waiting
            self.waiting = None
            room.withdraw(request)

    def _joined(self, room: AnyRoom, pupil: Any, secret: str) -> None:
        self.code, self.nickname, self.secret, self.state = room.code, pupil.nickname, secret, "joined"
        log.info("room %s: %r joined from %s", room.code, pupil.nickname, self.client)
        room.arrive(pupil.id)  # the desk acts only on its page's messages: that page has connected
        self.on_join(room, pupil)

    def views(self) -> dict[str, Any]:
        note = ""
        if self.state == "waiting":
            note = text("classroom.rejoin.ask_teacher", nickname=self.nickname)
        elif self.state == "refused":
            note = text("classroom.rejoin.refused", nickname=self.nickname)
        elif self.state == "removed":
            note = text("classroom.msg.removed")
        door: JoinView = {
            "code": self.code,
            "nickname": self.nickname,
            "state": self.state,
            "note": note,
            "secret": self.secret,
        }
        return {"door": door, "lessons": self._lessons()}

    def _lessons(self) -> list[dict[str, Any]]:
        """What the class can play: the gallery's cards, to look at (the teacher opens a room and gives its code).
        With :attr:`pictures`, a card names its picture's file, which each tablet fetches once and keeps."""
        return door_cards(current_language(), self.pictures)


@lru_cache(maxsize=8)
def door_cards(lang: str, pictures: str | None) -> list[dict[str, Any]]:
    """The door's cards in ``lang``, made once for every door of the class (each page shows the same list;
    nothing changes it: a page's trait is replaced, never changed in place).

    >>> door_cards("en", "/static/") is door_cards("en", "/static/")
    True
    >>> door_cards("en", "/static/")[0]["picture_url"], door_cards("en", None)[0]["picture"][:4]
    ('/static/lesson-00-setup-en.svg', '<svg')
    """
    with language(lang):
        shown = [card.to_json() for card in cards()]
    if pictures is not None:
        for card in shown:
            card["picture_url"] = pictures + picture_file(card["name"], card["language"])
            card["picture"] = ""
    return shown


def _ui(*names: str) -> dict[str, str]:
    return {name: f"classroom.ui.{name}" for name in names}


class TeacherWidget(LearnWidget[TeacherConsole]):
    """The teacher's console: desk and projector (``widgets/classroom-teacher.js``)."""

    _esm = traitlets.Unicode(es_module("classroom-teacher.js")).tag(sync=True)
    _css = traitlets.Unicode(widget_styles("classroom.css")).tag(sync=True)

    STRING_KEYS: ClassVar[dict[str, str]] = _ui(
        "title", "rooms", "new_room", "game", "level", "layout", "labels", "dice", "hints", "variation", "seats",
        "bots", "create", "code", "join_at", "qr", "roll", "roll_typed", "dice_input", "auto", "pupils", "leaderboard",
        "place", "nickname", "final", "all_boxes", "flies", "review", "reviewing", "start_tables", "no_room", "tables",
        "waiting_pupils", "remove", "remove_ask", "remove_yes", "remove_no", "rename", "rename_save", "let_in",
        "refuse", "requests", "print_sheets",
        "lesson", "mode", "seed", "lesson_hints", "lesson_lang", "progress", "step", "asked", "right_first", "stuck",
        "hold", "hold_none", "pause", "resume",
        "anonymize", "export", "watch_close", "roll_lesson", "start_lesson", "anonymous", "paused_note",
        "archive", "archive_ask", "archive_yes", "archive_no", "pick_room", "sheet", "print_lesson",
    )  # fmt: skip

    desk = traitlets.Dict().tag(sync=True, view=True)
    room = traitlets.Dict().tag(sync=True, view=True)
    #: The damage reports of the room shown (:meth:`Lobby.damage_view`), drawn as one block (test id ``damage-report``).
    damage = traitlets.List(traitlets.Dict()).tag(sync=True, view=True)
    #: The progress file the teacher asked for (``{name, text, seq}``): the page downloads it once per ``seq``.
    download = traitlets.Dict().tag(sync=True, view=True)

    def __init__(self, console: TeacherConsole, *, lang: str | None = None, **kwargs: Any) -> None:
        super().__init__(console, lang=lang, **kwargs)

    def handle(self, event: object) -> None:
        super().handle(event)
        refusals.tell(self, "teacher", event, self.session.message)


class JoinWidget(LearnWidget[JoinDesk]):
    """The pupils' door: room code, nickname, Join (``widgets/classroom-join.js``)."""

    _esm = traitlets.Unicode(es_module("classroom-join.js")).tag(sync=True)
    _css = traitlets.Unicode(widget_styles("classroom.css")).tag(sync=True)

    STRING_KEYS: ClassVar[dict[str, str]] = {
        **_ui("join_title", "join_code", "nickname", "nickname_help", "join"),
        "lessons_title": "gallery.door_heading",
        "lessons_note": "gallery.door_note",
    }

    door = traitlets.Dict().tag(sync=True, view=True)
    #: The lesson gallery's cards (:meth:`caterpillar_learn.lessons.gallery.Card.to_json`), drawn below the form.
    lessons = traitlets.List(traitlets.Dict()).tag(sync=True, view=True)

    def __init__(self, desk: JoinDesk, *, lang: str | None = None, **kwargs: Any) -> None:
        super().__init__(desk, lang=lang, **kwargs)

    def handle(self, event: object) -> None:
        if isinstance(event, Mapping) and "secret" in event:  # the secret goes to the desk, never into a log line
            self.session.offered = event["secret"]
            event = {key: value for key, value in event.items() if key != "secret"}
        super().handle(event)
        refusals.tell(self, f"door ({self.session.client})", event, self.session.message)
