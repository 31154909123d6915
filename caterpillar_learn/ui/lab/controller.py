"""The strategy lab behind a widget: a ``run`` event in, a report out.

:class:`LabBench` holds the lab's settings (level, strategies, games per
strategy, seed) and the last :class:`~caterpillar_learn.ui.lab.report.LabReport`;
it knows nothing about anywidget (:class:`~caterpillar_learn.ui.base.Controller`).
One event, ``{"type": "run", "level": ..., "strategies": [...], "games": n}``,
checks every field, plays the games (:func:`~caterpillar_learn.ui.lab.report.run_lab`,
seeded, so the same settings give the same report) and keeps the report.  A
run takes from a fraction of a second to several seconds, so
:meth:`LabBench.interim` shows "Running…" first.

Where a strategy thinks slowly (the hint generator estimates every move at
Advanced and Expert), it plays at most :data:`SLOW_GAMES` games and the
view says so.

>>> bench = LabBench("beginner", games=20)
>>> bench.handle({"type": "run", "level": "beginner", "strategies": ["greedy", "hint"], "games": 30})
>>> [row.games for row in bench.report.rows()]
[30, 30]
>>> bench.handle({"type": "run", "level": "beginner", "strategies": ["greedy"], "games": 5})
Traceback (most recent call last):
...
caterpillar_learn.ui.events.BadEventError: games: got 5, expected a whole number from 20 to 2000
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.errors import describe
from caterpillar_learn.ui.events import BadEventError, Dispatcher, Handler, handler, whole
from caterpillar_learn.ui.lab.report import DEFAULT_STRATEGIES, STRATEGIES, LabReport, run_lab
from caterpillar_learn.ui.lab.views import lab_view

__all__ = ["GAMES", "SLOW_GAMES", "LabBench"]

#: Games per strategy a learner may ask for: enough to see a shape, few enough to wait for.
GAMES = (20, 2000)
#: The most games a slow strategy plays at a level (measured here: the hint takes about
#: 0.04 s a game at Advanced and 0.3 s at Expert, against milliseconds elsewhere).
SLOW_GAMES: dict[tuple[Level, str], int] = {(Level.ADVANCED, "hint"): 200, (Level.EXPERT, "hint"): 30}


def parse_strategies(value: object) -> tuple[str, ...]:
    """The strategies of a ``run`` event: a list of known names, each once, at least one.

    >>> parse_strategies(["hint", "greedy"])
    ('greedy', 'hint')
    >>> parse_strategies([])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    caterpillar_learn.ui.events.BadEventError: strategies: got [], expected a list of some of random, greedy, ...
    """
    expected = "a list of some of " + ", ".join(STRATEGIES)
    if not isinstance(value, list) or not value or len(value) > len(STRATEGIES):
        raise BadEventError(describe("strategies", value, expected))
    if any(not isinstance(name, str) or name not in STRATEGIES for name in value) or len(set(value)) != len(value):
        raise BadEventError(describe("strategies", value, expected))
    return tuple(name for name in STRATEGIES if name in value)  # the table's order is always the same


class LabBench(Dispatcher):
    """The lab's settings and its last report; a bad event only raises and changes nothing."""

    def __init__(
        self,
        level: Level | str = "beginner",
        strategies: Sequence[str] = DEFAULT_STRATEGIES,
        games: int = 200,
        seed: int = 1,
    ) -> None:
        self.level = Level.parse(level)
        self.strategies = parse_strategies(list(strategies))
        self.games = self._games(games)
        self.seed = seed
        self.running = False
        self.report: LabReport | None = None
        #: Games each strategy of the last run played (fewer than asked where it is slow).
        self.played: dict[str, int] = {}
        self.message = ""

    @property
    def bounds(self) -> tuple[int, int]:
        return GAMES

    def _games(self, value: object) -> int:
        low, high = GAMES
        count = whole(value, "games")
        if not low <= count <= high:
            raise BadEventError(describe("games", count, f"a whole number from {low} to {high}"))
        return count

    def interim(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """While the games are played: the same view, saying "Running…"."""
        self.running = True
        try:
            return self.views()
        finally:
            self.running = False

    def handle(self, event: Mapping[str, Any]) -> None:
        self.message = ""
        handler(event, self.handlers())(event)

    def handlers(self) -> dict[str, Handler]:
        """Each event the lab's page may send, and the method that applies it."""
        return {"run": self.on_run}

    def on_run(self, event: Mapping[str, Any]) -> None:
        """Check a ``run`` event's fields, then play the games and keep the report."""
        level = Level.parse(event.get("level"))
        strategies = parse_strategies(event.get("strategies"))
        games = self._games(event.get("games"))
        counts = {name: min(games, SLOW_GAMES.get((level, name), games)) for name in strategies}
        report = run_lab(level.value, strategies, counts, self.seed)
        self.level, self.strategies, self.games = level, strategies, games
        self.report, self.played = report, counts

    def views(self) -> dict[str, Any]:
        return {"lab": lab_view(self)}
