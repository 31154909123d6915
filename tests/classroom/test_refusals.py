"""A page's refused events reach the log once every few seconds, with a count of the rest (issue 32, part 7)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from caterpillar_learn.classroom.codes import ClassroomError, JoinLimit
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.pages import _log_tampering
from caterpillar_learn.classroom.refusals import EVERY, Refusals
from caterpillar_learn.classroom.store import EventStore

#: A hostile page's flood: events a second, for how long.
RATE, SECONDS = 150, 20


def test_a_twenty_second_flood_writes_a_few_lines_and_counts_every_event() -> None:
    now = [0.0]
    told = Refusals(clock=lambda: now[0])
    lines = []
    for tick in range(RATE * SECONDS):
        now[0] = tick / RATE
        said = told.line("room ABCD, pupil 'Ada'", {"type": "box", "box": "x" * 5000}, "box: got 'x…', expected 0 to 3")
        if said is not None:
            lines.append(said)
    assert len(lines) <= SECONDS / EVERY + 1
    assert sum(len(line.encode()) + 1 for line in lines) <= 20_000  # the bound: 20 KB for 20 s
    counted = sum(int(line.split("(and ")[1].split()[0]) for line in lines[1:])
    assert counted + len(lines) <= RATE * SECONDS and counted >= RATE * SECONDS - RATE * EVERY - len(lines)


def test_a_quiet_page_is_told_at_once_each_time() -> None:
    now = [0.0]
    told = Refusals(clock=lambda: now[0])
    for second in (0.0, EVERY, 3 * EVERY):
        now[0] = second
        said = told.line("teacher", {"type": "roll"}, "no room")
        assert said == "teacher: refused {'type': 'roll'}: no room"


def test_a_flood_of_writes_to_other_traits_is_told_once_too(caplog: pytest.LogCaptureFixture) -> None:
    component = SimpleNamespace()
    _log_tampering(component, "room ABCD, pupil 'Ada'")
    with caplog.at_level(logging.WARNING, logger="caterpillar_learn.classroom"):
        for _ in range(RATE * SECONDS):
            component.tampered({"final": {"final": 99}, "sheet": {"svg": "<script>alert(1)</script>"}})
    assert [r.getMessage() for r in caplog.records] == [
        "room ABCD, pupil 'Ada': ignored a front-end write to final, sheet"
    ]


def test_a_door_flooding_joins_past_the_limit_is_told_once(caplog: pytest.LogCaptureFixture) -> None:
    lobby = Lobby(EventStore(":memory:"), limit=JoinLimit(burst=2, per_minute=1))
    with caplog.at_level(logging.INFO, logger="caterpillar_learn.classroom"):
        for attempt in range(RATE * SECONDS):
            with pytest.raises(ClassroomError):
                lobby.join("KX47PQ", f"Guess{attempt}", client="10.0.0.7")
    limited = [r.getMessage() for r in caplog.records if "join limit" in r.getMessage()]
    assert limited == ["join limit reached for 10.0.0.7"]
