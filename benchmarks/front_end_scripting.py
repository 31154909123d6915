"""The browser's scripting while a child plays, with the CPU slowed 4× (issue 28, "One way to draw").

    .venv/bin/python benchmarks/front_end_scripting.py [--runs 3] [--seconds 20] [--root DIR] [--baseline DIR]
        [--json FILE]

Measures the code of the checkout at ``--root`` (default: this repository), so the same script measures an
old commit from another folder (``git worktree add /tmp/before <commit>``): ``caterpillar-learn serve`` runs
with this interpreter but with ``PYTHONPATH=<root>`` first and ``cwd=<root>``, so the kernel's widgets (and
the ES modules they link from ``<root>/widgets``) are that checkout's.  With ``--baseline DIR`` a second
server runs that checkout's code in the same run, the two alternate run by run, and the ratios of the
medians (now / baseline) are printed: the figure to quote on a shared, noisy machine.
The script prints which code it found (the package's file, and whether the linked Caterpillars module
still rebuilds by ``replaceChildren`` or draws with preact).

The server serves a temporary folder with two notebooks:

* ``bench-beginner``: a plain Beginner board (``CaterpillarsBoard("beginner", seed=1)``, setup done by
  itself), played as free play for one whole 12-round game by taps: roll, then tap the first starred box (a
  second tap when the first one only armed it), and the first option when a box opens its menu;
* ``15-raupe-race`` (the lesson's own notebook): the race started, then played for ``--seconds``: whenever
  the engine, replayed from the record the page shows, says one of the child's cards fits, that card is
  tapped (turned first, and the calls it needs pressed); after a winner, New game.

Each run is a fresh page in Debian's Chromium (the test suite's launch flags), its CPU slowed 4× by CDP
(``Emulation.setCPUThrottlingRate``) once the page has drawn.  Around the play the script reads CDP's
``Performance.getMetrics`` (ScriptDuration, TaskDuration, LayoutDuration: the page's main thread, in
seconds, cumulative) and a ``longtask`` PerformanceObserver installed before the page loads: the tasks
over 50 ms, their total duration, and their blocking time (the part of each beyond 50 ms).  The pages ask for
reduced motion, as the test suite's do, so the lesson's pulse does not fill the figures.  The driver's own
waits run a little script in the page too (polled every 100 ms, alike before and after).  Medians over the
runs, in milliseconds; a table as text and the whole as JSON.  Nothing is asserted (not a timed test).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from caterpillar_learn.raupe import Game, legal_plays  # noqa: E402
from tests.browser.conftest import Server, free_port, start_server  # noqa: E402
from tests.browser.driver import RENDER_TIMEOUT  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

THROTTLE = 4
BOARD = "bench-beginner"
RACE = "15-raupe-race"
METRICS = ("ScriptDuration", "TaskDuration", "LayoutDuration")
STEP_TIMEOUT = 60_000  # ms: one kernel round trip and its drawing on a 4× slower CPU, on a shared machine

# Long tasks from the page's start; `mark()` reads them so far.
LONG_TASKS_JS = """(() => {
  window.__benchLong = { count: 0, total: 0, blocking: 0 };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        window.__benchLong.count += 1;
        window.__benchLong.total += entry.duration;
        window.__benchLong.blocking += Math.max(0, entry.duration - 50);
      }
    }).observe({ type: "longtask", buffered: true });
  } catch (error) { /* no longtask entries in this browser */ }
})();"""

# What the Beginner board asks for now, once Python has answered (no root busy): "end", "menu", "ghost"
# (a box armed by a first tap), "move" (starred boxes), "roll", or false (not yet).
BOARD_STATE_JS = """() => {
  const q = (id) => document.querySelector(`[data-testid="${id}"]`);
  if (document.querySelector('.cl-root[aria-busy="true"]')) return false;
  if (q("final-score")) return "end";
  if (q("move-option")) return "menu";
  if (q("ghost-score")) return "ghost";
  if (q("legal-move")) return "move";
  const roll = q("roll-button");
  if (roll && !roll.disabled) return "roll";
  return false;
}"""

NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": [
                "from caterpillar_learn.ui.caterpillars.widget import CaterpillarsBoard\n",
                "\n",
                'CaterpillarsBoard("beginner", seed=1)',
            ],
        }
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}

# Run with the measured checkout's code: which package, and how its Caterpillars module draws.
WHICH_CODE = """
import json, caterpillar_learn
from caterpillar_learn.ui.assets import es_module
text = es_module("caterpillars.js")
print(json.dumps({"package": caterpillar_learn.__file__, "replaceChildren": "root.replaceChildren" in text,
                  "preact": "preact" in text}))
