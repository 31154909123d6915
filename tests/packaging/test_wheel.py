"""The wheel, installed as a user would install it (issue 18): each extra brings what its commands need.

The wheel is built from the checkout (``uv build``, build isolation: the
setuptools ``pyproject.toml`` asks for), then installed into fresh
virtualenvs (:mod:`tests.virtualenvs`): the core install alone, and with
``[lessons]``.
"""

from __future__ import annotations

import json
import re
import subprocess
import tarfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests import virtualenvs
from tests.browser.conftest import Server, free_port
from tests.browser.driver import RENDER_TIMEOUT
from tests.virtualenvs import ROOT, UV
from tests.virtualenvs import run as _run

pytestmark = pytest.mark.slow

#: The core install: the package and what the engine and the hint generator need.
CORE_MOST = 12
STATE = {
    "level": "beginner",
    "labels": {"Alex": [1, 3, 6, 4], "Bobby": [6, 2, 3, 5], "Charlie": [5, 4, 2, 1]},
    "scores": {"Alex": [2, None, None, None], "Bobby": [None] * 4, "Charlie": [None] * 4},
}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run([UV, "build", "--quiet", "--wheel", "--out-dir", str(out), "."])
    (built,) = out.glob("caterpillar_learn-*.whl")
    return built


def _venv(where: Path) -> tuple[Path, dict[str, str], set[str]]:
    """A fresh virtualenv on this Python, its environment, and the distributions it starts with."""
    venv, env = virtualenvs.make(where)
    return venv, env, _distributions(venv, env)


#: What the virtualenv's own Python finds installed, by the names their metadata give (``-I``: not the
#: checkout's own egg-info, which the current folder would add).
LIST = "import importlib.metadata as m, json; print(json.dumps([d.metadata['Name'] for d in m.distributions()]))"


def _distributions(venv: Path, env: dict[str, str]) -> set[str]:
    listed = _run([str(venv / "bin" / "python"), "-I", "-c", LIST], env=env, timeout=120)
    return {re.sub(r"[-_.]+", "-", name).lower() for name in json.loads(listed.stdout)}


def test_the_core_install_answers_a_hint_and_names_the_extra_it_lacks(wheel: Path, tmp_path: Path) -> None:
    venv, env, before = _venv(tmp_path / "core")
    virtualenvs.install(venv, env, str(wheel))
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
    _a_teachers_language_and_the_guides(cli, wheel, venv, env, tmp_path)


def _a_teachers_language_and_the_guides(cli: str, wheel: Path, venv: Path, env: dict[str, str], where: Path) -> None:
    """From the wheel alone: the guides are inside it, the shipped German passes check-translation, and a French
    folder in the per-user data folder is offered by its own name, before and after the wheel is installed again."""
    guides = _run([cli, "docs"], cwd=where, env=env).stdout.splitlines()
    assert any(line.startswith("A guide for teachers: ") for line in guides), guides
    assert all(Path(line.rsplit(": ", 1)[1]).is_file() and "site-packages" in line for line in guides), guides
    python = str(venv / "bin" / "python")
    ask = "from caterpillar_learn.i18n import language_folder as f, language_choices as c; print(f('de')); print(c())"
    german = _run([python, "-c", ask], cwd=where, env=env).stdout.splitlines()[0]
    checked = _run([cli, "check-translation", german], cwd=where, env=env).stdout  # exit status 0
    assert checked.strip() == f"{german}: no problems found", checked
    data = {**env, "XDG_DATA_HOME": str(where / "data")}
    data.pop("CATERPILLAR_LEARN_LANGUAGES", None)
    french = where / "data" / "caterpillar-learn" / "languages" / "fr"
    french.mkdir(parents=True)
    (french / "language.json").write_text('{"name": "Français"}', encoding="utf-8")
    for _ in range(2):  # installed, then installed again (an upgrade): the folder lives outside site-packages
        assert "{'code': 'fr', 'name': 'Français'}" in _run([python, "-c", ask], cwd=where, env=data).stdout
        virtualenvs.install(venv, env, "--reinstall", str(wheel))


#: A wheel's version, from its file name.
WHEEL_VERSION = re.compile(r"^caterpillar_learn-([^-]+)-")


