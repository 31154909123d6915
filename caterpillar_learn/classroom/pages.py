"""The classroom server's pages, an object each, made when a browser opens its address.

:func:`build_pages` maps the addresses (listed in :mod:`~caterpillar_learn.classroom.server`) to a
:class:`Site`'s page makers: the teacher's console (:class:`TeacherPage`, and under it the :class:`Mirror`
of the pupil the teacher looks at) and the pupils' door, which becomes the pupil's own sheet once they are in
(:class:`PupilPage`, and its :class:`Seat`).  A page is a thin adapter: the rooms decide, the widgets draw,
and each page follows its room through a :class:`~caterpillar_learn.classroom.push.Push`.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from caterpillar_learn.classroom.push import Push, Redraws
from caterpillar_learn.classroom.refusals import Refusals
from caterpillar_learn.classroom.tweaks import Freezer, close_page, when_open_send_at_once
from caterpillar_learn.i18n import text

if TYPE_CHECKING:  # the command line must not pay for Panel and the widgets: they are imported when serving
    from caterpillar_learn.classroom.hub import HubService
    from caterpillar_learn.classroom.lobby import AnyRoom, Lobby
    from caterpillar_learn.classroom.rooms.lesson.room import LessonPupil, LessonRoom
    from caterpillar_learn.ui.base import LearnWidget

__all__ = ["Site", "build_pages"]

log = logging.getLogger("caterpillar_learn.classroom")

#: The line above a pupil's sheet (outside the widget's shadow root, so styled here).
YOU_STYLE = "font: 700 20px system-ui, sans-serif; padding: 4px 12px"
#: Longest query argument read from a page's address.
MAX_ARG = 64
#: Least time between two redraws of the teacher's console after pupils' moves (seconds).
TEACHER_EVERY = 0.25
#: The cover over a pupil's screen while the teacher pauses the class (outside the widget's shadow root).
COVER_STYLE = (
    "position: fixed; inset: 0; z-index: 1000; display: flex; align-items: center; justify-content: center; "
    "background: #1b3a5c; color: #ffffff; font: 700 48px system-ui, sans-serif; text-align: center; padding: 24px"
)
#: The line above the pupil's screen the teacher looks at.
LOOK_STYLE = "font: 700 20px system-ui, sans-serif; padding: 12px 12px 4px; border-top: 4px solid #1b3a5c"


def _arg(name: str) -> str:
    import panel as pn

    values = pn.state.session_args.get(name) or [b""]
    raw = values[0]
    value = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else str(raw)
    return value[:MAX_ARG]


def _client() -> str:
    import panel as pn

    doc = pn.state.curdoc
    request = getattr(getattr(doc, "session_context", None), "request", None)
    return str(getattr(request, "remote_ip", None) or "unknown")


def _log_tampering(component: Any, who: str) -> None:
    """Log a page's write of any trait but ``event`` (the component has already put the truth back).

    Like its refused events, at most once every few seconds (:class:`~.refusals.Refusals`).
    """
    told = Refusals()

    def report(written: dict[str, Any]) -> None:
        said = told.said(f"{who}: ignored a front-end write to {', '.join(list(written)[:8])}")
        if said is not None:
            log.warning("%s", said)

    component.tampered = report


def _on_close(cleanup: Callable[[], None]) -> None:
    import panel as pn

    pn.state.on_session_destroyed(lambda _context: cleanup())


def build_pages(
    lobby: Lobby,
    join_url: str | None,
    freezer: Freezer | None = None,
    pictures: str | None = None,
    hub: HubService | None = None,
) -> dict[str, Callable[[], Any]]:
    """The server's pages by address: ``teacher``, ``join`` and ``/`` (the door again); ``pictures`` is
    where the server serves the lesson gallery's pictures (the door shows the lessons' cards).  Under a
    JupyterHub (``hub``) the hub's login guards the teacher's page instead of the token
    (:class:`~caterpillar_learn.classroom.hub.TeacherGate`), and a ``join_url`` of None is taken from each
    teacher page's own address."""
    site = Site(lobby, join_url, freezer, pictures, hub)
    return {"/": site.pupil_page, "join": site.pupil_page, "teacher": site.teacher_page}


