"""Fixtures of the browser tests: a lesson server, Debian's Chromium, a page.

The server is ``caterpillar-learn serve --no-browser --port <free port>``,
started once per session in its own process group and stopped at the end
with every kernel it started.  The browser itself is the session-wide
``browser`` fixture of ``tests/conftest.py``.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import session_solves

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
START_TIMEOUT = 90.0


_HANDED_OUT: set[int] = set()


def free_port() -> int:
    """A port no one listens on, below the kernel's ephemeral range.

    A port the system hands out for ``bind(0)`` comes from the same range as every
    kernel's ZMQ ports and every outgoing connection, so between the probe and the
    server's own bind another process could take it (CI saw "port already in use").
    Below that range only servers that ask for a port by number bind, and each
    xdist worker draws from a block of its own.
    """
    worker = re.sub(r"\D", "", os.environ.get("PYTEST_XDIST_WORKER", "")) or "0"
    low = 20000 + 1000 * (int(worker) % 12)
    for port in random.sample(range(low, low + 1000), 1000):
        if port in _HANDED_OUT:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _HANDED_OUT.add(port)
        return port
    raise RuntimeError(f"no free port in {low}-{low + 999}")


def _children(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (kernels run in sessions of their own), whichever of its threads
    started it (a hub starts its proxy and its services from more than one)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        kids = []
        for children in Path(f"/proc/{parent}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                kids += [int(k) for k in children.read_text().split()]
        found += kids
        todo += kids
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


@dataclass
class Server:
    """A server process started by a test, its URL and its log."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        """SIGTERM to the process group, then SIGKILL to whatever is left (kernels too)."""
        descendants = _children(self.process.pid)
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in descendants) and time.monotonic() < deadline:
            time.sleep(0.2)  # poll: the next look for what is left, bounded by the deadline
        for pid in descendants:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def start_server(cmd: list[str], url: str, log: Path, *, cwd: Path = ROOT, env: dict[str, str] | None = None) -> Server:
    """Start ``cmd`` (in ``env``, this process's by default) in a new process group and wait until ``url``
    answers 200."""
    with log.open("wb") as out:
        process = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    server = Server(process, url, log)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            with contextlib.suppress(ProcessLookupError):  # what it started in its group and left running
                os.killpg(process.pid, signal.SIGKILL)
            raise RuntimeError(f"{cmd[0]} exited with {process.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return server
        except (OSError, urllib.error.URLError):
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"{url} did not answer within {START_TIMEOUT:.0f} s:\n{server.log_tail()}")
        time.sleep(0.3)  # poll: the next ask, bounded by the deadline


def cli_command() -> list[str]:
    """The installed ``caterpillar-learn`` script of this interpreter's environment."""
    script = Path(sys.executable).with_name("caterpillar-learn")
    return [str(script)] if script.exists() else [sys.executable, "-m", "caterpillar_learn.cli"]


def start_classroom(folder: Path, *options: str) -> Server:
    """``caterpillar-learn classroom`` on a free port, its rooms and its log in ``folder``, once its door answers."""
    port = free_port()
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(folder / "data"), *options]
    return start_server(cmd, f"http://127.0.0.1:{port}/join", folder / "classroom.log")


@pytest.fixture
def classroom_server(tmp_path: Path) -> Iterator[Server]:
    """``caterpillar-learn classroom`` of the test's own (a fresh data folder), stopped after it."""
    server = start_classroom(tmp_path)
    try:
        yield server
    finally:
        server.stop()


def printed_address(server: Server, label: str) -> str:
    """The address a server printed after ``label`` at start (``"Pupils join at:"``)."""
    found = re.search(rf"^{re.escape(label)}\s*(http://\S+)$", server.log.read_text(), re.MULTILINE)
    assert found, server.log_tail()
    return found.group(1)


def serve_lessons(
    tmp_path_factory: pytest.TempPathFactory, *options: str, lessons: Path | None = None
) -> Iterator[Server]:
    """``caterpillar-learn serve`` on a free port with the session's solve cache, until the generator is closed;
    ``lessons``: a folder of lessons of its own (a teacher's), else ours."""
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    # Another lessons folder (a teacher's, or a draft) may be tried with the same tests.
    other = str(lessons) if lessons is not None else os.environ.get("CATERPILLAR_LEARN_TEST_LESSONS")
    server = start_server(
        [
            *cli_command(),
            "serve",
            "--no-browser",
            "--port",
            str(port),
            *(["--lessons", other] if other else []),
            "--solve-cache",  # the session's: every server and kernel of the session reads one solve a layout
            str(session_solves()),
            *options,
        ],
        f"http://localhost:{port}/",
        log,
    )
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def lessons_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``caterpillar-learn serve`` on a free port, for the whole session."""
    yield from serve_lessons(tmp_path_factory)


@pytest.fixture(scope="session")
def german_lessons_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``caterpillar-learn serve --lang de``: every lesson's widgets start in German."""
    yield from serve_lessons(tmp_path_factory, "--lang", "de")


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})  # type: ignore[attr-defined]
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def screenshot(page: object, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    return path


@pytest.fixture(scope="session")
def axe_script() -> str:
    """The text of axe-core's ``axe.min.js`` (pinned, checked, cached: ``tests/browser/axe.py``)."""
    from .axe import AxeUnavailableError, axe_source

    try:
        return axe_source()
    except AxeUnavailableError as error:
        pytest.fail(str(error), pytrace=False)
