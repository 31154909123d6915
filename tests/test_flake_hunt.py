"""scripts/flake_hunt.py's own parts, without running pytest inside pytest: the JUnit reports read back into
failures, the report's table, the rounds' commands and when the hunt has passed."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "flake_hunt.py"

#: A report as pytest writes it (xunit2): a pass, a skip, a failure in a class, an error at set-up, and a test
#: that failed in its call and again in its tear-down.
REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites name="pytest tests"><testsuite name="pytest" errors="2" failures="2" skipped="1" tests="6">
<testcase classname="tests.classroom.test_server" name="test_join" time="1.2"/>
<testcase classname="tests.classroom.test_server" name="test_later" time="0.0">
  <skipped type="pytest.skip" message="not today">skip</skipped></testcase>
<testcase classname="tests.browser.test_lesson_room.TestRoom" name="test_clock[de]" time="30.1">
  <failure message="AssertionError: the pile never grew&#10;assert '1' != '1'">long traceback</failure></testcase>
<testcase classname="tests.classroom.test_refusals" name="test_flood" time="0.1">
  <error message="failed on setup with &quot;OSError: [Errno 98] Address already in use&quot;">trace</error></testcase>
<testcase classname="tests.browser.test_slow_line" name="test_taps" time="9.0">
  <failure message="TimeoutError: Locator.click: Timeout 15000ms exceeded.">call</failure>
  <error message="failed on teardown with &quot;AssertionError: page errors&quot;">teardown</error></testcase>
</testsuite></testsuites>
"""


@pytest.fixture(scope="module")
def hunt() -> ModuleType:
    spec = importlib.util.spec_from_file_location("flake_hunt", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["flake_hunt"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_the_scripts_examples_hold(hunt: ModuleType) -> None:
    failed, tried = doctest.testmod(hunt)
    assert tried >= 8 and failed == 0


def test_a_report_gives_every_failed_test_with_its_first_line(hunt: ModuleType) -> None:
    assert hunt.failures_in(REPORT) == {
        "tests/browser/test_lesson_room.py::TestRoom::test_clock[de]": "AssertionError: the pile never grew",
        "tests/classroom/test_refusals.py::test_flood": (
            'failed on setup with "OSError: [Errno 98] Address already in use"'
        ),
        "tests/browser/test_slow_line.py::test_taps": "TimeoutError: Locator.click: Timeout 15000ms exceeded.",
    }


def test_the_table_counts_the_rounds_a_test_failed_in(hunt: ModuleType) -> None:
    rounds = [hunt.failures_in(REPORT), {}, {"tests/browser/test_slow_line.py::test_taps": "TimeoutError: later"}]
    failures = hunt.gather(rounds)
    lines = hunt.table(failures, len(rounds)).splitlines()
    assert lines[0].split() == ["test", "failed", "first", "failure"]
    assert lines[1].split()[:4] == ["tests/browser/test_slow_line.py::test_taps", "2", "/", "3"]
    assert lines[1].endswith("TimeoutError: Locator.click: Timeout 15000ms exceeded.")  # the first failure's line
    assert [line.split()[0] for line in lines[2:]] == [
        "tests/browser/test_lesson_room.py::TestRoom::test_clock[de]",
        "tests/classroom/test_refusals.py::test_flood",
    ]
    assert all(" 1 / 3 " in line for line in lines[2:])
    assert hunt.table(failures, 3, width=20).splitlines()[1].endswith(" TimeoutError: Locato")  # cut at 20


def test_a_round_runs_pytest_as_dev_py_does_or_dev_py_in_the_clone(hunt: ModuleType, tmp_path: Path) -> None:
    junit = tmp_path / "round-1.xml"
    cmd, cwd = hunt.round_command(junit, ["tests/classroom"], ["-k", "clock"], None)
    assert cwd == hunt.ROOT and cmd[:3] == [str(hunt.dev.BIN / "python"), "-m", "pytest"]
    assert "--dist" in cmd and cmd[cmd.index("--dist") + 1] == "loadfile" and "-n" in cmd
    assert cmd[-4:] == [f"--junitxml={junit}", "tests/classroom", "-k", "clock"]
    chosen, _ = hunt.round_command(junit, [], ["-p", "no:xdist"], None)
    assert "--dist" not in chosen, "the arguments' own choice of workers stands"
    clone = tmp_path / "clone"
    cmd, cwd = hunt.round_command(junit, [], ["-x"], clone)
    assert cwd == clone and cmd[1:] == [str(clone / "dev.py"), "test", f"--junitxml={junit}", "-x"]


def test_the_hunt_passes_only_on_enough_clean_rounds_at_the_end(hunt: ModuleType) -> None:
    assert hunt.clean_tail([0, 1, 0, 0]) == 2
    assert hunt.clean_tail([0, 0, 5]) == 0


def test_bad_counts_are_one_line_of_usage(hunt: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        hunt.main(["--rounds", "2", "--until-clean", "3"])
    assert stopped.value.code == 2
    assert "--until-clean at most --rounds" in capsys.readouterr().err
