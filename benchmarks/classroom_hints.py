"""Hints for a whole class at once: an Intermediate room of 30 pupils, each on a layout of their own (docs/DEPLOY.md).

    .venv/bin/python benchmarks/classroom_hints.py [--pupils 30] [--processes 3] [--roll-every 6] [--client-nice 10]

Starts ``caterpillar-learn classroom`` on a free port with a fresh data
folder; a teacher page opens an Intermediate room with the class's own
setup rolls (the printed layout, its blanks filled by the pupils from the
setup dice), server dice and hints on.  The pupils are protocol clients
(:class:`tests.classroom.probe.PageClient`, spread over client
processes, as in ``benchmarks/classroom_load.py``, whose helpers are
imported here; they run at ``--client-nice``, below the server and its
workers, since a class's pages run on their own tablets):

* **setup**: the teacher rolls the setup dice; each pupil puts them on the
  blank labels in an order of its own (seeded), so the pupils' layouts differ;
* **round 1**: the teacher rolls; every pupil asks for a hint as soon as the
  dice arrive, all at once, waits for it, and then places the hinted move;
* **while the hints are worked out** the teacher rolls again every
  ``--roll-every`` seconds; a pupil who has placed plays each new roll
  (thinks 0–1.5 s, places the first legal box) like the pupils of
  ``classroom_load.py``.

Measured:

* **hint arrival**: from a pupil's hint request until the page shows the
  hint, each pupil; the last one against ``pupils / workers`` solve-times,
  a solve-time being the median over every one of the class's own layouts
  (one per solve: layouts that differ only in the order of a caterpillar's
  boxes are one), each solved afterwards in this process (the machine otherwise quiet, so
  the bound is the stricter one; ``--yardstick N`` solves only N of them);
* **roll → dice** while hints are still outstanding: from the roll leaving
  this process until a pupil's page has the dice, for every pupil who had
  placed the roll before (the others get the dice when they catch up);
* **click → sheet** while hints are still outstanding: from a pupil's click
  until its sheet shows the box filled;
* the server's resident memory and CPU, and the worker processes' CPU.

Nothing is asserted; one JSON document is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import psutil  # noqa: E402
from classroom_load import THINK, TIMEOUT, _settle, join, percentile, summary  # noqa: E402

from caterpillar_learn.advice.workers import default_workers  # noqa: E402
from tests.browser.conftest import Server, cli_command, free_port, start_server  # noqa: E402
from tests.classroom.probe import PageClient  # noqa: E402

#: The longest wait for one pupil's hint (seconds): a class's worth of solves on one worker.
HINT_TIMEOUT = 900.0
CATERPILLARS = ("Alex", "Bobby", "Charlie")


class Asker:
    """One pupil's page: sets up its own layout, asks for a hint at round 1, then plays on."""

    def __init__(self, nickname: str, page: PageClient, rng: random.Random) -> None:
        self.nickname = nickname
        self.page = page
        self.rng = rng
        self.changed = threading.Condition()
        self.dice_at: dict[int, float] = {}  # dice count -> when they arrived
        self.filled_at: dict[int, float] = {}  # boxes filled -> when the sheet showed them
        self.placed_at: dict[int, float] = {}  # dice count placed -> when
        self.hint_asked = self.hint_at = 0.0
        self.clicks: list[tuple[float, float]] = []  # (clicked, sheet showed it)
        self.layout: list[int] = []

        def on_dice(new: Any) -> None:
            if new.get("rolled"):
                self._note(self.dice_at, int(new.get("count", 0)))

        def on_sheet(new: Any) -> None:
            filled = sum(score is not None for scores in new.get("scores", {}).values() for score in scores)
            self._note(self.filled_at, filled)

        def on_hint(new: Any) -> None:
            if new.get("status") == "ready" and not self.hint_at:
                with self.changed:
                    self.hint_at = self.page.received_at
                    self.changed.notify_all()

        page.watch("ClassroomBoard", "dice", on_dice)
        page.watch("ClassroomBoard", "sheet", on_sheet)
        page.watch("ClassroomBoard", "hint", on_hint)

    def _note(self, table: dict[int, float], key: int) -> None:
        with self.changed:
            table.setdefault(key, self.page.received_at)
            self.changed.notify_all()

    def _wait(self, until: Any, what: str, timeout: float = TIMEOUT) -> None:
        with self.changed:
            if not self.changed.wait_for(until, timeout):
                raise RuntimeError(f"{self.nickname}: no {what}")

    def _legal(self, setup: bool) -> list[dict[str, Any]]:
        def fits() -> bool:
            legal = self.page.trait("ClassroomBoard", "legal") or []
            return bool(legal) and all(bool(entry.get("setup")) == setup for entry in legal)

        if not self.page.wait(fits, TIMEOUT):
            raise RuntimeError(f"{self.nickname}: no legal boxes")
        legal: list[dict[str, Any]] = self.page.trait("ClassroomBoard", "legal")
        return legal

    def place(self, caterpillar: str, box: int, index: int) -> None:
        """Click a box (and the menu's option if one opens); note the click and when the sheet showed it."""
        filled = max(self.filled_at, default=0)
        clicked = time.perf_counter()
        self.page.send("ClassroomBoard", "box", caterpillar=caterpillar, box=box)
        if self.page.wait(lambda: self.page.trait("ClassroomBoard", "menu"), 0.5):
            clicked = time.perf_counter()
            self.page.send("ClassroomBoard", "option", index=index)
        self._wait(lambda: max(self.filled_at, default=0) > filled, "filled box")
        self.clicks.append((clicked, self.filled_at[max(self.filled_at)]))

    def setup(self, rolls: int) -> None:
        for count in range(1, rolls + 1):
            self._wait(lambda c=count: c in self.dice_at, f"setup roll {count}")
            for _ in range(3):
                blanks = self._legal(setup=True)
                choice = self.rng.choice(blanks)
                before = len(blanks)
                self.page.send("ClassroomBoard", "box", caterpillar=choice["caterpillar"], box=choice["box"])
                self.page.wait(lambda b=before: len(self.page.trait("ClassroomBoard", "legal") or []) != b, TIMEOUT)
        self.page.wait(lambda: self.page.trait("ClassroomBoard", "sheet").get("phase") == "play", TIMEOUT)
        sheet = self.page.trait("ClassroomBoard", "sheet")
        self.layout = [int(v) for name in CATERPILLARS for v in sheet["labels"][name]]

    def play(self, first: int, last: int) -> None:
        """Round 1: ask, wait for the hint, place it; then each later roll: think, place the first legal box."""
        self._wait(lambda: first in self.dice_at, "round 1")
        self.hint_asked = time.perf_counter()
        self.page.send("ClassroomBoard", "hint")
        self._wait(lambda: bool(self.hint_at), "hint", HINT_TIMEOUT)
        best = self.page.trait("ClassroomBoard", "hint")["best"]
        legal = self._legal(setup=False)
        index = next(
            (e["index"] for e in legal if e["caterpillar"] == best["caterpillar"] and e["box"] == best["box"]), 0
        )
        self.place(best["caterpillar"], best["box"], index)
        self.placed_at[first] = time.perf_counter()
        for count in range(first + 1, last + 1):
            self._wait(lambda c=count: c in self.dice_at, f"roll {count}", HINT_TIMEOUT)
            time.sleep(self.rng.uniform(*THINK))
            legal = self._legal(setup=False)
            self.place(legal[0]["caterpillar"], legal[0]["box"], legal[0]["index"])
            self.placed_at[count] = time.perf_counter()


