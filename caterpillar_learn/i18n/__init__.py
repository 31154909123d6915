"""The message catalogue: every sentence a learner or teacher reads.

Messages live in JSON files, one folder per language and one file per topic
(``en/caterpillars.json``, ``en/raupe.json``, ...), so a translator works on
plain data and two games never edit the same file.  Keys are dotted and
start with the file's name: ``caterpillars.score.flying``.  Placeholders use
:meth:`str.format` syntax.

Two things a translation cannot do with words alone are done here:

* **Numbers.**  :func:`text` writes every number it fills in with the
  decimal mark and digit grouping of the current language, so ``{value:.1f}``
  gives ``14.1`` in English and ``14,1`` in German (the symbols come from
  Babel's CLDR data: see :func:`format_number`).
* **Plurals.**  A translation may replace a message ``key`` that has a
  ``{count}`` placeholder with one key per CLDR plural category of its
  language, ``key.one`` and ``key.other`` for German (also ``key.zero``,
  ``key.two``, ``key.few``, ``key.many`` where a language has them).  When
  :func:`text` (or :func:`plural`) is given ``count`` and such forms exist,
  Babel's plural rules of the language pick the form; ``key.other`` is the
  form used when the category's own key is missing.
* **Speech.**  What the page reads aloud is written for the ear.  Where the
  shown text has symbols a voice would stumble over ("A ✓ means …",
  "(key c)"), the catalogue holds a spoken twin ``key.spoken`` with the same
  placeholders; :func:`spoken` gives it, and :func:`for_the_ear` turns what
  is left (sums such as ``2 + 4 = 6``, ``Alex / Charlie``, arrows and ticks)
  into words of the language (the ``ui.ear.*`` messages).  Dice are said as
  words by :func:`dice_words` ("a 2 and a 3", "eine 2 und eine 3").

>>> text("caterpillars.level.beginner")
'Beginner'
>>> with language("de"):
...     text("lessons.hint.value", value=14.1)
'etwa 14,1 Punkte am Ende'
>>> with language("de"):
...     plural("classroom.desk.pupils", 1), plural("classroom.desk.pupils", 3)
('1 Kind', '3 Kinder')
>>> set_language("xx")
Traceback (most recent call last):
...
caterpillar_learn.i18n.UnknownLanguageError: language: got 'xx', expected one of ['de', 'en']

A teacher's own language lives outside the package, where an upgrade leaves
it: a folder per language (``fr/``, with the files of ``en/``) in
:func:`own_languages_folder` (the per-user data folder, or the folder named
by :data:`LANGUAGES_ENV`).  Its own name is its message ``language.name``
("Français"), which the language menus show.  A shipped language is never
replaced by a folder of the same name, and a folder whose files cannot be
read is not offered (``caterpillar-learn check-translation DIR`` says why).
"""

from __future__ import annotations

import json
import os
import re
import string
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from babel import Locale, UnknownLocaleError
from babel.numbers import get_decimal_symbol, get_group_symbol

from caterpillar_learn.errors import CaterpillarLearnError, describe

__all__ = [
    "CatalogueError",
    "UnknownLanguageError",
    "available_languages",
    "catalogue",
    "current_language",
    "dice_words",
    "for_the_ear",
    "format_number",
    "language",
    "language_choices",
    "language_folder",
    "language_name",
    "own_languages_folder",
    "plural",
    "plural_category",
    "set_language",
    "spoken",
    "spoken_twins",
    "text",
]

