"""The lesson notebooks for the teacher (issue 42): a short note first, then one cell of settings.

The note is a markdown cell the lesson's web page never shows: its metadata
``transient.remove_source`` is what nbconvert's TagRemovePreprocessor writes
and what the templates Voila renders with (nbconvert's ``base/null.j2``) skip,
so a German page carries no English sentence.  The settings cell lists what a
teacher may change, one setting a line with a comment above it, and each
setting is passed to the lesson's call.
"""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

import nbformat
import pytest
from nbconvert import HTMLExporter

from caterpillar_learn.lessons.caterpillars import LESSONS, guided_game

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "lessons").glob("*.ipynb"))
#: The lesson's call: the widget made from the settings.
CALL = re.compile(r"^\w+ = (CaterpillarsLesson|LabWidget|RaupeWidget)\((.*)\)$", re.MULTILINE)


def _cells(path: Path) -> tuple[nbformat.NotebookNode, nbformat.NotebookNode, str]:
    notebook = nbformat.read(path, as_version=4)
    note, settings = notebook.cells[0], notebook.cells[1]
    calls = "\n".join(cell.source for cell in notebook.cells[2:] if cell.cell_type == "code")
    return note, settings, calls


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_the_note_is_short_and_for_the_teacher_alone(path: Path) -> None:
    note, _, _ = _cells(path)
    assert note.cell_type == "markdown" and note.source.startswith("**For the teacher**"), path.name
    assert note.metadata.get("transient") == {"remove_source": True}, f"{path.name}: the page would show the note"
    assert len(note.source.splitlines()) <= 6 and "caterpillar-learn serve" in note.source


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_every_setting_has_a_comment_and_goes_to_the_lesson(path: Path) -> None:
    _, settings, calls = _cells(path)
    assert settings.cell_type == "code" and settings.metadata.get("tags") == ["parameters"]
    lines = settings.source.splitlines()
    names = []
    for index, line in enumerate(lines):
        if not line.startswith("#"):
            assert index and lines[index - 1].startswith("# "), f"{path.name}: no comment above {line!r}"
            names.append(line.split(" = ")[0])
    assert {"SEED", "LANG", "VOICE"} <= set(names), names
    found = CALL.search(calls)
    assert found, calls
    call = ast.parse(f"f({found.group(2)})").body[0].value  # type: ignore[attr-defined]
    passed = {arg.id for arg in call.args if isinstance(arg, ast.Name)}
    passed |= {kw.value.id for kw in call.keywords if isinstance(kw.value, ast.Name)}
    assert set(names) <= passed, f"{path.name}: {sorted(set(names) - passed)} set but not passed"


def test_the_guided_games_dice_do_not_follow_the_seed_and_the_notebooks_say_so() -> None:
    for name, lesson in LESSONS.items():
        if lesson.scenario is None:
            continue
        dice = [[roll.dice for roll in guided_game(lesson, seed).rolls] for seed in (1, 2, 999)]
        assert dice[0] == dice[1] == dice[2], name  # the scenario's: whatever the seed
        _, settings, _ = _cells(ROOT / "lessons" / f"{name}.ipynb")
        assert "the guided game's dice are the lesson's own" in settings.source, name


def _page(notebook: nbformat.NotebookNode) -> str:
    """The page's HTML as Voila draws it: the lab template, without code (``strip_sources``)."""
    exporter = HTMLExporter(template_name="lab")
    exporter.exclude_input = exporter.exclude_input_prompt = exporter.exclude_output_prompt = True
    return exporter.from_notebook_node(notebook)[0]


def test_the_page_never_shows_the_note_and_would_without_its_metadata() -> None:
    notebook = nbformat.read(ROOT / "lessons" / "01-beginner.ipynb", as_version=4)
    words = "teaches where to write the dice"
    assert words in notebook.cells[0].source
    assert words not in _page(notebook)
    shown = copy.deepcopy(notebook)
    del shown.cells[0].metadata["transient"]
    assert words in _page(shown)  # the upstream hook this relies on is still there


def test_the_lessons_take_every_setting_with_a_value_of_its_own() -> None:
    from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
    from caterpillar_learn.ui.lab import LabWidget
    from caterpillar_learn.ui.raupe import RaupeWidget

    lesson = CaterpillarsLesson("01-beginner", seed=7, lang="de", voice=False)
    assert (lesson.lang, lesson.strings["voice_default"], lesson.session.start_seed) == ("de", "off", 7)
    table = RaupeWidget("10-raupe-shape", seed=3, lang="en", voice=False, hints=True, level="expert")
    assert table.strings["voice_default"] == "off" and table.session.setup.hints and table.session.level == "expert"
    lab = LabWidget("beginner", games=20, seed=2, lang="de", voice=True)
    assert lab.strings["voice_default"] == "on" and lab.lang == "de"
    for bad in ({"voice": "yes"}, {"hints": 1}, {"level": "godlike"}):
        with pytest.raises(ValueError, match=f"^{next(iter(bad)).replace('level', 'bot level')}: got "):
            RaupeWidget("10-raupe-shape", **bad)  # type: ignore[arg-type]
