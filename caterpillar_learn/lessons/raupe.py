"""The tables of the Räuber Raupe lessons: who sits there, which deck, how fast.

Each lesson's table is a :class:`TableSetup` in :data:`SETUPS`, keyed by the
lesson's notebook name, beside the Caterpillars lessons
(:mod:`caterpillar_learn.lessons.caterpillars`);
:class:`~caterpillar_learn.ui.raupe.RaupeTable` plays one game at such a
table.  A game saves its own deck and events
(:meth:`caterpillar_learn.raupe.Game.to_json`), so a teacher or a test can
replay it with the engine.

>>> setup = get_table("14-raupe-spot-the-mistake")
>>> setup.players, setup.referee, setup.bot_level(setup.level).name
(3, True, 'sloppy')

A lesson deals only what it has taught and its bots make only the mistakes
it has taught the learner to call (none before lesson 14):

>>> [get_table(name).calls for name in ("10-raupe-shape", "12-raupe-change-card", "14-raupe-spot-the-mistake")]
[(), ('shape', 'colour'), ('shape', 'colour', 'aphid', 'mistake')]
>>> get_table("10-raupe-shape").bot_level("beginner").error_rate
0.0
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from caterpillar_learn.errors import describe
from caterpillar_learn.raupe import BotLevel, Card, get_level, standard_deck

__all__ = ["CALLS", "SETUPS", "SLOPPY", "TableSetup", "get_table"]

#: The bots of "spot the mistake": slow (a card every few seconds), careless, and they leave every call to
#: the learner.
SLOPPY = BotLevel("sloppy", 3.6, 0.08, 0.25, error_rate=0.35, notice_chance=0.0, false_call_rate=0.0)
#: Every call, in the order the lessons teach them.
CALLS = ("shape", "colour", "aphid", "mistake")


@dataclass(frozen=True)
class TableSetup:
    """One lesson's table: who sits there, how fast the bots are, what the screen helps with."""

    players: int = 2
    mode: str = "shape"
    level: str = "beginner"
    speed: float = 0.6
    #: Caterpillar cards taken from the standard deck (a short deck keeps hands small); 0 = all.
    caterpillar_cards: int = 25
    #: The lesson is about calling mistakes: the learner's calls are counted and explained.
    referee: bool = False
    show_fits: bool = True  # mark the cards whose visible side fits
    #: The strategy line under the calls, beside a marked card (lessons 10 and 11 give none: the glowing card and
    #: "Tap the glowing card." say it once).
    hints: bool = True
    controls: bool = False  # the bot level (the speed slider is at every table)
    #: Change cards in the deck (lesson 12 introduces them); butterflies and cards with an aphid
    #: (lesson 13 introduces them).
    extras: bool = True
    butterflies: bool = True
    aphids: bool = True
    #: The calls the lesson has taught (the others are not shown).
    calls: tuple[str, ...] = CALLS
    #: Whether the bots slip (a wrong card, a forgotten call, a false alarm): only once calling is taught.
    bot_mistakes: bool = True
    #: Show the card below the top of the pile (the leaf a card is checked against).
    show_below: bool = False
    #: Ask "Which of your cards fit?" before the first game starts.
    question: bool = False
    #: Real seconds at the table's own speed within which a bot plays once the pile changed (a bot a child
    #: never sees play is no opponent); a slower speed on the slider waits longer.
    bot_wait: float = 4.0
    #: Whether the page's voice reads the bots' moves aloud; the first lessons show them and speak only what
    #: the child must know now (PEDAGOGY 24, issue 40).
    speak_bots: bool = True

    def deck(self) -> tuple[Card, ...]:
        """The cards dealt at this table (the first caterpillar cards, every change card and butterfly).

        >>> len(TableSetup().deck()), len(TableSetup(caterpillar_cards=0).deck())
        (33, 81)
        >>> plain = TableSetup(extras=False).deck()
        >>> any(card.is_change or card.is_butterfly or any(side.aphid for side in card.sides) for card in plain)
        False
        """
        cards = standard_deck()
        if not self.caterpillar_cards and self.extras and self.butterflies and self.aphids:
            return cards
        plain = [card for card in cards if card.sides and not card.is_change]
        if not (self.extras and self.aphids):
            plain = [card for card in plain if not any(side.aphid for side in card.sides)]
        if self.caterpillar_cards:
            plain = plain[: self.caterpillar_cards]
        if not self.extras:
            return tuple(plain)
        changes = [card for card in cards if card.is_change and (self.aphids or not any(s.aphid for s in card.sides))]
        butterflies = [card for card in cards if card.is_butterfly] if self.butterflies else []
        return (*plain, *changes, *butterflies)

    def bot_level(self, name: str) -> BotLevel:
        """The bots' level: ``name`` from the engine's levels or :data:`SLOPPY`, without slips where
        the lesson has not yet taught how to call them."""
        level = SLOPPY if name == SLOPPY.name else get_level(name)
        return level if self.bot_mistakes else replace(level, error_rate=0.0, false_call_rate=0.0)


SETUPS: dict[str, TableSetup] = {
    "10-raupe-shape": TableSetup(
        mode="shape", extras=False, question=True, calls=(), bot_mistakes=False, hints=False, speak_bots=False
    ),
    "11-raupe-colour": TableSetup(
        mode="colour", extras=False, question=True, calls=(), bot_mistakes=False, hints=False, speak_bots=False
    ),
    "12-raupe-change-card": TableSetup(
        mode="shape", speed=0.7, question=True, butterflies=False, aphids=False, calls=CALLS[:2], bot_mistakes=False
    ),
    "13-raupe-butterflies-and-aphids": TableSetup(
        mode="colour", speed=0.7, question=True, calls=CALLS[:3], bot_mistakes=False
    ),
    "14-raupe-spot-the-mistake": TableSetup(
        players=3,
        level=SLOPPY.name,
        referee=True,
        speed=0.6,
        caterpillar_cards=21,
        show_below=True,
        bot_wait=6.5,  # the slow bots leave the learner time to look and call
    ),
    "15-raupe-race": TableSetup(
        players=4,
        caterpillar_cards=0,
        level="advanced",
        speed=1.0,
        show_fits=False,
        hints=False,
        controls=True,
        show_below=True,
    ),
}


def get_table(name: str) -> TableSetup:
    """The table of the Räuber Raupe lesson ``name`` (its notebook's file name)."""
    try:
        return SETUPS[name]
    except KeyError:
        raise KeyError(describe("lesson", name, "one of " + ", ".join(SETUPS))) from None
