"""What the strategy lab's front end draws: one JSON view, described once.

Each payload is a :class:`~typing.TypedDict` here and a JSDoc ``@typedef``
of the same name and fields in ``widgets/lab.js`` (a test keeps the two
alike).  :func:`lab_view` reads a lab (anything shaped like :class:`Bench`,
in practice :class:`~caterpillar_learn.ui.lab.LabBench`) and changes
nothing.  Every word comes from the message catalogue.  The table's numbers
are sent rounded to one decimal by :func:`~caterpillar_learn.ui.lab.report.one_decimal`,
the rounding of the chart and the sentences too; the front end only writes
them (``decimal(value, 1)``), so all three say the same.

>>> from caterpillar_learn.ui.lab import LabBench
>>> view = lab_view(LabBench("beginner", games=40))
>>> view["status"], view["controls"]["games"], [s["name"] for s in view["controls"]["strategies"] if s["checked"]]
('idle', 40, ['random', 'greedy', 'median', 'hint'])
"""

from __future__ import annotations

from typing import Protocol, TypedDict

from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.i18n import text
from caterpillar_learn.ui.lab.report import STRATEGIES, LabReport, one_decimal, strategy_name

__all__ = ["PAGE", "Bench", "LabChoice", "LabControls", "LabLevel", "LabPage", "LabRow", "LabView", "lab_view"]

#: The lesson's words around the lab, by part (``lessons.lab.page.<key>``): what the learner reads first,
#: how to read the picture, what the numbers show (the two insights the lesson states), what to try.
PAGE = {"intro": ("intro.1", "intro.2", "picture"), "shows": ("hungry", "greedy"), "tips": ("try",)}


class Bench(Protocol):
    """What the view reads of a lab (:class:`~caterpillar_learn.ui.lab.LabBench`)."""

    level: Level
    strategies: tuple[str, ...]
    games: int
    seed: int
    running: bool
    report: LabReport | None
    played: dict[str, int]

    @property
    def bounds(self) -> tuple[int, int]: ...


class LabLevel(TypedDict):
    value: str
    label: str


class LabChoice(TypedDict):
    name: str
    label: str
    checked: bool


class LabControls(TypedDict):
    level: str
    levels: list[LabLevel]
    strategies: list[LabChoice]
    games: int
    min_games: int
    max_games: int


class LabRow(TypedDict):
    strategy: str
    name: str
    games: int
    mean: float
    lowest: float
    middle: float
    highest: float
    spread: float


class LabPage(TypedDict):
    heading: str
    intro: list[str]
    shows_title: str
    shows: list[str]
    tips: list[str]


class LabView(TypedDict):
    page: LabPage
    status: str
    status_text: str
    controls: LabControls
    svg: str
    rows: list[LabRow]
    insights: list[str]
    notes: list[str]


def _status(bench: Bench) -> tuple[str, str]:
    if bench.running:
        return "running", text("lessons.lab.ui.running")
    if bench.report is None:
        return "idle", text("lessons.lab.ui.idle")
    level = text(f"caterpillars.level.{bench.report.level}")
    return "ready", text("lessons.lab.ui.ready", games=bench.games, level=level, seed=bench.report.seed)


def lab_view(bench: Bench) -> LabView:
    """The controls as last run (or as given), the status, and the last run's picture, table and findings."""
    low, high = bench.bounds
    status, status_text = _status(bench)
    report = bench.report
    notes = [
        text("lessons.lab.ui.fewer", strategy=name, level=text(f"caterpillars.level.{bench.level.value}"), games=count)
        for name, count in bench.played.items()
        if count < bench.games
    ]
    return {
        "page": {
            "heading": text("lessons.title.lab"),
            "intro": [text(f"lessons.lab.page.{key}") for key in PAGE["intro"]],
            "shows_title": text("lessons.lab.page.shows"),
            "shows": [text(f"lessons.lab.page.{key}") for key in PAGE["shows"]],
            "tips": [text(f"lessons.lab.page.{key}") for key in PAGE["tips"]],
        },
        "status": status,
        "status_text": status_text,
        "controls": {
            "level": bench.level.value,
            "levels": [{"value": lv.value, "label": text(f"caterpillars.level.{lv.value}")} for lv in Level],
            "strategies": [
                {"name": name, "label": text(f"lessons.lab.strategy.{name}"), "checked": name in bench.strategies}
                for name in STRATEGIES
            ],
            "games": bench.games,
            "min_games": low,
            "max_games": high,
        },
        "svg": "" if report is None or bench.running else report.histogram_svg(),
        "rows": []
        if report is None or bench.running
        else [
            {
                "strategy": row.strategy,
                "name": strategy_name(row.strategy),
                "games": row.games,
                "mean": float(one_decimal(row.mean)),
                "lowest": float(one_decimal(row.lowest)),
                "middle": float(one_decimal(row.middle)),
                "highest": float(one_decimal(row.highest)),
                "spread": float(one_decimal(row.spread)),
            }
            for row in report.rows()
        ],
        "insights": [] if report is None or bench.running else report.insights(),
        "notes": notes,
    }