class Site:
    """What every page of one server shares: the lobby, the pupils' address, the redraws, the page counter.

    Each page is an object of its own (:class:`TeacherPage`, :class:`PupilPage`) made when a browser opens its
    address; its methods are what Panel and the rooms call back.
    """

    def __init__(
        self,
        lobby: Lobby,
        join_url: str | None,
        freezer: Freezer | None,
        pictures: str | None,
        hub: HubService | None = None,
    ) -> None:
        from caterpillar_learn.classroom.components import classroom_component
        from caterpillar_learn.classroom.consoles import JoinWidget, TeacherWidget
        from caterpillar_learn.classroom.rooms.caterpillars.pupil import ClassroomBoard
        from caterpillar_learn.classroom.rooms.lesson.page import LessonBoard, LessonTable
        from caterpillar_learn.classroom.rooms.raupe.pupil import SeatWidget

        self.lobby, self.join_url, self.freezer, self.pictures = lobby, join_url, freezer, pictures
        self.hub = hub
        # Make every component class now, before any page is open: Panel then lists their Bokeh data
        # models in every page's document.  A class first made inside a page would be described to that
        # page alone, and a door opened earlier could not draw the sheet it later receives.
        for kind in (TeacherWidget, JoinWidget, ClassroomBoard, SeatWidget, LessonBoard, LessonTable):
            classroom_component(kind)
        self.redraws = Redraws()  # every page's redraws, one at a turn of the event loop

    def component(self, kind: type[LearnWidget[Any]], widget: LearnWidget[Any], **params: Any) -> Any:
        """``widget``'s Panel component, of the component class made for ``kind``."""
        from caterpillar_learn.classroom.components import classroom_component

        # The class by name, never type(widget): anywidget gives every instance a class of its own,
        # and a Panel component class per page would be a new Bokeh model class per page.
        make: Any = classroom_component  # cached by class
        component = make(kind)(widget, **params)
        component.redraws = self.redraws  # its page's events go before other pages' redraws
        return component

    def opened(self) -> None:
        if self.freezer is not None:
            self.freezer.opened()

    def closed(self, doc: Any) -> None:
        self.redraws.forget(doc)
        if self.freezer is not None:
            self.freezer.closed()

    def teacher_page(self) -> Any:
        import panel as pn

        # Under a hub its login let this page through (TeacherGate, before any page is made).
        if self.hub is None and not self.lobby.is_teacher(_arg("token")):
            log.warning("teacher page asked for without the token, from %s", _client())
            return pn.pane.Markdown(text("classroom.page.teacher_only"))  # type: ignore[no-untyped-call]
        return TeacherPage(self).layout

    def pupil_page(self) -> Any:
        return PupilPage(self).holder

    def page_join_url(self) -> str:
        """The pupils' door shown on a teacher's page: the server's, or under a hub the one on the host
        the teacher's browser used."""
        if self.join_url is not None:
            return self.join_url
        assert self.hub is not None, "a join address is given outside a hub"
        import panel as pn

        request = getattr(getattr(pn.state.curdoc, "session_context", None), "request", None)
        return self.hub.join_url_from(dict(getattr(request, "headers", None) or {}))


class TeacherPage:
    """The teacher's console, following its room, and under it the screen of the pupil the teacher tapped."""

    def __init__(self, site: Site) -> None:
        import panel as pn

        from caterpillar_learn.classroom.consoles import TeacherConsole, TeacherWidget

        self.site = site
        self.doc = pn.state.curdoc
        when_open_send_at_once(self.doc)
        self.console = TeacherConsole(site.lobby, site.page_join_url())
        widget = TeacherWidget(self.console)
        component: Any = site.component(TeacherWidget, widget)
        _log_tampering(component, "teacher")
        self.push = Push(self.doc, widget, component, redraws=site.redraws, every=TEACHER_EVERY)
        #: The room the console follows and its subscription, or None.
        self.followed: tuple[AnyRoom, int] | None = None
        self.console.watch = self.watch
        self.watch(self.console.room)
        # Under the console: the screen of the pupil the teacher tapped in a lesson room's grid, read-only.
        self.look_holder = pn.Column(sizing_mode="stretch_width")
        self.looking: list[Callable[[], None]] = []
        self.console.look = self.look
        _on_close(self.close)
        site.opened()
        self.layout = pn.Column(component, self.look_holder, sizing_mode="stretch_width")

    def watch(self, room: AnyRoom | None) -> None:
        """Follow ``room`` (and no other), or none."""
        if self.followed is not None:
            followed, token = self.followed
            followed.unsubscribe(token)
        self.followed = None if room is None else (room, room.subscribe(self.push, None))

    def look(self, room: LessonRoom | None, pupil: LessonPupil | None) -> None:
        """Show ``pupil``'s screen in ``room`` under the console, read-only (none when either is None)."""
        self.stop_looking()
        if room is None or pupil is None:
            self.look_holder.objects = []
            return
        mirror = Mirror(self, room, pupil)
        self.looking.append(mirror.stop)
        self.look_holder.objects = [mirror.line, mirror.component]

    def stop_looking(self) -> None:
        for step in self.looking:
            step()
        self.looking.clear()

    def close(self) -> None:
        self.push.closed = True
        self.stop_looking()
        self.watch(None)
        self.site.closed(self.doc)


