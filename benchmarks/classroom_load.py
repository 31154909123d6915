"""The classroom server under a class: one room of 30 pupils and 8 Räuber Raupe tables (docs/DEPLOY.md).

    .venv/bin/python benchmarks/classroom_load.py [--pupils 30] [--tables 8] [--rounds 12] [--browser 2]

Starts ``caterpillar-learn classroom`` on a free port with a fresh data
folder, then opens every page over Bokeh's own websocket protocol, as a
browser tab does (:class:`caterpillar_learn.classroom.probe.PageClient`: the
page's document, the ``document_ready`` event, trait writes, the server's
pushes), all from this one process:

* a teacher page on a Caterpillars room (Beginner, standard layout, server
  dice, hints on) and ``--pupils`` pupils in it;
* a Räuber Raupe room of 4 seats a table with ``--tables`` full tables;
  every seat plays a fitting card every 2 s or so (the tables' clock is the
  server's);
* ``--rounds`` rounds: the teacher rolls; each pupil waits 0-1.5 s (seeded)
  after seeing the dice, then clicks its first legal box.

Measured:

* **roll → dice**: from the teacher's roll leaving this process until each
  pupil's page has the new dice (its ``dice`` trait changed), per pupil and
  round;
* **click → sheet**: from a pupil's click leaving until its ``sheet`` trait
  shows the box filled;
* **card → hand** at the tables: from a seat's play until its ``hand`` changes;
* **memory**: the server's resident memory before anyone joins and after
  every pupil has joined and played, per pupil;
* **CPU**: the server process's CPU time over the rounds, as a share of one
  core, and this process's (the clients') beside it: both share the machine.

With ``--browser N`` (default 2), N more pupils of the room are real
Chromium pages (Playwright); their roll → dice is taken in the page (a
MutationObserver's wall clock against this process's) and their click →
sheet from the click until the box shows its score.

Timestamps are taken on the clients' connection threads when a patch is
applied, so they include this process's own decoding; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
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

import psutil  # noqa: E402

from caterpillar_learn.classroom.probe import PageClient  # noqa: E402
from tests.browser.conftest import Server, cli_command, free_port, start_server  # noqa: E402

SEATS = 4
TICK = 0.25
PLAY_EVERY = 2.0
THINK = (0.0, 1.5)
TIMEOUT = 60.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def summary(name: str, values: list[float]) -> dict[str, Any]:
    ms = [v * 1000 for v in values]
    return {
        "figure": name,
        "samples": len(ms),
        "p50_ms": round(percentile(ms, 0.5), 1),
        "p95_ms": round(percentile(ms, 0.95), 1),
        "max_ms": round(max(ms), 1) if ms else None,
        "mean_ms": round(statistics.fmean(ms), 1) if ms else None,
    }


class Pupil:
    """One pupil's page (protocol client) and what it saw."""

    def __init__(self, nickname: str, page: PageClient) -> None:
        self.nickname = nickname
        self.page = page
        self.dice_seen = threading.Event()
        self.sheet_seen = threading.Event()
        self.dice_at = 0.0
        self.sheet_at = 0.0
        self.expected_dice = 0
        self.expected_filled = 0

    def follow(self) -> None:
        def on_dice(new: Any) -> None:
            if new.get("rolled") and new.get("count", 0) >= self.expected_dice and not self.dice_seen.is_set():
                self.dice_at = time.perf_counter()
                self.dice_seen.set()

        def on_sheet(new: Any) -> None:
            filled = sum(score is not None for scores in new.get("scores", {}).values() for score in scores)
            if filled >= self.expected_filled and not self.sheet_seen.is_set():
                self.sheet_at = time.perf_counter()
                self.sheet_seen.set()

        self.page.watch("ClassroomBoard", "dice", on_dice)
        self.page.watch("ClassroomBoard", "sheet", on_sheet)


def join(base: str, code: str, nickname: str, widget: str) -> PageClient:
    page = PageClient(f"{base}/join", {"room": code})
    page.send("JoinWidget", "join", code=code, nickname=nickname)
    if not page.wait(lambda: page.model(widget) is not None, timeout=TIMEOUT):
        raise RuntimeError(f"{nickname} could not join: {page.trait('JoinWidget', 'message')!r}")
    return page


