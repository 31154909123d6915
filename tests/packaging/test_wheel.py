"""The wheel, installed as a user would install it (issue 18): each extra brings what its commands need.

The wheel is built from the checkout (``uv build``, build isolation: the
setuptools ``pyproject.toml`` asks for), then installed into fresh
virtualenvs that see nothing of the test's own: the core install alone, and
with ``[lessons]``.  The installer is uv (the ``dev`` extra brings it): it
reads the same metadata and resolves the extras as pip does, and keeps what
it downloaded from PyPI in its own cache, so a machine that ran the tests
once installs ``[lessons]`` in seconds, where pip took one to two minutes
(pip's cache stays empty here: the index answers without cache headers).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from uv import find_uv_bin

from tests.browser.conftest import Server

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
INSTALL_TIMEOUT = 1200
UV = find_uv_bin()
#: The core install: the package and what the engine and the hint generator need.
CORE_MOST = 12
STATE = {
    "level": "beginner",
    "labels": {"Alex": [1, 3, 6, 4], "Bobby": [6, 2, 3, 5], "Charlie": [5, 4, 2, 1]},
    "scores": {"Alex": [2, None, None, None], "Bobby": [None] * 4, "Charlie": [None] * 4},
}


def _run(cmd: list[str], *, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: float = INSTALL_TIMEOUT):
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _clean_env(venv: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH")}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(venv)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run([UV, "build", "--quiet", "--wheel", "--out-dir", str(out), "."])
    (built,) = out.glob("caterpillar_learn-*.whl")
    return built


def _venv(where: Path) -> tuple[Path, dict[str, str], set[str]]:
    """A fresh virtualenv on this Python, its environment, and the distributions it starts with."""
    _run([UV, "venv", "--quiet", "--python", sys.executable, str(where)], timeout=300)
    env = _clean_env(where)
    return where, env, _distributions(where, env)


#: What the virtualenv's own Python finds installed, by the names their metadata give (``-I``: not the
#: checkout's own egg-info, which the current folder would add).
LIST = "import importlib.metadata as m, json; print(json.dumps([d.metadata['Name'] for d in m.distributions()]))"


def _distributions(venv: Path, env: dict[str, str]) -> set[str]:
    listed = _run([str(venv / "bin" / "python"), "-I", "-c", LIST], env=env, timeout=120)
    return {re.sub(r"[-_.]+", "-", name).lower() for name in json.loads(listed.stdout)}


def _install(venv: Path, env: dict[str, str], requirement: str) -> None:
    _run([UV, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"), requirement], env=env)


def test_the_core_install_answers_a_hint_and_names_the_extra_it_lacks(wheel: Path, tmp_path: Path) -> None:
    venv, env, before = _venv(tmp_path / "core")
    _install(venv, env, str(wheel))
    brought = _distributions(venv, env) - before
    assert "caterpillar-learn" in brought and len(brought) <= CORE_MOST, sorted(brought)
    assert not brought & {"voila", "jupyterlab", "panel", "bokeh", "tornado", "jupytext"}, sorted(brought)
    state = tmp_path / "state.json"
    state.write_text(json.dumps(STATE), encoding="utf-8")
    cli = str(venv / "bin" / "caterpillar-learn")
    answer = json.loads(_run([cli, "hint", "--state", str(state), "--roll", "2 6"], cwd=tmp_path, env=env).stdout)
    assert answer["exact"] is True and answer["move"] == answer["options"][0]["move"]
    for command, extra in (("serve", "lessons"), ("classroom", "classroom")):
        refused = subprocess.run([cli, command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        said = refused.stderr.strip()
        assert refused.returncode == 2 and len(said.splitlines()) == 1, said  # one line, no traceback
        assert said.startswith(f"caterpillar-learn {command}: ") and f"caterpillar-learn[{extra}]" in said, said
        helped = subprocess.run(
            [cli, command, "--help"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert helped.returncode == 0 and f"caterpillar-learn[{extra}]" in helped.stdout, helped.stdout
    python = str(venv / "bin" / "python")
    version = _run([python, "-m", "caterpillar_learn", "--version"], cwd=tmp_path, env=env).stdout.strip()
    assert version == f"caterpillar-learn {WHEEL_VERSION.search(wheel.name)[1]}", version  # type: ignore[index]
    copied = _run([cli, "notebooks", "mine"], cwd=tmp_path, env=env).stdout  # a teacher's copies, from the wheel
    assert "01-beginner.ipynb" in {p.name for p in (tmp_path / "mine").glob("*.ipynb")}, copied
    bare = subprocess.run([cli], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert bare.returncode == 2 and bare.stdout.startswith("usage: caterpillar-learn"), bare.stdout + bare.stderr


#: A wheel's version, from its file name.
WHEEL_VERSION = re.compile(r"^caterpillar_learn-([^-]+)-")


def test_the_wheel_and_the_sdist_carry_the_licences_and_the_docs(wheel: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(wheel) as built:
        names = built.namelist()
    licences = {Path(name).name for name in names if ".dist-info/licenses/" in name}
    assert {"LICENSE", "LICENSE-preact"} <= licences, names
    _run([UV, "build", "--quiet", "--sdist", "--out-dir", str(tmp_path), "."])
    (sdist,) = tmp_path.glob("caterpillar_learn-*.tar.gz")
    with tarfile.open(sdist) as source:
        inside = {name.split("/", 1)[1] for name in source.getnames() if "/" in name}
    assert {"LICENSE", "README.md", "docs/WIDGETS.md", "docs/TEACHERS.md", "widgets/preact.js"} <= inside
    assert not any(name.startswith("widgets/node_modules") for name in inside)


@pytest.fixture(scope="module")
def lessons_install(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    venv, env, _ = _venv(tmp_path_factory.mktemp("lessons") / "venv")
    _install(venv, env, f"caterpillar-learn[lessons] @ {wheel.as_uri()}")
    return venv, env


@pytest.fixture
def served_from_nowhere(lessons_install: tuple[Path, dict[str, str]], tmp_path: Path) -> Iterator[str]:
    """``caterpillar-learn serve`` from the lessons install, run in an empty folder; its address."""
    venv, env = lessons_install
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(venv / "bin" / "caterpillar-learn"), "serve", "--no-browser", "--port", "0"],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(process, "", log)
    try:
        deadline = time.monotonic() + 120
        while not (found := re.search(r"^Lessons \(.*\) at (\S+)$", log.read_text(errors="replace"), re.M)):
            assert process.poll() is None and time.monotonic() < deadline, server.log_tail()
            time.sleep(0.3)
        yield found.group(1)
    finally:
        server.stop()


def test_the_lessons_install_serves_every_lesson_from_an_empty_folder(served_from_nowhere: str) -> None:
    lessons = sorted(path.name for path in (ROOT / "lessons").glob("*.ipynb"))
    # What the lesson list draws itself from: Voila's contents of the folder it serves.
    contents = f"{served_from_nowhere.rstrip('/')}/voila/api/contents?content=1"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(contents, timeout=30) as answer:
                listed = json.loads(answer.read().decode("utf-8"))["content"]
            break
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.5)
    assert sorted(entry["name"] for entry in listed if entry["name"].endswith(".ipynb")) == lessons
    assert len(lessons) >= 12 and not [entry for entry in listed if entry["name"].endswith(".py")]
