"""The classroom server as a JupyterHub service: its prefix, and the teacher's door through the hub's login.

A school's JupyterHub starts ``caterpillar-learn classroom`` as a *service*
(``deploy/jupyterhub/jupyterhub_config.py``) and tells it where it lives by
environment variables.  :meth:`HubService.from_environ` reads them; outside
a hub it gives ``None`` and nothing changes.  Under a hub:

* every address is under the service's prefix (``/services/classroom/join``,
  ``/services/classroom/teacher``, the static files), reached through the
  hub's proxy; the server listens where ``JUPYTERHUB_SERVICE_URL`` says;
* the teacher's console has no token in its address.  The hub's own login
  decides (JupyterHub's OAuth, :class:`TeacherGate`): a hub admin or a member
  of the group ``teachers`` (:func:`is_teacher`) opens it, and so the score
  sheets; a browser with no hub login is sent to the hub's login page and
  back; anyone else is refused in one line;
* pupils join under the prefix with a room code and no hub login, as on
  a teacher's own computer.

>>> service = HubService.from_environ({
...     "JUPYTERHUB_SERVICE_PREFIX": "/services/classroom/",
...     "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:10101",
... })
>>> service.prefix, service.host, service.port
('/services/classroom', '127.0.0.1', 10101)
>>> HubService.from_environ({}) is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text

if TYPE_CHECKING:
    import tornado.web
    from jupyterhub.services.auth import HubOAuth

__all__ = ["CALLBACK", "LOGIN", "TEACHERS", "HubService", "TeacherGate", "cookie_secret", "is_teacher"]

log = logging.getLogger("caterpillar_learn.classroom")

#: The hub group whose members open the console (besides the hub's admins).
TEACHERS = "teachers"
#: Where a browser without a hub login starts the hub's OAuth (under the prefix).
LOGIN = "/hub-login"
#: Where the hub sends it back (under the prefix; JupyterHub's default for a service).
CALLBACK = "/oauth_callback"
#: What a pupil's page is to the gate: anyone, no hub login.
PUPIL = "pupil"
#: The pages behind the gate, under the prefix: the console (and its websocket) and the score sheets.
GATED = ("/teacher", "/sheets")


@dataclass(frozen=True)
class HubService:
    """Where the hub has put this service: its address prefix (no trailing slash) and where to listen."""

    prefix: str
    host: str
    port: int
    #: The hub's public address as JupyterHub tells it (``c.JupyterHub.public_url``), or None.
    public_url: str | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> HubService | None:
        """The service the hub started, from its environment; ``None`` outside a hub."""
        prefix = environ.get("JUPYTERHUB_SERVICE_PREFIX", "").strip()
        if not prefix:
            return None
        url = environ.get("JUPYTERHUB_SERVICE_URL", "").strip()
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname or parts.port is None:
            raise ClassroomError(describe("JUPYTERHUB_SERVICE_URL", url, "the service's http://HOST:PORT"))
        if not prefix.startswith("/"):
            raise ClassroomError(describe("JUPYTERHUB_SERVICE_PREFIX", prefix, "a path such as /services/classroom/"))
        public = environ.get("JUPYTERHUB_PUBLIC_URL", "").strip() or None
        return cls("/" + prefix.strip("/"), parts.hostname, parts.port, public)

    def join_url(self) -> str | None:
        """The pupils' door as the hub's users reach it, when the hub says where it is (else each teacher
        page takes it from its own address: :meth:`join_url_from`)."""
        return None if self.public_url is None else self.public_url.rstrip("/") + "/join"

    def join_url_from(self, headers: Mapping[str, str]) -> str:
        """The pupils' door on the host the teacher's browser used (behind the hub's proxy).

        >>> HubService("/services/classroom", "127.0.0.1", 10101).join_url_from(
        ...     {"Host": "hub.school.example", "X-Forwarded-Proto": "https"})
        'https://hub.school.example/services/classroom/join'
        """
        host = headers.get("Host") or f"{self.host}:{self.port}"
        scheme = headers.get("X-Forwarded-Proto", "http").split(",")[0].strip() or "http"
        return f"{scheme}://{host}{self.prefix}/join"

    def is_gated(self, path: str) -> bool:
        """Whether ``path`` is the teacher's (behind the hub's login).

        >>> service = HubService("/services/classroom", "127.0.0.1", 10101)
        >>> [service.is_gated(p) for p in ("/services/classroom/teacher", "/services/classroom/teacher/ws",
        ...  "/services/classroom/sheets", "/services/classroom/join", "/services/classroom/teachers")]
        [True, True, True, False, False]
        """
        for page in GATED:
            gated = self.prefix + page
            if path == gated or path.startswith(gated + "/"):
                return True
        return False


def is_teacher(user: Mapping[str, Any] | None) -> bool:
    """Whether a hub user (the hub's user model) may open the console: a hub admin, or in :data:`TEACHERS`.

    >>> is_teacher({"name": "ada", "admin": False, "groups": ["teachers"]}), is_teacher({"name": "rhea", "admin": True})
    (True, True)
    >>> is_teacher({"name": "pip", "admin": False, "groups": ["class-3b"]}), is_teacher(None)
    (False, False)
    """
    if not user:
        return False
    return bool(user.get("admin")) or TEACHERS in (user.get("groups") or ())


def cookie_secret(api_token: str) -> str:
    """The key of the service's signed cookies (the hub's login), the same at every start of the service
    (derived from its hub token: a restart keeps the teacher logged in).

    >>> cookie_secret("abc") == cookie_secret("abc") != cookie_secret("abd")
    True
    """
    return hmac.new(api_token.encode(), b"caterpillar-learn classroom cookies", hashlib.sha256).hexdigest()


def hub_auth(service: HubService) -> HubOAuth:
    """JupyterHub's OAuth client for this service, configured from the hub's environment variables."""
    from jupyterhub.services.auth import HubOAuth

    auth: HubOAuth = HubOAuth.instance(cache_max_age=60)  # the handlers' ``hub_auth`` is this instance
    if not auth.api_token:
        raise ClassroomError(describe("JUPYTERHUB_API_TOKEN", "", "the token the hub gives its service"))
    return auth


def _teacher_handlers(service: HubService) -> tuple[type[tornado.web.RequestHandler], type[tornado.web.RequestHandler]]:
    """The two pages of the hub's OAuth under the prefix: the start of a login and the hub's callback."""
    import tornado.web
    from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated
    from tornado.httputil import url_concat

    class HubLogin(HubOAuthenticated, tornado.web.RequestHandler):  # type: ignore[misc]
        """Start the hub's login, to come back to the teacher's page asked for (nothing outside the prefix)."""

        def get(self) -> None:
            wanted = self.get_argument("next", "")
            if not service.is_gated(urlsplit(wanted).path) or wanted.startswith("//"):
                wanted = service.prefix + "/teacher"
            state = self.hub_auth.set_state_cookie(self, next_url=wanted)
            self.redirect(url_concat(self.hub_auth.login_url, {"state": state}))

    class Callback(HubOAuthCallbackHandler):  # type: ignore[misc]
        """JupyterHub's own end of the login: the hub's token into a signed cookie, then back to the page."""

    return HubLogin, Callback


class TeacherGate:
    """Bokeh's auth provider for a hub: the teacher's pages need a hub teacher, the pupils' pages nobody.

    Bokeh asks :attr:`get_user_async` before every page and websocket.  A pupil's page is
    :data:`PUPIL`; a teacher's page is the hub user's name, or ``None`` (no hub login: Bokeh sends the
    browser to :data:`LOGIN`), and a hub user who is no teacher gets the one-line refusal.
    """

    def __init__(self, service: HubService, auth: HubOAuth) -> None:
        from bokeh.server.auth_provider import AuthProvider

        self.service, self.auth = service, auth
        login, callback = _teacher_handlers(service)
        gate = self

        class Provider(AuthProvider):
            @property
            def get_user_async(self) -> Any:  # Bokeh types it as returning a User: a name here
                return gate.user

            @property
            def login_url(self) -> str:
                return LOGIN

            @property
            def login_handler(self) -> type[tornado.web.RequestHandler]:
                return login

        #: What ``pn.serve`` takes as ``auth_provider``.
        self.provider = Provider()
        #: The hub's callback, for ``extra_patterns``.
        self.patterns: list[tuple[str, Any]] = [(CALLBACK, callback)]

    def login_for(self, wanted: str) -> str:
        """Where a browser without a hub login goes to come back to ``wanted`` (a teacher's address)."""
        from tornado.httputil import url_concat

        return url_concat(self.service.prefix + LOGIN, {"next": wanted})

    async def user(self, handler: tornado.web.RequestHandler) -> str | None:
        """Who asks for ``handler``'s page, as Bokeh wants it (see the class)."""
        if not self.service.is_gated(handler.request.path):
            return PUPIL
        return await self.teacher(handler)

    async def teacher(self, handler: tornado.web.RequestHandler) -> str | None:
        """The hub teacher behind ``handler``'s request, ``None`` without a hub login; anyone else is refused
        (a 403 page of one line, and the request ends there)."""
        import tornado.web

        from caterpillar_learn.network import notice_page

        user = await self.auth.get_user(handler, sync=False)
        if user is None:
            return None
        if is_teacher(user):
            return str(user["name"])
        log.warning("the console refused hub user %r (neither a hub admin nor in %r)", user.get("name"), TEACHERS)
        handler.set_status(403)
        handler.set_header("Content-Type", "text/html; charset=UTF-8")
        refusal = text("classroom.hub.not_teacher", group=TEACHERS)
        handler.finish(notice_page(text("classroom.page.title_teacher"), refusal))
        raise tornado.web.Finish()
