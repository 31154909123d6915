#!/usr/bin/env python3
"""Set up and run caterpillar-learn on a machine that has only python3.

    python3 dev.py lessons      # start the lessons (the main job)
    python3 dev.py test         # run the linters and the whole test suite, as CI does

Both create ``.venv`` next to this file on first use and (re)install the
package with every extra (``[dev]``) whenever ``pyproject.toml`` changes.  Any further
arguments are passed on: ``python3 dev.py test -m "not slow"``,
``python3 dev.py lessons --port 8899``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".dev-stamp"
CHROMIUM = Path("/usr/bin/chromium")
#: Debian packages the tests use, by a file each installs: the browser, and poppler-utils (``pdftotext``,
#: ``pdfinfo``) for the printed score sheets (tests/browser/test_print_classroom.py).
TEST_PACKAGES = {CHROMIUM: "chromium", Path("/usr/bin/pdftotext"): "poppler-utils"}
#: ``dev.py test`` runs these before pytest (configuration in pyproject.toml).
LINT_STEPS = (("ruff", "check", "."), ("ruff", "format", "--check", "."), ("mypy",))
#: The npm packages the tests use, each folder pinned with every package's hash by its package-lock.json:
#: the front end's (TypeScript for the check, preact's source for the vendored copy's test) and the
#: JupyterHub tests' proxy (configurable-http-proxy, tests/hub).
WIDGETS = ROOT / "widgets"
NODE_FOLDERS = (WIDGETS, ROOT / "deploy" / "jupyterhub")
#: The JavaScript's check, beside the linters: TypeScript's checkJs over the JSDoc types (widgets/tsconfig.json).
JS_STEPS = (("node", "widgets/node_modules/typescript/bin/tsc", "-p", "widgets"),)


def _run(*cmd: str | Path) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT)


def ensure_venv(extra: str = "dev") -> None:
    """Create the virtualenv and install the package with ``extra`` when pyproject changed: ``lessons`` for
    ``dev.py lessons`` (Voila and the widgets, nothing of the tests), ``dev`` (every extra and the test
    tools) for ``dev.py test``.  The stamp names the extra; a ``dev`` install serves the lessons too."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    stamp = STAMP.read_text().split() if STAMP.exists() else []
    if stamp[:1] == [wanted] and stamp[1:] in ([extra], ["dev"]):
        return
    if not (BIN / "python").exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    pip = (BIN / "python", "-m", "pip", "--disable-pip-version-check")
    _run(*pip, "-q", "install", "--upgrade", "pip")
    print(f"dev.py: installing caterpillar-learn[{extra}] into {VENV.name} (the first time takes minutes)", flush=True)
    _run(*pip, "install", "--progress-bar", "on", "-e", f".[{extra}]")
    STAMP.write_text(f"{wanted} {extra}")


def ensure_test_packages() -> None:
    """The browser tests drive Debian's Chromium, and the print tests read PDFs back with poppler-utils'
    ``pdftotext``: install whichever is missing when we may."""
    missing = [package for path, package in TEST_PACKAGES.items() if not path.exists()]
    if not missing:
        return
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        _run("apt-get", "update", "-q")
        _run("apt-get", "install", "-y", "-q", *missing)
    else:
        named = " ".join(missing)
        sys.exit(
            f"dev.py: the tests need Debian's {named} "
            f"({', '.join(str(path) for path, package in TEST_PACKAGES.items() if package in missing)}); "
            f"install it (apt-get install {named}) and run again"
        )


def ensure_node_packages() -> None:
    """``npm ci`` in each of :data:`NODE_FOLDERS` whose lock file changed (the machine's Node.js and npm;
    npm's registry)."""
    for folder in NODE_FOLDERS:
        wanted = hashlib.sha256((folder / "package-lock.json").read_bytes()).hexdigest()
        stamp = folder / "node_modules" / ".dev-stamp"
        if stamp.exists() and stamp.read_text() == wanted:
            continue
        if not shutil.which("npm"):
            sys.exit("dev.py: the tests need Node.js and npm (apt-get install nodejs npm)")
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], check=True, cwd=folder)
        stamp.write_text(wanted)


def _workers(args: list[str]) -> list[str]:
    """pytest-xdist's options: two workers more than there are cores (at most 6), each test file on one
    worker, so the servers a file's tests share start once, handed out in the order ``tests/conftest.py``
    gives (the longest files first, not xdist's own order by number of tests); none when the arguments choose (``-n``,
    ``-p no:xdist``).  The extra workers fill the time the browser tests spend waiting on a game's clock, a
    server's cull or a voice (2 cores: 694 s with 2 workers, 594 s with 3, 567 s with 4; docs/PERFORMANCE.md)."""
    if any(a.startswith(("-n", "--numprocesses", "--dist")) or a == "no:xdist" for a in args):
        return []
    return ["-n", str(min((os.cpu_count() or 1) + 2, 6)), "--dist", "loadfile", "--no-loadscope-reorder"]


def _test_env() -> dict[str, str]:
    """The tests' environment: this one, with Python's bytecode cache on (``__pycache__``, ignored by git).

    A machine that sets ``PYTHONDONTWRITEBYTECODE`` (this project's CI machines do) has every process
    compile from source each time it starts: each pytest worker's test modules (with pytest's assertion
    rewriting: 9.7 s of a core to collect the suite, 5.8 s with the cache) and, in the virtualenvs the tests
    make (uv installs without compiling), every server and kernel they start, about a hundred of them.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _warm_collection() -> subprocess.Popen[bytes]:
    """pytest's collection, once, in the background while the linters run (mypy and tsc keep one core): it
    compiles the test modules (with pytest's assertion rewriting) and the package into the bytecode cache,
    so each pytest-xdist worker's own collection reads them (5.8 s of a core instead of 9.7). What it prints
    is dropped: the run that follows collects the same files and reports any error."""
    collect = ["-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"]
    return subprocess.Popen(
        [str(BIN / "python"), *collect],
        cwd=ROOT,
        env=_test_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def main(argv: list[str]) -> int:
    try:
        return _main(argv)
    except subprocess.CalledProcessError as error:
        print(f"dev.py: {' '.join(map(str, error.cmd))} failed with exit status {error.returncode}", file=sys.stderr)
        return error.returncode or 1


def _main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"lessons", "test"}:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    ensure_venv("lessons" if command == "lessons" else "dev")
    if command == "lessons":
        cli = BIN / "caterpillar-learn"
        return subprocess.call([str(cli), "serve", *rest], cwd=ROOT)
    warming = _warm_collection()
    ensure_test_packages()
    ensure_node_packages()
    # The linters are steps of their own, before the tests (each names what it found); all of them run,
    # and the command fails if any step failed.
    failed = [" ".join(step) for step in LINT_STEPS if subprocess.call([str(BIN / "python"), "-m", *step], cwd=ROOT)]
    failed += [" ".join(step) for step in JS_STEPS if subprocess.call(list(step), cwd=ROOT)]
    warming.wait()
    tests = subprocess.call([str(BIN / "python"), "-m", "pytest", *_workers(rest), *rest], cwd=ROOT, env=_test_env())
    for step in failed:
        print(f"dev.py: {step} found problems (see above)", file=sys.stderr)
    return tests or (1 if failed else 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
