"""``caterpillar-learn serve``: the lesson notebooks as Voila web pages.

Voila runs in this process on the ``lessons/`` folder: the page at
``http://localhost:PORT/`` lists every lesson and a lesson shows its widgets
and text but never its code.  Learners see no tracebacks either, whatever a
local ``voila.json`` says (``--show_tracebacks`` is forced off here).

The lessons' kernels run the Python that runs this command, so a lesson sees
exactly the packages the server sees, without ``python -m ipykernel
install``: a kernel spec named ``python3`` pointing at :data:`sys.executable`
is written to a temporary directory that goes first on ``JUPYTER_PATH``.

>>> lessons_url(8866)
'http://localhost:8866/'
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import socket
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import caterpillar_learn
from caterpillar_learn.errors import CaterpillarLearnError, describe

#: Voila's own default port, so the URL matches what Voila's documentation says.
DEFAULT_PORT = 8866
#: Loopback only: a classroom laptop must not publish its kernels to the network.
HOST = "localhost"
#: The kernel name the lesson notebooks ask for in their metadata.
KERNEL_NAME = "python3"
#: The ``lessons/`` folder of a checkout (editable install, Binder, CI).
CHECKOUT_LESSONS = Path(caterpillar_learn.__file__).resolve().parent.parent / "lessons"


class ServeError(CaterpillarLearnError):
    """The lessons cannot be served as asked (bad folder, busy port)."""


# -- where the lessons are -------------------------------------------------------


def find_lessons(explicit: str | Path | None = None) -> Path:
    """The folder of lesson notebooks: ``explicit``, else the checkout's ``lessons/``.

    >>> find_lessons("/nonexistent")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.hosting.serve.ServeError: --lessons: got '/nonexistent', expected a folder ...
    """
    if explicit is not None:
        folder = Path(explicit).expanduser().resolve()
        if not folder.is_dir() or not any(folder.glob("*.ipynb")):
            raise ServeError(describe("--lessons", str(explicit), "a folder holding lesson notebooks (*.ipynb)"))
        return folder
    for candidate in (CHECKOUT_LESSONS, Path.cwd() / "lessons"):
        if candidate.is_dir() and any(candidate.glob("*.ipynb")):
            return candidate
    raise ServeError(describe("lessons", str(CHECKOUT_LESSONS), "a checkout's lessons/ folder (or give --lessons DIR)"))


def lesson_notebooks(folder: Path) -> list[Path]:
    """The lessons in the order the list shows them (file name order: 00, 01, ...)."""
    return sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))


# -- which port ------------------------------------------------------------------


def port_is_free(port: int) -> bool:
    """Whether nothing listens on ``port`` of the loopback interface.

    >>> with socket.socket() as busy:
    ...     busy.bind(("127.0.0.1", 0)); busy.listen()
    ...     port_is_free(busy.getsockname()[1])
    False
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as error:
            if error.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


def pick_port(requested: int) -> int:
    """``requested`` if it is free; 0 means any free port the system hands out.

    >>> 1 <= pick_port(0) <= 65535
    True
    >>> pick_port(70000)
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.hosting.serve.ServeError: --port: got 70000, expected a port from 1 to 65535, or 0 for any \
free port
    """
    if not 0 <= requested <= 65535:
        raise ServeError(describe("--port", requested, "a port from 1 to 65535, or 0 for any free port"))
    if requested == 0:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind(("127.0.0.1", 0))
            port: int = probe.getsockname()[1]
            return port
    if not port_is_free(requested):
        raise ServeError(describe("--port", requested, "a free port (or --port 0 for any free one)"))
    return requested


# -- the kernel ------------------------------------------------------------------


def kernel_spec(python: str = sys.executable) -> dict[str, object]:
    """The kernel spec that runs lessons with ``python``.

    >>> kernel_spec("/venv/bin/python")["argv"][:3]
    ['/venv/bin/python', '-m', 'ipykernel_launcher']
    """
    return {
        "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (caterpillar-learn)",
        "language": "python",
        "metadata": {"debugger": False},
    }


@contextmanager
def pinned_kernel(python: str = sys.executable) -> Iterator[Path]:
    """A temporary Jupyter data folder whose ``python3`` kernel runs ``python``.

    It goes first on ``JUPYTER_PATH`` while the block runs, ahead of any
    ``python3`` kernel a user installed for another interpreter.
    """
    before = os.environ.get("JUPYTER_PATH")
    with tempfile.TemporaryDirectory(prefix="caterpillar-learn-jupyter-") as data:
        spec_dir = Path(data) / "kernels" / KERNEL_NAME
        spec_dir.mkdir(parents=True)
        (spec_dir / "kernel.json").write_text(json.dumps(kernel_spec(python), indent=1), encoding="utf-8")
        os.environ["JUPYTER_PATH"] = os.pathsep.join([data, *([before] if before else [])])
        try:
            yield Path(data)
        finally:
            if before is None:
                os.environ.pop("JUPYTER_PATH", None)
            else:
                os.environ["JUPYTER_PATH"] = before


# -- Voila -----------------------------------------------------------------------


def lessons_url(port: int) -> str:
    """The address of the lesson list."""
    return f"http://{HOST}:{port}/"


def voila_argv(lessons: Path, port: int, *, open_browser: bool) -> list[str]:
    """Voila's command line for serving ``lessons`` on ``port``."""
    argv = [
        str(lessons),
        f"--Voila.ip={HOST}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",  # the printed URL must stay true: never wander to another port
        f"--Voila.open_browser={open_browser}",
        "--VoilaConfiguration.show_tracebacks=False",
        "--VoilaConfiguration.strip_sources=True",
        f"--MappingKernelManager.default_kernel_name={KERNEL_NAME}",
    ]
    return argv


def serve(lessons: Path, port: int, *, open_browser: bool) -> int:
    """Serve ``lessons`` with Voila on ``port`` until interrupted."""
    # lazy: the rest of the command line must not pay for importing Jupyter
    from voila.app import Voila  # type: ignore[import-untyped]

    with pinned_kernel():
        app = Voila()
        app.initialize(voila_argv(lessons, port, open_browser=open_browser))
        app.start()
    return 0


def _handle(args: argparse.Namespace) -> int:
    lessons = find_lessons(args.lessons)
    port = pick_port(args.port)
    names = ", ".join(p.stem for p in lesson_notebooks(lessons))
    print(f"Lessons ({names}) at {lessons_url(port)}", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    try:
        return serve(lessons, port, open_browser=not args.no_browser)
    except KeyboardInterrupt:
        return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` to the ``caterpillar-learn`` command."""
    parser = subparsers.add_parser(
        "serve",
        help="serve the lessons as web pages (Voila) on this computer",
        description=(
            "Serve the lesson notebooks with Voila at http://localhost:PORT/ (this computer only). "
            "Learners see the lessons without their code."
        ),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port to listen on (default {DEFAULT_PORT}; 0 picks any free port); a busy port is an error",
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a web browser (servers, CI)")
    parser.add_argument(
        "--lessons", metavar="DIR", default=None, help="folder of lesson notebooks (default: the checkout's lessons/)"
    )
    parser.set_defaults(handler=_handle)
