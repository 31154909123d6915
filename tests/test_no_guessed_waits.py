"""No test waits for a guessed time (issue 41: a suite that cannot flake).

A test waits for a condition (the page's ``aria-busy``, a trait, a row in the log), never for a fixed time:
on a loaded machine a bot, a timer or a server is later than any guess.  Every sleep left in tests/ says
on its line, or on the line above, why it is not a guess, with one of :data:`MARKERS`:

* ``# poll:`` the pause between two looks at a condition, inside a loop bounded by a deadline;
* ``# time itself:`` time is what is tested (a cull after N seconds, a window of refusals), or the pause is
  the test's own doing (a window widened on purpose), and the test drives it.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: A wait for a fixed time, in Playwright or in Python (the pattern does not match its own source).
WAIT = re.compile(r"\b(?:wait_for_timeout|time\.sleep|asyncio\.sleep)\(")
MARKERS = ("# poll:", "# time itself:")


def unexplained_waits(source: str) -> list[tuple[int, str]]:
    """The waits for a fixed time in ``source`` with no marker on their line or the line above: (line number,
    line).

    >>> unexplained_waits("import time\\ntime.sleep(1)\\n")
    [(2, 'time.sleep(1)')]
    >>> unexplained_waits("# time itself: a cull after 5 s\\ntime.sleep(5)\\nwait_for_timeout(50)  # poll: next look")
    []
    """
    lines = source.splitlines()
    found = []
    for number, line in enumerate(lines, 1):
        if not WAIT.search(line):
            continue
        nearby = line + "\n" + (lines[number - 2] if number > 1 else "")
        if not any(marker in nearby for marker in MARKERS):
            found.append((number, line.strip()))
    return found


def test_a_wait_without_a_reason_is_found() -> None:
    source = "def f(page):\n    page.wait_for_timeout(400)  # the rest of the redraw\n    asyncio.sleep(0.1)\n"
    assert unexplained_waits(source) == [
        (2, "page.wait_for_timeout(400)  # the rest of the redraw"),
        (3, "asyncio.sleep(0.1)"),
    ]
    assert unexplained_waits("x = 1\n# poll: the next look\ntime.sleep(0.2)\ny = 2\ntime.sleep(0.2)\n") == [
        (5, "time.sleep(0.2)")
    ]


def test_every_wait_for_a_fixed_time_in_the_tests_says_why() -> None:
    found = [
        f"{path.relative_to(TESTS.parent)}:{number}: {line}"
        for path in sorted(TESTS.rglob("*.py"))
        if path != Path(__file__).resolve()  # this file names the waits it looks for, in its examples
        for number, line in unexplained_waits(path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        f"{len(found)} waits for a fixed time: wait for a condition instead, or say why on the line or the line "
        f"above ({' / '.join(MARKERS)}):\n" + "\n".join(found)
    )