class Tables:
    """The Räuber Raupe seats: a fitting card now and then (looked at four times a second)."""

    def __init__(self, seats: list[PageClient], rng: random.Random) -> None:
        self.seats = seats
        self.rng = rng
        self.plays: list[float] = []
        self.stop = threading.Event()
        self._sent: dict[int, float] = {}
        for index, seat in enumerate(seats):
            seat.watch("SeatWidget", "hand", lambda _new, index=index: self._arrived(index))
        self.thread = threading.Thread(target=self.run, daemon=True, name="tables")

    def _arrived(self, index: int) -> None:
        sent = self._sent.pop(index, None)
        if sent is not None:
            self.plays.append(time.perf_counter() - sent)

    def run(self) -> None:
        next_play = [time.monotonic() + self.rng.uniform(0, PLAY_EVERY) for _ in self.seats]
        while not self.stop.is_set():
            started = time.monotonic()
            for index, seat in enumerate(self.seats):
                if started >= next_play[index] and index not in self._sent:
                    hand = seat.trait("SeatWidget", "hand") or []
                    fitting = [card["index"] for card in hand if card.get("fits")]
                    if fitting:
                        self._sent[index] = time.perf_counter()
                        seat.send("SeatWidget", "play", index=fitting[0])
                    next_play[index] = started + self.rng.uniform(0.5 * PLAY_EVERY, 1.5 * PLAY_EVERY)
            self.stop.wait(max(0.0, TICK - (time.monotonic() - started)))


def browser_pupils(base: str, code: str, count: int) -> tuple[Any, list[Any]]:
    """``count`` pupils in Debian's Chromium (Playwright), joined to the room."""
    from playwright.sync_api import expect, sync_playwright

    from tests.conftest import CHROMIUM, CHROMIUM_ARGS

    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    pages = []
    for number in range(count):
        page = browser.new_context().new_page()
        page.goto(f"{base}/join?room={code}&nickname=Tab{number}")
        expect(page.get_by_test_id("sheet")).to_be_visible(timeout=TIMEOUT * 1000)
        page.evaluate(ARRIVAL_WATCH)
        pages.append(page)
    return (playwright, browser), pages


# Finds an element by test id through every shadow root (Panel draws each component in one).
DEEP_FIND = """(id) => {
  const walk = (root) => {
    const hit = root.querySelector(`[data-testid="${id}"]`);
    if (hit) return hit;
    for (const node of root.querySelectorAll("*")) {
      if (node.shadowRoot) { const inner = walk(node.shadowRoot); if (inner) return inner; }
    }
    return null;
  };
  return walk(document);
}"""

# Records (wall clock, ms) when each round's dice first appear on the page, by the tray's round
# ("Round 3 of 12").  A MutationObserver on the board's shadow root: no work between changes.
ARRIVAL_WATCH = (
    """() => {
  const find = """
    + DEEP_FIND
    + """;
  window.diceArrivals = {};
  const root = find("sheet").getRootNode();
  new MutationObserver(() => {
    const die = root.querySelector('[data-testid="die-0"]');
    const round = root.querySelector(".cl-round");
    const key = round ? round.textContent : "";
    if (die && key && !(key in window.diceArrivals)) window.diceArrivals[key] = Date.now();
  }).observe(root, { subtree: true, childList: true, characterData: true });
}"""
)

# Milliseconds from the click on the first legal box until that box shows a score.
TIMED_BOX = (
    """() => new Promise((resolve) => {
  const find = """
    + DEEP_FIND
    + """;
  const legal = find("legal-move");
  if (!legal) { setTimeout(() => resolve(null), 5); return; }
  const box = legal.closest(".cl-box");
  const id = box.getAttribute("data-testid");
  const root = box.getRootNode();
  const start = performance.now();
  const observer = new MutationObserver(() => {
    const now = root.querySelector(`[data-testid="${id}"]`);
    if (now && !/, empty/.test(now.getAttribute("aria-label") || "")) {
      observer.disconnect(); resolve(performance.now() - start);
    }
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true });
  box.dispatchEvent(new MouseEvent("click", { bubbles: true }));
})"""
)


def run(pupils: int, tables: int, rounds: int, browsers: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="classroom-load-") as folder:
        port = free_port()
        cmd = [*cli_command(), "classroom", "--port", str(port), "--data", f"{folder}/data", "--join-limit", "100000"]
        server: Server = start_server(cmd, f"http://127.0.0.1:{port}/join", Path(folder) / "server.log")
        try:
            return measure(server, port, pupils, tables, rounds, browsers, rng)
        finally:
            server.stop()


