"""A class on one lesson: time to interactive, memory, hints, culling (docs/PERFORMANCE.md).

    .venv/bin/python benchmarks/voila_class.py [--pupils 30] [--lesson 04-expert] [--runs 1]

Each round starts ``caterpillar-learn serve --cull-after 120`` on a free port
and sends ``--pupils`` pupils to the same lesson at once, from one Debian
Chromium with one browser context (cookies, storage) per pupil, through
Playwright's async API.  In each page an init script records when the Roll
button becomes enabled.  Then every pupil rolls and asks for a hint, which
waits for the layout's exact solve.  Measured per round:

* **interactive**: each page's time from its navigation start to the enabled
  Roll button (median, range) and when the last pupil's page became
  interactive (from the moment the pupils started);
* **first hints**: when the last pupil saw a hint (all solves done);
* **memory with the class**: the sum of the resident memory (RSS) of the
  server and its kernels, and the sum of their proportional set sizes (PSS:
  memory shared between processes, such as a mapped solve table, counted
  once overall), and the kernels' CPU seconds;
* **after culling**: every context is closed without the page's goodbye, as
  a tablet drops a tab; the server's culler stops the kernels; the time until
  none is left, and the memory then.

Server logs (and a screenshot of any page that failed to become interactive
within 5 minutes) go to ``artifacts/voila_class/``.

Before the rounds, one lesson kernel (started as ``serve`` starts them) plays
``--new-games`` "New game"s with a hint each, with and without a cache
folder, and its resident memory is printed after each.

Rounds, each in a fresh server: ``cold`` (the default: kernels share solves
through a folder that starts empty), ``warm`` (the same folder, already
filled), and the baseline ``off`` (``--solve-cache off``: every kernel solves
for itself, as before the shared cache).  Chromium runs on the same 2 cores
and slows the server down; a class's tablets would not.  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
from playwright.async_api import Browser, BrowserContext, async_playwright  # noqa: E402

from tests.browser.conftest import Server, cli_command, free_port, start_server  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

MODES = ("cold", "warm", "off")
#: Server logs of every round, and a screenshot of any page that failed (ignored by git).
LOGS = ROOT / "artifacts" / "voila_class"
#: Long enough that no page still opening on the loaded machine loses its kernel (20 s was not).
CULL_AFTER = 120
TIMEOUT_MS = 300_000
# Runs in every page before its scripts: the epoch time (ms) at which the Roll button is first enabled.
WATCH = """(() => {
  const timer = setInterval(() => {
    const button = document.querySelector('[data-testid="roll-button"]');
    if (button && !button.disabled) {
      window.__clInteractive = performance.timeOrigin + performance.now();
      clearInterval(timer);
    }
  }, 20);
})();"""


def now_ms() -> float:
    return time.time() * 1000


def kernels(server: Server) -> list[psutil.Process]:
    found = []
    for child in psutil.Process(server.process.pid).children(recursive=True):
        try:
            if "ipykernel_launcher" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            continue
    return found


def memory(server: Server) -> dict[str, float]:
    """MB of RSS and PSS summed over the server and its kernels; the kernels' CPU seconds."""
    main = psutil.Process(server.process.pid)
    rss = pss = cpu = 0.0
    live = kernels(server)
    for process in [main, *live]:
        try:
            info = process.memory_full_info()
            rss += info.rss / 1e6
            pss += info.pss / 1e6
            if process is not main:
                times = process.cpu_times()
                cpu += times.user + times.system
        except psutil.Error:
            continue
    return {"rss": rss, "pss": pss, "kernels": len(live), "kernel_cpu": cpu}


