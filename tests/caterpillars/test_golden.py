"""Golden positions: (state, roll) -> legal moves, as the command line prints them.

Regenerate with ``scripts/regenerate_caterpillars_golden.py`` after a
deliberate rules change, and review the diff of the golden file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from caterpillar_learn.caterpillars import parse_roll, state_from_json
from caterpillar_learn.caterpillars.cli import moves_json

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "caterpillars" / "moves.jsonl"
CASES = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]


def test_golden_file_covers_every_level_and_the_rule_book() -> None:
    levels = {case["state"]["level"] for case in CASES}
    assert levels == {"beginner", "intermediate", "advanced", "expert"}
    assert sum(case["name"].startswith("rule book") for case in CASES) == 5
    assert any(m["zero"] for case in CASES for m in case["moves"]), "a zero case is covered"
    assert any(m["bonus"] for case in CASES for m in case["moves"]), "a bonus case is covered"


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_moves_match_the_golden_file(case: dict) -> None:
    state = state_from_json(case["state"])
    got = moves_json(state, parse_roll(case["roll"], state.level))
    assert got == case["moves"], "rules changed: review, then run scripts/regenerate_caterpillars_golden.py"
