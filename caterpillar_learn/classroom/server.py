"""``caterpillar-learn classroom``: the Panel server a class plays on.

One process serves three pages (one Bokeh session each), built by
:mod:`~caterpillar_learn.classroom.pages`, and the teacher's printable score sheets:

* ``/teacher?token=…``: the teacher's console (:class:`~.consoles.TeacherWidget`),
  only with the token printed at start (kept in the data folder, so the
  address stays the same after a restart);
* ``/join`` (and ``/``): the pupils' door, then the pupil's own sheet: the
  lessons' Caterpillars board, or their seat at a Räuber Raupe table (the
  same ES modules, shown by :func:`~caterpillar_learn.classroom.components.classroom_component`).
  Joining hands the page a secret, which the browser keeps (its storage and
  the address fragment, never the query): a reload or the same tablet shows
  it and gets the sheet back at once; another tablet with the same nickname
  waits for the teacher (:mod:`~caterpillar_learn.classroom.identity`);
* ``/sheets?room=CODE``: the room's score sheets on paper, one page per
  pupil, and each lesson's printed page (``/print/<lesson>``), for the teacher alone
  (:mod:`~caterpillar_learn.classroom.scoresheets`).

**Push** (:mod:`~caterpillar_learn.classroom.push`): a change in a room
redraws every page that follows it, one page at a turn of the event loop,
the pupils' dice first.  **Tweaks** (:mod:`~caterpillar_learn.classroom.tweaks`):
websockets that send at once, Bokeh's diagnostics off, the heap frozen only
where it lives; each names the upstream hook it uses.  The command line is
:mod:`~caterpillar_learn.classroom.cli`.

**Safe by default.**  The server listens on the loopback interface unless
``--host`` says otherwise, accepts websockets only from its own addresses,
and every front-end message goes through the widgets' guard and the engine.
The network policy is the lessons' server's
(:mod:`caterpillar_learn.network`): every request's ``Host``
header must name this computer, every answer carries
``Referrer-Policy: no-referrer``, ``X-Content-Type-Options: nosniff`` and a
Content-Security-Policy (:data:`POLICY`, ``frame-ancestors 'none'``), the
log hides the teacher's token, and a page's malformed message is one line.

**Bounded.**  A page that never connects is forgotten after Bokeh's
unused-session lifetime (``--unopened-lifetime``, 15 s), every page's
widgets are closed when its session ends, and the :class:`Freezer` freezes
only what is alive (:mod:`~caterpillar_learn.classroom.lifetime`).

>>> join_base("127.0.0.1", 5006)
'http://127.0.0.1:5006/join'
>>> origins("127.0.0.1", 5006)
['127.0.0.1:5006', 'localhost:5006']
"""

from __future__ import annotations

import gc
import logging
import re
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

from caterpillar_learn.classroom.hub import TEACHERS, HubService, TeacherGate, cookie_secret, hub_auth
from caterpillar_learn.classroom.pages import build_pages
from caterpillar_learn.classroom.tweaks import (
    Freezer,
    fewer_bundles,
    one_collector,
    quiet_diagnostics,
    tornado_application,
    use_the_c_allocator,
)
from caterpillar_learn.i18n import text
from caterpillar_learn.network import (
    ASK,
    DAY,
    Lifetime,
    allowed_hosts,
    content_policy,
    harden,
    join_base,
    origins,
    public_host,
)

__all__ = ["HOST", "join_base", "origins", "serve"]

log = logging.getLogger("caterpillar_learn.classroom")

#: Loopback only unless the teacher says otherwise (``--host 0.0.0.0`` for the class's network).
HOST = "127.0.0.1"
#: How often the Räuber Raupe tables' clock moves (ms).
CLOCK_MS = 250
#: Join attempts a minute per client address (a burst of 12 first): guessing codes is slow, a class is not.
JOINS_PER_MINUTE = 20.0
#: Seconds a loaded page may take to connect its websocket before its session is forgotten (Bokeh's default).
UNOPENED_LIFETIME = 15.0
#: Longest time between two looks for such pages (seconds).
UNOPENED_CHECK = 5.0
#: What Bokeh's pages need beyond their own server's files and inline scripts: the ES modules Panel makes
#: of the widgets at ``blob:`` addresses (es-module-shims fetches them, then imports them).  No
#: ``'unsafe-eval'``: nothing here uses Bokeh's ``CustomJS``, the one part of a page that would need it.
POLICY = content_policy(script=["blob:"], connect=["blob:"])
#: The address of the server's own static folder (the connection-lost script).
STATIC = "caterpillar-learn"


