"""The Voila application ``caterpillar-learn serve`` runs: Voila plus what a class needs.

* **A cap on kernels.**  Every lesson page starts a kernel (about 100 MB).
  :class:`ClassroomKernelManager` refuses to start one beyond
  ``max_kernels`` live kernels (those still starting count too), and the
  lesson page then answers HTTP 503 with a short page in the learner's words
  (``serve.full``) instead of a half-drawn lesson.
* **A closed page gives its place back.**  When the class is full, a kernel
  whose page connected and then closed at least ``reclaim_after`` seconds ago
  (a tab closed, a child who went on to the next lesson) is stopped for the
  new page, the longest-closed first.  Until the class is full nothing is
  stopped early, so a tablet that slept and wakes up finds its lesson.
* **A page that closes says goodbye.**  Voila's page asks the server to stop
  its kernel when it is closed or reloaded (a beacon carrying the ``_xsrf``
  cookie, which :class:`LessonHandler` sets), so a closed tab's 95 MB come
  back at once; a tablet that only sleeps sends nothing and keeps its lesson.
* **Culling** is jupyter_server's own (``MappingKernelManager.cull_*``,
  set by :func:`~caterpillar_learn.ui.hosting.serve.voila_argv`): a kernel
  whose page is gone, or never connected, stops after that idle time.
* **The Host header** of every request, static files included, must name this
  computer (:func:`~caterpillar_learn.network.allowed_hosts`): a web
  page elsewhere that points its own host name at this computer (DNS
  rebinding) reaches nothing.  jupyter_server's own check cannot be used for
  this: it lets through loopback addresses only, never the address a
  classroom's tablets use.
* **The lesson gallery.**  The first page (Voila's classic tree, drawn by
  the template's ``tree.html``) shows each lesson as a card: a picture of its
  board, its title, the age and what a child learns, in the language of the
  page's address (:class:`GalleryHandler`,
  :mod:`~caterpillar_learn.ui.hosting.gallery_page`).
* **The network policy** shared with the classroom server
  (:func:`~caterpillar_learn.network.harden`): that Host check,
  ``Referrer-Policy: no-referrer``, ``X-Content-Type-Options: nosniff`` and a
  Content-Security-Policy (:data:`POLICY`, with ``frame-ancestors 'none'``) on
  every answer, and an access log without the token.

Voila is imported here, at the top: only :func:`caterpillar_learn.ui.hosting.serve.serve`
imports this module, when the server really starts.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Collection
from typing import Any

import tornado.web
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Integer
from voila.app import Voila  # type: ignore[import-untyped]
from voila.tornado.handler import TornadoVoilaHandler  # type: ignore[import-untyped]
from voila.tornado.treehandler import TornadoVoilaTreeHandler  # type: ignore[import-untyped]

from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.i18n import available_languages, text
from caterpillar_learn.lessons.gallery import cards
from caterpillar_learn.network import (
    ASK,
    DAY,
    Lifetime,
    content_policy,
    harden,
    host_name,
    notice_page,
    quiet_log,
)
from caterpillar_learn.ui.hosting.gallery_page import lessons_beside, tree_namespace

__all__ = ["ClassFullError", "ClassroomKernelManager", "ClassroomVoila", "GalleryHandler", "host_name", "notice_page"]

log = logging.getLogger("caterpillar_learn.ui.hosting")

#: Seconds a refused learner is asked to wait before trying again (the ``Retry-After`` header).
RETRY_AFTER = 60
#: What a lesson page needs beyond its own server's files and inline scripts: the widgets' ES modules
#: (anywidget imports them from ``blob:`` addresses).  Nothing comes from another site: the lessons'
#: template (``share/voila/templates/caterpillar-learn``) drops the style sheets Voila links from a CDN.
POLICY = content_policy(script=["blob:"])
#: How long a tablet keeps each of Voila's files (:class:`~caterpillar_learn.network.Lifetime`).
#: The front-end extensions' chunks are named by their hash and asked for with ``?v=``: a year; an
#: extension's ``remoteEntry`` (ours is not named by a hash) and ``package.json``, asked without one, are
#: asked again.  Voila's own bundle (``/voila/static/``) and its templates' files change only when Voila
#: is upgraded, which means a restarted server: a day.  Pages, kernels and the API keep their own headers.
LIFETIMES = (
    Lifetime(r"/voila/labextensions/.+", plain=ASK),
    Lifetime(r"/voila/(static|templates/[^/]+/static)/.+", plain=DAY),
)


class ClassFullError(CaterpillarLearnError):
    """A page asked for a kernel while ``max_kernels`` kernels were live."""


# -- the cap ------------------------------------------------------------------------


class ClassroomKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager with a cap on live kernels."""

    max_kernels = Integer(
        0,
        config=True,
        help="Most kernels alive at once (starting ones included); 0 means no limit.",
    )

    reclaim_after = Integer(
        15,
        config=True,
        help="Seconds after its last page closed that a kernel gives its place to a new page when the class is full.",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._starting: set[str] = set()
        #: kernel id -> when (time.monotonic) the last page connected to it closed
        self._closed_since: dict[str, float] = {}
        self._reclaiming: set[str] = set()

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]
        self._closed_since.pop(kernel_id, None)

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)  # type: ignore[no-untyped-call]
        if kernel_id in self and self._kernel_connections.get(kernel_id, 0) <= 0:
            self._closed_since[kernel_id] = time.monotonic()

    def reclaimable(self, now: float | None = None) -> list[str]:
        """Kernels whose pages all closed ``reclaim_after`` seconds ago or more, the longest-closed first."""
        now = time.monotonic() if now is None else now
        for gone in [kernel_id for kernel_id in self._closed_since if kernel_id not in self]:
            del self._closed_since[gone]
        closed = sorted((since, kernel_id) for kernel_id, since in self._closed_since.items())
        return [
            kernel_id
            for since, kernel_id in closed
            if now - since >= self.reclaim_after
            and self._kernel_connections.get(kernel_id, 0) <= 0
            and kernel_id not in self._reclaiming
        ]

    async def make_room(self) -> bool:
        """Whether one more kernel may start, once closed pages' kernels (:meth:`reclaimable`) gave their places."""
        for kernel_id in self.reclaimable():
            if not self.is_full():
                break
            self._reclaiming.add(kernel_id)
            try:
                self.log.info("The class is full: kernel %s, its page closed, gives its place to a new page", kernel_id)
                await self.shutdown_kernel(kernel_id)  # type: ignore[no-untyped-call]
            finally:
                self._reclaiming.discard(kernel_id)
                self._closed_since.pop(kernel_id, None)
        return not self.is_full()

    def live_kernels(self) -> int:
        """Kernels running or still starting."""
        return len(set(self.list_kernel_ids()) | self._starting)

    def is_full(self) -> bool:
        """Whether one more kernel would go beyond ``max_kernels``."""
        return bool(self.max_kernels) and self.live_kernels() >= self.max_kernels

    async def start_kernel(self, *, kernel_id: str | None = None, **kwargs: Any) -> str:  # type: ignore[override]
        """Start a kernel as jupyter_server does, unless the class is full (:class:`ClassFullError`)."""
        if kernel_id is not None and kernel_id in self:
            started: str = await super().start_kernel(kernel_id=kernel_id, **kwargs)
            return started
        if not await self.make_room():
            raise ClassFullError(describe("live kernels", self.live_kernels(), f"fewer than {self.max_kernels}"))
        # The id is chosen here so that a kernel counts from the moment its start begins.
        kernel_id = kernel_id or str(uuid.uuid4())
        self._starting.add(kernel_id)
        try:
            started = await super().start_kernel(kernel_id=kernel_id, **kwargs)
        finally:
            self._starting.discard(kernel_id)
        return started


class LessonHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """Voila's lesson page, or the "class is full" page (HTTP 503) when no kernel may start."""

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        manager = self.kernel_manager
        if isinstance(manager, ClassroomKernelManager) and not await manager.make_room():
            self._class_full(manager)
            return
        # The page's goodbye (Voila's shutdown beacon when it closes) sends the ``_xsrf`` cookie, which
        # jupyter_server checks; Voila's page never asks for the token, so without this the cookie is
        # never set, the goodbye is refused (403) and a closed page's kernel lives on until culled.
        self.xsrf_token  # noqa: B018  (reading it sets the cookie)
        try:
            await super().get(path)
        except ClassFullError:
            # The kernel starts before the page's first byte, so nothing has been sent yet.
            if self._headers_written:
                raise
            self._class_full(manager)

    def _class_full(self, manager: ClassroomKernelManager) -> None:
        log.warning("the class is full (%d kernels): refused %s", manager.max_kernels, self.request.path)
        self.clear()
        self.set_status(503)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Retry-After", str(RETRY_AFTER))
        self.finish(notice_page(text("serve.full_title"), text("serve.full", limit=manager.max_kernels)))


class GalleryHandler(TornadoVoilaTreeHandler):  # type: ignore[misc]
    """Voila's tree page, whose ``tree.html`` gets the lesson gallery as ``gallery``
    (:func:`~caterpillar_learn.ui.hosting.gallery_page.tree_namespace`)."""

    def render_template(self, name: str, **namespace: Any) -> str:
        if name == "tree.html":
            listing = namespace["contents"]["content"]
            path, query = namespace.get("notebook_path") or "", namespace.get("query") or ""
            beside = lessons_beside(getattr(self.contents_manager, "root_dir", None))  # a teacher's lesson files
            namespace["gallery"] = tree_namespace(listing, self.base_url, path, query, lesson_file=beside)
        page: str = super().render_template(name, **namespace)
        return page


# -- the application ------------------------------------------------------------------


def _refused_words() -> tuple[str, str]:
    return text("serve.host_title"), text("serve.host_refused")


class ClassroomVoila(Voila):  # type: ignore[misc]
    """Voila with :class:`LessonHandler` for the lesson pages, :class:`GalleryHandler` for the lesson list and
    the Host check in front of every route."""

    def __init__(self, *, allowed_hosts: Collection[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.allowed_hosts = frozenset(allowed_hosts)

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        settings["serve_traceback"] = False  # jupyter_server's error pages: never a traceback
        return settings

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = super().init_handlers()
        ours = {TornadoVoilaHandler: LessonHandler, TornadoVoilaTreeHandler: GalleryHandler}
        return [(spec[0], ours.get(spec[1], spec[1]), *spec[2:]) for spec in handlers]

    def listen(self) -> None:
        for code in available_languages():  # the gallery's pictures, drawn once before the first page asks
            cards(code)
        harden(self.app, self.allowed_hosts, POLICY, _refused_words, LIFETIMES)
        quiet_log([*logging.getLogger().handlers, *self.log.handlers], one_line=())
        super().listen()
