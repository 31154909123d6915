"""docs/RULES.md quotes the rule books exactly: every *"..."* passage is in its seed.

A decision is only as good as the sentence it rests on; this keeps the
quotations honest when either the page or the seeds change.  The seeds live
in the shared folder beside the repository (``../shared/seeds``), as on CI.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
SECTIONS = {"## Caterpillars": "000_f45d6d4174efc0ec.txt", "## Räuber Raupe": "001_9181e0642b4bcabb.txt"}


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).replace("'", '"').replace("’", '"')


def _sections() -> dict[str, str]:
    page = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    found = {}
    for heading in SECTIONS:
        start = page.index(heading)
        later = [page.index(h) for h in SECTIONS if page.index(h) > start]
        found[heading] = page[start : min(later, default=len(page))]
    return found


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the shared seeds are not beside this checkout")
@pytest.mark.parametrize("heading", list(SECTIONS))
def test_every_quotation_is_in_the_rule_book(heading: str) -> None:
    seed = _normal((SEEDS / SECTIONS[heading]).read_text(encoding="utf-8"))
    quotes = re.findall(r'\*"(.*?)"\*', _normal(_sections()[heading]))
    assert len(quotes) >= 10
    missing = [q for q in quotes if not all(p.strip() in seed for p in re.split(r"\.\.\.|…", q) if p.strip())]
    assert not missing, missing
