"""A school year's log: how long a classroom server takes to start on it (issue 32, docs/DEPLOY.md).

    .venv/bin/python benchmarks/school_year_start.py [--rooms 200] [--pupils 30] [--runs 3] [--json FILE]

**The log.**  ``--rooms`` lesson rooms of ``--pupils`` pupils each, played by
this benchmark's own bots through the rooms' real API, in this process: a
:class:`~caterpillar_learn.classroom.lobby.Lobby` on a data folder creates
each room (the Caterpillars lessons in turn, each pupil at their own pace),
the pupils join and arrive, and each pupil's bot does what the lesson marks
(next, roll, the right answers and check, a hint, the first legal box) until
the lesson's end or :data:`TAPS` taps, whichever comes first (a bot stuck
at a step it does not understand taps on, as a child does).  Every row is
written by :meth:`EventStore.append
<caterpillar_learn.classroom.store.EventStore.append>` as the server writes
it; only the sync is off while building (``PRAGMA synchronous=OFF``), which
changes how long the build takes, not a byte of what is written.  The
Räuber Raupe lessons are left out: their tables move on the server's clock.
The file is kept in ``artifacts/school_year/`` (git-ignored) and built again
only when missing or when ``--rebuild`` is given.

**The start.**  On a fresh copy of that file, each figure the median of
``--runs`` runs, each run in a new interpreter so its memory is its own:

* ``Lobby.open``: the time to open the store and the lobby (the index read,
  no room replayed), and the process's resident memory after it less before;
* the old path, in the same kind of process: ``Lobby.open`` and then
  :meth:`~caterpillar_learn.classroom.lobby.Lobby.replay_all` (every room
  replayed, the whole history read, as every start did before the index);
* ``caterpillar-learn classroom --data COPY``: from starting the command
  until the teacher's page (``/teacher?token=...``, which opens the newest
  room, so that room wakes) and the door (``/join``) answer 200, each asked
  for every 50 ms from the start on a thread of its own;
* the same server started on a copy turned back into a format-1 file (no
  index): its first start indexes the file and replays every room once,
  which is what a start cost before the index.

Nothing is asserted; the figures are printed as JSON and a Markdown table row
(docs/PERFORMANCE.md, "A school year's log").
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from caterpillar_learn.caterpillars import Move  # noqa: E402
from caterpillar_learn.classroom.lobby import Lobby  # noqa: E402
from caterpillar_learn.classroom.rooms.lesson.pupil import LessonSettings  # noqa: E402
from caterpillar_learn.classroom.rooms.lesson.room import LessonPupil, LessonRoom  # noqa: E402
from caterpillar_learn.classroom.store import FILE_NAME  # noqa: E402
from tests.browser.conftest import cli_command, free_port  # noqa: E402
from tests.classroom.lessonbot import todo_tap  # noqa: E402

CACHE = ROOT / "artifacts" / "school_year"
#: The lessons the rooms play in turn (the Caterpillars ones: no table clock needed).
LESSONS = ("00-setup", "01-beginner", "02-intermediate", "03-advanced", "04-expert")
#: The most taps a bot makes in one lesson.
TAPS = 60
#: Seconds before a server that does not answer is given up.
TIMEOUT = 300.0

#: One run of a start, in a fresh interpreter: the time and the memory of ``Lobby.open`` (and the old path).
OPEN_RUN = """
import json, sys, time, psutil
sys.path.insert(0, sys.argv[1])
from caterpillar_learn.classroom.lobby import Lobby
process = psutil.Process()
before = process.memory_info().rss
start = time.perf_counter()
lobby = Lobby.open(sys.argv[2])
if sys.argv[3] == "all":
    lobby.replay_all()
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "mb": (process.memory_info().rss - before) / 2**20,
                  "rooms": len(lobby.listed), "awake": len(lobby.awake()), "rows": lobby.store.rows_read}))
"""


def bot_tap(room: LessonRoom, pupil: LessonPupil, rng: random.Random) -> bool:
    """One tap of what the lesson marks for ``pupil`` now (a random move now and then); ``False`` when there is
    nothing left to do."""

    def pick(moves: Sequence[Move]) -> Move:
        return moves[rng.randrange(len(moves))] if rng.random() < 0.3 else moves[0]

    return todo_tap(room, pupil, pick) is not None


def build(folder: Path, rooms: int, pupils: int, seed: int) -> dict[str, Any]:
    """Play ``rooms`` lessons of ``pupils`` pupils into the data folder ``folder``."""
    started = time.perf_counter()
    lobby = Lobby.open(folder)
    lobby.store._db.execute("PRAGMA synchronous=OFF")  # the build's speed only: the rows are the same
    rng = random.Random(seed)
    for number in range(rooms):
        room = lobby.create(LessonSettings.build(LESSONS[number % len(LESSONS)]))
        assert isinstance(room, LessonRoom)
        joined = [room.join(f"Pupil {number}-{n}") for n in range(pupils)]
        for pupil in joined:
            room.arrive(pupil.id)
            for _ in range(TAPS):
                try:
                    if not bot_tap(room, pupil, rng):
                        break
                except Exception:  # a tap the lesson refuses is written and refused, as a page's would be
                    break
        lobby.note()
        if number % 20 == 19:
            print(
                f"  {number + 1} rooms, {lobby.store.count()} rows, {time.perf_counter() - started:.0f} s", flush=True
            )
    rows = lobby.store.count()
    lobby.close()
    return {"rooms": rooms, "pupils": pupils, "rows": rows, "build_s": time.perf_counter() - started}


def cached(rooms: int, pupils: int, rebuild: bool) -> tuple[Path, dict[str, Any]]:
    """The data folder of a school year's log, built once and kept under ``artifacts/``."""
    folder = CACHE / f"{rooms}x{pupils}"
    about = folder / "built.json"
    if rebuild and folder.exists():
        shutil.rmtree(folder)
    if not about.exists():
        print(f"building {rooms} rooms of {pupils} pupils in {folder} ...", flush=True)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        about.write_text(json.dumps(build(folder, rooms, pupils, seed=32)))
    return folder, json.loads(about.read_text())


