"""What an open lesson page costs Chromium while nobody touches it (docs/PERFORMANCE.md, "The test suite").

    .venv/bin/python benchmarks/idle_page_cpu.py [--runs 3] [--seconds 10] [--lesson 01-beginner ...]

Starts ``caterpillar-learn serve`` on a free port and opens each lesson in
Debian's Chromium through Playwright, on a 1024 x 768 touch page, until the
thing to do now (``data-todo="true"``) is drawn.  Then, for ``--seconds``,
it adds up the CPU time of every Chromium process (the browser, its renderers,
its GPU and utility processes) while the page sits still, once with the
page's motion on and once with ``prefers-reduced-motion: reduce``, the runs
alternating on one browser.  The baseline is the reduced-motion page: the same
lesson at the same step with its pulse stopped.  Medians over the runs, as a
share of one core; nothing is asserted (not a timed test).

Headless Chromium here draws in software (``--disable-gpu``), so the figures
are an upper bound for a tablet's GPU; they are why the test suite's pages ask
for reduced motion (tests/conftest.py, ``StillBrowser``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.conftest import cli_command, free_port, start_server  # noqa: E402
from tests.browser.driver import RENDER_TIMEOUT  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

MOTIONS = ("no-preference", "reduce")


def chromium_seconds(seen: dict[tuple[int, float], float]) -> float:
    """CPU seconds of every Chromium process below this one so far (a process gone keeps its last reading)."""
    for process in psutil.Process().children(recursive=True):
        try:
            if "chrom" in process.name():
                times = process.cpu_times()
                seen[process.pid, process.create_time()] = times.user + times.system
        except psutil.Error:
            continue
    return sum(seen.values())


def idle_share(browser: object, url: str, lesson: str, motion: str, seconds: float) -> float:
    """Chromium's CPU over ``seconds`` of a still page, as a share of one core."""
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 1024, "height": 768}, has_touch=True, reduced_motion=motion
    )
    try:
        page = context.new_page()
        page.goto(f"{url}voila/render/{lesson}.ipynb", timeout=RENDER_TIMEOUT)
        page.wait_for_selector('[data-todo="true"]', timeout=RENDER_TIMEOUT)
        time.sleep(2.0)  # the first drawing and the kernel's first answers are over
        seen: dict[tuple[int, float], float] = {}
        before = chromium_seconds(seen)
        time.sleep(seconds)
        return (chromium_seconds(seen) - before) / seconds
    finally:
        context.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--lesson", nargs="+", default=["01-beginner", "10-raupe-shape"])
    args = parser.parse_args(argv)
    port = free_port()
    log = Path(tempfile.mkdtemp(prefix="idle-page-")) / "serve.log"
    server = start_server(
        [*cli_command(), "serve", "--no-browser", "--port", str(port)], f"http://localhost:{port}/", log
    )
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            print("| lesson | motion on | reduced motion (baseline) | runs |")
            print("|---|---:|---:|---:|")
            for lesson in args.lesson:
                shares: dict[str, list[float]] = {motion: [] for motion in MOTIONS}
                for _ in range(args.runs):
                    for motion in MOTIONS:
                        shares[motion].append(idle_share(browser, server.url, lesson, motion, args.seconds))
                on, still = (statistics.median(shares[motion]) for motion in MOTIONS)
                print(f"| {lesson} | {on:.1%} of a core | {still:.1%} | {args.runs} |", flush=True)
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
