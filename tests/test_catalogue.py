"""The message catalogue: every key the code names exists, and translations fit English.

Keys written as literals in ``text("...")`` calls are collected from the
package source, so a typo in a rarely shown message fails here rather than
in front of a class.  A translation (another folder beside ``en/``) must
have every English key, either as the key itself or as plural forms
(``key.one``, ``key.other``, ...), with the same placeholders, and must not
invent keys.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from caterpillar_learn.i18n import PLURAL_CATEGORIES, available_languages, catalogue, language, plural, text

PACKAGE = Path(__file__).resolve().parent.parent / "caterpillar_learn"
LITERAL_KEY = re.compile(r"""\btext\(\s*["']([a-z_]+\.[A-Za-z0-9_.]+)["']""")
TRANSLATIONS = [lang for lang in available_languages() if lang != "en"]


def _keys_in_source() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in PACKAGE.rglob("*.py"):
        for key in LITERAL_KEY.findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, str(path.relative_to(PACKAGE.parent)))
    return found


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_literal_key_in_the_code_is_in_english() -> None:
    keys = _keys_in_source()
    assert len(keys) > 100, "the scan found the text() calls"
    english = catalogue("en")
    # A literal ending in "." is a prefix completed at run time ("caterpillars.level." + name).
    missing = {
        key: where
        for key, where in keys.items()
        if not (any(k.startswith(key) for k in english) if key.endswith(".") else key in english)
    }
    assert not missing, missing


def test_english_templates_are_well_formed() -> None:
    broken = []
    for key, template in catalogue("en").items():
        try:
            _fields(template)
        except ValueError:  # an unmatched brace
            broken.append(key)
    assert not broken, broken


def _english_key(key: str, english: dict[str, str]) -> str:
    """The English key a translated key stands for: ``key.one`` is a plural form of ``key``."""
    stem, _, suffix = key.rpartition(".")
    return stem if suffix in PLURAL_CATEGORIES and stem in english and key not in english else key


def test_there_is_a_translation() -> None:
    assert "de" in TRANSLATIONS


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translations_only_use_english_keys_and_placeholders(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    invented = sorted(key for key in other if _english_key(key, english) not in english)
    assert not invented, invented
    for key, template in other.items():
        assert _fields(template) == _fields(english[_english_key(key, english)]), key


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translations_have_every_english_key(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    covered = {_english_key(key, english) for key in other}
    missing = sorted(set(english) - covered)
    assert not missing, f"{lang} lacks {len(missing)} keys: {missing}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_plural_forms_have_a_count_and_an_other_form(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    for key in other:
        stem = _english_key(key, english)
        if stem != key:
            assert "count" in _fields(english[stem]), key
            assert f"{stem}.other" in other, key


def test_german_writes_a_decimal_comma() -> None:
    assert "{value:.1f}" in catalogue("en")["lessons.hint.value"]
    with language("de"):
        assert text("lessons.hint.value", value=14.1) == "etwa 14,1 Punkte am Ende"
        assert "14,1" in text("lessons.hint.no_loss", value=14.14)
    assert text("lessons.hint.value", value=14.1) == "about 14.1 points at the end"


def test_german_plural_forms() -> None:
    with language("de"):
        assert plural("classroom.desk.pupils", 1) == "1 Kind"
        assert plural("classroom.desk.pupils", 0) == "0 Kinder"
        assert text("classroom.desk.pupils", count=24) == "24 Kinder"
        assert "1 Karte " in text("raupe.call.false", caller=1, accused=2, count=1)
        assert "3 Karten " in text("raupe.call.false", caller=1, accused=2, count=3)
    assert text("classroom.desk.pupils", count=2) == "2 pupils"  # English keeps its one message


def test_a_lesson_widget_speaks_its_own_language() -> None:
    from caterpillar_learn.ui.caterpillars import CaterpillarsLesson

    german = CaterpillarsLesson("01-beginner", lang="de")
    english = CaterpillarsLesson("01-beginner", lang="en")
    assert german.strings["roll"] == "Würfeln"
    assert german.lesson["heading"] == "Lektion 1: Anfänger"
    assert german.lesson["title"] == "Zwei Würfel: Punkte und ein Feld"
    assert german.lesson["progress"].startswith("Schritt 1 von ")
    assert english.strings["roll"] == "Roll"
    assert english.lesson["heading"] == "Lesson 1: Beginner"
    assert english.lesson["progress"].startswith("Step 1 of ")
    german.act("step", delta=1)
    english.act("step", delta=1)
    assert german.lesson["progress"].startswith("Schritt 2 von ")
    assert english.lesson["progress"].startswith("Step 2 of ")


def test_a_missing_key_is_a_loud_error() -> None:
    with pytest.raises(KeyError):
        text("caterpillars.no.such.key")
