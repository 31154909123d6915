"""Helpers of the hosting tests: ``caterpillar-learn serve`` in a process of its own, and raw HTTP.

A server is started in a new process group, in a working directory of the
test's choosing, and its first line of output gives the address to use (with
the token, when there is one).  Requests go through :mod:`http.client`, so a
test sets the ``Host`` header it wants and sees redirects instead of
following them.
"""

from __future__ import annotations

import http.client
import ipaddress
import re
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from caterpillar_learn.network import local_addresses
from tests.browser.conftest import Server, cli_command

START_TIMEOUT = 90.0
ADDRESS_LINE = re.compile(r"^Lessons \(.*\) at (\S+)$", re.MULTILINE)


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: str


def fetch(url: str, *, host: str | None = None, cookie: str | None = None, timeout: float = 120.0) -> Response:
    """One GET of ``url`` (redirects not followed), with another ``Host`` header if asked."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    headers = {"Host": host} if host else {}
    if cookie:
        headers["Cookie"] = cookie
    try:
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers)
        answer = connection.getresponse()
        body = answer.read().decode("utf-8", errors="replace")
        return Response(answer.status, {k.lower(): v for k, v in answer.getheaders()}, body)
    finally:
        connection.close()


def network_address() -> str:
    """A non-loopback IPv4 address of this computer, or 0.0.0.0 when it has none."""
    for address in local_addresses():
        ip = ipaddress.ip_address(address)
        if ip.version == 4 and not ip.is_loopback and not ip.is_link_local:
            return address
    return "0.0.0.0"


def start_serve(args: list[str], cwd: Path, log: Path) -> tuple[Server, str]:
    """``caterpillar-learn serve ARGS`` in ``cwd``; returns the server and the address it printed."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*cli_command(), "serve", "--no-browser", *args],
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(process, "", log)
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"serve exited with {process.returncode}:\n{server.log_tail()}")
            found = ADDRESS_LINE.search(log.read_text(errors="replace"))
            if found:
                url = found.group(1).replace("://0.0.0.0:", "://127.0.0.1:")
                try:
                    if fetch(url, timeout=5).status == 200:
                        server.url = url
                        return server, url
                except OSError:
                    pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"serve did not answer within {START_TIMEOUT:.0f} s:\n{server.log_tail()}")
            time.sleep(0.3)  # poll: the next look, bounded by the deadline
    except BaseException:
        server.stop()
        raise


def kernel_count(server: Server) -> int:
    """Kernels the server runs now (its ``ipykernel_launcher`` child processes)."""
    try:
        children = psutil.Process(server.process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return 0
    count = 0
    for child in children:
        try:
            if "ipykernel_launcher" in " ".join(child.cmdline()) and child.status() != psutil.STATUS_ZOMBIE:
                count += 1
        except psutil.Error:
            continue
    return count


def wait_for_kernels(server: Server, wanted: int, timeout: float) -> int:
    """Poll until the server runs ``wanted`` kernels; returns the last count seen."""
    deadline = time.monotonic() + timeout
    while True:
        count = kernel_count(server)
        if count == wanted or time.monotonic() > deadline:
            return count
        time.sleep(0.25)  # poll: the next count, bounded by the timeout


def write_notebook(path: Path, *code: str) -> Path:
    """A notebook of code cells asking for the ``python3`` kernel, as the lessons do."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in code]
    nbformat.write(notebook, path)
    return path


@pytest.fixture
def served() -> Iterator[list[Server]]:
    """Servers a test starts; every one is stopped afterwards, kernels included."""
    servers: list[Server] = []
    yield servers
    for server in servers:
        server.stop()
