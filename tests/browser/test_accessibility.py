"""Accessibility of every lesson in Debian's Chromium, in English and in German.

* axe-core (``tests/browser/axe.py``: the npm package, pinned and checked,
  injected into the page, never from a CDN) runs over the whole page of every
  lesson once its widgets are drawn, served by ``caterpillar-learn serve``;
  then the learner's language menu switches the same page to German and
  axe-core reads it again (lessons that *start* in German, from
  ``serve --lang de``, are walked in ``test_practice_walk.py`` and
  ``test_raupe_screen.py``).  No
  violation of impact "serious" or "critical" is allowed.  The counts of
  every impact, by lesson and language, are written to
  ``artifacts/axe-core.md`` (and printed with ``pytest -s``).
* Tab walks through a lesson's controls: each one shows a visible focus
  indicator, and each has an accessible name in the page's language (the
  widgets' words of the chosen catalogue, never the English ones in German).
* The page is the lesson's render check too: no cell failed, and the lessons
  without a Caterpillars board leave a screenshot (``test_lessons.py`` plays
  and shoots the others).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.i18n import language, text
from caterpillar_learn.lessons import LESSONS
from caterpillar_learn.ui.base import template
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson
from caterpillar_learn.ui.lab import LabWidget
from caterpillar_learn.ui.raupe import RaupeWidget

from .axe import IMPACTS, VERSION, count_by_impact, describe_violations, run_axe
from .conftest import ROOT, Server, screenshot
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, expect_no_error, open_lesson

pytestmark = pytest.mark.browser

NOTEBOOKS = sorted(p.stem for p in (ROOT / "lessons").glob("*.ipynb"))
#: The languages each lesson is read in: the first is the one the page starts in, the others are chosen
#: in the page's language menu (one page and one kernel a lesson: a Voila page costs about 5 s of CPU).
LANGUAGES = ("en", "de")
SUMMARY = ROOT / "artifacts" / "axe-core.md"
WIDGET_ROOTS = ".cl-root, .rr-root, .lab-root"
#: Every widget output of the page holds a drawn widget root (its ``lang`` is set when drawn).
DRAWN = """(roots) => {
  const outputs = [...document.querySelectorAll(".jp-OutputArea-output:not([data-mime-type])")];
  const drawn = roots.split(", ").map((root) => root + "[lang]").join(", ");
  return outputs.length > 0 && outputs.every((output) => output.querySelector(drawn));
}"""
#: The lessons whose controls are walked by Tab, and each one's widget (whose words name the controls).
#: The Caterpillars lessons with a board (played, and shot, by test_lessons.py).
GAME_LESSONS = [name for name, lesson in LESSONS.items() if "board" in lesson.widgets]
WALKED = {"01-beginner": CaterpillarsLesson, "10-raupe-shape": RaupeWidget, "05-strategy-lab": LabWidget}
TAB_PRESSES = 120
#: Roles a learner operates: each needs a name.
CONTROL_ROLES = {"button", "checkbox", "combobox", "link", "radio", "slider", "spinbutton", "textbox", "switch"}
FOCUSED = """() => {
  let node = document.activeElement;
  while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement;
  if (!node || node === document.body || node === document.documentElement) return null;
  const seen = window.__tabSeen || (window.__tabSeen = new Map());
  const again = seen.has(node);
  if (!again) seen.set(node, seen.size);
  node.setAttribute("data-tab-walk", String(seen.get(node)));
  const style = getComputedStyle(node);
  const box = node.getBoundingClientRect();
  return { index: seen.get(node), again, inWidget: Boolean(node.closest(".cl-root, .rr-root, .lab-root")),
    testid: node.getAttribute("data-testid"), tag: node.tagName.toLowerCase(),
    outlineStyle: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth) || 0, boxShadow: style.boxShadow,
    width: box.width, height: box.height, html: node.outerHTML.slice(0, 160) };
}"""

#: Forget an earlier Tab walk of the page (its marks, and which nodes it has seen), shadow roots included.
FORGET_WALK = """() => {
  window.__tabSeen = new Map();
  const forget = (root) => root.querySelectorAll("*").forEach((node) => {
    node.removeAttribute("data-tab-walk");
    if (node.shadowRoot) forget(node.shadowRoot);
  });
  forget(document);
}"""


def lesson_page(list_page: Page, server: Server, name: str, lang: str) -> Page:
    """Open ``name`` from the lesson list and wait until every widget on it is drawn in ``lang``."""
    list_page.goto(server.url)
    page = open_lesson(list_page, name)
    page.wait_for_function(DRAWN, arg=WIDGET_ROOTS, timeout=RENDER_TIMEOUT)
    roots = page.locator(WIDGET_ROOTS)
    for index in range(roots.count()):
        expect(roots.nth(index)).to_have_attribute("lang", lang)
    return page


@pytest.fixture(scope="module")
def axe_counts() -> Iterator[dict[tuple[str, str], list[dict[str, Any]]]]:
    """The violations found, by (lesson, language); summed up in ``artifacts/axe-core.md`` at the end."""
    found: dict[tuple[str, str], list[dict[str, Any]]] = {}
    yield found
    if found:
        table = summary(found)
        SUMMARY.parent.mkdir(parents=True, exist_ok=True)
        SUMMARY.write_text(table, encoding="utf-8")
        print(f"\n{table}")


def summary(found: dict[tuple[str, str], list[dict[str, Any]]]) -> str:
    """A Markdown table: failing elements by impact, and the rules behind them, per lesson and language."""
    lines = [
        f"# axe-core {VERSION}: failing elements by impact",
        "",
        "| lesson | language | " + " | ".join(reversed(IMPACTS)) + " | rules |",
        "|---|---|" + "---:|" * len(IMPACTS) + "---|",
    ]
    for (name, lang), violations in sorted(found.items()):
        counts = count_by_impact(violations)
        rules = ", ".join(f"{v['id']} ({v['impact']}) ×{len(v['nodes'])}" for v in violations) or "none"
        lines.append(f"| {name} | {lang} | " + " | ".join(str(counts[i]) for i in reversed(IMPACTS)) + f" | {rules} |")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_axe_finds_no_serious_violation_and_tab_reaches_every_control(
    page: Page,
    lessons_server: Server,
    axe_script: str,
    axe_counts: dict[tuple[str, str], list[dict[str, Any]]],
    name: str,
) -> None:
    """axe-core on every lesson in each language of :data:`LANGUAGES`, the page switched by its own language
    menu; on the lessons in :data:`WALKED`, the page is then walked by Tab (:func:`check_tab_walk`) in that
    language, as a keyboard user would after the page has been read."""
    first, *others = LANGUAGES
    lesson = lesson_page(page, lessons_server, name, first)
    try:
        expect_no_error(lesson)
        if name not in GAME_LESSONS:  # the played lessons are shot by test_lessons.py
            screenshot(lesson, name)
        for lang in LANGUAGES:
            if lang != first:
                switch_language(lesson, lang)
            violations = run_axe(lesson, axe_script)
            axe_counts[name, lang] = violations
            refused = describe_violations(violations)
            assert not refused, f"{name} ({lang}): {len(refused)} serious or critical:\n" + "\n".join(refused)
            if name in WALKED:
                check_tab_walk(lesson, name, lang)
        assert others, "a second language is read on the same page"
        expect_no_error(lesson)
    finally:
        lesson.close()


def switch_language(lesson: Page, lang: str) -> None:
    """Choose ``lang`` in the page's language menu (the first widget's; it switches the page) and wait until
    every widget on it is drawn again in ``lang``."""
    lesson.get_by_test_id("language").first.select_option(lang)
    roots = lesson.locator(WIDGET_ROOTS)
    for index in range(roots.count()):
        expect(roots.nth(index)).to_have_attribute("lang", lang, timeout=CLICK_TIMEOUT)
    lesson.wait_for_function("() => !document.querySelector('[aria-busy=\"true\"]')", timeout=CLICK_TIMEOUT)


def role_and_name(line: str) -> tuple[str, str] | None:
    """The role and name of one line of Playwright's ARIA snapshot (YAML: ``- button "Roll"``, quoted if need be).

    >>> role_and_name('''  - 'button "Card 1: a red caterpillar"':''')
    ('button', 'Card 1: a red caterpillar')
    >>> role_and_name('- combobox "Sprache":'), role_and_name("- text: Game record")  # <summary>: no ARIA role
    (('combobox', 'Sprache'), ('text', 'Game record'))
    """
    item = line.strip().removeprefix("- ")
    if item.startswith("text: "):  # named by its content (a <summary> has no ARIA role of its own)
        return "text", item.removeprefix("text: ")
    item = item.removesuffix(":")
    if item.startswith("'") and item.endswith("'"):
        item = item[1:-1].replace("''", "'")
    found = re.match(r'(\w+)(?: "((?:[^"\\]|\\.)*)")?', item)
    return (found.group(1), (found.group(2) or "").replace('\\"', '"')) if found else None


def accessible_name(page: Page, marker: int) -> tuple[str, str]:
    """The role and accessible name of the element the Tab walk marked ``marker``."""
    snapshot = page.locator(f'[data-tab-walk="{marker}"]').aria_snapshot()
    found = role_and_name(snapshot.splitlines()[0]) if snapshot else None
    assert found, f"no ARIA role for the focused element {marker}: {snapshot!r}"
    return found


def widget_words(widget: type[Any], lang: str) -> set[str]:
    """The interface words of a widget class in ``lang`` (templates, filled by the front end, left out)."""
    with language(lang):
        words = {template(key) for key in widget.STRING_KEYS.values()}
    return {word for word in words if "{" not in word}


def check_tab_walk(lesson: Page, name: str, lang: str) -> None:
    """Tab reaches every control of the lesson's widget with a visible focus and a name in ``lang``, and every
    control (disabled ones too, which Tab skips) has a name."""
    walked = tab_walk(lesson)
    assert walked, f"{name}: Tab never reached a widget control"
    named: dict[str, str] = {}
    for info in walked:
        where = f"{name} ({lang}) {info['html']}"
        visible = (info["outlineStyle"] != "none" and info["outlineWidth"] > 0) or info["boxShadow"] != "none"
        assert visible, f"{where}: no visible focus (outline {info['outlineStyle']} {info['outlineWidth']}px)"
        assert info["width"] > 0 and info["height"] > 0, f"{where}: focused but not shown"
        role, accessible = accessible_name(lesson, info["index"])
        assert accessible.strip(), f"{where}: a {role} without an accessible name"
        named[info["testid"] or info["html"]] = accessible
    for line in lesson.locator(WIDGET_ROOTS).first.aria_snapshot().splitlines():
        found = role_and_name(line)
        if found and found[0] in CONTROL_ROLES:  # disabled ones too, which Tab skips
            assert found[1].strip(), f"{name} ({lang}): a {found[0]} without a name: {line.strip()}"
    check_language_of_names(WALKED[name], lang, named)


def tab_walk(page: Page) -> list[dict[str, Any]]:
    """Tab from the top of the page until focus comes back round; every widget control it focused, in order."""
    page.evaluate(FORGET_WALK)
    page.locator("body").click(position={"x": 1, "y": 1})
    walked: list[dict[str, Any]] = []
    for _ in range(TAB_PRESSES):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUSED)
        if info is None:
            continue
        if info["again"]:
            break
        if info["inWidget"]:
            walked.append(info)
    return walked


def check_language_of_names(widget: type[Any], lang: str, named: dict[str, str]) -> None:
    """The controls speak ``lang``: the language switch, the speakers (and Caterpillars' roll button) by name;
    in German no name is an English word of the widget that German says differently."""
    keys = {"language": "language", "read-aloud": "read_aloud", "roll-button": "roll"}
    with language(lang):
        expected = {testid: text(widget.STRING_KEYS[key]) for testid, key in keys.items() if key in widget.STRING_KEYS}
    if lang == "de" and "roll-button" in expected:
        assert expected["roll-button"] == "Würfeln"
    for testid, word in expected.items():
        if testid in named:
            assert word in named[testid], f"{testid}: named {named[testid]!r}, expected {word!r}"
    assert "language" in named, "Tab never reached the language switch"
    english_only = widget_words(widget, "en") - widget_words(widget, lang) if lang != "en" else set()
    wrong = {testid: accessible for testid, accessible in named.items() if accessible.strip() in english_only}
    assert not wrong, f"controls named in English on a {lang} page: {wrong}"
