"""The command line: moves, score, --jsonl, play, and one-line errors for bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from caterpillar_learn.cli import main

STATE: dict[str, Any] = {
    "level": "advanced",
    "labels": {"Alex": [1, 2, 4, 3], "Bobby": [5, 6, 1, 1], "Charlie": [1, 6, 2, 5]},
    "scores": {"Alex": [None, 3, None, None], "Bobby": [None] * 4, "Charlie": [2, None, None, None]},
    "bonus": {"A": None, "B": 5, "C": None},
}


def with_(**changes: Any) -> dict[str, Any]:
    return {**STATE, **changes}


def run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """Run the real entry point in a subprocess (stdin, stdout, stderr, exit status)."""
    done = subprocess.run(
        [sys.executable, "-m", "caterpillar_learn.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def state_file(tmp_path: Path):
    def write(data: object) -> str:
        path = tmp_path / "state.json"
        path.write_text(data if isinstance(data, str) else json.dumps(data))
        return str(path)

    return write


def call(args: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        try:
            code = main(args)
        except SystemExit as exit_:  # argparse errors
            code = int(exit_.code or 0)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_prints_every_distinct_effect(state_file, capsys) -> None:
    code, out, err = call(["moves", "--state", state_file(STATE), "--roll", "2 3 5"], capsys)
    assert code == 0 and err == ""
    moves = json.loads(out)
    assert {
        "caterpillar": "Charlie",
        "box": 2,
        "score": 3,
        "zero": False,
        "bonus": {"box": "A", "value": 5},
        "how": ["Put the 5 into bonus box A. Score 3, in a box labelled 2."],
    } in moves
    keys = [(m["caterpillar"], m["box"], m["score"], m["zero"], json.dumps(m["bonus"])) for m in moves]
    assert len(keys) == len(set(keys))
    assert all(set(m) == {"caterpillar", "box", "score", "zero", "bonus", "how"} for m in moves)


def test_score_prints_the_explained_scoring_from_standard_input(capsys) -> None:
    code, out, _ = call(["score", "--state", "-"], capsys, stdin=json.dumps(STATE))
    result = json.loads(out)
    assert code == 0
    assert set(result) == {"totals", "flying", "bonus", "final", "all_boxes", "complete", "explanation"}
    assert result["totals"] == {"Alex": 3, "Bobby": 0, "Charlie": 2}
    assert (result["flying"], result["final"], result["complete"]) == ("Charlie", 2, False)


def test_jsonl_checks_many_positions_in_one_process_and_survives_bad_lines(capsys) -> None:
    lines = [
        json.dumps({"state": STATE, "roll": "2 3 5"}),
        "{not json",
        json.dumps({"state": with_(level="beginner", bonus=None), "roll": "9 2"}),
        json.dumps({"state": with_(level="beginner", bonus=None), "roll": "3 5"}),
    ]
    code, out, _ = call(["moves", "--jsonl"], capsys, stdin="\n".join(lines) + "\n")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(results) == 4
    assert isinstance(results[0], list) and results[0]
    assert results[1]["error"].startswith("line 2: malformed JSON")
    assert results[2] == {"error": "roll: got die 9, expected 1 to 6"}
    assert isinstance(results[3], list)


def test_score_jsonl(capsys) -> None:
    code, out, _ = call(["score", "--jsonl"], capsys, stdin=json.dumps({"state": STATE}) + "\n")
    assert code == 0 and json.loads(out)["flying"] == "Charlie"


BAD_INPUT = [
    ("malformed JSON", '{"level": ', "2 3 5", "state: malformed JSON"),
    ("unknown level", with_(level="master"), "2 3 5", "level: got 'master'"),
    ("die outside 1-6", STATE, "2 3 7", "roll: got die 7"),
    ("die zero", STATE, "0 3 5", "roll: got die 0"),
    ("wrong number of dice", STATE, "2 3", "roll: got 2 dice [2, 3], expected 3 at advanced"),
    ("action face below expert", STATE, "2 3 5 butterfly", "roll: got action die 'butterfly'"),
    ("unknown action face", with_(level="expert"), "2 3 5 3x", "roll action die: got '3x'"),
    ("missing action face", with_(level="expert"), "2 3 5", "roll action die: got None"),
    (
        "labels of the wrong shape",
        with_(labels={"Alex": [1, 2, 3], "Bobby": [1] * 4, "Charlie": [1] * 4}),
        "2 3 5",
        "labels.Alex: got [1, 2, 3], expected a list of 4 boxes",
    ),
    ("labels missing a caterpillar", with_(labels={"Alex": [1] * 4, "Bobby": [1] * 4}), "2 3 5", "labels: got"),
    (
        "label out of range",
        with_(labels={"Alex": [1, 2, 13, 3], "Bobby": [1] * 4, "Charlie": [1] * 4}),
        "2 3 5",
        "labels.Alex[2]: got 13",
    ),
    (
        "scores of the wrong shape",
        with_(scores={"Alex": [None], "Bobby": [None] * 4, "Charlie": [None] * 4}),
        "2 3 5",
        "scores.Alex: got [None]",
    ),
    (
        "a score beginner cannot produce",
        with_(
            level="beginner",
            bonus=None,
            scores={"Alex": [9, None, None, None], "Bobby": [None] * 4, "Charlie": [None] * 4},
        ),
        "2 3",
        "scores.Alex[0]: got 9, expected a score from 0 to 6 at beginner",
    ),
    (
        "a negative score",
        with_(scores={"Alex": [-1, None, None, None], "Bobby": [None] * 4, "Charlie": [None] * 4}),
        "2 3 5",
        "scores.Alex[0]: got -1",
    ),
    ("a bonus value no die shows", with_(bonus={"A": 7, "B": None, "C": None}), "2 3 5", "bonus.A: got 7"),
    ("bonus boxes below advanced", with_(level="intermediate"), "2 3 5", "bonus.B: got 5"),
    ("more bonus boxes than rounds", with_(bonus={"A": 1, "B": 2, "C": 3}), "2 3 5", "bonus: got 3"),
    ("state not an object", [1, 2], "2 3 5", "state: got [1, 2]"),
]


@pytest.mark.parametrize(("what", "state", "roll", "message"), BAD_INPUT, ids=[case[0] for case in BAD_INPUT])
def test_bad_input_gets_one_line_naming_field_and_value(what, state, roll, message, state_file, capsys) -> None:
    code, out, err = call(["moves", "--state", state_file(state), "--roll", roll], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message in err, err


def test_bad_arguments_are_one_line_too(capsys) -> None:
    code, _, err = call(["moves", "--state"], capsys)
    assert code == 2 and err.count("\n") == 1
    code, _, err = call(["moves", "--state", "/no/such/file", "--roll", "1 2"], capsys)
    assert code == 2 and "--state: got '/no/such/file'" in err
    code, _, err = call(["moves", "--jsonl", "--roll", "1 2"], capsys)
    assert code == 2 and err.count("\n") == 1


def test_the_installed_entry_point_in_a_real_process() -> None:
    code, out, err = run(["moves", "--state", "-", "--roll", "2 3 5"], stdin=json.dumps(STATE))
    assert code == 0 and json.loads(out)
    code, out, err = run(["score", "--state", "-"], stdin="{broken")
    assert code == 2 and out == "" and err.startswith("caterpillar-learn score: state: malformed JSON")
    assert "Traceback" not in err


def test_play_a_whole_game_at_the_terminal() -> None:
    """Always take the first choice: the game reaches its final score."""
    code, out, err = run(["play", "--level", "advanced", "--seed", "4"], stdin="1\n" * 40)
    assert code == 0 and err == ""
    assert "Round 12: you rolled" in out
    assert out.rstrip().splitlines()[-1].startswith("Final score:")


def test_play_stops_cleanly_and_rejects_bad_answers() -> None:
    code, out, _ = run(["play", "--seed", "4"], stdin="x\n99\nq\n")
    assert code == 0
    assert out.count("Please type a number from 1 to") == 2 and "Game stopped." in out
    code, _, err = run(["play", "--level", "grandmaster"])
    assert code == 2 and err.count("\n") == 1 and "level: got 'grandmaster'" in err
