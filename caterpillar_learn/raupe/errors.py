"""Errors of the Räuber Raupe engine; each message names field, value and what was expected.

>>> from caterpillar_learn.raupe.cards import parse_mode
>>> try:
...     parse_mode("size")
... except RaupeError as error:
...     print(type(error).__name__, error)
NotationError mode: got 'size', expected shape or colour
"""

from __future__ import annotations

from caterpillar_learn.errors import CaterpillarLearnError

__all__ = [
    "DeckError",
    "IllegalEventError",
    "NotationError",
    "RaupeError",
    "SetupError",
    "UnknownLevelError",
]


class RaupeError(CaterpillarLearnError):
    """Base class of every error raised on purpose by the Räuber Raupe engine."""


class NotationError(RaupeError):
    """A side, card, hand, mode, event or saved game could not be read."""


class DeckError(RaupeError):
    """A deck file or a deck cannot be used."""


class SetupError(RaupeError):
    """A game cannot be dealt (player count, seed, deck contents)."""


class IllegalEventError(RaupeError):
    """An event the table cannot accept at this moment."""


class UnknownLevelError(RaupeError):
    """A bot level that does not exist."""
