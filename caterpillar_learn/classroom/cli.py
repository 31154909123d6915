"""``caterpillar-learn classroom``: the classroom server's command line (:mod:`~caterpillar_learn.classroom.server`)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.hub import HubService
from caterpillar_learn.classroom.refusals import BokehRefusals
from caterpillar_learn.classroom.server import HOST, JOINS_PER_MINUTE, UNOPENED_LIFETIME, serve
from caterpillar_learn.classroom.store import FolderBusyError
from caterpillar_learn.errors import describe
from caterpillar_learn.extras import require
from caterpillar_learn.i18n import available_languages, set_language, text
from caterpillar_learn.network import pick_port, quiet_log

__all__ = ["DEFAULT_PORT", "default_data", "register"]

#: Panel's own default port.
DEFAULT_PORT = 5006


def default_data() -> Path:
    """Where the rooms are kept unless ``--data`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "caterpillar-learn" / "classroom"


def _handle(args: argparse.Namespace) -> int:
    require("classroom")  # one line naming the extra, not a traceback from deep inside
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    quiet_log(logging.getLogger().handlers)  # no token in any line; a page's malformed message in one line
    for handler in logging.getLogger().handlers:  # and those told once every few seconds, with a count
        handler.addFilter(BokehRefusals())
    if args.lang:  # every page's first language (the widgets start in it) and the server's own words
        set_language(args.lang)
    if not 1 <= args.join_limit <= 100_000:
        raise ClassroomError(describe("--join-limit", args.join_limit, "joins a minute from 1 to 100000"))
    if not 1 <= args.unopened_lifetime <= 3600:
        raise ClassroomError(describe("--unopened-lifetime", args.unopened_lifetime, "seconds from 1 to 3600"))
    if args.sleep_after is not None and not 1 <= args.sleep_after <= 86_400:
        raise ClassroomError(describe("--sleep-after", args.sleep_after, "seconds from 1 to 86400"))
    lessons = None if args.lessons is None else Path(args.lessons).expanduser()
    if lessons is not None and not lessons.is_dir():
        raise ClassroomError(describe("--lessons", args.lessons, "a folder of lesson files (.toml)"))
    if args.archive is not None:
        return _archive(Path(args.data).expanduser(), args.archive)
    if args.restore is not None:
        return _restore(Path(args.data).expanduser(), Path(args.restore).expanduser())
    hub = HubService.from_environ(os.environ)  # started by a JupyterHub: its prefix, address and login
    if hub is not None:
        require("hub")
    return serve(
        Path(args.data).expanduser(),
        args.host if hub is None else hub.host,
        pick_port(args.port, args.host) if hub is None else hub.port,
        joins_per_minute=args.join_limit,
        unopened_lifetime=args.unopened_lifetime,
        allow_hosts=tuple(name.strip().lower() for name in args.allow_host if name.strip()),
        hub=hub,
        sleep_after=args.sleep_after,
        lessons=lessons,
    )


def _archive(data: Path, code: str) -> int:
    """``--archive CODE``: write a finished room's record to a file of ``data``'s ``archive`` folder, then remove
    it from the live log (with the server stopped: a running server would not know)."""
    from caterpillar_learn.classroom.lobby import Lobby

    try:
        lobby = Lobby.open(data, hold=True)
    except FolderBusyError:
        raise ClassroomError(
            f"--archive: a classroom server is running on {data}; archive the room from the teacher's console "
            "(open the room, then Archive this room), or stop the server first"
        ) from None
    try:
        written = lobby.archive(code)
    finally:
        lobby.close()
    print(text("classroom.archive.done", file=str(written)), flush=True)
    return 0


def _restore(data: Path, path: Path) -> int:
    """``--restore FILE``: put the events of a quarantine (or archive) file back into ``data``'s log (with the
    server stopped); the next start replays the room."""
    from caterpillar_learn.classroom.quarantine import restore
    from caterpillar_learn.classroom.store import EventStore

    try:
        store = EventStore.in_folder(data, hold=True)
    except FolderBusyError:
        raise ClassroomError(f"--restore: a classroom server is running on {data}; stop it first") from None
    try:
        code, count = restore(store, path)
    finally:
        store.close()
    print(f"Restored {count} events of room {code} from {path}; the next start replays the room.", flush=True)
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``classroom`` to the ``caterpillar-learn`` command."""
    parser = subparsers.add_parser(
        "classroom",
        help="serve a class: rooms with shared dice, Räuber Raupe tables (Panel)",
        description=(
            "Start the classroom server. It prints the teacher's address (with a secret token) and the address "
            "pupils open. Rooms, pupils and every move are kept in --data and survive a restart. Started by a "
            "JupyterHub as its service, it serves under the service's prefix and address, and the hub's login "
            "(its admins and the group 'teachers') opens the teacher's console instead of a token."
        ),
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free)")
    parser.add_argument(
        "--host",
        default=HOST,
        metavar="ADDR",
        help=f"address to listen on (default {HOST}, this computer only; 0.0.0.0 for the class's network)",
    )
    parser.add_argument(
        "--data", metavar="DIR", default=str(default_data()), help="folder of the rooms' data (default: %(default)s)"
    )
    parser.add_argument(
        "--join-limit",
        type=float,
        default=JOINS_PER_MINUTE,
        metavar="PER_MINUTE",
        help=(
            f"join attempts a minute per client address (default {JOINS_PER_MINUTE:g}); raise it when the tablets "
            "reach the server through one proxy and so share one address"
        ),
    )
    parser.add_argument(
        "--lang",
        choices=available_languages(),
        default=None,
        help="the pages' first language (default: English)",
    )
    parser.add_argument(
        "--lessons",
        metavar="DIR",
        default=None,
        help="a folder of your own lesson files (.toml): the console offers them beside ours (docs/AUTHORING.md)",
    )
    parser.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        default=[],
        help="another name the tablets use to reach this computer (a DNS alias, a reverse proxy); repeatable",
    )
    parser.add_argument(
        "--archive",
        metavar="CODE",
        help="archive the finished room CODE of --data (its record to a file in the archive folder) and exit; "
        "refused while a server runs on --data (archive from the teacher's console then)",
    )
    parser.add_argument(
        "--restore",
        metavar="FILE",
        help="put the events of a quarantine file (events of a damaged room set aside at start) or of an archive "
        "back into --data's log and exit; stop the server first",
    )
    parser.add_argument(  # for tests and benchmarks: not in --help
        "--unopened-lifetime", type=float, default=UNOPENED_LIFETIME, help=argparse.SUPPRESS
    )
    parser.add_argument("--sleep-after", type=float, default=None, help=argparse.SUPPRESS)  # a benchmark's
    parser.set_defaults(handler=_handle)
