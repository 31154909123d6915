"""A class on one lesson, side by side: a lesson room on the classroom server against Voila (docs/PERFORMANCE.md).

    .venv/bin/python benchmarks/lesson_room.py [--pupils 30] [--lesson 01-beginner] [--browser 2] [--voila]

**Lesson room.**  Starts ``caterpillar-learn classroom`` on a free port with a
fresh data folder; the teacher's page (a protocol client,
:class:`tests.classroom.probe.PageClient`) creates a lesson room of
``--lesson`` (each at their own pace).  ``--pupils`` pupils join at once,
each from a thread of this process, over Bokeh's own websocket protocol as
a tablet's page does, and ``--browser`` more pupils are real Chromium pages
(Playwright) on the same machine.  Each pupil then taps through the
lesson's first steps: *next*, *roll*, one answer and *check*, *next*...
(whatever the lesson marks), waiting for each answer and then reading and
thinking 1-3 s (seeded) before the next tap.

* **memory per pupil**: the server's resident memory (RSS) after every pupil
  has joined and played, less its memory with the empty room, over the
  number of pupils;
* **last pupil interactive**: from the moment the pupils start until the
  last one's page shows the lesson (a protocol client: the message with its
  lesson came off the socket; Chromium: the lesson's step title is drawn).
  The Chromium pupils' browser and tabs are open before that moment, as a
  tablet's are before a class; then they all go to the door at once, type a
  nickname and join;
  beside it the server's CPU time over those joins, per pupil, and the
  machine's load average (the figures above move with it on a shared machine);
* **a step or a tap answered**: from a tap leaving this process until the
  page's views have changed (the message read off the socket), p50/p95, also
  by kind of tap.  In a led round a pupil waits for the star before tapping a
  box (the helper's move comes from a worker).

**Voila** (``--voila``): the same number of pages open the same lesson on
``caterpillar-learn serve`` from one Chromium (a browser context each), as
``benchmarks/voila_class.py`` does: the time until the last page's Roll
button is enabled, and the memory of the server and its kernels (RSS and
PSS sums) over the pupils.

Chromium and the clients share the 2 cores with the server.  Nothing is
asserted; the figures are printed as JSON and a table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from benchmarks.classroom_load import summary  # noqa: E402
from caterpillar_learn.classroom.server import UNOPENED_CHECK, UNOPENED_LIFETIME  # noqa: E402
from tests.browser.conftest import Server, cli_command, free_port, start_server  # noqa: E402
from tests.classroom.probe import PageClient  # noqa: E402

TIMEOUT = 120.0
#: Seconds a pupil reads and thinks before each tap (seeded): a child taps every few seconds, not at once.
THINK = (1.0, 3.0)
#: The views whose change answers a tap.
VIEWS = ("lesson", "question", "dice", "sheet", "message")
LOGS = ROOT / "artifacts" / "lesson_room"


class Pupil:
    """One pupil's page (protocol client) in the lesson room, timing each tap until its views change."""

    def __init__(self, base: str, code: str, nickname: str, seed: int) -> None:
        self.base, self.code, self.nickname = base, code, nickname
        self.rng = random.Random(seed)
        self.page: PageClient | None = None
        self.changed = threading.Condition()
        self.changes = 0
        self.last_change = 0.0
        self.taps: list[float] = []
        self.kinds: list[str] = []
        self.interactive_at = 0.0

    def join(self) -> None:
        page = PageClient(f"{self.base}/join", {"room": self.code})
        self.page = page
        page.send("JoinWidget", "join", code=self.code, nickname=self.nickname)
        shown = lambda: page.model("LessonBoard") is not None and page.trait("LessonBoard", "lesson")  # noqa: E731
        if not page.wait(shown, TIMEOUT):
            raise RuntimeError(f"{self.nickname} could not join: {page.trait('JoinWidget', 'message')!r}")
        # When the lesson's message came off the socket (this process's decoding of the page is not the server's).
        self.interactive_at = page.received_at or time.perf_counter()
        for name in VIEWS:
            page.watch("LessonBoard", name, self._note)

    def _note(self, _new: Any) -> None:
        assert self.page is not None
        with self.changed:
            self.changes += 1
            self.last_change = self.page.received_at
            self.changed.notify_all()

    def tap(self, kind: str, **fields: Any) -> None:
        assert self.page is not None
        with self.changed:
            before = self.changes
        sent = time.perf_counter()
        self.page.send("LessonBoard", kind, **fields)
        with self.changed:
            if not self.changed.wait_for(lambda: self.changes > before, TIMEOUT):
                raise RuntimeError(f"{self.nickname}: no answer to {kind}")
            self.taps.append(self.last_change - sent)
            self.kinds.append(kind)

    def play(self, taps: int) -> None:
        """Do what the lesson marks, ``taps`` times (the question: its first option, then Check)."""
        assert self.page is not None
        time.sleep(self.rng.uniform(*THINK))
        for _ in range(taps):
            lesson = self.page.trait("LessonBoard", "lesson")
            target = lesson.get("target", "")
            question = self.page.trait("LessonBoard", "question")
            if target == "next":
                self.tap("step", delta=1)
            elif target == "roll":
                self.tap("roll")
            elif (question.get("options") and target in ("question", "check")) or target.startswith("answer:"):
                option = target.partition(":")[2] or question["options"][0]["id"]
                self.tap("answer", option=option)
                self.tap("check")
            elif target == "sheet":
                # In a led round the star comes once the helper has worked it out (in a worker): a child waits.
                self.page.wait(lambda: self.page.trait("LessonBoard", "legal"), TIMEOUT)
                legal = self.page.trait("LessonBoard", "legal")
                if not legal:
                    return
                self.tap("box", caterpillar=legal[0]["caterpillar"], box=legal[0]["box"])
            else:
                return
            time.sleep(self.rng.uniform(*THINK))  # a child reads and thinks


