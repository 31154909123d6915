"""A bot a child can see play (issue 29): at the table's own speed, a bot plays within its
:attr:`~caterpillar_learn.lessons.TableSetup.bot_wait` real seconds of the pile changing.

The learner sits still: the clock runs on ticks of a quarter second, as a page sends them, and every
bot card is timed against the event before it.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest

from caterpillar_learn.lessons import get_table
from caterpillar_learn.raupe import Play
from caterpillar_learn.ui.raupe.controller import RaupeTable
from tests.raupe_ui.helpers import ready

TICK = 0.25


def bot_gaps(table: RaupeTable, seconds: float) -> list[float]:
    """The real seconds between each bot card and the event before it, over ``seconds`` of an idle learner."""
    for _ in range(int(seconds / TICK)):
        table.handle({"type": "tick", "dt": TICK})
        if table.game.state.finished:
            break
    events = table.game.events
    return [
        (after.time - before.time) / table.speed
        for before, after in pairwise(events)
        if isinstance(after, Play) and after.player != table.human
    ]


@pytest.mark.parametrize("lesson", ["10-raupe-shape", "11-raupe-colour", "15-raupe-race"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bot_plays_within_its_wait_at_the_default_speed(lesson: str, seed: int) -> None:
    table = ready(lesson, seed=seed).session
    table.handle({"type": "start"})
    gaps = bot_gaps(table, 60)
    assert len(gaps) >= 5, f"the bots played {len(gaps)} cards in a minute"
    most = table.setup.bot_wait
    assert max(gaps) <= most + TICK, f"a bot waited {max(gaps):.2f} s (at most {most})"


def test_without_the_wait_a_beginner_bot_may_take_longer() -> None:
    """The check can fail: lesson 10 with a wait of a minute lets a beginner bot take longer than the wait."""
    longest = 0.0
    for seed in (1, 2, 3):
        table = ready("10-raupe-shape", seed=seed).session
        table.setup = replace(get_table("10-raupe-shape"), bot_wait=60.0)
        table.handle({"type": "start"})
        longest = max(longest, *bot_gaps(table, 60))
    assert longest > get_table("10-raupe-shape").bot_wait + TICK