async def pupil(browser: Browser, url: str, start: float) -> tuple[BrowserContext, dict[str, float]]:
    """One pupil: open the lesson, wait until it can be played, roll, ask for a hint."""
    context = await browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(TIMEOUT_MS)
    await context.add_init_script(WATCH)
    page = await context.new_page()
    complaints: list[str] = []
    page.on("console", lambda msg: complaints.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: complaints.append(str(error)))
    began = now_ms()
    try:
        await page.goto(url, timeout=TIMEOUT_MS)
        await page.wait_for_function("window.__clInteractive", timeout=TIMEOUT_MS, polling=50)
        interactive = float(await page.evaluate("window.__clInteractive"))
        await page.get_by_test_id("roll-button").click()
        await page.get_by_test_id("hint-button").click()
        await page.locator('[data-testid="hint"] li.cl-best').first.wait_for(timeout=TIMEOUT_MS)
    except Exception as error:
        shot = LOGS / f"failed-{int(began)}.png"
        await page.screenshot(path=str(shot), full_page=True)
        raise RuntimeError(f"{error}; page errors: {complaints[-5:]}; screenshot {shot}") from error
    hinted = now_ms()
    return context, {"tti": interactive - began, "interactive_at": interactive - start, "hint_at": hinted - start}


async def class_round(browser: Browser, url: str, pupils: int, server: Server) -> dict[str, Any]:
    rest = memory(server)
    start = now_ms()
    outcomes = await asyncio.gather(*(pupil(browser, url, start) for _ in range(pupils)), return_exceptions=True)
    with_class = memory(server)
    results = [o for o in outcomes if not isinstance(o, BaseException)]
    failed = [o for o in outcomes if isinstance(o, BaseException)]
    for error in failed:
        print(f"a pupil's page failed: {str(error).splitlines()[0]}", flush=True)
    contexts = [*(context for context, _ in results), *browser.contexts]
    figures = [f for _, f in results]
    closed = time.monotonic()
    for context in dict.fromkeys(contexts):
        await context.close()  # no beforeunload: the page never says goodbye
    while memory(server)["kernels"] and time.monotonic() - closed < 10 * CULL_AFTER + 120:
        await asyncio.sleep(0.5)
    culled_after = time.monotonic() - closed
    after = memory(server)
    return {
        "failed": len(failed),
        "tti": [f["tti"] for f in figures],
        "last_interactive": max(f["interactive_at"] for f in figures),
        "last_hint": max(f["hint_at"] for f in figures),
        "rest": rest,
        "class": with_class,
        "culled_after": culled_after,
        "after": after,
    }


def serve_round(mode: str, lesson: str, pupils: int, cache: Path, run: int) -> dict[str, Any]:
    """One round in a fresh server; its log goes to :data:`LOGS`."""
    port = free_port()
    solve_cache = ["--solve-cache", "off"] if mode == "off" else ["--solve-cache", str(cache)]
    command = [
        *cli_command(),
        "serve",
        "--no-browser",
        "--port",
        str(port),
        "--cull-after",
        str(CULL_AFTER),
        "--max-kernels",
        str(pupils + 10),
        *solve_cache,
    ]
    LOGS.mkdir(parents=True, exist_ok=True)
    server = start_server(command, f"http://localhost:{port}/", LOGS / f"serve-run{run}-{mode}.log")
    try:

        async def run() -> dict[str, Any]:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                try:
                    url = f"http://localhost:{port}/voila/render/{lesson}.ipynb"
                    return await class_round(browser, url, pupils, server)
                finally:
                    await browser.close()

        return asyncio.run(run())
    finally:
        server.stop()


NEW_GAMES_CODE = """
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
from caterpillar_learn.ui.caterpillars.advice import join_background_solves
lesson = CaterpillarsLesson({lesson!r})
display(lesson)
join_background_solves()
"""
NEW_GAME_CODE = """
lesson.act("new_game"); join_background_solves(); lesson.act("roll"); lesson.act("hint")
assert lesson.hint["status"] == "ready", lesson.hint
"""


def new_game_memory(lesson: str, games: int, cache: Path | None) -> list[float]:
    """RSS (MB) of one lesson kernel after each of ``games`` "New game"s, each followed by a hint."""
    from jupyter_client.manager import start_new_kernel

    from caterpillar_learn.advice import disk_cache
    from caterpillar_learn.ui.hosting.serve import KERNEL_NAME, pinned_kernel

    env = {k: v for k, v in os.environ.items() if k != disk_cache.ENV}
    if cache is not None:
        env[disk_cache.ENV] = str(cache)
    with pinned_kernel():
        manager, client = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=120, env=env)
    try:
        process = psutil.Process(manager.provisioner.process.pid)

        def run(code: str) -> None:
            reply = client.execute_interactive(code, timeout=600, output_hook=lambda msg: None)
            if reply["content"]["status"] != "ok":
                raise RuntimeError(reply["content"])

        run(NEW_GAMES_CODE.format(lesson=lesson))
        resident = [process.memory_info().rss / 1e6]
        for _ in range(games):
            run(NEW_GAME_CODE)
            resident.append(process.memory_info().rss / 1e6)
        return resident
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def per_kernel(result: dict[str, Any]) -> float:
    grown: float = result["class"]["rss"] - result["rest"]["rss"]
    return grown / max(1, result["class"]["kernels"])


