"""Pupils' boards with hints on start the exact solve of their layout in a
daemon thread (as in the lessons): each test waits for the solves it
started, so none runs on behind a later test.  ``pool`` gives a test the
server's worker processes instead (one worker).

The damage tests run once a session: when ``test_private_clone.py`` is
collected too, it runs the whole of ``test_damage.py`` from a copy of this
checkout in a folder of mode 0700, and the same tests here are deselected
(not skipped: they run there, on the same files).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from caterpillar_learn.advice.workers import Solves
from caterpillar_learn.ui.caterpillars import advice as advice_bridge


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``test_damage.py``'s tests are deselected when ``test_private_clone.py`` runs them (see the module)."""
    if not any(item.path.name == "test_private_clone.py" for item in items):
        return
    twice = [item for item in items if item.path.name == "test_damage.py"]
    if twice:
        config.hook.pytest_deselected(items=twice)
        items[:] = [item for item in items if item.path.name != "test_damage.py"]


@pytest.fixture(autouse=True)
def no_background_solve_left_behind() -> Iterator[None]:
    yield
    left = advice_bridge.join_background_solves(timeout=60.0)
    assert not left, f"background solves still running after the test: {left}"


@pytest.fixture
def pool(tmp_path: Path) -> Iterator[Solves]:
    """A server's pool of one worker, for a test to hand its rooms (``room.work_in(PooledHelper(pool))``)."""
    solves = Solves(tmp_path / "solved", workers=1)
    try:
        yield solves
    finally:
        solves.close()
