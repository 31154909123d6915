"""Card pictures: well-formed SVG, a distinct silhouette per shape, a second cue per colour."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

from caterpillar_learn.raupe import Colour, Shape, Side, standard_deck
from caterpillar_learn.raupe.hints import describe_side
from caterpillar_learn.raupe.svg import FILLS, PATTERNS, butterfly_svg, side_svg

NS = "{http://www.w3.org/2000/svg}"


def caterpillar_group(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    found = root.find(f".//{NS}g[@data-shape]")
    assert found is not None
    return found


def test_every_side_of_the_deck_is_well_formed_and_labelled_in_words() -> None:
    for card in standard_deck():
        for side in card.sides:
            root = ET.fromstring(side_svg(side, uid="t"))
            assert root.get("aria-label") == describe_side(side)
            assert root.get("role") == "img"
            assert (root.find(f".//{NS}g[@data-mark='aphid']") is not None) == side.aphid
            assert (root.find(f".//{NS}g[@data-mark='sky']") is not None) == side.sky
    assert ET.fromstring(butterfly_svg()).get("aria-label") == "a butterfly (joker)"


def test_shapes_have_different_silhouettes_not_just_colours() -> None:
    outlines = {}
    for shape in Shape:
        group = caterpillar_group(side_svg(Side(shape, Colour.RED, Shape.ROUND, Colour.GREEN)))
        outlines[shape] = sorted({child.tag for child in group})
    assert len({tuple(tags) for tags in outlines.values()}) == 3


def test_colours_differ_by_pattern_and_by_lightness() -> None:
    assert len(set(PATTERNS.values())) == 3

    def lightness(hex_colour: str) -> float:
        r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light = sorted(lightness(FILLS[colour]) for colour in Colour)
    assert all(b - a > 20 for a, b in itertools.pairwise(light))
    striped = side_svg(Side(Shape.ROUND, Colour.GREEN, Shape.ROUND, Colour.YELLOW), uid="x")
    dotted = side_svg(Side(Shape.ROUND, Colour.RED, Shape.ROUND, Colour.YELLOW), uid="x")
    assert "url(#x-stripes)" in striped and "url(#x-dots)" not in striped
    assert "url(#x-dots)" in dotted and "url(#x-stripes)" not in dotted


def test_words_are_on_the_card() -> None:
    picture = side_svg(Side(Shape.JAGGED, Colour.YELLOW, Shape.STRAIGHT, Colour.RED, aphid=True))
    texts = [node.text for node in ET.fromstring(picture).iter(f"{NS}text")]
    assert "jagged yellow" in texts and "on straight red" in texts and "aphid" in texts