def test_the_sdist_and_wheel_carry_licences_and_docs_and_the_sdist_installs(wheel: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(wheel) as built:
        names = built.namelist()
    licences = {Path(name).name for name in names if ".dist-info/licenses/" in name}
    assert {"LICENSE", "LICENSE-preact"} <= licences, names
    assert {"caterpillar_learn/docs/TEACHERS.md", "caterpillar_learn/docs/TRANSLATING.md"} <= set(names), names
    _run([UV, "build", "--quiet", "--sdist", "--out-dir", str(tmp_path), "."])
    (sdist,) = tmp_path.glob("caterpillar_learn-*.tar.gz")
    with tarfile.open(sdist) as source:
        inside = {name.split("/", 1)[1] for name in source.getnames() if "/" in name}
    assert {"LICENSE", "README.md", "docs/WIDGETS.md", "docs/TEACHERS.md", "widgets/preact.js"} <= inside
    assert not any(name.startswith("widgets/node_modules") for name in inside)
    # The sdist builds and installs on its own, and the installed command answers a hint.
    venv, env, _ = _venv(tmp_path / "from-sdist")
    virtualenvs.install(venv, env, str(sdist))
    state = tmp_path / "state.json"
    state.write_text(json.dumps(STATE), encoding="utf-8")
    cli = str(venv / "bin" / "caterpillar-learn")
    answer = json.loads(_run([cli, "hint", "--state", str(state), "--roll", "2 6"], cwd=tmp_path, env=env).stdout)
    assert answer["exact"] is True, answer
    version = _run([cli, "--version"], cwd=tmp_path, env=env).stdout.strip()
    assert version == f"caterpillar-learn {WHEEL_VERSION.search(wheel.name)[1]}", version  # type: ignore[index]


@pytest.fixture(scope="module")
def lessons_install(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    venv, env, _ = _venv(tmp_path_factory.mktemp("lessons") / "venv")
    virtualenvs.install(venv, env, f"caterpillar-learn[lessons] @ {wheel.as_uri()}")
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
            time.sleep(0.3)  # poll: the next look for the address line, bounded by the deadline
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
            time.sleep(0.5)  # poll: the next ask for the folder's contents, bounded by the deadline
    assert sorted(entry["name"] for entry in listed if entry["name"].endswith(".ipynb")) == lessons
    assert len(lessons) >= 12 and not [entry for entry in listed if entry["name"].endswith(".py")]


@pytest.fixture
def plain_voila(lessons_install: tuple[Path, dict[str, str]], tmp_path: Path) -> Iterator[str]:
    """``voila --template=caterpillar-learn`` from the lessons install, on the folder ``notebooks`` copied out."""
    venv, env = lessons_install
    env = dict(env)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        env[name] = str(tmp_path / name.lower())  # the user's own Jupyter folders: empty ones
    _run([str(venv / "bin" / "caterpillar-learn"), "notebooks", "lessons"], cwd=tmp_path, env=env)
    port = free_port()
    cmd = [
        str(venv / "bin" / "voila"),
        "--template=caterpillar-learn",
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "lessons",
    ]
    log = tmp_path / "voila.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            cmd, cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Server(process, f"http://127.0.0.1:{port}", log)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, server.log_tail()
            try:
                with urllib.request.urlopen(server.url + "/", timeout=5):
                    break
            except OSError:
                assert time.monotonic() < deadline, server.log_tail()
                time.sleep(0.3)  # poll: the next ask for the page, bounded by the deadline
        yield server.url
    finally:
        server.stop()


@pytest.mark.browser
def test_plain_voila_draws_lesson_01_from_the_copied_notebooks(browser: Any, plain_voila: str) -> None:
    """What a teacher who installed with pip runs: ``caterpillar-learn notebooks DIR``, then plain Voila with the
    lessons' template.  Lesson 01 draws its board, and the page asks no other host for anything."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    try:
        page = context.new_page()
        page.goto(f"{plain_voila}/voila/render/01-beginner.ipynb")
        expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
    finally:
        context.close()
    host = urlsplit(plain_voila).netloc
    foreign = [url for url in requests if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).netloc != host]
    assert requests and not foreign, foreign