_FOLDER = Path(__file__).resolve().parent
_FALLBACK = "en"
#: The CLDR plural categories, the suffixes a translation may add to a key with a ``{count}``.
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
#: The suffix of a message's spoken twin: ``key.spoken`` is ``key`` written for the ear.
SPOKEN = "spoken"
#: What a voice must not read as it is shown: each symbol and the ``ui.ear.*`` message it is said as
#: (an empty message: the symbol is dropped, as a tick beside a word says nothing the word does not).
EAR_SYMBOLS = {
    "+": "plus", "=": "makes", "×": "times", "−": "minus", " / ": "or", "/": "",
    "→": "", "←": "", "✓": "", "✔": "", "✗": "", "✘": "", "↻": "", "⇄": "", "★": "", "·": "", "…": "",
}  # fmt: skip
#: The environment variable that sets the default language of a process
#: (``caterpillar-learn serve --lang de`` sets it for the kernels it starts).
LANGUAGE_ENV = "CATERPILLAR_LEARN_LANG"
#: Where Voila hands a lesson's kernel the query of the page's address (CGI's name for it): a lesson opened
#: as ``voila/render/01-beginner.ipynb?lang=de`` (a card of the gallery in German) starts in German.
QUERY_ENV = "QUERY_STRING"
#: The environment variable naming the folder of a teacher's own languages (``fr/``, ``nl/``, ...), outside the
#: package so that an upgrade keeps it (``caterpillar-learn serve --languages DIR`` sets it for its kernels).
LANGUAGES_ENV = "CATERPILLAR_LEARN_LANGUAGES"
#: The message that holds a language's name in that language ("Deutsch", "Français"), for the language menus.
NAME_KEY = "language.name"
#: What a folder of a teacher's own languages may be called: a language code (``fr``, ``pt-BR``, ``gsw``).
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")
#: The environment variables the teacher's own folder depends on (the cache of :func:`_folders_for` is keyed by them).
_FOLDER_ENV = (LANGUAGES_ENV, "XDG_DATA_HOME", "HOME", "APPDATA")
#: The language of this context (a thread, an asyncio task, a ``with language(...)`` block).
_chosen: ContextVar[str | None] = ContextVar("caterpillar_learn_language", default=None)


class UnknownLanguageError(CaterpillarLearnError):
    """A language was asked for that has no catalogue folder."""


class CatalogueError(CaterpillarLearnError):
    """A catalogue file that cannot be read: not UTF-8, not JSON, or not an object of texts."""


def own_languages_folder() -> Path | None:
    """The folder of the teacher's own languages: the one :data:`LANGUAGES_ENV` names, else
    ``caterpillar-learn/languages`` in the user's data folder (``$XDG_DATA_HOME``, by default
    ``~/.local/share``; ``%APPDATA%`` on Windows; ``~/Library/Application Support`` on macOS).
    ``None`` where the user has no home folder.

    >>> os.environ[LANGUAGES_ENV] = "/srv/class/languages"
    >>> own_languages_folder().as_posix()
    '/srv/class/languages'
    >>> del os.environ[LANGUAGES_ENV]
    """
    named = os.environ.get(LANGUAGES_ENV, "").strip()
    if named:
        return Path(named).expanduser()
    try:
        if sys.platform == "win32":
            base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
        elif sys.platform == "darwin":
            base = Path.home() / "Library" / "Application Support"
        else:  # the XDG base directory specification: a relative XDG_DATA_HOME is ignored
            xdg = Path(os.environ.get("XDG_DATA_HOME", ""))
            base = xdg if xdg.is_absolute() else Path.home() / ".local" / "share"
    except RuntimeError:  # no home folder to be found
        return None
    return base / "caterpillar-learn" / "languages"


def available_languages() -> list[str]:
    """The languages that have a catalogue folder: the package's, and the teacher's own.

    >>> "en" in available_languages()
    True
    """
    return sorted(_folders())


def language_folder(language: str) -> Path:
    """The folder of ``language``'s catalogue files.

    >>> language_folder("de").name
    'de'
    """
    # A shipped language always wins (a teacher's folder adds languages, never replaces one): found without
    # reading the environment, which every message asks for (17 µs a message instead of 2, in a bot's loop).
    folder = _shipped().get(language) or _folders().get(language)
    if folder is None:
        raise UnknownLanguageError(describe("language", language, f"one of {available_languages()}"))
    return folder


@cache
def _shipped() -> Mapping[str, Path]:
    """The package's own languages and their folders."""
    return {code: _FOLDER / code for code in _languages_in(_FOLDER)}


def _folders() -> Mapping[str, Path]:
    return _folders_for(_FOLDER, tuple(os.environ.get(name, "") for name in _FOLDER_ENV))