def askers_process(
    base: str, code: str, nicknames: list[str], seed: int, plan: dict[str, int], report: Any, nice: int = 0
) -> None:
    """One client process's pupils: join, set up, report the layouts, play, report the stamps.

    ``nice``: how much lower this process runs than the server (a class's pages run on their own
    tablets, not on the server's cores: here they take what the server and its workers leave).
    """
    if nice:
        os.nice(nice)
    pupils = [
        Asker(name, join(base, code, name, "ClassroomBoard"), random.Random(f"{seed}-{name}")) for name in nicknames
    ]
    _settle()
    report.put(("joined",))
    errors: list[str] = []

    def run(pupil: Asker) -> None:
        try:
            pupil.setup(plan["setup"])
            report.put(("layout", pupil.nickname, pupil.layout))
            pupil.play(plan["setup"] + 1, plan["last"])
        except Exception as error:  # handed to the main process
            errors.append(f"{pupil.nickname}: {error}")

    threads = [threading.Thread(target=run, args=(pupil,), daemon=True) for pupil in pupils]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rows = [
        {
            "nickname": p.nickname,
            "asked": p.hint_asked,
            "hint": p.hint_at,
            "dice": p.dice_at,
            "placed": p.placed_at,
            "clicks": p.clicks,
        }
        for p in pupils
    ]
    report.put(("played", errors, rows))
    for pupil in pupils:
        pupil.page.close()


