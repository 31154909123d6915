"""Pictures of Räuber Raupe cards, as SVG text.

Pure string building: nothing here imports Jupyter, so a widget, a notebook
or a test can draw a card side.  Colour is never the only cue, because the
game's colours are green and red (the pair most colour-blind people confuse):

* each caterpillar shape has its own silhouette: a zigzag body (jagged), a
  row of square segments (straight), a curled ring of round segments (round);
* each leaf shape has its own outline: toothed (jagged), a six-sided plate
  with straight edges (straight), a disc (round);
* each colour has its own pattern on top of its fill: stripes for green,
  dots for red, none for yellow (which is also far lighter than the others);
* the words ("round red / on jagged green") are written on the card, and the
  aphid and the blue sky are drawn as a bug and as clouds with their names.

>>> from caterpillar_learn.raupe.cards import parse_side
>>> picture = side_svg(parse_side("round-red@jagged-green+aphid"))
>>> picture.startswith("<svg") and 'data-shape="round"' in picture and "aphid" in picture
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from html import escape

from caterpillar_learn.i18n import current_language, text
from caterpillar_learn.raupe.cards import Card, Colour, Shape, Side

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "FILLS", "PATTERNS", "butterfly_svg", "card_svg", "printed_words", "side_svg"]

CARD_WIDTH = 100
CARD_HEIGHT = 150
INK = "#1a1a1a"
PAPER = "#fffdf6"
SKY = "#8ecbff"
#: Fills chosen to differ in lightness too (dark green, mid red, light yellow).
FILLS = {Colour.GREEN: "#1e8c3a", Colour.RED: "#d33a2c", Colour.YELLOW: "#f7d84a"}
#: The second cue for each colour, drawn over the fill.
PATTERNS = {Colour.GREEN: "stripes", Colour.RED: "dots", Colour.YELLOW: "plain"}
LEAF_CENTRE = (50.0, 70.0)
BODY_Y = 72.0


def _points(coords: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)


def _defs(uid: str) -> str:
    """One stripes and one dots pattern (white over any fill), named per picture."""
    return (
        "<defs>"
        f'<pattern id="{uid}-stripes" width="6" height="6" patternUnits="userSpaceOnUse"'
        ' patternTransform="rotate(45)">'
        '<rect width="2.6" height="6" fill="#ffffff" fill-opacity="0.55"/></pattern>'
        f'<pattern id="{uid}-dots" width="7" height="7" patternUnits="userSpaceOnUse">'
        '<circle cx="3.5" cy="3.5" r="1.7" fill="#ffffff" fill-opacity="0.7"/></pattern>'
        "</defs>"
    )


def _painted(shape_svg: str, colour: Colour, uid: str, width: float = 2.0) -> str:
    """``shape_svg`` (one element with ``{fill}``, ``{stroke}``, ``{sw}`` slots) in ``colour``, then its pattern."""
    layers = [shape_svg.format(fill=FILLS[colour], stroke=INK, sw=width)]
    pattern = PATTERNS[colour]
    if pattern != "plain":
        layers.append(shape_svg.format(fill=f"url(#{uid}-{pattern})", stroke="none", sw=0))
    return "".join(layers)


def _leaf(shape: Shape) -> str:
    cx, cy = LEAF_CENTRE
    if shape is Shape.ROUND:
        return f'<circle cx="{cx}" cy="{cy}" r="32" fill="{{fill}}" stroke="{{stroke}}" stroke-width="{{sw}}"/>'
    if shape is Shape.STRAIGHT:
        corners = [
            (cx, cy - 37),
            (cx + 32, cy - 17),
            (cx + 32, cy + 17),
            (cx, cy + 37),
            (cx - 32, cy + 17),
            (cx - 32, cy - 17),
        ]
    else:  # jagged: a leaf with sharp teeth all round
        teeth = 14
        corners = [
            (
                cx + (36 if k % 2 == 0 else 25) * math.sin(math.pi * k / teeth),
                cy - (38 if k % 2 == 0 else 27) * math.cos(math.pi * k / teeth),
            )
            for k in range(2 * teeth)
        ]
    return f'<polygon points="{_points(corners)}" fill="{{fill}}" stroke="{{stroke}}" stroke-width="{{sw}}"/>'


def _caterpillar(shape: Shape, colour: Colour, uid: str) -> str:
    """The caterpillar's silhouette: zigzag, straight row of squares, or a curl of circles."""
    parts: list[str] = []
    if shape is Shape.STRAIGHT:
        for k in range(5):
            x = 18 + 11.5 * k
            parts.append(
                f'<rect x="{x:.1f}" y="{BODY_Y - 6:.1f}" width="12" height="12" rx="1.5"'
                ' fill="{fill}" stroke="{stroke}" stroke-width="{sw}"/>'
            )
        head = (80.0, BODY_Y)
    elif shape is Shape.ROUND:
        for k in range(7):
            angle = math.radians(200 - 40 * k)
            x, y = 50 + 17 * math.cos(angle), BODY_Y - 17 * math.sin(angle)
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="{{fill}}" stroke="{{stroke}}" stroke-width="{{sw}}"/>'
            )
        angle = math.radians(200 - 40 * 7)
        head = (50 + 17 * math.cos(angle), BODY_Y - 17 * math.sin(angle))
    else:  # jagged: a zigzag body with spikes
        zigzag = [(16 + 10 * k, BODY_Y + (7 if k % 2 else -7)) for k in range(7)]
        outline = zigzag + [(x, y + 9) for x, y in reversed(zigzag)]
        parts.append(
            f'<polygon points="{_points(outline)}" fill="{{fill}}" stroke="{{stroke}}"'
            ' stroke-width="{sw}" stroke-linejoin="miter"/>'
        )
        head = (82.0, BODY_Y + 2)
    # A white halo under the outline keeps the caterpillar apart from its leaf.
    halo = "".join(part.format(fill="#ffffff", stroke="#ffffff", sw=7) for part in parts)
    body = halo + "".join(_painted(part, colour, uid) for part in parts)
    hx, hy = head
    face = (
        f'<circle cx="{hx:.1f}" cy="{hy:.1f}" r="10" fill="#ffffff"/>'
        f'<circle cx="{hx:.1f}" cy="{hy:.1f}" r="8" fill="{FILLS[colour]}" stroke="{INK}" stroke-width="2"/>'
        f'<circle cx="{hx + 2:.1f}" cy="{hy - 2:.1f}" r="2.6" fill="#ffffff" stroke="{INK}" stroke-width="0.8"/>'
        f'<circle cx="{hx + 2.6:.1f}" cy="{hy - 2:.1f}" r="1.2" fill="{INK}"/>'
    )
    return f'<g data-shape="{shape.value}" data-colour="{colour.value}">{body}{face}</g>'


