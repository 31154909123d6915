"""Where ``caterpillar-learn serve`` listens, which names it answers to, and its token.

>>> lessons_url(8866, "192.0.2.2", "k7m2x9qp4hvr")
'http://192.0.2.2:8866/?token=k7m2x9qp4hvr'
"""

from __future__ import annotations

import errno
import ipaddress
import secrets
import socket
from collections.abc import Iterable

from caterpillar_learn.errors import CaterpillarLearnError, describe

__all__ = [
    "HOST",
    "ServeError",
    "allowed_hosts",
    "is_loopback",
    "lessons_url",
    "lessons_urls",
    "local_addresses",
    "new_token",
    "pick_port",
    "port_is_free",
    "resolve_host",
]

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
    caterpillar_learn.ui.hosting.network.ServeError: --host: got 'no-such-host.invalid', expected an address \
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
    caterpillar_learn.ui.hosting.network.ServeError: --port: got 70000, expected a port from 1 to 65535, or 0 for any \
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
