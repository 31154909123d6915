"""The strategy lab in Voila: lesson 05 served by ``caterpillar-learn serve``, run with fewer games.

On a classroom projector (1920x1080) the chart after Run is in the window, its axes are titled, every
strategy's mean is a line labelled with its value, its smallest number is at least 16 px, and the chart,
the table and the sentences write each mean alike (one rounding, ``one_decimal``); in German too, with no
word over a number.  Screenshots: ``artifacts/screenshots/lab-chart-*.png``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.i18n import language, text

from .conftest import SCREENSHOTS, Server, screenshot
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, open_lesson

pytestmark = pytest.mark.browser

GAMES = 20


def test_the_lab_runs_in_voila_with_the_chosen_number_of_games(page: Page, lessons_server: Server) -> None:
    page.goto(lessons_server.url)
    lesson = open_lesson(page, "05-strategy-lab")
    try:
        run = lesson.get_by_test_id("lab-run")
        expect(run).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(lesson.get_by_test_id("lab-strategy")).to_have_count(4)
        expect(lesson.get_by_test_id("lab-strategy").last).to_be_checked()  # best play is in by default
        lesson.get_by_test_id("lab-games").fill(str(GAMES))
        run.click()
        rows = lesson.get_by_test_id("lab-result").locator("tbody tr")
        expect(rows).to_have_count(4, timeout=RENDER_TIMEOUT)
        for index in range(4):
            expect(rows.nth(index).locator("td").first).to_have_text(str(GAMES))
        expect(lesson.get_by_test_id("lab-status")).to_contain_text(f"{GAMES} games per strategy")
        expect(lesson.get_by_test_id("lab-message")).to_have_text("")
        expect(lesson.get_by_test_id("lab-result")).to_contain_text(text("lessons.lab.col.lowest"))
        expect(run).to_be_enabled(timeout=CLICK_TIMEOUT)
    finally:
        screenshot(lesson, "05-strategy-lab-run")
        lesson.close()


# -- On a classroom projector (1920x1080) ------------------------------------------------------------------------

PROJECTOR = {"width": 1920, "height": 1080}
SMALL = {"width": 1024, "height": 768}
#: The smallest number on the chart's axes, in CSS pixels as drawn.
SMALLEST_TICK = 16
NUMBER = re.compile(r"\d+[.,]\d")

#: The chart's measurements as drawn: its box in the window, the smallest tick (font-size times the svg's scale)
#: and the boxes of the axis titles and of every tick number.
MEASURE = """(svg) => {
  const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const scale = svg.getScreenCTM().a;
  const ticks = [...svg.querySelectorAll(".lab-tick")];
  return {
    chart: box(svg), window: [window.innerWidth, window.innerHeight], scale,
    smallest: Math.min(...ticks.map((t) => parseFloat(t.getAttribute("font-size")) * scale)),
    computed: Math.min(...ticks.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
    titles: [...svg.querySelectorAll("[data-testid^='lab-axis-']")].map(box),
    ticks: ticks.map(box), means: [...svg.querySelectorAll("[data-testid='lab-mean']")].map(box),
  };
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def run_and_measure(lesson: Page) -> dict[str, Any]:
    """Press Run, wait for the result and for the chart to be scrolled into view; measure the chart."""
    lesson.get_by_test_id("lab-chart").evaluate("(svg) => svg.setAttribute('data-before', '')")
    lesson.get_by_test_id("lab-run").click()
    chart = lesson.locator("[data-testid='lab-chart']:not([data-before])")  # the run's own chart
    expect(chart).to_be_visible(timeout=RENDER_TIMEOUT)
    expect(lesson.get_by_test_id("lab-run")).to_be_enabled(timeout=RENDER_TIMEOUT)
    chart.evaluate(  # in view: scrolled there by the widget (instant here: the session asks for reduced motion)
        """(svg) => new Promise((done, fail) => {
          const start = performance.now();
          const look = () => { const r = svg.getBoundingClientRect();
            if (r.top >= 0 && r.bottom <= innerHeight) done(); else if (performance.now() - start > 5000) fail(
              new Error(`chart at ${r.top}..${r.bottom}, window ${innerHeight}`)); else requestAnimationFrame(look); };
          look(); })"""
    )
    measured: dict[str, Any] = chart.evaluate(MEASURE)
    return measured


def means_agree(lesson: Page) -> dict[str, str]:
    """Every strategy's mean as the chart, the table and (for the best) the sentence write it: one string."""
    result = lesson.get_by_test_id("lab-result")
    means = {}
    for row in result.locator("tbody tr").all():
        strategy = row.get_attribute("data-strategy") or ""
        table = row.locator("td").nth(1).inner_text().strip()
        label = result.locator(f"[data-testid='lab-mean'][data-strategy='{strategy}']").text_content() or ""
        drawn = NUMBER.search(label)
        assert drawn and drawn.group() == table, (strategy, label, table)
        means[strategy] = table
    best = result.locator(".lab-insights li").first.inner_text()
    said = NUMBER.search(best)
    assert said and said.group() in means.values(), (best, means)
    assert said.group() == max(means.values(), key=lambda mean: float(mean.replace(",", "."))), (best, means)
    return means


def shoot(lesson: Page, name: str) -> None:
    """What the projector shows (the window, not the page: Voila's page scrolls inside it)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    lesson.screenshot(path=str(SCREENSHOTS / f"lab-chart-{name}.png"))


def test_the_chart_fits_a_projector_in_english_and_german(browser: Any, lessons_server: Server) -> None:
    context = browser.new_context(viewport=PROJECTOR)
    try:
        start = context.new_page()
        start.goto(lessons_server.url)
        lesson = open_lesson(start, "05-strategy-lab")
        expect(lesson.get_by_test_id("lab-chart")).to_be_visible(timeout=RENDER_TIMEOUT)  # the lesson's own run
        expect(lesson.get_by_test_id("sound-switch")).to_have_count(0)  # the lab makes no sounds
        expect(lesson.get_by_test_id("voice-switch")).to_have_count(1)  # the settings are drawn, without it
        lesson.evaluate("() => document.querySelectorAll('*').forEach((n) => { n.scrollTop = 0; })")  # back to the top
        below = lesson.get_by_test_id("lab-chart").evaluate("(svg) => svg.getBoundingClientRect().bottom")
        assert below > PROJECTOR["height"]  # out of view before Run: the widget scrolls it in

        measured = run_and_measure(lesson)  # the lesson's settings: the hint's mean is 30.245 (30.2, not 30.3)
        shoot(lesson, "1920x1080")
        chart = lesson.get_by_test_id("lab-chart")
        expect(chart.get_by_test_id("lab-axis-score")).to_have_text(text("lessons.lab.axis.score"))
        expect(chart.get_by_test_id("lab-axis-games")).to_have_text(text("lessons.lab.axis.games"))
        expect(chart.get_by_test_id("lab-mean")).to_have_count(4)
        assert measured["smallest"] >= SMALLEST_TICK and measured["computed"] >= SMALLEST_TICK, measured
        left, top, right, bottom = measured["chart"]
        assert left >= 0 and top >= 0 and right <= PROJECTOR["width"] and bottom <= PROJECTOR["height"], measured
        means = means_agree(lesson)
        assert means["hint"] == "30.2"  # 6049 / 200 = 30.245: half up at the first decimal is 30.2

        lesson.set_viewport_size(SMALL)
        lesson.get_by_test_id("lab-games").fill(str(GAMES))
        small = run_and_measure(lesson)
        shoot(lesson, "1024x768")
        left, top, right, bottom = small["chart"]
        assert left >= 0 and top >= 0 and right <= SMALL["width"] and bottom <= SMALL["height"], small
        means_agree(lesson)

        lesson.set_viewport_size(PROJECTOR)
        lesson.get_by_test_id("language").select_option("de")
        with language("de"):
            chart = lesson.get_by_test_id("lab-chart")
            expect(chart.get_by_test_id("lab-axis-score")).to_have_text(text("lessons.lab.axis.score"))
            expect(chart.get_by_test_id("lab-axis-games")).to_have_text(text("lessons.lab.axis.games"))
            german = run_and_measure(lesson)
            shoot(lesson, "de-1920x1080")
            assert german["smallest"] >= SMALLEST_TICK, german
            words = german["titles"] + german["means"]
            assert not [(a, b) for a in words for b in german["ticks"] if overlap(a, b)], german
            assert not [(a, b) for i, a in enumerate(words) for b in words[i + 1 :] if overlap(a, b)], german
            assert all("," in mean for mean in means_agree(lesson).values())  # German decimal mark everywhere
    finally:
        context.close()
