"""pyproject.toml installs exactly the lessons' Jupyter data (jupyter_data.installed_files()) where Jupyter
looks, and the wheel's package data still carries the same files for serve."""

from __future__ import annotations

import glob
import tomllib
from pathlib import Path

from caterpillar_learn.ui.hosting.jupyter_data import ETC, SHARE, installed_files

ROOT = Path(__file__).resolve().parents[2]


def declared() -> dict[str, set[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found: dict[str, set[str]] = {}
    for folder, patterns in config["tool"]["setuptools"]["data-files"].items():
        for pattern in patterns:
            for path in glob.glob(pattern, root_dir=ROOT):
                found.setdefault(folder, set()).add(Path(path).as_posix())
    return found


def test_data_files_install_every_file_and_nothing_else() -> None:
    wanted: dict[str, set[str]] = {}
    for folder, path in installed_files():
        wanted.setdefault(folder, set()).add(path)
    assert declared() == wanted


def test_the_folders_hold_the_template_the_mend_and_the_switch() -> None:
    folders = {folder for folder, _ in installed_files()}
    assert "share/jupyter/voila/templates/caterpillar-learn" in folders
    assert "share/jupyter/voila/labextensions/caterpillar_learn_voila/static" in folders
    assert "etc/jupyter/jupyter_server_config.d" in folders
    assert (SHARE / "voila" / "templates" / "caterpillar-learn" / "tree.html").is_file()
    assert (ETC / "jupyter_server_config.d" / "caterpillar_learn.json").is_file()
