"""A whole school at once: ten classes join one classroom server within the same ten seconds (issue 31).

    .venv/bin/python benchmarks/school_start.py [--pupils 300] [--rooms 10] [--spread 10] [--json FILE]

Starts ``caterpillar-learn classroom`` on a free port with a fresh data
folder (``--join-limit`` high: every pupil here comes from one address).
Each of ``--rooms`` teachers opens the teacher's console and creates a
Caterpillars room (Beginner, standard layout, server dice, hints on, as
``benchmarks/classroom_load.py`` does); the consoles stay open and follow
their rooms, as a projector does.  Then ``--pupils`` pupils, shared out over
the rooms, arrive at seeded times spread over ``--spread`` seconds.  Each
pupil's page does what a tablet's does after scanning the room's QR code:

1. loads the door, ``/join?room=CODE`` (the HTML page and the session token
   in it; BokehJS and the other static files are in the tablet's cache);
2. opens the page's websocket, pulls the page's document and says the page is
   drawn (Bokeh's ``document_ready``);
3. after ``--typing`` seconds (default 0: the nickname is typed at once), taps
   Join: the door's ``join`` event with the room code and a nickname;
4. waits for its own sheet: the message that puts the pupil's Caterpillars
   board (the ``PanelClassroomBoard`` model, with its nickname) on the page.

Measured, per pupil: **tap → sheet** (from the join event leaving this
machine's client until the sheet's message has come off the socket, the
figure the target is about: at most 5 s for every pupil), **arrival → door**
(steps 1-2) and **arrival → sheet**; how many pupils had their sheet within
5 s of their tap; the **server's CPU per join** (the server process's user
and system time from the first arrival until the last sheet, over the number
of pupils; its hint workers' CPU beside it) and the **clients' CPU** over the
same window.  ``--json FILE`` also writes the figures as JSON.  Nothing is
asserted; the printed summary ends in a Markdown table row (docs/PERFORMANCE.md,
"A whole school at once").  ``--profile FILE`` records the server over the
joins with py-spy, if installed (a local tool, not a dependency of the
project: ``pip install py-spy``; ``.txt`` gives py-spy's collapsed stacks).

**The clients are light.**  They share the machine's cores with the server,
so they are not :class:`tests.classroom.probe.PageClient` (Bokeh's Python
client, a thread and a whole Python copy of every page's document each):
every page here is a coroutine on one asyncio event loop per client process
(``--processes``, default 1) speaking Bokeh's websocket protocol itself, as
BokehJS does: the header, metadata and content frames of each message, the
``PULL-DOC`` request and the ``PATCH-DOC`` events a page sends.  A message
from the server is read whole off the socket and looked at as text (a page's
document is decoded as JSON once, to find the door's model); nothing applies
it to a document.  The teachers' consoles are such pages too.  What a
browser does besides (drawing, BokehJS, the ES modules) is the tablet's own
work and not counted here.

The readiness check at start loads a page that never connects; the server
forgets it after its unopened lifetime and then collects the garbage of
every page, a stall of its own: the class comes after that (some 30 s after
the start), as it comes to a server started before the school day.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
from panel.io.document import GC_DEBOUNCE  # noqa: E402

from benchmarks.classroom_load import percentile  # noqa: E402
from caterpillar_learn.classroom.server import UNOPENED_CHECK, UNOPENED_LIFETIME  # noqa: E402
from caterpillar_learn.classroom.tweaks import Freezer  # noqa: E402
from tests.browser.conftest import Server, cli_command, free_port, start_server  # noqa: E402

#: A pupil's target: the sheet within this many seconds of the tap.
TARGET = 5.0
#: Longest wait for anything one page does (seconds).
TIMEOUT = 120.0
LOGS = ROOT / "artifacts" / "school_start"
#: Joins a minute per address the server allows (its highest): every pupil here comes from this machine.
JOIN_LIMIT = 100000
#: Each teacher's room, as the console's form sends it.
ROOM = {"game": "caterpillars", "level": "beginner", "layout": "standard", "dice": "server", "hints": True}
#: The summary's table head (:func:`table_row`).
HEADER = "| code | pupils/rooms | tap → sheet p50 / p95 / max | within 5 s | server CPU a join | clients' CPU | load |"
_TOKEN = re.compile(r'"token":"([^"]+)"')
_ids = itertools.count(1)


def _model_id(document: str, widget: str) -> str:
    """The id of the data model of ``widget`` (``JoinWidget``, ``TeacherWidget``) in a page's document's JSON."""

    def find(value: Any) -> str | None:
        if isinstance(value, dict):
            if value.get("type") == "object" and str(value.get("name", "")).split(".")[-1].startswith(f"Panel{widget}"):
                return str(value["id"])
            for item in value.values():
                found = find(item)
                if found is not None:
                    return found
        elif isinstance(value, list):
            for item in value:
                found = find(item)
                if found is not None:
                    return found
        return None

    found = find(json.loads(document))
    if found is None:
        raise LookupError(f"no {widget} on the page")
    return found


def _decoded(value: Any) -> Any:
    """A value as Bokeh's serializer wrote it (maps as ``{"type": "map", "entries": ...}``), as plain data."""
    if isinstance(value, dict):
        if value.get("type") == "map":
            return {_decoded(key): _decoded(item) for key, item in value.get("entries", [])}
        return {key: _decoded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decoded(item) for item in value]
    return value


