"""The message catalogue: every key the code names exists, and translations fit English.

Keys written as literals in ``text("...")`` calls are collected from the
package source, so a typo in a rarely shown message fails here rather than
in front of a class.  A translation (another folder beside ``en/``) must
have every English key, either as the key itself or as plural forms
(``key.one``, ``key.other``, ...), with the same placeholders, and must not
invent keys.  A spoken twin (``key.spoken``, what the page's voice says instead
of ``key``) has the placeholders of ``key`` and no symbol; a translation may
give a twin where English needs none.  German follows the glossary of
``docs/TRANSLATING.md``: no word it forbids.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from caterpillar_learn.i18n import (
    EAR_SYMBOLS,
    PLURAL_CATEGORIES,
    SPOKEN,
    available_languages,
    catalogue,
    for_the_ear,
    language,
    plural,
    spoken,
    spoken_twins,
    text,
)

PACKAGE = Path(__file__).resolve().parent.parent / "caterpillar_learn"
GLOSSARY = PACKAGE.parent / "docs" / "TRANSLATING.md"
#: What a voice must not be given (PEDAGOGY 12).
SYMBOLS = set(EAR_SYMBOLS) - {" / "} | {"✓", "✗", "↻", "⇄", "→", "×", "=", "+", "/", "🔊"}
#: The catalogue files a child hears (the classroom's and the server's pages are for the teacher).
HEARD = ("caterpillars.", "lessons.", "raupe.", "raupe_lessons.", "advice.", "ui.")
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
    return stem if suffix in (*PLURAL_CATEGORIES, SPOKEN) and stem in english and key not in english else key


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
        if stem != key and not key.endswith("." + SPOKEN):
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


# -- Spoken twins and speech for the ear ------------------------------------------------------------------------


def _symbols(said: str) -> set[str]:
    return {symbol for symbol in SYMBOLS if symbol in said}


@pytest.mark.parametrize("lang", available_languages())
def test_every_spoken_twin_has_its_messages_placeholders_and_no_symbol(lang: str) -> None:
    messages = catalogue(lang)
    twins = [key for key in messages if key.endswith("." + SPOKEN)]
    assert twins, "the catalogue has spoken twins"
    for key in twins:
        shown = key.removesuffix("." + SPOKEN)
        assert shown in messages or shown in catalogue("en"), f"{key}: a twin of no message"
        assert _fields(messages[key]) == _fields(messages.get(shown, catalogue("en").get(shown, ""))), key
        assert not _symbols(messages[key]), (key, _symbols(messages[key]))
        assert not re.search(r"\((key|Taste) \w\)", messages[key]), key
    assert len(spoken_twins(lang)) >= len(twins)


@pytest.mark.parametrize("lang", available_languages())
def test_every_message_a_child_hears_is_said_without_symbols(lang: str) -> None:
    """What the voice says of any message (its twin, or the message with symbols as words) holds no symbol."""
    with language(lang):
        for key, template in catalogue(lang).items():
            if not key.startswith(HEARD) or key.endswith("." + SPOKEN):
                continue
            values = {name: 7 for name in _fields(template)}
            try:
                said = spoken(key.removesuffix(".one").removesuffix(".other"), **values)
            except (KeyError, ValueError):
                said = for_the_ear(template.format(**values))
            assert not _symbols(said), (key, said)


def test_speech_for_the_ear_says_sums_and_choices_in_words() -> None:
    assert for_the_ear("Score 2 + 4 = 6, Alex / Charlie") == "Score 2 plus 4 makes 6, Alex or Charlie"
    with language("de"):
        assert for_the_ear("2 + 4 = 6, ×0.5") == "2 plus 4 macht 6, mal 0,5"
        assert (
            spoken("caterpillars.score.final", total=14, bonus=5, final=19)
            == "Am Ende: 14 plus Bonus 5 macht 19 Punkte."
        )
    assert text("caterpillars.score.final", total=1, bonus=2, final=3) == "Final score: 1 + bonus 2 = 3."


# -- German as a German primary teacher writes it (docs/TRANSLATING.md) -----------------------------------------


def _forbidden() -> dict[str, str]:
    """The glossary's forbidden German phrases (backticked in its "nicht" column), each with its row's word."""
    found: dict[str, str] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and line.lstrip().startswith("|") and not set(cells[0]) <= {"-", " ", ":"}:
            for phrase in re.findall(r"`([^`]+)`", cells[2]):
                found[phrase] = cells[1]
    return found


def _phrase_pattern(phrase: str) -> str:
    """A whole word or phrase; ``word*`` also matches longer words (``Feldzahl*``: ``Feldzahlen``)."""
    stem = phrase.removesuffix("*")
    return r"(?<!\w)" + re.escape(stem) + ("" if phrase.endswith("*") else r"(?!\w)")


def test_the_glossary_forbids_the_words_the_review_found() -> None:
    forbidden = _forbidden()
    for phrase in ("Feldzahl*", "Tipp auf", "Tipp", "Endstand", "beginner", "advanced", "expert", "Taste c"):
        assert phrase in forbidden, phrase


@pytest.mark.parametrize("lang", ["de"])
def test_german_uses_no_word_the_glossary_forbids(lang: str) -> None:
    forbidden = _forbidden()
    broken = []
    for key, message in catalogue(lang).items():
        if key.startswith(("classroom.", "serve.")):
            continue  # the teacher's pages: not in the glossary's scope
        for phrase in forbidden:
            if re.search(_phrase_pattern(phrase), message):
                broken.append(f"{key}: {phrase!r} (say: {forbidden[phrase]}): {message}")
    assert not broken, "\n".join(broken)


def test_the_german_check_can_fail() -> None:
    forbidden = _forbidden()
    caught = {
        phrase
        for phrase in forbidden
        if re.search(_phrase_pattern(phrase), "Die Feldzahlen sind 3. Tipp auf ein Feld!")
    }
    assert {"Feldzahl*", "Tipp auf", "Tipp"} <= caught
    assert not any(re.search(_phrase_pattern(phrase), "Tippe das Feld an. Tippe auf Hinweis.") for phrase in forbidden)


# -- Icons are drawn, not emoji (a classroom tablet may have no emoji font) ------------------------------------

EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u26ff\u2700-\u27bf\U0001f300-\U0001f5ff]")
#: Dingbats a text font draws (DejaVu Sans has them) and the widgets still use as marks.
TEXT_MARKS = set("✓✔✗✘★⚠")


def _emoji(said: str) -> set[str]:
    return set(EMOJI.findall(said)) - TEXT_MARKS


@pytest.mark.parametrize("lang", available_languages())
def test_no_message_leans_on_an_emoji_font(lang: str) -> None:
    found = {key: _emoji(message) for key, message in catalogue(lang).items() if _emoji(message)}
    assert not found, found


def test_the_widgets_draw_their_icons() -> None:
    widgets = PACKAGE.parent / "widgets"
    found = {
        path.name: _emoji(path.read_text(encoding="utf-8"))
        for path in sorted([*widgets.glob("*.js"), *widgets.glob("*.css")])
        if _emoji(path.read_text(encoding="utf-8"))
    }
    assert not found, found
    assert _emoji("🔊 🦋 🎨") and not _emoji("✓ ★")  # the check can fail
