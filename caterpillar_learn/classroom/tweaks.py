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
change.  Nor does Bokeh validate each new page's document: its checks only warn
of a layout's mistakes, which a classroom page made by this code does not make
again for every pupil (2 % of a join, every model asked for its checks by name).
Hooks: the public ``bokeh.settings.settings.perform_error_diagnostics`` and
``perform_document_validation``.

**One collector.**  A page closing makes the :class:`Freezer` thaw the heap
and collect it all once the class settles.  Panel also collects the whole
heap 5 s after each closed page's document is destroyed: a second full
collection (0.2-0.3 s with 30 pupils' pages open) that finds what the
Freezer's finds.  :func:`one_collector` switches Panel's off.  Hook: the
module global ``panel.io.document._garbage_collect``, which Panel's
``_destroy_document`` schedules by name.

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

**One bundle list a kind of page.**  For every page it sends, Panel works its
list of scripts and style sheets out again (``bundle_resources``: every
component class of the process asked for its files, some of them looked for
on disk), a tenth of a pupil's join.  Every door is the same kind of page,
so :func:`one_bundle_a_kind` remembers the list by what it depends on: the
page's model classes, the resources asked for, the page's relative path and
Panel's configuration (a page whose text could ask for MathJax is worked out
every time).  Hook: the module global ``panel.io.server.bundle_resources``,
which ``server_html_page_for_session`` calls, replaced by
:func:`fewer_bundles`.

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
    "close_page",
    "give_back",
    "one_collector",
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

    **A stream of pages.**  While pages keep opening (a school's classes
    joining together: :attr:`BUSY` pages or more since the last tick), the
    heap never settles, and Python's own full collections came every second
    or two, each looking at every page opened so far: 0.1 s, then 0.2 s, up
    to 0.45 s with 300 pupils, some 2.5 s of the 17 s those joins took.  So
    while the stream lasts, each tick freezes the heap *without* a
    collection (the new pages are alive; what garbage there is waits), and
    once the pages settle everything is thawed, the young generations
    collected, and frozen again (see "Only what opened"); after
    :attr:`SWEEP_EVERY` seconds of a stream that never settles, all of it
    is collected.

    **Only what opened.**  When no page has closed since the last full
    collection, the pages that settled are alive: a full collection would
    look at every object to find little (30 pupils of a race joining: 0.24 s
    of one 10-s window, to find 2,090 objects among 306,000; issue 46).  Then
    :meth:`tick` collects the young generations only and freezes the rest,
    a stream's included.  What old garbage it freezes waits for the next
    page to close or room to sleep (:meth:`closed` thaws everything, and the
    tick after collects it all), or for :attr:`SWEEP_EVERY` seconds of a
    stream that never settles.
    """

    #: Seconds without a page opened or closed before the heap is frozen.
    QUIET = 5.0
    #: Longest time a closed page's garbage waits for its collection while pages keep opening and closing.
    LONGEST = 10.0
    #: Pages opened since the last tick that make a stream: the heap is frozen without a collection.
    BUSY = 10
    #: Longest time what was frozen during a stream waits for the collection that looks at it (seconds).
    SWEEP_EVERY = 60.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.changed_at: float | None = None
        self.closed_at: float | None = None  # the first page closed since the last collection
        self.opened_since = 0  # pages opened (or turned into a sheet) since the last tick
        self.unswept_at: float | None = None  # when the heap was first frozen without a collection

    def opened(self) -> None:
        self.changed_at = self.clock()
        self.opened_since += 1

    def closed(self) -> None:
        gc.unfreeze()
        self.unswept_at = None  # nothing is frozen now
        self.changed_at = self.clock()
        if self.closed_at is None:
            self.closed_at = self.changed_at

    def tick(self) -> bool:
        """Freeze the heap if the pages have settled, or closed pages have waited :attr:`LONGEST` seconds
        for their collection (a stream of page loads never settles); ``True`` if it did.  During a
        stream of pages, freeze it without a collection (see "A stream of pages")."""
        if self.changed_at is None:
            return False
        now = self.clock()
        opened, self.opened_since = self.opened_since, 0
        settled = now - self.changed_at >= self.QUIET
        overdue = self.closed_at is not None and now - self.closed_at >= self.LONGEST
        stale = self.unswept_at is not None and now - self.unswept_at >= self.SWEEP_EVERY
        if not (settled or overdue or stale):
            if opened >= self.BUSY:
                gc.freeze()  # the stream's new pages: alive, and no full collection need look at them now
                if self.unswept_at is None:
                    self.unswept_at = now
            return False
        if settled:
            self.changed_at = None
        full = self.closed_at is not None or stale
        self.closed_at = None
        if self.unswept_at is not None:  # frozen during a stream: garbage may be among it
            self.unswept_at = None
            gc.unfreeze()
        # The closed pages' garbage first: a frozen object is never collected.  Pages that only opened left
        # little garbage that is old: the young generations are looked at, not every object (see "Only what
        # opened"); what old garbage there is waits for the next page to close, which thaws everything.
        gc.collect() if full else gc.collect(1)
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


def close_page(doc: Any) -> None:
    """Close the websockets of ``doc``'s page (the same private hooks as :func:`send_at_once`): the page stops
    sending, and what it still had on its way is never read."""
    context = doc.session_context
    session = None if context is None else context.session
    if session is None:
        return
    for connection in list(session._subscribed_connections):
        try:
            connection._socket.close()
        except Exception:  # closing already
            log.debug("could not close a page's websocket", exc_info=True)


def when_open_send_at_once(doc: Any) -> None:
    """Once the page is open (its websocket connected and ready), send its messages at once."""
    import panel as pn

    pn.state.onload(lambda: send_at_once(doc))


def quiet_diagnostics() -> None:
    """Switch Bokeh's error diagnostics and its validation of each page off (see "No diagnostics" in the
    module's text)."""
    from bokeh.settings import settings

    settings.perform_error_diagnostics.set_value(False)
    settings.perform_document_validation.set_value(False)


