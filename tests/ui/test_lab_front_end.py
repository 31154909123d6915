"""The lab's ES module in Debian's Chromium, wired to the real Python widget (no Jupyter).

The page gets the stand-in model of ``test_front_end.py``: what the front end
writes is handed to the Python widget, and its traits go back to the page.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.i18n import text
from caterpillar_learn.ui.lab import LabWidget

from .test_front_end import HARNESS

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


class Lab:
    def __init__(self, page: Page, widget: LabWidget) -> None:
        self.page, self.widget = page, widget
        page.set_content(
            f"<!doctype html><html><head><style>{LabWidget.css()}</style></head>"
            "<body><div id='host'></div></body></html>"
        )
        page.evaluate("async () => {" + HARNESS % (json.dumps(self.traits()), json.dumps(LabWidget.esm())) + "}")

    def traits(self) -> dict[str, Any]:
        return {name: getattr(self.widget, name) for name in [*self.widget.view_names, "view_names", "handled"]}

    def sync(self) -> list[dict[str, Any]]:
        """The page's events, played, until it sends no more (one at a time: the next once ``handled`` says)."""
        played: list[dict[str, Any]] = []
        for _ in range(20):
            events: list[dict[str, Any]] = self.page.evaluate("() => window.events.splice(0)")
            for event in events:
                self.widget.event = event
            self.page.evaluate("(t) => window.pushTraits(t)", self.traits())
            played += events
            if not events:
                break
        return played


def test_choose_run_and_read_the_table_by_keyboard(page: Page) -> None:
    lab = Lab(page, LabWidget("beginner", games=40))
    games = page.get_by_label(text("lessons.lab.ui.games"))
    expect(page.get_by_label(text("lessons.lab.ui.level"))).to_have_value("beginner")
    expect(page.get_by_test_id("lab-strategy")).to_have_count(4)
    for name in ("random", "median"):
        page.get_by_label(text(f"lessons.lab.strategy.{name}")).uncheck()
    games.fill("5")  # below the bounds: the form refuses it, nothing is sent
    games.press("Enter")
    assert lab.sync() == []
    games.fill("30")
    games.press("Enter")  # Enter in the form runs
    (event,) = lab.sync()
    assert {k: event[k] for k in ("type", "level", "strategies", "games")} == {
        "type": "run",
        "level": "beginner",
        "strategies": ["greedy", "hint"],
        "games": 30,
    }
    result = page.get_by_test_id("lab-result")
    expect(result.locator("tbody tr")).to_have_count(2)
    expect(result.locator("tbody tr").first).to_contain_text("greedy")
    expect(result.locator("svg[role='img']")).to_have_count(1)
    expect(page.get_by_test_id("lab-status")).to_have_text(
        text("lessons.lab.ui.ready", games=30, level="Beginner", seed=1)
    )
    for line in lab.widget.lab["insights"]:
        expect(result).to_contain_text(line)
    page.get_by_test_id("lab-run").focus()
    page.keyboard.press("Enter")
    (again,) = lab.sync()
    assert again["games"] == 30 and again["seq"] != event["seq"]


RECORD_SCROLLS = """() => {
  window.scrolls = [];
  Element.prototype.scrollIntoView = function (options) { window.scrolls.push({ cls: this.className, options }); };
}"""


@pytest.mark.parametrize(("motion", "behavior"), [("reduce", "auto"), ("no-preference", "smooth")])
def test_run_scrolls_the_chart_into_view_smoothly_only_without_reduced_motion(
    page: Page, motion: str, behavior: str
) -> None:
    page.emulate_media(reduced_motion=motion)  # type: ignore[arg-type]
    lab = Lab(page, LabWidget("beginner", games=20, strategies=["greedy", "hint"], run=True))
    page.evaluate(RECORD_SCROLLS)
    lab.sync()  # the same traits again, nothing asked: no scroll
    assert page.evaluate("window.scrolls") == []
    page.get_by_test_id("lab-run").click()
    lab.sync()
    assert page.evaluate("window.scrolls") == [
        {"cls": "lab-picture", "options": {"block": "nearest", "inline": "nearest", "behavior": behavior}}
    ]
    lab.sync()  # once per run
    assert len(page.evaluate("window.scrolls")) == 1