def lifetimes(prefix: str = "") -> tuple[Lifetime, ...]:
    """How long a tablet keeps each static file, under the address ``prefix`` (a hub's; none on its own):
    Bokeh and Panel ask for their bundles with ``?v=`` (a year); what they ask for without one (Panel's
    es-module-shims, Bokeh's icon) changes only with an upgrade, which restarts the server: a day.  The
    connection-lost script is written at each start: asked again (a 304 when unchanged)
    (:class:`~caterpillar_learn.network.Lifetime`).

    >>> [lifetime.path for lifetime in lifetimes("/services/classroom")][0]
    '/services/classroom/static/.+'
    """
    at = re.escape(prefix)
    return (
        Lifetime(rf"{at}/static/.+", plain=DAY),
        Lifetime(rf"{at}/favicon\.ico", plain=DAY),
        Lifetime(rf"{at}/{STATIC}/.+", plain=ASK),
    )


def _refused_words() -> tuple[str, str]:
    """The title and sentence of the page a request for a foreign host gets."""
    return text("classroom.connection.host_title"), text("classroom.connection.host_refused")


def serve(
    data: Path,
    host: str,
    port: int,
    *,
    joins_per_minute: float = JOINS_PER_MINUTE,
    unopened_lifetime: float = UNOPENED_LIFETIME,
    allow_hosts: tuple[str, ...] = (),
    hub: HubService | None = None,
    sleep_after: float | None = None,
    lessons: Path | None = None,
) -> int:
    """Open the rooms in ``data`` and serve them until interrupted (under a JupyterHub as its service
    ``hub``: :mod:`~caterpillar_learn.classroom.hub`).

    A page whose websocket never connects is forgotten ``unopened_lifetime``
    seconds after it was loaded (Bokeh's unused-session lifetime, looked at
    every :data:`UNOPENED_CHECK` seconds at most), and every page's widgets
    are closed when its session ends (:mod:`~caterpillar_learn.classroom.lifetime`).
    """
    use_the_c_allocator()  # before anything is loaded: see classroom/tweaks.py, "Bounded"
    import panel as pn
    from tornado.ioloop import PeriodicCallback

    from caterpillar_learn.advice.workers import Solves
    from caterpillar_learn.classroom.codes import ClassroomError, JoinLimit
    from caterpillar_learn.classroom.lifetime import NOTICE_FILE, PageWidgets, every_page, write_notice
    from caterpillar_learn.classroom.lobby import Lobby
    from caterpillar_learn.classroom.rooms.lesson.own import OwnLessons
    from caterpillar_learn.classroom.scoresheets import print_patterns
    from caterpillar_learn.classroom.store import FolderBusyError
    from caterpillar_learn.lessons.gallery import write_pictures
    from caterpillar_learn.ui.caterpillars.advice import PooledHelper

    quiet_diagnostics()  # difflib on every change otherwise
    one_collector()  # the Freezer's full collections, not Panel's besides
    burst = max(12, int(joins_per_minute // 2))
    try:  # the folder held for as long as the server runs: --archive and --restore wait for it to stop
        lobby = Lobby.open(data, hold=True, limit=JoinLimit(burst=burst, per_minute=joins_per_minute))
        if sleep_after is not None:  # a benchmark's: rooms go back to sleep sooner
            lobby.sleep_after = sleep_after
    except FolderBusyError:
        raise ClassroomError(
            f"--data: another classroom server is running on {data}; stop it first, or give this one another folder"
        ) from None
    lobby.own_lessons = OwnLessons(lessons)  # a teacher's lesson files, offered on the console beside ours
    lobby.wake_newest()  # the room the teacher's console opens first, replayed while the rest starts
    start_server: Any = pn.serve
    freezer = Freezer()
    lobby.on_sleep = freezer.closed  # a sleeping room's objects (cycles) are collected once the class settles
    widgets = PageWidgets(lambda: pn.state.curdoc)
    widgets.install()
    notices = Path(tempfile.mkdtemp(prefix="caterpillar-learn-classroom-"))
    write_notice(notices)  # every page loads it: "Connection lost — trying again…", then a reload
    write_pictures(notices)  # the lessons' pictures on the door: files a tablet keeps, not markup in every page
    prefix = "" if hub is None else hub.prefix
    pn.config.js_files = {**pn.config.js_files, "connection_lost": f"{prefix}/{STATIC}/{NOTICE_FILE}"}
    on_hub: dict[str, Any] = {}
    if hub is None:
        join_url: str | None = join_base(host, port)
        websocket_origin = [*origins(host, port), *(f"{name}:{port}" for name in allow_hosts)]
        patterns: list[tuple[str, Any, dict[str, Any]] | tuple[str, Any]] = [*print_patterns(lobby)]
    else:  # behind the hub's proxy, on its host and port: the names this computer and --allow-host give
        gate = TeacherGate(hub, hub_auth(hub))
        join_url = hub.join_url()
        # The hub's public port is unknown here: any port of this computer's names and --allow-host's, set as
        # Bokeh's own setting (its command-line form takes numbered ports only).
        from bokeh.settings import settings

        settings.allowed_ws_origin.set_value([f"{name}:*" for name in sorted(allowed_hosts(host, allow_hosts))])
        websocket_origin = []
        patterns = [*print_patterns(lobby, gate), *gate.patterns]
        on_hub = {"prefix": prefix, "auth_provider": gate.provider, "cookie_secret": cookie_secret(gate.auth.api_token)}
    # Hints are worked out in worker processes, never on the event loop (the processes start at the first solve).
    pool = Solves()
    lobby.work_in(PooledHelper(pool))
    pages = build_pages(lobby, join_url, freezer, pictures=f"{prefix}/{STATIC}/", hub=hub)
    server = start_server(
        every_page(pages, widgets),
        port=port,
        address=host,
        websocket_origin=websocket_origin,
        show=False,
        start=False,
        title={"/": text("classroom.page.title_pupil"), "join": text("classroom.page.title_pupil"),
               "teacher": text("classroom.page.title_teacher")},
        verbose=False,
        static_dirs={STATIC: str(notices)},
        extra_patterns=patterns,  # the class's score sheets, for the teacher (and a hub's login)
        unused_session_lifetime_milliseconds=int(unopened_lifetime * 1000),
        check_unused_sessions_milliseconds=int(min(UNOPENED_CHECK, unopened_lifetime) * 1000),
        **on_hub,
    )  # fmt: skip
    # The network policy shared with the lessons' server (Host check, headers, a log without the token).
    harden(tornado_application(server), allowed_hosts(host, allow_hosts), POLICY, _refused_words, lifetimes(prefix))
    fewer_bundles(tornado_application(server))
    print(f"Classroom server, rooms kept in {data}", flush=True)
    if hub is not None:
        where = hub.public_url or f"the hub's address + {prefix}/"
        print(f"A JupyterHub service: teachers (hub admins, group {TEACHERS!r}) log in at the hub and open "
              f"{where.rstrip('/')}/teacher; pupils join at {where.rstrip('/')}/join", flush=True)  # fmt: skip
    else:
        print(f"Teacher (keep this address to yourself): http://{public_host(host)}:{port}/teacher?token={lobby.token}")
        print(f"Pupils join at: {join_base(host, port)}", flush=True)
    if host == HOST and hub is None:
        print("Only this computer can reach it; for the class's tablets start it with --host 0.0.0.0.", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    server.start()
    gc.collect()
    gc.freeze()  # what is loaded by now lives as long as the server: no collection need look at it again
    PeriodicCallback(lobby.tick, CLOCK_MS).start()  # the Räuber Raupe tables' clock, on the server's event loop

    def settle() -> None:
        freezer.tick()

    PeriodicCallback(settle, 1000).start()  # see Freezer
    # SIGTERM (a service manager's stop, a hub stopping its service) ends as Ctrl+C does: between two callbacks,
    # then the rooms' last steps written, the store closed and the pictures' folder removed.
    server.io_loop.asyncio_loop.add_signal_handler(signal.SIGTERM, server.io_loop.stop)
    try:
        server.io_loop.start()
    except KeyboardInterrupt:
        pass
    finally:
        pool.close()
        lobby.close()
        shutil.rmtree(notices, ignore_errors=True)
    return 0
