"""The strategy lab and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from caterpillar_learn.advice import STRATEGIES, AdviceError, simulate
from caterpillar_learn.cli import main


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_strategies_are_reproducible_from_their_seed(strategy: str) -> None:
    first = simulate("beginner", strategy, 30, seed=5)
    assert first.finals == simulate("beginner", strategy, 30, seed=5).finals
    assert first.finals != simulate("beginner", strategy, 30, seed=6).finals


@pytest.mark.parametrize("level", ["intermediate", "advanced", "expert"])
def test_engine_strategies_run_at_every_level(level: str) -> None:
    result = simulate(level, "median", 5, seed=1)
    assert len(result.finals) == 5 and result.to_json()["games"] == 5


def test_hint_strategy_beats_greedy_at_beginner() -> None:
    hint = simulate("beginner", "hint", 2000, seed=3)
    greedy = simulate("beginner", "greedy", 2000, seed=3)
    assert hint.mean > greedy.mean + 3 * (hint.stderr + greedy.stderr) / 2


def test_lab_refuses_unknown_strategies_and_bad_counts() -> None:
    with pytest.raises(AdviceError, match="strategy"):
        simulate("beginner", "clever", 1, seed=1)
    with pytest.raises(AdviceError, match="games"):
        simulate("beginner", "random", 0, seed=1)


STATE = {
    "level": "beginner",
    "labels": {"Alex": [1, 3, 6, 4], "Bobby": [6, 2, 3, 5], "Charlie": [5, 4, 2, 1]},
    "scores": {"Alex": [2, None, None, None], "Bobby": [None] * 4, "Charlie": [None] * 4},
}


def test_cli_hint_and_solve(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(STATE))
    assert main(["hint", "--state", str(path), "--roll", "2 6"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and data["move"] == data["options"][0]["move"]
    assert main(["solve", "--state", str(path)]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert set(solved) == {"expected_final", "exact", "seconds"}


def test_cli_simulate_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--level", "beginner", "--strategy", "greedy", "--games", "20", "--seed", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 20 and {"mean", "stdev", "quantiles", "histogram"} <= set(data)


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--level", "master"],
        ["simulate", "--strategy", "clever"],
        ["simulate", "--labels", "1 2 3"],
        ["hint", "--state", "/nonexistent.json", "--roll", "1 2"],
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(argv: list[str]) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "caterpillar_learn.cli", *argv], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_cli_jsonl_reports_bad_lines_and_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    lines = json.dumps({"state": STATE, "roll": "1 2"}) + "\n" + json.dumps({"state": STATE, "roll": "7 7"}) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["hint", "--jsonl"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "move" in out[0] and "error" in out[1]