def measure(
    server: Server, port: int, pupils: int, tables: int, rounds: int, browsers: int, rng: random.Random
) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    token = server.log.read_text().split("token=")[1].split()[0]
    process = psutil.Process(server.process.pid)
    me = psutil.Process()
    teacher = PageClient(f"{base}/teacher", {"token": token})
    teacher.send("TeacherWidget", "create", game="raupe", seats=SEATS, bots="beginner", hints=True)
    teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("game") == "raupe", TIMEOUT)
    raupe_code = teacher.trait("TeacherWidget", "room")["code"]
    teacher.send("TeacherWidget", "create", game="caterpillars", level="beginner", layout="standard", dice="server")
    teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("game") == "caterpillars", TIMEOUT)
    code = teacher.trait("TeacherWidget", "room")["code"]
    time.sleep(1.0)
    rss_empty = process.memory_info().rss

    joined_at = time.perf_counter()
    class_pupils = [Pupil(f"P{n:02d}", join(base, code, f"P{n:02d}", "ClassroomBoard")) for n in range(pupils)]
    join_seconds = time.perf_counter() - joined_at
    for pupil in class_pupils:
        pupil.follow()
    seats = [join(base, raupe_code, f"R{n:02d}", "SeatWidget") for n in range(tables * SEATS)]
    handles, tabs = browser_pupils(base, code, browsers) if browsers else (None, [])
    teacher.send("TeacherWidget", "open", code=raupe_code)
    teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code") == raupe_code, TIMEOUT)
    teacher.send("TeacherWidget", "start")
    started = lambda: all(t["status"] != "Waiting to start" for t in teacher.trait("TeacherWidget", "room")["tables"])  # noqa: E731
    teacher.wait(started, TIMEOUT)
    teacher.send("TeacherWidget", "open", code=code)
    teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code") == code, TIMEOUT)
    game_tables = Tables(seats, rng)
    game_tables.thread.start()
    time.sleep(2.0)

    dice_latency: list[float] = []
    click_latency: list[float] = []
    tab_dice: list[float] = []
    tab_click: list[float] = []
    roll_cpu: list[float] = []
    cpu_before, mine_before, wall_before = process.cpu_times(), me.cpu_times(), time.perf_counter()
    everyone = pupils + browsers
    for number in range(1, rounds + 1):
        for pupil in class_pupils:
            pupil.expected_dice, pupil.dice_seen = number, threading.Event()
        sent_wall = time.time()
        cpu = process.cpu_times()
        sent = time.perf_counter()
        teacher.send("TeacherWidget", "roll")
        for pupil in class_pupils:
            if not pupil.dice_seen.wait(TIMEOUT):
                raise RuntimeError(f"{pupil.nickname} saw no dice in round {number}")
            dice_latency.append(pupil.dice_at - sent)
        after = process.cpu_times()
        roll_cpu.append(after.user + after.system - cpu.user - cpu.system)

        def click(pupil: Pupil, think: float, round_number: int = number) -> None:
            time.sleep(think)
            # A pupil clicks a box the page shows as legal (the highlights follow the dice by a moment).
            pupil.page.wait(lambda: pupil.page.trait("ClassroomBoard", "legal"), TIMEOUT)
            legal = pupil.page.trait("ClassroomBoard", "legal")
            pupil.expected_filled, pupil.sheet_seen = round_number, threading.Event()
            clicked = time.perf_counter()
            pupil.page.send("ClassroomBoard", "box", caterpillar=legal[0]["caterpillar"], box=legal[0]["box"])
            if pupil.sheet_seen.wait(TIMEOUT):
                click_latency.append(pupil.sheet_at - clicked)

        clickers = [
            threading.Thread(target=click, args=(pupil, rng.uniform(*THINK)), daemon=True) for pupil in class_pupils
        ]
        for thread in clickers:
            thread.start()
        for tab in tabs:
            key = f"Round {number} of 12"
            deadline = time.monotonic() + TIMEOUT
            arrivals = tab.evaluate("() => window.diceArrivals")
            while key not in arrivals and time.monotonic() < deadline:
                time.sleep(0.05)
                arrivals = tab.evaluate("() => window.diceArrivals")
            tab_dice.append(arrivals[key] / 1000 - sent_wall)
            clicked = None
            while clicked is None:  # the legal boxes follow the dice by a moment
                clicked = tab.evaluate(TIMED_BOX)
            tab_click.append(clicked / 1000)
        for thread in clickers:
            thread.join(TIMEOUT)
        teacher.wait(lambda: teacher.trait("TeacherWidget", "room")["placed"]["count"] == everyone, TIMEOUT)
    wall = time.perf_counter() - wall_before
    cpu_after, mine_after = process.cpu_times(), me.cpu_times()
    game_tables.stop.set()
    game_tables.thread.join(5)
    rss_full = process.memory_info().rss
    ranked = len(teacher.trait("TeacherWidget", "room").get("leaderboard", []))
    for page in [teacher, *(p.page for p in class_pupils), *seats]:
        page.close()
    if handles is not None:
        handles[1].close()
        handles[0].stop()
    everyone_joined = pupils + browsers + tables * SEATS
    server_cpu = (cpu_after.user + cpu_after.system - cpu_before.user - cpu_before.system) / wall
    client_cpu = (mine_after.user + mine_after.system - mine_before.user - mine_before.system) / wall
    return {
        "pupils": pupils,
        "browser_pupils": browsers,
        "raupe_tables": tables,
        "raupe_seats": tables * SEATS,
        "rounds": rounds,
        "ranked_at_the_end": ranked,
        "join_seconds_for_the_class": round(join_seconds, 1),
        "figures": [
            summary("roll -> dice (protocol clients)", dice_latency),
            summary("click -> sheet (protocol clients)", click_latency),
            summary("roll -> dice (Chromium pages)", tab_dice),
            summary("click -> sheet (Chromium pages)", tab_click),
            summary("card -> hand (Räuber Raupe seats)", game_tables.plays),
            summary("server CPU from a roll until every pupil has the dice", roll_cpu),
        ],
        "server_rss_mb": {"before_joins": round(rss_empty / 2**20), "after_play": round(rss_full / 2**20)},
        "mb_per_pupil": round((rss_full - rss_empty) / 2**20 / everyone_joined, 2),
        "server_cpu_share_of_one_core": round(server_cpu, 2),
        "clients_cpu_share_of_one_core": round(client_cpu, 2),
        "seconds_measured": round(wall, 1),
        "cores": psutil.cpu_count(),
        "load_average": [round(x, 2) for x in psutil.getloadavg()],
    }


