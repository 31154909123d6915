"""One pupil on twelve tabs, tapping as fast as they can: another pupil's taps meanwhile (issue 46, docs/DEPLOY.md).

    .venv/bin/python benchmarks/pupil_tabs.py [--tabs 12] [--taps 60] [--rounds 3]

Starts ``caterpillar-learn classroom`` on a free port with a fresh data
folder; the teacher's page (a protocol client,
:class:`tests.classroom.probe.PageClient`) creates a lesson room of
``01-beginner``.  Ben joins from this process and taps Next and Back in turn,
``--taps`` taps with a child's pause of 0.2-0.4 s between them (seeded),
timing each from the tap leaving this process until his lesson's view has
changed (the message read off the socket).

Each round has two halves on the same server:

* **alone** (the baseline): Ben taps while nobody else does;
* **flooded**: Ada's secret is open on ``--tabs`` tabs (the issue's probe:
  the join limit lets 12 in at once), each tab sending Next and Back as fast
  as it can (100 taps a second a tab), from a process of its own so that the
  flood's Python does not slow this process's clock; Ben taps as before.

Printed, per half: Ben's p50 and p95 (ms), and the rows the room wrote a
second while Ada flooded (one page may write ``EVENTS_PER_MINUTE / 60`` a
second after a burst of ``EVENT_BURST``).  Targets: Ben's p95 ≤ 50 ms
while flooded; Ada's rows within what one page may write.  Nothing is
asserted (``tests/classroom/test_pupil_limits.py`` asserts the rows); the
figures are JSON on the last line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from caterpillar_learn.classroom.rooms.lesson.room import EVENT_BURST, EVENTS_PER_MINUTE  # noqa: E402
from caterpillar_learn.classroom.store import FILE_NAME  # noqa: E402
from tests.browser.conftest import cli_command, free_port, start_server  # noqa: E402
from tests.classroom.probe import PageClient  # noqa: E402
from tests.classroom.test_written import rows  # noqa: E402

TIMEOUT = 60.0
#: Seconds Ben waits between two taps (seeded): a child's pace, not a flood.
THINK = (0.2, 0.4)


def flood(base: str, code: str, secret: str, tabs: int, seconds: float, ready: Any, go: Any) -> None:
    """Ada's tabs (run in a process of its own): every tab opens her lesson, then taps as fast as it can."""
    pages = []
    for _ in range(tabs):
        page = PageClient(f"{base}/join", {"room": code})
        page.write("JoinWidget", "event", {"type": "resume", "code": code, "secret": secret, "seq": 1})
        if not page.wait(lambda p=page: p.model("LessonBoard") is not None, timeout=TIMEOUT):
            raise RuntimeError("a tab of Ada's never showed her lesson")
        pages.append(page)
    ready.set()
    go.wait()

    def tap(page: PageClient) -> None:
        end, sent = time.monotonic() + seconds, 0
        while time.monotonic() < end:
            page.write("LessonBoard", "event", {"type": "step", "delta": 1 if sent % 2 == 0 else -1, "seq": sent})
            sent += 1
            time.sleep(0.01)  # a hundred taps a second from each tab

    threads = [threading.Thread(target=tap, args=(page,)) for page in pages]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for page in pages:
        page.close()


class Ben:
    """The other pupil: Next and Back in turn, each tap timed until his lesson's view changed."""

    def __init__(self, base: str, code: str, seed: int) -> None:
        self.rng = random.Random(seed)
        self.page = PageClient(f"{base}/join", {"room": code})
        self.page.send("JoinWidget", "join", code=code, nickname="Ben")
        if not self.page.wait(lambda: self.page.model("LessonBoard") is not None, TIMEOUT):
            raise RuntimeError("Ben could not join")
        self.changed = threading.Condition()
        self.changes = 0
        self.page.watch("LessonBoard", "lesson", self._note)
        self.sent = 0

    def _note(self, _new: Any) -> None:
        with self.changed:
            self.changes += 1
            self.at = self.page.received_at
            self.changed.notify_all()

    def taps(self, count: int) -> list[float]:
        times = []
        for _ in range(count):
            time.sleep(self.rng.uniform(*THINK))
            with self.changed:
                before = self.changes
            sent = time.perf_counter()
            self.page.send("LessonBoard", "step", delta=1 if self.sent % 2 == 0 else -1)
            self.sent += 1
            with self.changed:
                if not self.changed.wait_for(lambda before=before: self.changes > before, TIMEOUT):
                    raise RuntimeError("Ben's tap had no answer")
                times.append(self.at - sent)
        return times


def percentiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=12)
    parser.add_argument("--taps", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="pupil-tabs-"))
    port = free_port()
    data = folder / "data"
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(data), "--join-limit", "600"]
    server = start_server(cmd, f"http://127.0.0.1:{port}/join", folder / "server.log")
    base = f"http://127.0.0.1:{port}"
    results: list[dict[str, Any]] = []
    try:
        token = re.search(r"token=(\S+)", server.log.read_text())
        assert token, server.log_tail()
        teacher = PageClient(f"{base}/teacher", {"token": token.group(1)})
        teacher.send("TeacherWidget", "create", game="lesson", lesson="01-beginner")
        assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code"), timeout=TIMEOUT)
        code = teacher.trait("TeacherWidget", "room")["code"]
        ada = PageClient(f"{base}/join", {"room": code})
        ada.send("JoinWidget", "join", code=code, nickname="Ada")
        assert ada.wait(lambda: ada.model("LessonBoard") is not None, timeout=TIMEOUT)
        secret = ada.trait("JoinWidget", "door")["secret"]
        ben = Ben(base, code, seed=1)
        ben.taps(5)  # warm: the first answers load what every later one uses
        context = multiprocessing.get_context("spawn")
        for number in range(1, args.rounds + 1):
            alone = ben.taps(args.taps)
            ready, go = context.Event(), context.Event()
            seconds = args.taps * sum(THINK) / 2 + 5  # long enough for Ben's taps
            flooding = context.Process(target=flood, args=(base, code, secret, args.tabs, seconds, ready, go))
            flooding.start()
            assert ready.wait(TIMEOUT * 2), "Ada's tabs never opened"
            before, start = rows(data / FILE_NAME, code), time.monotonic()
            go.set()
            flooded = ben.taps(args.taps)
            flooding.join(seconds + TIMEOUT)
            elapsed = time.monotonic() - start
            written = rows(data / FILE_NAME, code) - before - args.taps  # Ben's own taps are written too
            one_page = EVENT_BURST + EVENTS_PER_MINUTE / 60 * elapsed
            result = {
                "round": number,
                "alone": percentiles(alone),
                "flooded": percentiles(flooded),
                "ada_rows": written,
                "ada_rows_per_second": round(written / elapsed, 1),
                "one_page_may": round(one_page),
                "seconds": round(elapsed, 1),
            }
            results.append(result)
            print(
                f"round {number}: Ben alone p50 {result['alone']['p50_ms']} ms, p95 {result['alone']['p95_ms']} ms; "
                f"beside {args.tabs} tabs of Ada p50 {result['flooded']['p50_ms']} ms, "
                f"p95 {result['flooded']['p95_ms']} ms; Ada wrote {written} rows in {elapsed:.1f} s "
                f"(one page may {one_page:.0f})",
                flush=True,
            )
        for page in (teacher, ada, ben.page):
            page.close()
    finally:
        server.stop()
    flooded_p95 = statistics.median(r["flooded"]["p95_ms"] for r in results)
    alone_p95 = statistics.median(r["alone"]["p95_ms"] for r in results)
    print(json.dumps({"tabs": args.tabs, "taps": args.taps, "rounds": results,
                      "median_p95_ms": {"alone": alone_p95, "flooded": flooded_p95}}))  # fmt: skip


if __name__ == "__main__":
    main()