class Page:
    """One page of the server over Bokeh's websocket protocol: whole messages in and out, nothing applied."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.socket: Any = None

    async def load(self, path: str) -> str:
        """Load the page's HTML (as a browser does, gzip accepted) and return its session token."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nAccept-Encoding: gzip\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        answer = await reader.read()
        writer.close()
        head, _, body = answer.partition(b"\r\n\r\n")
        if b"content-encoding: gzip" in head.lower():
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        found = _TOKEN.search(body.decode("utf-8", errors="replace"))
        if found is None:
            raise RuntimeError(f"{path}: no session token in the page ({head[:80]!r})")
        return found.group(1)

    async def open(self, path: str) -> str:
        """Load ``path``, open its websocket, pull its document (returned as JSON text) and say it is drawn."""
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        token = await self.load(path)
        ws_path = path.split("?")[0].rstrip("/") + "/ws"
        request = HTTPRequest(f"ws://{self.host}:{self.port}{ws_path}")
        self.socket = await websocket_connect(request, subprotocols=["bokeh", token], max_message_size=2**26)
        self.socket.protocol.set_nodelay(True)  # a browser's socket sends each frame at once
        header, _ = await self.read()
        if header.get("msgtype") != "ACK":
            raise RuntimeError(f"{path}: {header.get('msgtype')} before ACK")
        asked = self.send("PULL-DOC-REQ", "{}")
        while True:
            header, content = await self.read()
            if header.get("msgtype") == "PULL-DOC-REPLY" and header.get("reqid") == asked:
                break
        ready = {
            "kind": "MessageSent",
            "msg_type": "bokeh_event",
            "msg_data": {"type": "event", "name": "document_ready", "values": {"type": "map"}},
        }
        self.send("PATCH-DOC", json.dumps({"events": [ready]}))
        return content

    def send(self, kind: str, content: str) -> str:
        msgid = f"c{next(_ids)}"
        for frame in (json.dumps({"msgid": msgid, "msgtype": kind, "num_buffers": 0}), "{}", content):
            self.socket.write_message(frame)
        return msgid

    def write_event(self, model: str, event: dict[str, Any], seq: int) -> None:
        """What a widget's front end does for one action: a new ``event`` on its model."""
        entries = [[key, value] for key, value in {**event, "seq": seq}.items()]
        new = {"type": "map", "entries": entries}
        change = {"kind": "ModelChanged", "model": {"id": model}, "attr": "event", "new": new}
        self.send("PATCH-DOC", json.dumps({"events": [change]}))

    async def read(self) -> tuple[dict[str, Any], str]:
        """The next whole message: its header and its content (as text); buffers are read and dropped."""
        frames = []
        for _ in range(3):
            frame = await self.socket.read_message()
            if frame is None:
                raise ConnectionError("the server closed the page")
            frames.append(frame)
        header = json.loads(frames[0])
        for _ in range(2 * int(header.get("num_buffers", 0))):
            await self.socket.read_message()
        return header, frames[2] if isinstance(frames[2], str) else frames[2].decode()

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()


