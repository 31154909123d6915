"""A static picture of the scoresheet, as SVG text (what ``State._repr_svg_`` shows).

Pure string building: nothing here imports Jupyter, so a bare
:class:`~caterpillar_learn.caterpillars.sheet.State` draws itself in any
notebook, in a terminal that saves files, or in a test.  Colour is never the
only cue: every caterpillar carries its name and its own body pattern
(plain, stripes, dots), and struck-out and flying caterpillars are written
out in words as well as drawn.

>>> from caterpillar_learn.caterpillars.sheet import State
>>> picture = sheet_svg(State.new("advanced", [1, 2, 5, 6] * 3))
>>> picture.startswith("<svg") and "Bobby" in picture and "Bonus box B" in picture
True
"""

from __future__ import annotations

import itertools
from html import escape

from caterpillar_learn.caterpillars.scoring import score
from caterpillar_learn.caterpillars.sheet import BONUS_BOXES, BOXES, CATERPILLARS, State
from caterpillar_learn.i18n import text

#: Colour-blind-safe body colours (Okabe-Ito: bluish green, blue, reddish purple).
BODY_COLOURS = {"Alex": "#009E73", "Bobby": "#0072B2", "Charlie": "#AA4499"}
#: A second cue besides colour: each body has its own pattern.
PATTERNS = {"Alex": "plain", "Bobby": "stripes", "Charlie": "dots"}

WIDTH = 780
ROW = 130
NAME_X = 58
TOP = 16
HEAD_X = 140
SEGMENT_X = (230, 320, 410, 500)
RADIUS = 42
TOTAL_X = 590
BONUS_X = 690
INK = "#1a1a1a"
PAPER = "#ffffff"
EMPTY = "#f2f2f2"

_ids = itertools.count()


def _text(x: float, y: float, content: object, size: int, **extra: str) -> str:
    attrs = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in extra.items())
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="middle" '
        f'dominant-baseline="central"{attrs}>{escape(str(content))}</text>'
    )


def _defs(uid: str) -> str:
    parts = []
    for name, colour in BODY_COLOURS.items():
        pid = f"cl-{uid}-{name}"
        kind = PATTERNS[name]
        inner = f'<rect width="12" height="12" fill="{colour}"/>'
        if kind == "stripes":
            inner += (
                '<path d="M-3,3 l6,-6 M0,12 l12,-12 M9,15 l6,-6" stroke="#ffffff" '
                'stroke-opacity="0.35" stroke-width="3"/>'
            )
        elif kind == "dots":
            inner += '<circle cx="6" cy="6" r="2.4" fill="#ffffff" fill-opacity="0.4"/>'
        parts.append(f'<pattern id="{pid}" width="12" height="12" patternUnits="userSpaceOnUse">{inner}</pattern>')
    return "<defs>" + "".join(parts) + "</defs>"


def _head(cx: float, cy: float, fill: str) -> str:
    return (
        f'<path d="M{cx - 12:g},{cy - 34:g} q-8,-22 -20,-26 M{cx + 12:g},{cy - 34:g} q8,-22 20,-26" '
        f'stroke="{INK}" stroke-width="3" fill="none" stroke-linecap="round"/>'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS - 4}" fill="{fill}" stroke="{INK}" stroke-width="3"/>'
        f'<circle cx="{cx - 12:g}" cy="{cy - 8:g}" r="7" fill="{PAPER}"/>'
        f'<circle cx="{cx + 12:g}" cy="{cy - 8:g}" r="7" fill="{PAPER}"/>'
        f'<circle cx="{cx - 11:g}" cy="{cy - 7:g}" r="3" fill="{INK}"/>'
        f'<circle cx="{cx + 13:g}" cy="{cy - 7:g}" r="3" fill="{INK}"/>'
        f'<path d="M{cx - 12:g},{cy + 12:g} q12,10 24,0" stroke="{INK}" stroke-width="3" fill="none"/>'
    )


def _wings(cx: float, cy: float) -> str:
    return "".join(
        f'<ellipse cx="{cx + dx:g}" cy="{cy - 30:g}" rx="20" ry="34" '
        f'transform="rotate({angle} {cx + dx:g} {cy - 30:g})" '
        f'fill="#F0E442" fill-opacity="0.9" stroke="{INK}" stroke-width="2"/>'
        for dx, angle in ((-30, -40), (30, 40))
    )


