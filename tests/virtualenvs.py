"""Fresh virtualenvs for the tests that install the project as a user, or Binder, would.

The installer is uv (the ``dev`` extra brings it): it reads the same metadata
and resolves the extras as pip does, and keeps what it downloaded from PyPI in
its own cache, so a machine that ran the tests once installs ``[lessons]`` in
seconds, where pip took one to two minutes (pip's cache stays empty here: the
index answers without cache headers).

A virtualenv made here sees nothing of the test's own environment: not its
``VIRTUAL_ENV``, ``PYTHONPATH`` or Jupyter folders.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from uv import find_uv_bin

ROOT = Path(__file__).resolve().parents[1]
INSTALL_TIMEOUT = 1200
UV = find_uv_bin()
#: What a fresh environment does not inherit from the test's: its own Python and Jupyter settings.
NOT_INHERITED = ("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "JUPYTER_PREFER_ENV_PATH")


def run(
    cmd: list[str], *, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: float = INSTALL_TIMEOUT
) -> subprocess.CompletedProcess[str]:
    """Run ``cmd``; fail the test with the end of its output if it fails."""
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def clean_env(venv: Path) -> dict[str, str]:
    """The test's environment with ``venv`` active and none of the settings in :data:`NOT_INHERITED`."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(venv)
    return env


def make(where: Path) -> tuple[Path, dict[str, str]]:
    """A fresh virtualenv on this Python at ``where``, and its environment."""
    run([UV, "venv", "--quiet", "--python", sys.executable, str(where)], timeout=300)
    return where, clean_env(where)


def install(venv: Path, env: dict[str, str], *requirements: str, cwd: Path = ROOT) -> None:
    """``pip install REQUIREMENTS`` into ``venv`` (uv's pip), run in ``cwd``."""
    run([UV, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"), *requirements], cwd=cwd, env=env)


def clone(into: Path) -> Path:
    """The checkout's files (tracked, and new ones not ignored) copied to ``into``: a clone, no builds or caches."""
    files = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    listed = subprocess.run(files, cwd=ROOT, capture_output=True, timeout=60, check=True)
    for name in filter(None, listed.stdout.decode("utf-8").split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted in the working tree but not yet from git's index is skipped
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into
