"""Lighthouse on a Voila lesson, the classroom's door and a pupil's page (docs/PERFORMANCE.md).

    .venv/bin/python benchmarks/lighthouse_pages.py [--runs 3] [--pages voila,door,pupil]
        [--presets desktop,mobile] [--json OUT] [--second-visits | --ready]

Lighthouse (npm ``lighthouse``, the exact version pinned in
``benchmarks/lighthouse/package.json``, every package of it pinned with its
sha512 in ``package-lock.json``) is installed with ``npm ci --ignore-scripts``
into the git-ignored ``.cache/lighthouse-<version>/`` the first time, then
run against the Debian Chromium (``CHROME_PATH=/usr/bin/chromium``, headless)
on these pages:

* ``voila``: ``caterpillar-learn serve`` on a free port and its first lesson,
  ``/voila/render/01-beginner.ipynb`` (a kernel runs the notebook before the
  page is complete: every run starts one), the light page (issue 40);
* ``voila-full`` (only when asked for): the same lesson on Voila's whole page,
  ``?template=caterpillar-learn`` (Voila's JupyterLab application, the
  lessons' page before issue 40 and Binder's still), the "before" to compare
  in the same sitting;
* ``door``: ``caterpillar-learn classroom`` on a free port with a fresh data
  folder, and its pupils' door ``/join``;
* ``pupil``: a pupil's sheet in a room of that server.  Before Lighthouse
  starts, Playwright opens the teacher's page, creates a room (Beginner, the
  teacher's defaults) and joins one pupil per Lighthouse run (``Bench1``,
  ``Bench2``…) through the door; Lighthouse then opens the address the door
  led to (``/join?room=CODE#room=CODE&secret=…``), whose secret brings the
  sheet back in Lighthouse's fresh browser profile.

Each page is measured ``--runs`` times with Lighthouse's mobile preset (its
default: a phone's screen, simulated slow 4G and a 4× slower CPU) and with
``--preset=desktop`` (a desktop screen, simulated fast network, no CPU
slowdown), or only the ``--presets`` named; throttling is Lighthouse's default simulation.  Categories:
performance, accessibility and best practices.  The table gives the median
over the runs of the performance score, time to interactive, total blocking
time, the bytes the page loaded (``total-byte-weight``), what text
compression would save (``uses-text-compression``), the JavaScript loaded
but not run (``unused-javascript``), and the accessibility and best-practices
scores, and whether the page met its target (:data:`TARGETS`: the budgets of
docs/PERFORMANCE.md, "Light pages"; a lesson on the mobile profile must be
interactive within 8 s, issue 40); below it, every console error Lighthouse
saw on each page (all runs).

Lighthouse counts what travels over HTTP: a lesson's widget module and state
come through the kernel's websocket, which it neither counts nor waits for.
``--ready`` measures that part too, in Playwright: the time from the start of
the navigation until the page is ready to use (the lesson's Roll button
enabled, the door's code field, the sheet), with Chromium's own throttling
close to Lighthouse's mobile profile (:data:`READY_CPU_SLOWDOWN`,
:data:`READY_NETWORK`), the median of ``--runs`` fresh browser contexts.

The raw reports (``<page>-<preset>-run<N>.report.json``), Lighthouse's own
output and the servers' logs go to ``artifacts/lighthouse/``.  Chromium and
the servers share this machine's cores, so times are only comparable
between runs on the same machine.  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

from caterpillar_learn.ui.hosting.jupyter_data import VOILA_TEMPLATE  # noqa: E402
from tests.browser.conftest import Server, cli_command, free_port, printed_address, start_server  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

PAGES = ("voila", "voila-full", "door", "pupil")
#: What is measured unless ``--pages`` says otherwise.
DEFAULT_PAGES = ("voila", "door", "pupil")
PRESETS = ("desktop", "mobile")
#: package.json and package-lock.json of the pinned Lighthouse (committed).
PACKAGE = ROOT / "benchmarks" / "lighthouse"
#: Raw reports, Lighthouse's output and the servers' logs (ignored by git).
ARTIFACTS = ROOT / "artifacts" / "lighthouse"
LESSON = "01-beginner"
#: ``voila-full``: the same lesson on Voila's whole page (its JupyterLab application), the lessons' page
#: before issue 40 and Binder's still, to measure the light page's "before" in the same sitting.
FULL_TEMPLATE = VOILA_TEMPLATE
CATEGORIES = ("performance", "accessibility", "best-practices")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking"
    " --disable-component-update --disable-sync --no-first-run"
)
#: How long Lighthouse waits for a page to load (ms): a lesson runs its notebook in a new kernel first.
MAX_WAIT_FOR_LOAD_MS = 90_000
#: One Lighthouse run, Chromium's start and the report included (s).
RUN_TIMEOUT = 600
#: Runs of a page that did not load before its failed report is taken (see :func:`lighthouse_report`).
ATTEMPTS = 3
#: The pupils' page in Playwright: the first render of a room can take a while on a loaded machine (ms).
JOIN_TIMEOUT_MS = 60_000
TEACHER_LABEL = "Teacher (keep this address to yourself):"
KIB = 1024.0


class Target(NamedTuple):
    """A page's budget on one preset (``None``: no budget on that figure)."""

    interactive_ms: float | None
    sent_kib: float | None = None

    def missed(self, found: dict[str, float | None]) -> list[str]:
        """What the medians ``found`` went beyond (an empty list: the target is met)."""
        over = []
        interactive, sent = found.get("interactive"), found.get("sent")
        if self.interactive_ms is not None and (interactive is None or interactive > self.interactive_ms):
            over.append(f"interactive {cell(interactive, 1000.0, 1, ' s')} > {self.interactive_ms / 1000:.0f} s")
        if self.sent_kib is not None and (sent is None or sent > self.sent_kib * KIB):
            over.append(f"sent {cell(sent, KIB)} KiB > {self.sent_kib:,.0f} KiB")
        return over

    def describe(self) -> str:
        parts = [f"≤ {self.sent_kib:,.0f} KiB"] if self.sent_kib is not None else []
        parts += [f"≤ {self.interactive_ms / 1000:.0f} s"] if self.interactive_ms is not None else []
        return ", ".join(parts)


