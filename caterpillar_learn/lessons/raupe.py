"""The tables of the Räuber Raupe lessons: who sits there, which deck, how fast.

Each lesson's table is a :class:`TableSetup` in :data:`SETUPS`, keyed by the
lesson's notebook name, beside the Caterpillars lessons
(:mod:`caterpillar_learn.lessons.caterpillars`);
:class:`~caterpillar_learn.ui.raupe.RaupeTable` plays one game at such a
table.  A game saves its own deck and events
(:meth:`caterpillar_learn.raupe.Game.to_json`), so a teacher or a test can
replay it with the engine.

>>> setup = get_table("14-raupe-spot-the-mistake")
>>> setup.players, setup.referee, setup.bot_level("beginner").name
(3, True, 'sloppy')
"""

from __future__ import annotations

from dataclasses import dataclass

from caterpillar_learn.errors import describe
from caterpillar_learn.raupe import BotLevel, Card, get_level, standard_deck

__all__ = ["SETUPS", "SLOPPY", "TableSetup", "get_table"]

#: The bots of "spot the mistake": slow, careless, and they leave every call to the learner.
SLOPPY = BotLevel("sloppy", 1.8, 0.05, 0.3, error_rate=0.35, notice_chance=0.0, false_call_rate=0.0)


@dataclass(frozen=True)
class TableSetup:
    """One lesson's table: who sits there, how fast the bots are, what the screen helps with."""

    players: int = 2
    mode: str = "shape"
    level: str = "beginner"
    speed: float = 0.6
    #: Caterpillar cards taken from the standard deck (a short deck keeps hands small); 0 = all.
    caterpillar_cards: int = 25
    referee: bool = False  # the learner judges bots instead of playing
    show_fits: bool = True  # mark the cards whose visible side fits
    hints: bool = True
    controls: bool = False  # speed slider and bot level
    #: Change cards, butterflies and cards with an aphid in the deck (the first two lessons leave them
    #: out: lessons 12 and 13 introduce them).
    extras: bool = True
    #: Ask "Which of your cards fit?" before the first game starts.
    question: bool = False

    def deck(self) -> tuple[Card, ...]:
        """The cards dealt at this table (the first caterpillar cards, every change card and butterfly).

        >>> len(TableSetup().deck()), len(TableSetup(caterpillar_cards=0).deck())
        (33, 81)
        >>> plain = TableSetup(extras=False).deck()
        >>> any(card.is_change or card.is_butterfly or any(side.aphid for side in card.sides) for card in plain)
        False
        """
        cards = standard_deck()
        if not self.caterpillar_cards:
            return cards
        plain = [card for card in cards if card.sides and not card.is_change]
        if not self.extras:
            return tuple(card for card in plain if not any(side.aphid for side in card.sides))[: self.caterpillar_cards]
        return (*plain[: self.caterpillar_cards], *(card for card in cards if card.is_change or card.is_butterfly))

    def bot_level(self, name: str) -> BotLevel:
        """The bots' level: ``name`` from the engine's levels, or :data:`SLOPPY` (always for a referee)."""
        return SLOPPY if self.referee or name == SLOPPY.name else get_level(name)


SETUPS: dict[str, TableSetup] = {
    "10-raupe-shape": TableSetup(mode="shape", extras=False, question=True),
    "11-raupe-colour": TableSetup(mode="colour", extras=False, question=True),
    "12-raupe-change-card": TableSetup(mode="shape", speed=0.7, question=True),
    "13-raupe-butterflies-and-aphids": TableSetup(mode="colour", speed=0.7, question=True),
    "14-raupe-spot-the-mistake": TableSetup(players=3, referee=True, speed=0.8, show_fits=False),
    "15-raupe-race": TableSetup(
        players=4, caterpillar_cards=0, level="advanced", speed=1.0, show_fits=False, hints=False, controls=True
    ),
}


def get_table(name: str) -> TableSetup:
    """The table of the Räuber Raupe lesson ``name`` (its notebook's file name)."""
    try:
        return SETUPS[name]
    except KeyError:
        raise KeyError(describe("lesson", name, "one of " + ", ".join(SETUPS))) from None
