"""A language of the teacher's own, outside the package (issue 42), its check, and the guides that ship.

A French folder in the teacher's languages folder (the per-user data folder,
or the one ``CATERPILLAR_LEARN_LANGUAGES`` names) is offered with its own name;
``caterpillar-learn check-translation DIR`` reports each problem in one line;
``caterpillar-learn docs`` says where the guides are.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from caterpillar_learn import i18n
from caterpillar_learn.cli import main
from caterpillar_learn.guides import guides, shipped_docs

ROOT = Path(__file__).resolve().parents[1]


def french(languages: Path) -> Path:
    """A French translation (German's words, French's name) in ``languages/fr``."""
    folder = languages / "fr"
    shutil.copytree(i18n._FOLDER / "de", folder)
    name = folder / "language.json"
    messages = json.loads(name.read_text(encoding="utf-8"))
    name.write_text(json.dumps({**messages, "name": "Français"}, ensure_ascii=False), encoding="utf-8")
    return folder


def edit(path: Path, **changes: str | None) -> None:
    messages = json.loads(path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is None:
            del messages[key.replace("__", ".")]
        else:
            messages[key.replace("__", ".")] = value
    path.write_text(json.dumps(messages, ensure_ascii=False), encoding="utf-8")


@pytest.fixture
def own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The teacher's languages folder, named by the environment variable, with French in it."""
    monkeypatch.setenv(i18n.LANGUAGES_ENV, str(tmp_path / "languages"))
    french(tmp_path / "languages")
    return tmp_path / "languages"


def test_a_french_folder_outside_the_package_is_offered_by_its_own_name(own: Path) -> None:
    assert "fr" in i18n.available_languages()
    assert {"code": "fr", "name": "Français"} in i18n.language_choices()
    assert i18n.language_choices()[0] == {"code": "en", "name": "English"}
    assert i18n.language_folder("fr") == own / "fr"
    with i18n.language("fr"):
        assert i18n.text("lessons.ui.roll") == "Würfeln"  # its words (German's, here)


def test_a_widgets_language_menu_offers_it(own: Path) -> None:
    from caterpillar_learn.ui.raupe import RaupeWidget

    table = RaupeWidget("10-raupe-shape", seed=4, lang="fr")
    assert table.lang == "fr" and {"code": "fr", "name": "Français"} in table.languages