def _segment(cx: float, cy: float, fill: str, label: int | None, value: int | None, name: str, box: int) -> str:
    content = text("lessons.aria.empty") if value is None else str(value)
    title = text(
        "lessons.aria.box",
        caterpillar=name,
        number=box + 1,
        label="…" if label is None else label,
        content=content,
    )
    parts = [
        f"<g><title>{escape(title)}</title>",
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS}" fill="{fill}" stroke="{INK}" stroke-width="3"/>',
        f'<circle cx="{cx:g}" cy="{cy + 6:g}" r="{RADIUS - 14}" fill="{PAPER if value is not None else EMPTY}" '
        f'stroke="{INK}" stroke-width="1.5"/>',
        f'<rect x="{cx - 17:g}" y="{cy - RADIUS - 8:g}" width="34" height="24" rx="6" fill="{PAPER}" '
        f'stroke="{INK}" stroke-width="2"/>',
        _text(cx, cy - RADIUS + 4, "…" if label is None else label, 16, font_weight="bold", fill=INK),
    ]
    if value is not None:
        if value == 0:  # a crossed-out box: the cross sits behind its 0
            parts.append(
                f'<path d="M{cx - 16:g},{cy - 10:g} l32,32 M{cx + 16:g},{cy - 10:g} l-32,32" '
                f'stroke="{INK}" stroke-width="2" stroke-opacity="0.3"/>'
            )
        parts.append(_text(cx, cy + 6, value, 28, font_weight="bold", fill=INK))
    parts.append("</g>")
    return "".join(parts)


def sheet_svg(state: State, *, size: float = 1.0) -> str:
    """The whole sheet: three caterpillars, totals, bonus boxes and, when full, the scoring.

    >>> from caterpillar_learn.caterpillars.sheet import State
    >>> full = State("beginner", (1,) * 12, (2, 2, 2, 2, 1, 1, 1, 1, 6, 6, 6, 6))
    >>> picture = sheet_svg(full)
    >>> "Alex flies" in picture, picture.count("struck out")
    (True, 2)
    """
    uid = str(next(_ids))
    bonus = state.level.rules.bonus_boxes
    result = score(state) if state.is_complete else None
    height = TOP + ROW * len(CATERPILLARS) + (70 if result else 10)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH * size:g}" height="{height * size:g}" role="img" '
        f'font-family="system-ui, sans-serif">',
        f"<title>{escape(text('lessons.sheet.title', level=text('caterpillars.level.' + state.level.value)))}</title>",
        _defs(uid),
        f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}" rx="12"/>',
    ]
    for index, name in enumerate(CATERPILLARS):
        cy = TOP + ROW * index + ROW / 2 + 10
        fill = f"url(#cl-{uid}-{name})"
        flying = result is not None and result.flying == name
        struck = result is not None and not flying
        out.append('<g opacity="0.55">' if struck else "<g>")
        if flying:
            out.append(_wings(HEAD_X, cy))
        out.append(_text(NAME_X, cy - 12, name, 20, font_weight="bold", fill=INK))
        out.append(_text(NAME_X, cy + 14, f"({text('lessons.colour.' + name)})", 12, fill=INK))
        for box in reversed(range(BOXES)):  # drawn tail first so each segment overlaps the next
            slot = BOXES * index + box
            out.append(_segment(SEGMENT_X[box], cy, fill, state.labels[slot], state.scores[slot], name, box))
        out.append(_head(HEAD_X, cy, fill))
        out.append(
            f'<rect x="{TOTAL_X - 34}" y="{cy - 26:g}" width="68" height="52" rx="8" fill="{PAPER}" '
            f'stroke="{INK}" stroke-width="2"/>'
        )
        out.append(_text(TOTAL_X, cy, f"= {state.totals[index]}", 24, font_weight="bold", fill=INK))
        if bonus:
            value = state.bonus[index]
            letter = BONUS_BOXES[index]
            out.append(
                f"<g><title>{escape(text('lessons.sheet.bonus_box', box=letter))}</title>"
                f'<rect x="{BONUS_X - 34}" y="{cy - 26:g}" width="68" height="52" rx="8" fill="{EMPTY}" '
                f'stroke="{INK}" stroke-width="2" stroke-dasharray="6 3"/>'
                + _text(BONUS_X - 18, cy, letter, 16, fill=INK)
                + _text(BONUS_X + 10, cy, "…" if value is None else value, 24, font_weight="bold", fill=INK)
                + "</g>"
            )
        if result is not None:
            if flying:
                out.append(
                    _text(
                        HEAD_X,
                        cy + RADIUS + 4,
                        text("lessons.sheet.flies", name=name),
                        15,
                        font_weight="bold",
                        fill=INK,
                    )
                )
            else:
                out.append(
                    f'<line x1="{HEAD_X - 45}" y1="{cy:g}" x2="{SEGMENT_X[-1] + 45}" y2="{cy:g}" stroke="{INK}" '
                    f'stroke-width="6" stroke-linecap="round"/>'
                )
                out.append(
                    _text(
                        HEAD_X,
                        cy + RADIUS + 4,
                        text("lessons.sheet.struck", name=name),
                        15,
                        font_weight="bold",
                        fill=INK,
                    )
                )
        out.append("</g>")
    if result is not None:
        y = TOP + ROW * len(CATERPILLARS) + 30
        line = text("lessons.sheet.final", final=result.final, flying=result.flying)
        out.append(_text(WIDTH / 2, y, line, 24, font_weight="bold", fill=INK))
    out.append("</svg>")
    return "".join(out)


__all__ = ["BODY_COLOURS", "PATTERNS", "sheet_svg"]
