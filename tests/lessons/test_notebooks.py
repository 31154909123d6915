"""The lesson notebooks: committed without outputs, in step with their text
files, with no prose of their own but the teacher's note that the page never
shows (every word a learner reads comes from the message catalogue, in the
page's language: tests/lessons/test_teacher_cells.py), and each one runs top to bottom
in a fresh kernel, where its widget plays the lesson's game to the final
score the engine gives on its own.

nbval (``pytest --nbval-lax lessons/``) runs them too; since the notebooks
carry no outputs, the result is checked here instead: the test adds one cell
that plays the lesson's widget to its end and prints the final score."""

from __future__ import annotations

import re
from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

from caterpillar_learn.lessons import LESSONS
from caterpillar_learn.lessons.teacher import sample_game

#: The kernels read and write the session's solve cache (tests/conftest.py): a lesson's layout is solved once.
pytestmark = pytest.mark.usefixtures("solve_cache")

ROOT = Path(__file__).resolve().parents[2]
LESSON_DIR = ROOT / "lessons"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def read(name: str) -> nbformat.NotebookNode:
    return nbformat.read(LESSON_DIR / f"{name}.ipynb", as_version=4)


def run(name: str, *extra: str) -> nbformat.NotebookNode:
    notebook = read(name)
    notebook.cells += [nbformat.v4.new_code_cell(source) for source in extra]
    resources = {"metadata": {"path": str(LESSON_DIR)}}
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources=resources).execute()
    return notebook


def printed(notebook: nbformat.NotebookNode) -> str:
    return "".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "stream"
    )


def engine_final(name: str) -> int:
    """The sample game's final score (the first highlighted move each round), played in the engine alone."""
    return sample_game(name).score().final


#: Played in the notebook's kernel after its cells: the widget's first highlighted move each round.  A question the
#: lesson asks first is answered as the lesson leads a child: its first option, then what the show-me marks.
PLAY_TO_THE_END = """
def answer_the_question():
    for _ in range(40):
        question = lesson.question
        if not question or (question.get("feedback") or {}).get("correct"):
            return
        target = lesson.lesson["target"]
        if target == "check":
            lesson.act("check")
            continue
        if target == "question":
            option = question["options"][0]["id"]
        elif target.startswith("answer:"):
            option = target[len("answer:"):]
        else:
            return
        if question["on_board"]:
            name, box = option.split("-")
            lesson.act("box", caterpillar=name, box=int(box))
        else:
            lesson.act("answer", option=option)
        if target == "question":
            lesson.act("check")

session = lesson.session
while session.game.phase == "setup":
    session.game.play(session.game.legal_moves()[0])
while session.game.phase != "over":
    lesson.act("roll")
    answer_the_question()
    entry = lesson.legal[0]
    lesson.act("box", caterpillar=entry["caterpillar"], box=entry["box"])
    if lesson.menu:
        lesson.act("option", index=lesson.menu["options"][0]["index"])
    answer_the_question()
print(f"final score {session.game.score().final}.")
"""


@pytest.mark.parametrize("name", list(LESSONS))
def test_committed_without_outputs_and_paired(name: str) -> None:
    notebook = read(name)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: clear the outputs"
    text_file = jupytext.read(LESSON_DIR / f"{name}.py")
    assert [c.source for c in text_file.cells] == [c.source for c in notebook.cells], (
        f"{name}.ipynb and {name}.py differ: run jupytext --to ipynb lessons/{name}.py"
    )
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    kinds = [cell.cell_type for cell in notebook.cells]
    assert kinds == ["markdown"] + ["code"] * (len(kinds) - 1), f"{name}: prose beyond the teacher's note"
    seeds = [c for c in notebook.cells if c.cell_type == "code" and "parameters" in c.metadata.get("tags", [])]
    assert len(seeds) == 1 and "SEED =" in seeds[0].source


@pytest.mark.parametrize("name", [n for n, lesson in LESSONS.items() if "board" in lesson.widgets])
def test_a_game_lesson_runs_and_its_widget_plays_to_the_engines_final_score(name: str) -> None:
    notebook = run(name, PLAY_TO_THE_END)
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"], [o for o in outputs if o.output_type == "error"]
    assert sum(WIDGET_MIME in o.get("data", {}) for o in outputs) == 1, "one lesson widget per notebook"
    found = re.search(r"final score (\d+)\.", printed(notebook))
    assert found, printed(notebook)
    assert int(found.group(1)) == engine_final(name)


def test_the_strategy_lab_opens_with_its_run_shown() -> None:
    look = 'print(lab.lab["status"], lab.lab["svg"][:4])\nprint(lab.session.report.summary())'
    notebook = run("05-strategy-lab", look)
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert sum(WIDGET_MIME in o.get("data", {}) for o in outputs) == 1, "one lab widget"
    assert printed(notebook).startswith("ready <svg")
    assert len(re.findall(r"mean \d+\.\d over 200 games", printed(notebook))) == 4  # every strategy


def test_every_notebook_runs_once_and_none_is_left_out() -> None:
    """pytest's nbval run skips the notebooks this file runs itself (pyproject's ``--ignore-glob``)."""
    from fnmatch import fnmatch

    addopts = re.search(r"^addopts = \"(.*)\"$", (ROOT / "pyproject.toml").read_text(), re.M)
    assert addopts
    skipped = [glob.split("=", 1)[1] for glob in addopts.group(1).split() if glob.startswith("--ignore-glob=lessons/")]
    run_here = {name for name, lesson in LESSONS.items() if "board" in lesson.widgets} | {"05-strategy-lab"}
    left_to_nbval = set()
    for path in LESSON_DIR.glob("*.ipynb"):
        if any(fnmatch(f"lessons/{path.name}", glob) for glob in skipped):
            assert path.stem in run_here, f"{path.name}: skipped by nbval and not run here"
        else:
            left_to_nbval.add(path.stem)
    assert run_here.isdisjoint(left_to_nbval) and "10-raupe-shape" in left_to_nbval
