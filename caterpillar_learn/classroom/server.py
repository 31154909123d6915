"""``caterpillar-learn classroom``: the Panel server a class plays on.

One process serves three pages (one Bokeh session each):

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

**Push.**  When something changes in a room (the teacher rolls, a pupil
places, a card is played), the room calls every page that follows it; a
page then redraws on its own Bokeh document (``Document.add_next_tick_callback``,
the one document method that is safe from anywhere), so each page's models
are changed under that page's own lock.  A burst of changes makes one
redraw per page.  The redraws of all pages wait in one queue
(:class:`Redraws`) and run one page at a turn of the event loop, the
pupils' dice before anything else: the page that sent an event (a click)
is answered in that event's own callback, between two other pages' redraws
rather than after all of them.

**At once.**  Every page's websocket sends each message as soon as it is
written (``TCP_NODELAY``, :func:`_send_at_once`): Bokeh writes a message as
three websocket frames, and with Nagle's algorithm on (Tornado's default)
the second frame waited for the client's delayed acknowledgement of the
first.  Bokeh's error diagnostics are off in the server process
(:func:`serve`): they look for similar names with :mod:`difflib` every time
Panel asks a model for an attribute it lacks, which it does on every change.

**Safe by default.**  The server listens on the loopback interface unless
``--host`` says otherwise, accepts websockets only from its own addresses,
and every front-end message goes through the widgets' guard and the engine.
The network policy is the lessons' server's
(:mod:`caterpillar_learn.ui.hosting.network`): every request's ``Host``
header must name this computer, every answer carries
``Referrer-Policy: no-referrer``, ``X-Content-Type-Options: nosniff`` and a
Content-Security-Policy (:data:`POLICY`, ``frame-ancestors 'none'``), the
log hides the teacher's token, and a page's malformed message is one line.

**Bounded.**  A page that never connects is forgotten after Bokeh's
unused-session lifetime (``--unopened-lifetime``, 15 s), every page's
widgets are closed when its session ends, and the :class:`Freezer` freezes
only what is alive (:mod:`~caterpillar_learn.classroom.lifetime`).

>>> join_base("127.0.0.1", 5006)
'http://127.0.0.1:5006/join'
>>> origins("127.0.0.1", 5006)
['127.0.0.1:5006', 'localhost:5006']
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import available_languages, set_language, text
from caterpillar_learn.ui.hosting.network import (
    allowed_hosts,
    content_policy,
    harden,
    join_base,
    origins,
    pick_port,
    public_host,
    quiet_log,
)

if TYPE_CHECKING:  # the command line must not pay for Panel and the widgets: they are imported when serving
    from caterpillar_learn.classroom.lobby import Lobby
    from caterpillar_learn.classroom.rooms import CaterpillarsRoom
    from caterpillar_learn.classroom.tables import RaupeRoom

__all__ = [
    "DEFAULT_PORT",
    "Push",
    "Redraws",
    "build_pages",
    "default_data",
    "join_base",
    "origins",
    "register",
    "serve",
]

log = logging.getLogger("caterpillar_learn.classroom")

#: Panel's own default port.
DEFAULT_PORT = 5006
#: Loopback only unless the teacher says otherwise (``--host 0.0.0.0`` for the class's network).
HOST = "127.0.0.1"
#: How often the Räuber Raupe tables' clock moves (ms).
CLOCK_MS = 250
#: Join attempts a minute per client address (a burst of 12 first): guessing codes is slow, a class is not.
JOINS_PER_MINUTE = 20.0
#: The line above a pupil's sheet (outside the widget's shadow root, so styled here).
YOU_STYLE = "font: 700 20px system-ui, sans-serif; padding: 4px 12px"
#: Longest query argument read from a page's address.
MAX_ARG = 64
#: Least time between two redraws of the teacher's console after pupils' moves (seconds).
TEACHER_EVERY = 0.25
#: Seconds a loaded page may take to connect its websocket before its session is forgotten (Bokeh's default).
UNOPENED_LIFETIME = 15.0
#: Longest time between two looks for such pages (seconds).
UNOPENED_CHECK = 5.0
#: What Bokeh's pages need beyond their own server's files and inline scripts: the ES modules Panel makes
#: of the widgets at ``blob:`` addresses (es-module-shims fetches them, then imports them).  No
#: ``'unsafe-eval'``: nothing here uses Bokeh's ``CustomJS``, the one part of a page that would need it.
POLICY = content_policy(script=["blob:"], connect=["blob:"])
#: The address of the server's own static folder (the connection-lost script).
STATIC = "caterpillar-learn"


def default_data() -> Path:
    """Where the rooms are kept unless ``--data`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "caterpillar-learn" / "classroom"


def _refused_words() -> tuple[str, str]:
    """The title and sentence of the page a request for a foreign host gets."""
    return text("classroom.connection.host_title"), text("classroom.connection.host_refused")


class Redraws:
    """The server's queue of page redraws: one page at a turn of the event loop, the dice first.

    A roll changes every page of the class; scheduled all at once, the thirty
    redraws would run back to back, and a pupil's click (or a card played at
    a table) that arrives meanwhile would wait behind all of them.  Here the
    next page's redraw is scheduled only when the previous one has run, so
    the event loop reads its sockets between two pages and a click is played
    after at most one other page's redraw.  ``urgent`` steps (a pupil's dice)
    go before every other redraw.

    A page's event goes before the queue: from the moment it arrives
    (:meth:`hold`, called by the page's component) until it has been played
    and answered (:meth:`release`), no further redraw is started, so a click
    waits for at most the one redraw already running.

    Each step runs on its own page's document (``add_next_tick_callback``:
    under that page's lock, with that page as Panel's current document).
    A closed page's steps are dropped (:meth:`forget`); a step lost anyway
    holds the queue up for at most :attr:`LOST` seconds, an event never
    released for at most :attr:`HOLD` seconds.
    """

    #: Seconds after which a step still waiting is taken as lost (its page was closed).
    LOST = 2.0
    #: Longest wait for a page's event before the redraws go on anyway (seconds).
    HOLD = 0.5

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._urgent: deque[tuple[Any, Callable[[], None]]] = deque()
        self._later: deque[tuple[Any, Callable[[], None]]] = deque()
        self._lock = threading.Lock()
        self._clock = clock
        self._waiting_since: float | None = None  # a step is scheduled and has not run yet
        self._in_flight: Any = None  # the document of that step
        self._held: dict[Any, float] = {}  # pages whose event is being played, since when
        self._recheck: float | None = None  # when a timeout was set to look at the queue again

    def __len__(self) -> int:
        return len(self._urgent) + len(self._later)

    def add(self, doc: Any, step: Callable[[], None], *, urgent: bool = False) -> None:
        """Run ``step`` on ``doc`` after the redraws already queued (``urgent``: before the others)."""
        with self._lock:
            (self._urgent if urgent else self._later).append((doc, step))
            since = self._waiting_since
            if since is not None and self._clock() - since < self.LOST:
                return  # the step in flight schedules the next one
            self._waiting_since = self._in_flight = None
        self._next()

    def hold(self, doc: Any) -> None:
        """A page's event has arrived: start no redraw until it is answered."""
        with self._lock:
            self._held.setdefault(doc, self._clock())

    def release(self, doc: Any) -> None:
        """The page's event has been played and answered: the redraws go on."""
        with self._lock:
            if self._held.pop(doc, None) is None:
                return
        self._next()

    def _check(self) -> None:
        with self._lock:
            self._recheck = None
        self._next()

    def forget(self, doc: Any) -> None:
        """Drop the steps of a page that has closed (and go on if one of them was in flight)."""
        with self._lock:
            for queue in (self._urgent, self._later):
                kept = [entry for entry in queue if entry[0] is not doc]
                queue.clear()
                queue.extend(kept)
            self._held.pop(doc, None)
            if self._in_flight is not doc:
                return
            self._waiting_since = self._in_flight = None
        self._next()

    def _next(self) -> None:
        while True:
            with self._lock:
                if self._waiting_since is not None:
                    return  # another step is in flight already
                queue = self._urgent or self._later
                if not queue:
                    return
                now = self._clock()
                for held, since in list(self._held.items()):
                    if now - since >= self.HOLD:
                        del self._held[held]  # never released (its page went away): go on without it
                if self._held:
                    if self._recheck is not None and now - self._recheck < 2 * self.HOLD:
                        return
                    self._recheck = now
                    doc = queue[0][0]
                    wait = self.HOLD - (now - min(self._held.values()))
                else:
                    doc, step = queue.popleft()
                    self._waiting_since, self._in_flight = now, doc
                    wait = None
            if wait is not None:  # an event is being played: its release (or this timeout) goes on
                try:
                    doc.add_timeout_callback(self._check, max(wait, 0.0) * 1000 + 1)
                except Exception:  # that page has gone: look again when the next page changes
                    with self._lock:
                        self._recheck = None
                return
            try:
                doc.add_next_tick_callback(partial(self._run, step))
                return
            except Exception:  # the page has gone away meanwhile: the next one
                with self._lock:
                    self._waiting_since = self._in_flight = None

    def _run(self, step: Callable[[], None]) -> None:
        with self._lock:
            self._waiting_since = self._in_flight = None
        try:
            step()
        except Exception:  # one page's trouble must not stop the others' redraws
            log.exception("a page's redraw failed")
        finally:
            self._next()


class Push:
    """Redraw one page after its room changed: on the page's own document, through the server's :class:`Redraws`.

    Called by a room from any page's callback (or any thread); repeated
    calls before the redraw make one redraw.  A page does not push to
    itself: the widget that handled an event has redrawn already, in that
    event's own callback (so a pupil's click is answered without waiting for
    other pages' redraws).

    ``first`` gives the traits sent at once (a pupil's dice, without drawing
    the sheet): an urgent step, so after a roll every pupil gets the dice
    before anyone's sheet is redrawn.  ``every`` (seconds) is the least time
    between two redraws: the teacher's console shows how many have placed, and
    thirty pupils placing within a second need not redraw it thirty times.
    """

    def __init__(
        self,
        doc: Any,
        widget: Any,
        component: Any,
        first: Callable[[], dict[str, Any]] | None = None,
        *,
        redraws: Redraws,
        every: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.doc = doc
        self.widget = widget
        self.component = component
        self.first = first
        self.redraws = redraws
        self.every = every
        self.clock = clock
        self.pending = False
        self.first_pending = False
        self.closed = False
        self.drawn_at = -float("inf")

    def __call__(self, _changed: int | None = None) -> None:
        import panel as pn

        if self.closed or pn.state.curdoc is self.doc:
            return
        if self.first is not None and not self.first_pending:
            self.first_pending = True
            self.redraws.add(self.doc, self._first, urgent=True)
        if self.pending:
            return
        self.pending = True
        wait = self.every - (self.clock() - self.drawn_at)
        if wait <= 0:
            self.redraws.add(self.doc, self._rest)
            return
        try:
            self.doc.add_timeout_callback(lambda: self.redraws.add(self.doc, self._rest), wait * 1000)
        except Exception:  # the page has gone away meanwhile
            self.closed = True

    def _first(self) -> None:
        self.first_pending = False
        if self.closed or self.first is None:
            return
        early = self.first()
        for name, value in early.items():  # the widget first: the component checks every write against it
            setattr(self.widget, name, value)
        self.component.param.update(
            {name: value for name, value in early.items() if value != getattr(self.component, name)}
        )

    def _rest(self) -> None:
        self.pending = False
        if self.closed:
            return
        self.drawn_at = self.clock()
        self.widget.refresh()
        self.component.pull()


class Freezer:
    """Keeps the pages' objects out of the garbage collector's full passes once the class has settled.

    A full collection looks at every object of the process: with a class's
    pages open that is some 250 ms during which no page is answered.  Once
    no page has opened or closed for :attr:`QUIET` seconds, :meth:`tick`
    collects what is garbage by then (a closed page's objects, which hold
    each other in cycles), then freezes what is left (:func:`gc.freeze`,
    which moves them aside without looking at them): the process's own
    objects and the open pages', which live as long as their pages and need
    no further look.  A page closing (or a page that never connected being
    forgotten after Bokeh's unused-session lifetime) unfreezes everything,
    so its objects are collected at the next tick.  Freezing without
    collecting first froze the closed pages' garbage too, for ever: some
    50 MB per 400 page loads.
    """

    #: Seconds without a page opened or closed before the heap is frozen.
    QUIET = 5.0
    #: Longest time a closed page's garbage waits for its collection while pages keep opening and closing.
    LONGEST = 10.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.changed_at: float | None = None
        self.closed_at: float | None = None  # the first page closed since the last collection

    def opened(self) -> None:
        self.changed_at = self.clock()

    def closed(self) -> None:
        gc.unfreeze()
        self.changed_at = self.clock()
        if self.closed_at is None:
            self.closed_at = self.changed_at

    def tick(self) -> bool:
        """Freeze the heap if the pages have settled, or closed pages have waited :attr:`LONGEST` seconds
        for their collection (a stream of page loads never settles); ``True`` if it did."""
        if self.changed_at is None:
            return False
        now = self.clock()
        settled = now - self.changed_at >= self.QUIET
        if not settled and (self.closed_at is None or now - self.closed_at < self.LONGEST):
            return False
        if settled:
            self.changed_at = None
        self.closed_at = None
        gc.collect()  # the closed pages' garbage first: a frozen object is never collected
        gc.freeze()
        _give_back()
        return True


def _give_back() -> None:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``; elsewhere nothing)."""
    import contextlib
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    with contextlib.suppress(OSError, AttributeError, TypeError):  # not glibc: its allocator keeps what it keeps
        ctypes.CDLL(name).malloc_trim(0)


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


def _send_at_once(doc: Any) -> None:
    """Turn Nagle's algorithm off on the websockets of ``doc``'s session (see "At once" above).

    Bokeh lists a session's websockets only in the private ``ServerSession._subscribed_connections``, each
    with its Tornado handler in ``ServerConnection._socket``: both are read directly, so a rename fails
    loudly, and tests/classroom/test_upstream_hooks.py fails on the upgrade first.
    """
    context = doc.session_context
    session = None if context is None else context.session
    if session is None:  # a document no server serves: no websocket
        return
    for connection in list(session._subscribed_connections):
        socket = connection._socket
        try:
            if socket.ws_connection is not None:  # None once the page has closed
                socket.set_nodelay(True)
        except Exception:  # a page closing meanwhile: nothing to speed up
            log.debug("could not set TCP_NODELAY", exc_info=True)


def _when_ready(doc: Any) -> None:
    """Once the page is open (its websocket connected and ready), send its messages at once."""
    import panel as pn

    pn.state.onload(lambda: _send_at_once(doc))


def _on_close(cleanup: Callable[[], None]) -> None:
    import panel as pn

    pn.state.on_session_destroyed(lambda _context: cleanup())


def build_pages(lobby: Lobby, join_url: str, freezer: Freezer | None = None) -> dict[str, Callable[[], Any]]:
    """The server's pages by address: ``teacher``, ``join`` and ``/`` (the door again)."""
    import panel as pn

    from caterpillar_learn.classroom.components import classroom_component
    from caterpillar_learn.classroom.consoles import JoinDesk, JoinWidget, TeacherConsole, TeacherWidget
    from caterpillar_learn.classroom.pupil import ClassroomBoard, RoomSession, SeatTable, SeatWidget
    from caterpillar_learn.classroom.rooms import CaterpillarsRoom
    from caterpillar_learn.ui.base import LearnWidget

    # Make every component class now, before any page is open: Panel then lists their Bokeh data
    # models in every page's document.  A class first made inside a page would be described to that
    # page alone, and a door opened earlier could not draw the sheet it later receives.
    for kind in (TeacherWidget, JoinWidget, ClassroomBoard, SeatWidget):
        classroom_component(kind)
    redraws = Redraws()  # every page's redraws, one at a turn of the event loop

    def _component(kind: type[LearnWidget[Any]], widget: LearnWidget[Any]) -> Any:
        # The class by name, never type(widget): anywidget gives every instance a class of its own,
        # and a Panel component class per page would be a new Bokeh model class per page.
        make: Any = classroom_component  # cached by class
        component = make(kind)(widget)
        component.redraws = redraws  # its page's events go before other pages' redraws
        return component

    def teacher_page() -> Any:
        if not lobby.is_teacher(_arg("token")):
            log.warning("teacher page asked for without the token, from %s", _client())
            return pn.pane.Markdown(text("classroom.page.teacher_only"))  # type: ignore[no-untyped-call]
        doc = pn.state.curdoc
        _when_ready(doc)
        console = TeacherConsole(lobby, join_url)
        widget = TeacherWidget(console)
        component: Any = _component(TeacherWidget, widget)
        _log_tampering(component, widget, "teacher")
        push = Push(doc, widget, component, redraws=redraws, every=TEACHER_EVERY)
        followed: dict[str, Any] = {}

        def watch(room: CaterpillarsRoom | RaupeRoom | None) -> None:
            if "room" in followed:
                followed["room"].unsubscribe(followed.pop("token"))
            followed.pop("room", None)
            if room is not None:
                followed["room"], followed["token"] = room, room.subscribe(push, None)

        console.watch = watch
        watch(console.room)

        def close() -> None:
            push.closed = True
            watch(None)
            redraws.forget(doc)
            if freezer is not None:
                freezer.closed()

        _on_close(close)
        if freezer is not None:
            freezer.opened()
        return component

    def pupil_page() -> Any:
        doc = pn.state.curdoc
        _when_ready(doc)
        holder = pn.Column(sizing_mode="stretch_width")
        leave: list[Callable[[], None]] = []

        def show(room: CaterpillarsRoom | RaupeRoom, pupil: Any) -> None:
            for step in leave:
                step()
            leave.clear()
            widget: ClassroomBoard | SeatWidget
            if isinstance(room, CaterpillarsRoom):
                widget, key = ClassroomBoard(RoomSession(room, pupil)), pupil.id
                component = _component(ClassroomBoard, widget)
            else:
                widget, key = SeatWidget(SeatTable(room, pupil)), pupil.table
                component = _component(SeatWidget, widget)
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
                # The teacher removed or renamed this pupil: tell the page, on its own document.
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
            holder.objects = [door_component, badge, component]

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
        desk = JoinDesk(lobby, _client(), show, code=_arg("room"), nickname=_arg("nickname"), schedule=on_page)
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


def _escape(words: str) -> str:
    import html

    return html.escape(words, quote=True)


def _you(code: str, nickname: str) -> str:
    """The line above a pupil's sheet: the room and who they are."""
    you = text("classroom.page.you_are", code=code, nickname=nickname)
    return f'<div data-testid="you" style="{YOU_STYLE}">{_escape(you)}</div>'


def serve(
    data: Path,
    host: str,
    port: int,
    *,
    joins_per_minute: float = JOINS_PER_MINUTE,
    unopened_lifetime: float = UNOPENED_LIFETIME,
    allow_hosts: tuple[str, ...] = (),
) -> int:
    """Open the rooms in ``data`` and serve them until interrupted.

    A page whose websocket never connects is forgotten ``unopened_lifetime``
    seconds after it was loaded (Bokeh's unused-session lifetime, looked at
    every :data:`UNOPENED_CHECK` seconds at most), and every page's widgets
    are closed when its session ends (:mod:`~caterpillar_learn.classroom.lifetime`).
    """
    import panel as pn
    from bokeh.settings import settings
    from tornado.ioloop import PeriodicCallback

    from caterpillar_learn.classroom.codes import JoinLimit
    from caterpillar_learn.classroom.lifetime import NOTICE_FILE, PageWidgets, every_page, write_notice
    from caterpillar_learn.classroom.lobby import Lobby
    from caterpillar_learn.ui.caterpillars.advice import start_workers, stop_workers

    settings.perform_error_diagnostics.set_value(False)  # see "At once" above: difflib on every change
    burst = max(12, int(joins_per_minute // 2))
    lobby = Lobby.open(data, limit=JoinLimit(burst=burst, per_minute=joins_per_minute))
    start_server: Any = pn.serve
    freezer = Freezer()
    widgets = PageWidgets(lambda: pn.state.curdoc)
    widgets.install()
    notices = Path(tempfile.mkdtemp(prefix="caterpillar-learn-classroom-"))
    write_notice(notices)  # every page loads it: "Connection lost — trying again…", then a reload
    pn.config.js_files = {**pn.config.js_files, "connection_lost": f"/{STATIC}/{NOTICE_FILE}"}
    server = start_server(
        every_page(build_pages(lobby, join_base(host, port), freezer), widgets),
        port=port,
        address=host,
        websocket_origin=[*origins(host, port), *(f"{name}:{port}" for name in allow_hosts)],
        show=False,
        start=False,
        title={"/": text("classroom.page.title_pupil"), "join": text("classroom.page.title_pupil"),
               "teacher": text("classroom.page.title_teacher")},
        verbose=False,
        static_dirs={STATIC: str(notices)},
        unused_session_lifetime_milliseconds=int(unopened_lifetime * 1000),
        check_unused_sessions_milliseconds=int(min(UNOPENED_CHECK, unopened_lifetime) * 1000),
    )  # fmt: skip
    # The network policy shared with the lessons' server (Host check, headers, a log without the token).
    # Bokeh's Server has no public accessor for its Tornado application: `_tornado` is read here alone,
    # and tests/classroom/test_exposure.py fails if it is gone (every header and the Host check with it).
    harden(server._tornado, allowed_hosts(host, allow_hosts), POLICY, _refused_words)
    print(f"Classroom server, rooms kept in {data}", flush=True)
    print(f"Teacher (keep this address to yourself): http://{public_host(host)}:{port}/teacher?token={lobby.token}")
    print(f"Pupils join at: {join_base(host, port)}", flush=True)
    if host == HOST:
        print("Only this computer can reach it; for the class's tablets start it with --host 0.0.0.0.", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    start_workers()  # hints are worked out in worker processes, never on the event loop
    server.start()
    gc.collect()
    gc.freeze()  # what is loaded by now lives as long as the server: no collection need look at it again
    PeriodicCallback(lobby.tick, CLOCK_MS).start()  # the Räuber Raupe tables' clock, on the server's event loop

    def settle() -> None:
        freezer.tick()

    PeriodicCallback(settle, 1000).start()  # see Freezer
    try:
        server.io_loop.start()
    except KeyboardInterrupt:
        pass
    finally:
        stop_workers()
        lobby.store.close()
        shutil.rmtree(notices, ignore_errors=True)
    return 0


def _handle(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    quiet_log(logging.getLogger().handlers)  # no token in any line; a page's malformed message in one line
    if args.lang:  # every page's first language (the widgets start in it) and the server's own words
        set_language(args.lang)
    if not 1 <= args.join_limit <= 100_000:
        raise ClassroomError(describe("--join-limit", args.join_limit, "joins a minute from 1 to 100000"))
    if not 1 <= args.unopened_lifetime <= 3600:
        raise ClassroomError(describe("--unopened-lifetime", args.unopened_lifetime, "seconds from 1 to 3600"))
    return serve(
        Path(args.data).expanduser(),
        args.host,
        pick_port(args.port, args.host),
        joins_per_minute=args.join_limit,
        unopened_lifetime=args.unopened_lifetime,
        allow_hosts=tuple(name.strip().lower() for name in args.allow_host if name.strip()),
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``classroom`` to the ``caterpillar-learn`` command."""
    parser = subparsers.add_parser(
        "classroom",
        help="serve a class: rooms with shared dice, Räuber Raupe tables (Panel)",
        description=(
            "Start the classroom server. It prints the teacher's address (with a secret token) and the address "
            "pupils open. Rooms, pupils and every move are kept in --data and survive a restart."
        ),
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free)")
    parser.add_argument(
        "--host",
        default=HOST,
        metavar="ADDR",
        help=f"address to listen on (default {HOST}, this computer only; 0.0.0.0 for the class's network)",
    )
    parser.add_argument(
        "--data", metavar="DIR", default=str(default_data()), help="folder of the rooms' data (default: %(default)s)"
    )
    parser.add_argument(
        "--join-limit",
        type=float,
        default=JOINS_PER_MINUTE,
        metavar="PER_MINUTE",
        help=(
            f"join attempts a minute per client address (default {JOINS_PER_MINUTE:g}); raise it when the tablets "
            "reach the server through one proxy and so share one address"
        ),
    )
    parser.add_argument(
        "--lang",
        choices=available_languages(),
        default=None,
        help="the pages' first language (default: English)",
    )
    parser.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        default=[],
        help="another name the tablets use to reach this computer (a DNS alias, a reverse proxy); repeatable",
    )
    parser.add_argument(  # for tests and benchmarks: not in --help
        "--unopened-lifetime", type=float, default=UNOPENED_LIFETIME, help=argparse.SUPPRESS
    )
    parser.set_defaults(handler=_handle)