class Mirror:
    """A pupil's screen as the teacher sees it under the console: the pupil's widget, read-only, and its line."""

    def __init__(self, page: TeacherPage, room: LessonRoom, pupil: LessonPupil) -> None:
        import panel as pn

        from caterpillar_learn.classroom.rooms.lesson.page import lesson_widget, widget_class

        self.doc, self.room, self.pupil = page.doc, room, pupil
        mirror = lesson_widget(room, pupil, read_only=True)
        self.component = page.site.component(widget_class(room), mirror, sizing_mode="stretch_width")
        self.line = pn.pane.HTML(_look_line(room, pupil), sizing_mode="stretch_width")  # type: ignore[no-untyped-call]
        self.push = Push(self.doc, mirror, self.component, redraws=page.site.redraws, every=TEACHER_EVERY)
        self.token = room.subscribe(self.follow, pupil.id)

    def follow(self, changed: int | None) -> None:
        self.push(changed)
        if _look_line(self.room, self.pupil) != self.line.object:  # the names hidden or shown again
            on_doc(self.doc, self.relabel)

    def relabel(self) -> None:
        self.line.object = _look_line(self.room, self.pupil)

    def stop(self) -> None:
        self.push.closed = True
        self.room.unsubscribe(self.token)


class PupilPage:
    """The pupils' door, and once a pupil is in, their sheet (or seat) in their room."""

    def __init__(self, site: Site) -> None:
        import panel as pn

        from caterpillar_learn.classroom.consoles import JoinDesk, JoinWidget

        self.site = site
        self.doc = pn.state.curdoc
        when_open_send_at_once(self.doc)
        self.holder = pn.Column(sizing_mode="stretch_width")
        #: What to undo when the page leaves its room (or closes): the subscriptions of the seat shown.
        self.leave: list[Callable[[], None]] = []
        # The address carries the room code at most: a nickname in it only fills in the form, and the
        # sheet comes back only to a page that shows its secret (kept in the browser, sent by the door).
        self.desk = JoinDesk(
            site.lobby,
            _client(),
            self.show,
            code=_arg("room"),
            nickname=_arg("nickname"),
            schedule=self.on_page,
            pictures=site.pictures,
        )
        self.door = JoinWidget(self.desk)
        self.door_component: Any = site.component(JoinWidget, self.door)
        self.desk.answer_seen = self.refresh_door
        self.holder.objects = [self.door_component]
        _on_close(self.close)
        site.opened()

    def show(self, room: AnyRoom, pupil: Any) -> None:
        """The pupil is in ``room``: their sheet (or seat) under the door (hidden now), as the room changes."""
        self.leave_room()
        seat = Seat(self, room, pupil)
        self.leave.extend(seat.undo)
        self.refresh_door()  # the door (hidden now) hands the page its secret to keep
        self.holder.objects = [self.door_component, seat.badge, seat.component, *seat.cover]
        self.site.opened()  # a sheet is as much new heap as a page: the Freezer counts it (a stream of joins)

    def refresh_door(self) -> None:
        self.door.refresh()
        self.door_component.pull()

    def back_to_the_door(self) -> None:
        """The teacher took the pupil out: the door again."""
        self.leave_room()
        self.desk.removed()
        self.refresh_door()
        self.holder.objects = [self.door_component]

    def leave_room(self) -> None:
        for step in self.leave:
            step()
        self.leave.clear()

    def on_page(self, step: Callable[[], None]) -> None:
        """Run ``step`` on this page's own document (it may come from the teacher's page)."""
        on_doc(self.doc, step)

    def close(self) -> None:
        self.leave_room()
        self.desk.close()
        self.site.closed(self.doc)


