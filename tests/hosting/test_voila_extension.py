"""``serve``'s Voila-only front-end extension: found by Voila, shipped in the package.

``caterpillar_learn_voila`` holds the rendering of a lesson's widget outputs
until the page has restored the kernel's widgets (the reason is in its
``static/remoteEntry.js``; the browser check is
``tests/browser/test_voila_widgets_restored.py``).
"""

from __future__ import annotations

import ast
import json
import re
from fnmatch import fnmatch
from pathlib import Path

from jupyterlab_server.config import get_federated_extensions
from voila.utils import get_voila_labextensions_path  # type: ignore[import-untyped]

from caterpillar_learn.ui.hosting.jupyter_data import VOILA_LIGHT_TEMPLATE, VOILA_TEMPLATE
from caterpillar_learn.ui.hosting.serve import SHARE, VOILA_LABEXTENSIONS, voila_argv

ROOT = Path(__file__).resolve().parents[2]
NAME = "caterpillar_learn_voila"


def test_serve_gives_voila_the_extension_folder() -> None:
    argv = voila_argv(Path("lessons"), 8866, open_browser=False)
    assert f"--VoilaConfiguration.extra_labextensions_path={VOILA_LABEXTENSIONS}" in argv


def test_voila_finds_a_loadable_extension_there() -> None:
    found = get_federated_extensions(get_voila_labextensions_path([str(VOILA_LABEXTENSIONS)]))
    assert NAME in found
    build = found[NAME]["jupyterlab"]["_build"]
    assert build["extension"] == "./extension"
    entry = VOILA_LABEXTENSIONS / NAME / build["load"]
    source = entry.read_text(encoding="utf-8")
    # A container as Voila's loader expects it: window._JUPYTERLAB[name] with init() and get().
    assert f'var NAME = "{NAME}";' in source and "init:" in source and "get:" in source
    assert "import " not in source and "require(" not in source  # no build step, no shared modules


def test_jupyterlab_does_not_see_it() -> None:
    assert NAME not in get_federated_extensions(get_voila_labextensions_path())


def test_the_files_are_package_data() -> None:
    # tomllib is Python 3.11+; the entry in [tool.setuptools.package-data] is a plain list of strings.
    text = (ROOT / "pyproject.toml").read_text()
    line = re.search(r'^"caterpillar_learn\.ui\.hosting" = (\[.*?\])$', text, re.M | re.S)
    assert line, "pyproject.toml: no package-data for caterpillar_learn.ui.hosting"
    patterns = ast.literal_eval(line.group(1))
    package = ROOT / "caterpillar_learn" / "ui" / "hosting"
    templates = SHARE / "voila" / "templates"
    shipped = [
        *(VOILA_LABEXTENSIONS / NAME).rglob("*"),
        *(templates / VOILA_TEMPLATE).rglob("*"),
        *(templates / VOILA_LIGHT_TEMPLATE).rglob("*"),
    ]
    files = [p.relative_to(package).as_posix() for p in shipped if p.is_file() and "__pycache__" not in p.parts]
    assert {"index.html.j2", "remoteEntry.js", "lesson-page.js"} <= {name.rsplit("/", 1)[-1] for name in files}
    for name in files:
        assert any(fnmatch(name, pattern) for pattern in patterns), name
    assert json.loads((VOILA_LABEXTENSIONS / NAME / "package.json").read_text(encoding="utf-8"))["name"] == NAME
