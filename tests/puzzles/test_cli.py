"""``caterpillar-learn puzzles`` (issue 45): its lines are what ``caterpillar-learn hint --jsonl`` reads, and the
hint agrees with each; bad input is one line naming the option, exit status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from caterpillar_learn.cli import main
from caterpillar_learn.practice import threshold

pytestmark = pytest.mark.usefixtures("solve_cache")

SCRIPT = Path(sys.executable).with_name("caterpillar-learn")


def run(capsys: pytest.CaptureFixture[str], *words: str) -> list[dict[str, Any]]:
    assert main(list(words)) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def hints_of(
    lines: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> list[Any]:
    """The puzzles' lines, as they are, through ``caterpillar-learn hint --jsonl`` (in this process)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(line) + "\n" for line in lines)))
    return run(capsys, "hint", "--jsonl")


def same_box(state: dict[str, Any], a: dict[str, Any], b: dict[str, Any]) -> bool:
    def effect(move: dict[str, Any]) -> tuple[Any, ...]:
        label = state["labels"][move["caterpillar"]][move["box"]]
        return move["caterpillar"], label, move["score"], move["zero"], move["bonus"]

    return effect(a) == effect(b)


@pytest.mark.parametrize(
    ("level", "idea"),
    [
        ("beginner", "score_die"),
        ("beginner", "zero"),
        pytest.param("intermediate", "middle", marks=pytest.mark.slow),  # 3 layouts to solve, unless solved before
    ],
)
def test_the_lines_are_read_back_by_hint_and_agree(
    level: str, idea: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = run(capsys, "puzzles", "--level", level, "--idea", idea, "--count", "6", "--jsonl")
    assert len(lines) == 6
    difficulties = [line["difficulty"] for line in lines]
    assert difficulties == sorted(difficulties) and difficulties[0] < difficulties[-1]
    hints = hints_of(lines, capsys, monkeypatch)
    assert len(hints) == len(lines)
    for line, hint in zip(lines, hints, strict=True):
        assert "error" not in hint, hint
        assert line["idea"] == idea and line["state"]["level"] == level and line["exact"] is hint["exact"] is True
        assert hint["move"] == line["best"]  # the move, as hint prints it, its ways in words too
        top = hint["options"][0]["expected_final"]
        rivals = [o for o in hint["options"] if not same_box(line["state"], o["move"], line["best"])]
        assert top - rivals[0]["expected_final"] >= line["margin"] >= threshold(level)


def test_without_an_idea_every_idea_of_the_level_comes(capsys: pytest.CaptureFixture[str]) -> None:
    everything = run(capsys, "puzzles", "--level", "intermediate", "--jsonl")
    assert {line["idea"] for line in everything} == {"zero", "score_die", "middle"}
    assert len(everything) >= 90 and len({line["id"] for line in everything}) == len(everything)
    assert main(["puzzles", "--level", "advanced", "--count", "3"]) == 0  # no --jsonl: one JSON list
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 3 and all({"state", "roll", "best", "margin", "idea"} <= set(line) for line in listed)
    assert any(line["exact"] is False for line in run(capsys, "puzzles", "--level", "expert", "--jsonl"))


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--level", "pro"], "--level: got 'pro', expected one of beginner, intermediate, advanced, expert"),
        (["--idea", "luck"], "--idea: got 'luck', expected one of zero, score_die, middle"),
        (["--idea", "bonus"], "--idea: got 'bonus', expected one of zero, score_die, middle"),
        (["--count", "0"], "argument --count: got 0, expected 1 to 1000"),
        (["--count", "1001"], "argument --count: got 1001, expected 1 to 1000"),
        (["--count", "ten"], "argument --count: got 'ten', expected a whole number from 1 to 1000"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(["puzzles", *words, "--jsonl"])
    except SystemExit as stopped:  # argparse's own refusals
        status = int(stopped.code or 0)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith("caterpillar-learn puzzles: " + said) and err.count("\n") == 1, err


@pytest.mark.slow
def test_the_installed_command_refuses_in_one_line() -> None:
    done = subprocess.run(
        [str(SCRIPT), "puzzles", "--level", "intermediate", "--idea", "x" * 5000, "--jsonl"],
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == b""
    err = done.stderr.decode()
    assert err.startswith("caterpillar-learn puzzles: --idea: got 'xxx") and err.count("\n") == 1 and len(err) < 300
