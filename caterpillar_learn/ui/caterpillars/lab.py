"""The strategy lab's picture: score histograms and a table of simulated strategies, as HTML.

The simulations come from :func:`caterpillar_learn.advice.simulate`.  Each
strategy's row gives its mean final score and the mean totals of each game's
lowest, middle and highest caterpillar, which show *how* it scores; the
lines of :meth:`LabReport.insights` are computed from the same numbers, so
they always say what this run shows.  The histogram is plain SVG built
here, so the lab needs no plotting library.

>>> report = LabReport(
...     "beginner",
...     {"greedy": [8, 9, 9, 12], "hint": [11, 12, 12, 14]},
...     seed=1,
...     totals={"greedy": [(6, 8, 10), (7, 9, 11), (8, 9, 9), (9, 12, 12)], "hint": [(2, 11, 13), (3, 12, 12)] * 2},
... )
>>> "greedy" in report._repr_html_() and "<svg" in report._repr_html_()
True
>>> print(report.summary())
greedy: mean 9.5 over 4 games
hint: mean 12.2 over 4 games
>>> print("\\n".join(report.insights()))
Highest mean final score: hint (12.2).
Most level caterpillars: greedy (highest and lowest 3.0 apart on average).
With hint, the lowest caterpillar ends 9.0 below the middle one, and the highest 1.0 above it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from statistics import fmean

from caterpillar_learn.advice import simulate
from caterpillar_learn.caterpillars.svg import BODY_COLOURS
from caterpillar_learn.i18n import text
from caterpillar_learn.ui.caterpillars.advice import ADVICE_LOCK

STRATEGIES = ("random", "greedy", "median", "hint")
#: What a lab runs when not told otherwise: every strategy, best play included.
DEFAULT_STRATEGIES = STRATEGIES
#: One colour and one fill pattern per strategy, so bars differ without colour too.
STYLES = {
    "random": ("#999999", "none"),
    "greedy": (BODY_COLOURS["Bobby"], "stripes"),
    "median": (BODY_COLOURS["Alex"], "none"),
    "hint": (BODY_COLOURS["Charlie"], "dots"),
}


def strategy_name(name: str) -> str:
    """A strategy's short name in the current language (``random``, ``zufällig``, ...).

    >>> strategy_name("greedy")
    'greedy'
    """
    return text(f"lessons.lab.name.{name}")


@dataclass(frozen=True)
class StrategyRow:
    """One strategy's line of the table: its games, mean final and mean lowest, middle, highest totals."""

    strategy: str
    games: int
    mean: float
    #: The mean totals of each game's lowest, middle and highest caterpillar.
    finishes: tuple[float, float, float]

    @property
    def lowest(self) -> float:
        return self.finishes[0]

    @property
    def middle(self) -> float:
        return self.finishes[1]

    @property
    def highest(self) -> float:
        return self.finishes[2]

    @property
    def spread(self) -> float:
        """How far apart the highest and the lowest caterpillar end, on average."""
        return self.highest - self.lowest


