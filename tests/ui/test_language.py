"""The language switch in the widget logic: the ``language`` event every widget handles itself."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from caterpillar_learn import i18n
from caterpillar_learn.i18n import language, text
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
from caterpillar_learn.ui.raupe import RaupeWidget
from tests.languages import second_language
from tests.ui.test_widgets import answer


@pytest.fixture
def other(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    with second_language(tmp_path, monkeypatch) as code:
        yield code


def test_the_event_switches_lang_strings_and_views(other: str) -> None:
    board = CaterpillarsLesson("01-beginner")
    assert board.lang == "en"
    assert {"code": other, "name": i18n.language_name(other)} in board.languages
    assert board.strings["read_aloud"] == "Read aloud"
    board.act("language", value=other)
    assert board.lang == other and board.message == ""
    with language(other):
        assert board.strings["roll"] == text("lessons.ui.roll")
        assert board.lesson["title"] == text("lessons.beginner.intro.title")
    board.act("language", value="en")
    assert board.strings["roll"] == "Roll" and board.lesson["title"] == text("lessons.beginner.intro.title")


def test_the_game_goes_on_in_the_new_language(other: str) -> None:
    board = CaterpillarsLesson("01-beginner")
    board.act("roll")
    board.act("language", value=other)
    assert board.dice["rolled"] and board.step == 2 and board.question  # asked in the new language
    answer(board, right=True)
    entry = board.legal[0]
    board.act("box", caterpillar=entry["caterpillar"], box=entry["box"])
    assert board.session.game.state.filled == 1


@pytest.mark.parametrize("value", ["xx", 3, None, "e" * 5000, ["de"]])
def test_a_bad_language_is_one_line_and_changes_nothing(value: object) -> None:
    board = CaterpillarsLesson("01-beginner")
    before = (board.lang, dict(board.strings), dict(board.lesson))
    board.act("language", value=value)
    assert board.message.startswith("language: got ") and "\n" not in board.message
    assert len(board.message) <= 300
    assert (board.lang, board.strings, board.lesson) == before
    board.act("roll")
    assert board.message == ""


def test_two_widgets_in_one_process_keep_their_own_languages(other: str) -> None:
    first, second = CaterpillarsLesson("01-beginner"), RaupeWidget("10-raupe-shape", seed=4)
    second.act("language", value=other)
    assert (first.lang, second.lang) == ("en", other)
    first.act("roll")
    assert first.strings["roll"] == "Roll"
    with language(other):
        assert second.strings["start"] == text("raupe_lessons.ui.start")
    assert i18n.current_language() == "en"


def test_the_default_language_comes_from_the_environment(other: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.LANGUAGE_ENV, other)
    assert i18n._from_environment() == other
    monkeypatch.setenv(i18n.LANGUAGE_ENV, "klingon")
    assert i18n._from_environment() == "en"  # unknown: English, no error


def test_serve_passes_its_language_to_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    from caterpillar_learn.cli import build_parser
    from caterpillar_learn.ui.hosting import serve

    seen: list[str | None] = []

    def fake_serve(*args: object, **kwargs: object) -> int:
        seen.append(os.environ.get(i18n.LANGUAGE_ENV))
        return 0

    monkeypatch.setenv(i18n.LANGUAGE_ENV, "")  # restored (unset) after the test
    monkeypatch.setattr(serve, "serve", fake_serve)
    args = build_parser().parse_args(["serve", "--lang", "en", "--no-browser", "--port", "0", "--solve-cache", "off"])
    assert serve._handle(args) == 0
    assert seen == ["en"]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--lang", "xx"])
