"""The child's walk on past the end of lesson 01 (issue 33): New game, a free game and the practice of its
costliest moves, following ``data-todo`` by touch in English and German, with the walk's checks at every wait
(one thing marked, in view, 44 px targets, speech by itself, few words); then the lesson list shows the
practice waiting, and a reload finds it.  Screenshots: ``artifacts/screenshots/practice-*.png``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from .conftest import SCREENSHOTS, Server
from .test_child_walk import walk_lesson

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_child_walks_on_through_the_practice(
    browser: Browser, lessons_server: Server, german_lessons_server: Server, lang: str
) -> None:
    server = german_lessons_server if lang == "de" else lessons_server

    def looked(page: Page) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"practice-end-{lang}.png"))

    seed = 1 if lang == "en" else 2  # the lesson walks' own seeds
    walk = walk_lesson(browser, server, "01-beginner", seed=seed, practice=True, shots=f"practice-{lang}", after=looked)
    assert "practice-next" in walk.taps or "new-game" in walk.taps[-1:]
