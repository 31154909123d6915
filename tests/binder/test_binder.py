"""Binder smoke test: build the session the way repo2docker would, render a lesson.

A fresh virtualenv gets exactly what ``binder/`` says (``binder/requirements.txt``
installed in a copy of the checkout, then ``binder/postBuild`` with that
virtualenv first on ``PATH``), then a plain ``jupyter server`` starts in the
copy, as a Binder session does, and the lesson is fetched through Voila's
server extension.  repo2docker reads the requirements file with pip; here uv
reads the same file (``uv pip install -r``: the same requirement lines, the
editable checkout with its ``[lessons]`` extra), from its own cache of PyPI's
files, which takes seconds where pip took one to two minutes.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from uv import find_uv_bin

from tests.browser.conftest import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
LESSON = "01-beginner.ipynb"
#: What a clone has and a checkout may have besides: left out of the copy.
NOT_IN_A_CLONE = (
    ".venv",
    ".git",
    "build",
    "dist",
    "*.egg-info",
    "artifacts",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    ".ipynb_checkpoints",
)
INSTALL_TIMEOUT = 240
START_TIMEOUT = 60


def _get(url: str, timeout: float = 60) -> tuple[int, str, str]:
    """Status, final URL (after redirects) and body of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.geturl(), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, url, error.read().decode("utf-8", "replace")


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], timeout: float) -> None:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


#: How Voila writes a widget output into the page (the widget then draws itself from its model).
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """A copy of the checkout with the binder/ environment installed next to it."""
    base = tmp_path_factory.mktemp("binder")
    repo = base / "repo"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(*NOT_IN_A_CLONE))
    venv = base / "venv"
    subprocess.run([find_uv_bin(), "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, timeout=120)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR")
    }
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(venv)
    # A private config/data dir, so nothing the machine's user configured leaks in.
    env["JUPYTER_CONFIG_DIR"] = str(base / "jupyter-config")
    env["JUPYTER_DATA_DIR"] = str(base / "jupyter-data")
    install = [find_uv_bin(), "pip", "install", "--quiet", "--python", str(venv / "bin" / "python")]
    _run([*install, "-r", "binder/requirements.txt"], cwd=repo, env=env, timeout=INSTALL_TIMEOUT)
    _run(["binder/postBuild"], cwd=repo, env=env, timeout=60)
    yield repo, env


@pytest.fixture(scope="module")
def binder_server(binder_env: tuple[Path, dict[str, str]], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``jupyter server`` in the copy, as a Binder session runs it (plus root and no token for CI)."""
    repo, env = binder_env
    port = free_port()
    log = (tmp_path_factory.mktemp("binder-log") / "server.log").open("w")
    server = subprocess.Popen(
        [
            str(Path(env["VIRTUAL_ENV"]) / "bin" / "jupyter"),
            "server",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            "--IdentityProvider.token=",
        ],
        cwd=repo,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert server.poll() is None, f"jupyter server exited early; see {log.name}"
            try:
                if _get(url + "/api/status", timeout=5)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"jupyter server did not answer in {START_TIMEOUT} s"
            time.sleep(0.5)
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


def test_binder_session_opens_the_lesson_list(binder_server: str) -> None:
    status, final_url, _ = _get(binder_server + "/")
    assert status == 200
    assert final_url.endswith("/voila/tree/lessons"), final_url


def test_binder_renders_a_lesson_without_its_code(binder_server: str) -> None:
    notebook = ROOT / "lessons" / LESSON
    status, _, page = _get(f"{binder_server}/voila/render/lessons/{LESSON}", timeout=120)
    assert status == 200, page[-2000:]
    text = html.unescape(page)
    assert WIDGET_VIEW in text and '"model_id"' in text  # the lesson's widget (its words come from the catalogue)
    code = [
        line.strip()
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "code"
        for line in "".join(cell["source"]).splitlines()
        if len(line.strip()) > 12
    ]
    shown = [line for line in code if html.escape(line) in page or line in text]
    assert not shown, f"code shown to learners: {shown[:3]}"
    assert "Traceback" not in text
