"""The classroom server's tweaks of Bokeh, Tornado and the interpreter, each with the upstream hook it uses.

**At once.**  Every page's websocket sends each message as soon as it is
written (``TCP_NODELAY``, :func:`send_at_once`): Bokeh writes a message as
three websocket frames, and with Nagle's algorithm on (Tornado's default) the
second frame waited for the client's delayed acknowledgement of the first.
Hook: Bokeh's private ``ServerSession._subscribed_connections`` and
``ServerConnection._socket``.

**No diagnostics.**  Bokeh's error diagnostics are off in the server process
(:func:`quiet_diagnostics`): they look for similar names with :mod:`difflib`
every time Panel asks a model for an attribute it lacks, which it does on every
change.  Hook: the public ``bokeh.settings.settings.perform_error_diagnostics``.

**The Tornado application.**  The network policy is installed on Bokeh's
Tornado application (:func:`tornado_application`).  Hook: Bokeh's private
``Server._tornado``, read here alone.

**Bounded.**  The :class:`Freezer` freezes only what is alive
(:func:`gc.freeze`), and :func:`give_back` hands freed heap pages back to the
system (glibc's ``malloc_trim``).  The server runs on the C allocator
(``PYTHONMALLOC=malloc``, :func:`use_the_c_allocator`): with Python's own
small-object allocator a stream of page loads left their memory held in
arenas that one surviving object kept, though every object had gone (300
loads: 27 MB kept with it, 1.5 MB without).  Hook: the documented
``PYTHONMALLOC`` variable, read when the interpreter starts.

**Only the bundles a page uses.**  Bokeh's server sends every page all of
BokehJS's bundles, because it cannot know in advance what a page will show.
No classroom page draws a plot, so :func:`fewer_bundles` leaves out
``bokeh-gl`` (:data:`UNUSED_BUNDLES`: WebGL plotting, 56 KiB compressed that a
tablet would fetch and parse for nothing).  ``bokeh-widgets`` and
``bokeh-tables`` stay: Panel's bundle imports their models as it loads, and
without them no page draws at all ("Cannot find module
'@bokehjs/models/widgets/tables'").  Hook: ``BokehTornado.resources``, the
method Bokeh's page handler asks for a page's resources, replaced on the one
application, and ``Resources.clone(components=...)``.

tests/classroom/test_upstream_hooks.py and tests/classroom/test_exposure.py fail
when a hook is gone, so an upgrade that renames one fails loudly.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("caterpillar_learn.classroom")

__all__ = [
    "Freezer",
    "give_back",
    "quiet_diagnostics",
    "send_at_once",
    "tornado_application",
    "use_the_c_allocator",
    "when_open_send_at_once",
]


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
        give_back()
        return True


def give_back() -> None:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``; elsewhere nothing)."""
    import contextlib
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    with contextlib.suppress(OSError, AttributeError, TypeError):  # not glibc: its allocator keeps what it keeps
        ctypes.CDLL(name).malloc_trim(0)


def send_at_once(doc: Any) -> None:
    """Turn Nagle's algorithm off on the websockets of ``doc``'s session (see "At once" in the module's text).

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


def when_open_send_at_once(doc: Any) -> None:
    """Once the page is open (its websocket connected and ready), send its messages at once."""
    import panel as pn

    pn.state.onload(lambda: send_at_once(doc))


def quiet_diagnostics() -> None:
    """Switch Bokeh's error diagnostics off (see "No diagnostics" in the module's text)."""
    from bokeh.settings import settings

    settings.perform_error_diagnostics.set_value(False)


def tornado_application(server: Any) -> Any:
    """The Tornado application of a Bokeh ``Server`` (it has no public accessor: ``_tornado``)."""
    return server._tornado


#: BokehJS bundles no classroom page uses (see "Only the bundles a page uses" above).
UNUSED_BUNDLES = ("bokeh-gl",)


def fewer_bundles(app: Any, unused: tuple[str, ...] = UNUSED_BUNDLES) -> None:
    """Make Bokeh's Tornado ``app`` list, in every page it sends, all BokehJS bundles but ``unused``."""
    every = app.resources

    def resources(absolute_url: Any = None) -> Any:
        made = every(absolute_url)
        return made.clone(components=[name for name in made.components if name not in unused])

    app.resources = resources


def use_the_c_allocator() -> None:
    """Start this same command again on the C allocator, unless ``PYTHONMALLOC`` says which one to use.

    ``PYTHONMALLOC`` is read only when the interpreter starts, so the process replaces itself
    (:func:`os.execv`: the same process id, arguments and environment, plus ``PYTHONMALLOC=malloc``).
    Set ``PYTHONMALLOC=pymalloc`` to keep Python's own allocator.
    """
    argv = list(getattr(sys, "orig_argv", []))
    if os.environ.get("PYTHONMALLOC") or not argv or sys.platform != "linux":
        return
    os.environ["PYTHONMALLOC"] = "malloc"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, *argv[1:]])