def copy(folder: Path, into: Path, *, format_1: bool = False) -> Path:
    """A fresh copy of the data folder (turned back into a format-1 file, without its index, if asked)."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    for part in folder.glob(FILE_NAME + "*"):
        shutil.copy2(part, into / part.name)
    if format_1:
        db = sqlite3.connect(into / FILE_NAME)
        db.execute("DROP TABLE rooms")
        db.execute("UPDATE meta SET value = '1' WHERE key = 'format'")
        db.commit()
        db.close()
    return into


def open_run(data: Path, how: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", OPEN_RUN, str(ROOT), str(data), how], capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def server_run(data: Path, scratch: Path) -> dict[str, float]:
    """Start the server on ``data``: seconds until the teacher's page, then the door, answer 200."""
    db = sqlite3.connect(data / FILE_NAME)
    (token,) = db.execute("SELECT value FROM meta WHERE key = 'teacher_token'").fetchone()
    db.close()
    port = free_port()
    log = (scratch / "classroom.log").open("wb")
    command = [*cli_command(), "classroom", "--port", str(port), "--data", str(data)]
    start = time.perf_counter()
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    found: dict[str, float] = {}

    def poll(name: str, path: str) -> None:  # both pages asked for from the start, each on its own thread
        while not _answers(f"http://127.0.0.1:{port}{path}"):
            if server.poll() is not None or time.perf_counter() - start > TIMEOUT:
                return
            time.sleep(0.05)
        found[name] = time.perf_counter() - start

    try:
        pollers = [
            threading.Thread(target=poll, args=pair)
            for pair in (("teacher_s", f"/teacher?token={token}"), ("join_s", "/join"))
        ]
        for poller in pollers:
            poller.start()
        for poller in pollers:
            poller.join()
        if len(found) < 2:
            raise RuntimeError(f"the server did not answer: see {scratch / 'classroom.log'}")
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    return found


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(run[key] for run in runs))


def run(options: argparse.Namespace) -> dict[str, Any]:
    folder, built = cached(options.rooms, options.pupils, options.rebuild)
    size = sum(part.stat().st_size for part in folder.glob(FILE_NAME + "*"))
    result: dict[str, Any] = {**built, "file_mb": size / 2**20, "runs": options.runs}
    with tempfile.TemporaryDirectory(prefix="school-year-") as scratch:
        where = Path(scratch)
        for how in ("index", "all"):
            runs = [open_run(copy(folder, where / "data"), how) for _ in range(options.runs)]
            result[f"open_{how}_s"] = _median(runs, "seconds")
            result[f"open_{how}_mb"] = _median(runs, "mb")
            result[f"open_{how}_rows_read"] = runs[0]["rows"]
        starts = [server_run(copy(folder, where / "data"), where) for _ in range(options.runs)]
        result["server_teacher_s"] = _median(starts, "teacher_s")
        result["server_join_s"] = _median(starts, "join_s")
        old = [server_run(copy(folder, where / "data", format_1=True), where) for _ in range(options.runs)]
        result["format1_teacher_s"] = _median(old, "teacher_s")
        result["format1_join_s"] = _median(old, "join_s")
    result["open_ratio"] = result["open_all_s"] / result["open_index_s"]
    return result


def table_row(result: dict[str, Any]) -> str:
    return (
        f"| {result['rooms']} × {result['pupils']} | {result['rows']:,} rows, {result['file_mb']:.0f} MB "
        f"| {result['open_index_s'] * 1000:.0f} ms, +{result['open_index_mb']:.0f} MB "
        f"| {result['open_all_s']:.1f} s, +{result['open_all_mb']:.0f} MB | ×{result['open_ratio']:.0f} "
        f"| {result['server_teacher_s']:.1f} s / {result['server_join_s']:.1f} s "
        f"| {result['format1_teacher_s']:.1f} s / {result['format1_join_s']:.1f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rebuild", action="store_true", help="build the log again even if it is kept")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    options = parser.parse_args()
    result = run(options)
    print(json.dumps(result, indent=2))
    print(table_row(result))
    if options.json:
        options.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
