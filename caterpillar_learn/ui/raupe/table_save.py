"""A card table's save and its replay: the events that make the lesson's step, and the game as dealt.

A reload comes back at the lesson's step with the same cards, not in the middle of a game (see
:mod:`caterpillar_learn.ui.raupe.controller`): the save keeps :data:`KEPT` events and the current game as
dealt, and the replay goes through the table's own guard, so a save changed by hand is refused in one line.

>>> from caterpillar_learn.lessons import get_table
>>> from caterpillar_learn.ui.raupe import RaupeTable
>>> table = RaupeTable(get_table("15-raupe-race"), seed=2, name="15-raupe-race")
>>> table.handle({"type": "start", "seq": 3})
>>> saved = save_of(table)
>>> saved["events"], saved["engine"] == table.dealt
([{'type': 'start'}], True)
>>> back = RaupeTable(get_table("15-raupe-race"), seed=2, name="15-raupe-race")
>>> replay(back, saved)
>>> back.game.state.hands == table.game.state.hands, back.paused
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.raupe import Game
from caterpillar_learn.ui.resume import SAVE_FORMAT, SaveError, SaveRecord, check_save

if TYPE_CHECKING:
    from caterpillar_learn.ui.raupe.controller import RaupeTable

__all__ = ["KEPT", "replay", "save_of"]

#: The events a save keeps: those that make the lesson's step (a card tapped keeps only while it answers).
KEPT = ("answer", "check", "start", "speed", "level")


def save_of(table: RaupeTable) -> SaveRecord:
    """The step's events and the current game as dealt."""
    return {
        "format": SAVE_FORMAT,
        "kind": table.save_kind,
        "lesson": table.name,
        "seed": table.seed,
        "events": [dict(event) for event in table.accepted],
        "engine": dict(table.dealt),
    }


def replay(table: RaupeTable, save: object) -> None:
    """Replay ``save`` on the fresh ``table`` through its own guard, or raise :class:`SaveError`."""
    if table.accepted:
        raise SaveError(describe("table", f"{len(table.accepted)} events played", "a fresh table to replay on"))
    events = check_save(save, table.save_kind, table.name, table.seed)
    assert isinstance(save, Mapping)
    try:
        Game.from_json(save["engine"])
    except CaterpillarLearnError as error:
        raise SaveError(f"save engine: {error}") from None
    for index, event in enumerate(events):
        kind = event.get("type")
        if kind not in KEPT and kind != "play":
            raise SaveError(describe(f"save events[{index}] type", kind, "one of " + ", ".join(KEPT) + ", play"))
        try:
            table.handle(event)
        except CaterpillarLearnError as error:
            raise SaveError(f"save events[{index}]: {error}") from None
        except Exception as error:  # whatever the event was, the save is refused, never the page
            raise SaveError(f"save events[{index}]: could not be replayed ({type(error).__name__})") from None
        if len(table.accepted) != index + 1:  # a card tapped in a game: not one a save keeps
            raise SaveError(describe(f"save events[{index}]", event, "an event of the lesson's step"))
    if table.dealt != save["engine"]:
        field = next((key for key in table.dealt if table.dealt[key] != save["engine"].get(key)), "format")
        raise SaveError(describe(f"save engine.{field}", save["engine"].get(field), "the game its events deal"))
    if table.running and not table.paused:  # dealt again: it waits for the learner
        table.toggle_pause()