@cache
def _folders_for(package: Path, environment: tuple[str, ...]) -> Mapping[str, Path]:
    """Each language's folder: the package's, then the teacher's own (only codes the package lacks, and only
    those whose files can be read).  Looked up once per environment, as the catalogues are read once (every
    widget of a server asks, twice)."""
    found = {code: package / code for code in _languages_in(package)}
    own = own_languages_folder()
    if own is None:
        return found
    for code in _languages_in(own):
        if code not in found and LANGUAGE_CODE.fullmatch(code):
            try:
                _read_folder(own / code)
            except CatalogueError:
                continue  # not offered: check-translation says what is wrong with it
            found[code] = own / code
    return found


def _languages_in(folder: Path) -> tuple[str, ...]:
    """The names of ``folder``'s sub-folders that hold a JSON file (none if ``folder`` cannot be read)."""
    try:
        return tuple(sorted(p.name for p in folder.iterdir() if p.is_dir() and any(p.glob("*.json"))))
    except OSError:
        return ()


def language_name(code: str) -> str:
    """The name of the language ``code`` in that language: its own message ``language.name``, else the code.

    >>> language_name("de"), language_name("en")
    ('Deutsch', 'English')
    """
    name = catalogue(code).get(NAME_KEY, "").strip()  # its own catalogue: English's name would be wrong here
    return name or code


def language_choices() -> list[dict[str, str]]:
    """The languages a learner can switch to, each named in itself (English first).

    >>> [(choice["code"], choice["name"]) for choice in language_choices()]
    [('en', 'English'), ('de', 'Deutsch')]
    """
    codes = sorted(available_languages(), key=lambda code: (code != _FALLBACK, code))
    return [{"code": code, "name": language_name(code)} for code in codes]


def _from_environment() -> str:
    """The default language: the ``lang`` of a Voila page's address (:data:`QUERY_ENV`), else
    :data:`LANGUAGE_ENV`; English if neither names a language with a catalogue.

    >>> os.environ[QUERY_ENV] = "token=abc&lang=de"
    >>> _from_environment()
    'de'
    >>> os.environ[QUERY_ENV] = "lang=xx"
    >>> _from_environment()
    'en'
    >>> del os.environ[QUERY_ENV]
    """
    asked = parse_qs(os.environ.get(QUERY_ENV, "")).get("lang", [])[:1]
    for chosen in (*asked, os.environ.get(LANGUAGE_ENV, "")):
        if chosen.strip() in available_languages():
            return chosen.strip()
    return _FALLBACK


def catalogue(language: str) -> dict[str, str]:
    """All messages of one language, keyed ``<file>.<key>`` (read once: the same dictionary each time)."""
    found = _SHIPPED_CATALOGUES.get(language)  # the hot path: a shipped language's, by its code alone
    if found is None:
        found = _read_folder(language_folder(language))
        if language in _shipped():
            _SHIPPED_CATALOGUES[language] = found
    return found


#: The shipped languages' catalogues once read (see :func:`catalogue`).
_SHIPPED_CATALOGUES: dict[str, dict[str, str]] = {}


@cache
def _read_folder(folder: Path) -> dict[str, str]:
    messages: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")):
        for key, value in read_messages(path).items():
            messages[f"{path.stem}.{key}"] = value
    return messages


def read_messages(path: Path) -> dict[str, str]:
    """The messages of one catalogue file: a JSON object of texts, or :class:`CatalogueError` in one line.

    >>> read_messages(Path("/no/such/fr/ui.json"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    caterpillar_learn.i18n.CatalogueError: /no/such/fr/ui.json: got ..., expected a file this user can read
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CatalogueError(describe(str(path), error.strerror, "a file this user can read")) from None
    except UnicodeDecodeError as error:
        raise CatalogueError(describe(str(path), f"a byte {error.object[error.start]:#x}", "UTF-8 text")) from None
    except json.JSONDecodeError as error:
        where = f"{error.msg} at line {error.lineno}, column {error.colno}"
        raise CatalogueError(describe(str(path), where, 'JSON: {"key": "text", ...}')) from None
    if not isinstance(data, dict):
        raise CatalogueError(describe(str(path), type(data).__name__, 'a JSON object: {"key": "text", ...}'))
    for key, value in data.items():
        if not isinstance(value, str):
            raise CatalogueError(describe(f"{path}: {key}", value, "a text in double quotes"))
    return data


_default = _from_environment()


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
    caterpillar_learn.i18n.UnknownLanguageError: language: got 'xx', expected one of ['de', 'en']
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
    Numbers are written the way the language writes them, and a ``count``
    picks the plural form where the catalogue has several (see the module's
    documentation).

    >>> text("caterpillars.score.final", total=14, bonus=5, final=19)
    'Final score: 14 + bonus 5 = 19.'
    >>> with language("de"):
    ...     text("caterpillars.score.final", total=14, bonus=5, final=19)
    'Am Ende: 14 + Bonus 5 = 19 Punkte.'
    """
    speaking = current_language()
    template = _template(speaking, key, values.get("count"))
    if template is None:
        speaking = _FALLBACK
        template = _template(_FALLBACK, key, values.get("count"))
    if template is None:
        raise KeyError(key)
    if _symbols(speaking) == (".", ","):
        return template.format(**values)
    return _NumberFormatter(speaking).vformat(template, (), values)