def chromium_pupils(
    base: str,
    code: str,
    count: int,
    ready: threading.Event,
    go: threading.Event,
    start: list[float],
    out: list[float],
    done: threading.Event,
    stay: threading.Event,
) -> None:
    """``count`` Chromium pages join the room at once; each one's time until its lesson is drawn goes to ``out``.

    The browser and its pages are opened first (``ready``), as a tablet's browser is open before the class
    starts; at ``go`` every page goes to the door together, each pupil types a nickname and joins, and the
    time is taken from ``start[0]`` (the moment the protocol pupils start too).  The pages stay open (pupils
    in the class) until ``stay`` is set: a page closing makes the server collect its garbage a few seconds
    later (``Freezer``), which would land among the others' taps."""
    from playwright.async_api import async_playwright

    from tests.conftest import CHROMIUM, CHROMIUM_ARGS

    async def run() -> None:
        loop = asyncio.get_running_loop()
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                pages = []
                for _ in range(count):
                    context = await browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
                    pages.append(await context.new_page())
                ready.set()
                await loop.run_in_executor(None, go.wait)

                async def one(number: int, page: Any) -> None:
                    await page.goto(f"{base}/join?room={code}", timeout=TIMEOUT * 1000)
                    await page.get_by_test_id("nickname").fill(f"C{number:02d}")
                    await page.get_by_test_id("join-button").click()
                    await page.get_by_test_id("lesson-step").wait_for(timeout=TIMEOUT * 1000)
                    out.append(time.perf_counter() - start[0])

                await asyncio.gather(*(one(number, page) for number, page in enumerate(pages)))
            finally:
                done.set()
                await loop.run_in_executor(None, stay.wait, TIMEOUT * 5)
                await browser.close()

    try:
        asyncio.run(run())
    finally:
        ready.set()
        done.set()


