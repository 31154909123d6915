"""A second language for tests of the language switch.

The German catalogue (``caterpillar_learn/i18n/de``) is used when it is
there; otherwise a tiny stand-in "de" is made in a temporary folder next to
a copy of English, with the few words the tests look at.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from caterpillar_learn import i18n

#: The stand-in's words, by catalogue file and key (any other key falls back to English).
STAND_IN = {
    "lessons": {"ui.roll": "Würfeln", "ui.read_aloud": "Vorlesen", "ui.language": "Sprache"},
    "raupe_lessons": {"ui.start": "Los", "ui.read_aloud": "Vorlesen", "ui.language": "Sprache"},
}


@contextmanager
def second_language(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The code of a second language the widgets can switch to ("de")."""
    if "de" in i18n.available_languages():
        yield "de"
        return
    root = folder / "i18n"
    shutil.copytree(i18n._FOLDER / "en", root / "en")
    (root / "de").mkdir()
    for name, words in STAND_IN.items():
        (root / "de" / f"{name}.json").write_text(json.dumps(words, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(i18n, "_FOLDER", root)  # the catalogues are kept by folder: a new one is read afresh
    yield "de"