def plural(key: str, count: int, /, **values: Any) -> str:
    """The message ``key`` for ``count`` things: ``text(key, count=count, **values)``.

    A language that writes the word differently for one thing and for
    several gives ``key.one`` and ``key.other`` (see the module's
    documentation); English keeps the one ``key``.

    >>> with language("de"):
    ...     plural("raupe.strategy.play_any", 1)
    '1 Seite deiner Karten passt: spiel sie schnell!'
    """
    return text(key, count=count, **values)


def plural_category(language: str, count: float | Decimal) -> str:
    """The CLDR plural category of ``count`` in ``language``, by Babel's plural rules.

    >>> plural_category("de", 1), plural_category("de", 0), plural_category("de", 2)
    ('one', 'other', 'other')
    """
    return str(_locale(language).plural_form(count))


def format_number(value: float | Decimal | Fraction, spec: str = "", language: str | None = None) -> str:
    """``format(value, spec)`` with the decimal mark and digit grouping of ``language``.

    The default language is the current one.  The symbols are CLDR's
    (through Babel); Python's format mini-language does the rest, so every
    ``str.format`` spec (``.1f``, ``,``, ``%``, widths) works as in English.

    >>> format_number(14.1, ".1f", "de"), format_number(1234.5, ",.2f", "de"), format_number(14.1, ".1f", "en")
    ('14,1', '1.234,50', '14.1')
    >>> format_number(0.5, "", "de")
    '0,5'
    """
    decimal, group = _symbols(language or current_language())
    written = format(value, spec)
    if (decimal, group) == (".", ","):
        return written
    return written.translate({ord("."): decimal, ord(","): group})


