"""The classroom server's memory after many page loads that never connect (docs/DEPLOY.md, "Memory").

    .venv/bin/python benchmarks/classroom_memory.py [--loads 5000] [--idle 60] [--warmup 50]

Starts ``caterpillar-learn classroom`` on a free port with a fresh data
folder and Bokeh's own unused-session lifetime (15 s), loads the pupils'
door (plain ``GET /join``, no websocket: a tablet that opens the address
and goes away, or a pupil pressing reload again and again) ``--warmup``
times, waits ``--idle`` seconds and takes the server's resident memory as
the baseline; then loads the door ``--loads`` times, one after the other,
waits ``--idle`` seconds, and takes it again.  Target: the second figure at
most 20 MB above the first.  Prints one JSON document; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import cli_command, free_port, start_server  # noqa: E402

#: The target of docs/DEPLOY.md: growth after the loads and the idle time (MB).
TARGET_MB = 20.0


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` (MB), from ``/proc``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def load(url: str) -> None:
    with urllib.request.urlopen(url, timeout=60) as answer:
        answer.read()


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5000)
    parser.add_argument("--idle", type=float, default=60.0)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--unopened-lifetime", type=float, default=None, help="the server's (default: its own)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="classroom-memory-"))
    port = free_port()
    extra = [] if args.unopened_lifetime is None else ["--unopened-lifetime", str(args.unopened_lifetime)]
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(folder / "data"), *extra]
    url = f"http://127.0.0.1:{port}/join"
    server = start_server(cmd, url, folder / "server.log")
    try:
        pid = server.process.pid
        started = rss_mb(pid)
        for _ in range(args.warmup):
            load(url)
        time.sleep(args.idle)
        baseline = rss_mb(pid)
        began = time.monotonic()
        peak = baseline
        for n in range(args.loads):
            load(url)
            if n % 100 == 0:
                peak = max(peak, rss_mb(pid))
        took = time.monotonic() - began
        peak = max(peak, rss_mb(pid))
        time.sleep(args.idle)
        after = rss_mb(pid)
    finally:
        server.stop()
    figures: dict[str, object] = {
        "loads": args.loads,
        "idle_s": args.idle,
        "rss_at_start_mb": round(started, 1),
        "baseline_mb": round(baseline, 1),
        "peak_mb": round(peak, 1),
        "after_idle_mb": round(after, 1),
        "growth_mb": round(after - baseline, 1),
        "target_mb": TARGET_MB,
        "met": after - baseline <= TARGET_MB,
        "loads_per_s": round(args.loads / took, 1),
    }
    print(json.dumps(figures, indent=1))
    return figures


if __name__ == "__main__":
    main()
