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