class Pupil:
    """One pupil's times, on ``time.perf_counter`` (the system's monotonic clock: the same in every process).

    ``arrive`` is when, after the start, the pupil opens the door; ``arrived``, ``door`` (drawn), ``tap`` and
    ``sheet`` are when each happened (0 until then), ``error`` what went wrong.
    """

    def __init__(self, nickname: str, code: str, arrive: float) -> None:
        self.nickname, self.code, self.arrive = nickname, code, arrive
        self.arrived = self.door = self.tap = self.sheet = 0.0
        self.error = ""


async def pupil_joins(host: str, port: int, pupil: Pupil, start: float, typing: float, hold: asyncio.Event) -> None:
    """One pupil: arrive, open the door, tap Join, wait for the sheet; then keep the page open until ``hold``."""
    await asyncio.sleep(max(0.0, start + pupil.arrive - time.perf_counter()))
    pupil.arrived = time.perf_counter()
    page = Page(host, port)
    try:
        document = await asyncio.wait_for(page.open(f"/join?room={pupil.code}"), TIMEOUT)
        door = _model_id(document, "JoinWidget")
        pupil.door = time.perf_counter()
        if typing:
            await asyncio.sleep(typing)
        pupil.tap = time.perf_counter()
        page.write_event(door, {"type": "join", "code": pupil.code, "nickname": pupil.nickname}, seq=1)

        async def sheet() -> None:
            while True:
                _header, content = await page.read()
                if "PanelClassroomBoard" in content and pupil.nickname in content:
                    pupil.sheet = time.perf_counter()
                    return
                if '"attr":"message"' in content:  # the door says why not (a full room, the join limit)
                    said = [e["new"] for e in json.loads(content)["events"] if e.get("attr") == "message" and e["new"]]
                    if said:
                        raise RuntimeError(f"the door said {said[0]!r}")

        await asyncio.wait_for(sheet(), TIMEOUT)
    except Exception as error:  # noted for the report; the others go on
        pupil.error = f"{type(error).__name__}: {error}"[:200]
        page.close()
        return

    async def listen() -> None:  # a tablet keeps listening (and the server's redraws come off the socket)
        try:
            while True:
                await page.read()
        except Exception:
            return

    listening = asyncio.ensure_future(listen())
    await hold.wait()
    listening.cancel()
    page.close()


def client_process(
    host: str, port: int, pupils: list[Pupil], start: float, typing: float, report: Any, stop: Any
) -> None:
    """One client process: its pupils on one event loop; their times go to ``report``, then it waits for ``stop``."""

    async def run() -> None:
        hold = asyncio.Event()
        joins = [asyncio.ensure_future(pupil_joins(host, port, pupil, start, typing, hold)) for pupil in pupils]
        while not all(pupil.sheet or pupil.error for pupil in pupils):
            await asyncio.sleep(0.05)
        report.put([pupil.__dict__ for pupil in pupils])
        await asyncio.get_running_loop().run_in_executor(None, stop.wait)
        hold.set()
        await asyncio.gather(*joins, return_exceptions=True)

    asyncio.run(run())