def one_collector() -> None:
    """Leave the collections after a page closes to the :class:`Freezer` (see "One collector" above): Panel's
    own full collection, 5 s after a page's document is destroyed, is switched off."""
    import panel.io.document

    panel.io.document._garbage_collect = _no_collection


def _no_collection() -> None:
    """Panel's collection after a closed page, as the classroom server has it: none (the Freezer's comes)."""


def tornado_application(server: Any) -> Any:
    """The Tornado application of a Bokeh ``Server`` (it has no public accessor: ``_tornado``)."""
    return server._tornado


#: BokehJS bundles no classroom page uses (see "Only the bundles a page uses" above).
UNUSED_BUNDLES = ("bokeh-gl",)


def fewer_bundles(app: Any, unused: tuple[str, ...] = UNUSED_BUNDLES) -> None:
    """Make Bokeh's Tornado ``app`` list, in every page it sends, all BokehJS bundles but ``unused``
    (the list worked out once a kind of page: :func:`one_bundle_a_kind`)."""
    one_bundle_a_kind()
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


#: The most bundle lists remembered (kinds of page, times the configurations a test may try).
BUNDLES_KEPT = 32


def one_bundle_a_kind() -> None:
    """Make Panel work a page's scripts and style sheets out once for every page of the same kind (see "One
    bundle list a kind of page" above); a second call changes nothing."""
    import panel.io.server
    from bokeh.model import Model
    from bokeh.models.annotations import TextAnnotation
    from bokeh.models.axes import Axis
    from bokeh.models.widgets.markups import Div, Paragraph
    from bokeh.models.widgets.sliders import AbstractSlider
    from panel.config import config, panel_extension
    from panel.io.state import state

    panel_server: Any = panel.io.server  # the page handler's module: its global is what it calls
    every: Any = panel_server.bundle_resources
    if getattr(every, "remembered", None) is not None:
        return
    remembered: dict[tuple[Any, ...], Any] = {}
    # Models whose text decides whether the page loads MathJax: a page with one is worked out every time.
    worded = (AbstractSlider, Axis, Div, Paragraph, TextAnnotation)

    def bundle_resources(roots: Any, resources: Any, *args: Any, **kwargs: Any) -> Any:
        document = roots[0].document if roots and not args and not kwargs else None
        kinds = frozenset(type(model) for model in document.models) if document is not None else frozenset()
        if not kinds or any(issubclass(kind, worded) for kind in kinds):
            return every(roots, resources, *args, **kwargs)
        key = (
            kinds,
            state.rel_path,
            resources.mode,
            resources.root_url,
            resources.absolute,
            resources.dev,
            resources.minified,
            tuple(resources.components),
            repr((config.js_files, config.css_files, config.js_modules, config.raw_css, config.design, config.theme)),
            (config.notifications, tuple(panel_extension._loaded_extensions)),
            len(Model.model_class_reverse_map),  # a model class made since: its files may be needed
        )
        found = remembered.get(key)
        if found is None:
            if len(remembered) >= BUNDLES_KEPT:
                remembered.clear()
            found = remembered[key] = every(roots, resources)
        return found

    bundle_resources.remembered = remembered  # type: ignore[attr-defined]
    panel_server.bundle_resources = bundle_resources
