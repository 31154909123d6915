"""The scoresheet on paper: one player's scorepad, drawn as SVG for a printer and a pen.

The roll-and-write game is played with a pen on a printed sheet.  This draws
that sheet for a :class:`~caterpillar_learn.caterpillars.sheet.State`: the
three caterpillars with their four boxes and the labels printed on them (a
blank label is an empty tag, to be written in during setup), an ``=`` box
for each caterpillar's total, the bonus boxes A, B and C where the level
has them, and the final scoring track at the bottom (the flying
caterpillar's total, its bonus box, the final score).  The scores already
written on the state are not drawn: the paper is for a fresh game.

Black on white: outlines in ink, every writing space white; a caterpillar
is told by its name and its colour in words, and by its body's pattern
(plain, stripes, dots) drawn in thin lines of its colour, which a
black-and-white printer prints as grey lines.  Pure string building, like
:mod:`~caterpillar_learn.caterpillars.svg`.

>>> from caterpillar_learn.caterpillars.sheet import State
>>> drawn = paper_svg(State.new("advanced", [1, 2, 5, 6] * 3))
>>> drawn.count('data-testid="paper-label"'), drawn.count('data-testid="paper-bonus"')
(12, 3)
>>> "final score" in drawn and "Bonus box A" in drawn
True
"""

from __future__ import annotations

from html import escape

from caterpillar_learn.caterpillars.sheet import BONUS_BOXES, BOXES, CATERPILLARS, State
from caterpillar_learn.caterpillars.svg import BODY_COLOURS, PATTERNS
from caterpillar_learn.i18n import text

__all__ = ["paper_svg"]

WIDTH = 780
ROW = 136
TOP = 34
NAME_X = 62
HEAD_X = 150
SEGMENT_X = (244, 334, 424, 514)
RADIUS = 43
#: The white circle a score is written in.
WRITE = 31
TOTAL_X = 622
BONUS_X = 722
TRACK = 120
INK = "#1a1a1a"
PAPER = "#ffffff"


def _words(x: float, y: float, content: object, size: int, *, bold: bool = False, anchor: str = "middle") -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" dominant-baseline="central" '
        f'fill="{INK}"{weight}>{escape(str(content))}</text>'
    )


def _body(name: str, cy: float, uid: str) -> str:
    """The caterpillar's body (its head and four segments) in its pattern: thin lines or dots of its colour
    on white, light on paper and grey in black and white.  Plain shapes clipped to the body, not an SVG
    pattern: Chromium prints a pattern as a picture (some 2 MB a page), these as lines."""
    colour, kind = BODY_COLOURS[name], PATTERNS[name]
    clip = f"cp-{uid}-{name}"
    circles = "".join(
        f'<circle cx="{x:g}" cy="{cy:g}" r="{RADIUS - (5 if x == HEAD_X else 0)}"/>' for x in (HEAD_X, *SEGMENT_X)
    )
    left, right, top = HEAD_X - RADIUS, SEGMENT_X[-1] + RADIUS, cy - RADIUS
    if kind == "stripes":
        marks = "".join(
            f"M{x:g},{top + 2 * RADIUS:g} l{2 * RADIUS},{-2 * RADIUS}"
            for x in range(int(left) - 2 * RADIUS, int(right), 10)
        )
        inner = f'<path d="{marks}" stroke="{colour}" stroke-width="2" fill="none"/>'
    elif kind == "dots":
        inner = (
            f'<g fill="{colour}">'
            + "".join(
                f'<circle cx="{x:g}" cy="{y:g}" r="2"/>'
                for x in range(int(left), int(right), 10)
                for y in range(int(top), int(top + 2 * RADIUS) + 1, 10)
            )
            + "</g>"
        )
    else:
        size = f'width="{right - left:g}" height="{2 * RADIUS}"'
        inner = f'<rect x="{left:g}" y="{top:g}" {size} fill="{colour}" fill-opacity="0.3"/>'
    return (
        f'<clipPath id="{clip}">{circles}</clipPath>'
        f'<g clip-path="url(#{clip})" aria-hidden="true" data-pattern="{kind}">{inner}</g>'
    )


def _head(cx: float, cy: float) -> str:
    line = f'stroke="{INK}" stroke-width="2.5" fill="none" stroke-linecap="round"'
    return (
        '<g aria-hidden="true">'
        f'<path d="M{cx - 11:g},{cy - 33:g} q-7,-20 -18,-24 M{cx + 11:g},{cy - 33:g} q7,-20 18,-24" {line}/>'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS - 5}" fill="none" stroke="{INK}" stroke-width="2.5"/>'
        + "".join(
            f'<circle cx="{cx + dx:g}" cy="{cy - 8:g}" r="7" fill="{PAPER}" stroke="{INK}" stroke-width="1.5"/>'
            f'<circle cx="{cx + dx + 1:g}" cy="{cy - 7:g}" r="3" fill="{INK}"/>'
            for dx in (-12, 12)
        )
        + f'<path d="M{cx - 12:g},{cy + 12:g} q12,10 24,0" {line}/></g>'
    )


