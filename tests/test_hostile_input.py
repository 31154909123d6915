"""Hostile input on the real ``caterpillar-learn`` command (issue 11).

Every case runs the installed console script in a process of its own and
expects one short line on standard error, exit status 2 and no traceback,
within a timeout that only guards against a hang (it is no timing test).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).with_name("caterpillar-learn")
#: A safety net against reading without end, not a measure of speed.
TIMEOUT = 20
MAX_LINE = 300

BEGINNER = {"level": "beginner", "labels": {"Alex": [1, 2, 4, 3], "Bobby": [5, 6, 1, 1], "Charlie": [1, 6, 2, 5]}}
DECK_LINE = "round-red@jagged-green|jagged-yellow@round-red\n"
HUGE = "9" * 5000
LONG = "x" * 60_000


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    folder = tmp_path_factory.mktemp("hostile")
    written = {
        "deep": "[" * 100_000 + "]" * 100_000,
        "deep_object": '{"level": ' * 50_000 + "1" + "}" * 50_000,
        "huge_int": json.dumps(BEGINNER)[:-1] + ', "scores": ' + HUGE + "}",
        "long_value": json.dumps({**BEGINNER, "level": LONG}),
        "not_utf8": "",
    }
    paths = {}
    for name, text in written.items():
        path = folder / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        paths[name] = str(path)
    Path(paths["not_utf8"]).write_bytes(b'{"level": "\xff"}')
    deck = folder / "deck.txt"  # 94 MB of good-looking cards: far more than any deck
    with deck.open("w", encoding="utf-8") as handle:
        handle.write(DECK_LINE * (94_000_000 // len(DECK_LINE)))
    paths["big_deck"] = str(deck)
    yield paths


def run(args: list[str], stdin: str | bytes | Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """The console script on ``args``; ``stdin`` is text, bytes or a file to read from."""
    if isinstance(stdin, Path):
        with stdin.open("rb") as handle:
            return subprocess.run([str(SCRIPT), *args], stdin=handle, capture_output=True, timeout=TIMEOUT)
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [str(SCRIPT), *args],
        input=data,
        stdin=None if data is not None else subprocess.DEVNULL,
        capture_output=True,
        timeout=TIMEOUT,
    )


# (id, arguments with {file} placeholders, standard input, what the line must say)
CASES: list[tuple[str, list[str], str | Path | None, str]] = [
    ("deeply nested state", ["score", "--state", "{deep}"], None, "state: got JSON nested more than 64 deep"),
    ("deeply nested object", ["hint", "--state", "{deep_object}", "--roll", "2 3"], None, "nested more than 64"),
    ("deep state on stdin", ["solve", "--state", "-"], "[" * 100_000, "nested more than 64"),
    ("5000-digit number in a state", ["score", "--state", "{huge_int}"], None, "whole number of 5000 digits"),
    ("5000-digit --seed", ["simulate", "--seed", HUGE], None, "--seed: got a whole number of 5000 digits"),
    ("5000-digit --games", ["raupe", "simulate", "--games", HUGE], None, "--games: got a whole number of 5000"),
    ("5000-digit --players", ["raupe", "simulate", "--players", HUGE], None, "--players: got a whole number"),
    ("5000-digit play --seed", ["play", "--seed", HUGE], None, "--seed: got a whole number of 5000 digits"),
    ("5000-digit die", ["moves", "--state", "-", "--roll", "1 " + HUGE], json.dumps(BEGINNER), "roll: got '999"),
    ("5000-digit label", ["simulate", "--labels", "1 " * 11 + HUGE], None, "--labels: got '1 1 1"),
    ("a die that is not ASCII", ["moves", "--state", "-", "--roll", "1 ²"], json.dumps(BEGINNER), "roll: got '²'"),
    ("--state /dev/zero", ["score", "--state", "/dev/zero"], None, "--state: got more than 1000000 bytes"),
    ("--state - from /dev/zero", ["moves", "--state", "-", "--roll", "2 3"], Path("/dev/zero"), "more than 1000000"),
    ("--state a folder", ["score", "--state", "/"], None, "--state: got '/', expected a readable text file"),
    ("--state not UTF-8", ["score", "--state", "{not_utf8}"], None, "not UTF-8 at byte 11"),
    ("94 MB deck file", ["raupe", "simulate", "--deck", "{big_deck}"], None, "deck file: got more than 1000000 bytes"),
    ("--deck /dev/zero", ["raupe", "simulate", "--deck", "/dev/zero"], None, "deck file: got more than 1000000"),
    ("simulate --games 10**11", ["simulate", "--games", "100000000000"], None, "got 100000000000, expected 1 to"),
    ("simulate --games 0", ["simulate", "--games", "0"], None, "--games: got 0, expected 1 to 100000"),
    ("raupe simulate --games 10**11", ["raupe", "simulate", "--games", "100000000000"], None, "expected 1 to 100000"),
    ("raupe simulate --games -1", ["raupe", "simulate", "--games", "-1"], None, "--games: got -1"),
    ("60 kB level in a state", ["score", "--state", "{long_value}"], None, "level: got 'xxx"),
    ("60 kB roll", ["moves", "--state", "-", "--roll", LONG], json.dumps(BEGINNER), "roll"),
    ("60 kB --labels", ["simulate", "--labels", LONG], None, "--labels: got 'xxx"),
    ("60 kB --level", ["play", "--level", LONG], None, "level: got 'xxx"),
    (
        "60 kB --hand",
        ["raupe", "playable", "--top", "round-red@jagged-green", "--mode", "shape", "--hand", LONG],
        None,
        "hand card 1: card: got 'xxx",
    ),
    ("60 kB --top", ["raupe", "playable", "--top", LONG, "--mode", "shape", "--hand", "butterfly"], None, "side: got"),
    ("60 kB --bot-level", ["raupe", "simulate", "--bot-level", LONG], None, "invalid choice"),
    ("60 kB unknown argument", ["score", LONG], None, "unrecognized arguments"),
    ("60 kB --state path", ["score", "--state", LONG], None, "--state: got 'xxx"),
    ("play from /dev/zero", ["play"], Path("/dev/zero"), "answer: got more than 100 characters"),
    ("--jsonl from /dev/zero", ["moves", "--jsonl"], Path("/dev/zero"), "line 1: got no line end within"),
]


@pytest.mark.parametrize(("args", "stdin", "expected"), [case[1:] for case in CASES], ids=[c[0] for c in CASES])
def test_hostile_input_is_one_short_line_with_exit_2(
    files: dict[str, str], args: list[str], stdin: str | Path | None, expected: str
) -> None:
    done = run([arg.format(**files) if arg.startswith("{") else arg for arg in args], stdin)
    err = done.stderr.decode("utf-8", errors="replace")
    assert done.returncode == 2, err
    assert err.endswith("\n") and err.count("\n") == 1, err[:500]
    assert len(err) < MAX_LINE, err
    assert "Traceback" not in err
    assert err.startswith("caterpillar-learn"), err
    assert expected in err, err


def test_play_asks_again_after_answers_that_are_no_number() -> None:
    done = run(["play"], "²\n" + "9" * 99 + "\nq\n")
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode().count("Please type a number from 1 to") == 2


def test_a_jsonl_batch_answers_every_line_in_order() -> None:
    good = {"state": BEGINNER, "roll": "2 3"}
    lines = [
        json.dumps(good).encode(),
        b"[" * 100_000 + b"]" * 100_000,
        b'{"state": ' + HUGE.encode() + b"}",
        b"x" * 2_000_000,
        b"",
        b"{not json",
        b'{"state": "\xff"}',
        json.dumps({"state": {**BEGINNER, "level": LONG}, "roll": "2 3"}).encode(),
        b"NaN",
        json.dumps({**good, "roll": "9 2"}).encode(),
        b"[1, 2]",
        json.dumps(good).encode(),
    ]
    done = run(["moves", "--jsonl"], b"\n".join(lines) + b"\n")
    assert (done.returncode, done.stderr) == (0, b"")
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    errors = [answer.get("error", "") if isinstance(answer, dict) else None for answer in answers]
    expected = [
        None,
        "line 2: got JSON nested more than 64 deep",
        "line 3: got a whole number of 5000 digits",
        "line 4: got more than 1000000 bytes",
        "line 6: malformed JSON",
        "line 7: got a byte that is not UTF-8",
        "level: got 'xxx",
        "line 9: got NaN",
        "roll: got die 9",
        "line 11: got [1, 2]",
        None,
    ]
    assert len(answers) == len(expected), errors
    for answer, error, wanted in zip(answers, errors, expected):
        if wanted is None:
            assert isinstance(answer, list) and answer, answer  # the legal moves
        else:
            assert error is not None and error.startswith(wanted), error
            assert "\n" not in error and len(error) < MAX_LINE
