"""Every Caterpillars board starts the exact solve of its layout in a daemon
thread: a test waits for the solves it started before the next one begins,
and fails if one is still running (a leaked thread would slow the rest of
the suite down and could touch the solver's cache behind a later test).

The solves read and write the session's solve cache (``solve_cache`` in tests/conftest.py): a layout
another test or worker has solved is read from its file.  ``test_background_solve.py`` watches the
solve itself and turns the cache off for its tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from caterpillar_learn.ui.caterpillars import advice as advice_bridge


@pytest.fixture(autouse=True)
def no_background_solve_left_behind(solve_cache: Path) -> Iterator[None]:
    yield
    left = advice_bridge.join_background_solves(timeout=60.0)
    assert not left, f"background solves still running after the test: {left}"
