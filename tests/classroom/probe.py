"""A page of the classroom server opened over Bokeh's own websocket protocol, without a browser.

The tests of hostile messages and the load benchmark need clients that speak
to the real server exactly as a page does: a :class:`PageClient` opens a
Bokeh session of a page (``/join``, ``/teacher?token=…``), tells the server
the page is ready (Bokeh's ``document_ready`` event, which a browser sends
once it has drawn the page), then writes widget traits the way the ES
modules do and reads the traits the server pushes back.  It can also write
what no honest page writes (any trait, any value), which is the point of
the hostile tests.

Each client runs its connection's event loop in a thread of its own, as a
browser tab listens all the time: Bokeh's client applies the server's
changes only while it is listening (it drops those that come while it waits
for the answer to a request of its own).  Writes go to that thread too.
Only the widget classes the server shows are known to the client
(:func:`known_widgets`): a page's models are decoded with them.

:attr:`PageClient.received_at` is when the message being applied came off
the socket (``time.perf_counter``), so a watcher can time the server's
answer without the time this client then spends applying it to its copy
of the document (Bokeh's Python client is far slower at that than a
browser, and a benchmark runs dozens of clients in one process).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

__all__ = ["PageClient", "known_widgets"]

_seq = itertools.count(1)


@cache
def known_widgets() -> tuple[type, ...]:
    """The Panel component classes of the server's widgets (their Bokeh data models must exist here too)."""
    from caterpillar_learn.classroom.components import classroom_component
    from caterpillar_learn.classroom.consoles import JoinWidget, TeacherWidget
    from caterpillar_learn.classroom.rooms.caterpillars.pupil import ClassroomBoard
    from caterpillar_learn.classroom.rooms.lesson.page import LessonBoard, LessonTable
    from caterpillar_learn.classroom.rooms.raupe.pupil import SeatWidget

    kinds = (TeacherWidget, JoinWidget, ClassroomBoard, SeatWidget, LessonBoard, LessonTable)
    return tuple(classroom_component(kind) for kind in kinds)


class PageClient:
    """One page of the server (a Bokeh session), driven over its websocket.

    ``widget`` names are the widget classes: ``"TeacherWidget"``,
    ``"JoinWidget"``, ``"ClassroomBoard"``, ``"SeatWidget"``, and a lesson
    room's ``"LessonBoard"`` and ``"LessonTable"``.
    """

    def __init__(self, url: str, arguments: Mapping[str, str] | None = None, timeout: float = 60.0) -> None:
        known_widgets()
        #: When the message being applied was read off the socket (``time.perf_counter()``).
        self.received_at = 0.0
        self._opened = threading.Event()
        self._failure: BaseException | None = None
        # Everything of the connection happens on its own thread (its event loop is made there), so a
        # client can be opened from a thread that runs another event loop (Playwright's, in the tests).
        self._listening = threading.Thread(target=self._run, args=(url, dict(arguments or {})), daemon=True)
        self._listening.start()
        if not self._opened.wait(timeout):
            raise TimeoutError(f"{url}: no page within {timeout} s")
        if self._failure is not None:
            raise self._failure

    def _run(self, url: str, arguments: dict[str, str]) -> None:
        from bokeh.client import pull_session
        from bokeh.document.events import MessageSentEvent
        from bokeh.events import DocumentReady

        try:
            self.session = pull_session(url=url, arguments=arguments)
            connection = self.session._connection
            # A browser sends each websocket frame at once (Chromium sets TCP_NODELAY on every socket); Tornado's
            # client does not, and a message's second frame would wait for the server's delayed ACK of the first.
            socket: Any = connection._socket
            socket._socket.protocol.set_nodelay(True)
            ready = MessageSentEvent(self.session.document, "bokeh_event", DocumentReady())
            connection._send_patch_document(self.session.id, ready)
            self.session.force_roundtrip()
            self._loop = connection.io_loop
        except BaseException as error:  # handed to the opening thread
            self._failure = error
            self._opened.set()
            return
        self._opened.set()
        self._loop.run_sync(self._listen)

    async def _listen(self) -> None:
        """Apply the server's changes as they come, until the connection closes.

        (Bokeh's own ``loop_until_closed`` recurses once per message and
        fails after about a thousand: a page that ticks four times a second
        gets that many in minutes.)
        """
        connection = self.session._connection
        while True:
            message = await connection._pop_message()
            if message is None:
                return
            if message.msgtype == "PATCH-DOC":
                self.received_at = time.perf_counter()
                self.session._handle_patch(message)  # type: ignore[arg-type]  # a PATCH-DOC message

    def model(self, widget: str) -> Any:
        """The Bokeh data model of ``widget`` on this page (its traits), or ``None``."""
        for model in list(self.session.document.models):
            # Only models that have ``data``: asking any other for it raises, and Bokeh's error then looks
            # for similar names with difflib (most of a benchmark's clients' time, polling every 2 ms).
            if "data" not in model.properties():
                continue
            data = model.data
            if data is not None and type(data).__name__.startswith(f"Panel{widget}"):
                return data
        return None

    def trait(self, widget: str, name: str) -> Any:
        model = self.model(widget)
        return None if model is None else getattr(model, name)

    def watch(self, widget: str, name: str, callback: Callable[[Any], None]) -> None:
        """Call ``callback(new value)`` whenever the server changes trait ``name`` (on the connection's thread)."""
        model = self.model(widget)
        if model is None:
            raise LookupError(f"no {widget} on this page")
        model.on_change(name, lambda _attr, _old, new: callback(new))

    def connected(self) -> bool:
        """Whether the page's websocket is still open (the server may close it)."""
        return self._listening.is_alive()

    def send(self, widget: str, kind: str, **fields: Any) -> None:
        """Do what the front end does for one action: write a new ``event``."""
        self.write(widget, "event", {**fields, "type": kind, "seq": next(_seq)})

    def write(self, widget: str, name: str, value: Any) -> None:
        """Send a change of any trait to any value, as a page (honest or not) can.

        The change goes out as Bokeh's ``ModelChanged`` patch, unchecked on
        this side (a browser's page can send anything); the local copy
        changes only when the server answers.
        """
        from bokeh.document.events import ModelChangedEvent

        model = self.model(widget)
        if model is None:
            raise LookupError(f"no {widget} on this page")
        event = ModelChangedEvent(self.session.document, model, name, value)
        connection = self.session._connection
        self._loop.add_callback(connection._send_patch_document, self.session.id, event)

    def wait(self, until: Callable[[], object], timeout: float = 10.0, poll: float = 0.002) -> bool:
        """Wait until ``until()`` holds (the server's changes arrive meanwhile); ``False`` after ``timeout`` s."""
        end = time.monotonic() + timeout
        while not until():
            if time.monotonic() > end:
                return False
            time.sleep(poll)  # poll: the next look at the condition, bounded by the timeout
        return True

    def close(self) -> None:
        self._loop.add_callback(self.session._connection.close)
        self._listening.join(10)
