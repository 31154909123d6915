"""The scoresheet as SVG text: the one drawing of the sheet, for notebooks and widgets alike.

Pure string building: nothing here imports Jupyter, so a bare
:class:`~caterpillar_learn.caterpillars.sheet.State` draws itself in any
notebook (``State._repr_svg_``), in a terminal that saves files, or in a
test.  The lesson widgets show the very same picture: given a
:class:`Board` (which boxes are legal, which setup labels were just placed),
:func:`sheet_svg` also marks every box as a focusable button with its
``data-testid``, ``data-caterpillar`` and ``data-box``, which the ES module
(``widgets/caterpillars.js``) wires to clicks and keys.  Every element
carries presentation attributes (so the picture looks right on its own) and
a class (so the widget's CSS can theme it, dark mode included).

Colour is never the only cue: every caterpillar carries its name and its
own body pattern (plain, stripes, dots), legal boxes a star and a dashed
ring, and struck-out and flying caterpillars are written out in words.

>>> from caterpillar_learn.caterpillars.sheet import State
>>> picture = sheet_svg(State.new("advanced", [1, 2, 5, 6] * 3))
>>> picture.startswith("<svg") and "Bobby" in picture and "Bonus box B" in picture
True
>>> board = sheet_svg(State.new("beginner", [1, 2, 5, 6] * 3), board=Board(legal=frozenset({0, 5}), uid="t"))
>>> board.count('data-testid="legal-move"'), board.count('tabindex="0"')
(2, 12)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape

from caterpillar_learn.caterpillars.scoring import score
from caterpillar_learn.caterpillars.sheet import BONUS_BOXES, BOXES, CATERPILLARS, State
from caterpillar_learn.i18n import text

__all__ = ["BODY_COLOURS", "NARROW", "PATTERNS", "SMALLEST_TEXT", "WIDTH", "Board", "sheet_svg"]

#: Colour-blind-safe body colours (Okabe-Ito: bluish green, blue, reddish purple).
BODY_COLOURS = {"Alex": "#009E73", "Bobby": "#0072B2", "Charlie": "#AA4499"}
#: A second cue besides colour: each body has its own pattern.
PATTERNS = {"Alex": "plain", "Bobby": "stripes", "Charlie": "dots"}

#: The sheet's width with bonus boxes (Advanced, Expert), and without them: the paper ends after the totals.
WIDTH = 780
NARROW = 650
#: The smallest text on the sheet, in the sheet's own units: a board drawn at least 0.8 of its size shows no
#: text under 16 px (a tablet), and at 1.2 none under 24 px (a projector).
SMALLEST_TEXT = 20
ROW = 150
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
LEGAL = "#E69F00"
PENDING = "#fff3c4"

_ids = itertools.count()


@dataclass(frozen=True)
class Board:
    """What a playable sheet shows beyond the state: legal boxes, setup labels placed this roll."""

    #: Slots (0–11) that take a score now: a dashed ring and a star.
    legal: frozenset[int] = frozenset()
    #: Slot → label placed during this setup roll (drawn on a yellow tag).
    pending: Mapping[int, int] = field(default_factory=dict)
    #: Makes the pattern ids unique on a page that shows several sheets.
    uid: str = ""
    #: Slots that are options of a question ("Tap every box these dice can fill"), and those chosen.
    answers: frozenset[int] = frozenset()
    chosen: frozenset[int] = frozenset()
    #: Whether a full sheet shows its scoring (not while "Which caterpillar will fly?" waits).
    result: bool = True


def _text(x: float, y: float, content: object, size: int, cls: str = "cl-ink", **extra: str) -> str:
    attrs = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in extra.items())
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="middle" dominant-baseline="central" '
        f'fill="{INK}" class="{cls}"{attrs}>{escape(str(content))}</text>'
    )


def _bold(x: float, y: float, content: object, size: int, cls: str = "cl-ink") -> str:
    return _text(x, y, content, size, f"{cls} cl-bold", font_weight="bold")


def _defs(uid: str) -> str:
    parts = []
    for name, colour in BODY_COLOURS.items():
        inner = f'<rect width="12" height="12" fill="{colour}" class="cl-body-{name}"/>'
        if PATTERNS[name] == "stripes":
            inner += (
                '<path d="M-3,3 l6,-6 M0,12 l12,-12 M9,15 l6,-6" stroke="#ffffff" '
                'stroke-opacity="0.35" stroke-width="3" class="cl-pattern-line"/>'
            )
        elif PATTERNS[name] == "dots":
            inner += '<circle cx="6" cy="6" r="2.4" fill="#ffffff" fill-opacity="0.4" class="cl-pattern-dot"/>'
        parts.append(
            f'<pattern id="cl-{uid}-{name}" width="12" height="12" patternUnits="userSpaceOnUse">{inner}</pattern>'
        )
    return "<defs>" + "".join(parts) + "</defs>"


def _head(cx: float, cy: float, fill: str) -> str:
    line = f'stroke="{INK}" stroke-width="3" fill="none" stroke-linecap="round" class="cl-line"'
    return (
        '<g aria-hidden="true">'
        f'<path d="M{cx - 12:g},{cy - 34:g} q-8,-22 -20,-26 M{cx + 12:g},{cy - 34:g} q8,-22 20,-26" {line}/>'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS - 4}" fill="{fill}" stroke="{INK}" stroke-width="3" '
        'class="cl-outline"/>'
        + "".join(
            f'<circle cx="{cx + dx:g}" cy="{cy - 8:g}" r="7" fill="{PAPER}" class="cl-paper"/>' for dx in (-12, 12)
        )
        + "".join(f'<circle cx="{cx + dx:g}" cy="{cy - 7:g}" r="3" fill="{INK}" class="cl-pupil"/>' for dx in (-11, 13))
        + f'<path d="M{cx - 12:g},{cy + 12:g} q12,10 24,0" {line}/></g>'
    )


def _wings(cx: float, cy: float) -> str:
    return (
        '<g aria-hidden="true">'
        + "".join(
            f'<ellipse cx="{cx + dx:g}" cy="{cy - 30:g}" rx="20" ry="34" '
            f'transform="rotate({angle} {cx + dx:g} {cy - 30:g})" '
            f'fill="#F0E442" fill-opacity="0.9" stroke="{INK}" stroke-width="2" class="cl-wings"/>'
            for dx, angle in ((-30, -40), (30, 40))
        )
        + "</g>"
    )


def _box(state: State, slot: int, cy: float, fill: str, board: Board | None) -> str:
    name, box = CATERPILLARS[slot // BOXES], slot % BOXES
    cx = SEGMENT_X[box]
    label = board.pending.get(slot, state.labels[slot]) if board else state.labels[slot]
    value = state.scores[slot]
    words = text(
        "lessons.aria.box",
        caterpillar=name,
        number=box + 1,
        label="…" if label is None else label,
        content=text("lessons.aria.empty") if value is None else str(value),
    )
    legal = board is not None and slot in board.legal
    pending = board is not None and slot in board.pending
    answer = board is not None and slot in board.answers
    chosen = board is not None and slot in board.chosen
    if board is None:
        parts = [f"<g><title>{escape(words)}</title>"]
    else:
        if legal:
            words += ", " + text("lessons.ui.legal_word")
        pressed = f' aria-pressed="{str(chosen).lower()}"' if answer else ""
        kind = " cl-legal" if legal else " cl-answer" if answer else ""
        inner = "legal-move" if legal else "answer" if answer else ""
        parts = [
            f'<g data-testid="box-{name}-{box}" class="cl-box{kind}{" cl-chosen" if chosen else ""}" tabindex="0" '
            f'role="button" aria-label="{escape(words)}"{pressed} data-caterpillar="{name}" data-box="{box}">',
            f'<g data-testid="{inner}">' if inner else "<g>",
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS + 7}" fill="none" stroke="none" class="cl-focus-ring"/>',
        ]
    parts += [
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS}" fill="{fill}" stroke="{INK}" stroke-width="3" '
        'class="cl-outline cl-seg"/>',
        f'<circle cx="{cx:g}" cy="{cy + 6:g}" r="{RADIUS - 14}" fill="{EMPTY if value is None else PAPER}" '
        f'stroke="{INK}" stroke-width="1.5" class="cl-hole{" cl-empty" if value is None else ""}"/>',
    ]
    if legal:
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS + 3}" fill="none" stroke="{LEGAL}" stroke-width="7" '
            'stroke-dasharray="10 5" class="cl-legal-ring"/>'
        )
    parts += [
        f'<rect x="{cx - 20:g}" y="{cy - RADIUS - 11:g}" width="40" height="28" rx="6" '
        f'fill="{PENDING if pending else PAPER}" stroke="{INK}" stroke-width="2" '
        f'class="cl-tag{" cl-pending" if pending else ""}"/>',
        _bold(cx, cy - RADIUS + 3, "…" if label is None else label, 20),
    ]
    if value is not None:
        if value == 0:  # a crossed-out box: the cross sits behind its 0
            parts.append(
                f'<path d="M{cx - 16:g},{cy - 10:g} l32,32 M{cx + 16:g},{cy - 10:g} l-32,32" '
                f'stroke="{INK}" stroke-width="2" stroke-opacity="0.3" class="cl-cross"/>'
            )
        # The space keeps the label and the score two words in the box's visible text ("1 3", not "13"),
        # as they are in its aria-label (WCAG 2.5.3, label in name).
        parts.append(" " + _bold(cx, cy + 6, value, 28))
    if legal:
        parts.append(_text(cx + RADIUS - 6, cy + RADIUS - 8, "★", 30, "cl-star", fill_opacity="1"))
    if chosen:  # a question's chosen box: a solid ring and a tick (not colour alone)
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS + 3}" fill="none" stroke="{INK}" stroke-width="6" '
            'class="cl-chosen-ring"/>'
        )
        parts.append(_bold(cx + RADIUS - 6, cy + RADIUS - 8, "✓", 28, "cl-tick"))
    parts.append("</g></g>" if board is not None else "</g>")
    return "".join(parts)


def sheet_svg(state: State, *, size: float = 1.0, board: Board | None = None) -> str:
    """The whole sheet: three caterpillars, totals, bonus boxes and, when full, the scoring.

    Without ``board`` a picture (``role="img"``, a ``<title>`` per box); with
    it, a playable sheet (``role="group"``, each box a focusable button).

    >>> from caterpillar_learn.caterpillars.sheet import State
    >>> full = State("beginner", (1,) * 12, (2, 2, 2, 2, 1, 1, 1, 1, 6, 6, 6, 6))
    >>> picture = sheet_svg(full)
    >>> "Alex flies" in picture, picture.count("struck out")
    (True, 2)
    """
    uid = board.uid if board is not None and board.uid else str(next(_ids))
    result = score(state) if state.is_complete and (board is None or board.result) else None
    # A board (a widget) says the final score in its own panel: its sheet keeps one height from the first
    # round to the flight; a picture on its own (a notebook, a print) writes the final line below.
    final_line = result is not None and board is None
    height = TOP + ROW * len(CATERPILLARS) + (70 if final_line else 30)
    width = WIDTH if state.level.rules.bonus_boxes else NARROW
    level = text("caterpillars.level." + state.level.value)
    title = escape(text("lessons.sheet.title", level=level))
    role = 'role="img"'
    if board is not None:
        role = f'role="group" aria-label="{escape(text("lessons.ui.sheet_label"))}" tabindex="-1"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width * size:g}" height="{height * size:g}" {role} class="cl-sheet" data-testid="sheet" '
        f'font-family="system-ui, sans-serif">',
        "" if board else f"<title>{title}</title>",
        _defs(uid),
        f'<rect width="{width}" height="{height}" fill="{PAPER}" rx="12" class="cl-sheet-paper"/>',
    ]
    for index, name in enumerate(CATERPILLARS):
        cy = TOP + ROW * index + ROW / 2 + 10
        fill = f"url(#cl-{uid}-{name})"
        flying = result is not None and result.flying == name
        struck = result is not None and not flying
        row = "cl-row cl-struck" if struck else "cl-row cl-flies" if flying else "cl-row"
        faded = ' opacity="0.55"' if struck else ""
        out.append(f'<g{faded} class="{row}" data-caterpillar="{name}">')
        if flying:
            out.append(_wings(HEAD_X, cy))
        # The name alone: colour and pattern show themselves, and a word under the head crowded it (German ran
        # under the head).  The printed sheet (paper.py) still names the colour for a black-and-white printer.
        out.append(_bold(NAME_X - 6, cy, name, 22))
        # Boxes in slot order, so the first legal-move in the page is the engine's first move.
        out.extend(_box(state, BOXES * index + box, cy, fill, board) for box in range(BOXES))
        out.append(_head(HEAD_X, cy, fill))
        out.append(
            f'<rect x="{TOTAL_X - 40}" y="{cy - 26:g}" width="80" height="52" rx="8" fill="{PAPER}" '
            f'stroke="{INK}" stroke-width="2" class="cl-tag"/>'
        )
        out.append(_bold(TOTAL_X, cy, f"= {state.totals[index]}", 28, "cl-on-paper cl-total"))
        if state.level.rules.bonus_boxes:
            value, letter = state.bonus[index], BONUS_BOXES[index]
            words = escape(text("lessons.sheet.bonus_box", box=letter))
            shown = "…" if value is None else value
            out.append(
                f'<g role="img" aria-label="{words}: {shown}" data-testid="bonus-{letter}"><title>{words}</title>'
                f'<rect x="{BONUS_X - 34}" y="{cy - 26:g}" width="68" height="52" rx="8" fill="{EMPTY}" '
                f'stroke="{INK}" stroke-width="2" stroke-dasharray="6 3" class="cl-bonus"/>'
                + _text(BONUS_X - 18, cy, letter, SMALLEST_TEXT, "cl-on-paper")
                + _bold(BONUS_X + 10, cy, shown, 24, "cl-on-paper")
                + "</g>"
            )
        if flying:
            out.append(_bold(HEAD_X, cy + RADIUS + 6, text("lessons.sheet.flies", name=name), SMALLEST_TEXT))
        elif struck:
            out.append(
                f'<line x1="{HEAD_X - 45}" y1="{cy:g}" x2="{SEGMENT_X[-1] + 45}" y2="{cy:g}" stroke="{INK}" '
                f'stroke-width="6" stroke-linecap="round" class="cl-strike"/>'
            )
            if final_line:  # on a board the line says it (and the row's name for a screen reader): fewer words
                out.append(_bold(HEAD_X, cy + RADIUS + 6, text("lessons.sheet.struck", name=name), SMALLEST_TEXT))
        out.append("</g>")
    if result is not None and final_line:
        line = text("lessons.sheet.final", final=result.final, flying=result.flying)
        out.append(_bold(width / 2, TOP + ROW * len(CATERPILLARS) + 30, line, 24))
    out.append("</svg>")
    return "".join(out)
