"""``caterpillar-learn serve``: the lesson notebooks as Voila web pages, for one computer or a class.

Voila runs in this process on the ``lessons/`` folder: the page at
``http://localhost:PORT/`` is the lesson gallery (a card per lesson, with a
picture of its board; ``?lang=de`` shows it in German, and its cards open
the lessons in that language) and a lesson shows its widgets and text but
never its code, on a light page (the ``caterpillar-learn-light`` template:
its widget run by a few KiB of JavaScript instead of Voila's JupyterLab
application, issue 40; a notebook that is not all anywidgets opens on
Voila's whole page).  Learners see no tracebacks either
(``show_tracebacks`` is forced off, and so are jupyter_server's), and no
configuration file is read: Voila would otherwise execute a ``voila.py``
found in the working directory.

For a class (see docs/ENGINEERS.md):

* ``--host ADDR`` opens the lessons to the network.  Loopback stays the
  default; on any other address the server needs a token: a random one is
  made at start and printed as part of the address
  (``http://ADDR:PORT/?token=...``), through jupyter_server's own token
  login (a pupil's browser keeps a login cookie after the first visit).  The
  token is 12 characters without look-alikes (no 0/o, 1/l/i), about 59 bits:
  short enough to type on a tablet, far too many to guess over a network.
* Every request's ``Host`` header must name this computer (its names, its
  addresses, or ``--allow-host NAME``), on loopback too: a page from another
  site that points its own name at this computer gets nothing.
* Every answer carries ``Referrer-Policy: no-referrer``,
  ``X-Content-Type-Options: nosniff`` and a Content-Security-Policy with
  ``frame-ancestors 'none'``, and the log never shows the token: the network
  policy the classroom server shares (:mod:`caterpillar_learn.network`).
* ``--max-kernels N`` (default 40: a class of 30, the teacher and a few
  pages still closing) caps the live kernels; when all are taken, a kernel
  whose page closed 15 s ago or more gives its place, and without one a page
  gets "The class is full" (HTTP 503).
* ``--cull-after SECONDS`` (default 600) stops a kernel whose page was closed
  or never connected after that long without activity.  A page that stays
  open keeps its kernel however long the learner thinks.
* The lessons' kernels share their exact solves through a cache folder
  (:mod:`caterpillar_learn.advice.disk_cache`): a fresh temporary folder,
  removed when the server stops, unless ``--solve-cache DIR`` names one to
  keep (or ``off``).
* ``--lang de`` makes German the gallery's and the lessons' first language
  (through :data:`caterpillar_learn.i18n.LANGUAGE_ENV`, which each kernel
  reads); the gallery's language menu and each lesson's can still switch.
* ``--languages DIR`` names the folder of the teacher's own languages
  (``DIR/fr``, ...; docs/TRANSLATING.md) instead of the per-user one, through
  :data:`caterpillar_learn.i18n.LANGUAGES_ENV`, which each kernel reads.

The lessons' kernels run the Python that runs this command, so a lesson sees
exactly the packages the server sees, without ``python -m ipykernel
install``: a kernel spec named ``python3`` pointing at :data:`sys.executable`
is written to a temporary directory that goes first on ``JUPYTER_PATH``.

>>> voila_argv(Path("lessons"), 8866, open_browser=False)[:2]
['lessons', '--Voila.ip=localhost']
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from caterpillar_learn.advice import disk_cache
from caterpillar_learn.errors import brief, describe
from caterpillar_learn.extras import require
from caterpillar_learn.i18n import LANGUAGE_ENV, LANGUAGES_ENV, available_languages, set_language
from caterpillar_learn.lessons.notebooks import CHECKOUT_LESSONS, lesson_notebooks, shipped_lessons
from caterpillar_learn.network import (
    HOST,
    ServeError,
    allowed_hosts,
    is_loopback,
    lessons_urls,
    new_token,
    pick_port,
)
from caterpillar_learn.ui.hosting.jupyter_data import (
    SHARE,
    VOILA_EXTENSIONS,
    VOILA_LABEXTENSIONS,
    VOILA_LIGHT_TEMPLATE,
)

#: Voila's own default port, so the URL matches what Voila's documentation says.
DEFAULT_PORT = 8866
#: The kernel name the lesson notebooks ask for in their metadata.
KERNEL_NAME = "python3"
#: A class of 30, the teacher's projector, and pages that are closing or about to be culled.
DEFAULT_MAX_KERNELS = 40
#: Ten minutes: a tablet that slept through the teacher's explanation finds its game again.
DEFAULT_CULL_SECONDS = 600
#: Below this, a page still opening on a loaded server may be culled before it connects
#: (30 pages opened at once on 2 cores took up to 80 s from the kernel's last output to the page's connection).
SHORT_CULL_SECONDS = 120
#: ``--solve-cache`` value that turns sharing off (each kernel solves its own layouts).
NO_SOLVE_CACHE = "off"


# -- where the lessons are -------------------------------------------------------


def find_lessons(explicit: str | Path | None = None) -> Path:
    """The folder of lesson notebooks: ``explicit`` (a teacher's own copy), else the checkout's
    ``lessons/``, else the lessons installed with the package (wherever the command is run).

    >>> find_lessons("/nonexistent")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    caterpillar_learn.network.ServeError: --lessons: got '/nonexistent', expected a folder ...
    """
    if explicit is not None:
        folder = Path(explicit).expanduser().resolve()
        if not folder.is_dir() or not any(folder.glob("*.ipynb")):
            raise ServeError(describe("--lessons", str(explicit), "a folder holding lesson notebooks (*.ipynb)"))
        return folder
    shipped = shipped_lessons()
    if shipped is None:
        raise ServeError(describe("lessons", str(CHECKOUT_LESSONS), "the installed lessons (or give --lessons DIR)"))
    return shipped


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
    ``python3`` kernel a user installed for another interpreter, followed by
    the package's own data folder (:data:`SHARE`: the lessons' Voila template).
    """
    before = os.environ.get("JUPYTER_PATH")
    with tempfile.TemporaryDirectory(prefix="caterpillar-learn-jupyter-") as data:
        spec_dir = Path(data) / "kernels" / KERNEL_NAME
        spec_dir.mkdir(parents=True)
        (spec_dir / "kernel.json").write_text(json.dumps(kernel_spec(python), indent=1), encoding="utf-8")
        os.environ["JUPYTER_PATH"] = os.pathsep.join([data, str(SHARE), *([before] if before else [])])
        try:
            yield Path(data)
        finally:
            if before is None:
                os.environ.pop("JUPYTER_PATH", None)
            else:
                os.environ["JUPYTER_PATH"] = before


# -- shared solves -----------------------------------------------------------------


@contextmanager
def shared_solves(choice: str | None) -> Iterator[Path | None]:
    """Name the kernels' solve cache folder in :data:`~caterpillar_learn.advice.disk_cache.ENV` while the block runs.

    ``None``: a fresh temporary folder, removed afterwards; :data:`NO_SOLVE_CACHE`:
    none (every kernel solves for itself); otherwise that folder, created if
    needed and kept.

    >>> with shared_solves(None) as folder:
    ...     os.environ[disk_cache.ENV] == str(folder) and folder.is_dir()
    True
    >>> folder.exists(), disk_cache.ENV in os.environ
    (False, False)
    """
    before = os.environ.get(disk_cache.ENV)
    temporary = choice is None
    if choice == NO_SOLVE_CACHE:
        folder = None
    elif choice is None:
        folder = Path(tempfile.mkdtemp(prefix="caterpillar-learn-solved-"))
    else:
        folder = Path(choice).expanduser().resolve()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            message = describe("--solve-cache", choice, f"a folder this user can write ({error.strerror})")
            raise ServeError(message) from None
    if folder is None:
        os.environ.pop(disk_cache.ENV, None)
    else:
        os.environ[disk_cache.ENV] = str(folder)
    try:
        yield folder
    finally:
        if before is None:
            os.environ.pop(disk_cache.ENV, None)
        else:
            os.environ[disk_cache.ENV] = before
        if temporary and folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


# -- Voila -----------------------------------------------------------------------


def cull_interval(cull_after: int) -> int:
    """How often to look for idle kernels: a tenth of the idle time, from 1 s to a minute.

    >>> cull_interval(600), cull_interval(3), cull_interval(7200)
    (60, 1, 60)
    """
    return max(1, min(60, cull_after // 10))


@dataclass(frozen=True)
class Hosting:
    """How the lessons are served: the address, its token, and the class's limits."""

    host: str = HOST
    token: str | None = None
    max_kernels: int = DEFAULT_MAX_KERNELS
    cull_after: int = DEFAULT_CULL_SECONDS
    #: Other names the Host header may give (a school's DNS alias, a reverse proxy).
    allow_hosts: tuple[str, ...] = ()


def voila_argv(lessons: Path, port: int, *, open_browser: bool, hosting: Hosting = Hosting()) -> list[str]:
    """Voila's command line for serving ``lessons`` on ``port`` of ``hosting.host``.

    >>> argv = voila_argv(Path("lessons"), 8866, open_browser=False, hosting=Hosting(max_kernels=2, cull_after=30))
    >>> "--ClassroomKernelManager.max_kernels=2" in argv, "--MappingKernelManager.cull_idle_timeout=30" in argv
    (True, True)
    >>> any(a.startswith("--Voila.token") for a in argv)
    False
    """
    host, max_kernels, cull_after = hosting.host, hosting.max_kernels, hosting.cull_after
    argv = [
        str(lessons),
        f"--Voila.ip={host}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",  # the printed URL must stay true: never wander to another port
        f"--Voila.open_browser={open_browser}",
        "--VoilaConfiguration.show_tracebacks=False",
        "--VoilaConfiguration.strip_sources=True",
        f"--VoilaConfiguration.extra_labextensions_path={VOILA_LABEXTENSIONS}",
        *(f"--VoilaConfiguration.extension_allowlist={name}" for name in VOILA_EXTENSIONS),
        f"--VoilaConfiguration.template={VOILA_LIGHT_TEMPLATE}",  # the light page (issue 40)
        "--VoilaConfiguration.classic_tree=True",  # the lesson list drawn on the server (the template's tree.html)
        f"--MappingKernelManager.default_kernel_name={KERNEL_NAME}",
        "--VoilaConfiguration.multi_kernel_manager_class=caterpillar_learn.ui.hosting.voila_app.ClassroomKernelManager",
        f"--ClassroomKernelManager.max_kernels={max_kernels}",
        # jupyter_server's culler: an idle kernel with no page connected (closed, or never
        # connected) stops; a connected or busy one is left alone.
        f"--MappingKernelManager.cull_idle_timeout={cull_after}",
        f"--MappingKernelManager.cull_interval={cull_interval(cull_after)}",
        "--MappingKernelManager.cull_connected=False",
        "--MappingKernelManager.cull_busy=False",
    ]
    if os.name == "posix":
        # Kernels talk to the server over Unix sockets in Voila's private connection folder: thirty
        # kernels starting at once on TCP ports sometimes pick a port another just took, and die.
        argv.append("--KernelManager.transport=ipc")
    if hosting.token:
        argv.append(f"--Voila.token={hosting.token}")
    return argv


def serve(lessons: Path, port: int, *, open_browser: bool, hosting: Hosting = Hosting()) -> int:
    """Serve ``lessons`` with Voila on ``port`` of ``hosting.host`` until interrupted."""
    # lazy: the rest of the command line must not pay for importing Jupyter
    from caterpillar_learn.ui.hosting.voila_print import PrintingVoila

    argv = voila_argv(lessons, port, open_browser=open_browser, hosting=hosting)
    with pinned_kernel():
        # No configuration file at all: Voila would execute a voila.py from the working directory.
        app = PrintingVoila(config_file_paths=[], allowed_hosts=allowed_hosts(hosting.host, hosting.allow_hosts))
        app.initialize(argv)
        app.start()
    return 0


# -- the command --------------------------------------------------------------------


def _whole(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` (argparse names the option in its message)."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            number = low - 1
        if number < low:
            raise argparse.ArgumentTypeError(f"got {brief(value)}, expected a whole number from {low}")
        return number

    return parse


def _handle(args: argparse.Namespace) -> int:
    require("lessons")  # one line naming the extra, not a traceback from deep inside
    lessons = find_lessons(args.lessons)
    if args.languages is not None:  # the kernels read it too (the command line named it before parsing: cli.py)
        os.environ[LANGUAGES_ENV] = str(args.languages)
    if args.lang:  # the kernels this server starts inherit it (their widgets' first language); the gallery speaks it
        os.environ[LANGUAGE_ENV] = args.lang
        set_language(args.lang)
    host = args.host.strip()
    remote = not is_loopback(host)
    port = pick_port(args.port, host)
    token = new_token() if remote else None
    names = ", ".join(p.stem for p in lesson_notebooks(lessons))
    urls = lessons_urls(port, host, token)
    with shared_solves(args.solve_cache) as folder:
        print(f"Lessons ({names}) at {urls[0]}", flush=True)
        for url in urls[1:]:
            print(f"  also at {url}", flush=True)
        if remote:
            print("Open to the network: give learners the whole address, token included.", flush=True)
        limit = f"at most {args.max_kernels} lessons open at once" if args.max_kernels else "no limit on open lessons"
        culled = f"{args.cull_after} s" if args.cull_after else "never"
        print(f"Limits: {limit}; a closed lesson's kernel stops after {culled} idle.", flush=True)
        if 0 < args.cull_after < SHORT_CULL_SECONDS:
            print(
                f"Warning: --cull-after {args.cull_after} is short: on a busy server a page still opening "
                "can lose its kernel before it connects.",
                flush=True,
            )
        print(f"Solved layouts shared in {folder}" if folder else "Solved layouts not shared.", flush=True)
        print("Press Ctrl+C to stop.", flush=True)
        try:
            hosting = Hosting(host, token, args.max_kernels, args.cull_after, tuple(args.allow_host or ()))
            return serve(lessons, port, open_browser=not args.no_browser, hosting=hosting)
        except KeyboardInterrupt:
            return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` to the ``caterpillar-learn`` command."""
    parser = subparsers.add_parser(
        "serve",
        help="serve the lessons as web pages (Voila), on this computer or to a class",
        description=(
            "Serve the lesson notebooks with Voila at http://localhost:PORT/ (this computer only), "
            "or with --host to a classroom network (then the address carries a token). "
            "Learners see the lessons without their code."
        ),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port to listen on (default {DEFAULT_PORT}; 0 picks any free port); a busy port is an error",
    )
    parser.add_argument(
        "--host",
        metavar="ADDR",
        default=HOST,
        help=(
            f"address to listen on (default {HOST}: this computer only); an address of the classroom network, "
            "or 0.0.0.0 for every interface, opens the lessons to other devices and requires a printed token"
        ),
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a web browser (servers, CI)")
    parser.add_argument(
        "--lessons",
        metavar="DIR",
        default=None,
        help="folder of lesson notebooks, such as a teacher's own copies (default: the lessons installed with it)",
    )
    limits = (
        (
            "--max-kernels",
            "N",
            DEFAULT_MAX_KERNELS,
            f"most lessons open at once, each about 100 MB (default {DEFAULT_MAX_KERNELS}; 0: no limit); "
            "beyond it a page says the class is full",
        ),
        (
            "--cull-after",
            "SECONDS",
            DEFAULT_CULL_SECONDS,
            "stop a lesson's kernel once its page is closed (or never connected) and it has been idle this long "
            f"(default {DEFAULT_CULL_SECONDS}; 0: never)",
        ),
    )
    for flag, metavar, default, words in limits:
        parser.add_argument(flag, metavar=metavar, type=_whole(0), default=default, help=words)
    parser.add_argument(
        "--solve-cache",
        metavar="DIR",
        default=None,
        help="folder where kernels share solved layouts, kept between runs (default: a temporary folder removed "
        f"at exit; '{NO_SOLVE_CACHE}': every kernel solves for itself)",
    )
    parser.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        default=[],
        help="another name learners use to reach this computer (a DNS alias, a reverse proxy); repeatable",
    )
    parser.add_argument(
        "--lang",
        choices=available_languages(),
        default=None,
        help="the lessons' first language (default: English); each learner can still switch on the page",
    )
    parser.add_argument(
        "--languages",
        metavar="DIR",
        type=languages_folder,
        default=None,
        help=f"folder of your own languages (DIR/fr, ...; default: ${LANGUAGES_ENV}, else the per-user folder "
        "that `caterpillar-learn docs` TRANSLATING.md names)",
    )
    parser.set_defaults(handler=_handle)


def languages_folder(value: str) -> Path:
    """An argparse type: an existing folder (of language folders), made absolute for the kernels.

    >>> languages_folder("/no/such/folder")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: got '/no/such/folder', expected a folder of language folders (fr/, ...)
    """
    folder = Path(value).expanduser().resolve()
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"got {brief(value)}, expected a folder of language folders (fr/, ...)")
    return folder
