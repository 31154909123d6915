"""The strategy lab's picture: score histograms of simulated strategies, as HTML.

The simulations come from :func:`caterpillar_learn.advice.simulate`.  The
histogram is plain SVG built here, so the lab needs no plotting library.

>>> report = LabReport("beginner", {"greedy": [8, 9, 9, 12], "median": [11, 12, 12, 14]}, seed=1)
>>> "greedy" in report._repr_html_() and "<svg" in report._repr_html_()
True
>>> print(report.summary())
greedy: mean 9.5 over 4 games
median: mean 12.2 over 4 games
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from statistics import fmean

from caterpillar_learn.advice import simulate
from caterpillar_learn.caterpillars.svg import BODY_COLOURS
from caterpillar_learn.i18n import text
from caterpillar_learn.ui.caterpillars.advice import ADVICE_LOCK

STRATEGIES = ("random", "greedy", "median", "hint")
#: One colour and one fill pattern per strategy, so bars differ without colour too.
STYLES = {
    "random": ("#999999", "none"),
    "greedy": (BODY_COLOURS["Bobby"], "stripes"),
    "median": (BODY_COLOURS["Alex"], "none"),
    "hint": (BODY_COLOURS["Charlie"], "dots"),
}


class LabReport:
    """Finals of several strategies, shown as side-by-side histograms."""

    def __init__(self, level: str, finals: Mapping[str, Sequence[int]], seed: int) -> None:
        self.level = level
        self.finals = {name: list(values) for name, values in finals.items()}
        self.seed = seed

    def summary(self) -> str:
        return "\n".join(
            text("lessons.lab.summary", strategy=name, mean=fmean(values), games=len(values))
            for name, values in self.finals.items()
            if values
        )

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
            f"<title>{escape(text('lessons.lab.title', level=self.level))}</title>",
            '<defs><pattern id="lab-stripes" width="8" height="8" patternUnits="userSpaceOnUse">'
            '<path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke="#fff" stroke-width="2" stroke-opacity="0.5"/>'
            '</pattern><pattern id="lab-dots" width="8" height="8" patternUnits="userSpaceOnUse">'
            '<circle cx="4" cy="4" r="1.6" fill="#fff" fill-opacity="0.6"/></pattern></defs>',
        ]
        for index, (name, values) in enumerate(self.finals.items()):
            colour, pattern = STYLES.get(name, ("#555555", "none"))
            base = row * (index + 1)
            out.append(f'<text x="8" y="{base - row / 2}" font-size="18" font-weight="bold">{escape(name)}</text>')
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
                    f'fill="{colour}"><title>{escape(name)}: {count} × {value}</title></rect>'
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

    def _repr_html_(self) -> str:
        lines = "".join(f"<li>{escape(line)}</li>" for line in self.summary().splitlines())
        return f'<div class="cl-lab">{self.histogram_svg()}<ul>{lines}</ul></div>'

    def __repr__(self) -> str:
        return self.summary()


def run_lab(
    level: str = "beginner",
    strategies: Sequence[str] = ("random", "greedy", "median"),
    games: int = 200,
    seed: int = 1,
) -> LabReport:
    """Simulate each strategy with :func:`caterpillar_learn.advice.simulate` and report."""
    finals: dict[str, list[int]] = {}
    for name in strategies:
        with ADVICE_LOCK:  # the hint strategy solves layouts: never beside a lesson's background solve
            result = simulate(level, name, games, seed, progress=False)
        finals[name] = [int(v) for v in result.finals]
    return LabReport(level, finals, seed)


__all__ = ["STRATEGIES", "LabReport", "run_lab"]