#: The budgets of docs/PERFORMANCE.md ("Light pages"): issue 19's, and issue 40's 8 s for a lesson on a phone.
TARGETS = {
    ("voila", "desktop"): Target(4_000, 1_536),
    ("voila", "mobile"): Target(8_000),
    ("door", "desktop"): Target(2_000, 800),
    ("door", "mobile"): Target(8_000),
    ("pupil", "desktop"): Target(2_000, 800),
    ("pupil", "mobile"): Target(8_000),
}
#: ``--ready``: Chromium's CPU slowdown, as Lighthouse's mobile profile (4x).
READY_CPU_SLOWDOWN = 4
#: ``--ready``: Lighthouse's mobile network (slow 4G: 150 ms, 1.6 Mbit/s down, 750 kbit/s up), as DevTools sets it.
READY_NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1_638_400 / 8, "uploadThroughput": 750_000 / 8}


class Figures(NamedTuple):
    """What one Lighthouse report says about a page (``None``: the audit gave no number)."""

    performance: float | None
    interactive: float | None
    blocking: float | None
    sent: float | None
    compression: float | None
    unused_js: float | None
    accessibility: float | None
    best_practices: float | None
    console_errors: list[str]
    warnings: list[str]


# --- Lighthouse, installed from the committed lock ---------------------------------------------------------------


def pinned_version() -> str:
    """The exact Lighthouse version of ``benchmarks/lighthouse/package.json``."""
    manifest = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))
    version: str = manifest["dependencies"]["lighthouse"]
    if not version[:1].isdigit():
        raise RuntimeError(f"lighthouse must be pinned to one version in {PACKAGE / 'package.json'}, not {version!r}")
    return version