def solve_seconds(layouts: list[list[int]], count: int | None = None) -> list[float]:
    """The class's layouts (the first ``count``, or all) solved here, one after the other (no cache folder)."""
    import os

    from caterpillar_learn.advice import disk_cache, solver

    os.environ.pop(disk_cache.ENV, None)
    found = []
    for labels in layouts[:count]:
        solver.clear_cache()
        found.append(solver.solve_layout("intermediate", labels).seconds)
    solver.clear_cache()
    return found


def run(
    pupils: int, processes: int, roll_every: float, seed: int, yardstick: int | None = None, client_nice: int = 0
) -> dict[str, Any]:
    import multiprocessing

    with tempfile.TemporaryDirectory(prefix="classroom-hints-") as folder:
        port = free_port()
        cmd = [*cli_command(), "classroom", "--port", str(port), "--data", f"{folder}/data", "--join-limit", "100000"]
        server: Server = start_server(cmd, f"http://127.0.0.1:{port}/join", Path(folder) / "server.log")
        base = f"http://127.0.0.1:{port}"
        process = psutil.Process(server.process.pid)
        context = multiprocessing.get_context("spawn")
        report = context.Queue()
        children: list[Any] = []
        try:
            token = server.log.read_text().split("token=")[1].split()[0]
            teacher = PageClient(f"{base}/teacher", {"token": token})
            teacher.send(
                "TeacherWidget", "create", game="caterpillars", level="intermediate", layout="setup", dice="server",
                hints=True,
            )  # fmt: skip
            teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code"), TIMEOUT)
            code = teacher.trait("TeacherWidget", "room")["code"]
            setup_rolls, plays = 2, 12
            plan = {"setup": setup_rolls, "last": setup_rolls + plays}
            nicknames = [f"P{n:02d}" for n in range(pupils)]
            for share in (nicknames[i::processes] for i in range(processes)):
                child = context.Process(
                    target=askers_process, args=(base, code, share, seed, plan, report, client_nice), daemon=True
                )
                child.start()
                children.append(child)
            for _ in children:
                assert report.get(timeout=TIMEOUT * 4)[0] == "joined"
            say("joined")
            time.sleep(1.0)
            rss_before = process.memory_info().rss
            for _ in range(setup_rolls):
                teacher.send("TeacherWidget", "roll")
                time.sleep(1.5)
            layouts: dict[str, list[int]] = {}
            while len(layouts) < pupils:
                entry = report.get(timeout=TIMEOUT * 4)
                if entry[0] != "layout":
                    raise RuntimeError(f"a client process reported {entry!r}")
                layouts[entry[1]] = entry[2]
            say(f"set up: {len({tuple(v) for v in layouts.values()})} layouts")
            time.sleep(1.0)
            cpu_before, wall_before = process.cpu_times(), time.perf_counter()
            sent: dict[int, float] = {}
            rss_peak = 0
            count = setup_rolls + 1
            sent[count] = time.perf_counter()
            teacher.send("TeacherWidget", "roll")
            # Roll on every few seconds while the hints are worked out, until the dice run out.
            done: list[Any] = []
            while count < plan["last"]:
                deadline = time.monotonic() + roll_every
                while time.monotonic() < deadline:
                    rss_peak = max(rss_peak, process.memory_info().rss)
                    time.sleep(0.5)
                count += 1
                sent[count] = time.perf_counter()
                teacher.send("TeacherWidget", "roll")
                say(f"rolled {count}")
            workers_cpu = 0.0
            while len(done) < len(children):
                try:
                    entry = report.get(timeout=1.0)
                except Exception:
                    rss_peak = max(rss_peak, process.memory_info().rss)
                    workers_cpu = max(workers_cpu, _children_cpu(process))
                    continue
                done.append(entry)
            wall = time.perf_counter() - wall_before
            cpu_after = process.cpu_times()
            workers_cpu = max(workers_cpu, _children_cpu(process))
            rss_after = process.memory_info().rss
            teacher.close()
        finally:
            for child in children:
                child.join(10)
                if child.is_alive():
                    child.terminate()
            server.stop()
    errors = [error for entry in done for error in entry[1]]
    rows = [row for entry in done for row in entry[2]]
    if errors:
        raise RuntimeError("; ".join(errors[:3]))
    last_hint = max(row["hint"] for row in rows)
    waits = [row["hint"] - row["asked"] for row in rows]
    dice = [
        row["dice"][n] - sent[n]
        for row in rows
        for n in sent
        if n in row["dice"] and sent[n] < last_hint and (n - 1) in row["placed"] and row["placed"][n - 1] < sent[n]
    ]
    clicks = [shown - clicked for row in rows for clicked, shown in row["clicks"] if clicked < last_hint]
    workers = default_workers(psutil.cpu_count())
    from caterpillar_learn.advice.tables import solved_as

    distinct = sorted({tuple(layout) for layout in layouts.values()})
    # A layout whose caterpillars hold the same labels in another order is the same solve (one in the workers too).
    solves = sorted({solved_as(layout) for layout in distinct})
    seconds = solve_seconds([list(layout) for layout in solves], yardstick)
    solve = statistics.median(seconds)
    return {
        "pupils": pupils,
        "distinct_layouts": len(distinct),
        "distinct_solves": len(solves),
        "workers": workers,
        "roll_every_s": roll_every,
        "client_nice": client_nice,
        "rolls_sent_while_hints_outstanding": sum(1 for at in sent.values() if at < last_hint),
        "figures": [
            summary("roll -> dice while hints are outstanding (pupils who had placed)", dice),
            summary("click -> sheet while hints are outstanding", clicks),
            summary("hint asked -> hint shown", waits),
        ],
        "first_hint_s": round(min(waits), 1),
        "last_hint_s": round(max(waits), 1),
        "solve_seconds_here": [round(s, 2) for s in seconds],
        "solve_seconds_median": round(solve, 2),
        "solve_seconds_mean": round(statistics.fmean(seconds), 2),
        "bound_s": round(pupils / workers * solve, 1),
        "last_hint_in_solve_times": round(max(waits) / solve, 1),
        "server_rss_mb": {
            "before": round(rss_before / 2**20),
            "peak": round(rss_peak / 2**20),
            "after": round(rss_after / 2**20),
        },
        "server_cpu_share_of_one_core": round(
            (cpu_after.user + cpu_after.system - cpu_before.user - cpu_before.system) / wall, 2
        ),
        "workers_cpu_seconds": round(workers_cpu, 1),
        "seconds_measured": round(wall, 1),
        "cores": psutil.cpu_count(),
        "load_average": [round(x, 2) for x in psutil.getloadavg()],
        "p95_check": {
            "roll_dice_p95_ms": round(percentile([d * 1000 for d in dice], 0.95), 1),
            "click_sheet_p95_ms": round(percentile([c * 1000 for c in clicks], 0.95), 1),
        },
    }


def say(line: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {line}", file=sys.stderr, flush=True)


def _children_cpu(process: psutil.Process) -> float:
    total = 0.0
    for child in process.children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument(
        "--client-nice",
        type=int,
        default=10,
        help="the client processes' niceness (the tablets' pages are not the server's load; 0: as high as the server)",
    )
    parser.add_argument("--processes", type=int, default=3, help="client processes sharing the pupils")
    parser.add_argument("--roll-every", type=float, default=10.0, help="seconds between rolls while hints are out")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument(
        "--yardstick", type=int, default=None, help="solve only this many of the class's layouts for the solve-time"
    )
    args = parser.parse_args()
    found = run(args.pupils, args.processes, args.roll_every, args.seed, args.yardstick, args.client_nice)
    print(json.dumps(found, indent=2))


if __name__ == "__main__":
    main()
