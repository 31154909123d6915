"""The damage tests pass from a checkout in a private folder (issue 32, part 8).

``tests/classroom/test_damage.py`` runs the real server on read-only data:
as root it drops the capability to write whatever the mode bits say, and
that server must still reach the interpreter and the checkout.  A clone in
a folder of mode 0700 (a home folder, a temporary folder) is where that
failed before.  Here the checkout as it is now (its tracked files and the
new ones git does not ignore) is copied into such a folder and the whole
file runs there, in a pytest of its own, importing the copy.  A session that
collects this file runs the damage tests only here (``tests/classroom/conftest.py``
deselects them in place).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _copy_checkout(into: Path) -> None:
    """The files of the checkout git knows of or would add, as they are on disk (not the last commit)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def test_the_damage_tests_pass_from_a_clone_in_a_folder_of_mode_0700(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    private.chmod(0o700)
    clone = private / "caterpillar-learn"
    _copy_checkout(clone)
    assert (clone / "tests" / "classroom" / "test_damage.py").is_file()
    environment = {**os.environ, "PYTHONPATH": str(clone)}  # the copy's package, in the tests and their servers
    environment.pop("PYTEST_ADDOPTS", None)  # the outer run's options (a plugin of its own) are not the copy's
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "tests/classroom/test_damage.py",
        ],
        cwd=clone,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout, done.stdout[-2000:]
    assert (private.stat().st_mode & 0o777) == 0o700
