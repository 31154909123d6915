"""``caterpillar-learn raupe ...`` on hand-made positions and bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from caterpillar_learn.cli import main

HAND = ";".join(
    [
        "jagged-yellow@round-red|straight-red@round-yellow",  # 0: side 0 jagged; side 1 red
        "straight-green@round-red|round-yellow@jagged-green",  # 1: side 0 green; neither jagged
        "butterfly",  # 2
        "round-green@jagged-red+sky|jagged-red@straight-green+sky",  # 3: change card
        "straight-red@round-yellow|round-red@straight-yellow",  # 4: all red
    ]
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["raupe", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("top", "mode", "extra", "expected"),
    [
        # Shape: a jagged leaf wants jagged caterpillars.
        ("round-red@jagged-green", "shape", [], [(0, 0), (2, 0), (3, 1)]),
        # Colour: a green leaf wants green caterpillars.
        ("round-red@jagged-green", "colour", [], [(1, 0), (2, 0), (3, 0)]),
        # Colour: a yellow leaf (with an aphid) wants yellow caterpillars.
        ("straight-red@round-yellow+aphid", "colour", [], [(0, 0), (1, 1), (2, 0)]),
        # Right after one's own butterfly any caterpillar side may follow, never a butterfly.
        (
            "round-red@jagged-green",
            "shape",
            ["--after-butterfly"],
            [(0, 0), (0, 1), (1, 0), (1, 1), (3, 0), (3, 1), (4, 0), (4, 1)],
        ),
    ],
)
def test_playable_on_hand_made_positions(
    capsys: pytest.CaptureFixture[str],
    top: str,
    mode: str,
    extra: list[str],
    expected: list[tuple[int, int]],
) -> None:
    code, out, err = run(capsys, "playable", "--top", top, "--mode", mode, "--hand", HAND, *extra)
    assert (code, err) == (0, "")
    assert json.loads(out) == [{"card": c, "side": s} for c, s in expected]


def test_playable_nothing_fits(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "playable",
        "--top",
        "round-red@straight-yellow",
        "--mode",
        "shape",
        "--hand",
        "round-red@jagged-green|jagged-red@round-green",
    )
    assert code == 0 and json.loads(out) == []


def test_simulate_prints_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--players", "3", "--seed", "4", "--games", "10", "--bot-level", "expert"]
    code, out, err = run(capsys, *args)
    assert (code, err) == (0, "")
    stats = json.loads(out)
    assert set(stats) >= {
        "wins",
        "mean_plays",
        "mean_seconds",
        "mistakes_made",
        "mistakes_caught",
        "stalemates",
    }
    assert len(stats["wins"]) == 3 and sum(stats["wins"]) >= 10
    # Same seed, same statistics.
    assert run(capsys, *args)[1] == out


def test_simulate_with_a_custom_deck(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    deck = tmp_path / "deck.txt"
    lines = ["butterfly", "butterfly", "round-red@jagged-green+sky|jagged-red@round-green+sky"] * 1
    lines += ["jagged-green@straight-red+sky|round-yellow@jagged-red+sky"]
    lines += ["round-red@jagged-green|jagged-yellow@round-red"] * 9
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "simulate", "--players", "2", "--games", "5", "--deck", str(deck))
    assert code == 0 and json.loads(out)["games"] == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["playable", "--top", "round-red", "--mode", "shape", "--hand", "butterfly"], "side: got"),
        (["playable", "--top", "round-red@jagged-green", "--mode", "size", "--hand", ""], "mode:"),
        (
            ["playable", "--top", "round-red@jagged-green", "--mode", "shape", "--hand", "x|y"],
            "side",
        ),
        (["simulate", "--games", "0"], "games: got 0, expected 1 to"),
        (["simulate", "--bot-level", "pro"], "invalid choice: 'pro'"),
        (["simulate", "--players", "7"], "--players: got 7, expected 2 to 4"),
        (["simulate", "--deck", "/no/such/file"], "deck file: got '/no/such/file'"),
        (["playable", "--mode", "shape"], "required"),
    ],
)
def test_bad_input_is_one_line_with_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    try:
        code, out, err = run(capsys, *args)
    except SystemExit as stop:  # argparse errors leave through the parser
        code = int(stop.code or 0)
        out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_module_entry_point_in_a_subprocess() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "caterpillar_learn.cli",
            "raupe",
            "playable",
            "--top",
            "round-red@jagged-green",
            "--mode",
            "shape",
            "--hand",
            "jagged-red@round-green|x",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().startswith("caterpillar-learn raupe: hand card 1: side: got 'x'")
    assert len(done.stderr.strip().splitlines()) == 1
