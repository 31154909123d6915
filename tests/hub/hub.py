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

import os
import sys
from dataclasses import dataclass
from pathlib import Path

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
    can take longer, so the hub (and so the service, its child) runs before them (a lower niceness, as root),
    and a hub that gave up so is started again, on other ports, up to :data:`HUB_TRIES` times (a fresh-clone run
    with a test run beside it saw two hubs give up in a row: each start warms what the next one imports).
    """
    if not PROXY.exists():
        raise RuntimeError(f"no {PROXY}: run `npm ci` in {PROXY.parents[2]} (python3 dev.py test does)")
    for attempt in range(1, HUB_TRIES + 1):
        try:
            return _start_hub(folder / str(attempt))
        except RuntimeError as error:
            if "Cannot connect to classroom service" not in str(error) or attempt == HUB_TRIES:
                raise
    raise AssertionError("unreachable")


#: How many times a hub whose managed classroom did not answer in JupyterHub's ten seconds is started.
HUB_TRIES = 3


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
        "c.JupyterHub.log_level = 'INFO'\n"
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
