#!/usr/bin/env python3
"""Run the README's test command while the machine is kept busy (issue 18: steady under load).

    python3 scripts/loaded_suite.py [--runs 2] [--cpu 2] [-- extra pytest arguments]

Starts ``stress-ng --cpu N`` (Debian's ``stress-ng``; installed with apt-get
when it is missing and this runs as root), then runs ``python3 dev.py test``
``--runs`` times in a row from the checkout this script lives in, and stops
the load however the runs end.  Each run's exit status, wall time, pytest's
summary line and the load average are printed, then one JSON line of them
all, so a run that only passes on a quiet machine shows here.

A test that fails only here waits on time, not on a condition: fix its
timeout (wait for what it needs, longer), never this script.
``scripts/flake_hunt.py`` runs rounds with one busy core and names each test
that ever failed (its rounds run here, by :func:`run_streamed`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: pytest's last line: "1525 passed, 2 skipped in 1088.41s (0:18:08)".
SUMMARY = re.compile(r"^=+ (.*\bin [0-9.]+s.*) =+$")


def ensure_stress_ng() -> str:
    """The path of ``stress-ng``, installing Debian's package when root may."""
    found = shutil.which("stress-ng")
    if found:
        return found
    if shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "stress-ng"], check=True)
        found = shutil.which("stress-ng")
    if not found:
        sys.exit("loaded_suite.py: needs stress-ng (apt-get install stress-ng)")
    return found


def summary_line(output: str) -> str:
    """pytest's summary line in ``output``, or ``""``.

    >>> summary_line("x\\n===== 3 passed, 1 skipped in 12.50s =====\\n")
    '3 passed, 1 skipped in 12.50s'
    >>> summary_line("no summary")
    ''
    """
    for line in reversed(output.splitlines()):
        match = SUMMARY.match(line.strip())
        if match:
            return match.group(1)
    return ""


def run_once(extra: list[str], root: Path = ROOT) -> dict[str, object]:
    """One ``dev.py test`` run in the checkout ``root``; its output goes on to this terminal as it comes."""
    return run_streamed([sys.executable, str(root / "dev.py"), "test", *extra], root)


def run_streamed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> dict[str, object]:
    """Run ``cmd`` with its output passed on to this terminal as it comes: its exit status, wall time,
    pytest's summary line and the load average at its end (scripts/flake_hunt.py runs its rounds here too)."""
    started = time.monotonic()
    process = subprocess.Popen(
        cmd,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        sys.stdout.write(line)
        lines.append(line)
    status = process.wait()
    return {
        "exit": status,
        "wall_s": round(time.monotonic() - started, 1),
        "summary": summary_line("".join(lines)),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--cpu", type=int, default=2, help="stress-ng's CPU workers")
    parser.add_argument("extra", nargs="*", help="passed on to dev.py test (after --)")
    args = parser.parse_args()
    stress = subprocess.Popen([ensure_stress_ng(), "--cpu", str(args.cpu), "--quiet"])
    results = []
    try:
        for number in range(1, args.runs + 1):
            print(f"loaded_suite.py: run {number} of {args.runs} under stress-ng --cpu {args.cpu}", flush=True)
            results.append(run_once(args.extra))
    finally:
        stress.terminate()
        stress.wait(30)
    for number, result in enumerate(results, 1):
        print(f"loaded_suite.py: run {number}: exit {result['exit']}, {result['wall_s']} s, {result['summary']}")
    print(json.dumps({"cpu_load": args.cpu, "runs": results}))
    return max(int(str(result["exit"])) for result in results)


if __name__ == "__main__":
    sys.exit(main())
