"""The Räuber Raupe lesson notebooks: paired, thin, without outputs, one table each."""

from __future__ import annotations

import json
from pathlib import Path

import jupytext
import pytest

from caterpillar_learn.lessons import SETUPS

LESSONS = Path(__file__).resolve().parents[2] / "lessons"


def test_every_table_has_a_lesson_and_every_lesson_a_table() -> None:
    assert sorted(p.stem for p in LESSONS.glob("1*-raupe-*.ipynb")) == sorted(SETUPS)


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_lesson_is_thin_paired_and_clean(name: str) -> None:
    notebook = json.loads((LESSONS / f"{name}.ipynb").read_text(encoding="utf-8"))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert all(not cell.get("outputs") and cell.get("execution_count") is None for cell in code)
    assert code[0]["metadata"].get("tags") == ["parameters"] and "SEED = " in "".join(code[0]["source"])
    source = "\n".join("".join(cell["source"]) for cell in code)
    assert f'RaupeWidget("{name}", seed=SEED, lang=LANG, voice=VOICE, hints=HINTS, level=LEVEL)' in source
    code_lines = [line for line in source.splitlines() if line and not line.startswith("#")]
    setting = [line for line in code_lines if not line.startswith(("from ", "table"))]
    assert not [line for line in code_lines if line.startswith(("def ", "class "))]
    assert len(setting) == 5, setting  # the settings, no code of its own
    paired = jupytext.read(LESSONS / f"{name}.py")
    assert [c.source for c in paired.cells] == ["".join(c["source"]) for c in notebook["cells"]]
