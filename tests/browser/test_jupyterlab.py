"""A lesson as a classroom notebook, in real JupyterLab and Notebook 7 from this virtualenv.

``jupyter lab`` serves a temporary copy of ``lessons/`` with a token and the
kernel pinned to this interpreter, as ``caterpillar-learn serve`` pins it for
Voila.  The test opens the Beginner lesson, runs all its cells with the
*Run → Run All Cells* menu, waits until every code cell has run, then plays
one round in the rendered widget: roll, click the first highlighted box (and
the first option of its menu, if one opens), and the box shows its score.
The same server also serves Notebook 7's page for the same notebook.
"""

from __future__ import annotations

import json
import re
import secrets
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.ui.hosting.serve import KERNEL_NAME, kernel_spec, pinned_kernel

from .conftest import ROOT, Server, free_port, screenshot, start_server
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, follow_the_show_me

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "01-beginner"
#: The two front ends a teacher may open: JupyterLab and Notebook 7 (same server, same kernel).
FRONT_ENDS = {"jupyterlab": "lab/tree", "notebook7": "notebooks"}
#: A box's aria-label ends with its score once it has one (", empty" and the like before).
FILLED = re.compile(r", \d+$")


@dataclass
class Lab:
    server: Server
    port: int
    token: str
    lessons: Path

    def url(self, front_end: str, notebook: str) -> str:
        return f"http://127.0.0.1:{self.port}/{FRONT_ENDS[front_end]}/{notebook}?token={self.token}"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """``jupyter lab`` on a free port, on a copy of the lessons, kernel pinned to this Python."""
    home = tmp_path_factory.mktemp("jupyterlab")
    lessons = home / "lessons"
    shutil.copytree(ROOT / "lessons", lessons)
    jupyter = Path(sys.executable).with_name("jupyter-lab")
    assert jupyter.exists(), f"{jupyter} is missing: JupyterLab comes with the package (pip install -e .)"
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        str(jupyter),
        "--no-browser",
        "--allow-root",  # CI runs as root
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={lessons}",
        f"--MappingKernelManager.default_kernel_name={KERNEL_NAME}",
    ]
    with pytest.MonkeyPatch.context() as env, pinned_kernel():
        # Nothing of the user's Jupyter set-up (config, settings, workspaces) takes part, nor is written.
        for variable, folder in [
            ("JUPYTER_CONFIG_DIR", "config"),
            ("JUPYTER_RUNTIME_DIR", "runtime"),
            ("JUPYTERLAB_SETTINGS_DIR", "settings"),
            ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
        ]:
            env.setenv(variable, str(home / folder))
        server = start_server(cmd, f"http://127.0.0.1:{port}/api/status?token={token}", home / "jupyterlab.log")
        try:
            yield Lab(server, port, token, lessons)
        finally:
            server.stop()


def code_cells(notebook: Path) -> int:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return sum(cell["cell_type"] == "code" for cell in cells)


def run_all_cells(page: Page, count: int) -> None:
    """*Run → Run All Cells* once the kernel is idle, then wait until each of the ``count`` code cells shows its
    execution number (a run asked while the kernel still starts can be dropped on a loaded machine)."""
    expect(page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first).to_be_attached(
        timeout=2 * RENDER_TIMEOUT
    )
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()
    prompts = page.locator(".jp-CodeCell .jp-InputPrompt")
    expect(prompts).to_have_count(count)
    for index in range(count):  # "[ ]:" before, "[*]:" while running, "[3]:" when done
        expect(prompts.nth(index)).to_have_text(re.compile(r"^\s*\[\d+\]:\s*$"), timeout=RENDER_TIMEOUT)


def play_one_round(page: Page) -> None:
    """Roll, click the first highlighted box, take the first option if a menu opens: the box shows a score."""
    page.get_by_test_id("roll-button").click()
    expect(page.get_by_test_id("question").or_(page.get_by_test_id("legal-move").first)).to_be_visible(
        timeout=CLICK_TIMEOUT
    )
    follow_the_show_me(page)  # the lesson asks its question before the stars show
    expect(page.get_by_test_id("legal-move").first).to_be_visible(timeout=CLICK_TIMEOUT)
    # The box around the first legal-move of the page.
    box = page.locator("[data-testid^='box-']").filter(has=page.get_by_test_id("legal-move")).first
    name = box.get_attribute("data-testid")
    assert name is not None
    expect(page.get_by_test_id(name)).not_to_have_attribute("aria-label", FILLED)
    box.get_by_test_id("legal-move").click()
    # Either the box takes the score at once or a menu lists its moves: wait for one of the two.
    page.wait_for_function(
        """([name, filled]) => document.querySelector('[data-testid="move-option"]') !== null
            || new RegExp(filled).test(document.querySelector(`[data-testid="${name}"]`).getAttribute("aria-label"))""",
        arg=[name, FILLED.pattern],
        timeout=CLICK_TIMEOUT,
    )
    if page.get_by_test_id("move-option").count():
        page.get_by_test_id("move-option").first.click()
    expect(page.get_by_test_id(name)).to_have_attribute("aria-label", FILLED, timeout=CLICK_TIMEOUT)


@pytest.mark.parametrize("front_end", list(FRONT_ENDS))
def test_a_lesson_runs_and_plays_a_round(page: Page, lab: Lab, front_end: str) -> None:
    page.goto(lab.url(front_end, f"{LESSON}.ipynb"))
    try:
        expect(page.locator(".jp-Notebook")).to_be_visible(timeout=RENDER_TIMEOUT)
        # The kernel is this virtualenv's Python, whatever other kernels the machine has.
        display_name = str(kernel_spec()["display_name"])
        expect(page.get_by_text(display_name).first).to_be_visible(timeout=RENDER_TIMEOUT)
        run_all_cells(page, code_cells(lab.lessons / f"{LESSON}.ipynb"))
        expect(page.locator("[data-mime-type='application/vnd.jupyter.stderr']")).to_have_count(0)
        expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)

        play_one_round(page)
        # Printed (the browser's print, or JupyterLab's File → Print): the widget's own print rules apply here
        # too, the sheet without a button, menu or field of the widget.
        tapped = page.locator(".cl-root").locator("button:visible, select:visible, input:visible")
        assert tapped.count() > 0
        page.emulate_media(media="print")
        expect(page.get_by_test_id("sheet")).to_be_visible()
        expect(tapped).to_have_count(0)
        page.emulate_media(media="screen")
    finally:
        screenshot(page, f"{front_end}-{LESSON}")
