"""A Räuber Raupe lesson room that nobody plays: rows written and the server's CPU (docs/DEPLOY.md, issue 32).

    .venv/bin/python benchmarks/lesson_room_idle.py [--pupils 30] [--lesson 11-raupe-colour] [--seconds 200]

Starts ``caterpillar-learn classroom`` on a free port with a fresh data
folder; a teacher page creates a lesson room of ``--lesson`` (each pupil at
their own pace), and ``--pupils`` pupils join over Bokeh's own websocket
protocol, as their pages do (:class:`tests.classroom.probe.PageClient`).
Each pupil answers the lesson's first question rightly and starts the
game; then nobody touches anything for ``--seconds``, the pages staying
open.  Every 10 s the benchmark reads how many rows the room's log holds
(SQLite, read-only) and the server process's CPU time, and prints, per
window: rows written a second and the server's CPU as a share of one core.

Before issue 32 the tables ran on the pages' clocks and every tick was a row
(4 a second a page).  Now the server's clock moves them: the bots' moves
and the room's pauses are written together, one row at most every
``CLOCK_WRITE`` seconds for the whole room, and a table whose pupil has done
nothing for ``IDLE_PAUSE`` seconds (classroom/rooms/lesson/room.py) is paused once;
after that an idle room writes nothing.  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from caterpillar_learn.classroom.lifetime import NOTICE_FILE  # noqa: E402
from caterpillar_learn.classroom.rooms.lesson.pupil import LessonSettings  # noqa: E402
from caterpillar_learn.classroom.rooms.lesson.room import IDLE_PAUSE  # noqa: E402
from caterpillar_learn.classroom.server import STATIC  # noqa: E402
from caterpillar_learn.classroom.store import FILE_NAME  # noqa: E402
from caterpillar_learn.lessons import get_table  # noqa: E402
from caterpillar_learn.ui.raupe.controller import RaupeTable  # noqa: E402
from tests.browser.conftest import cli_command, free_port, start_server  # noqa: E402
from tests.classroom.probe import PageClient  # noqa: E402

#: Seconds between two readings.
WINDOW = 10.0


def rows(data: Path) -> int:
    """How many events the log holds now (read-only: the server keeps writing)."""
    with sqlite3.connect(f"file:{data / FILE_NAME}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def cpu(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def right_answers(lesson: str) -> list[str]:
    """The options of the lesson's first question that are right (every pupil of the room has the same deal);
    none for a lesson that asks no question before its game (15-raupe-race)."""
    seed = LessonSettings.build(lesson).seed
    question = RaupeTable(get_table(lesson), seed, lesson).quiz.question
    return [] if question is None else sorted(question.correct)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--lesson", default="11-raupe-colour")
    parser.add_argument("--seconds", type=float, default=200.0)
    options = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="lesson-room-idle-"))
    data = folder / "data"
    port = free_port()
    command = [*cli_command(), "classroom", "--port", str(port), "--data", str(data), "--join-limit", "100000"]
    # Ready once a static file answers: a door asked for and never opened is a page the server forgets (and
    # collects) 15-20 s later, in the middle of the windows measured; no pupil of the class made it.
    ready = f"http://127.0.0.1:{port}/{STATIC}/{NOTICE_FILE}"
    server = start_server(command, ready, folder / "classroom.log")
    pages: list[PageClient] = []
    try:
        token = re.search(r"token=(\S+)", server.log.read_text())
        assert token, server.log_tail()
        base = f"http://127.0.0.1:{port}"
        teacher = PageClient(f"{base}/teacher", {"token": token.group(1)})
        pages.append(teacher)
        teacher.send("TeacherWidget", "create", game="lesson", lesson=options.lesson, mode="own")
        assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code"), timeout=60)
        code = teacher.trait("TeacherWidget", "room")["code"]
        answers = right_answers(options.lesson)
        for number in range(options.pupils):
            page = PageClient(f"{base}/join", {"room": code})
            pages.append(page)
            page.send("JoinWidget", "join", code=code, nickname=f"Pupil {number + 1}")
            assert page.wait(lambda page=page: page.model("LessonTable") is not None, timeout=60)
            for option in answers:
                page.send("LessonTable", "answer", option=option)
            if answers:
                page.send("LessonTable", "check")
            page.send("LessonTable", "start")
            running = lambda page=page: (page.trait("LessonTable", "table") or {}).get("running")  # noqa: E731
            assert page.wait(running, timeout=60), f"pupil {number + 1}: the game did not start"
        process = psutil.Process(server.process.pid)
        print(f"{options.pupils} pupils at {options.lesson}, every game running; now nobody plays "
              f"(the room pauses a table after {IDLE_PAUSE:.0f} s without its pupil)", flush=True)  # fmt: skip
        print("| seconds | rows written a second | server CPU, share of one core |")
        print("|---|---|---|")
        start, readings = time.monotonic(), [(0.0, rows(data), cpu(process))]
        while (elapsed := time.monotonic() - start) < options.seconds:
            time.sleep(min(WINDOW, options.seconds - elapsed))
            readings.append((time.monotonic() - start, rows(data), cpu(process)))
            (t0, r0, c0), (t1, r1, c1) = readings[-2], readings[-1]
            print(f"| {t0:.0f}–{t1:.0f} | {(r1 - r0) / (t1 - t0):.2f} | {(c1 - c0) / (t1 - t0):.0%} |", flush=True)
        after = [r for r in readings if r[0] >= IDLE_PAUSE + WINDOW]
        if len(after) >= 2:
            rate = (after[-1][1] - after[0][1]) / (after[-1][0] - after[0][0])
            share = statistics.fmean((b[2] - a[2]) / (b[0] - a[0]) for a, b in itertools.pairwise(after))
            print(f"after the pause: {rate:.2f} rows a second, the server at {share:.0%} of a core")
    finally:
        for page in pages:
            page.close()
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
