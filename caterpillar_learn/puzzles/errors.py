"""Errors of the puzzle bank, the ratings and the puzzle sets; messages name the field, the value and what was
expected."""

from __future__ import annotations

from caterpillar_learn.errors import CaterpillarLearnError


class PuzzleError(CaterpillarLearnError):
    """A puzzle, a bank, a rating or a puzzle set that is not what it should be (or an option asking for one)."""


__all__ = ["PuzzleError"]
