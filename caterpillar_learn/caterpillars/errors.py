"""Errors of the Caterpillars engine; each message names field, value and what was expected."""

from __future__ import annotations

from caterpillar_learn.errors import CaterpillarLearnError


class CaterpillarsError(CaterpillarLearnError):
    """Base error of the Caterpillars engine."""


class InvalidStateError(CaterpillarsError):
    """A state (or part of one) does not describe a possible sheet."""


class InvalidRollError(CaterpillarsError):
    """A roll that the dice of this level cannot show."""


class IllegalMoveError(CaterpillarsError):
    """A move that the rules do not allow in this state and roll."""
