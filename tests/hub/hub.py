"""A real JupyterHub on loopback with the example configuration (``deploy/jupyterhub/jupyterhub_config.py``).

:func:`start_hub` writes a configuration that loads the example and
changes only what a test must: free ports on 127.0.0.1, the hub's files
and the classroom's rooms in the test's folder, the trial's dummy login and
simple spawner (the example's own switch), and the users who are teachers.
The proxy is configurable-http-proxy from npm, pinned by
``deploy/jupyterhub/package-lock.json`` (``python3 dev.py test`` runs
``npm ci`` there).
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import psutil

from tests.browser.conftest import Server, free_port, start_server

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
PROXY = ROOT / "deploy" / "jupyterhub" / "node_modules" / ".bin" / "configurable-http-proxy"
#: The trial's password (any user name logs in with it).
PASSWORD = "caterpillar-trial"
#: The users put into the group ``teachers`` (the others are pupils or other staff).
TEACHERS = ("ms-ada",)
PREFIX = "/services/classroom"


@dataclass
class Hub:
    """A running hub: its process (and so its proxy, the classroom service and the users' servers)."""

    server: Server
    url: str
    folder: Path

    @property
    def classroom(self) -> str:
        return self.url + PREFIX

    def stop(self) -> None:
        self.server.stop()


def start_hub(folder: Path) -> Hub:
    """The example hub on free ports, its files in ``folder``, once the classroom answers through its proxy.

    The hub gives a managed service ten seconds to answer, then gives up and stops (JupyterHub's own rule).
    The classroom answers in under 2 s on a quiet machine; beside the suite's other workers and browsers it
    can take longer (11-19 s in fresh-clone runs beside the suite's other workers, 2026-12-06), so the test's hub
    waits up to :data:`SERVICE_PATIENCE` s at each of its ten looks (:data:`PATIENT`), the hub (and so the
    service, its child) runs before the other workers (a lower niceness, as root), and a hub that gave up anyway
    is started once more, on other ports, after what it left running (its service, its proxy) is stopped.
    """
    if not PROXY.exists():
        raise RuntimeError(f"no {PROXY}: run `npm ci` in {PROXY.parents[2]} (python3 dev.py test does)")
    try:
        return _start_hub(folder / "1")
    except RuntimeError as error:
        if "Cannot connect to classroom service" not in str(error):
            raise
        _stop_left_over(folder / "1")
        return _start_hub(folder / "2")


#: Seconds the test's hub waits for its managed classroom at each of JupyterHub's ten looks (its own: 1 s).
SERVICE_PATIENCE = 6
#: Put into the test hub's configuration: JupyterHub's look at a starting managed service waits
#: :data:`SERVICE_PATIENCE` s instead of 1 (``JupyterHub.start_service`` makes ten looks, a fixed number).
PATIENT = f"""
import jupyterhub.objects as _objects
_wait_up = _objects.Server.wait_up
def _patient(self, timeout=10, http=False, ssl_context=None, extra_path=""):
    return _wait_up(self, max(timeout, {SERVICE_PATIENCE}), http, ssl_context, extra_path)
_objects.Server.wait_up = _patient
"""


def _stop_left_over(folder: Path) -> None:
    """Stop what a hub that gave up left running: the classroom it started (its rooms are in ``folder``) and its
    proxy (its pid file is in ``folder``); both outlive the hub, each in a session of its own."""
    pid_file = folder / "proxy.pid"
    proxy = int(pid_file.read_text()) if pid_file.exists() and pid_file.read_text().strip().isdigit() else None
    for process in psutil.process_iter(["pid", "cmdline"]):
        if process.info["pid"] == proxy or str(folder / "classroom") in " ".join(process.info["cmdline"] or ()):
            with contextlib.suppress(psutil.Error):
                process.kill()


def _start_hub(folder: Path) -> Hub:
    folder.mkdir(parents=True)
    port, api, hub_port, classroom = (free_port() for _ in range(4))
    config = folder / "jupyterhub_config.py"
    config.write_text(
        "c = get_config()  # noqa: F821\n"
        f"load_subconfig({str(EXAMPLE)!r})  # noqa: F821\n"
        f"c.JupyterHub.bind_url = 'http://127.0.0.1:{port}'\n"
        f"c.JupyterHub.hub_bind_url = 'http://127.0.0.1:{hub_port}'\n"
        f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{api}'\n"
        f"c.ConfigurableHTTPProxy.command = [{str(PROXY)!r}]\n"
        f"c.JupyterHub.db_url = 'sqlite:///{folder / 'jupyterhub.sqlite'}'\n"
        f"c.JupyterHub.cookie_secret_file = {str(folder / 'cookie_secret')!r}\n"
        f"c.ConfigurableHTTPProxy.pid_file = {str(folder / 'proxy.pid')!r}\n"
        "c.JupyterHub.log_level = 'INFO'\n" + PATIENT
    )
    env = {
        **os.environ,
        "CATERPILLAR_HUB_TRIAL": "1",
        "CATERPILLAR_HUB_PASSWORD": PASSWORD,
        "CATERPILLAR_HUB_TEACHERS": ",".join(TEACHERS),
        "CLASSROOM_URL": f"http://127.0.0.1:{classroom}",
        "CLASSROOM_DATA": str(folder / "classroom"),
    }
    url = f"http://127.0.0.1:{port}"
    hub = Path(sys.executable).with_name("jupyterhub")
    command = [*(["nice", "-n", "-10"] if os.geteuid() == 0 else []), str(hub), "-f", str(config)]
    server = start_server(command, f"{url}{PREFIX}/join", folder / "hub.log", cwd=folder, env=env)
    return Hub(server, url, folder)
