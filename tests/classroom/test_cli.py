"""``caterpillar-learn classroom``: registered, loopback by default, bad options refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from caterpillar_learn.classroom.server import DEFAULT_PORT, HOST, default_data, origins
from caterpillar_learn.cli import build_parser, main


def test_the_command_is_registered_with_safe_defaults() -> None:
    args = build_parser().parse_args(["classroom"])
    assert (args.host, args.port, args.join_limit) == (HOST, DEFAULT_PORT, 20.0)
    assert HOST == "127.0.0.1" and Path(args.data) == default_data()
    assert origins(HOST, 5006) == ["127.0.0.1:5006", "localhost:5006"]


@pytest.mark.parametrize(
    ("options", "words"), [(["--port", "70000"], "--port: got 70000"), (["--join-limit", "0"], "--join-limit: got 0.0")]
)
def test_bad_options_are_one_line_and_exit_status_2(
    options: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["classroom", "--data", str(tmp_path), *options]) == 2
    error = capsys.readouterr().err
    assert words in error and error.count("\n") == 1
    assert not (tmp_path / "classroom.sqlite3").exists()  # refused before anything was opened
