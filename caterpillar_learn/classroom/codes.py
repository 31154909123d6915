"""Room codes, nicknames and the join limit: what stands at a classroom's door.

A room code is drawn with :mod:`secrets` from letters and digits that a
child cannot confuse (no 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G), so codes are not
counted out one after the other and cannot be guessed from the last one;
with :data:`CODE_LENGTH` characters there are 23**6, about 148 million, and
:class:`JoinLimit` allows each client only a few attempts a minute.

A nickname is what the teacher sees on the projector: a first name or a
made-up name, never a full name (the page says so).  It is one short line
of letters, digits, spaces and a few marks.

>>> len(new_code())
6
>>> parse_code(" kx4-7pq ")
'KX47PQ'
>>> parse_nickname("  Ada   B ")
'Ada B'
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Container

from caterpillar_learn.errors import CaterpillarLearnError, describe

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "ClassroomError",
    "JoinLimit",
    "new_code",
    "new_token",
    "parse_code",
    "parse_nickname",
]

#: Letters and digits that read the same in any school font.
CODE_ALPHABET = "ACDEFHJKMNPQRTUVWXY3479"
CODE_LENGTH = 6
NICKNAME_LENGTH = 20
#: Marks a nickname may hold besides letters, digits and single spaces.
NICKNAME_MARKS = "-_.'"


class ClassroomError(CaterpillarLearnError):
    """A request to the classroom server that cannot be served (bad code, bad nickname, too many tries)."""


def new_code(taken: Container[str] = ()) -> str:
    """A fresh room code, drawn with :mod:`secrets` (never one in ``taken``).

    >>> code = new_code()
    >>> set(code) <= set(CODE_ALPHABET) and code != new_code()
    True
    """
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def new_token() -> str:
    """The secret part of the teacher's address (128 random bits)."""
    return secrets.token_urlsafe(16)


def parse_code(value: object) -> str:
    """A room code as typed (any case, with spaces or dashes), or a one-line error.

    >>> parse_code("ab")
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.codes.ClassroomError: room code: got 'ab', expected 6 letters and digits as shown \
on the board
    """
    expected = f"{CODE_LENGTH} letters and digits as shown on the board"
    if not isinstance(value, str) or len(value) > 4 * CODE_LENGTH:
        raise ClassroomError(describe("room code", value, expected))
    code = "".join(value.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        raise ClassroomError(describe("room code", value, expected))
    return code


def parse_nickname(value: object) -> str:
    """A nickname: 1 to 20 letters, digits, single spaces and ``- _ . '``, or a one-line error.

    >>> parse_nickname("<script>")
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.codes.ClassroomError: nickname: got '<script>', expected 1 to 20 letters, digits, \
spaces or - _ . '
    """
    expected = f"1 to {NICKNAME_LENGTH} letters, digits, spaces or {' '.join(NICKNAME_MARKS)}"
    if not isinstance(value, str) or len(value) > 4 * NICKNAME_LENGTH:
        raise ClassroomError(describe("nickname", value, expected))
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not 1 <= len(name) <= NICKNAME_LENGTH or not all(
        char.isalnum() or char == " " or char in NICKNAME_MARKS for char in name
    ):
        raise ClassroomError(describe("nickname", value, expected))
    return name


class JoinLimit:
    """At most ``burst`` join attempts per client, refilled at ``per_minute`` a minute (a token bucket).

    Clients are told apart by address; the limiter remembers the
    :data:`MAX_CLIENTS` most recent ones, so a flood of addresses cannot
    fill the memory.

    >>> now = [0.0]
    >>> limit = JoinLimit(burst=2, per_minute=6, clock=lambda: now[0])
    >>> [limit.allow("10.0.0.7") for _ in range(3)], limit.allow("10.0.0.8")
    ([True, True, False], True)
    >>> now[0] = 10.0  # six a minute: one more try every ten seconds
    >>> limit.allow("10.0.0.7"), limit.allow("10.0.0.7")
    (True, False)
    """

    MAX_CLIENTS = 10_000

    def __init__(self, burst: int = 12, per_minute: float = 20.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client → (tokens, when)

    def allow(self, client: str) -> bool:
        """Whether ``client`` may try to join now (the try is counted)."""
        now = self.clock()
        tokens, when = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.MAX_CLIENTS:
            self._buckets.popitem(last=False)
        return allowed

    def has_room(self, client: str) -> bool:
        """Whether :meth:`allow` would let ``client`` in now (nothing is counted).

        >>> limit = JoinLimit(burst=1, per_minute=6, clock=lambda: 0.0)
        >>> limit.has_room("10.0.0.7"), limit.allow("10.0.0.7"), limit.has_room("10.0.0.7")
        (True, True, False)
        """
        tokens, when = self._buckets.get(client, (float(self.burst), self.clock()))
        return min(float(self.burst), tokens + (self.clock() - when) * self.rate) >= 1.0
