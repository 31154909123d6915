"""Push: how a change in a room reaches every page that follows it, one page at a turn of the event loop.

When something changes in a room (the teacher rolls, a pupil places, a card
is played), the room calls every page that follows it; a page then redraws on
its own Bokeh document (``Document.add_next_tick_callback``, the one document
method that is safe from anywhere), so each page's models are changed under
that page's own lock.  A burst of changes makes one redraw per page
(:class:`Push`).  The redraws of all pages wait in one queue
(:class:`Redraws`) and run one page at a turn of the event loop, the pupils'
dice before anything else: the page that sent an event (a click) is answered
in that event's own callback, between two other pages' redraws rather than
after all of them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any

log = logging.getLogger("caterpillar_learn.classroom")

__all__ = ["Push", "Redraws"]


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
        self.component.pull(early)

    def _rest(self) -> None:
        self.pending = False
        if self.closed:
            return
        self.drawn_at = self.clock()
        self.widget.refresh()
        self.component.pull()
