"""The gallery's pictures: each lesson's own board, drawn small by the engines' own SVG renderers.

A Caterpillars lesson's picture is its scoresheet
(:func:`~caterpillar_learn.caterpillars.svg.sheet_svg`) after a few rounds
of the lesson's own game: the guided game's designed dice
(:func:`~caterpillar_learn.lessons.caterpillars.guided_game`), each die
written by a fixed rule (:func:`spread_move`), so the picture is the same on
every run.  A Räuber Raupe lesson's picture is its table as the learner
first sees it: the pile (with the card below where the table shows it) and
three cards of the learner's hand, dealt by the lesson's own table and seed
(:func:`~caterpillar_learn.raupe.svg.card_svg`); where the lesson teaches a
card (the change card, the butterfly, the aphid) that card is in the hand.

Every picture goes through :func:`sanitize` before a page sees it: only
drawing elements and presentation attributes are kept (no script, no event
handler, no link, no class, no test id), ids are renamed for the one picture
so that twelve pictures on a page never share one, and the root is one image
(``role="img"`` with an ``aria-label``).  A picture is made once per lesson
and language (the sheet and the cards carry words) and kept.

>>> picture = sheet_picture("01-beginner", "a sheet", rounds=2)
>>> picture.startswith("<svg") and 'role="img"' in picture and "data-testid" not in picture
True
>>> picture == sheet_picture("01-beginner", "a sheet", rounds=2)
True
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from caterpillar_learn.caterpillars import Game, Move, legal_moves
from caterpillar_learn.caterpillars.sheet import BOXES, ROUNDS, State
from caterpillar_learn.caterpillars.svg import sheet_svg
from caterpillar_learn.errors import describe
from caterpillar_learn.lessons.caterpillars import Lesson, get_lesson, guided_game
from caterpillar_learn.lessons.raupe import get_table
from caterpillar_learn.raupe import Game as RaupeGame
from caterpillar_learn.raupe.cards import Card, parse_mode
from caterpillar_learn.raupe.svg import CARD_HEIGHT, CARD_WIDTH, card_svg

__all__ = ["FEATURES", "sanitize", "sheet_picture", "spread_move", "table_picture"]

SVG_NS = "http://www.w3.org/2000/svg"
#: The elements a picture may hold: shapes, groups, patterns and text.  Anything else is dropped, inside and all.
ELEMENTS = frozenset(
    {"svg", "g", "defs", "pattern", "rect", "circle", "ellipse", "path", "line", "polyline", "polygon", "text", "tspan"}
)
#: The attributes a picture's elements may carry: geometry and paint.  (No ``on*``, ``href``, ``style``, ``class``.)
ATTRIBUTES = frozenset(
    {
        "viewBox", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width", "height", "d", "points",
        "transform", "fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray",
        "stroke-linecap", "opacity", "font-size", "font-weight", "font-family", "text-anchor", "dominant-baseline",
        "textLength", "lengthAdjust", "patternUnits", "patternTransform", "id",
    }
)  # fmt: skip
#: A paint that points at one of the picture's own patterns; no other ``url(...)`` is kept.
LOCAL_PAINT = re.compile(r"^url\(#([\w-]+)\)$")
#: Rounds of play a sheet picture shows when a lesson does not say (a few dice written, most boxes still empty).
ROUNDS_SHOWN = 3
#: Cards of the learner's hand a table picture shows.
HAND_SHOWN = 3
#: What a Räuber Raupe lesson teaches that its picture shows in the hand (``TablePicture.feature``).
FEATURES = ("", "change", "butterfly")
#: Space between two cards of the hand, and how far the card below the top of the pile peeks out.
GAP = 12
PEEK = 18


ET.register_namespace("", SVG_NS)  # the pictures are written with SVG as the default namespace, no prefix


class _Unsafe(ValueError):
    """A picture whose markup could not be read as SVG (a bug in a renderer, never a learner's input)."""


# -- the rule that writes the dice -------------------------------------------------------------------------------


def spread_move(state: State, moves: Sequence[Move]) -> Move:
    """The move a picture writes: into a bonus box if one is offered, never a 0 when a die fits, onto the
    caterpillar with the fewest boxes filled, then the highest score (so the dice spread over the sheet).

    >>> from caterpillar_learn.caterpillars import Roll, legal_moves
    >>> state = State.new("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
    >>> spread_move(state, list(legal_moves(state, Roll((2, 6)))))
    Bobby 1 ← 6
    """

    def filled(move: Move) -> int:
        start = move.slot // BOXES * BOXES
        return sum(value is not None for value in state.scores[start : start + BOXES])

    return max(moves, key=lambda move: (move.bonus is not None, not move.zero, -filled(move), move.score))


def sheet_picture(
    lesson: str | Lesson, label: str, *, rounds: int = ROUNDS_SHOWN, setup_rolls: int | None = None, uid: str = "p"
) -> str:
    """The sheet of ``lesson``'s own game (one of ours by name, or a teacher's :class:`Lesson`) after
    ``setup_rolls`` setup rolls (all by default) and ``rounds`` rounds, as a sanitized picture named ``label``.

    >>> blank = sheet_picture("00-setup", "a sheet", rounds=0, setup_rolls=1)
    >>> blank.count("…") > 0  # labels still blank
    True
    """
    if not 0 <= rounds <= ROUNDS:
        raise ValueError(describe("rounds", rounds, f"a whole number from 0 to {ROUNDS}"))
    game: Game = guided_game(get_lesson(lesson) if isinstance(lesson, str) else lesson)
    rolls = game.turns - ROUNDS if setup_rolls is None else setup_rolls
    for _ in range(rolls):
        if game.phase != "setup":
            break
        game.play(game.legal_moves()[0])  # the first choice, as the guided games fill the labels
    if game.phase == "play":
        for _ in range(rounds):
            game.play(spread_move(game.state, list(legal_moves(game.state, game.roll()))))
            if game.phase != "play":
                break
    return sanitize(sheet_svg(game.state), uid, label)


# -- a Räuber Raupe table --------------------------------------------------------------------------------------


def _hand(cards: Sequence[Card], fitting: dict[int, int], feature: str) -> list[tuple[Card, int]]:
    """Up to :data:`HAND_SHOWN` cards of a hand, each with the side shown: the card the lesson teaches
    first (``feature``), then cards that fit the pile (their fitting side up), then the others."""
    taught = [i for i, card in enumerate(cards) if (feature == "change" and card.is_change)]
    taught += [i for i, card in enumerate(cards) if feature == "butterfly" and card.is_butterfly][:1]
    taught += [i for i, card in enumerate(cards) if feature == "butterfly" and any(s.aphid for s in card.sides)][:1]
    order = [*taught[:HAND_SHOWN], *sorted(fitting), *range(len(cards))]
    chosen: list[int] = []
    for index in order:
        if index not in chosen and len(chosen) < HAND_SHOWN:
            chosen.append(index)
    return [(cards[i], fitting.get(i, _aphid_side(cards[i]) if feature == "butterfly" else 0)) for i in chosen]


def _aphid_side(card: Card) -> int:
    return next((side for side, face in enumerate(card.sides) if face.aphid), 0)


def table_picture(lesson: str, seed: int, label: str, *, feature: str = "", uid: str = "p") -> str:
    """The pile and three cards of the learner's hand at ``lesson``'s table, dealt with ``seed``, as a
    sanitized picture named ``label``.

    >>> picture = table_picture("12-raupe-change-card", 12, "a table", feature="change")
    >>> picture.count("<svg"), "change" in picture
    (5, True)
    """
    if feature not in FEATURES:
        raise ValueError(describe("feature", feature, "one of " + ", ".join(map(repr, FEATURES))))
    setup = get_table(lesson)
    game = RaupeGame(setup.players, seed, parse_mode(setup.mode), setup.deck())
    if setup.show_below:  # the table shows the card below the top: a bot has played once
        bot = game.legal_plays(1)
        if bot:
            option = bot[0]
            card = game.state.hands[1][option.card]
            game.play(1, card, option.side, time=1.0, aphid=game.state.aphid_owed, announce=None)
    fitting = {option.card: option.side for option in reversed(game.legal_plays(0))}
    hand = _hand(game.state.hands[0], fitting, feature)
    pile = [(placed.card, placed.side) for placed in game.state.pile[-2:]]
    if not setup.show_below:
        pile = pile[-1:]
    parts: list[str] = []
    top = len(pile) - 1
    for depth, (card, side) in enumerate(pile):  # the pile: the card below peeks out above and left of the top
        shift = PEEK * (depth - top)
        parts.append(_nested(card_svg(card, side, uid=f"{uid}pile{depth}"), PEEK * top + shift, PEEK + shift))
    x = CARD_WIDTH + PEEK * top + GAP * 3
    for index, (card, side) in enumerate(hand):
        parts.append(_nested(card_svg(card, side, uid=f"{uid}hand{index}"), x + index * (CARD_WIDTH + GAP), PEEK))
    width = x + len(hand) * (CARD_WIDTH + GAP) - GAP
    height = CARD_HEIGHT + PEEK
    return sanitize(f'<svg xmlns="{SVG_NS}" viewBox="0 0 {width} {height}">{"".join(parts)}</svg>', uid, label)


def _nested(card: str, x: float, y: float) -> str:
    """A card's own ``<svg>`` placed at (``x``, ``y``) inside a bigger picture."""
    return card.replace("<svg ", f'<svg x="{x:g}" y="{y:g}" width="{CARD_WIDTH}" height="{CARD_HEIGHT}" ', 1)


# -- sanitizing ------------------------------------------------------------------------------------------------


def sanitize(markup: str, uid: str, label: str) -> str:
    """``markup`` with only drawing elements and paint attributes, its ids renamed ``uid-0``, ``uid-1``, ...
    (and every ``url(#id)`` with them), its root one image named ``label``, without a fixed size.

    >>> sanitize('<svg xmlns="http://www.w3.org/2000/svg" width="9" onload="x()"><script>x()</script>'
    ...          '<rect fill="url(#a)" class="c" data-testid="t"/><pattern id="a"/></svg>', "q", 'A "sheet"')
    '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="A &quot;sheet&quot;"><rect fill="url(#q-0)" />\
<pattern id="q-0" /></svg>'
    >>> sanitize("<svg xmlns='http://www.w3.org/2000/svg'><rect fill='url(https://x.test/a)'/></svg>", "q", "a sheet")
    '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="a sheet"><rect /></svg>'
    """
    try:
        root = ET.fromstring(markup)
    except ET.ParseError as error:
        raise _Unsafe(describe("picture", markup[:40], f"SVG markup ({error})")) from None
    ids: dict[str, str] = {}
    for element in root.iter():
        found = element.get("id")
        if found is not None and found not in ids:
            ids[found] = f"{uid}-{len(ids)}"
    if root.tag != f"{{{SVG_NS}}}svg":
        raise _Unsafe(describe("picture", root.tag, "an <svg> root in the SVG namespace"))
    _clean(root, ids)
    for name in ("width", "height"):
        root.attrib.pop(name, None)
    root.attrib.update({"role": "img", "aria-label": label})
    return ET.tostring(root, encoding="unicode")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _clean(element: ET.Element, ids: dict[str, str]) -> None:
    for child in list(element):
        drawing = isinstance(child.tag, str) and child.tag.startswith(f"{{{SVG_NS}}}") and _local(child.tag) in ELEMENTS
        if not drawing:
            element.remove(child)
            continue
        _clean(child, ids)
    kept: dict[str, str] = {}
    for name, value in element.attrib.items():
        if name not in ATTRIBUTES:
            continue
        if name == "id":
            kept[name] = ids[value]
        elif "url(" in value:
            local = LOCAL_PAINT.match(value.strip())
            if local and local.group(1) in ids:
                kept[name] = f"url(#{ids[local.group(1)]})"
        else:
            kept[name] = value
    element.attrib.clear()
    element.attrib.update(kept)