"""


def code_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def which_code(root: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", WHICH_CODE], cwd=root, env=code_env(root), capture_output=True, text=True, check=True
    )
    found: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return found


def serve(root: Path, folder: Path) -> Server:
    """``caterpillar-learn serve`` of ``folder`` with ``root``'s code (this interpreter, ``root`` first)."""
    port = free_port()
    cmd = [sys.executable, "-m", "caterpillar_learn.cli", "serve", "--no-browser", "--port", str(port)]
    cmd += ["--lessons", str(folder)]
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = code_env(root)["PYTHONPATH"]  # start_server's process inherits it
    try:
        return start_server(cmd, f"http://localhost:{port}/", folder.parent / "serve.log", cwd=root)
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def snapshot(page: Page, cdp: Any) -> dict[str, float]:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    taken = {name: metrics.get(name, 0.0) * 1000 for name in METRICS}
    long = page.evaluate("() => window.__benchLong || { count: 0, total: 0, blocking: 0 }")
    taken.update({"long_tasks": long["count"], "long_total": long["total"], "long_blocking": long["blocking"]})
    return taken


def play_board(page: Page) -> int:
    """One whole Beginner game by taps; the number of taps."""
    for taps in range(200):
        state = page.wait_for_function(BOARD_STATE_JS, polling=100, timeout=STEP_TIMEOUT).json_value()
        if state == "end":
            return taps
        if state == "roll":
            page.get_by_test_id("roll-button").tap()
        elif state == "menu":
            page.get_by_test_id("move-option").first.tap()
        else:  # "move" or "ghost": the first starred box (a second tap writes an armed box)
            page.get_by_test_id("legal-move").first.tap()
        page.wait_for_timeout(150)  # the tap's event has left; the next wait sees the page busy or answered
    raise RuntimeError("the Beginner game never ended")


def record(page: Page) -> dict[str, Any]:
    text = page.get_by_test_id("raupe-record").text_content() or "{}"
    found: dict[str, Any] = json.loads(text)
    return found


def my_plays(found: dict[str, Any]) -> int:
    return sum(1 for event in found.get("events", []) if event.get("play") == 0)


def play_race(page: Page, seconds: float) -> int:
    """The race for ``seconds``: every card that fits is tapped as soon as it fits; the number of plays."""
    page.get_by_test_id("raupe-start").tap()
    plays = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.get_by_test_id("raupe-winner").count():
            page.get_by_test_id("raupe-start").tap()  # New game
            page.wait_for_timeout(500)
            continue
        found = record(page)
        state = Game.from_json(found).state
        options = legal_plays(state, 0)
        if not options:
            page.wait_for_timeout(250)
            continue
        option = options[0]
        card = state.hands[0][option.card]
        try:
            shown = page.locator(f'[data-testid="raupe-card"][data-index="{option.card}"]')
            if shown.get_attribute("data-side", timeout=2000) != str(option.side):
                page.locator(f'[data-testid="raupe-flip"][data-index="{option.card}"]').tap(timeout=2000)
                page.wait_for_timeout(150)
            calls = (["aphid"] if state.aphid_owed else []) + ([state.mode.other.word] if card.is_change else [])
            for word in calls:
                page.get_by_test_id(f"raupe-call-{word}").tap(timeout=2000)
            before = my_plays(found)
            shown.tap(timeout=2000)
            page.wait_for_function(
                "([n]) => { const r = JSON.parse(document.querySelector('[data-testid=\"raupe-record\"]')"
                ".textContent || '{}'); return (r.events || []).filter((e) => e.play === 0).length > n; }",
                arg=[before],
                polling=100,
                timeout=3000,
            )
            plays += 1
        except Exception:  # the table moved on under the finger (a bot played first): look again
            page.wait_for_timeout(100)
    return plays


def measure(browser: Browser, url: str, scenario: str, seconds: float) -> dict[str, float]:
    # Reduced motion, as the test suite's pages (tests/conftest.py): the pulse's frames would drown the drawing.
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, has_touch=True, reduced_motion="reduce")
    context.add_init_script(LONG_TASKS_JS)
    context.set_default_timeout(STEP_TIMEOUT)
    try:
        page = context.new_page()
        notebook = BOARD if scenario == "beginner" else RACE
        page.goto(f"{url}voila/render/{notebook}.ipynb", timeout=RENDER_TIMEOUT)
        ready = "roll-button" if scenario == "beginner" else "raupe-start"
        page.get_by_test_id(ready).wait_for(timeout=RENDER_TIMEOUT)
        page.wait_for_timeout(1000)  # the first drawing and the kernel's first answers are over
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        cdp.send("Performance.enable")
        before = snapshot(page, cdp)
        start = time.perf_counter()
        count = play_board(page) if scenario == "beginner" else play_race(page, seconds)
        wall = (time.perf_counter() - start) * 1000
        after = snapshot(page, cdp)
        result = {key: after[key] - before[key] for key in after}
        result.update({"wall": wall, "actions": count})
        return result
    finally:
        context.close()


