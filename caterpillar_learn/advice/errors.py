"""Errors of the hint generator; messages name the field, the value and what was expected."""

from __future__ import annotations

from caterpillar_learn.caterpillars.errors import CaterpillarsError


class AdviceError(CaterpillarsError):
    """A question the hint generator cannot answer as asked (e.g. a level it cannot solve)."""
