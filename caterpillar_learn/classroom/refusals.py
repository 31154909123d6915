"""A page's refused events, told to the server's log once, not once an event.

A page that sends events the engine refuses (a child tapping what is not
allowed, or a hostile page flooding) would otherwise write a log line per
event: tens of kilobytes a second.  Each page keeps one :class:`Refusals`; the
first refusal is logged at once, the ones after it within :data:`EVERY` seconds
are counted, and the next line says how many there were.  :func:`tell` keeps
one per widget (a page's events all reach one widget).

>>> ticks = iter([0.0, 0.5, 1.0, 6.0])
>>> told = Refusals(clock=lambda: next(ticks))
>>> [told.line("pupil 'Ada'", {"type": "box"}, "box: got 9") for _ in range(4)]  # doctest: +NORMALIZE_WHITESPACE
["pupil 'Ada': refused {'type': 'box'}: box: got 9", None, None,
 "pupil 'Ada': refused {'type': 'box'}: box: got 9 (and 2 more refused in the last 6 s)"]
"""

from __future__ import annotations

import logging
import math
import time
import weakref
from collections.abc import Callable

from caterpillar_learn.errors import brief

__all__ = ["EVERY", "Refusals", "tell"]

log = logging.getLogger("caterpillar_learn.classroom")

#: Least time between two log lines about one page's refused events (seconds).
EVERY = 5.0


class Refusals:
    """One page's refused events: logged at most once every :data:`EVERY` seconds, with a count of the rest."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last = -math.inf
        self.since = 0  # refused events not logged since the last line

    def line(self, who: str, event: object, refusal: str) -> str | None:
        """The log line for this refusal, or None while the page's last line is younger than :data:`EVERY`."""
        now = self.clock()
        if now - self.last < EVERY:
            self.since += 1
            return None
        more = f" (and {self.since} more refused in the last {now - self.last:.0f} s)" if self.since else ""
        self.last, self.since = now, 0
        return f"{who}: refused {brief(event)}: {refusal}{more}"

    def tell(self, who: str, event: object, refusal: str) -> None:
        """Log ``refusal`` of ``event`` by ``who`` (nothing when there is no refusal), or count it."""
        if refusal and (said := self.line(who, event, refusal)) is not None:
            log.warning("%s", said)


#: Each page's refusals, by the widget that handles its events (forgotten with the widget).
_PAGES: weakref.WeakKeyDictionary[object, Refusals] = weakref.WeakKeyDictionary()


def tell(page: object, who: str, event: object, refusal: str) -> None:
    """Log that ``page`` (the widget handling a page's events) had ``event`` refused, once every few seconds."""
    if refusal:
        _PAGES.setdefault(page, Refusals()).tell(who, event, refusal)
