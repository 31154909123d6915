"""Who a pupil is: a nickname as people read it, and a secret their page keeps.

Two nicknames are the same pupil's when a child at the projector could not
tell them apart.  :func:`nickname_key` folds case, width and compatibility
forms (NFKC, then :meth:`str.casefold`) and maps every confusable letter to
its prototype in Unicode's confusables table (UTS #39, as shipped by the
``confusable_homoglyphs`` package), so "ADA", fullwidth "Ａｄａ" and "Аda"
with a Cyrillic А all read as "Ada".  A nickname that mixes scripts is
refused outright (:func:`check_nickname`): nobody types one by accident.

Joining gives the page a secret (:func:`new_secret`); the room keeps only its
hash (:func:`secret_hash`), in its event log, so a restart keeps it.  The
page keeps the secret itself (the browser's storage and the address
fragment, never the query, which servers log) and shows it again to get its
sheet back.  :class:`Roster` is the part of a room that knows its pupils'
names, secrets, which pages have connected and who is waiting at the door.

>>> nickname_key("ADA") == nickname_key("Ａｄａ") == nickname_key("Аda") == nickname_key("Ada")
True
>>> nickname_key("Ada") == nickname_key("Ida")
False
>>> check_nickname("Jörg")
'Jörg'
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from confusable_homoglyphs import categories, confusables

from caterpillar_learn.classroom.codes import ClassroomError, parse_nickname
from caterpillar_learn.i18n import text

__all__ = [
    "MAX_REQUESTS",
    "Attendance",
    "RejoinNeeded",
    "Removed",
    "Request",
    "Roster",
    "check_nickname",
    "is_secret",
    "new_secret",
    "nickname_key",
    "secret_hash",
]

#: Pages waiting at once for the teacher to let them in, in one room.
MAX_REQUESTS = 20
#: Bytes of randomness in a pupil's secret (``secrets.token_urlsafe``).
SECRET_BYTES = 18
#: Marks the confusables data puts around right-to-left letters.
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from the package's copy of UTS #39 ``confusables.txt``.

    The package stores every line ``source ; prototype`` both ways round.  A
    prototype is never itself a source, so a character confusable with
    several others is a prototype, and a character confusable with exactly one
    other is that one's source.  Two characters confusable only with each
    other cannot be told apart this way: both map to the smaller one, which
    keeps the pair one key.
    """
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    table: dict[str, list[str]] = {
        key.translate(_DIRECTION_MARKS): [entry["c"].translate(_DIRECTION_MARKS) for entry in entries]
        for key, entries in data.items()
    }
    prototypes: dict[str, str] = {}
    for char, others in table.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype (or a sequence), kept as it is
        other = others[0]
        if len(table.get(other, ())) > 1 or len(other) > 1 or other < char:
            prototypes[char] = other
    return prototypes


def nickname_key(nickname: str) -> str:
    """The nickname as a reader sees it: NFKC, casefolded, confusables mapped to their prototypes (UTS #39).

    >>> nickname_key("Ｂｅｎ") == nickname_key("ben") == nickname_key("BEN")
    True
    >>> nickname_key("Jörg") == nickname_key("Jorg")
    False
    """
    # Mapped before folding too: a capital I reads as a small l, which casefolding alone would lose.
    once = _skeleton(unicodedata.normalize("NFKC", nickname))
    return _skeleton(unicodedata.normalize("NFKC", once).casefold()).casefold()


def _skeleton(words: str) -> str:
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", words))
    return unicodedata.normalize("NFC", mapped)


def check_nickname(value: object) -> str:
    """A nickname as typed (:func:`~caterpillar_learn.classroom.codes.parse_nickname`) in one script, or one line.

    >>> check_nickname("Аda")
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.codes.ClassroomError: nickname: got 'Аda', letters of more than one alphabet \
(CYRILLIC, LATIN): use the letters of one alphabet
    """
    name = parse_nickname(value)
    if confusables.is_mixed_script(unicodedata.normalize("NFKC", name)):
        scripts = sorted(
            {categories.alias(char) for char in unicodedata.normalize("NFKC", name) if char.isalpha()} - {"COMMON"}
        )
        raise ClassroomError(text("classroom.msg.mixed_script", nickname=name, scripts=", ".join(scripts)))
    return name


