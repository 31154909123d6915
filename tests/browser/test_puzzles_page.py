"""A puzzle set in Chromium (issue 45): a notebook that opens ``CaterpillarsPuzzles`` is served with
``caterpillar-learn serve --lessons``; a child on a 1024 × 768 tablet taps only what is marked, through five
puzzles on "which die is the score", to the end's line, with the walk's checks at every wait (one thing marked, in
view, 44 px targets); the same set's first puzzle on a 1920 × 1080 screen in German.  The ratings are in the page's
``localStorage`` at the end.  Screenshots: ``artifacts/screenshots/puzzles-*.png``."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from caterpillar_learn.ui.caterpillars.puzzles import ratings_key

from .conftest import SCREENSHOTS, Server, serve_lessons
from .driver import RENDER_TIMEOUT, open_lesson
from .test_child_walk import shoot
from .walk import DESKTOP, TABLET, ChildWalk, child_context, open_touch_lesson

pytestmark = pytest.mark.browser

CELL = (
    "from caterpillar_learn.ui.caterpillars import CaterpillarsPuzzles\n"
    'CaterpillarsPuzzles("beginner", "score_die", size=5, lang={lang!r})'
)


def notebook(source: str) -> str:
    return json.dumps(
        {
            "cells": [{"cell_type": "code", "execution_count": None, "id": "set", "metadata": {}, "outputs": [],
                       "source": source}],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )  # fmt: skip


@pytest.fixture(scope="module")
def puzzles_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("puzzles")
    for lang in ("en", "de"):
        (folder / f"puzzles-{lang}.ipynb").write_text(notebook(CELL.format(lang=lang)), encoding="utf-8")
    yield from serve_lessons(tmp_path_factory, lessons=folder)


@pytest.mark.parametrize(("lang", "viewport"), [("en", TABLET), ("de", DESKTOP)], ids=["en-tablet", "de-big"])
def test_a_child_plays_a_puzzle_set_by_touch(
    browser: Browser, puzzles_server: Server, lang: str, viewport: dict[str, int]
) -> None:
    with child_context(browser, viewport) as context:
        page = open_touch_lesson(context, puzzles_server.url, f"puzzles-{lang}", open_lesson)
        expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("practice-count")).to_have_text(
            "Puzzle 1 of 5" if lang == "en" else "Rätsel 1 von 5"
        )

        def ended(walk: ChildWalk) -> bool:
            return walk.seen.get("testid") == "new-game"  # "More puzzles": the set is over

        walk = ChildWalk(page, random.Random(3), done=ended, shots=shoot(f"puzzles-{lang}"))
        if lang == "de":  # the German page's words are the point: its walk ends once the first puzzle is solved
            walk.done = lambda w: w.seen.get("testid") == "practice-next"
            walk.walk(max_taps=20)
            expect(page.get_by_test_id("practice-said")).to_contain_text(re.compile(r"^(Richtig|Ja)"))
            return
        walk.walk(max_taps=80)
        page.screenshot(path=str(SCREENSHOTS / f"puzzles-{lang}-end.png"))
        end = page.get_by_test_id("lesson-body")  # the line of joy: how many right at the first try, of 5
        expect(end).to_contain_text("5")
        expect(end).to_be_in_viewport(ratio=1)
        stored = page.evaluate("(key) => window.localStorage.getItem(key)", ratings_key("beginner"))
        assert stored and "score_die" in stored, stored
