"""The careless child and the German walk (issue 15), beside ``test_child_walk.py``, whose walk they take.

A careless child taps 40 random things first (it may press a speaker, or switch the voice off) and
still gets to the end of lessons 01 and 03; the Beginner lesson walks in German.  They live in a file
of their own so that pytest-xdist, which keeps each file on one worker, runs them beside the other
walks instead of after them.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .test_child_walk import walk_lesson

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", ["01-beginner", "03-advanced"])
def test_a_careless_child_gets_to_the_end_too(browser: Browser, lessons_server: Server, name: str) -> None:
    walk = walk_lesson(browser, lessons_server, name, seed=5, careless=40)
    assert sum(tap.startswith("careless") for tap in walk.taps) >= 30


def test_the_german_beginner_walk(browser: Browser, german_lessons_server: Server) -> None:
    def in_german(page: Page) -> None:
        expect(page.get_by_test_id("roll-button")).to_contain_text("Würfeln")
        expect(page.get_by_test_id("lesson-step")).to_have_text(re.compile(r"\w"))
        expect(page.locator(".cl-root").first).to_have_attribute("lang", "de")

    walk_lesson(browser, german_lessons_server, "01-beginner", seed=2, after=in_german)