def new_secret() -> str:
    """A pupil page's secret: random, URL-safe, shown once to the page that joined.

    >>> len(new_secret()) >= 24 and new_secret() != new_secret()
    True
    """
    return secrets.token_urlsafe(SECRET_BYTES)


def is_secret(value: object) -> bool:
    """Whether ``value`` looks like a secret this server hands out (anything else is ignored, never stored).

    >>> is_secret(new_secret()), is_secret("ada"), is_secret(None)
    (True, False, False)
    """
    return (
        isinstance(value, str)
        and 16 <= len(value) <= 64
        and all(char.isascii() and (char.isalnum() or char in "-_") for char in value)
    )


def secret_hash(secret: str) -> str:
    """What the log keeps of a secret: its SHA-256 (the secret has 144 random bits, so no salt is needed).

    >>> len(secret_hash("x" * 24)), secret_hash("x" * 24) == secret_hash("x" * 24)
    (64, True)
    """
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


class RejoinNeeded(ClassroomError):
    """The nickname is a pupil's who has a sheet already, and this page does not hold their secret."""

    def __init__(self, pupil: int, nickname: str) -> None:
        super().__init__(text("classroom.rejoin.ask_teacher", nickname=nickname))
        self.pupil = pupil
        #: The room, filled in by the lobby.
        self.room: Any = None


class Removed(ClassroomError):
    """The page holds the secret of a pupil the teacher took out of the room."""

    def __init__(self) -> None:
        super().__init__(text("classroom.msg.removed"))


@dataclass
class Request:
    """A page asking to be a pupil who already has a sheet (another tablet); the teacher answers."""

    id: int
    pupil: int
    #: Called with a new secret when the teacher lets the page in, with ``None`` when they refuse.
    answer: Callable[[str | None], None]


@dataclass
class Roster:
    """The pupils of one room by reading key and by secret; which pages connected; who waits at the door.

    The names and secrets come from the log (a room's ``apply``); the pages
    connected and the requests live only as long as the server.

    >>> roster = Roster()
    >>> roster.add(1, "Ada", secret_hash("s" * 20))
    >>> roster.named("ＡＤＡ"), roster.by_secret("s" * 20), roster.by_secret("t" * 20)
    (1, 1, None)
    """

    keys: dict[str, int] = field(default_factory=dict)
    secrets: dict[str, int] = field(default_factory=dict)
    #: Hashes of the secrets of pupils the teacher took out (their pages are told so).
    removed: set[str] = field(default_factory=set)
    #: Pupils whose page has connected (or who placed a move before a restart).
    seen: set[int] = field(default_factory=set)
    requests: dict[int, Request] = field(default_factory=dict)
    next_id: int = 1
    _next_request: int = 1

    def named(self, nickname: str) -> int | None:
        return self.keys.get(nickname_key(nickname))

    def by_secret(self, secret: str | None) -> int | None:
        if secret is None:
            return None
        wanted = secret_hash(secret)
        for stored, ident in self.secrets.items():
            if hmac.compare_digest(stored, wanted):
                return ident
        return None

    def is_removed(self, secret: str | None) -> bool:
        return secret is not None and secret_hash(secret) in self.removed

    def admit(self, nickname: str, secret: str | None) -> int | None:
        """The pupil this page is (by its secret), ``None`` for a new pupil; else :class:`RejoinNeeded`.

        >>> roster = Roster()
        >>> roster.add(1, "Ada", secret_hash("s" * 20))
        >>> roster.admit("Ben", None), roster.admit("anything", "s" * 20)
        (None, 1)
        >>> roster.admit("ADA", None)
        Traceback (most recent call last):
        ...
        caterpillar_learn.classroom.identity.RejoinNeeded: Ask your teacher: ADA is playing on another tablet already.
        """
        known = self.by_secret(secret)
        if known is not None:
            return known
        if self.is_removed(secret):
            raise Removed()
        named = self.named(nickname)
        if named is not None:
            raise RejoinNeeded(named, nickname)
        return None

    def add(self, ident: int, nickname: str, hashed: str | None) -> None:
        key = nickname_key(nickname)
        if key in self.keys:
            raise ClassroomError(text("classroom.msg.name_taken", nickname=nickname))
        self.keys[key] = ident
        if hashed:
            self.secrets[hashed] = ident
        self.next_id = max(self.next_id, ident + 1)

    def is_free(self, nickname: str, ident: int | None = None) -> bool:
        """Whether no pupil but ``ident`` has a nickname that reads as ``nickname``."""
        return self.keys.get(nickname_key(nickname), ident) == ident

    def let_in(self, ident: int, hashed: str) -> None:
        self.secrets[hashed] = ident

    def rename(self, ident: int, old: str, new: str) -> None:
        key = nickname_key(new)
        if self.keys.get(key, ident) != ident:
            raise ClassroomError(text("classroom.msg.name_taken", nickname=new))
        self.keys.pop(nickname_key(old), None)
        self.keys[key] = ident

    def remove(self, ident: int, nickname: str) -> None:
        self.keys.pop(nickname_key(nickname), None)
        for hashed in [stored for stored, who in self.secrets.items() if who == ident]:
            del self.secrets[hashed]
            self.removed.add(hashed)
        self.seen.discard(ident)
        for request in [request for request in self.requests.values() if request.pupil == ident]:
            del self.requests[request.id]
            request.answer(None)

    def ask(self, pupil: int, answer: Callable[[str | None], None]) -> int:
        """Put a page's request on the teacher's console; returns its number."""
        if len(self.requests) >= MAX_REQUESTS:
            raise ClassroomError(text("classroom.msg.slow_down"))
        ident = self._next_request
        self._next_request += 1
        self.requests[ident] = Request(ident, pupil, answer)
        return ident

    def take(self, request: object) -> Request:
        """The request the teacher answers (gone from the console from now on)."""
        found = self.requests.pop(request, None) if isinstance(request, int) and not isinstance(request, bool) else None
        if found is None:
            raise ClassroomError(text("classroom.msg.no_request"))
        return found


