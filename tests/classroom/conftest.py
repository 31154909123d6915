"""Pupils' boards with hints on start the exact solve of their layout in a
daemon thread (as in the lessons): each test waits for the solves it
started, so none runs on behind a later test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from caterpillar_learn.ui.caterpillars import advice as advice_bridge


@pytest.fixture(autouse=True)
def no_background_solve_left_behind() -> Iterator[None]:
    yield
    left = advice_bridge.join_background_solves(timeout=60.0)
    assert not left, f"background solves still running after the test: {left}"