async def _teachers(host: str, port: int, token: str, rooms: int) -> tuple[list[str], list[Page]]:
    """``rooms`` teachers' consoles, each creating a Caterpillars room; the codes and the open consoles."""

    async def one() -> tuple[str, Page]:
        page = Page(host, port)
        console = _model_id(await page.open(f"/teacher?token={token}"), "TeacherWidget")
        page.write_event(console, {"type": "create", **ROOM}, seq=1)
        while True:
            _header, content = await page.read()
            for event in json.loads(content).get("events", []):
                if event.get("attr") == "room":
                    room = _decoded(event.get("new"))
                    if isinstance(room, dict) and room.get("code"):
                        return str(room["code"]), page

    made = []
    for _ in range(rooms):  # one after the other: ten teachers need not click within the same millisecond
        made.append(await asyncio.wait_for(one(), TIMEOUT))
    return [code for code, _ in made], [page for _, page in made]


def _cpu(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def _workers_cpu(process: psutil.Process) -> float:
    total = 0.0
    for child in process.children(recursive=True):
        with contextlib.suppress(psutil.Error):  # a worker that has just ended
            total += _cpu(child)
    return total


def _spy(pid: int, out: Path) -> subprocess.Popen[bytes] | None:
    """py-spy on the server until interrupted (a local tool, not a dependency: ``pip install py-spy``)."""
    spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
    if spy is None:
        print("py-spy is not installed: no profile", file=sys.stderr)
        return None
    command = [spy, "record", "-p", str(pid), "-o", str(out), "-r", "100", "--nonblocking"]
    if out.suffix == ".txt":
        command += ["-f", "raw"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run(options: argparse.Namespace) -> dict[str, Any]:
    LOGS.mkdir(parents=True, exist_ok=True)
    host, port = "127.0.0.1", free_port()
    folder = Path(tempfile.mkdtemp(prefix="school-start-"))
    data = str(folder / "data")
    command = [*cli_command(), "classroom", "--port", str(port), "--data", data, "--join-limit", str(JOIN_LIMIT)]
    started = time.monotonic()
    server: Server = start_server(command, f"http://{host}:{port}/join", LOGS / "classroom.log")
    consoles: list[Page] = []
    loop = asyncio.new_event_loop()
    try:
        token = server.log.read_text().split("token=")[1].split()[0]
        process = psutil.Process(server.process.pid)
        codes, consoles = loop.run_until_complete(_teachers(host, port, token, options.rooms))

        async def keep(page: Page) -> None:  # the projectors keep listening
            try:
                while True:
                    await page.read()
            except Exception:
                return

        listening = [loop.create_task(keep(page)) for page in consoles]
        # The readiness check's page never connects: let the server forget it, and collect its garbage (Panel
        # a few seconds after a page has gone, the server's Freezer once no page has opened for a while),
        # before the class comes.
        quiet = max(Freezer.QUIET, GC_DEBOUNCE) + 2.0
        settle = max(2.0, UNOPENED_LIFETIME + UNOPENED_CHECK + quiet - (time.monotonic() - started))
        loop.run_until_complete(asyncio.sleep(settle))
        rng = random.Random(options.seed)
        arrivals = sorted(rng.uniform(0.0, options.spread) for _ in range(options.pupils))
        class_ = [
            Pupil(f"P{number:03d}", codes[number % len(codes)], arrive)
            for number, arrive in enumerate(rng.sample(arrivals, len(arrivals)))
        ]
        context = multiprocessing.get_context("spawn")
        report, stop = context.Queue(), context.Event()
        start = time.perf_counter() + 3.0  # every client process has started by then
        shares = [class_[index :: options.processes] for index in range(options.processes)]
        typing = options.typing
        children = [
            context.Process(target=client_process, args=(host, port, share, start, typing, report, stop), daemon=True)
            for share in shares
            if share
        ]
        for child in children:
            child.start()
        clients = [psutil.Process(child.pid) for child in children]
        me = psutil.Process()
        loop.run_until_complete(asyncio.sleep(max(0.0, start - time.perf_counter())))
        load_before = os.getloadavg()
        cpu_before, workers_before = _cpu(process), _workers_cpu(process)
        clients_before = sum(_cpu(client) for client in clients) + _cpu(me)
        spy = _spy(process.pid, options.profile) if options.profile else None
        results: list[dict[str, Any]] = []
        deadline = start + options.spread + 2 * TIMEOUT
        for _ in children:
            while True:
                loop.run_until_complete(asyncio.sleep(0.02))  # the consoles keep reading meanwhile
                try:
                    results.extend(report.get_nowait())
                    break
                except queue.Empty:
                    if time.perf_counter() > deadline or not all(child.is_alive() for child in children):
                        raise RuntimeError("a client process ended or hung without its report") from None
        ended = time.perf_counter()
        cpu_after, workers_after = _cpu(process), _workers_cpu(process)
        clients_after = sum(_cpu(client) for client in clients) + _cpu(me)
        load_after = os.getloadavg()
        if spy is not None:  # the profile covers the joins only
            spy.send_signal(signal.SIGINT)
            spy.wait()
        stop.set()
        for child in children:
            child.join(30)
        for task in listening:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*listening, return_exceptions=True))
    finally:
        for page in consoles:
            page.close()
        loop.close()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    done = [row for row in results if row["sheet"]]
    waits = [row["sheet"] - row["tap"] for row in done]
    doors = [row["door"] - row["arrived"] for row in results if row["door"]]
    whole = [row["sheet"] - row["arrived"] for row in done]
    window = ended - start
    return {
        "pupils": options.pupils,
        "rooms": options.rooms,
        "spread_s": options.spread,
        "typing_s": options.typing,
        "client_processes": len(children),
        "joined": len(done),
        "failed": [f"{row['nickname']}: {row['error']}" for row in results if row["error"]][:10],
        "within_target": sum(1 for wait in waits if wait <= TARGET),
        "tap_to_sheet_s": _summary(waits),
        "arrival_to_door_s": _summary(doors),
        "arrival_to_sheet_s": _summary(whole),
        "window_s": round(window, 2),
        "server_cpu_s": round(cpu_after - cpu_before, 2),
        "server_cpu_per_join_ms": round((cpu_after - cpu_before) / max(1, options.pupils) * 1000, 1),
        "server_cpu_share_of_one_core": round((cpu_after - cpu_before) / window, 2),
        "workers_cpu_s": round(workers_after - workers_before, 2),
        "clients_cpu_s": round(clients_after - clients_before, 2),
        "clients_cpu_share_of_one_core": round((clients_after - clients_before) / window, 2),
        "cores": psutil.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
    }


