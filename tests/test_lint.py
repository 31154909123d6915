"""The code base stays ruff and mypy clean (configuration in pyproject.toml).

These run the real tools over the repository, so CI fails when a change
breaks the house style or the types; run them directly while working:
``.venv/bin/ruff check .``, ``.venv/bin/ruff format .`` and ``.venv/bin/mypy``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    done = _run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_changes_nothing() -> None:
    done = _run("ruff", "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_finds_nothing() -> None:
    done = _run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
