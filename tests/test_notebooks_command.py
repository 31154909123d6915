"""``caterpillar-learn notebooks DIR``: a teacher's own copies of the lessons, never overwriting their changes
unless asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from caterpillar_learn.cli import main
from caterpillar_learn.lessons.notebooks import lesson_notebooks, shipped_lessons


def test_the_lessons_are_copied_and_a_changed_one_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = shipped_lessons()
    assert shipped is not None
    names = [p.name for p in lesson_notebooks(shipped)]
    folder = tmp_path / "my lessons"
    assert main(["notebooks", str(folder)]) == 0
    assert sorted(p.name for p in folder.glob("*.ipynb")) == sorted(names)
    said = capsys.readouterr().out
    assert f"{len(names)} lesson(s) copied" in said and f"jupyter lab {folder}" in said

    mine = folder / names[1]
    mine.write_text('{"cells": [], "mine": true}', encoding="utf-8")
    (folder / names[0]).unlink()
    assert main(["notebooks", str(folder)]) == 0
    said = capsys.readouterr().out
    assert mine.read_text(encoding="utf-8") == '{"cells": [], "mine": true}'  # the teacher's change stays
    assert (folder / names[0]).read_bytes() == (shipped / names[0]).read_bytes()  # a missing one comes back
    assert f"kept your changes to {names[1]}" in said and "1 lesson(s) copied" in said

    assert main(["notebooks", str(folder), "--force"]) == 0
    assert mine.read_bytes() == (shipped / names[1]).read_bytes()


def test_a_file_in_the_way_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert main(["notebooks", str(blocker)]) == 2
    said = capsys.readouterr().err.strip()
    assert len(said.splitlines()) == 1 and said.startswith("caterpillar-learn notebooks: DIR: got"), said
