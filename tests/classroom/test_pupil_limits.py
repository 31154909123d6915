"""Limits per pupil in a lesson room (issue 46): whatever the number of tabs, a pupil writes what one page may.

A pupil's pages share one token bucket (the room's, keyed by the pupil), and at
most :data:`PAGES_PER_PUPIL` pages play the pupil's lesson: a newer tab takes
over from the oldest, which says so in one line and writes nothing more.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

from caterpillar_learn.classroom.codes import JoinLimit
from caterpillar_learn.classroom.rooms.lesson.page import lesson_widget
from caterpillar_learn.classroom.rooms.lesson.room import (
    EVENT_BURST,
    EVENTS_PER_MINUTE,
    PAGES_PER_PUPIL,
    LessonRoom,
    LessonSettings,
)
from caterpillar_learn.classroom.store import FILE_NAME
from caterpillar_learn.i18n import text
from tests.browser.conftest import cli_command, free_port, start_server
from tests.classroom.probe import PageClient
from tests.classroom.test_written import rows

#: Tabs of one pupil in the real-server test (the issue's probe).
TABS = 12
#: How long every tab taps as fast as it can (seconds).
TAPPING = 3.0


def steps(count: int) -> list[dict[str, object]]:
    """Taps a lesson always takes and writes: next, back, next, back, ..."""
    return [{"type": "step", "delta": 1 if i % 2 == 0 else -1} for i in range(count)]


def test_a_new_tab_takes_over_from_the_oldest_and_the_tabs_share_one_pupils_budget() -> None:
    room = LessonRoom("KX47PQ", LessonSettings.build("01-beginner"))
    # The budget's clock stands still during the flood (a loaded machine's slow loop refilled it: issue 41).
    room.pace = JoinLimit(EVENT_BURST, EVENTS_PER_MINUTE, clock=lambda: 0.0)
    ada = room.join("Ada")
    pages = []
    for _ in range(PAGES_PER_PUPIL + 1):
        page = lesson_widget(room, ada)
        room.subscribe(lambda _part, page=page: page.refresh(), ada.id)  # as the server's pages follow the room
        pages.append(page)
    oldest, playing = pages[0], pages[1:]
    taken = text("classroom.lesson.taken_over")
    assert oldest.message == taken and all(page.message != taken for page in playing)
    oldest.act("step", delta=1)
    assert oldest.message == taken and len(room.log) == 1  # refused, nothing written
    look = lesson_widget(room, ada, read_only=True)  # the teacher's look takes over from nobody
    assert playing[0].message != taken and look.message != taken
    for tap in steps(3 * EVENT_BURST):
        for page in playing:
            page.handle(tap)
    written = sum(1 for kind, _ in room.log if kind == "lesson_event")
    assert 0 < written <= EVENT_BURST, written  # at most the pupil's burst, not one per tab
    assert playing[0].message == text("classroom.lesson.too_fast")
    # Told already, a page's next taps are dropped at the door (before Panel reads them): the taken-over tab's,
    # and the flooding tabs' while the pupil's budget is empty; an honest tab's once it has refilled are not.
    assert oldest.drops(steps(1)[0]) and all(page.drops(steps(1)[0]) for page in playing)
    room.pace.clock = lambda: 60.0  # a minute later
    assert oldest.drops(steps(1)[0]) and not any(page.drops(steps(1)[0]) for page in playing)
    assert not look.drops(steps(1)[0])
    playing[1].close()  # a tab closed: the next one plays without taking over from anyone
    newest = lesson_widget(room, ada)
    assert playing[0].message != taken and newest.message != taken and room.plays(ada.id, newest.page)


@pytest.mark.slow
def test_twelve_tabs_of_one_pupil_write_at_most_what_one_page_may(tmp_path: Path) -> None:
    port = free_port()
    data = tmp_path / "data"
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(data), "--join-limit", "600"]
    running = start_server(cmd, f"http://127.0.0.1:{port}/join", tmp_path / "server.log")
    base = f"http://127.0.0.1:{port}"
    token = re.search(r"token=(\S+)", running.log.read_text())
    assert token, running.log_tail()
    tabs: list[PageClient] = []
    try:
        teacher = PageClient(f"{base}/teacher", {"token": token.group(1)})
        teacher.send("TeacherWidget", "create", game="lesson", lesson="01-beginner")
        assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code"), timeout=30)
        code = teacher.trait("TeacherWidget", "room")["code"]
        first = PageClient(f"{base}/join", {"room": code})
        first.send("JoinWidget", "join", code=code, nickname="Ada")
        assert first.wait(lambda: first.model("LessonBoard") is not None, timeout=30), running.log_tail()
        secret = first.trait("JoinWidget", "door")["secret"]
        tabs.append(first)
        for _ in range(TABS - 1):  # the same pupil's secret, opened again and again
            tab = PageClient(f"{base}/join", {"room": code})
            tab.write("JoinWidget", "event", {"type": "resume", "code": code, "secret": secret, "seq": 1})
            assert tab.wait(lambda t=tab: t.model("LessonBoard") is not None, timeout=30), running.log_tail()
            tabs.append(tab)
        taken = text("classroom.lesson.taken_over")
        assert all(
            tab.wait(lambda t=tab: t.trait("LessonBoard", "message") == taken) for tab in tabs[:-PAGES_PER_PUPIL]
        )
        before = rows(data / FILE_NAME, code)

        def tap(tab: PageClient) -> None:
            end, sent = time.monotonic() + TAPPING, 0
            while time.monotonic() < end:
                tab.write("LessonBoard", "event", {**steps(sent + 1)[-1], "seq": sent})
                sent += 1
                time.sleep(0.01)  # time itself: a flood's pace, a hundred taps a second from each tab

        start = time.monotonic()
        threads = [threading.Thread(target=tap, args=(tab,)) for tab in tabs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        deadline, last = time.monotonic() + 15, -1
        while time.monotonic() < deadline:  # the last taps reach the log: until two looks agree
            now = rows(data / FILE_NAME, code)
            if now == last:
                break
            last = now
            time.sleep(0.3)  # poll: the next look at the log's rows, bounded by the deadline
        elapsed = time.monotonic() - start
        written = rows(data / FILE_NAME, code) - before
        one_page = EVENT_BURST + EVENTS_PER_MINUTE / 60 * elapsed
        assert 0 < written <= one_page, (written, one_page)
        assert all(tab.trait("LessonBoard", "message") == taken for tab in tabs[:-PAGES_PER_PUPIL])
        # A taken-over tab that went on sending was closed: its messages cost the server their reading.
        assert all(tab.wait(lambda t=tab: not t.connected()) for tab in tabs[:-PAGES_PER_PUPIL])
        assert all(tab.connected() for tab in tabs[-PAGES_PER_PUPIL:])  # the pages that play stay open
    finally:
        for tab in tabs:
            tab.close()
        running.stop()
