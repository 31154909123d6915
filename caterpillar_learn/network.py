"""The one network policy of both servers (``caterpillar-learn serve`` and ``caterpillar-learn classroom``).

Each imports it from here as an equal: the lessons' host (:mod:`caterpillar_learn.ui.hosting`) and the
classroom (:mod:`caterpillar_learn.classroom`); the only package named ``hosting`` is the lessons' host.

Where a server listens (:func:`pick_port`, :func:`public_host`), which names
it answers to (:func:`allowed_hosts`, checked on every request by
:class:`ForeignHost` in front of every route), its token (:func:`new_token`),
the headers every answer carries (:data:`SECURITY_HEADERS`, with a
Content-Security-Policy made for each server by :func:`content_policy`),
and what its log may say: no token or secret of an address
(:func:`redact`, :func:`log_request`, :class:`RedactSecrets`), and one line
for a page's malformed message, not a traceback (:class:`OneLine`).
:func:`harden` puts all of it on a server's Tornado application.

>>> lessons_url(8866, "192.0.2.2", "k7m2x9qp4hvr")
'http://192.0.2.2:8866/?token=k7m2x9qp4hvr'
>>> redact("200 GET /teacher?token=k7m2x9qp4hvr&lang=de (127.0.0.1)")
'200 GET /teacher?token=[hidden]&lang=de (127.0.0.1)'
"""

from __future__ import annotations

import errno
import html
import ipaddress
import logging
import os
import re
import secrets
import socket
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import tornado.log
import tornado.web
from tornado.httputil import HTTPHeaders, HTTPServerRequest
from tornado.routing import Matcher, Rule

from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.i18n import current_language

__all__ = [
    "ASK",
    "DAY",
    "HOST",
    "SECURITY_HEADERS",
    "YEAR",
    "ForeignHost",
    "Lifetime",
    "OneLine",
    "RedactSecrets",
    "RefusedHost",
    "ServeError",
    "allowed_hosts",
    "content_policy",
    "harden",
    "host_name",
    "is_loopback",
    "join_base",
    "lessons_url",
    "lessons_urls",
    "local_addresses",
    "log_request",
    "new_token",
    "notice_page",
    "origins",
    "pick_port",
    "port_is_free",
    "public_host",
    "quiet_log",
    "redact",
    "resolve_host",
]

log = logging.getLogger("caterpillar_learn.ui.hosting")

#: Loopback by default: a classroom laptop publishes its kernels only when asked to (``--host``).
HOST = "localhost"
#: ``--host`` values that mean every interface of this computer.
WILDCARDS = ("0.0.0.0", "::")
#: Token characters: no 0/o, 1/l/i, so a pupil can copy the address from the board.
TOKEN_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
TOKEN_LENGTH = 12


class ServeError(CaterpillarLearnError):
    """The lessons cannot be served as asked (bad folder, busy port, unknown address)."""


def resolve_host(host: str) -> list[str]:
    """The IP addresses ``host`` stands for (itself for an address; a wildcard stays one).

    >>> resolve_host("192.0.2.2"), resolve_host("0.0.0.0"), "127.0.0.1" in resolve_host("localhost")
    (['192.0.2.2'], ['0.0.0.0'], True)
    >>> resolve_host("no-such-host.invalid")
    Traceback (most recent call last):
    ...
    caterpillar_learn.network.ServeError: --host: got 'no-such-host.invalid', expected an address \
of this computer (e.g. 192.168.1.10), a name that resolves to one, or 0.0.0.0 for every interface
    """
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        found = []
    addresses = sorted({str(info[4][0]).split("%")[0] for info in found})
    if not host or not addresses:
        raise ServeError(
            describe(
                "--host",
                host,
                "an address of this computer (e.g. 192.168.1.10), a name that resolves to one, "
                "or 0.0.0.0 for every interface",
            )
        )
    return addresses