def _aphid() -> str:
    """A small bug in a white disc at the top right, with its name under it."""
    legs = "".join(
        f'<line x1="{84 + dx}" y1="16" x2="{84 + 2 * dx}" y2="{16 + dy}" stroke="{INK}" stroke-width="1.4"/>'
        for dx in (-4, 4)
        for dy in (-5, 0, 5)
    )
    return (
        '<g data-mark="aphid">'
        f'<circle cx="84" cy="16" r="12" fill="#ffffff" stroke="{INK}" stroke-width="2"/>{legs}'
        f'<ellipse cx="84" cy="16" rx="5" ry="7" fill="#7ac943" stroke="{INK}" stroke-width="1.6"/>'
        f'<circle cx="84" cy="8.5" r="2.6" fill="{INK}"/>'
        f"{_caption(text('raupe_lessons.svg.aphid'), 97, 38, 9, anchor='end', room=44)}</g>"
    )


def _sky() -> str:
    """The change card's blue sky: a blue band with clouds and the word "change"."""
    clouds = "".join(
        f'<ellipse cx="{x}" cy="{y}" rx="{rx}" ry="5" fill="#ffffff" stroke="{INK}" stroke-width="0.8"/>'
        for x, y, rx in ((16, 27, 10), (26, 24, 8), (66, 26, 8))
    )
    return (
        f'<g data-mark="sky"><rect x="2" y="2" width="96" height="104" rx="8" fill="{SKY}"/>{clouds}'
        f'<text x="7" y="15" font-size="11" font-weight="700" fill="{INK}">'
        f"⇄ {escape(text('raupe_lessons.svg.change'))}</text></g>"
    )


#: A caption's width per character and font pixel (a generous guess for system-ui; wide letters in German).
CHAR_WIDTH = 0.6


def _caption(
    words: str, x: float, y: float, size: float, *, bold: bool = False, anchor: str = "middle", room: float = 92
) -> str:
    """One line of words on a card, squeezed to ``room`` units when it would be wider (never clipped).

    >>> "textLength" in _caption("Blattlaus", 97, 38, 9, anchor="end", room=44)
    True
    >>> "textLength" in _caption("round red", 50, 124, 12)
    False
    """
    squeeze = f' textLength="{room}" lengthAdjust="spacingAndGlyphs"' if len(words) * size * CHAR_WIDTH > room else ""
    weight = ' font-weight="700"' if bold else ""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}"{weight} text-anchor="{anchor}"{squeeze}'
        f' fill="{INK}">{escape(words)}</text>'
    )


def _frame(uid: str, label: str, body: str, width: int | None) -> str:
    size = f' width="{width}" height="{width * CARD_HEIGHT // CARD_WIDTH}"' if width else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CARD_WIDTH} {CARD_HEIGHT}"{size}'
        f' role="img" aria-label="{escape(label)}" class="raupe-side"'
        " font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\">"
        f"<title>{escape(label)}</title>{_defs(uid)}"
        f'<rect x="1" y="1" width="98" height="148" rx="9" fill="{PAPER}" stroke="{INK}" stroke-width="2"/>'
        f"{body}</svg>"
    )


