"""The classroom server under a class: one room of 30 pupils and 8 Räuber Raupe tables (docs/DEPLOY.md).

    .venv/bin/python benchmarks/classroom_load.py [--pupils 30] [--tables 8] [--rounds 12] [--browser 2]

Starts ``caterpillar-learn classroom`` on a free port with a fresh data
folder, then opens every page over Bokeh's own websocket protocol, as a
browser tab does (:class:`tests.classroom.probe.PageClient`: the
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

The protocol clients' timestamps are taken when the server's message has
been read off the socket (:attr:`PageClient.received_at`), before Bokeh's
Python client applies it to its copy of the page: that copy is this
process's work, not the server's, and a tablet does it in its own browser
(the Chromium figures include it).  The clients share the machine with the
server: their objects are frozen out of this process's garbage collector
once everyone has joined (:func:`gc.freeze`), so a full collection over
sixty pages' documents does not stall every client at once.  The Chromium
pupils, like the others, think a moment (0-1.5 s) before they click.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import gc
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

from tests.browser.conftest import Server, cli_command, free_port, start_server  # noqa: E402
from tests.classroom.probe import PageClient  # noqa: E402

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
    """One pupil's page (protocol client): it plays every round by itself and notes when things arrived."""

    def __init__(self, nickname: str, page: PageClient) -> None:
        self.nickname = nickname
        self.page = page
        self.arrived = threading.Condition()
        self.dice_at: dict[int, float] = {}  # rolls so far -> when the page had those dice
        self.sheet_at: dict[int, float] = {}  # boxes filled -> when the page's sheet showed them

    def follow(self) -> None:
        def note(table: dict[int, float], key: int) -> None:
            if key not in table:
                with self.arrived:
                    table[key] = self.page.received_at
                    self.arrived.notify_all()

        def on_dice(new: Any) -> None:
            if new.get("rolled"):
                note(self.dice_at, new.get("count", 0))

        def on_sheet(new: Any) -> None:
            note(self.sheet_at, sum(score is not None for scores in new.get("scores", {}).values() for score in scores))

        self.page.watch("ClassroomBoard", "dice", on_dice)
        self.page.watch("ClassroomBoard", "sheet", on_sheet)

    def _wait(self, table: dict[int, float], key: int, what: str) -> float:
        with self.arrived:
            if not self.arrived.wait_for(lambda: key in table, TIMEOUT):
                raise RuntimeError(f"{self.nickname} saw no {what} {key}")
            return table[key]

    def play(self, thinks: list[float]) -> list[tuple[int, float, float, float]]:
        """Every round: wait for the dice, think, click the first legal box, wait for the sheet to show it.

        Returns (round, dice arrived, clicked, sheet arrived) a round, on ``time.perf_counter``.
        """
        played = []
        for number, think in enumerate(thinks, start=1):
            dice_at = self._wait(self.dice_at, number, "roll")
            time.sleep(think)
            # A pupil clicks a box the page shows as legal (the highlights follow the dice by a moment).
            self.page.wait(lambda: self.page.trait("ClassroomBoard", "legal"), TIMEOUT)
            legal = self.page.trait("ClassroomBoard", "legal")
            clicked = time.perf_counter()
            self.page.send("ClassroomBoard", "box", caterpillar=legal[0]["caterpillar"], box=legal[0]["box"])
            played.append((number, dice_at, clicked, self._wait(self.sheet_at, number, "filled box")))
        return played


def join(base: str, code: str, nickname: str, widget: str) -> PageClient:
    page = PageClient(f"{base}/join", {"room": code})
    page.send("JoinWidget", "join", code=code, nickname=nickname)
    if not page.wait(lambda: page.model(widget) is not None, timeout=TIMEOUT):
        raise RuntimeError(f"{nickname} could not join: {page.trait('JoinWidget', 'message')!r}")
    return page


def room(teacher: PageClient) -> dict[str, Any]:
    value: dict[str, Any] = teacher.trait("TeacherWidget", "room")
    return value


def placed(teacher: PageClient, everyone: int, number: int) -> bool:
    """Whether the teacher's console shows all ``everyone`` pupils with ``number`` boxes filled."""
    pupils = room(teacher)["pupils"]
    return len(pupils) == everyone and all(pupil["filled"] >= number for pupil in pupils)


def _settle() -> None:
    gc.collect()
    gc.freeze()  # the clients' documents, loaded once: no full collection need walk them again


