"""The tables of the Räuber Raupe lessons: who sits there, which deck, how fast.

Each lesson's table is a :class:`TableSetup` in :data:`SETUPS`, keyed by the
lesson's notebook name; :class:`~caterpillar_learn.ui.raupe_table.RaupeTable`
plays one game at such a table.  A game's record (seed, table, events) is
enough to deal the same cards again and replay it with the engine
(:func:`replay_record`), which is how tests and teachers check a lesson's game.

>>> setup = SETUPS["14-raupe-spot-the-mistake"]
>>> setup.players, setup.referee, setup.bot_level("beginner").name
(3, True, 'sloppy')
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from caterpillar_learn.raupe import (
    BotLevel,
    Card,
    State,
    deal,
    event_from_json,
    get_level,
    parse_mode,
    replay,
    standard_deck,
)

__all__ = ["SETUPS", "SLOPPY", "TableSetup", "replay_record"]

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

    def deck(self) -> tuple[Card, ...]:
        """The cards dealt at this table (the first caterpillar cards, every change card and butterfly).

        >>> len(TableSetup().deck()), len(TableSetup(caterpillar_cards=0).deck())
        (33, 81)
        """
        cards = standard_deck()
        if not self.caterpillar_cards:
            return cards
        plain = [card for card in cards if card.sides and not card.is_change][: self.caterpillar_cards]
        return (*plain, *(card for card in cards if card.is_change or card.is_butterfly))

    def bot_level(self, name: str) -> BotLevel:
        """The bots' level: ``name`` from the engine's levels, or :data:`SLOPPY` (always for a referee)."""
        return SLOPPY if self.referee or name == SLOPPY.name else get_level(name)


SETUPS: dict[str, TableSetup] = {
    "10-raupe-shape": TableSetup(mode="shape"),
    "11-raupe-colour": TableSetup(mode="colour"),
    "12-raupe-change-card": TableSetup(mode="shape", speed=0.7),
    "13-raupe-butterflies-and-aphids": TableSetup(mode="colour", speed=0.7),
    "14-raupe-spot-the-mistake": TableSetup(players=3, referee=True, speed=0.8, show_fits=False),
    "15-raupe-race": TableSetup(
        players=4, caterpillar_cards=0, level="advanced", speed=1.0, show_fits=False, hints=False, controls=True
    ),
}


def replay_record(record: dict[str, Any]) -> State:
    """The engine's state after the game in ``record`` (see :meth:`RaupeTable.record`)."""
    setup = TableSetup(players=int(record["players"]), caterpillar_cards=int(record["caterpillar_cards"]))
    mode = parse_mode(str(record["mode"]))
    initial = deal(setup.players, random.Random(int(record["seed"])), setup.deck(), mode)
    return replay(initial, [event_from_json(item) for item in record["events"]])
