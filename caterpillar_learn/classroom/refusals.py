"""A page's refused events, told to the server's log once, not once an event; and a closed room's answer.

A page that sends events the engine refuses (a child tapping what is not
allowed, or a hostile page flooding) would otherwise write a log line per
event: tens of kilobytes a second.  Each page keeps one :class:`Refusals`; the
first refusal is logged at once, the ones after it within :data:`EVERY` seconds
are counted, and the next line says how many there were.  :func:`tell` keeps
one per widget (a page's events all reach one widget).  Bokeh's own refusals
of messages that fit no model (an ``event`` that is not even an object) are
told the same way, by :class:`BokehRefusals` on the log's handlers.

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
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from caterpillar_learn.errors import brief
from caterpillar_learn.i18n import language
from caterpillar_learn.ui.base import LANGUAGE_EVENT, LearnWidget

if TYPE_CHECKING:
    from caterpillar_learn.classroom.eventroom import EventRoom

__all__ = ["EVERY", "BokehRefusals", "Refusals", "closed", "handled", "tell"]

log = logging.getLogger("caterpillar_learn.classroom")

#: Least time between two log lines about one page's refused events (seconds).
EVERY = 5.0
#: The logger and the start of its line with which Bokeh refuses a message that fits no model.
LOGGER, REFUSED = "bokeh.server.protocol_handler", "error handling message"


class Refusals:
    """One page's refused events: logged at most once every :data:`EVERY` seconds, with a count of the rest."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last = -math.inf
        self.since = 0  # refused events not logged since the last line

    def line(self, who: str, event: object, refusal: str) -> str | None:
        """The log line for this refusal, or None while the page's last line is younger than :data:`EVERY`."""
        return self.said(f"{who}: refused {brief(event)}: {refusal}")

    def said(self, line: str) -> str | None:
        """``line`` and how many were held back since the last, or None while that is younger than :data:`EVERY`."""
        now = self.clock()
        if now - self.last < EVERY:
            self.since += 1
            return None
        more = f" (and {self.since} more refused in the last {now - self.last:.0f} s)" if self.since else ""
        self.last, self.since = now, 0
        return f"{line}{more}"

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


class BokehRefusals(logging.Filter):
    """A log handler's filter: Bokeh's lines about messages it refused, at most one every :data:`EVERY` seconds.

    Bokeh checks a page's message against its models before any widget sees
    it, and logs each one that fails without naming the page.  Only a
    tampered page sends one (the ES modules write objects), so the lines of
    all pages are told together: the first at once, then one every
    :data:`EVERY` seconds with the count of the rest.  Put it after
    :class:`~caterpillar_learn.network.OneLine`, which makes each
    such record one line.

    >>> ticks = iter([0.0, 1.0, 9.0])
    >>> told = BokehRefusals(clock=lambda: next(ticks))
    >>> said = [logging.makeLogRecord({"name": LOGGER, "msg": "error handling message (ValueError: bad)"})
    ...         for _ in range(3)]
    >>> for line in [record.getMessage() for record in said if told.filter(record)]:
    ...     print(line)
    error handling message (ValueError: bad)
    error handling message (ValueError: bad) (and 1 more refused in the last 9 s)
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.told = Refusals(clock)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name != LOGGER or not record.getMessage().startswith(REFUSED):
            return True
        said = self.told.said(record.getMessage())
        if said is None:
            return False
        record.msg, record.args = said, None
        return True


def closed(widget: LearnWidget[Any], room: EventRoom, event: object) -> bool:
    """Whether ``room`` is closed (archived, stopped, its last write failed): then the page's event is answered
    with the room's line, in the page's language, and goes no further (the language switch still works)."""
    if room.closed is None or (isinstance(event, Mapping) and event.get("type") == LANGUAGE_EVENT):
        return False
    with language(widget.lang):
        widget.session.message = room.closed_line()
    widget.refresh()
    return True


def handled(
    widget: LearnWidget[Any],
    room: EventRoom,
    nickname: str,
    event: object,
    handle: Callable[[object], None],
    said: Callable[[], str],
) -> None:
    """A pupil's page event in ``room``: answered with the room's line if the room is closed, else given to
    ``handle``; a refusal either way is told to the log once (:func:`tell`), with what the page was told (``said``)."""
    if not closed(widget, room, event):
        handle(event)
    tell(widget, f"room {room.code}, pupil {nickname!r}", event, said())