def pupils_process(
    base: str, code: str, nicknames: list[str], thinks: list[list[float]], stop: Any, report: Any
) -> None:
    """One client process's pupils (run by :mod:`multiprocessing`): join, report, play all rounds, report.

    ``time.perf_counter`` is the system's monotonic clock on Linux, the same
    in every process, so the main process sets these stamps against its rolls.
    """
    joined_from = time.perf_counter()
    pupils = [Pupil(nickname, join(base, code, nickname, "ClassroomBoard")) for nickname in nicknames]
    for pupil in pupils:
        pupil.follow()
    _settle()
    report.put(("joined", joined_from, time.perf_counter()))
    results: list[Any] = [None] * len(pupils)

    def play(index: int) -> None:
        try:
            results[index] = pupils[index].play(thinks[index])
        except Exception as error:  # handed to the main process
            results[index] = error

    players = [threading.Thread(target=play, args=(index,), daemon=True) for index in range(len(pupils))]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join()
    errors = [str(result) for result in results if isinstance(result, Exception)]
    report.put(("played", "pupils", errors, [row for result in results if isinstance(result, list) for row in result]))
    stop.wait()  # the pages stay open until the server's memory has been read
    for pupil in pupils:
        pupil.page.close()


def tables_process(
    base: str, code: str, nicknames: list[str], seed: int, go: Any, done: Any, stop: Any, report: Any
) -> None:
    """The Räuber Raupe seats in a client process of their own: join, play from ``go`` until ``done``."""
    seats = [join(base, code, nickname, "SeatWidget") for nickname in nicknames]
    _settle()
    report.put(("joined", 0.0, 0.0))
    go.wait()
    tables = Tables(seats, random.Random(seed))
    tables.thread.start()
    done.wait()
    tables.stop.set()
    tables.thread.join(5)
    report.put(("played", "seats", [], tables.plays))
    stop.wait()
    for seat in seats:
        seat.close()


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
            self.plays.append(self.seats[index].received_at - sent)

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
        page.goto(f"{base}/join?room={code}&nickname=Tab{number}")  # the address fills the form in
        page.get_by_test_id("join-button").click(timeout=TIMEOUT * 1000)  # and the pupil joins, as a child does
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


def run(pupils: int, tables: int, rounds: int, browsers: int, processes: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="classroom-load-") as folder:
        port = free_port()
        cmd = [*cli_command(), "classroom", "--port", str(port), "--data", f"{folder}/data", "--join-limit", "100000"]
        server: Server = start_server(cmd, f"http://127.0.0.1:{port}/join", Path(folder) / "server.log")
        try:
            return measure(server, port, pupils, tables, rounds, browsers, processes, rng)
        finally:
            server.stop()


class Clients:
    """The client processes: ``processes`` share the protocol pupils, one more holds the Räuber Raupe seats.

    Dozens of Bokeh clients in one Python process take turns at one lock
    (the GIL): after a roll, a pupil's answer would wait until the process
    had applied the other pupils' new sheets.  Tablets do not wait for each
    other, so the pupils are spread over processes (spawned, not forked:
    the clients' threads and event loops start in each).
    """

    def __init__(
        self, base: str, code: str, raupe_code: str, nicknames: list[str], seats: list[str], **plan: Any
    ) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.report = context.Queue()
        self.go, self.done, self.stop = context.Event(), context.Event(), context.Event()
        processes: int = plan["processes"]
        thinks: dict[str, list[float]] = plan["thinks"]
        shares = [nicknames[index::processes] for index in range(processes)]
        self.children = [
            context.Process(
                target=pupils_process,
                args=(base, code, share, [thinks[name] for name in share], self.stop, self.report),
                daemon=True,
            )
            for share in shares
            if share
        ]
        if seats:
            self.children.append(
                context.Process(
                    target=tables_process,
                    args=(base, raupe_code, seats, plan["seed"], self.go, self.done, self.stop, self.report),
                    daemon=True,
                )
            )
        for child in self.children:
            child.start()

    def gather(self, kind: str) -> list[tuple[Any, ...]]:
        """One report of ``kind`` from every client process."""
        reports = []
        for _ in self.children:
            report = self.report.get(timeout=TIMEOUT * 4)
            if report[0] != kind:
                raise RuntimeError(f"a client process reported {report[0]!r}, not {kind!r}")
            reports.append(report[1:])
        return reports

    def cpu_seconds(self) -> float:
        total = 0.0
        for child in self.children:
            times = psutil.Process(child.pid).cpu_times()
            total += times.user + times.system
        return total

    def close(self) -> None:
        self.stop.set()
        for child in self.children:
            child.join(30)
            if child.is_alive():
                child.terminate()