class Attendance:
    """The door of a room, the same in both games: who has arrived, who waits, and the teacher's remove and rename.

    A room that mixes this in has a ``lock``, its ``roster``, its ``pupils``
    by number, and writes events with ``record`` (the log first, then its
    own ``apply``) and tells its pages with ``notify``.
    """

    lock: threading.RLock
    roster: Roster
    pupils: Mapping[int, Any]

    def record(self, kind: str, data: dict[str, Any]) -> bool:
        raise NotImplementedError

    def notify(self, pupil: int | None) -> None:
        raise NotImplementedError

    def arrive(self, pupil: int) -> None:
        """A pupil's page has connected: from now on they are counted and shown."""
        with self.lock:
            if pupil in self.pupils and pupil not in self.roster.seen:
                self.roster.seen.add(pupil)
                self.notify(None)

    def ask(self, pupil: int, answer: Callable[[str | None], None]) -> int:
        """Ask the teacher to let another page be ``pupil`` (``answer`` gets a new secret, or ``None``)."""
        with self.lock:
            request = self.roster.ask(pupil, answer)
        self.notify(None)
        return request

    def withdraw(self, request: int) -> None:
        """The waiting page has closed: its request leaves the console."""
        with self.lock:
            gone = self.roster.requests.pop(request, None)
        if gone is not None:
            self.notify(None)

    def let_in(self, request: object) -> None:
        """The teacher lets the waiting page in: it gets a secret of its own for that pupil (an event)."""
        with self.lock:
            asked = self.roster.take(request)
            secret = new_secret()
            self.record("pupil_let_in", {"pupil": asked.pupil, "secret_hash": secret_hash(secret)})
        asked.answer(secret)

    def refuse(self, request: object) -> None:
        """The teacher turns the waiting page away."""
        with self.lock:
            asked = self.roster.take(request)
        self.notify(None)
        asked.answer(None)

    def remove(self, pupil: object) -> None:
        """The teacher takes a pupil out of the room (an event): their page is told, a table gives the seat to a bot."""
        with self.lock:
            self.record("pupil_removed", {"pupil": self._pupil_id(pupil)})

    def rename(self, pupil: object, nickname: object) -> None:
        """The teacher renames a pupil (an event); the new name is checked like a join."""
        with self.lock:
            ident = self._pupil_id(pupil)
            name = check_nickname(nickname)
            if not self.roster.is_free(name, ident):
                raise ClassroomError(text("classroom.msg.name_taken", nickname=name))
            self.record("pupil_renamed", {"pupil": ident, "nickname": name})

    def _pupil_id(self, pupil: object) -> int:
        if isinstance(pupil, bool) or not isinstance(pupil, int) or pupil not in self.pupils:
            raise ClassroomError(text("classroom.msg.no_pupil"))
        return pupil
