"""The static sheet (``State._repr_svg_``): well-formed, complete, and readable
without colour."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.caterpillars import Game, State, score
from caterpillar_learn.caterpillars.svg import NARROW, SMALLEST_TEXT, WIDTH, Board, sheet_svg

NS = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [node.text or "" for node in root.iter() if node.tag in (f"{NS}text", f"{NS}title")]


def test_a_blank_sheet_shows_every_label_and_no_scoring() -> None:
    state = State.new("beginner")
    words = texts(state._repr_svg_())
    assert words.count("…") == 6  # the six blank labels
    for name in ("Alex", "Bobby", "Charlie"):
        assert name in words
        assert f"{name}, box 1, label {state.labels_of(name)[0] or '…'}, empty" in words
    assert not any("flies" in w or "struck out" in w for w in words)
    assert not any(w.startswith("Bonus box") for w in words)


def test_a_finished_advanced_sheet_names_the_flying_caterpillar_and_the_final() -> None:
    state = State("advanced", (1,) * 12, (3, 3, 4, 4, 1, 1, 1, 1, 6, 6, 6, 6), (5, None, None))
    words = texts(sheet_svg(state))
    result = score(state)
    assert "Alex flies!" in words
    assert "Bobby: struck out" in words and "Charlie: struck out" in words
    assert f"Final score: {result.final} (Alex took flight)" in words
    assert "= 14" in words and "= 24" in words
    assert [w for w in words if w.startswith("Bonus box")] == ["Bonus box A", "Bonus box B", "Bonus box C"]


def test_pattern_ids_differ_between_two_pictures_on_one_page() -> None:
    first, second = sheet_svg(State.new("beginner")), sheet_svg(State.new("beginner"))
    ids = lambda svg: {n.get("id") for n in ET.fromstring(svg).iter() if n.get("id")}  # noqa: E731
    assert ids(first) and not ids(first) & ids(second)


@settings(max_examples=25, deadline=None)
@given(
    level=st.sampled_from(["beginner", "intermediate", "advanced", "expert"]),
    seed=st.integers(0, 10_000),
    rounds=st.integers(0, 12),
)
def test_any_reachable_sheet_draws_as_well_formed_svg(level: str, seed: int, rounds: int) -> None:
    game = Game(level, seed=seed)
    while game.phase == "setup":
        game.play(game.legal_moves()[0])
    for _ in range(rounds):
        game.play(game.legal_moves()[-1])
    svg = game.state._repr_svg_()
    words = texts(svg)
    assert sum(w.startswith(("Alex, box", "Bobby, box", "Charlie, box")) for w in words) == 12
    assert ("flies!" in " ".join(words)) == (rounds == 12)


@pytest.mark.parametrize("size", [0.5, 1.0, 2.0])
@pytest.mark.parametrize(("level", "width"), [("beginner", NARROW), ("advanced", WIDTH)])
def test_size_scales_width(size: float, level: str, width: int) -> None:
    """The sheet's width at ``size``: the paper ends after the totals where a level has no bonus boxes."""
    root = ET.fromstring(sheet_svg(State.new(level), size=size))
    assert float(root.get("width") or 0) == pytest.approx(width * size)
    assert root.get("viewBox", "").split()[2] == str(width)


@pytest.mark.parametrize("level", ["beginner", "expert"])
def test_no_text_on_the_sheet_is_smaller_than_the_smallest_size(level: str) -> None:
    """A board drawn at 0.8 of its size or more shows no text under 16 px (caterpillars.css sizes it so)."""
    full = State(level, (1,) * 12, (2, 2, 2, 2, 1, 1, 1, 1, 6, 6, 6, 6), (3, 3, 3) if level == "expert" else None)
    root = ET.fromstring(sheet_svg(full, board=Board(legal=frozenset({0}), chosen=frozenset({1}))))
    sizes = [float(node.get("font-size") or 0) for node in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sizes and min(sizes) >= SMALLEST_TEXT >= 20, sorted(sizes)[:3]