def test_the_per_user_data_folder_is_used_without_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(i18n.LANGUAGES_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if sys.platform in ("win32", "darwin"):
        pytest.skip("the XDG folder is the per-user folder on Linux and other Unixes")
    assert i18n.own_languages_folder() == tmp_path / "data" / "caterpillar-learn" / "languages"
    assert "fr" not in i18n.available_languages()
    french(tmp_path / "data" / "caterpillar-learn" / "languages")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data") + "/")  # another look: the folder is read again
    assert i18n.language_name("fr") == "Français"


def test_a_shipped_language_is_not_replaced_and_a_broken_one_not_offered(own: Path) -> None:
    shutil.copytree(own / "fr", own / "de")
    edit(own / "de" / "language.json", name="Deutsch (mine)")
    shutil.copytree(own / "fr", own / "nl")
    (own / "nl" / "ui.json").write_text('{"internal": ', encoding="utf-8")
    assert i18n.language_name("de") == "Deutsch" and i18n.language_folder("de").parent == i18n._FOLDER
    assert "nl" not in i18n.available_languages()


def test_serve_takes_the_folder_on_its_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from caterpillar_learn.cli import build_parser, name_own_languages
    from caterpillar_learn.ui.hosting import serve

    monkeypatch.setenv(i18n.LANGUAGES_ENV, "")  # unset again afterwards: the command sets it for its kernels
    monkeypatch.setenv(i18n.LANGUAGE_ENV, "")
    french(tmp_path / "mine")
    words = ["serve", "--lang", "fr", "--languages", str(tmp_path / "mine"), "--solve-cache", "off"]
    name_own_languages(words)  # what main() does before it builds the parser
    args = build_parser().parse_args(words)
    seen: list[tuple[str | None, str | None]] = []

    def fake_serve(*_: object, **__: object) -> int:  # what the kernels would inherit
        seen.append((os.environ.get(i18n.LANGUAGES_ENV), os.environ.get(i18n.LANGUAGE_ENV)))
        return 0

    monkeypatch.setattr(serve, "serve", fake_serve)
    try:
        assert serve._handle(args) == 0
    finally:
        i18n.set_language("en")
    assert seen == [(str((tmp_path / "mine").resolve()), "fr")]


def test_the_real_command_offers_it_in_a_fresh_process(tmp_path: Path) -> None:
    french(tmp_path / "data" / "caterpillar-learn" / "languages")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop(i18n.LANGUAGES_ENV, None)
    said = subprocess.run(
        [sys.executable, "-m", "caterpillar_learn", "serve", "--help"], env=env, capture_output=True, text=True
    )
    assert said.returncode == 0 and "fr" in said.stdout.split("--lang")[1].split("}")[0], said.stdout
    named = subprocess.run(
        [sys.executable, "-c", "from caterpillar_learn.i18n import language_choices; print(language_choices())"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert "{'code': 'fr', 'name': 'Français'}" in named.stdout, named.stdout + named.stderr


# -- check-translation ------------------------------------------------------------------------------------------


def test_check_translation_passes_the_shipped_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-translation", str(i18n._FOLDER / "de")]) == 0
    assert capsys.readouterr().out.strip() == f"{i18n._FOLDER / 'de'}: no problems found"


def test_check_translation_finds_a_broken_placeholder_and_a_missing_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fr = french(tmp_path)
    edit(fr / "lessons.json", hint__value="environ {valeur:.1f} points", ui__roll=None, ui__rol="Lancer")
    edit(fr / "classroom.json", desk__pupils__few="{count} élèves")
    edit(fr / "caterpillars.json", score__final="{total + {bonus}")
    (fr / "ui.json").unlink()
    assert main(["check-translation", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    expected = [
        f"{fr / 'ui.json'}: -: missing: copy this file from the English folder and translate it",
        f"{fr / 'caterpillars.json'}: score.final: a brace without its partner (write {{{{ for a brace that is shown)",
        f"{fr / 'classroom.json'}: desk.pupils.few: this language has no plural form 'few' "
        "(its forms: one, many, other)",
        f"{fr / 'lessons.json'}: hint.value: placeholders valeur:.1f, expected value:.1f as in English",
        f"{fr / 'lessons.json'}: ui.rol: English has no message of this name: check its spelling",
        f"{fr / 'lessons.json'}: ui.roll: missing; English says: Roll",
        "Problems found: 6",
    ]
    assert lines == expected


def test_check_translation_of_no_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-translation", str(tmp_path / "nowhere")]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith("caterpillar-learn check-translation: DIR: got ") and "\n" not in said


def test_check_translation_says_when_the_name_is_still_english(tmp_path: Path) -> None:
    from caterpillar_learn.i18n.check import check_folder

    fr = french(tmp_path)
    edit(fr / "language.json", name="English")
    assert [(p.key, p.what[:17]) for p in check_folder(fr)] == [("name", "still says 'Engli")]


# -- the guides ---------------------------------------------------------------------------------------------


def test_docs_prints_each_guide_with_its_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    shipped = guides(shipped_docs())
    assert {path.name for path in shipped} >= {"TEACHERS.md", "TRANSLATING.md", "DEPLOY.md"}
    assert len(lines) == len(shipped)
    for line, path in zip(lines, shipped):
        assert line.endswith(f": {path}") and Path(line.rsplit(": ", 1)[1]).is_file(), line
    assert "Translating caterpillar-learn: " in "\n".join(lines)


def test_the_wheel_is_told_to_carry_the_guides() -> None:
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"caterpillar_learn.docs": "docs"' in setup
    assert '"caterpillar_learn.docs" = ["*.md", "images/*"]' in pyproject
