#!/usr/bin/env python3
"""Run the browser and classroom tests again and again beside a busy core, and name every test that ever failed
(issue 41: a suite that cannot flake).

    python3 scripts/flake_hunt.py                          # 3 rounds of tests/browser and tests/classroom
    python3 scripts/flake_hunt.py --until-clean 3 --rounds 10
    python3 scripts/flake_hunt.py --rounds 1 tests/classroom -- -k "lesson_clock or refusals"
    python3 scripts/flake_hunt.py --fresh-clone --rounds 3  # the README's command in a clone of HEAD
    python3 scripts/flake_hunt.py --load-cores 0            # no load: a quiet machine's rounds

The load is ``--load-cores`` (1 by default) plain Python busy loops (``while True: pass``), one process per
core, started before the first round and stopped after the last: on this project's 2-core machines one
core is taken and the tests share the other.  No stress-ng is needed (scripts/loaded_suite.py puts
``stress-ng`` on every core instead).

Each round is pytest in this checkout's ``.venv`` with dev.py's pytest-xdist options (4 workers,
``--dist loadfile``), the paths given (``tests/browser tests/classroom`` by default) and the arguments
after ``--``.  With ``--fresh-clone``, HEAD is cloned into a temporary folder and each round is
``python3 dev.py test`` there (linters, a virtualenv of its own made by the first round, the whole suite
unless paths are given).  Either way pytest writes a JUnit XML file a round, and from those this prints a
table of each test that ever failed: the rounds it failed in out of the rounds run, and its first failure's
first line.  ``--json PATH`` writes the same as JSON (every round's exit status, time and summary line).

``--rounds N`` runs N rounds; with ``--until-clean K`` it stops as soon as K rounds in a row passed and
runs N rounds at most.  The exit status is 0 only if the last K rounds (all N without ``--until-clean``)
passed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _folder in (ROOT, HERE):  # dev.py (its pytest options) and loaded_suite.py (a run, streamed)
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

import loaded_suite  # noqa: E402

import dev  # noqa: E402

DEFAULT_PATHS = ("tests/browser", "tests/classroom")
#: The load beside the tests: one of these processes a core, each keeping its core busy until stopped.
BUSY_LOOP = "while True: pass"


@dataclass
class Failure:
    """One test that failed in at least one round."""

    test: str
    rounds: list[int] = field(default_factory=list)
    #: The first line of each failure, in the order of the rounds.
    lines: list[str] = field(default_factory=list)


def test_id(classname: str, name: str) -> str:
    """pytest's id of a test from JUnit's ``classname`` and ``name``: the module as a path, then any class.

    >>> test_id("tests.classroom.test_server", "test_flood[de]")
    'tests/classroom/test_server.py::test_flood[de]'
    >>> test_id("tests.browser.test_x.TestDoor", "test_opens")
    'tests/browser/test_x.py::TestDoor::test_opens'
    >>> test_id("", "tests.browser")
    'tests.browser'
    """
    if not classname:
        return name
    parts = classname.split(".")
    classes = next((i for i, part in enumerate(parts) if part[:1].isupper()), len(parts))
    module = "/".join(parts[:classes]) + ".py"
    return "::".join([module, *parts[classes:], name])


def first_line(text: str | None) -> str:
    """The first line of a failure's message that says something.

    >>> first_line("\\n  AssertionError: the pile never grew\\n  assert 1 == 2")
    'AssertionError: the pile never grew'
    >>> first_line(None)
    '(no message)'
    """
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return "(no message)"


def failures_in(junit_xml: str) -> dict[str, str]:
    """Each test that failed or errored in one JUnit XML report, with its failure's first line.

    A test that failed in its call and again in its tear-down keeps the first.  Skipped tests pass.

    >>> failures_in('''<testsuites><testsuite>
    ...   <testcase classname="tests.classroom.test_a" name="test_ok"/>
    ...   <testcase classname="tests.classroom.test_a" name="test_skip"><skipped message="no"/></testcase>
    ...   <testcase classname="tests.classroom.test_a" name="test_bad">
    ...     <failure message="AssertionError: late&#10;assert 0">long text</failure></testcase>
    ... </testsuite></testsuites>''')
    {'tests/classroom/test_a.py::test_bad': 'AssertionError: late'}
    """
    found: dict[str, str] = {}
    for case in ET.fromstring(junit_xml).iter("testcase"):
        for outcome in case:
            if outcome.tag in ("failure", "error"):
                test = test_id(case.get("classname", ""), case.get("name", ""))
                found.setdefault(test, first_line(outcome.get("message") or outcome.text))
    return found


def gather(rounds: list[dict[str, str]]) -> list[Failure]:
    """The tests that ever failed, from each round's failures (round 1 first), most often failed first.

    >>> [(f.test, f.rounds, f.lines) for f in gather([{"a": "x"}, {}, {"a": "y", "b": "z"}])]
    [('a', [1, 3], ['x', 'y']), ('b', [3], ['z'])]
    """
    failures: dict[str, Failure] = {}
    for number, failed in enumerate(rounds, 1):
        for test, line in failed.items():
            failure = failures.setdefault(test, Failure(test))
            failure.rounds.append(number)
            failure.lines.append(line)
    return sorted(failures.values(), key=lambda failure: (-len(failure.rounds), failure.test))


def table(failures: list[Failure], rounds_run: int, width: int = 100) -> str:
    """The report: a line a test that ever failed (rounds failed / rounds run, its first failure's first line).

    >>> print(table([Failure("tests/a.py::test_b", [2], ["AssertionError: late"])], 3))
    test                 failed   first failure
    tests/a.py::test_b   1 / 3    AssertionError: late
    >>> print(table([], 2))
    no test failed in 2 rounds
    """
    if not failures:
        return f"no test failed in {rounds_run} round{'s' * (rounds_run != 1)}"
    rows = [("test", "failed", "first failure")]
    rows += [(f.test, f"{len(f.rounds)} / {rounds_run}", f.lines[0]) for f in failures]
    wide = [max(len(row[column]) for row in rows) for column in (0, 1)]
    return "\n".join(f"{test:<{wide[0]}}   {count:<{wide[1]}}   {line[:width]}".rstrip() for test, count, line in rows)


def clean_tail(exits: list[int]) -> int:
    """How many rounds in a row passed at the end.

    >>> clean_tail([1, 0, 0]), clean_tail([0, 1]), clean_tail([])
    (2, 0, 0)
    """
    count = 0
    for status in reversed(exits):
        if status:
            break
        count += 1
    return count


def start_load(cores: int) -> list[subprocess.Popen[bytes]]:
    """``cores`` busy-loop processes (this Python), each keeping one core busy until it is stopped."""
    return [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(cores)]


def stop_load(load: list[subprocess.Popen[bytes]]) -> None:
    for process in load:
        process.kill()
        process.wait()


def clone_head(folder: Path) -> Path:
    """A fresh clone of this checkout's HEAD (committed work only) in ``folder``."""
    clone = folder / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    return clone


def round_command(junit: Path, paths: list[str], extra: list[str], clone: Path | None) -> tuple[list[str], Path]:
    """One round's command and its folder: pytest in this checkout's .venv, or ``dev.py test`` in ``clone``."""
    if clone is not None:
        return [sys.executable, str(clone / "dev.py"), "test", f"--junitxml={junit}", *paths, *extra], clone
    pytest_args = [f"--junitxml={junit}", *paths, *extra]
    return [str(dev.BIN / "python"), "-m", "pytest", *dev._workers(pytest_args), *pytest_args], ROOT


def hunt(args: argparse.Namespace, clone: Path | None, reports: Path) -> tuple[list[dict[str, object]], list[Failure]]:
    """The rounds, beside the load: each round's run (exit status, time, summary, failed tests), and the
    failures of them all."""
    paths = args.paths or ([] if clone else list(DEFAULT_PATHS))
    runs: list[dict[str, object]] = []
    found: list[dict[str, str]] = []
    load = start_load(args.load_cores)
    try:
        for number in range(1, args.rounds + 1):
            junit = reports / f"round-{number}.xml"
            cmd, cwd = round_command(junit, paths, args.extra, clone)
            print(f"flake_hunt.py: round {number} of at most {args.rounds}, {args.load_cores} core(s) busy", flush=True)
            run = loaded_suite.run_streamed(cmd, cwd, env=dev._test_env())
            failed = failures_in(junit.read_text(encoding="utf-8")) if junit.exists() else {}
            if int(str(run["exit"])) and not failed:
                failed = {f"(round {number}: pytest)": f"exit status {run['exit']}, no failed test reported"}
            run["failed"] = sorted(failed)
            runs.append(run)
            found.append(failed)
            if args.until_clean and clean_tail([int(str(r["exit"])) for r in runs]) >= args.until_clean:
                break
    finally:
        stop_load(load)
    return runs, gather(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds to run (with --until-clean: at most)")
    parser.add_argument("--until-clean", type=int, default=0, metavar="K", help="stop after K passing rounds in a row")
    parser.add_argument("--load-cores", type=int, default=1, help="cores kept busy beside the tests (0: none)")
    parser.add_argument("--fresh-clone", action="store_true", help="run python3 dev.py test in a clone of HEAD")
    parser.add_argument("--json", type=Path, help="write the summary here as JSON")
    parser.add_argument("paths", nargs="*", help=f"test paths (default {' '.join(DEFAULT_PATHS)}; then -- pytest args)")
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    args.extra = argv[split + 1 :]
    if args.rounds < 1 or args.load_cores < 0 or not 0 <= args.until_clean <= args.rounds:
        parser.error("--rounds must be 1 or more, --load-cores 0 or more, and --until-clean at most --rounds")
    if not args.fresh_clone and not (dev.BIN / "python").exists():
        sys.exit(f"flake_hunt.py: no virtualenv at {dev.VENV}: run python3 dev.py test once, or use --fresh-clone")
    with tempfile.TemporaryDirectory(prefix="flake-hunt-") as folder:
        clone = clone_head(Path(folder)) if args.fresh_clone else None
        runs, failures = hunt(args, clone, Path(folder))
    for number, run in enumerate(runs, 1):
        print(f"flake_hunt.py: round {number}: exit {run['exit']}, {run['wall_s']} s, {run['summary']}")
    print(table(failures, len(runs)))
    clean, wanted = clean_tail([int(str(run["exit"])) for run in runs]), args.until_clean or args.rounds
    if args.json:
        summary = {
            "load_cores": args.load_cores,
            "fresh_clone": args.fresh_clone,
            "rounds": runs,
            "failures": [{"test": f.test, "rounds": f.rounds, "lines": f.lines} for f in failures],
            "clean_rounds_at_end": clean,
            "clean_rounds_wanted": wanted,
        }
        args.json.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"flake_hunt.py: {clean} round(s) in a row passed at the end, {wanted} wanted")
    return 0 if clean >= wanted else 1


if __name__ == "__main__":
    sys.exit(main())
