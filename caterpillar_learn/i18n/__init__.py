"""The message catalogue: every sentence a learner or teacher reads.

Messages live in JSON files, one folder per language and one file per topic
(``en/caterpillars.json``, ``en/raupe.json``, ...), so a translator works on
plain data and two games never edit the same file.  Keys are dotted and
start with the file's name: ``caterpillars.score.flying``.  Placeholders use
:meth:`str.format` syntax.

>>> text("caterpillars.level.beginner")
'Beginner'
>>> set_language("xx")
Traceback (most recent call last):
...
caterpillar_learn.i18n.UnknownLanguageError: language: got 'xx', expected one of ['en']
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from caterpillar_learn.errors import CaterpillarLearnError, describe

__all__ = [
    "UnknownLanguageError",
    "available_languages",
    "catalogue",
    "current_language",
    "language",
    "set_language",
    "text",
]

_FOLDER = Path(__file__).resolve().parent
_FALLBACK = "en"
_default = _FALLBACK
#: The language of this context (a thread, an asyncio task, a ``with language(...)`` block).
_chosen: ContextVar[str | None] = ContextVar("caterpillar_learn_language", default=None)


class UnknownLanguageError(CaterpillarLearnError):
    """A language was asked for that has no catalogue folder."""


def available_languages() -> list[str]:
    """The languages that have a catalogue folder.

    >>> "en" in available_languages()
    True
    """
    return sorted(p.name for p in _FOLDER.iterdir() if p.is_dir() and any(p.glob("*.json")))


@cache
def catalogue(language: str) -> dict[str, str]:
    """All messages of one language, keyed ``<file>.<key>``."""
    folder = _FOLDER / language
    if not folder.is_dir():
        raise UnknownLanguageError(describe("language", language, f"one of {available_languages()}"))
    messages: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            messages[f"{path.stem}.{key}"] = value
    return messages


def set_language(language: str) -> None:
    """Choose the default language: what :func:`text` uses outside any :func:`language` block."""
    global _default
    catalogue(language)
    _default = language


def current_language() -> str:
    """The language :func:`text` uses here and now.

    >>> current_language()
    'en'
    """
    return _chosen.get() or _default


@contextmanager
def language(name: str) -> Iterator[str]:
    """Speak ``name`` inside the block (only in this context: other threads and tasks keep theirs).

    >>> with language("en"):
    ...     text("caterpillars.level.expert")
    'Expert'
    >>> with language("xx"):
    ...     pass
    Traceback (most recent call last):
    ...
    caterpillar_learn.i18n.UnknownLanguageError: language: got 'xx', expected one of ['en']
    """
    catalogue(name)
    token = _chosen.set(name)
    try:
        yield name
    finally:
        _chosen.reset(token)


def text(key: str, /, **values: Any) -> str:
    """The message ``key`` in the current language, filled with ``values``.

    A key missing from a translation falls back to English; a key missing
    from English is a programming error and raises :class:`KeyError`.

    >>> text("caterpillars.score.final", total=14, bonus=5, final=19)
    'Final score: 14 + bonus 5 = 19.'
    """
    template = catalogue(current_language()).get(key)
    if template is None:
        template = catalogue(_FALLBACK)[key]
    return template.format(**values)