class LabReport:
    """Finals (and each game's three totals) of several strategies: histograms, a table, what they show."""

    def __init__(
        self,
        level: str,
        finals: Mapping[str, Sequence[int]],
        seed: int,
        totals: Mapping[str, Sequence[Sequence[int]]] | None = None,
    ) -> None:
        self.level = level
        self.finals = {name: list(values) for name, values in finals.items()}
        self.seed = seed
        #: Each game's totals, lowest first (a strategy without them gets no table row).
        self.totals = {name: [tuple(sorted(game)) for game in games] for name, games in (totals or {}).items()}

    def summary(self) -> str:
        return "\n".join(
            text("lessons.lab.summary", strategy=name, mean=fmean(values), games=len(values))
            for name, values in self.finals.items()
            if values
        )

    def rows(self) -> list[StrategyRow]:
        """One row per strategy that has games and totals, in the order they were run."""
        out = []
        for name, values in self.finals.items():
            games = self.totals.get(name, [])
            if values and games:
                low, middle, high = (fmean(game[i] for game in games) for i in range(3))
                out.append(StrategyRow(name, len(values), fmean(values), (low, middle, high)))
        return out

    def insights(self) -> list[str]:
        """What the numbers of this run show, in words computed from them (so they are true of this run)."""
        rows = self.rows()
        if not rows:
            return []
        best = max(rows, key=lambda r: r.mean)
        lines = []
        if len(rows) > 1:
            lines.append(text("lessons.lab.best", strategy=strategy_name(best.strategy), mean=best.mean))
            level = min(rows, key=lambda r: r.spread)
            lines.append(text("lessons.lab.level", strategy=strategy_name(level.strategy), spread=level.spread))
        lines.append(
            text(
                "lessons.lab.shape",
                strategy=strategy_name(best.strategy),
                below=best.middle - best.lowest,
                above=best.highest - best.middle,
            )
        )
        return lines

    def histogram_svg(self) -> str:
        """One row of bars per strategy on a shared score axis."""
        everything = [v for values in self.finals.values() for v in values]
        if not everything:
            return ""
        low, high = min(everything), max(everything)
        span = high - low + 1
        width, row, left = 760, 140, 110
        step = (width - left - 20) / span
        tallest = max(max(Counter(values).values()) for values in self.finals.values() if values)
        height = row * len(self.finals) + 40
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'role="img" font-family="system-ui, sans-serif" fill="currentColor">',
            f"<title>{escape(text('lessons.lab.title', level=text(f'caterpillars.level.{self.level}')))}</title>",
            '<defs><pattern id="lab-stripes" width="8" height="8" patternUnits="userSpaceOnUse">'
            '<path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke="#fff" stroke-width="2" stroke-opacity="0.5"/>'
            '</pattern><pattern id="lab-dots" width="8" height="8" patternUnits="userSpaceOnUse">'
            '<circle cx="4" cy="4" r="1.6" fill="#fff" fill-opacity="0.6"/></pattern></defs>',
        ]
        for index, (name, values) in enumerate(self.finals.items()):
            colour, pattern = STYLES.get(name, ("#555555", "none"))
            base = row * (index + 1)
            label = escape(strategy_name(name))
            out.append(f'<text x="8" y="{base - row / 2}" font-size="18" font-weight="bold">{label}</text>')
            if values:
                out.append(
                    f'<text x="8" y="{base - row / 2 + 22}" font-size="14">'
                    f"{escape(text('lessons.lab.mean', mean=fmean(values)))}</text>"
                )
            for value, count in sorted(Counter(values).items()):
                bar = (row - 30) * count / tallest
                x = left + (value - low) * step
                out.append(
                    f'<rect x="{x:.1f}" y="{base - bar:.1f}" width="{max(step - 2, 1):.1f}" height="{bar:.1f}" '
                    f'fill="{colour}"><title>{escape(strategy_name(name))}: {count} × {value}</title></rect>'
                )
                if pattern != "none":
                    out.append(
                        f'<rect x="{x:.1f}" y="{base - bar:.1f}" width="{max(step - 2, 1):.1f}" '
                        f'height="{bar:.1f}" fill="url(#lab-{pattern})"/>'
                    )
            out.append(f'<line x1="{left}" y1="{base}" x2="{width - 20}" y2="{base}" stroke="currentColor"/>')
            if values:  # the mean, dashed, so rows compare at a glance
                x = left + (fmean(values) - low + 0.5) * step
                out.append(
                    f'<line x1="{x:.1f}" y1="{base - row + 24}" x2="{x:.1f}" y2="{base}" stroke="currentColor" '
                    f'stroke-width="2" stroke-dasharray="5 4"/>'
                )
        for value in range(low, high + 1, max(1, span // 12)):
            x = left + (value - low + 0.5) * step
            out.append(f'<text x="{x:.1f}" y="{height - 12}" font-size="13" text-anchor="middle">{value}</text>')
        out.append("</svg>")
        return "".join(out)

    def table_html(self) -> str:
        """The rows as an HTML table (the notebook's picture; the widget draws the same numbers itself)."""
        rows = self.rows()
        if not rows:
            return ""
        heads = "".join(f"<th scope='col'>{escape(text(f'lessons.lab.col.{key}'))}</th>" for key in COLUMNS)
        body = "".join(
            f"<tr><th scope='row'>{escape(strategy_name(row.strategy))}</th><td>{row.games}</td>"
            + "".join(f"<td>{value:.1f}</td>" for value in (row.mean, row.lowest, row.middle, row.highest, row.spread))
            + "</tr>"
            for row in rows
        )
        return f"<table class='cl-lab-table'><thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table>"

    def _repr_html_(self) -> str:
        lines = "".join(f"<li>{escape(line)}</li>" for line in self.insights() or self.summary().splitlines())
        return f'<div class="cl-lab">{self.histogram_svg()}{self.table_html()}<ul>{lines}</ul></div>'

    def __repr__(self) -> str:
        return self.summary()


#: The table's columns, in order (catalogue keys ``lessons.lab.col.<name>``).
COLUMNS = ("strategy", "games", "mean", "lowest", "middle", "highest", "spread")


def run_lab(
    level: str = "beginner",
    strategies: Sequence[str] = DEFAULT_STRATEGIES,
    games: int | Mapping[str, int] = 200,
    seed: int = 1,
) -> LabReport:
    """Simulate each strategy with :func:`caterpillar_learn.advice.simulate` and report.

    ``games`` is one count for every strategy, or a count per strategy.
    """
    finals: dict[str, list[int]] = {}
    totals: dict[str, list[tuple[int, int, int]]] = {}
    for name in strategies:
        count = games if isinstance(games, int) else games[name]
        with ADVICE_LOCK:  # the hint strategy solves layouts: never beside a lesson's background solve
            result = simulate(level, name, count, seed, progress=False)
        finals[name] = [int(v) for v in result.finals]
        totals[name] = list(result.totals)
    return LabReport(level, finals, seed, totals)


__all__ = ["COLUMNS", "DEFAULT_STRATEGIES", "STRATEGIES", "LabReport", "StrategyRow", "run_lab"]