def install_lighthouse(version: str) -> Path:
    """``node_modules/.bin/lighthouse`` in ``.cache/lighthouse-<version>/``, installed by ``npm ci`` if missing."""
    folder = ROOT / ".cache" / f"lighthouse-{version}"
    binary = folder / "node_modules" / ".bin" / "lighthouse"
    lock = (PACKAGE / "package-lock.json").read_bytes()
    cached_lock = folder / "package-lock.json"
    if binary.exists() and cached_lock.exists() and cached_lock.read_bytes() == lock:
        return binary
    print(f"installing lighthouse {version} into {folder} (npm ci)", flush=True)
    shutil.rmtree(folder / "node_modules", ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PACKAGE / name, folder / name)
    subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=folder, check=True)
    if not binary.exists():
        raise RuntimeError(f"npm ci in {folder} left no {binary}")
    return binary


def lighthouse_command(binary: Path, url: str, preset: str, report: Path) -> list[str]:
    command = [
        str(binary),
        url,
        "--output=json",
        f"--output-path={report}",
        "--quiet",
        f"--chrome-flags={CHROME_FLAGS}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--max-wait-for-load={MAX_WAIT_FOR_LOAD_MS}",
    ]
    if preset == "desktop":
        command.append("--preset=desktop")
    return command


