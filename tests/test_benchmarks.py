"""Every benchmark script still imports: they are run by hand, so nothing else notices.

Each script only does work under ``if __name__ == "__main__"``; importing it
checks its imports and definitions against the current code without running
the measurement (figures belong in docs/PERFORMANCE.md, not in tests).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parent.parent / "benchmarks").glob("*.py"))


def test_there_are_benchmarks() -> None:
    assert len(BENCHMARKS) >= 5


@pytest.mark.parametrize("script", BENCHMARKS, ids=[p.stem for p in BENCHMARKS])
def test_benchmark_imports(script: Path) -> None:
    assert 'if __name__ == "__main__":' in script.read_text(encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"benchmark_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(getattr(module, "main", None)), f"{script.name} has no main()"


def test_the_school_year_benchmark_builds_a_log_and_opens_it_both_ways(tmp_path: Path) -> None:
    script = BENCHMARKS[0].parent / "school_year_start.py"
    spec = importlib.util.spec_from_file_location("benchmark_school_year", script)
    assert spec is not None and spec.loader is not None
    school_year = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(school_year)
    built = school_year.build(tmp_path / "data", rooms=2, pupils=2, seed=1)
    assert built["rooms"] == 2 and built["rows"] > 10
    index, everything = (school_year.open_run(tmp_path / "data", how) for how in ("index", "all"))
    assert (index["rooms"], index["awake"], index["rows"]) == (2, 0, 0)  # noted at close: no event read
    assert (everything["awake"], everything["rows"]) == (2, built["rows"])
