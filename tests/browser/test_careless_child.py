"""The careless child (issue 15), beside ``test_child_walk.py``, whose walk it takes.

A careless child taps 40 random things first (it may press a speaker, or switch the voice off) and
still gets to the end of lessons 01 and 03.  (The Beginner lesson's walk in German is the German
practice walk's first part: ``test_practice_walk.py``.)  They live in a file of their own so that
pytest-xdist, which keeps each file on one worker, runs them beside the other walks instead of after
them.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import Server
from .test_child_walk import walk_lesson

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", ["01-beginner", "03-advanced"])
def test_a_careless_child_gets_to_the_end_too(browser: Browser, lessons_server: Server, name: str) -> None:
    walk = walk_lesson(browser, lessons_server, name, seed=5, careless=40)
    assert sum(tap.startswith("careless") for tap in walk.taps) >= 30