def run_lighthouse(binary: Path, url: str, preset: str, report: Path) -> dict[str, Any]:
    """One Lighthouse run; its JSON report (also kept at ``report``)."""
    report.unlink(missing_ok=True)
    env = {**os.environ, "CHROME_PATH": str(CHROMIUM)}
    output = report.with_suffix(".log")
    with output.open("wb") as out:
        process = subprocess.Popen(
            lighthouse_command(binary, url, preset, report),
            cwd=binary.parents[2],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    # The same stop as a server's: the process group, then what is left (chrome-launcher detaches Chromium).
    running = Server(process, url, output)
    try:
        process.wait(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        running.stop()
        raise RuntimeError(f"lighthouse on {url} ({preset}) took over {RUN_TIMEOUT} s:\n{running.log_tail()}") from None
    if not report.exists():  # a page that did not load still gives a report (exit status 1, its runtimeError)
        raise RuntimeError(f"lighthouse on {url} ({preset}) exited with {process.returncode}:\n{running.log_tail()}")
    loaded: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return loaded


def lighthouse_report(binary: Path, url: str, preset: str, report: Path) -> dict[str, Any]:
    """A report of the page, run again if the page did not load (the failed reports are kept beside it).

    Now and then Lighthouse's Chromium shows its error page for a local server that answers every other
    client (``CHROME_INTERSTITIAL_ERROR``, no request reaches the server); the next run loads the page.
    """
    for attempt in range(1, ATTEMPTS + 1):
        loaded = run_lighthouse(binary, url, preset, report)
        failure = loaded.get("runtimeError")
        if not failure or attempt == ATTEMPTS:
            return loaded
        kept = report.with_name(report.name.replace(".report.json", f".failed{attempt}.report.json"))
        report.replace(kept)
        print(
            f"  {failure.get('code')}: {' '.join(str(failure.get('message')).split())} ({kept.name}); again", flush=True
        )
    raise AssertionError("unreachable")


# --- reading a report ------------------------------------------------------------------------------------------


def score(report: dict[str, Any], category: str) -> float | None:
    value = report["categories"].get(category, {}).get("score")
    return None if value is None else 100.0 * value


def numeric(report: dict[str, Any], audit: str) -> float | None:
    value = report["audits"].get(audit, {}).get("numericValue")
    return None if value is None else float(value)


def savings(report: dict[str, Any], audit: str) -> float | None:
    """The bytes an opportunity audit says could be saved (0 when it found nothing to save)."""
    found = report["audits"].get(audit)
    if found is None or found.get("scoreDisplayMode") == "error":
        return None
    return float((found.get("details") or {}).get("overallSavingsBytes", 0))


def console_errors(report: dict[str, Any]) -> list[str]:
    """``errors-in-console``: each error's text, with its address when it has one."""
    items = ((report["audits"].get("errors-in-console") or {}).get("details") or {}).get("items", [])
    errors = []
    for item in items:
        text = " ".join(str(item.get("description", "")).split())
        url = item.get("url") or (item.get("sourceLocation") or {}).get("url") or ""
        errors.append(f"{text} ({url})" if url and url not in text else text)
    return errors


def figures(report: dict[str, Any]) -> Figures:
    warnings = [str(w) for w in report.get("runWarnings", [])]
    if report.get("runtimeError"):
        warnings.append(f"runtime error: {report['runtimeError'].get('message', report['runtimeError'])}")
    return Figures(
        performance=score(report, "performance"),
        interactive=numeric(report, "interactive"),
        blocking=numeric(report, "total-blocking-time"),
        sent=numeric(report, "total-byte-weight"),
        compression=savings(report, "uses-text-compression"),
        unused_js=savings(report, "unused-javascript"),
        accessibility=score(report, "accessibility"),
        best_practices=score(report, "best-practices"),
        console_errors=console_errors(report),
        warnings=warnings,
    )


# --- the pages' servers -----------------------------------------------------------------------------------------


def start_lessons() -> Server:
    port = free_port()
    command = [*cli_command(), "serve", "--no-browser", "--port", str(port)]
    return start_server(command, f"http://localhost:{port}/", ARTIFACTS / "serve.log")


def start_classroom_server(data: Path) -> Server:
    port = free_port()
    command = [*cli_command(), "classroom", "--port", str(port), "--data", str(data)]
    return start_server(command, f"http://127.0.0.1:{port}/join", ARTIFACTS / "classroom.log")


def lesson_url(server: Server) -> str:
    return f"{server.url.rstrip('/')}/voila/render/{LESSON}.ipynb"


def door_url(server: Server) -> str:
    return server.url


def pupil_urls(server: Server, nicknames: list[str]) -> list[str]:
    """A room made on the teacher's page, one pupil per nickname joined at the door: each sheet's address."""
    teacher_url = printed_address(server, TEACHER_LABEL)
    urls = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            teacher = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
            teacher.set_default_timeout(JOIN_TIMEOUT_MS)
            try:
                teacher.goto(teacher_url)
                teacher.get_by_test_id("create-room").click()
                code = teacher.get_by_test_id("room-code").inner_text().strip()
            except PlaywrightError as error:
                shot = ARTIFACTS / "pupil-teacher-failed.png"
                teacher.screenshot(path=str(shot), full_page=True)
                raise RuntimeError(f"no room made on the teacher's page ({shot}): {first_line(error)}") from error
            for nickname in nicknames:
                urls.append(join_room(browser, server.url, code, nickname))
        finally:
            browser.close()
    return urls


def join_room(browser: Any, door: str, code: str, nickname: str) -> str:
    """One pupil through the door, in a browser context of its own; the address the door led to."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(JOIN_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(f"{door}?room={code}")
        try:
            expect(page.get_by_test_id("join-code")).to_have_value(code, timeout=JOIN_TIMEOUT_MS)
            page.get_by_test_id("nickname").fill(nickname)
            page.get_by_test_id("join-button").click()
            expect(page.get_by_test_id("sheet")).to_be_visible(timeout=JOIN_TIMEOUT_MS)
            page.wait_for_url(re.compile(r"#room=\w+&secret=[\w-]+$"), timeout=JOIN_TIMEOUT_MS)
        except (AssertionError, PlaywrightError) as error:
            shot = ARTIFACTS / f"pupil-{nickname}-failed.png"
            page.screenshot(path=str(shot), full_page=True)
            raise RuntimeError(
                f"{nickname} did not get a sheet in room {code} ({shot}): {first_line(error)}"
            ) from error
        url: str = page.url
        return url
    finally:
        context.close()


def page_urls(pages: list[str], count: int, tmp: Path, servers: contextlib.ExitStack) -> dict[str, list[str]]:
    """``count`` addresses per page (one per Lighthouse run); the servers are stopped when ``servers`` closes."""
    urls: dict[str, list[str]] = {}
    if "voila" in pages or "voila-full" in pages:
        lessons = start_lessons()
        servers.callback(lessons.stop)
        if "voila" in pages:
            urls["voila"] = [lesson_url(lessons)] * count
        if "voila-full" in pages:
            urls["voila-full"] = [f"{lesson_url(lessons)}?template={FULL_TEMPLATE}"] * count
    if "door" in pages or "pupil" in pages:
        classroom = start_classroom_server(tmp / "data")
        servers.callback(classroom.stop)
        if "door" in pages:
            urls["door"] = [door_url(classroom)] * count
        if "pupil" in pages:
            try:
                urls["pupil"] = pupil_urls(classroom, [f"Bench{n + 1}" for n in range(count)])
            except RuntimeError as error:
                print(f"pupil: left out, {error}", flush=True)
    return urls


def first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


# --- medians and the table ------------------------------------------------------------------------------------------


def median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


#: The units of the medians in ``--json``'s file (the table shows seconds and KiB).
UNITS = {"performance": "score", "interactive": "ms", "blocking": "ms", "sent": "bytes", "compression": "bytes"}
UNITS |= {"unused_js": "bytes", "accessibility": "score", "best_practices": "score"}
#: The numbers of :class:`Figures`, in the table's order.
NUMBERS = tuple(name for name in Figures._fields if name not in ("console_errors", "warnings"))


def medians(runs: list[Figures]) -> dict[str, float | None]:
    return {name: median([getattr(run, name) for run in runs]) for name in NUMBERS}


def cell(value: float | None, scale: float = 1.0, digits: int = 0, unit: str = "") -> str:
    return "–" if value is None else f"{value / scale:.{digits}f}{unit}"


COLUMNS: tuple[tuple[str, Callable[[dict[str, float | None]], str]], ...] = (
    ("performance", lambda m: cell(m["performance"])),
    ("time to interactive", lambda m: cell(m["interactive"], 1000.0, 1, " s")),
    ("total blocking", lambda m: cell(m["blocking"], unit=" ms")),
    ("sent (KiB)", lambda m: cell(m["sent"], KIB)),
    ("compression savings (KiB)", lambda m: cell(m["compression"], KIB)),
    ("unused JavaScript (KiB)", lambda m: cell(m["unused_js"], KIB)),
    ("accessibility", lambda m: cell(m["accessibility"])),
    ("best practices", lambda m: cell(m["best_practices"])),
)


def verdict(page: str, preset: str, found: dict[str, float | None]) -> str:
    """The target column: met, or what went beyond it."""
    target = TARGETS.get((page, preset))
    if target is None:
        return "–"
    missed = target.missed(found)
    return f"{target.describe()}: " + ("met" if not missed else "**missed** (" + "; ".join(missed) + ")")


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| page | preset | " + " | ".join(name for name, _ in COLUMNS) + " | target |",
        "|---|---|" + "---:|" * len(COLUMNS) + "---|",
    ]
    for row in rows:
        cells = " | ".join(show(row["medians"]) for _, show in COLUMNS)
        target = verdict(row["page"], row["preset"], row["medians"])
        lines.append(f"| {row['page']} | {row['preset']} | {cells} | {target} |")
    return "\n".join(lines)


def console_section(errors: dict[str, list[str]]) -> str:
    lines = ["Console errors (all runs and presets):", ""]
    for page, found in errors.items():
        lines.append(f"* {page}:" + ("" if found else " none"))
        lines += [f"  * {text}" for text in found]
    return "\n".join(lines)


# --- the runs -------------------------------------------------------------------------------------------------------


def measure(binary: Path, page: str, preset: str, urls: list[str]) -> list[Figures]:
    runs = []
    for number, url in enumerate(urls, start=1):
        began = time.monotonic()
        report = lighthouse_report(binary, url, preset, ARTIFACTS / f"{page}-{preset}-run{number}.report.json")
        found = figures(report)
        runs.append(found)
        print(
            f"{page} {preset} run {number}: performance {cell(found.performance)}, "
            f"interactive {cell(found.interactive, 1000.0, 1, ' s')}, "
            f"{len(found.console_errors)} console error(s) ({time.monotonic() - began:.0f} s)",
            flush=True,
        )
        for warning in found.warnings:
            print(f"  lighthouse: {' '.join(warning.split())}", flush=True)
    return runs


#: What shows that each page is ready to use (a test id), for the second-visit measurement.
READY = {"voila": "roll-button", "voila-full": "roll-button", "door": "join-code", "pupil": "sheet"}


def second_visits(urls: dict[str, list[str]], runs: int) -> list[dict[str, Any]]:
    """Bytes each page fetched from the network on a first visit and on a reload in the same browser
    profile (its cache kept), median over ``runs`` fresh profiles; Lighthouse always starts cold."""
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for page_name, addresses in urls.items():
                first: list[float | None] = []
                again: list[float | None] = []
                for url in addresses[:runs]:
                    cold, warm = _two_visits(browser, url, READY[page_name])
                    first.append(cold)
                    again.append(warm)
                rows.append({"page": page_name, "first": median(first), "second": median(again), "runs": len(first)})
        finally:
            browser.close()
    return rows


def _two_visits(browser: Any, url: str, ready: str) -> tuple[float, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(JOIN_TIMEOUT_MS)
    try:
        page = context.new_page()
        devtools = context.new_cdp_session(page)
        devtools.send("Network.enable")
        received: list[int] = []
        devtools.on("Network.loadingFinished", lambda event: received.append(int(event["encodedDataLength"])))

        def fetched() -> float:
            expect(page.get_by_test_id(ready).first).to_be_visible(timeout=JOIN_TIMEOUT_MS)
            page.wait_for_load_state("networkidle")
            return float(sum(received))

        page.goto(url)
        cold = fetched()
        received.clear()
        page.reload()
        return cold, fetched()
    finally:
        context.close()


def second_visit_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| page | first visit (KiB) | second visit, cache kept (KiB) | runs |", "|---|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['page']} | {cell(row['first'], KIB)} | {cell(row['second'], KIB, 1)} | {row['runs']} |")
    return "\n".join(lines)


def ready_times(urls: dict[str, list[str]], runs: int) -> list[dict[str, Any]]:
    """Seconds from the start of each page's navigation until it is ready to use (:data:`READY`), with
    Chromium's CPU and network throttled as Lighthouse's mobile profile; the median over ``runs`` fresh
    browser contexts (the kernel's websocket included, which Lighthouse does not wait for)."""
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for page_name, addresses in urls.items():
                times = [_ready_time(browser, url, READY[page_name]) for url in addresses[:runs]]
                print(f"{page_name} ready: {', '.join(f'{t:.1f} s' for t in times)}", flush=True)
                rows.append({"page": page_name, "ready": median(list(times)), "runs": len(times)})
        finally:
            browser.close()
    return rows


def _ready_time(browser: Any, url: str, ready: str) -> float:
    context = browser.new_context(viewport={"width": 412, "height": 823}, is_mobile=True, has_touch=True)
    context.set_default_timeout(JOIN_TIMEOUT_MS)
    try:
        page = context.new_page()
        devtools = context.new_cdp_session(page)
        devtools.send("Network.enable")
        devtools.send("Network.setCacheDisabled", {"cacheDisabled": True})
        devtools.send("Network.emulateNetworkConditions", READY_NETWORK)
        devtools.send("Emulation.setCPUThrottlingRate", {"rate": READY_CPU_SLOWDOWN})
        began = time.monotonic()
        page.goto(url, wait_until="commit")
        expect(page.get_by_test_id(ready).first).to_be_enabled(timeout=JOIN_TIMEOUT_MS * 2)
        return time.monotonic() - began
    finally:
        context.close()


def ready_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| page | ready to use, mobile throttling (s) | runs |", "|---|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['page']} | {cell(row['ready'], 1.0, 1)} | {row['runs']} |")
    return "\n".join(lines)


def chosen_presets(text: str) -> list[str]:
    presets = [p.strip() for p in text.split(",") if p.strip()]
    unknown = sorted(set(presets) - set(PRESETS))
    if unknown or not presets:
        raise SystemExit(f"unknown preset(s) {', '.join(unknown) or '(none)'}: choose among {', '.join(PRESETS)}")
    return [p for p in PRESETS if p in presets]


def chosen_pages(text: str) -> list[str]:
    pages = [p.strip() for p in text.split(",") if p.strip()]
    unknown = sorted(set(pages) - set(PAGES))
    if unknown:
        raise SystemExit(f"unknown page(s) {', '.join(unknown)}: choose among {', '.join(PAGES)}")
    return [p for p in PAGES if p in pages]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page and preset (median)")
    parser.add_argument("--pages", default=",".join(DEFAULT_PAGES), help="pages to measure, among " + ", ".join(PAGES))
    parser.add_argument(
        "--second-visits",
        action="store_true",
        help="measure only what each page fetches on a reload with its cache kept (Playwright, no Lighthouse)",
    )
    parser.add_argument("--presets", default=",".join(PRESETS), help="Lighthouse presets, among " + ", ".join(PRESETS))
    parser.add_argument(
        "--ready",
        action="store_true",
        help="measure only how long each page takes to be ready to use with mobile throttling (Playwright)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        help="also write the medians (ms, bytes, scores 0-100) and console errors to this JSON file",
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    pages = chosen_pages(args.pages)
    presets = chosen_presets(args.presets)
    if args.ready:
        with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as servers:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            ready = ready_times(page_urls(pages, args.runs, Path(tmp), servers), args.runs)
        print(f"\n## Ready to use, median of {args.runs} run(s)\n")
        print(ready_table(ready))
        return 0
    if args.second_visits:
        with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as servers:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            found = second_visits(page_urls(pages, args.runs, Path(tmp), servers), args.runs)
        print(f"\n## Second visits, median of {args.runs} run(s)\n")
        print(second_visit_table(found))
        return 0
    version = pinned_version()
    binary = install_lighthouse(version)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    rows: list[dict[str, Any]] = []
    errors: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as servers:
        urls = page_urls(pages, args.runs * len(presets), Path(tmp), servers)
        for page in [p for p in pages if p in urls]:
            errors[page] = []
            for index, preset in enumerate(presets):
                runs = measure(binary, page, preset, urls[page][index * args.runs : (index + 1) * args.runs])
                summary = medians(runs)
                target = TARGETS.get((page, preset))
                met = None if target is None else not target.missed(summary)
                rows.append({"page": page, "preset": preset, "runs": len(runs), "medians": summary, "target_met": met})
                for run in runs:
                    errors[page] += [text for text in run.console_errors if text not in errors[page]]
    print(f"\n## Lighthouse {version}, median of {args.runs} run(s) ({time.monotonic() - began:.0f} s)\n")
    print(table(rows))
    print()
    print(console_section(errors))
    if args.json:
        result = {"lighthouse": version, "runs": args.runs, "units": UNITS, "rows": rows, "console_errors": errors}
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0 if set(urls) == set(pages) else 1


if __name__ == "__main__":
    sys.exit(main())
