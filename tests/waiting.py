"""Wait for a condition, never for a guessed time (issue 41).

A test that needs something to have happened (a log line written, a process gone) asks for it here and
is told at once when it holds; only a deadline bounds the wait, so a loaded machine makes the test slower,
never wrong.

>>> seen = iter([None, [], ["ready"]])
>>> until(lambda: next(seen), 5, "never ready")
['ready']
>>> until(lambda: False, 0.01, "the log never said hello")
Traceback (most recent call last):
AssertionError: the log never said hello (within 0.01 s)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds between two looks at the condition.
POLL = 0.05


def until(condition: Callable[[], T], timeout: float, what: str) -> T:
    """``condition()``'s first true value; fails with ``what`` when none came within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what} (within {timeout} s)")
        time.sleep(POLL)  # poll: the next look at the condition, bounded by the deadline above
    return found
