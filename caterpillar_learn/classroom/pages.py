"""The classroom server's pages by address: the teacher's console, the pupils' door and a pupil's sheet.

* ``/teacher?token=…``: the teacher's console (:class:`~.consoles.TeacherWidget`),
  only with the token printed at start (kept in the data folder, so the
  address stays the same after a restart);
* ``/join`` (and ``/``): the pupils' door, then the pupil's own sheet: the
  lessons' Caterpillars board, or their seat at a Räuber Raupe table (the
  same ES modules, shown by :func:`~caterpillar_learn.classroom.components.classroom_component`).
  Joining hands the page a secret, which the browser keeps (its storage and
  the address fragment, never the query): a reload or the same tablet shows
  it and gets the sheet back at once; another tablet with the same nickname
  waits for the teacher (:mod:`~caterpillar_learn.classroom.identity`).

Each page follows its room through a :class:`~caterpillar_learn.classroom.push.Push`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from caterpillar_learn.classroom.push import Push, Redraws
from caterpillar_learn.classroom.tweaks import Freezer, when_open_send_at_once
from caterpillar_learn.i18n import text

if TYPE_CHECKING:  # the command line must not pay for Panel and the widgets: they are imported when serving
    from caterpillar_learn.classroom.lessonroom import LessonPupil, LessonRoom
    from caterpillar_learn.classroom.lobby import AnyRoom, Lobby

__all__ = ["build_pages"]

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


def _log_tampering(component: Any, widget: Any, who: str) -> None:
    """Log a page's write of any trait but ``event`` (the component has already put the truth back)."""

    def report(written: dict[str, Any]) -> None:
        log.warning("%s: ignored a front-end write to %s", who, ", ".join(list(written)[:8]))

    component.tampered = report


def _on_close(cleanup: Callable[[], None]) -> None:
    import panel as pn

    pn.state.on_session_destroyed(lambda _context: cleanup())