def _summary(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None, "max": None}
    return {
        "p50": round(percentile(values, 0.5), 2),
        "p95": round(percentile(values, 0.95), 2),
        "max": round(max(values), 2),
    }


def table_row(result: dict[str, Any], label: str) -> str:
    tap = result["tap_to_sheet_s"]
    load = result["load_average_before"][0]
    return (
        f"| {label} | {result['pupils']}/{result['rooms']} | {tap['p50']} / {tap['p95']} / {tap['max']} s "
        f"| {result['within_target']} of {result['pupils']} | {result['server_cpu_per_join_ms']} ms "
        f"| {result['clients_cpu_s']} s | {load} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pupils", type=int, default=300)
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--spread", type=float, default=10.0, help="seconds over which the pupils arrive")
    parser.add_argument("--typing", type=float, default=0.0, help="seconds from the door drawn to the tap")
    parser.add_argument("--processes", type=int, default=1, help="client processes sharing the pupils")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--label", default="now", help="the table row's first cell")
    parser.add_argument("--profile", type=Path, help="py-spy the server over the joins (.svg, or .txt: collapsed)")
    options = parser.parse_args()
    result = run(options)
    print(json.dumps(result, indent=1))
    print(HEADER)
    print(table_row(result, options.label))
    if options.json:
        options.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
