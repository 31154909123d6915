"""The strategy lab's picture: score histograms and a table of simulated strategies, as HTML.

The simulations come from :func:`caterpillar_learn.advice.simulate`.  Each
strategy's row gives its mean final score and the mean totals of each game's
lowest, middle and highest caterpillar, which show *how* it scores; the
lines of :meth:`LabReport.insights` are computed from the same numbers, so
they always say what this run shows.  The histogram is plain SVG built
here, so the lab needs no plotting library.

Every number the lab writes with one decimal (the chart's mean labels, the
table, the sentences, the widget's rows) is rounded by :func:`one_decimal`
alone, so the picture, the table and the words never disagree (the hint's
12.25 below is 12.3 everywhere).

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
hint: mean 12.3 over 4 games
>>> print("\\n".join(report.insights()))
Highest mean final score: hint (12.3).
Most level caterpillars: greedy (highest and lowest 3.0 apart on average).
With hint, the lowest caterpillar ends 9.0 below the middle one, and the highest 1.0 above it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from html import escape
from math import ceil
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


#: Below this, a float's digits are noise of its arithmetic (10.01 - 3.56 is 6.449999999999999, not 6.45).
NOISE = Decimal("1e-9")
TENTH = Decimal("0.1")


def one_decimal(value: float | Decimal | Fraction) -> Decimal:
    """``value`` with one decimal, half up (away from zero): the one rounding of every number the lab writes.

    The rule is round-half-up on the *decimal* value, the way a pupil rounds
    by hand: 30.25 is 30.3 and 6.45 is 6.5, though Python's ``format`` and
    ``round`` round half to even on the binary float (30.25 gives "30.2",
    6.449999999999999 gives "6.4") and JavaScript's ``toFixed`` rounds the
    binary float half up (30.25 gives "30.3").  The float is first read as the
    shortest decimal that is the same float (``repr``) and cut to nine
    decimals, so a float sum's noise (6.449999999999999) counts as the
    decimal it stands for (6.45).  That is safe for the lab's numbers: a mean
    of at most 2000 whole numbers (or a difference of two such means) that
    is not a half exactly lies at least 1/40000 from one.

    Python writes the result with ``{:.1f}`` (the catalogue) and the front end
    with ``decimal(value, 1)`` (``toFixed(1)`` of a number with one decimal
    gives that decimal back), so the rounding happens here once.

    >>> [str(one_decimal(v)) for v in (30.25, 6.45, 30.245, 10.01 - 3.56, 12.25, -0.25, 7)]
    ['30.3', '6.5', '30.2', '6.5', '12.3', '-0.3', '7.0']
    >>> format(30.25, ".1f"), round(30.25, 1)  # what one_decimal replaces
    ('30.2', 30.2)
    """
    if isinstance(value, Decimal):
        exact = value
    elif isinstance(value, Fraction):
        exact = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        exact = Decimal(repr(float(value)))
    return exact.quantize(NOISE, ROUND_HALF_EVEN).quantize(TENTH, ROUND_HALF_UP)


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
            text("lessons.lab.summary", strategy=name, mean=one_decimal(fmean(values)), games=len(values))
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
            lines.append(text("lessons.lab.best", strategy=strategy_name(best.strategy), mean=one_decimal(best.mean)))
            level = min(rows, key=lambda r: r.spread)
            lines.append(
                text("lessons.lab.level", strategy=strategy_name(level.strategy), spread=one_decimal(level.spread))
            )
        lines.append(
            text(
                "lessons.lab.shape",
                strategy=strategy_name(best.strategy),
                below=one_decimal(best.middle - best.lowest),
                above=one_decimal(best.highest - best.middle),
            )
        )
        return lines

    def histogram_svg(self) -> str:
        """One row of bars per strategy on a shared score axis, each with its mean as a labelled line.

        Sized for a projector: every word and number is at least 20 units high
        (the widget draws the picture no smaller than that at 1920x1080), the
        axes are titled (``lessons.lab.axis.*``), and ``--lab-ratio`` lets the
        widget's CSS keep the whole picture inside the window.
        """
        everything = [v for values in self.finals.values() for v in values]
        if not everything:
            return ""
        low, high = min(everything), max(everything)
        span = high - low + 1
        width, row, left, right, top, bottom = 960, 140, 190, 24, 48, 86
        bars = row - 52  # the tallest bar; above it the row keeps room for the mean's label
        step = (width - left - right) / span
        tallest = max(max(Counter(values).values()) for values in self.finals.values() if values)
        height = top + row * len(self.finals) + bottom
        last = top + row * len(self.finals)  # the score axis
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" style="--lab-ratio: {width / height:.4f}" data-testid="lab-chart" '
            f'role="img" font-family="system-ui, sans-serif" fill="currentColor">',
            f"<title>{escape(text('lessons.lab.title', level=text(f'caterpillars.level.{self.level}')))}</title>",
            '<defs><pattern id="lab-stripes" width="8" height="8" patternUnits="userSpaceOnUse">'
            '<path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke="#fff" stroke-width="2" stroke-opacity="0.5"/>'
            '</pattern><pattern id="lab-dots" width="8" height="8" patternUnits="userSpaceOnUse">'
            '<circle cx="4" cy="4" r="1.6" fill="#fff" fill-opacity="0.6"/></pattern></defs>',
            f'<text x="8" y="28" font-size="22" font-weight="bold" data-testid="lab-axis-games">'
            f"{escape(text('lessons.lab.axis.games'))}</text>",
        ]
        for index, (name, values) in enumerate(self.finals.items()):
            colour, pattern = STYLES.get(name, ("#555555", "none"))
            base = top + row * (index + 1)
            label = escape(strategy_name(name))
            out.append(f'<text x="8" y="{base - bars / 2 + 8:.1f}" font-size="22" font-weight="bold">{label}</text>')
            # The games axis: the tallest bar's count, on a faint line at its height.
            out.append(
                f'<line x1="{left}" y1="{base - bars}" x2="{width - right}" y2="{base - bars}" '
                f'stroke="currentColor" stroke-opacity="0.25"/>'
                f'<text x="{left - 10}" y="{base - bars + 7}" font-size="20" text-anchor="end" class="lab-tick">'
                f"{tallest}</text>"
                f'<text x="{left - 10}" y="{base + 7}" font-size="20" text-anchor="end" class="lab-tick">0</text>'
            )
            for value, count in sorted(Counter(values).items()):
                bar = bars * count / tallest
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
            out.append(f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" stroke="currentColor"/>')
            if values:  # the mean: a dashed line, and its value above it, so rows compare at a glance
                mean = fmean(values)
                x = left + (mean - low + 0.5) * step
                said = escape(text("lessons.lab.mean", mean=one_decimal(mean)))
                half = len(said) * 6.2  # about half the label's width at 20 units
                middle = min(max(x, left + half), width - right - half)
                out.append(
                    f'<line x1="{x:.1f}" y1="{base - bars - 8}" x2="{x:.1f}" y2="{base}" stroke="currentColor" '
                    f'stroke-width="3" stroke-dasharray="6 4"/>'
                    f'<text x="{middle:.1f}" y="{base - bars - 14}" font-size="20" font-weight="bold" '
                    f'text-anchor="middle" data-testid="lab-mean" data-strategy="{escape(name)}">{said}</text>'
                )
        every = next((n for n in (1, 2, 5, 10, 20, 50, 100) if span / n <= 12), 200)
        for value in range(ceil(low / every) * every, high + 1, every):
            x = left + (value - low + 0.5) * step
            out.append(
                f'<line x1="{x:.1f}" y1="{last}" x2="{x:.1f}" y2="{last + 6}" stroke="currentColor"/>'
                f'<text x="{x:.1f}" y="{last + 28}" font-size="20" text-anchor="middle" class="lab-tick">{value}</text>'
            )
        out.append(
            f'<text x="{(left + width - right) / 2:.1f}" y="{last + 68}" font-size="22" font-weight="bold" '
            f'text-anchor="middle" data-testid="lab-axis-score">{escape(text("lessons.lab.axis.score"))}</text>'
        )
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
            + "".join(
                f"<td>{one_decimal(value)}</td>"
                for value in (row.mean, row.lowest, row.middle, row.highest, row.spread)
            )
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


__all__ = ["COLUMNS", "DEFAULT_STRATEGIES", "STRATEGIES", "LabReport", "StrategyRow", "one_decimal", "run_lab"]