def build_pages(
    lobby: Lobby, join_url: str, freezer: Freezer | None = None, pictures: str | None = None
) -> dict[str, Callable[[], Any]]:
    """The server's pages by address: ``teacher``, ``join`` and ``/`` (the door again); ``pictures`` is
    where the server serves the lesson gallery's pictures (the door shows the lessons' cards)."""
    import panel as pn

    from caterpillar_learn.classroom.components import classroom_component
    from caterpillar_learn.classroom.consoles import JoinDesk, JoinWidget, TeacherConsole, TeacherWidget
    from caterpillar_learn.classroom.lessonpage import LessonBoard, LessonTable, lesson_widget, widget_class
    from caterpillar_learn.classroom.lessonroom import LessonRoom
    from caterpillar_learn.classroom.pupil import ClassroomBoard, RoomSession, SeatTable, SeatWidget
    from caterpillar_learn.classroom.rooms import CaterpillarsRoom
    from caterpillar_learn.ui.base import LearnWidget

    # Make every component class now, before any page is open: Panel then lists their Bokeh data
    # models in every page's document.  A class first made inside a page would be described to that
    # page alone, and a door opened earlier could not draw the sheet it later receives.
    for kind in (TeacherWidget, JoinWidget, ClassroomBoard, SeatWidget, LessonBoard, LessonTable):
        classroom_component(kind)
    redraws = Redraws()  # every page's redraws, one at a turn of the event loop

    def _component(kind: type[LearnWidget[Any]], widget: LearnWidget[Any], **params: Any) -> Any:
        # The class by name, never type(widget): anywidget gives every instance a class of its own,
        # and a Panel component class per page would be a new Bokeh model class per page.
        make: Any = classroom_component  # cached by class
        component = make(kind)(widget, **params)
        component.redraws = redraws  # its page's events go before other pages' redraws
        return component

    def teacher_page() -> Any:
        if not lobby.is_teacher(_arg("token")):
            log.warning("teacher page asked for without the token, from %s", _client())
            return pn.pane.Markdown(text("classroom.page.teacher_only"))  # type: ignore[no-untyped-call]
        doc = pn.state.curdoc
        when_open_send_at_once(doc)
        console = TeacherConsole(lobby, join_url)
        widget = TeacherWidget(console)
        component: Any = _component(TeacherWidget, widget)
        _log_tampering(component, widget, "teacher")
        push = Push(doc, widget, component, redraws=redraws, every=TEACHER_EVERY)
        followed: dict[str, Any] = {}

        def watch(room: AnyRoom | None) -> None:
            if "room" in followed:
                followed["room"].unsubscribe(followed.pop("token"))
            followed.pop("room", None)
            if room is not None:
                followed["room"], followed["token"] = room, room.subscribe(push, None)

        console.watch = watch
        watch(console.room)
        # Under the console: the screen of the pupil the teacher tapped in a lesson room's grid, read-only.
        look_holder = pn.Column(sizing_mode="stretch_width")
        looking: list[Callable[[], None]] = []

        def look(room: LessonRoom | None, pupil: LessonPupil | None) -> None:
            for step in looking:
                step()
            looking.clear()
            if room is None or pupil is None:
                look_holder.objects = []
                return
            mirror = lesson_widget(room, pupil, read_only=True)
            shown = _look_line(room, pupil)
            mirror_component = _component(widget_class(room), mirror, sizing_mode="stretch_width")
            line = pn.pane.HTML(shown, sizing_mode="stretch_width")  # type: ignore[no-untyped-call]
            mirror_push = Push(doc, mirror, mirror_component, redraws=redraws, every=TEACHER_EVERY)

            def follow(changed: int | None) -> None:
                mirror_push(changed)
                if _look_line(room, pupil) != line.object:  # the names hidden or shown again
                    on_doc(doc, lambda: setattr(line, "object", _look_line(room, pupil)))

            token = room.subscribe(follow, pupil.id)

            def stop() -> None:
                mirror_push.closed = True
                room.unsubscribe(token)

            looking.append(stop)
            look_holder.objects = [line, mirror_component]

        console.look = look

        def close() -> None:
            push.closed = True
            for step in looking:
                step()
            looking.clear()
            watch(None)
            redraws.forget(doc)
            if freezer is not None:
                freezer.closed()

        _on_close(close)
        if freezer is not None:
            freezer.opened()
        return pn.Column(component, look_holder, sizing_mode="stretch_width")

    def pupil_page() -> Any:
        doc = pn.state.curdoc
        when_open_send_at_once(doc)
        holder = pn.Column(sizing_mode="stretch_width")
        leave: list[Callable[[], None]] = []

        def show(room: AnyRoom, pupil: Any) -> None:
            for step in leave:
                step()
            leave.clear()
            widget: Any
            cover = None
            lesson_room = room if isinstance(room, LessonRoom) else None
            if isinstance(room, LessonRoom):
                widget, key = lesson_widget(room, pupil), pupil.id
                component = _component(widget_class(room), widget, sizing_mode="stretch_width")
                cover = pn.pane.HTML(_cover(room, widget.lang), sizing_mode="stretch_width")  # type: ignore[no-untyped-call]
            elif isinstance(room, CaterpillarsRoom):
                widget, key = ClassroomBoard(RoomSession(room, pupil)), pupil.id
                component = _component(ClassroomBoard, widget, sizing_mode="stretch_width")
            else:
                widget, key = SeatWidget(SeatTable(room, pupil)), pupil.table
                component = _component(SeatWidget, widget, sizing_mode="stretch_width")
            _log_tampering(component, widget, f"room {room.code}, pupil {pupil.nickname!r}")
            first = None
            if isinstance(widget, ClassroomBoard):
                session = widget.session
                assert isinstance(session, RoomSession)
                first = lambda: {"dice": session.dice_now()}  # noqa: E731
            push = Push(doc, widget, component, first=first, redraws=redraws)
            token = room.subscribe(push, key)

            def unsubscribe() -> None:
                push.closed = True
                room.unsubscribe(token)

            leave.append(unsubscribe)
            badge = pn.pane.HTML(_you(room.code, pupil.nickname), sizing_mode="stretch_width")  # type: ignore[no-untyped-call]
            shown = {"nickname": pupil.nickname}

            def taken_out_or_renamed(_changed: int | None = None) -> None:
                # The teacher removed or renamed this pupil, or paused the class: tell the page, on its own document.
                if cover is not None and lesson_room is not None and cover.object != _cover(lesson_room, widget.lang):
                    on_page(lambda: setattr(cover, "object", _cover(lesson_room, widget.lang)))
                if pupil.id in room.pupils and room.pupils[pupil.id] is pupil and pupil.nickname == shown["nickname"]:
                    return
                on_page(follow_teacher)

            def follow_teacher() -> None:
                if pupil.id not in room.pupils or room.pupils[pupil.id] is not pupil:
                    for step in leave:
                        step()
                    leave.clear()
                    desk.removed()
                    door.refresh()
                    door_component.pull()
                    holder.objects = [door_component]
                elif pupil.nickname != shown["nickname"]:
                    shown["nickname"] = desk.nickname = pupil.nickname
                    badge.object = _you(room.code, pupil.nickname)
                    door.refresh()
                    door_component.pull()

            watcher = room.subscribe(taken_out_or_renamed, None)
            leave.append(lambda: room.unsubscribe(watcher))
            door.refresh()  # the door (hidden now) hands the page its secret to keep
            door_component.pull()
            holder.objects = [door_component, badge, component, *([cover] if cover is not None else [])]

        def on_page(step: Callable[[], None]) -> None:
            """Run ``step`` on this page's own document (it may come from the teacher's page)."""
            from panel.io.state import set_curdoc

            def run() -> None:
                with set_curdoc(doc):
                    step()

            try:
                page: Any = doc
                page.add_next_tick_callback(run)
            except Exception:  # the page has closed meanwhile
                log.debug("a closed page missed the teacher's answer", exc_info=True)

        # The address carries the room code at most: a nickname in it only fills in the form, and the
        # sheet comes back only to a page that shows its secret (kept in the browser, sent by the door).
        desk = JoinDesk(
            lobby, _client(), show, code=_arg("room"), nickname=_arg("nickname"), schedule=on_page, pictures=pictures
        )
        door = JoinWidget(desk)
        door_component: Any = _component(JoinWidget, door)

        def answer_seen() -> None:
            door.refresh()
            door_component.pull()

        desk.answer_seen = answer_seen
        holder.objects = [door_component]

        def close() -> None:
            for step in leave:
                step()
            desk.close()
            redraws.forget(doc)
            if freezer is not None:
                freezer.closed()

        _on_close(close)
        if freezer is not None:
            freezer.opened()
        return holder

    return {"/": pupil_page, "join": pupil_page, "teacher": teacher_page}


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


def _escape(words: str) -> str:
    import html

    return html.escape(words, quote=True)


def _you(code: str, nickname: str) -> str:
    """The line above a pupil's sheet: the room and who they are."""
    you = text("classroom.page.you_are", code=code, nickname=nickname)
    return f'<div data-testid="you" style="{YOU_STYLE}">{_escape(you)}</div>'