@cache
def _locale(language: str) -> Locale:
    """Babel's locale of a catalogue folder (``de``, ``pt-BR``); English's rules if CLDR does not know it."""
    try:
        return Locale.parse(language.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return Locale.parse(_FALLBACK)


@cache
def _symbols(language: str) -> tuple[str, str]:
    """The decimal mark and the group separator of ``language``."""
    locale = _locale(language)
    return get_decimal_symbol(locale), get_group_symbol(locale)


def _template(language: str, key: str, count: object) -> str | None:
    """The template of ``key`` in ``language``, in the plural form for ``count`` if it has plural forms."""
    messages = catalogue(language)
    if isinstance(count, (int, float, Decimal)) and not isinstance(count, bool) and f"{key}.other" in messages:
        return messages.get(f"{key}.{plural_category(language, count)}", messages[f"{key}.other"])
    return messages.get(key)


class _NumberFormatter(string.Formatter):
    """:meth:`str.format` that writes numbers the way ``language`` does."""

    def __init__(self, language: str) -> None:
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> Any:
        if isinstance(value, (int, float, Decimal, Fraction)) and not isinstance(value, bool):
            return format_number(value, format_spec, self.language)
        return super().format_field(value, format_spec)


def dice_words(values: Sequence[int | str], action: str | None = None, language: str | None = None) -> str:
    """Dice as a child says them: ``[2, 3]`` is "a 2 and a 3" ("eine 2 und eine 3").

    An action die's face (a letter or a word) is said as it is, after the dice.

    >>> dice_words([2, 3])
    'a 2 and a 3'
    >>> dice_words([6, 1, 4], language="de")
    'eine 6, eine 1 und eine 4'
    >>> dice_words([5, 5, 2], "C")
    'a 5, a 5, a 2 and C'
    """
    with _speaking(language):
        faces = [*values, *([action] if action else [])]
        said = [str(v) if isinstance(v, str) else text("ui.ear.die", value=v) for v in faces]
        if len(said) < 2:
            return "".join(said)
        return text("caterpillars.list_and", items=", ".join(said[:-1]), last=said[-1])


def spoken(key: str, /, **values: Any) -> str:
    """The message ``key`` written for the ear: its spoken twin if it has one, else :func:`for_the_ear` of it.

    >>> spoken("raupe_lessons.ui.player_tally", fits=3, slips=1, caught=0)
    'Fitting cards played: 3. Slips: 1. Caught by the bots: 0.'
    >>> text("caterpillars.score.final_no_bonus", final=19), spoken("caterpillars.score.final_no_bonus", final=19)
    ('Final score: 19.', 'Final score: 19.')
    >>> with language("de"):
    ...     spoken("caterpillars.score.final", total=14, bonus=5, final=19)
    'Am Ende: 14 plus Bonus 5 macht 19 Punkte.'
    """
    twin = f"{key}.{SPOKEN}"
    if twin in catalogue(current_language()) or twin in catalogue(_FALLBACK):
        return for_the_ear(text(twin, **values))
    return for_the_ear(text(key, **values))


def for_the_ear(shown: str, language: str | None = None) -> str:
    """``shown`` as a voice should say it: each symbol of :data:`EAR_SYMBOLS` in words, or dropped.

    >>> for_the_ear("Score 2 + 4 = 6")
    'Score 2 plus 4 makes 6'
    >>> for_the_ear("✓ Alex / Charlie")
    'Alex or Charlie'
    >>> for_the_ear("×0.5 is half as fast", "de")
    'mal 0,5 is half as fast'
    """
    with _speaking(language):
        words = {symbol: text(f"ui.ear.{name}") if name else "" for symbol, name in EAR_SYMBOLS.items()}
        decimal = _symbols(current_language())[0]
    said = shown
    if decimal != ".":  # a number written by English code ("0.5") is said in the language's way
        said = _DECIMAL.sub(lambda m: m.group(1) + decimal + m.group(2), said)
    for symbol, word in words.items():
        said = said.replace(symbol, f" {word} " if word else " ")
    said = _EMPTY_BRACKETS.sub(" ", said)
    return " ".join(_SPACE_BEFORE.sub(r"\1", " ".join(said.split())).split())


def spoken_twins(language: str | None = None) -> list[tuple[str, str]]:
    """Every shown template that has a spoken twin, with the twin: what the page's voice says instead.

    >>> ("Final score: {total} + bonus {bonus} = {final}.",
    ...  "Final score: {total} plus the bonus {bonus} makes {final}.") in spoken_twins("en")
    True
    """
    name = language or current_language()
    messages = catalogue(name)
    english = catalogue(_FALLBACK)
    kept = _TWINS.get(name)
    if kept is not None and kept[0] is messages and kept[1] is english:  # the same catalogues: the same twins
        return list(kept[2])
    twins = []
    for key in sorted(set(messages) | set(english)):
        stem, _, suffix = key.rpartition(".")
        if suffix == SPOKEN and stem:
            shown = messages.get(stem, english.get(stem))
            said = messages.get(key, english.get(key))
            if shown is not None and said is not None:
                twins.append((shown, said))
    _TWINS[name] = (messages, english, twins)
    return list(twins)


#: Each language's spoken twins, with the catalogues they were read from (every page of a class asks for
#: them, and looking through the whole catalogue took a pupil's join a millisecond).
_TWINS: dict[str, tuple[dict[str, str], dict[str, str], list[tuple[str, str]]]] = {}


_DECIMAL = re.compile(r"(?<![\d.,])(\d+)\.(\d+)(?![\d.,])")
_EMPTY_BRACKETS = re.compile(r"\(\s*\)")
_SPACE_BEFORE = re.compile(r"\s+([.,:;!?)])")


@contextmanager
def _speaking(name: str | None) -> Iterator[None]:
    if name is None:
        yield
    else:
        with language(name):
            yield