def is_loopback(host: str) -> bool:
    """Whether ``host`` reaches this computer only (then no token is needed).

    >>> is_loopback("localhost"), is_loopback("127.0.0.1"), is_loopback("::1")
    (True, True, True)
    >>> is_loopback("0.0.0.0"), is_loopback("192.0.2.2")
    (False, False)
    """
    return all(ipaddress.ip_address(a).is_loopback for a in resolve_host(host))


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether nothing listens on ``port`` of ``host`` (an IP address).

    >>> with socket.socket() as busy:
    ...     busy.bind(("127.0.0.1", 0)); busy.listen()
    ...     port_is_free(busy.getsockname()[1])
    False
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if os.name == "posix":  # as Tornado binds: a port whose last server just stopped (TIME_WAIT) is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


def pick_port(requested: int, host: str = HOST) -> int:
    """``requested`` if it is free on ``host``; 0 means any free port the system hands out.

    >>> 1 <= pick_port(0) <= 65535
    True
    >>> pick_port(70000)
    Traceback (most recent call last):
    ...
    caterpillar_learn.network.ServeError: --port: got 70000, expected a port from 1 to 65535, or 0 for any \
free port
    """
    if not 0 <= requested <= 65535:
        raise ServeError(describe("--port", requested, "a port from 1 to 65535, or 0 for any free port"))
    address = "127.0.0.1" if host == HOST else resolve_host(host)[0]
    if requested == 0:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((address, 0))
            port: int = probe.getsockname()[1]
            return port
    if not port_is_free(requested, address):
        raise ServeError(describe("--port", requested, "a free port (or --port 0 for any free one)"))
    return requested


def local_addresses() -> list[str]:
    """Every IP address of this computer's network interfaces, loopback included."""
    import psutil  # type: ignore[import-untyped]  # lazily: only serving needs it

    found = {"127.0.0.1", "::1"}
    for entries in psutil.net_if_addrs().values():
        for entry in entries:
            if entry.family in (socket.AF_INET, socket.AF_INET6):
                found.add(str(ipaddress.ip_address(entry.address.split("%")[0])))
    return sorted(found)


