"""``caterpillar-learn classroom``: registered, loopback by default, bad options refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from caterpillar_learn import i18n
from caterpillar_learn.classroom.cli import DEFAULT_PORT, default_data
from caterpillar_learn.classroom.server import HOST, origins
from caterpillar_learn.cli import build_parser, main
from caterpillar_learn.i18n import available_languages, language, text


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


def test_lang_takes_the_same_languages_as_serve_and_is_refused_in_the_same_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert build_parser().parse_args(["classroom"]).lang is None  # English unless asked
    for code in available_languages():
        assert build_parser().parse_args(["classroom", "--lang", code]).lang == code
    refused = {}
    for command in ("serve", "classroom"):
        with pytest.raises(SystemExit) as exit_status:
            build_parser().parse_args([command, "--lang", "xx"])
        assert exit_status.value.code == 2
        refused[command] = capsys.readouterr().err
    assert "invalid choice: 'xx'" in refused["classroom"] and refused["classroom"].count("\n") == 1
    assert refused["classroom"] == refused["serve"].replace("caterpillar-learn serve", "caterpillar-learn classroom")


def test_lang_de_starts_every_page_and_the_server_s_own_words_in_german(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from caterpillar_learn.classroom import cli, server
    from caterpillar_learn.classroom.consoles import JoinDesk, JoinWidget, TeacherConsole, TeacherWidget
    from caterpillar_learn.classroom.lobby import Lobby

    seen: dict[str, str] = {}

    def fake_serve(data: Path, host: str, port: int, **options: object) -> int:
        # What serve() builds: the pages' widgets (each with its default language) and the page titles.
        lobby = Lobby.open(data)
        seen["teacher"] = TeacherWidget(TeacherConsole(lobby, server.join_base(host, port))).lang
        seen["door"] = JoinWidget(JoinDesk(lobby, "127.0.0.1", lambda room, pupil: None)).lang
        seen["title"] = text("classroom.page.title_teacher")
        lobby.store.close()
        return 0

    monkeypatch.setattr(i18n, "_default", i18n.current_language())  # put back after the test
    monkeypatch.setattr(cli, "serve", fake_serve)
    args = build_parser().parse_args(["classroom", "--lang", "de", "--port", "0", "--data", str(tmp_path)])
    assert args.handler(args) == 0
    with language("de"):
        german = text("classroom.page.title_teacher")
    assert seen == {"teacher": "de", "door": "de", "title": german}
    with language("en"):
        assert german != text("classroom.page.title_teacher")
