"""The one base error of the package; each game subclasses it.

Every message names the field, the bad value and what was expected, so that
the command line and the widgets can show it as a single line.  The value is
shown as :func:`repr` shows it, cut short when it is long, deep or huge: a
message about hostile input stays one short line.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence

#: Longest rendering of a bad value inside a message.
MAX_VALUE_CHARS = 120
#: Whole numbers with more bits than this are shown by their size only.
MAX_INT_BITS = 128
#: Longest message the command line prints after its own name.
MAX_MESSAGE_CHARS = 240


class CaterpillarLearnError(ValueError):
    """Base class of every error raised on purpose by caterpillar-learn."""


class _Brief(reprlib.Repr):
    """``repr`` with limits, and huge whole numbers shown by their size."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 4
        self.maxtuple = self.maxlist = self.maxset = self.maxfrozenset = self.maxdeque = 16
        self.maxdict = 8
        self.maxstring = 100
        self.maxother = 100

    def repr_int(self, x: int, level: int) -> str:
        # repr() refuses ints of more than 4300 digits, and long ones say nothing anyway.
        if x.bit_length() > MAX_INT_BITS:
            return f"<a whole number of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_BRIEF = _Brief()


def brief(value: object) -> str:
    """``repr(value)``, cut to at most :data:`MAX_VALUE_CHARS` characters on one line.

    >>> brief([7, 2])
    '[7, 2]'
    >>> brief(10**5000)
    '<a whole number of 16610 bits>'
    >>> deep: list[object] = []
    >>> for _ in range(100_000):
    ...     deep = [deep]
    >>> brief(deep)
    '[[[[...]]]]'
    """
    try:
        text = _BRIEF.repr(value)
    except (ValueError, RecursionError):  # a custom __repr__ that fails or recurses
        text = f"<{type(value).__name__}>"
    if len(text) > MAX_VALUE_CHARS:
        text = text[: MAX_VALUE_CHARS - 3] + "..."
    return text


def describe(field: str, value: object, expected: str) -> str:
    """Format the usual one-line message.

    >>> describe("dice", [7, 2], "values from 1 to 6")
    'dice: got [7, 2], expected values from 1 to 6'
    >>> len(describe("seed", "x" * 10_000, "a whole number")) < 150
    True
    """
    return f"{field}: got {brief(value)}, expected {expected}"


def check_saved(
    data: Mapping[str, object],
    error: type[CaterpillarLearnError],
    version: int,
    keys: Sequence[str],
    *,
    fields: tuple[str, str],
) -> None:
    """Refuse, with ``error``, a saved JSON object of another ``format`` than ``version`` or with a key outside
    ``keys``; ``fields`` name the format and an unknown key in the message.  ``true`` is no format: JSON's
    booleans are not numbers, though Python's are.

    >>> check_saved({"format": 1, "seed": 2}, CaterpillarLearnError, 1, ("format",), fields=("format", "key"))
    Traceback (most recent call last):
    ...
    caterpillar_learn.errors.CaterpillarLearnError: key: got 'seed', expected only format
    >>> check_saved({"format": True}, CaterpillarLearnError, 1, ("format",), fields=("format", "key"))
    Traceback (most recent call last):
    ...
    caterpillar_learn.errors.CaterpillarLearnError: format: got True, expected 1
    """
    format_field, key_field = fields
    found = data.get("format")
    if isinstance(found, bool) or found != version:
        raise error(describe(format_field, found, str(version)))
    unknown = [key for key in data if key not in keys]
    if unknown:
        raise error(describe(key_field, unknown[0], "only " + ", ".join(keys)))


def one_line(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` on a single line of at most ``limit`` characters: the last guard before printing.

    >>> one_line("bonus: got 5," + chr(10) + "   expected null")
    'bonus: got 5, expected null'
    >>> short = one_line("invalid choice: '" + "x" * 60_000 + "' (choose from 'easy', 'hard')")
    >>> len(short), short.endswith("xx... (choose from 'easy', 'hard')")
    (165, True)
    >>> len(one_line("x " * 60_000))
    240
    """
    # A long word is most likely the bad value quoted whole: cut it, keep what follows it.
    text = " ".join(w if len(w) <= MAX_VALUE_CHARS else w[: MAX_VALUE_CHARS - 3] + "..." for w in message.split())
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text
