"""The words after a lost game (issue 40: at most 40 words in every state, a lost game's slip questions
included), for lessons 10 and 11, on a 1024×768 touch screen and at 1920×1080, in English and German.

The table is played in Python as a child would lose it: one card that does not fit (a slip), then a fitting
card only every six seconds while the bots, at their fastest, play their hands out (the table's clock moved by
the test, no real waiting).  Each state the page then shows is drawn by the real ES module in Chromium (a
stand-in for anywidget's model, as ``tests/ui/test_front_end.py`` does for the board) and its words on screen
are counted: the lost game's end, the slip's "Does it fit?", the same after a wrong answer, and after two
(the answer shown).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from caterpillar_learn.i18n import language
from caterpillar_learn.raupe import legal_plays
from caterpillar_learn.ui.raupe import RaupeWidget
from tests.raupe_ui.helpers import ready, slip
from tests.raupe_ui.test_table import state

from .conftest import screenshot
from .words import MOST_WORDS, assert_few_words

pytestmark = pytest.mark.browser

HARNESS = """
const traits = %s;
const listeners = {};
const model = { get: (n) => traits[n], set: () => {}, save_changes: () => {},
  on: (n, c) => { (listeners[n] = listeners[n] || []).push(c); }, off: () => {} };
window.pushTraits = (changed) => {
  for (const [n, v] of Object.entries(changed)) { traits[n] = v; for (const c of listeners["change:" + n] || []) c(); }
};
const url = URL.createObjectURL(new Blob([%s], { type: "text/javascript" }));
const widget = (await import(url)).default;
widget.render({ model, el: document.getElementById("host") });
"""


def traits(widget: RaupeWidget) -> dict[str, Any]:
    return {name: getattr(widget, name) for name in [*widget.view_names, "view_names"]}


def lost(lesson: str, lang: str) -> RaupeWidget:
    """A game of ``lesson`` lost by a child who slipped once and then played slowly."""
    with language(lang):
        widget = ready(lesson, seed=3)
        widget.act("start")
        slip(widget)
        widget.act("speed", value=2.5)  # the bots at their fastest
        for step in range(4000):  # a slow child: a fitting card every 6 s at most; the bots play their hands out
            if state(widget).finished:
                break
            widget.act("tick", dt=0.5)
            fitting = legal_plays(state(widget), 0)
            if step % 12 == 11 and fitting:
                play = fitting[0]
                if widget.hand[play.card]["side"] != play.side:
                    widget.act("flip", index=play.card)
                widget.act("play", index=play.card, seen=len(state(widget).pile), since=9.0)
        assert state(widget).finished and not widget.table["you_won"], "the bots did not win"
        return widget


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    size = request.param
    context = browser.new_context(viewport=size, has_touch=size["width"] < 1200)
    opened = context.new_page()
    opened.set_content(
        f'<!doctype html><html><head><style>{RaupeWidget.css()}</style></head><body><div id="host"></div></body></html>'
    )
    yield opened
    context.close()


TABLET = {"width": 1024, "height": 768}
SCREEN = {"width": 1920, "height": 1080}


@pytest.mark.parametrize("page", [TABLET, SCREEN], indirect=True, ids=["tablet", "screen"])
@pytest.mark.parametrize(("lesson", "lang"), [("10-raupe-shape", "de"), ("11-raupe-colour", "en")])
def test_a_lost_game_and_its_slip_questions_show_few_words(page: Page, lesson: str, lang: str) -> None:
    widget = lost(lesson, lang)
    page.evaluate("async () => {" + HARNESS % (json.dumps(traits(widget)), json.dumps(RaupeWidget.esm())) + "}")
    page.get_by_test_id("raupe-winner").wait_for()
    counts = [assert_few_words(page, f"at the lost game's end ({lesson}, {lang})")]
    with language(lang):
        widget.act("start")  # Play again: first the slip, as "Does this one fit?"
        asked = [traits(widget)]
        assert widget.question["kind"] == "slip", widget.question
        for wrong in ("yes", "yes"):  # two wrong answers: tried again, then the answer shown
            widget.act("answer", option=wrong)
            widget.act("check")
            asked.append(traits(widget))
    for shown in asked:
        page.evaluate("(t) => window.pushTraits(t)", shown)
        page.get_by_test_id("question").wait_for()
        counts.append(assert_few_words(page, f"at a slip question ({lesson}, {lang})"))
    screenshot(page, f"raupe-{lesson}-slip-question-{page.viewport_size['width'] if page.viewport_size else 0}")
    assert max(counts) <= MOST_WORDS and min(counts) > 0, counts