def spread(values: list[float], unit: str = "", digits: int = 0) -> str:
    if len(values) == 1:
        return f"{values[0]:.{digits}f}{unit}"
    return f"{statistics.median(values):.{digits}f}{unit} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def report(rounds: dict[str, list[dict[str, Any]]], pupils: int) -> None:
    rows = [
        ("page → Roll enabled, per pupil (s)", lambda r: r["tti"], 1, 1000.0),
        ("last pupil interactive (s)", lambda r: [r["last_interactive"]], 1, 1000.0),
        ("last pupil's first hint (s)", lambda r: [r["last_hint"]], 1, 1000.0),
        ("kernels' CPU with the class (s)", lambda r: [r["class"]["kernel_cpu"]], 0, 1.0),
        ("RSS sum, server at rest (MB)", lambda r: [r["rest"]["rss"]], 0, 1.0),
        (f"RSS sum with {pupils} pupils (MB)", lambda r: [r["class"]["rss"]], 0, 1.0),
        (f"PSS sum with {pupils} pupils (MB)", lambda r: [r["class"]["pss"]], 0, 1.0),
        ("(RSS with the class − at rest) / kernels (MB)", lambda r: [per_kernel(r)], 0, 1.0),
        ("closed → all culled (s)", lambda r: [r["culled_after"]], 0, 1.0),
        ("RSS sum after culling (MB)", lambda r: [r["after"]["rss"]], 0, 1.0),
        ("kernels left after culling", lambda r: [r["after"]["kernels"]], 0, 1.0),
        ("pupils whose page failed", lambda r: [r["failed"]], 0, 1.0),
    ]
    modes = [m for m in MODES if rounds.get(m)]
    print("| measure | " + " | ".join(modes) + " |")
    print("|---|" + "---:|" * len(modes))
    for name, pick, digits, scale in rows:
        cells = []
        for mode in modes:
            values = [v / scale for r in rounds[mode] for v in pick(r)]
            cells.append(spread(values, digits=digits))
        print(f"| {name} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--lesson", default="04-expert")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--modes", default=",".join(MODES), help="rounds to run, among " + ", ".join(MODES))
    parser.add_argument("--new-games", type=int, default=5, help="'New game's in the one-kernel memory check (0: skip)")
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    if args.new_games:
        with tempfile.TemporaryDirectory() as tmp:
            for name, cache in (("shared", Path(tmp)), ("off", None)):
                resident = new_game_memory(args.lesson, args.new_games, cache)
                shown = ", ".join(f"{r:.0f}" for r in resident)
                print(f"one {args.lesson} kernel, solves {name}: RSS after the lesson and each new game: {shown} MB")
    rounds: dict[str, list[dict[str, Any]]] = {m: [] for m in modes}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for run in range(args.runs):
            cache = folder / f"solved-{run}"  # "cold" starts it empty, "warm" finds it filled
            for mode in modes:
                began = time.monotonic()
                result = serve_round(mode, args.lesson, args.pupils, cache, run + 1)
                rounds[mode].append(result)
                print(
                    f"run {run + 1} {mode}: last interactive {result['last_interactive'] / 1000:.1f} s, "
                    f"last hint {result['last_hint'] / 1000:.1f} s, RSS {result['class']['rss']:.0f} MB, "
                    f"after culling {result['after']['rss']:.0f} MB ({time.monotonic() - began:.0f} s)",
                    flush=True,
                )
    if modes:
        print(f"\n## {args.lesson}, {args.pupils} pupils, {args.runs} run(s)\n")
        report(rounds, args.pupils)
    return 0


if __name__ == "__main__":
    sys.exit(main())
