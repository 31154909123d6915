"""What a page may send a widget: an event, its shape, its fields, and the table that dispatches it.

Every front-end action reaches the Python side as one JSON object
``{"type": ..., ...}`` in the widget's ``event`` trait.  Before anything is
done with it, its type is checked against the types the receiver knows
(:func:`event_type`), and the receiver's method for that type is looked up
in one table (:func:`handler`): an event of another shape or type is refused
here, in one line (:class:`BadEventError`), never deeper in the game.
Fields are read with :func:`whole` and :func:`number`, which refuse what a
tampered page could send (a string, a boolean, a number of 400 digits).

The widget skeleton (:mod:`caterpillar_learn.ui.base`) and the saves of a
lesson (:mod:`caterpillar_learn.ui.resume`) both build on this module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from caterpillar_learn.errors import CaterpillarLearnError, describe

__all__ = [
    "MAX_EVENT_FIELDS",
    "MAX_SEQ",
    "BadEventError",
    "Dispatcher",
    "Handler",
    "event_type",
    "handler",
    "number",
    "whole",
]

#: The longest event the widget reads (a page could send megabytes of JSON).
MAX_EVENT_FIELDS = 16
#: The largest ``seq`` echoed in ``handled``: the largest whole number JavaScript holds exactly (2**53 - 1).
MAX_SEQ = 2**53 - 1


class BadEventError(CaterpillarLearnError):
    """An event from the front end that does not fit the game."""


#: What plays one event: a controller's method, bound (so that a subclass's own is the one called).
Handler = Callable[[Mapping[str, Any]], None]


def event_type(event: object, known: Iterable[str]) -> str:
    """The type of a front-end event, or a one-line error.

    >>> event_type({"type": "roll", "seq": 3}, ("roll",))
    'roll'
    >>> event_type([1, 2], ("roll",))
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.events.BadEventError: event: got a list, expected an object {"type": ...}
    """
    names = tuple(known)
    if not isinstance(event, Mapping):
        raise BadEventError(f'event: got a {type(event).__name__}, expected an object {{"type": ...}}')
    if len(event) > MAX_EVENT_FIELDS:
        raise BadEventError(describe("event fields", len(event), f"at most {MAX_EVENT_FIELDS}"))
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in names:
        raise BadEventError(describe("event type", kind, "one of " + ", ".join(names)))
    return kind


class Dispatcher:
    """A controller whose events are the keys of its table of handlers (:meth:`handlers`), written once.

    >>> class Bell(Dispatcher):
    ...     def handlers(self):
    ...         return {"ring": print}
    >>> Bell().events
    ('ring',)
    """

    def handlers(self) -> Mapping[str, Handler]:
        """Each event type this controller takes, and its bound method that applies it."""
        raise NotImplementedError

    @property
    def events(self) -> tuple[str, ...]:
        """The event types this controller takes: its :meth:`handlers`' keys."""
        return tuple(self.handlers())


def handler(event: object, handlers: Mapping[str, Handler]) -> Handler:
    """The handler of ``event``, found by the event's type in ``handlers`` (type → bound method, each
    controller's ``handlers()``): the one table-driven dispatch of every controller and console, so that an
    unknown type is refused in one line, here (:func:`event_type`).  The table holds the methods themselves,
    not their names: a renamed method is an error mypy finds.

    >>> class Bell:
    ...     def handlers(self):
    ...         return {"ring": self.on_ring}
    ...     def on_ring(self, event):
    ...         print("ring" * event["times"])
    >>> bell = Bell()
    >>> handler({"type": "ring", "times": 2}, bell.handlers())({"times": 2})
    ringring
    >>> handler({"type": "moon"}, bell.handlers())
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.events.BadEventError: event type: got 'moon', expected one of ring
    """
    return handlers[event_type(event, handlers)]


def whole(value: object, field: str, size: int | None = None) -> int:
    """A whole number from an event (below ``size`` if given), or a one-line error.

    >>> whole(2, "die index", 3)
    2
    >>> whole(10**400, "option index")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.events.BadEventError: option index: got a number of about 401 digits, expected a whole...
    """
    expected = "a whole number" if size is None else f"a whole number from 0 to {size - 1}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadEventError(describe(field, value, expected))
    if abs(value) > 10**9:
        digits = int(abs(value).bit_length() * 0.30103) + 1  # str() of a huge int is refused (and slow)
        raise BadEventError(f"{field}: got a number of about {digits} digits, expected {expected}")
    if size is not None and not 0 <= value < size:
        raise BadEventError(describe(field, value, expected))
    return value


def number(value: object, field: str, low: float, high: float) -> float:
    """A number from an event between ``low`` and ``high``, or a one-line error.

    >>> number(0.25, "tick dt", 0.0, 1.0)
    0.25
    >>> number("fast", "speed", 0.25, 2.5)
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.events.BadEventError: speed: got 'fast', expected a number from 0.25 to 2.5
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise BadEventError(describe(field, value, f"a number from {low} to {high}"))
    return float(value)