def lesson_room(lesson: str, pupils: int, browsers: int, taps: int) -> dict[str, Any]:
    LOGS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="lesson-room-bench-"))
    command = [*cli_command(), "classroom", "--port", str(port), "--data", str(data), "--join-limit", "600"]
    started = time.monotonic()
    server: Server = start_server(command, f"http://127.0.0.1:{port}/join", LOGS / "classroom.log")
    try:
        base = f"http://127.0.0.1:{port}"
        token = server.log.read_text().split("token=")[1].split()[0]
        process = psutil.Process(server.process.pid)
        teacher = PageClient(f"{base}/teacher", {"token": token})
        teacher.send("TeacherWidget", "create", game="lesson", lesson=lesson, mode="own")
        teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("game") == "lesson", TIMEOUT)
        code = teacher.trait("TeacherWidget", "room")["code"]
        # The page the readiness check loaded never connects: the server forgets it (and collects the garbage
        # of every page) after its unopened lifetime; let that pass before the class comes, not amid its taps.
        time.sleep(max(2.0, UNOPENED_LIFETIME + UNOPENED_CHECK + 1.0 - (time.monotonic() - started)))
        rss_empty = process.memory_info().rss
        class_ = [Pupil(base, code, f"P{n:02d}", seed=n) for n in range(pupils)]
        chromium: list[float] = []
        shown, stay, ready, go = threading.Event(), threading.Event(), threading.Event(), threading.Event()
        starts: list[float] = []
        browser = threading.Thread(
            target=chromium_pupils, args=(base, code, browsers, ready, go, starts, chromium, shown, stay)
        )
        if browsers:
            browser.start()  # the tablets' browsers are open before the class starts
            ready.wait(TIMEOUT)
        else:
            shown.set()
        threads = [threading.Thread(target=pupil.join) for pupil in class_]
        cpu_before = process.cpu_times()
        start = time.perf_counter()
        starts.append(start)
        go.set()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        shown.wait(TIMEOUT * 2)
        cpu_after = process.cpu_times()
        joined = [pupil.interactive_at - start for pupil in class_ if pupil.interactive_at]
        join_cpu = (cpu_after.user + cpu_after.system) - (cpu_before.user + cpu_before.system)
        players = [threading.Thread(target=pupil.play, args=(taps,)) for pupil in class_]
        for thread in players:
            thread.start()
        for thread in players:
            thread.join()
        time.sleep(2.0)
        rss_class = process.memory_info().rss
        stay.set()
        if browsers:
            browser.join()
        rows = teacher.trait("TeacherWidget", "room").get("lesson", {}).get("rows", [])
        return {
            "lesson": lesson,
            "pupils": pupils,
            "browsers": browsers,
            "joined": len(joined),
            "grid_rows": len(rows),
            "rss_empty_mb": round(rss_empty / 1e6, 1),
            "rss_class_mb": round(rss_class / 1e6, 1),
            "per_pupil_mb": round((rss_class - rss_empty) / 1e6 / (pupils + browsers), 2),
            "last_protocol_interactive_s": round(max(joined), 2),
            "last_chromium_interactive_s": round(max(chromium), 2) if chromium else None,
            "server_cpu_per_join_ms": round(join_cpu / (pupils + browsers) * 1000, 1),
            "load_average": [round(load, 1) for load in os.getloadavg()],
            "taps": summary("tap -> views", [t for pupil in class_ for t in pupil.taps]),
            "taps_by_kind": {
                kind: summary(kind, [t for pupil in class_ for t, k in zip(pupil.taps, pupil.kinds) if k == kind])
                for kind in sorted({k for pupil in class_ for k in pupil.kinds})
            },
        }
    finally:
        server.stop()


def voila(lesson: str, pupils: int) -> dict[str, Any]:
    """``pupils`` Chromium pages open ``lesson`` on ``caterpillar-learn serve`` at once (one kernel each)."""
    from playwright.async_api import async_playwright, expect

    from benchmarks.voila_class import memory
    from tests.conftest import CHROMIUM, CHROMIUM_ARGS

    LOGS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    # serve's own cull time (600 s): with 120 s, kernels whose page had not connected yet were culled.
    command = [*cli_command(), "serve", "--no-browser", "--port", str(port), "--max-kernels", str(pupils + 10)]
    server = start_server(command, f"http://localhost:{port}/", LOGS / "serve.log")
    try:
        rest = memory(server)

        async def run() -> list[float]:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                start = time.time() * 1000

                async def one() -> float:
                    # Timed from here: the lessons' pages forbid evaluating strings (their CSP has no
                    # 'unsafe-eval'), so Playwright's own wait for the enabled Roll button stands in for an
                    # in-page watcher; it polls, so a page may be counted up to a poll late.
                    context = await browser.new_context(viewport={"width": 1024, "height": 768})
                    page = await context.new_page()
                    await page.goto(f"http://localhost:{port}/voila/render/{lesson}.ipynb", timeout=300_000)
                    await expect(page.get_by_test_id("roll-button")).to_be_enabled(timeout=300_000)
                    return time.time() * 1000 - start

                try:
                    return list(await asyncio.gather(*(one() for _ in range(pupils))))
                finally:
                    await browser.close()

        times = asyncio.run(run())
        with_class = memory(server)
        return {
            "pupils": pupils,
            "last_interactive_s": round(max(times) / 1000, 1),
            "rss_sum_mb": round(with_class["rss"], 0),
            "pss_sum_mb": round(with_class["pss"], 0),
            "per_pupil_pss_mb": round((with_class["pss"] - rest["pss"]) / pupils, 1),
        }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--lesson", default="01-beginner")
    parser.add_argument("--browser", type=int, default=2)
    parser.add_argument("--taps", type=int, default=8)
    parser.add_argument("--voila", action="store_true", help="also open the lesson in as many Voila pages")
    parser.add_argument("--no-room", action="store_true", help="leave the lesson room out (Voila only)")
    options = parser.parse_args()
    result: dict[str, Any] = {}
    if not options.no_room:
        result["lesson_room"] = lesson_room(options.lesson, options.pupils, options.browser, options.taps)
        print(json.dumps(result, indent=1), flush=True)
    if options.voila:
        result["voila"] = voila(options.lesson, options.pupils)
        print(json.dumps(result["voila"], indent=1), flush=True)


if __name__ == "__main__":
    main()