def allowed_hosts(host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a request's ``Host`` header may give: this computer's names and addresses, and ``extra``.

    >>> names = allowed_hosts("localhost", ["lessons.school.example"])
    >>> {"localhost", "127.0.0.1", "::1", "lessons.school.example"} <= names, "evil.example" in names
    (True, False)
    """
    names = {"localhost", *local_addresses(), *(n.strip().lower() for n in extra if n.strip())}
    if host not in WILDCARDS:
        names.update(resolve_host(host))
        names.add(host.lower())
    for name in (socket.gethostname(), socket.getfqdn()):
        if name:
            names.update({name.lower(), f"{name.lower().split('.')[0]}.local"})
    return frozenset(names)


def new_token() -> str:
    """A random login token that can be typed on a tablet.

    >>> token = new_token()
    >>> len(token), set(token) <= set(TOKEN_ALPHABET)
    (12, True)
    """
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))


def lessons_url(port: int, host: str = HOST, token: str | None = None) -> str:
    """The address of the lesson list (with the token, when there is one)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def lessons_urls(port: int, host: str = HOST, token: str | None = None) -> list[str]:
    """The addresses to give learners: one per network address when ``host`` is a wildcard."""
    if host not in WILDCARDS:
        return [lessons_url(port, host, token)]
    wanted = socket.AF_INET if host == "0.0.0.0" else None
    addresses = [
        a
        for a in local_addresses()
        if not ipaddress.ip_address(a).is_loopback
        and not ipaddress.ip_address(a).is_link_local
        and (wanted is None or ":" not in a)
    ]
    return [lessons_url(port, a, token) for a in addresses] or [lessons_url(port, socket.gethostname(), token)]


# -- the address pupils type (the classroom server) -------------------------------------


def public_host(host: str) -> str:
    """The address pupils type: ``host``, or this machine's address on the network when listening everywhere.

    >>> public_host("192.0.2.2")
    '192.0.2.2'
    """
    if host not in (*WILDCARDS, ""):
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the outgoing interface
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return socket.gethostname()


def join_base(host: str, port: int) -> str:
    """The pupils' address of the classroom server (the QR code adds ``?room=CODE``).

    >>> join_base("127.0.0.1", 5006)
    'http://127.0.0.1:5006/join'
    """
    shown = public_host(host)
    return f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/join"


def origins(host: str, port: int) -> list[str]:
    """The ``host:port`` pairs whose pages may open a websocket (Bokeh refuses every other origin).

    >>> origins("127.0.0.1", 5006)
    ['127.0.0.1:5006', 'localhost:5006']
    """
    names = [public_host(host), "127.0.0.1", "localhost"]
    if host in WILDCARDS:
        names.append(socket.gethostname())
    return list(dict.fromkeys(f"{name}:{port}" for name in names))


# -- the Host header -----------------------------------------------------------------------


def host_name(header: str) -> str:
    """The host of a ``Host`` header: lower case, without port or IPv6 brackets.

    >>> host_name("Teacher-PC.local:8866"), host_name("[::1]:8866"), host_name("192.0.2.2")
    ('teacher-pc.local', '::1', '192.0.2.2')
    """
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def notice_page(title: str, message: str) -> str:
    """A plain page with a heading and one paragraph, in the current language: no script, no style sheet,
    no traceback.

    >>> "<h1>Full &amp; busy</h1>" in notice_page("Full & busy", "Try later.")
    True
    >>> from caterpillar_learn.i18n import language
    >>> with language("de"):
    ...     '<html lang="de">' in notice_page("Voll", "Später.")
    True
    """
    return (
        f'<!DOCTYPE html>\n<html lang="{current_language()}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title></head>"
        '<body style="font-family: sans-serif; font-size: 1.25rem; max-width: 40rem; margin: 3rem auto">'
        f'<h1>{html.escape(title)}</h1><p data-testid="notice">{html.escape(message)}</p></body></html>\n'
    )


class ForeignHost(Matcher):
    """Matches the requests whose Host header names no address of this server (DNS rebinding, a wrong name)."""

    def __init__(self, allowed: Collection[str]) -> None:
        self.allowed = frozenset(allowed)
        self._reported: set[str] = set()

    def match(self, request: HTTPServerRequest) -> dict[str, Any] | None:
        host = host_name(request.host or "")
        if host in self.allowed:
            return None
        if host not in self._reported and len(self._reported) < 20:  # one line per host, not per request
            self._reported.add(host)
            log.warning("refused requests for the host %r: not a name of this server", host)
        return {}


class RefusedHost(tornado.web.RequestHandler):
    """Every request for a foreign host: 403 and a one-line page (``words``: its title and its sentence)."""

    def initialize(self, words: Any) -> None:
        self.words = words

    def prepare(self) -> None:
        title, message = self.words()
        self.set_status(403)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(notice_page(title, message))


# -- headers ---------------------------------------------------------------------------------

#: Every answer of both servers: no address (with its token) passed on to another site, no guessing of
#: content types, and (with :func:`content_policy`) no framing of a page by another site.
SECURITY_HEADERS: Mapping[str, str] = {"Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}


def content_policy(script: Iterable[str] = (), connect: Iterable[str] = (), style: Iterable[str] = ()) -> str:
    """A Content-Security-Policy: this server's own files only, never in another site's frame.

    ``script`` adds sources of scripts beyond this server's own files and
    inline scripts (Bokeh's and Voila's pages are made of inline scripts);
    ``connect`` adds where a page may connect beyond its own server;
    ``style`` adds sources of style sheets and their fonts.

    >>> policy = content_policy(["blob:"])
    >>> "frame-ancestors 'none'" in policy, "script-src 'self' 'unsafe-inline' blob:;" in policy
    (True, True)
    """
    scripts = " ".join(["'self'", "'unsafe-inline'", *script])
    connects = " ".join(["'self'", *connect])
    styles = " ".join(["'self'", "'unsafe-inline'", *style])
    fonts = " ".join(["'self'", "data:", *style])
    return (
        f"default-src 'self'; script-src {scripts}; style-src {styles}; "
        f"img-src 'self' data: blob:; font-src {fonts}; connect-src {connects}; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )


# -- how long a browser keeps a file ------------------------------------------------------------

#: A file whose address names its version (``?v=...``, or a hash in its name): kept a year, never asked again.
YEAR = "public, max-age=31536000, immutable"
#: A file whose address names no version but that changes only with an installed package: kept a day.
DAY = "public, max-age=86400"
#: A file that may change while the server runs: asked again each time (an unchanged one costs a 304).
ASK = "no-cache"


@dataclass(frozen=True)
class Lifetime:
    """How long a browser keeps the files whose path matches ``path`` (a regular expression, whole path).

    ``versioned`` is the ``Cache-Control`` of an address that names its
    file's version, by a ``v=`` argument (the servers' own way) or by a
    hash in the file's name (``2.3dbf81c0.js``: a bundler's way); ``plain``
    is the one of any other address.  The first lifetime whose ``path``
    matches decides.

    >>> lifetime = Lifetime(r"/static/.+", plain=DAY)
    >>> lifetime.cache_control("/static/voila.js", {"v": [b"3"]}) == YEAR
    True
    >>> lifetime.cache_control("/static/voila.js", {}) == DAY
    True
    >>> lifetime.cache_control("/static/2.3dbf81c0.js", {}) == YEAR, lifetime.cache_control("/join", {}) is None
    (True, True)
    """

    path: str
    plain: str
    versioned: str = YEAR

    def cache_control(self, path: str, arguments: Mapping[str, object]) -> str | None:
        if re.fullmatch(self.path, path) is None:
            return None
        return self.versioned if "v" in arguments or _HASHED.search(path) else self.plain


#: A file name with a bundler's content hash before its extension: ``883.369fbd92285483263252.js``.
_HASHED = re.compile(r"\.[0-9a-f]{8,}\.[a-z0-9]+$")


class _Headers(tornado.web.OutputTransform):
    """Sets the security headers on every answer, over any a handler set itself (jupyter_server's
    handlers write a Content-Security-Policy of their own that lets the server's own pages frame them),
    and the ``Cache-Control`` of a static file (:class:`Lifetime`) on its answer or its 304."""

    headers: Mapping[str, str] = {}
    lifetimes: tuple[Lifetime, ...] = ()

    def __init__(self, request: HTTPServerRequest) -> None:
        super().__init__(request)
        self.request = request

    def transform_first_chunk(
        self, status_code: int, headers: HTTPHeaders, chunk: bytes, finishing: bool
    ) -> tuple[int, HTTPHeaders, bytes]:
        for name, value in self.headers.items():
            headers[name] = value
        if status_code in (200, 304):
            for lifetime in self.lifetimes:
                found = lifetime.cache_control(self.request.path, self.request.query_arguments)
                if found is not None:
                    headers["Cache-Control"] = found
                    break
        return status_code, headers, chunk


class _HeadersFor:
    """Tornado makes a transform per request from a class: this makes one with a server's headers."""

    def __init__(self, headers: Mapping[str, str], lifetimes: Iterable[Lifetime] = ()) -> None:
        self.headers = dict(headers)
        self.lifetimes = tuple(lifetimes)

    def __call__(self, request: HTTPServerRequest) -> _Headers:
        made = _Headers(request)
        made.headers = self.headers
        made.lifetimes = self.lifetimes
        return made


# -- the log ---------------------------------------------------------------------------------

#: Query arguments whose values never reach a log: the teacher's and the lessons' token, a pupil's secret.
SECRET_ARGUMENTS = ("token", "secret")
_SECRET = re.compile(rf"(?i)\b({'|'.join(SECRET_ARGUMENTS)})=[^&#\s'\"]+")


def redact(words: str) -> str:
    """``words`` with the value of every ``token=`` or ``secret=`` argument hidden.

    >>> redact("GET /join?room=KX47PQ&secret=abc#x")
    'GET /join?room=KX47PQ&secret=[hidden]#x'
    """
    return _SECRET.sub(r"\1=[hidden]", words)


def log_request(handler: tornado.web.RequestHandler) -> None:
    """Tornado's access log line, with the address's secrets hidden (Tornado's ``log_function`` setting)."""
    status = handler.get_status()
    say = tornado.log.access_log.info if status < 400 else tornado.log.access_log.warning
    if status >= 500:
        say = tornado.log.access_log.error
    request = handler.request
    took = 1000.0 * request.request_time()
    say("%d %s %s (%s) %.2fms", status, request.method, redact(request.uri or ""), request.remote_ip, took)


class RedactSecrets(logging.Filter):
    """A handler's filter: every record's line with :func:`redact` applied (whoever logged it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        line = record.getMessage()
        hidden = redact(line)
        if hidden != line:
            record.msg, record.args = hidden, None
        return True


class OneLine(logging.Filter):
    """A handler's filter: a record of the loggers under ``names`` becomes one line, with no traceback.

    A page's malformed message (Bokeh refuses it) is then one line naming
    what was wrong, instead of thirty lines of traceback per message.
    """

    #: Longest line kept of such a record.
    LONGEST = 400

    def __init__(self, names: Iterable[str]) -> None:
        super().__init__()
        self.names = tuple(names)

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith(self.names):
            return True
        error = record.exc_info[1] if record.exc_info else None
        line = " ".join(record.getMessage().split())
        if error is not None:
            line = f"{line.split(' message: ')[0]} ({type(error).__name__}: {' '.join(str(error).split())})"
        record.msg, record.args = line if len(line) <= self.LONGEST else line[: self.LONGEST - 1] + "…", None
        record.exc_info = record.exc_text = record.stack_info = None
        return True


def quiet_log(handlers: Iterable[logging.Handler], one_line: Iterable[str] = ("bokeh.server",)) -> None:
    """Put :class:`RedactSecrets` and :class:`OneLine` (for the loggers ``one_line``) on ``handlers``."""
    for handler in handlers:
        handler.addFilter(OneLine(one_line))
        handler.addFilter(RedactSecrets())


# -- all of it on a server ---------------------------------------------------------------------------


def harden(
    app: tornado.web.Application,
    allowed: Collection[str],
    policy: str,
    refused_words: Any,
    lifetimes: Iterable[Lifetime] = (),
) -> None:
    """Put the network policy on a server's Tornado ``app``: the Host check in front of every route, the
    security headers (``policy`` as its Content-Security-Policy) on every answer, how long a browser keeps
    each static file (``lifetimes``), compressed answers, and the access log without secrets.
    ``refused_words()`` gives the title and sentence of the page a foreign host gets."""
    router = app.default_router
    rule = Rule(ForeignHost(allowed), RefusedHost, {"words": refused_words})
    router.rules.insert(0, router.process_rule(rule))
    headers = {**SECURITY_HEADERS, "Content-Security-Policy": policy}
    transform: Any = _HeadersFor(headers, lifetimes)
    app.add_transform(transform)
    # Tornado's gzip for every text answer a browser says it accepts gzip for (pages, scripts, style
    # sheets, JSON): Tornado's own ``compress_response`` setting, which is read only when an application
    # is made, so its transform is added here (once).
    if tornado.web.GZipContentEncoding not in app.transforms:
        app.add_transform(tornado.web.GZipContentEncoding)
    app.settings["log_function"] = log_request
