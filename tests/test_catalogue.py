"""The message catalogue: every key the code names exists, and translations fit English.

Keys written as literals in ``text("...")`` calls are collected from the
package source, so a typo in a rarely shown message fails here rather than
in front of a class.  A translation (another folder beside ``en/``) may lack
keys (English fills in) but must not invent keys or placeholders.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from caterpillar_learn.i18n import available_languages, catalogue, text

PACKAGE = Path(__file__).resolve().parent.parent / "caterpillar_learn"
LITERAL_KEY = re.compile(r"""\btext\(\s*["']([a-z_]+\.[A-Za-z0-9_.]+)["']""")


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


@pytest.mark.parametrize("language", [lang for lang in available_languages() if lang != "en"] or ["en"])
def test_translations_only_use_english_keys_and_placeholders(language: str) -> None:
    english, other = catalogue("en"), catalogue(language)
    assert set(other) <= set(english)
    for key, template in other.items():
        assert _fields(template) == _fields(english[key]), key


def test_a_missing_key_is_a_loud_error() -> None:
    with pytest.raises(KeyError):
        text("caterpillars.no.such.key")