class Seat:
    """A pupil's sheet (or their seat at a Räuber Raupe table) on their page, following their room."""

    def __init__(self, page: PupilPage, room: AnyRoom, pupil: Any) -> None:
        import panel as pn

        from caterpillar_learn.classroom.rooms.caterpillars.pupil import ClassroomBoard, RoomSession
        from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom
        from caterpillar_learn.classroom.rooms.lesson.page import lesson_widget, widget_class
        from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom
        from caterpillar_learn.classroom.rooms.raupe.pupil import SeatTable, SeatWidget

        self.page, self.room, self.pupil = page, room, pupil
        self.lesson_room = room if isinstance(room, LessonRoom) else None
        widget: Any
        self.cover: list[Any] = []  # the cover while the teacher pauses a lesson room
        if isinstance(room, LessonRoom):
            widget, key = lesson_widget(room, pupil), pupil.id
            self.component = page.site.component(widget_class(room), widget, sizing_mode="stretch_width")
            cover_html = _cover(room, widget.lang)
            self.cover = [pn.pane.HTML(cover_html, sizing_mode="stretch_width")]  # type: ignore[no-untyped-call]
        elif isinstance(room, CaterpillarsRoom):
            widget, key = ClassroomBoard(RoomSession(room, pupil)), pupil.id
            self.component = page.site.component(ClassroomBoard, widget, sizing_mode="stretch_width")
        else:
            widget, key = SeatWidget(SeatTable(room, pupil)), pupil.table
            self.component = page.site.component(SeatWidget, widget, sizing_mode="stretch_width")
        self.widget = widget
        _log_tampering(self.component, f"room {room.code}, pupil {pupil.nickname!r}")
        first = None
        if isinstance(widget, ClassroomBoard):
            session = widget.session
            assert isinstance(session, RoomSession)
            first = lambda: {"dice": session.dice_now()}  # noqa: E731
        self.push = Push(page.doc, widget, self.component, first=first, redraws=page.site.redraws)
        if isinstance(room, LessonRoom):  # a taken-over tab that goes on sending is closed (issue 46)
            self.component.dropped = partial(_dropped, widget, itertools.count(1))
        token = room.subscribe(self.push, key)
        self.badge = pn.pane.HTML(_you(room.code, pupil.nickname), sizing_mode="stretch_width")  # type: ignore[no-untyped-call]
        self.nickname = pupil.nickname
        watcher = room.subscribe(self.taken_out_or_renamed, None)
        #: What undoes this seat on the page: its pushes and subscriptions.
        self.undo: list[Callable[[], None]] = [lambda: self.unsubscribe(token), lambda: room.unsubscribe(watcher)]

    def unsubscribe(self, token: int) -> None:
        self.push.closed = True
        self.room.unsubscribe(token)

    def taken_out_or_renamed(self, _changed: int | None = None) -> None:
        """The teacher removed or renamed this pupil, or paused the class: tell the page, on its own document."""
        if self.cover and self.lesson_room is not None and self.cover[0].object != self.cover_html():
            self.page.on_page(self.recover)
        room, pupil = self.room, self.pupil
        if pupil.id in room.pupils and room.pupils[pupil.id] is pupil and pupil.nickname == self.nickname:
            return
        self.page.on_page(self.follow_teacher)

    def cover_html(self) -> str:
        assert self.lesson_room is not None
        return _cover(self.lesson_room, self.widget.lang)

    def recover(self) -> None:
        self.cover[0].object = self.cover_html()

    def follow_teacher(self) -> None:
        room, pupil, page = self.room, self.pupil, self.page
        if pupil.id not in room.pupils or room.pupils[pupil.id] is not pupil:
            page.back_to_the_door()
        elif pupil.nickname != self.nickname:
            self.nickname = page.desk.nickname = pupil.nickname
            self.badge.object = _you(room.code, pupil.nickname)
            page.refresh_door()


def on_doc(doc: Any, step: Callable[[], None]) -> None:
    """Run ``step`` on ``doc`` at its next tick (with that page as Panel's current document)."""
    from panel.io.state import set_curdoc

    def run() -> None:
        with set_curdoc(doc):
            step()

    try:
        doc.add_next_tick_callback(run)
    except Exception:  # the page has closed meanwhile
        log.debug("a closed page missed a change", exc_info=True)


def _cover(room: LessonRoom, lang: str) -> str:
    """The cover over a pupil's screen while the class is paused ("" when it is not)."""
    if not room.paused:
        return ""
    from caterpillar_learn.i18n import language

    with language(lang):
        words = text("classroom.lesson.cover")
    return (
        f'<div data-testid="class-paused" role="alertdialog" aria-modal="true" aria-label="{_escape(words)}" '
        f'style="{COVER_STYLE}"><span>{_escape(words)}</span></div>'
    )


def _look_line(room: LessonRoom, pupil: LessonPupil) -> str:
    """The line above the pupil's screen the teacher looks at (their name hidden with the names)."""
    name = text("classroom.ui.anonymous", number=pupil.id) if room.anonymous else pupil.nickname
    words = text("classroom.lesson.read_only", nickname=name)
    return f'<div data-testid="watch-title" data-pupil="{pupil.id}" style="{LOOK_STYLE}">{_escape(words)}</div>'


def _dropped(widget: Any, counted: Iterator[int], doc: Any) -> None:
    """One more event of ``widget``'s page dropped at the door: the page is closed once its widget says so."""
    if widget.closes_after(next(counted)):
        close_page(doc)


def _escape(words: str) -> str:
    import html

    return html.escape(words, quote=True)


def _you(code: str, nickname: str) -> str:
    """The line above a pupil's sheet: the room and who they are."""
    you = text("classroom.page.you_are", code=code, nickname=nickname)
    return f'<div data-testid="you" style="{YOU_STYLE}">{_escape(you)}</div>'
