"""Solved layouts on disk, shared by every process that is given the same folder.

A class of thirty on one lesson starts thirty kernels that all need the same
layout's exact solve.  With a cache folder (``caterpillar-learn serve`` makes
one and names it in :data:`ENV` for its kernels) the first process solves the
layout and writes it here; the others wait for that process (a lock file per
layout) and then map the file instead of solving again.  A mapped table lives
in the operating system's file cache once for all processes, not in each
kernel's own memory.

One file per (level, labels), written to a temporary file in the same folder
and renamed into place, so a reader sees a whole file or none.  The format is
plain: a magic line, a JSON header line (format, code fingerprint, level,
labels, number of values, CRC-32 of the values) padded to 64 bytes, then
the values as little-endian float64.  Nothing is ever unpickled.  A file
whose header, size or checksum does not match exactly what the caller
expects (a truncated write, another program's file, an older solver) is
ignored, and the caller solves the layout and replaces it.  The checksum
guards against accidents, not against someone who may write the folder
(who could change the rules' source as well): CRC-32 reads an Intermediate
table's 84 MB about six times faster than BLAKE2b did (0.06 s against
0.37 s), and a worker checksums every table it solves.  The fingerprint is a digest of
the source files the values depend on, so a folder kept across an upgrade
never serves tables computed by other rules.

The folder is bounded: after each write the least recently used files go
until the rest fit in :data:`MAX_BYTES`.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> values = np.arange(5.0)
>>> path = write(folder, Level.BEGINNER, (1,) * 12, values)
>>> path.name
'beginner-1-1-1-1-1-1-1-1-1-1-1-1.solved'
>>> read(folder, Level.BEGINNER, (1,) * 12, 5).tolist()
[0.0, 1.0, 2.0, 3.0, 4.0]
>>> read(folder, Level.BEGINNER, (1,) * 12, 6) is None  # not the size the caller expects
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import IO, Any

import numpy as np

from caterpillar_learn.advice.tables import Floats
from caterpillar_learn.caterpillars.levels import Level

try:
    import fcntl
except ImportError:  # Windows: no lock, so two processes may solve the same layout at once
    fcntl = None  # type: ignore[assignment]

__all__ = ["ENV", "MAX_BYTES", "cache_folder", "file_name", "is_locked", "read", "solving", "write"]

#: The environment variable naming the cache folder (unset: no disk cache).
ENV = "CATERPILLAR_LEARN_SOLVE_CACHE"
#: The folder keeps at most this many bytes of solved layouts (about 12 Intermediate layouts).
MAX_BYTES = 1 << 30
#: How long a process waits for another one's solve of the same layout before solving itself.
WAIT_SECONDS = 300.0
#: Bumped whenever the file layout below changes.
FORMAT = 2  # 2: CRC-32 instead of BLAKE2b
MAGIC = b"caterpillar-learn solved layout\n"
SUFFIX = ".solved"
_MAX_HEADER = 4096
_ALIGN = 64
_CHUNK = 1 << 22
#: The sources the solved values depend on (the rules and the solver), for the fingerprint.
_SOURCES = ("advice/solver.py", "advice/tables.py", "advice/levels.py", "caterpillars/*.py")

log = logging.getLogger("caterpillar_learn.advice")


def cache_folder() -> Path | None:
    """The folder named by :data:`ENV`, or ``None`` when it is unset or empty.

    >>> os.environ.pop(ENV, None) and None
    >>> cache_folder() is None
    True
    """
    named = os.environ.get(ENV, "").strip()
    return Path(named) if named else None


def file_name(level: Level, labels: tuple[int, ...]) -> str:
    """The file of one layout: level and labels, nothing else.

    >>> file_name(Level.INTERMEDIATE, (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
    'intermediate-1-3-6-4-6-2-3-5-5-4-2-1.solved'
    """
    return f"{level.value}-{'-'.join(str(int(v)) for v in labels)}{SUFFIX}"


@cache
def code_fingerprint() -> str:
    """A digest of the sources the solved values depend on: files by other code are foreign."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(f"format {FORMAT}".encode(), digest_size=16)
    for pattern in _SOURCES:
        for path in sorted(package.glob(pattern)):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _header(level: Level, labels: tuple[int, ...], count: int) -> dict[str, Any]:
    return {"format": FORMAT, "code": code_fingerprint(), "level": level.value, "labels": list(labels), "count": count}


def _digest(data: memoryview) -> str:
    return f"{zlib.crc32(data):08x}"


def _file_digest(source: IO[bytes], length: int) -> str:
    crc = 0
    left = length
    while left > 0:
        chunk = source.read(min(_CHUNK, left))
        if not chunk:
            break
        crc = zlib.crc32(chunk, crc)
        left -= len(chunk)
    return f"{crc:08x}"


# -- reading ----------------------------------------------------------------------


def read(folder: Path, level: Level, labels: tuple[int, ...], count: int, *, check: bool = True) -> Floats | None:
    """The ``count`` values stored for this layout, mapped read-only; ``None`` if absent or not valid.

    The checksum is checked by reading the file (which fills the shared file
    cache, not this process's memory) before the same open file is mapped;
    ``check=False`` skips that for a file this process has just written
    itself (the header and size are still checked).
    """
    path = folder / file_name(level, labels)
    try:
        with path.open("rb") as handle:
            found = _check_header(handle, _header(level, labels, count))
            if found is None:
                log.warning("ignoring %s: not a solved layout of this level, labels and code", path)
                return None
            start, stored = found
            if os.fstat(handle.fileno()).st_size != start + 8 * count:
                log.warning("ignoring %s: its size is not that of %d values", path, count)
                return None
            handle.seek(start)
            if check and _file_digest(handle, 8 * count) != stored:
                log.warning("ignoring %s: its values do not match their digest", path)
                return None
            values = np.memmap(handle, dtype="<f8", mode="r", offset=start, shape=(count,))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("ignoring %s: %s", path, error)
        return None
    _touch(path)
    return values


def _check_header(handle: IO[bytes], expected: dict[str, Any]) -> tuple[int, str] | None:
    """Where the values start and their digest, if the header is exactly ``expected`` plus a digest."""
    head = handle.read(_MAX_HEADER)
    if not head.startswith(MAGIC):
        return None
    end = head.find(b"\n", len(MAGIC))
    if end < 0:
        return None
    try:
        header = json.loads(head[len(MAGIC) : end].decode("ascii"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(header, dict) or {k: v for k, v in header.items() if k != "digest"} != expected:
        return None
    digest = header.get("digest")
    return (end + 1, digest) if isinstance(digest, str) else None


def _touch(path: Path) -> None:
    # The modification time orders the folder for pruning: reading counts as a use.
    with contextlib.suppress(OSError):  # a read-only folder still serves its files
        os.utime(path)


# -- writing ----------------------------------------------------------------------


def write(folder: Path, level: Level, labels: tuple[int, ...], values: Floats) -> Path:
    """Store ``values`` for this layout: written beside the final name, then renamed over it."""
    folder.mkdir(parents=True, exist_ok=True)
    data = np.ascontiguousarray(values, dtype="<f8")
    header = {**_header(level, labels, int(data.size)), "digest": _digest(data.data.cast("B"))}
    line = json.dumps(header, separators=(",", ":")).encode("ascii")
    pad = -(len(MAGIC) + len(line) + 1) % _ALIGN
    path = folder / file_name(level, labels)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(MAGIC + line + b" " * pad + b"\n")
            out.write(data.data.cast("B"))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    prune(folder, keep=path)
    return path


def prune(folder: Path, keep: Path | None = None, max_bytes: int = MAX_BYTES) -> list[Path]:
    """Delete the least recently used solved layouts until the rest fit in ``max_bytes``.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for n in (1, 2, 3):
    ...     _ = write(folder, Level.BEGINNER, (n,) * 12, np.zeros(100))
    >>> [p.name[:10] for p in prune(folder, max_bytes=2500)]
    ['beginner-1']
    """
    entries = []
    for path in folder.glob(f"*{SUFFIX}"):
        try:
            stat = path.stat()
        except OSError:
            continue
        entries.append((stat.st_mtime_ns, stat.st_size, path))
    entries.sort(reverse=True)
    removed, total = [], 0
    for _, size, path in entries:
        total += size
        if total > max_bytes and path != keep:
            try:
                path.unlink()  # a process that mapped it keeps its copy until it lets go
            except OSError:
                continue
            removed.append(path)
    return removed


# -- one solver per layout ---------------------------------------------------------


def is_locked(folder: Path, level: Level, labels: tuple[int, ...]) -> bool:
    """Whether a process holds this layout's lock (:func:`solving`) now: solving it, or still writing it.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with solving(folder, Level.BEGINNER, (1,) * 12):
    ...     is_locked(folder, Level.BEGINNER, (1,) * 12) == (fcntl is not None)
    True
    >>> is_locked(folder, Level.BEGINNER, (1,) * 12)
    False
    """
    if fcntl is None:
        return False
    lock = folder / f".{file_name(level, labels)}.lock"
    try:
        with lock.open("rb") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            return False
    except OSError:  # no lock file: nobody has held it
        return False


@contextmanager
def solving(folder: Path, level: Level, labels: tuple[int, ...], wait: float = WAIT_SECONDS) -> Iterator[None]:
    """Hold this layout's lock while solving it: another process asking meanwhile waits here.

    The lock is the operating system's (``flock``), so a process that dies
    lets go of it.  After ``wait`` seconds the caller goes ahead anyway.

    >>> import tempfile
    >>> with solving(Path(tempfile.mkdtemp()), Level.BEGINNER, (1,) * 12):
    ...     pass
    """
    if fcntl is None:
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    lock = folder / f".{file_name(level, labels)}.lock"
    with lock.open("a+b") as handle:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    log.warning("%s: still locked after %.0f s; solving here too", lock, wait)
                    break
                time.sleep(0.05)
        yield  # closing the file releases the lock
