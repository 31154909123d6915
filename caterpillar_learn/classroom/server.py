"""``caterpillar-learn classroom``: the Panel server a class plays on.

One process serves three pages (one Bokeh session each):

* ``/teacher?token=…``: the teacher's console (:class:`~.consoles.TeacherWidget`),
  only with the token printed at start (kept in the data folder, so the
  address stays the same after a restart);
* ``/join`` (and ``/``): the pupils' door, then the pupil's own sheet: the
  lessons' Caterpillars board, or their seat at a Räuber Raupe table (the
  same ES modules, shown by :func:`~caterpillar_learn.classroom.components.classroom_component`).
  After joining, the page's address carries the room code and the nickname,
  so reloading it (or opening it on another tablet) brings the sheet back.

**Push.**  When something changes in a room (the teacher rolls, a pupil
places, a card is played), the room calls every page that follows it; a
page then redraws on its own Bokeh document at the next tick of the event
loop (``Document.add_next_tick_callback``, the one document method that is
safe from anywhere), so each page's models are changed under that page's
own lock.  A burst of changes makes one redraw per page.

**Safe by default.**  The server listens on the loopback interface unless
``--host`` says otherwise, accepts websockets only from its own addresses,
and every front-end message goes through the widgets' guard and the engine.

>>> join_base("127.0.0.1", 5006)
'http://127.0.0.1:5006/join'
>>> origins("127.0.0.1", 5006)
['127.0.0.1:5006', 'localhost:5006']
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text

if TYPE_CHECKING:  # the command line must not pay for Panel and the widgets: they are imported when serving
    from caterpillar_learn.classroom.lobby import Lobby
    from caterpillar_learn.classroom.rooms import CaterpillarsRoom
    from caterpillar_learn.classroom.tables import RaupeRoom

__all__ = ["DEFAULT_PORT", "Push", "build_pages", "default_data", "join_base", "origins", "register", "serve"]

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


def default_data() -> Path:
    """Where the rooms are kept unless ``--data`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "caterpillar-learn" / "classroom"


def public_host(host: str) -> str:
    """The address pupils type: ``host``, or this machine's address on the network when listening everywhere."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the outgoing interface
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return socket.gethostname()


def join_base(host: str, port: int) -> str:
    """The pupils' address (the QR code adds ``?room=CODE``)."""
    return f"http://{public_host(host)}:{port}/join"


def origins(host: str, port: int) -> list[str]:
    """The ``host:port`` pairs whose pages may open a websocket (Bokeh refuses every other origin)."""
    names = [public_host(host), "127.0.0.1", "localhost"]
    if host in ("0.0.0.0", "::"):
        names.append(socket.gethostname())
    return list(dict.fromkeys(f"{name}:{port}" for name in names))


class Push:
    """Redraw one page after its room changed: on the page's own document, at the next tick.

    Called by a room from any page's callback (or any thread); repeated
    calls before the redraw make one redraw.  A page does not push to
    itself: the widget that handled an event has redrawn already.

    ``first`` gives the traits sent at once (a pupil's dice, without drawing
    the sheet); the whole redraw (the sheet's picture is 17 kB) follows at a
    later tick.  After a roll the event loop thus sends every pupil the dice
    before anyone's sheet, and the last pupil of a class sees the dice in the
    time of thirty small messages rather than thirty large ones.
    """

    def __init__(
        self, doc: Any, widget: Any, component: Any, first: Callable[[], dict[str, Any]] | None = None
    ) -> None:
        self.doc = doc
        self.widget = widget
        self.component = component
        self.first = first
        self.pending = False
        self.closed = False

    def __call__(self, _changed: int | None = None) -> None:
        import panel as pn

        if self.pending or self.closed or pn.state.curdoc is self.doc:
            return
        self.pending = True
        try:
            self.doc.add_next_tick_callback(self._run)
        except Exception:  # the page has gone away meanwhile
            self.pending = False
            self.closed = True

    def _run(self) -> None:
        self.pending = False
        if self.closed:
            return
        if self.first is None:
            self.widget.refresh()
            self.component.pull()
            return
        early = self.first()
        for name, value in early.items():  # the widget first: the component checks every write against it
            setattr(self.widget, name, value)
        self.component.param.update(
            {name: value for name, value in early.items() if value != getattr(self.component, name)}
        )
        self.doc.add_next_tick_callback(self._rest)

    def _rest(self) -> None:
        if not self.closed:
            self.widget.refresh()
            self.component.pull()


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
    names = [name for name in widget.view_trait_names() if name in component.param]

    def check(*changes: Any) -> None:
        written = [change.name for change in changes if change.new != getattr(widget, change.name)]
        if written:
            log.warning("%s: ignored a front-end write to %s", who, ", ".join(written[:8]))

    component.param.watch(check, names)


def _on_close(cleanup: Callable[[], None]) -> None:
    import panel as pn

    pn.state.on_session_destroyed(lambda _context: cleanup())


def build_pages(lobby: Lobby, join_url: str) -> dict[str, Callable[[], Any]]:
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

    def _component(kind: type[LearnWidget[Any]], widget: LearnWidget[Any]) -> Any:
        # The class by name, never type(widget): anywidget gives every instance a class of its own,
        # and a Panel component class per page would be a new Bokeh model class per page.
        make: Any = classroom_component  # cached by class
        return make(kind)(widget)

    def teacher_page() -> Any:
        if not lobby.is_teacher(_arg("token")):
            log.warning("teacher page asked for without the token, from %s", _client())
            return pn.pane.Markdown(text("classroom.page.teacher_only"))  # type: ignore[no-untyped-call]
        doc = pn.state.curdoc
        console = TeacherConsole(lobby, join_url)
        widget = TeacherWidget(console)
        component: Any = _component(TeacherWidget, widget)
        _log_tampering(component, widget, "teacher")
        push = Push(doc, widget, component)
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

        _on_close(close)
        return component

    def pupil_page() -> Any:
        doc = pn.state.curdoc
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
            push = Push(doc, widget, component, first=first)
            token = room.subscribe(push, key)

            def unsubscribe() -> None:
                push.closed = True
                room.unsubscribe(token)

            leave.append(unsubscribe)
            you = text("classroom.page.you_are", code=room.code, nickname=pupil.nickname)
            badge = pn.pane.HTML(  # type: ignore[no-untyped-call]
                f'<div data-testid="you" style="{YOU_STYLE}">{_escape(you)}</div>', sizing_mode="stretch_width"
            )
            holder.objects = [badge, component]
            location: Any = pn.state.location
            if location is not None:  # the address now brings this sheet back (a reload, another tablet)
                location.update_query(room=room.code, nickname=pupil.nickname)

        desk = JoinDesk(lobby, _client(), show, code=_arg("room"), nickname=_arg("nickname"))
        door = JoinWidget(desk)
        holder.objects = [_component(JoinWidget, door)]
        if desk.code and desk.nickname:  # a reload (or another tablet) with the address of a joined page
            door.handle({"type": "join", "code": desk.code, "nickname": desk.nickname})

        def close() -> None:
            for step in leave:
                step()

        _on_close(close)
        return holder

    return {"/": pupil_page, "join": pupil_page, "teacher": teacher_page}


def _escape(words: str) -> str:
    import html

    return html.escape(words, quote=True)


def serve(data: Path, host: str, port: int, *, joins_per_minute: float = JOINS_PER_MINUTE) -> int:
    """Open the rooms in ``data`` and serve them until interrupted."""
    import panel as pn
    from tornado.ioloop import PeriodicCallback

    from caterpillar_learn.classroom.codes import JoinLimit
    from caterpillar_learn.classroom.lobby import Lobby

    burst = max(12, int(joins_per_minute // 2))
    lobby = Lobby.open(data, limit=JoinLimit(burst=burst, per_minute=joins_per_minute))
    start_server: Any = pn.serve
    server = start_server(
        build_pages(lobby, join_base(host, port)),
        port=port,
        address=host,
        websocket_origin=origins(host, port),
        show=False,
        start=False,
        title={"/": text("classroom.page.title_pupil"), "join": text("classroom.page.title_pupil"),
               "teacher": text("classroom.page.title_teacher")},
        verbose=False,
    )  # fmt: skip
    print(f"Classroom server, rooms kept in {data}", flush=True)
    print(f"Teacher (keep this address to yourself): http://{public_host(host)}:{port}/teacher?token={lobby.token}")
    print(f"Pupils join at: {join_base(host, port)}", flush=True)
    if host == HOST:
        print("Only this computer can reach it; for the class's tablets start it with --host 0.0.0.0.", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    server.start()
    PeriodicCallback(lobby.tick, CLOCK_MS).start()  # the Räuber Raupe tables' clock, on the server's event loop
    try:
        server.io_loop.start()
    except KeyboardInterrupt:
        pass
    finally:
        lobby.store.close()
    return 0


def _pick_port(requested: int) -> int:
    if not 0 <= requested <= 65535:
        raise ClassroomError(describe("--port", requested, "a port from 1 to 65535, or 0 for any free port"))
    if requested:
        return requested
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        free: int = probe.getsockname()[1]
        return free


def _handle(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    if not 1 <= args.join_limit <= 100_000:
        raise ClassroomError(describe("--join-limit", args.join_limit, "joins a minute from 1 to 100000"))
    return serve(Path(args.data).expanduser(), args.host, _pick_port(args.port), joins_per_minute=args.join_limit)


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
    parser.set_defaults(handler=_handle)
