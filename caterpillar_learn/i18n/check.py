"""Checking a translation against English: what ``caterpillar-learn check-translation DIR`` reports.

A translation is a folder of catalogue files (``fr/ui.json``, ...) beside
English's.  Each problem is one :class:`Problem`: the file, the key, and what
is wrong, in the words of the current language (the ``language.check.*``
messages).  What is checked:

* every English file and every English key is there (a key may be written as
  its plural forms instead, ``key.one`` and ``key.other``);
* no file or key English does not have (a spoken twin ``key.spoken`` of an
  English key is allowed);
* each message has the placeholders of its English message, with the same
  format (``{value:.1f}``), and no brace without its partner;
* plural forms belong to a message with ``{count}``, include ``key.other``,
  and use only the plural categories of the language (CLDR's, through Babel);
* the language's own name (``language.name``) is not still "English".

>>> [str(problem) for problem in check_folder(_FOLDER / "de")]
[]
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from babel import Locale, UnknownLocaleError

from caterpillar_learn.i18n import (
    _FALLBACK,
    _FOLDER,
    LANGUAGE_CODE,
    NAME_KEY,
    PLURAL_CATEGORIES,
    SPOKEN,
    CatalogueError,
    read_messages,
    text,
)

__all__ = ["Problem", "check_folder", "language_folders"]

#: What :class:`Problem` says in place of a key when the whole file (or folder) is meant.
WHOLE = "-"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a translation: where (file and key) and what."""

    path: Path
    key: str
    what: str

    def __str__(self) -> str:
        return f"{self.path}: {self.key}: {self.what}"


def language_folders(folder: Path) -> list[Path]:
    """The language folders ``folder`` stands for: itself if it holds catalogue files, else each sub-folder that does.

    >>> [path.name for path in language_folders(_FOLDER)]
    ['de', 'en']
    """
    if any(folder.glob("*.json")):
        return [folder]
    return sorted(path for path in folder.iterdir() if path.is_dir() and any(path.glob("*.json")))


def check_folder(folder: Path, english: Path | None = None) -> list[Problem]:
    """Every problem of the translation in ``folder``, compared with the English catalogue folder ``english``."""
    english = english or _FOLDER / _FALLBACK
    problems = list(_check_name(folder))
    english_files = {path.name: path for path in english.glob("*.json")}
    files = {path.name: path for path in folder.glob("*.json")}
    for name in sorted(english_files.keys() - files.keys()):
        problems.append(Problem(folder / name, WHOLE, text("language.check.missing_file")))
    for name in sorted(files.keys() - english_files.keys()):
        problems.append(Problem(files[name], WHOLE, text("language.check.extra_file")))
    for name in sorted(files.keys() & english_files.keys()):
        source = read_messages(english_files[name])  # the package's own: a broken one is the package's bug
        try:
            messages = read_messages(files[name])
        except CatalogueError as error:
            problems.append(Problem(files[name], WHOLE, text("language.check.unreadable", problem=str(error))))
            continue
        found = _check_file(messages, source, folder.name, Path(name).stem)
        problems += [Problem(files[name], key, what) for key, what in found]
    return problems


def _check_name(folder: Path) -> Iterator[Problem]:
    if not LANGUAGE_CODE.fullmatch(folder.name):
        yield Problem(folder, WHOLE, text("language.check.not_code"))
    elif folder.name in {path.name for path in _FOLDER.iterdir()} and folder.resolve().parent != _FOLDER:
        yield Problem(folder, WHOLE, text("language.check.shipped"))


def _check_file(
    messages: Mapping[str, str], english: Mapping[str, str], code: str, stem: str
) -> Iterator[tuple[str, str]]:
    """``(key, what is wrong)`` for each problem of the file ``stem``'s ``messages`` against its English ones."""
    wanted = _messages(english)
    covered = set()
    categories = _plural_categories(code)
    for key, template in messages.items():
        base, _, suffix = key.rpartition(".")
        if key in english:  # as English writes it (a plural form English has too: "due.one")
            covered.add(base if base in wanted and key not in wanted else key)
            yield from _compare(key, template, english[key])
        elif suffix == SPOKEN and base in wanted:
            yield from _compare(key, template, wanted[base])
        elif suffix in PLURAL_CATEGORIES and base in wanted:
            covered.add(base)
            if base in english and "count" not in _names(english[base]):
                yield key, text("language.check.plural_no_count")
                continue
            if f"{base}.other" not in messages:
                yield key, text("language.check.plural_no_other", key=f"{base}.other")
            if categories and suffix not in categories:
                yield key, text("language.check.plural_unused", category=suffix, forms=", ".join(categories))
            yield from _compare(key, template, wanted[base], may_drop="count")  # "eine Karte": the one in words
        else:
            yield key, text("language.check.extra")
    for key, template in wanted.items():
        if key not in covered and not key.endswith("." + SPOKEN):
            yield key, text("language.check.missing", english=template)
    file_name, _, name_key = NAME_KEY.partition(".")
    if stem == file_name and code != _FALLBACK and messages.get(name_key, "").strip() == english.get(name_key):
        yield name_key, text("language.check.name_english")


def _messages(english: Mapping[str, str]) -> dict[str, str]:
    """English's messages by name: plural forms (``key.one``, ``key.other``) as one message ``key``, with the
    template of its ``other`` form.

    >>> _messages({"desk.pupils.one": "{count} pupil", "desk.pupils.other": "{count} pupils", "hi": "Hi"})
    {'desk.pupils': '{count} pupils', 'hi': 'Hi'}
    """
    found = {}
    for key, template in english.items():
        base, _, suffix = key.rpartition(".")
        if suffix in PLURAL_CATEGORIES and f"{base}.other" in english:
            found[base] = english[f"{base}.other"]
        else:
            found[key] = template
    return found


def _compare(key: str, template: str, english: str, may_drop: str = "") -> Iterator[tuple[str, str]]:
    """The placeholders of ``template`` against ``english``'s (``may_drop``: one it may leave out)."""
    try:
        found = _placeholders(template)
    except ValueError:
        yield key, text("language.check.braces")
        return
    expected = _placeholders(english)
    if found != expected and found != expected - {may_drop}:
        shown = ", ".join(sorted(found)) or "-"
        yield key, text("language.check.placeholders", found=shown, expected=", ".join(sorted(expected)) or "-")


def _placeholders(template: str) -> set[str]:
    """Each placeholder as written, without its braces: ``{value:.1f}`` is ``value:.1f``.

    >>> sorted(_placeholders("{caterpillar}'s box {number} is worth {value:.1f}"))
    ['caterpillar', 'number', 'value:.1f']
    """
    found = set()
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is not None:
            found.add(name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else ""))
    return found


def _names(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _plural_categories(code: str) -> list[str]:
    """The CLDR plural categories ``code`` uses, in CLDR's order (empty if CLDR does not know the language).

    >>> _plural_categories("de"), _plural_categories("xx")
    (['one', 'other'], [])
    """
    try:
        locale = Locale.parse(code.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return []
    used = {*locale.plural_form.tags, "other"}
    return [category for category in PLURAL_CATEGORIES if category in used]