KEYS = (
    ("ScriptDuration", "script ms"),
    ("TaskDuration", "task ms"),
    ("LayoutDuration", "layout ms"),
    ("long_tasks", "long tasks"),
    ("long_total", "long-task ms"),
    ("long_blocking", "blocking ms (>50)"),
    ("wall", "wall ms"),
    ("actions", "taps / plays"),
)


def table(medians: dict[str, dict[str, float]]) -> str:
    lines = ["| scenario | " + " | ".join(label for _, label in KEYS) + " |", "|---|" + "---:|" * len(KEYS)]
    for scenario, values in medians.items():
        lines.append(f"| {scenario} | " + " | ".join(f"{values[key]:,.0f}" for key, _ in KEYS) + " |")
    return "\n".join(lines)


def describe_code(label: str, root: Path) -> dict[str, Any]:
    code = which_code(root)
    print(
        f"{label}: {root} ({code['package']}); caterpillars.js: "
        f"{'rebuilds by replaceChildren' if code['replaceChildren'] else 'no root.replaceChildren'}"
        f"{', preact' if code['preact'] else ''}",
        flush=True,
    )
    return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the race is played")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code is measured")
    parser.add_argument(
        "--baseline", type=Path, help="a checkout measured in the same run, alternating with --root (ratios)"
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    codes = {"now": args.root.resolve()}
    if args.baseline:
        codes = {"baseline": args.baseline.resolve(), **codes}
    found = {label: describe_code(label, root) for label, root in codes.items()}
    scenarios = {"beginner": "Beginner game, 12 rounds by taps", "race": f"Räuber Raupe race, {args.seconds:.0f} s"}
    runs: dict[str, dict[str, list[dict[str, float]]]] = {label: {name: [] for name in scenarios} for label in codes}
    with tempfile.TemporaryDirectory(prefix="front-end-") as tmp:
        servers: dict[str, Server] = {}
        try:
            for label, root in codes.items():
                folder = Path(tmp) / label
                folder.mkdir()
                (folder / f"{BOARD}.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
                (folder / f"{RACE}.ipynb").symlink_to(root / "lessons" / f"{RACE}.ipynb")
                servers[label] = serve(root, folder)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                # The codes and the scenarios alternate, so the machine's drift hits all of them alike.
                for run in range(args.runs):
                    for name in scenarios:
                        for label in codes:
                            runs[label][name].append(measure(browser, servers[label].url, name, args.seconds))
                            shown = runs[label][name][-1]
                            print(
                                f"run {run + 1} {label} {name}: script {shown['ScriptDuration']:.0f} ms, task "
                                f"{shown['TaskDuration']:.0f} ms, {shown['long_tasks']:.0f} long tasks",
                                flush=True,
                            )
                browser.close()
        finally:
            for server in servers.values():
                server.stop()
    medians = {
        label: {
            scenarios[name]: {key: statistics.median(run[key] for run in values) for key, _ in KEYS}
            for name, values in by_scenario.items()
        }
        for label, by_scenario in runs.items()
    }
    for label in codes:
        print(f"\n## {label}: scripting with the CPU slowed {THROTTLE}×, medians of {args.runs} runs\n")
        print(table(medians[label]))
    ratios: dict[str, dict[str, float | None]] = {}
    if args.baseline:
        for title in scenarios.values():
            before, after = medians["baseline"][title], medians["now"][title]
            ratios[title] = {key: (after[key] / before[key] if before[key] else None) for key, _ in KEYS}
        print("\n## now / baseline (medians)\n")
        for title, values in ratios.items():
            said = ", ".join(f"{key} {value:.2f}" for key, value in values.items() if value is not None)
            print(f"- {title}: {said}")
    report = {
        "codes": {label: str(root) for label, root in codes.items()},
        "found": found,
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, load {os.getloadavg()[0]:.1f}, "
        f"CPython {platform.python_version()}",
        "throttle": THROTTLE,
        "runs": runs,
        "medians": medians,
        "ratios": ratios,
    }
    print("\n" + json.dumps({k: report[k] for k in ("codes", "date", "machine", "medians", "ratios")}, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
