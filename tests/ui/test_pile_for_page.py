"""The card under the pile's top, sent once: a Panel page is sent its key, and draws the picture it holds.

Lesson 15's race shows the card under the top.  Each bots' move made it the
top the page had just been sent, and sent its picture again beside the new
top's: most of a move's bytes (issue 46).  Here the real component
(:class:`~caterpillar_learn.ui.hosting.component.LearnComponent`) sends what
it would send to a classroom page, and the real ES module, in Chromium with
a stand-in for the model, draws it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from caterpillar_learn.ui.hosting.component import LearnComponent
from caterpillar_learn.ui.raupe import RaupeWidget
from caterpillar_learn.ui.raupe.views import for_a_page_holding
from tests.raupe_ui.helpers import ready
from tests.ui.test_front_end import HARNESS


class Table(LearnComponent):
    widget_class = RaupeWidget


def sent(component: Table) -> dict[str, Any]:
    """The component's parameters as the page is sent them."""
    return {name: getattr(component, name) for name in [*component.widget.view_names, "view_names", "handled"]}


def moves(widget: RaupeWidget, component: Table) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """Each change of a started race's table: (the table the page held, the widget's, the one the page is sent)."""
    widget.act("start")
    for _ in range(400):
        if widget.session.game.state.finished:
            return
        held = component.table
        widget.act("tick", dt=0.25)
        component.pull()
        if component.table is not held:
            yield held, widget.table, component.table


def test_the_component_sends_the_card_below_as_its_key_once_the_page_holds_it() -> None:
    widget = ready("15-raupe-race", seed=3)
    component = Table(widget)
    slimmed = 0
    for held, whole, page in moves(widget, component):
        assert {**page["pile"], "below": whole["pile"]["below"]} == whole["pile"]  # only the picture is left out
        if page["pile"]["below"] != whole["pile"]["below"]:
            assert whole["pile"]["below_key"] == held["pile"]["key"], "left out, though the page holds another top"
            slimmed += 1
    assert slimmed >= 10, f"{slimmed} moves sent without the picture below"


def test_a_page_that_wrote_the_table_is_sent_it_whole_again() -> None:
    widget = ready("15-raupe-race", seed=3)
    component = Table(widget)
    next(whole for _, whole, page in moves(widget, component) if page["pile"]["below"] != whole["pile"]["below"])
    component._process_events({"table": {"pile": {"key": "forged"}}})  # a page wrote the view: put back, whole
    assert component.table["pile"]["below"] == widget.table["pile"]["below"] != ""


def test_a_table_with_nothing_below_or_another_top_held_goes_whole() -> None:
    widget = ready("15-raupe-race", seed=3)
    table = dict(widget.table)
    assert for_a_page_holding(None, table) is table
    assert for_a_page_holding({"pile": {"key": "en:butterfly-of-another-deal"}}, table) is table


@pytest.mark.browser
def test_the_page_draws_the_card_below_from_the_top_it_holds(browser: Browser) -> None:
    widget = ready("15-raupe-race", seed=3)
    component = Table(widget)
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page: Page = context.new_page()
    try:
        page.set_content(
            f"<!doctype html><html><head><style>{RaupeWidget.css()}</style></head>"
            '<body><div id="host"></div></body></html>'
        )
        page.evaluate("async () => {" + HARNESS % (json.dumps(sent(component)), json.dumps(RaupeWidget.esm())) + "}")
        page.get_by_test_id("raupe-pile").wait_for()
        drawn = 0
        for _, whole, _ in moves(widget, component):
            page.evaluate("(t) => window.pushTraits(t)", sent(component))
            if not whole["pile"]["below"]:
                continue
            # The picture under the top is the one the widget drew, whether it came whole or by its key.
            below = page.get_by_test_id("raupe-below")
            assert below.is_visible()
            assert below.evaluate("(node) => node.querySelector('svg').outerHTML") == page.evaluate(
                "(svg) => { const box = document.createElement('span'); box.innerHTML = svg;"
                " return box.querySelector('svg').outerHTML; }",
                whole["pile"]["below"],
            )
            drawn += component.table["pile"]["below"] == ""
            if drawn >= 5:
                break
        assert drawn >= 5, f"{drawn} pictures below drawn from the page's own"
    finally:
        context.close()
