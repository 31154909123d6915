"""Run a piece of a test on a thread of its own, with no event loop marked as running.

Playwright's sync API (the session's ``browser`` fixture, tests/conftest.py)
marks its event loop as running on the main thread between calls, so once a
browser test has run, ``asyncio.run`` and Tornado's ``IOLoop.start`` refuse to
run there.  A test that needs a loop of its own starts it on another thread.

>>> import asyncio
>>> async def two() -> int:
...     return 2
>>> on_own_thread(asyncio.run, two())
2
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def on_own_thread(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` on a fresh thread; its result, or its exception raised here."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["result"] = work(*args)
        except BaseException as error:  # handed to the caller, who re-raises it
            outcome["error"] = error

    thread = threading.Thread(target=run, name=f"own-loop-{getattr(work, '__name__', 'work')}")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]  # type: ignore[no-any-return]
