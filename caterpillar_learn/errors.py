"""The one base error of the package; each game subclasses it.

Every message names the field, the bad value and what was expected, so that
the command line and the widgets can show it as a single line.
"""

from __future__ import annotations


class CaterpillarLearnError(ValueError):
    """Base class of every error raised on purpose by caterpillar-learn."""


def describe(field: str, value: object, expected: str) -> str:
    """Format the usual one-line message.

    >>> describe("dice", [7, 2], "values from 1 to 6")
    'dice: got [7, 2], expected values from 1 to 6'
    """
    return f"{field}: got {value!r}, expected {expected}"