def measure(
    server: Server,
    port: int,
    pupils: int,
    tables: int,
    rounds: int,
    browsers: int,
    processes: int,
    rng: random.Random,
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

    nicknames = [f"P{n:02d}" for n in range(pupils)]
    thinks = {name: [rng.uniform(*THINK) for _ in range(rounds)] for name in nicknames}
    seats = [f"R{n:02d}" for n in range(tables * SEATS)]
    clients = Clients(base, code, raupe_code, nicknames, seats, processes=processes, thinks=thinks, seed=rng.random())
    try:
        joins = clients.gather("joined")
        join_seconds = max(until for since, until in joins if until) - min(since for since, until in joins if until)
        handles, tabs = browser_pupils(base, code, browsers) if browsers else (None, [])
        teacher.send("TeacherWidget", "open", code=raupe_code)
        teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code") == raupe_code, TIMEOUT)
        teacher.send("TeacherWidget", "start")
        teacher.wait(lambda: all(t["status"] != "Waiting to start" for t in room(teacher)["tables"]), TIMEOUT)
        teacher.send("TeacherWidget", "open", code=code)
        teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code") == code, TIMEOUT)
        clients.go.set()
        _settle()
        time.sleep(2.0)

        sent: dict[int, float] = {}
        tab_dice: list[float] = []
        tab_click: list[float] = []
        roll_cpu: list[float] = []
        cpu_before, mine_before, wall_before = process.cpu_times(), me.cpu_times(), time.perf_counter()
        clients_before = clients.cpu_seconds()
        everyone = pupils + browsers
        for number in range(1, rounds + 1):
            sent_wall = time.time()
            cpu = process.cpu_times()
            sent[number] = time.perf_counter()
            teacher.send("TeacherWidget", "roll")
            for tab in tabs:
                think = rng.uniform(*THINK)
                key = f"Round {number} of 12"
                deadline = time.monotonic() + TIMEOUT
                arrivals = tab.evaluate("() => window.diceArrivals")
                while key not in arrivals and time.monotonic() < deadline:
                    time.sleep(0.05)
                    arrivals = tab.evaluate("() => window.diceArrivals")
                tab_dice.append(arrivals[key] / 1000 - sent_wall)
                time.sleep(max(0.0, think - (time.time() - arrivals[key] / 1000)))
                clicked = None
                while clicked is None:  # the legal boxes follow the dice by a moment
                    clicked = tab.evaluate(TIMED_BOX)
                tab_click.append(clicked / 1000)
            if not teacher.wait(lambda n=number: placed(teacher, everyone, n), TIMEOUT):
                raise RuntimeError(f"round {number}: not everyone placed")
            after = process.cpu_times()
            roll_cpu.append(after.user + after.system - cpu.user - cpu.system)
        wall = time.perf_counter() - wall_before
        cpu_after, mine_after = process.cpu_times(), me.cpu_times()
        clients_after = clients.cpu_seconds()
        clients.done.set()
        played = clients.gather("played")
        errors = [error for _role, errors, _rows in played for error in errors]
        if errors:
            raise RuntimeError("; ".join(errors[:3]))
        rows = [row for role, _errors, rows in played if role == "pupils" for row in rows]
        plays = [play for role, _errors, rows in played if role == "seats" for play in rows]
        dice_latency = [dice_at - sent[number] for number, dice_at, _clicked, _sheet_at in rows]
        click_latency = [sheet_at - clicked for _number, _dice_at, clicked, sheet_at in rows]
        rss_full = process.memory_info().rss
        ranked = len(teacher.trait("TeacherWidget", "room").get("leaderboard", []))
    finally:
        clients.close()
    teacher.close()
    if handles is not None:
        handles[1].close()
        handles[0].stop()
    everyone_joined = pupils + browsers + tables * SEATS
    server_cpu = (cpu_after.user + cpu_after.system - cpu_before.user - cpu_before.system) / wall
    client_cpu = (mine_after.user + mine_after.system - mine_before.user - mine_before.system) / wall
    client_cpu += (clients_after - clients_before) / wall
    return {
        "pupils": pupils,
        "browser_pupils": browsers,
        "raupe_tables": tables,
        "raupe_seats": tables * SEATS,
        "rounds": rounds,
        "client_processes": len(clients.children),
        "ranked_at_the_end": ranked,
        "join_seconds_for_the_class": round(join_seconds, 1),
        "figures": [
            summary("roll -> dice (protocol clients)", dice_latency),
            summary("click -> sheet (protocol clients)", click_latency),
            summary("roll -> dice (Chromium pages)", tab_dice),
            summary("click -> sheet (Chromium pages)", tab_click),
            summary("card -> hand (Räuber Raupe seats)", plays),
            summary("server CPU a round (roll to the last placed box, tables included)", roll_cpu),
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
    from caterpillar_learn.classroom.rooms.caterpillars.pupil import ClassroomBoard, RoomSession
    from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
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
    parser.add_argument("--processes", type=int, default=3, help="client processes sharing the protocol pupils")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    alone = in_process(args.pupils, args.rounds)
    measured = run(args.pupils, args.tables, args.rounds, args.browser, args.processes, args.seed)
    print(json.dumps({**measured, "in_process": alone}, indent=1))


if __name__ == "__main__":
    main()