def _lines(side: Side) -> list[str]:
    """The two lines of words at the bottom of a side: its caterpillar, and the leaf it sits on."""
    from caterpillar_learn.raupe.hints import trait_name

    return [
        text("raupe_lessons.svg.caterpillar", shape=trait_name(side.shape.value), colour=trait_name(side.colour.value)),
        text(
            "raupe_lessons.svg.leaf", shape=trait_name(side.leaf_shape.value), colour=trait_name(side.leaf_colour.value)
        ),
    ]


def printed_words(side: Side | None) -> str:
    """Every word a side shows, in the order a reader meets them (the card's name starts with these).

    >>> from caterpillar_learn.raupe.cards import parse_side
    >>> printed_words(parse_side("straight-yellow@round-red+sky+aphid"))
    'change aphid straight yellow on round red'
    >>> printed_words(None)
    'butterfly joker: fits all'
    """
    return _printed_words(side, current_language())


@lru_cache(maxsize=1024)
def _printed_words(side: Side | None, lang: str) -> str:
    if side is None:
        return f"{text('raupe_lessons.svg.butterfly')} {text('raupe_lessons.svg.joker')}"
    marks = [text("raupe_lessons.svg.change")] if side.sky else []  # drawn first: the sky, then the aphid
    marks += [text("raupe_lessons.svg.aphid")] if side.aphid else []
    return " ".join([*marks, *_lines(side)])


def side_svg(side: Side, *, uid: str = "rr", width: int | None = None) -> str:
    """One card side: leaf, caterpillar, marks and the words at the bottom.

    ``uid`` names the patterns, so several pictures on one page stay apart;
    ``width`` fixes the size in pixels (otherwise the picture fills its box).

    >>> from caterpillar_learn.raupe.cards import parse_side
    >>> picture = side_svg(parse_side("straight-yellow@round-red+sky"), uid="p1", width=120)
    >>> 'height="180"' in picture, 'data-mark="sky"' in picture, "url(#p1-dots)" in picture
    (True, True, True)
    """
    from caterpillar_learn.raupe.hints import describe_side  # the one wording of a side

    body = [_sky()] if side.sky else []
    body.append(_painted(_leaf(side.leaf_shape), side.leaf_colour, uid))
    body.append(f'<g data-leaf="{side.leaf_shape.value}-{side.leaf_colour.value}"></g>')
    body.append(_caterpillar(side.shape, side.colour, uid))
    if side.aphid:
        body.append(_aphid())
    words = _lines(side)
    body.append(
        # A space first, so that a mark's word drawn before ("aphid") stays a word of its own when read.
        f" {_caption(words[0], 50, 124, 12 if len(words[0]) <= 13 else 10.5, bold=True)}"
        # The space keeps the two lines apart in the card's text ("red on", not "redon"), as a reader hears them.
        f" {_caption(words[1], 50, 140, 10.5)}"
    )
    return _frame(uid, describe_side(side), "".join(body), width)


def butterfly_svg(*, uid: str = "rr", width: int | None = None) -> str:
    """The butterfly, the joker: wings with both patterns, and its name.

    >>> "joker" in butterfly_svg()
    True
    """
    wings = "".join(
        _painted(
            f'<ellipse cx="{50 + dx}" cy="{y}" rx="{rx}" ry="{ry}" fill="{{fill}}" stroke="{{stroke}}"'
            f' stroke-width="2" transform="rotate({angle} {50 + dx} {y})"/>',
            colour,
            uid,
        )
        for dx, y, rx, ry, angle, colour in (
            (-20, 45, 20, 26, -25, Colour.RED),
            (20, 45, 20, 26, 25, Colour.RED),
            (-16, 84, 14, 18, 20, Colour.YELLOW),
            (16, 84, 14, 18, -20, Colour.YELLOW),
        )
    )
    body = (
        f'<g data-mark="butterfly">{wings}'
        f'<rect x="46" y="32" width="8" height="66" rx="4" fill="{INK}"/>'
        f'<path d="M48 33 Q40 18 34 16 M52 33 Q60 18 66 16" stroke="{INK}" stroke-width="2" fill="none"/></g>'
        f"{_caption(text('raupe_lessons.svg.butterfly'), 50, 124, 12, bold=True)}"
        f" {_caption(text('raupe_lessons.svg.joker'), 50, 140, 10.5)}"
    )
    return _frame(uid, text("raupe_lessons.card.butterfly"), body, width)


def card_svg(card: Card, side: int = 0, *, uid: str = "rr", width: int | None = None) -> str:
    """The face of ``card`` with ``side`` up (a butterfly has only one face), in the current language.

    A hand is drawn again after every bots' move, and its cards seldom change: each face is drawn once per
    language (issue 46: a lesson room of 30 idle pupils spent most of its CPU drawing the same cards again).

    >>> from caterpillar_learn.raupe.cards import BUTTERFLY
    >>> card_svg(BUTTERFLY) == butterfly_svg()
    True
    """
    return _card_svg(card, side, uid, width, current_language())


@lru_cache(maxsize=4096)
def _card_svg(card: Card, side: int, uid: str, width: int | None, lang: str) -> str:
    if card.is_butterfly:
        return butterfly_svg(uid=uid, width=width)
    return side_svg(card.sides[side], uid=uid, width=width)