def in_process(pupils: int, rounds: int) -> dict[str, Any]:
    """The server's own work, without a network: what its event loop does for a roll and for a click.

    The same entry points the pages' callbacks call: the room, then every
    pupil's widget and Panel component redrawn one after the other (as the
    event loop does after a roll), and a click's event through the component
    (handle, log write with fsync, redraw).  No Bokeh serialization or
    websocket: a lower bound of the server's share of the latencies.
    """
    from caterpillar_learn.classroom.components import classroom_component
    from caterpillar_learn.classroom.lobby import Lobby
    from caterpillar_learn.classroom.pupil import ClassroomBoard, RoomSession
    from caterpillar_learn.classroom.rooms import CaterpillarsRoom, RoomSettings
    from caterpillar_learn.classroom.store import EventStore
    from caterpillar_learn.ui.caterpillars.advice import join_background_solves

    with tempfile.TemporaryDirectory(prefix="classroom-inproc-") as folder:
        lobby = Lobby(EventStore.in_folder(folder))
        room = lobby.create(RoomSettings.build("beginner", hints=True, seed=1))
        assert isinstance(room, CaterpillarsRoom)
        make: Any = classroom_component(ClassroomBoard)
        pages = []
        for number in range(pupils):
            widget = ClassroomBoard(RoomSession(room, room.join(f"P{number:02d}")))
            pages.append((widget, make(widget)))
        join_background_solves()
        roll_work: list[float] = []
        roll_cpu: list[float] = []
        click_work: list[float] = []
        click_cpu: list[float] = []
        writes: list[float] = []
        for _ in range(rounds):
            started, cpu = time.perf_counter(), time.process_time()
            room.roll()
            for widget, component in pages:
                widget.refresh()
                component.pull()
            roll_work.append(time.perf_counter() - started)
            roll_cpu.append(time.process_time() - cpu)
            for widget, component in pages:
                entry = widget.legal[0]
                started, cpu = time.perf_counter(), time.process_time()
                component.event = {"type": "box", "caterpillar": entry["caterpillar"], "box": entry["box"], "seq": 1}
                click_work.append(time.perf_counter() - started)
                click_cpu.append(time.process_time() - cpu)
        for _ in range(50):
            started = time.perf_counter()
            lobby.store.append(room.code, "benchmark", {"n": 1})
            writes.append(time.perf_counter() - started)
        return {
            "figures": [
                summary(f"roll: room + {pupils} pages redrawn, in process (wall)", roll_work),
                summary(f"roll: room + {pupils} pages redrawn, in process (CPU)", roll_cpu),
                summary("click: event handled, logged and redrawn, in process (wall)", click_work),
                summary("click: event handled, logged and redrawn, in process (CPU)", click_cpu),
                summary("one event written and committed (fsync)", writes),
            ]
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--browser", type=int, default=2, help="pupils in real Chromium pages (0 for none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps({"in_process": in_process(args.pupils, args.rounds)}, indent=1), flush=True)
    print(json.dumps(run(args.pupils, args.tables, args.rounds, args.browser, args.seed), indent=1))


if __name__ == "__main__":
    main()