def _box(label: int | None, cx: float, cy: float, words: str) -> str:
    shown = "" if label is None else str(label)
    dash = ' stroke-dasharray="4 3"' if label is None else ""
    return (
        f'<g data-testid="paper-box"><title>{escape(words)}</title>'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS}" fill="none" stroke="{INK}" stroke-width="2.5"/>'
        f'<circle cx="{cx:g}" cy="{cy + 8:g}" r="{WRITE}" fill="{PAPER}" stroke="{INK}" stroke-width="1.5"/>'
        f'<g data-testid="paper-label" data-label="{shown}">'
        f'<rect x="{cx - 19:g}" y="{cy - RADIUS - 10:g}" width="38" height="27" rx="6" fill="{PAPER}" '
        f'stroke="{INK}" stroke-width="2"{dash}/>' + _words(cx, cy - RADIUS + 3.5, shown, 18, bold=True) + "</g></g>"
    )


def _writing_box(
    x: float, y: float, width: float, mark: str, *, dashed: bool = False, testid: str = "", title: str = ""
) -> str:
    dash = ' stroke-dasharray="6 3"' if dashed else ""
    tag = f' data-testid="{testid}"' if testid else ""
    return (
        f"<g{tag}>" + (f"<title>{escape(title)}</title>" if title else "") + ""
        f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="54" rx="8" fill="{PAPER}" stroke="{INK}" '
        f'stroke-width="2"{dash}/>' + _words(x + 8, y + 27, mark, 20, bold=True, anchor="start") + "</g>"
    )


def _track(y: float, bonus: bool) -> str:
    """The bottom line: the flying caterpillar's total (+ its bonus box) = the final score."""
    heading = _words(24, y + 24, text("lessons.paper.track"), 17, bold=True, anchor="start")
    parts = [
        f'<line x1="20" y1="{y:g}" x2="{WIDTH - 20}" y2="{y:g}" stroke="{INK}" stroke-width="1.5"/>',
        f'<g data-testid="paper-track">{heading}',
    ]
    boxes: list[tuple[float, float, str, str]] = [(24, 150, "=", text("lessons.paper.flying"))]
    if bonus:
        parts.append(_words(196, y + 77, "+", 28, bold=True))
        boxes.append((214, 150, "ABC", text("lessons.paper.bonus")))
    final_x = 404 if bonus else 214
    parts.append(_words(final_x - 18, y + 77, "=", 28, bold=True))
    boxes.append((final_x, 190, "", text("lessons.paper.final")))
    for x, width, mark, words in boxes:
        parts.append(_writing_box(x, y + 50, width, mark))
        parts.append(_words(x + width / 2, y + 116, words, 14))
    parts.append("</g>")
    return "".join(parts)


def paper_svg(state: State, *, uid: str = "p") -> str:
    """The printable scoresheet of ``state``'s level and labels, for a pen (no score of ``state`` drawn).

    ``uid`` keeps the ids of the bodies' outlines apart when several sheets share a page.

    >>> from caterpillar_learn.caterpillars.sheet import State
    >>> beginner = paper_svg(State.new("beginner", [1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1]), uid="a")
    >>> beginner.count('data-testid="paper-bonus"'), 'data-label="6"' in beginner, "cp-a-Bobby" in beginner
    (0, True, True)
    >>> paper_svg(State.new("beginner")).count('data-label=""')  # blanks: filled in by the setup rolls
    6
    """
    rules = state.level.rules
    height = TOP + ROW * len(CATERPILLARS) + TRACK + 22
    title = text("lessons.sheet.title", level=text("caterpillars.level." + state.level.value))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label="{escape(title)}" class="cl-paper-sheet" data-testid="paper-sheet" '
        f'font-family="system-ui, -apple-system, sans-serif">',
        f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>',
    ]
    for index, name in enumerate(CATERPILLARS):
        cy = TOP + ROW * index + ROW / 2 + 4
        out.append(f'<g data-testid="paper-caterpillar" data-caterpillar="{name}">')
        out.append(_body(name, cy, uid))
        out.append(_words(NAME_X, cy - 12, name, 21, bold=True))
        colour = text("lessons.colour." + name)
        out.append(_words(NAME_X, cy + 14, f"({colour})", 12))
        for box in range(BOXES):
            label = state.labels[BOXES * index + box]
            words = text(
                "lessons.aria.box",
                caterpillar=name,
                number=box + 1,
                label="…" if label is None else label,
                content=text("lessons.aria.empty"),
            )
            out.append(_box(label, SEGMENT_X[box], cy, words))
        out.append(_head(HEAD_X, cy))
        out.append(_writing_box(TOTAL_X - 44, cy - 27, 88, "=", testid="paper-total"))
        if rules.bonus_boxes:
            letter = BONUS_BOXES[index]
            words = text("lessons.sheet.bonus_box", box=letter)
            out.append(_writing_box(BONUS_X - 40, cy - 27, 80, letter, dashed=True, testid="paper-bonus", title=words))
        out.append("</g>")
    out.append(_track(TOP + ROW * len(CATERPILLARS) + 4, rules.bonus_boxes))
    out.append("</svg>")
    return "".join(out)
