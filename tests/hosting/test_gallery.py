"""The lesson gallery, ``caterpillar-learn serve``'s first page, in Debian's Chromium.

One server for the file (``serve --port 0``, English first).  The page shows
twelve cards, each with a picture, in English and in German (every word from
the right catalogue, no file name); its language menu switches the page; one
tap (and a double tap) on a card opens one tab with that lesson, in the
gallery's language; Tab reaches every card; axe-core finds nothing serious;
the page is compressed, needs nothing from elsewhere and logs no error.
The classroom's door (``caterpillar-learn classroom --lang de``) shows the
same cards below its form, to look at, in its language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from caterpillar_learn.i18n import catalogue
from caterpillar_learn.lessons.gallery import GALLERY
from caterpillar_learn.network import ASK
from tests.browser.axe import REFUSED, axe_source, describe_violations, run_axe
from tests.browser.conftest import Server, start_classroom
from tests.browser.driver import RENDER_TIMEOUT, lesson_card

from .conftest import start_serve
from .test_light_pages import compressed

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "shots" / "gallery"
LANGUAGES = ("en", "de")
#: Each card's picture: an <svg> with drawn shapes and a size on the page.
PICTURE = """(card) => {
  const svg = card.querySelector(".lesson-picture svg");
  if (!svg) return null;
  const box = svg.getBoundingClientRect();
  return { role: svg.getAttribute("role"), label: svg.getAttribute("aria-label"),
           shapes: svg.querySelectorAll("rect, circle, path").length, width: box.width, height: box.height };
}"""


@pytest.fixture(scope="module")
def gallery(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("gallery")
    server, url = start_serve(["--port", "0"], folder, folder / "serve.log")
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture
def touch(browser: Browser) -> Iterator[BrowserContext]:
    """A tablet: 1024x768, touch, taps only."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    context.set_default_timeout(30_000)
    try:
        yield context
    finally:
        context.close()


def _open(context: BrowserContext, url: str) -> tuple[Page, list[str]]:
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
    page.goto(url)
    return page, problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_twelve_cards_with_pictures_in_the_pages_language(touch: BrowserContext, gallery: str, lang: str) -> None:
    words = catalogue(lang)
    fetched: list[str] = []
    touch.on("request", lambda request: fetched.append(request.url))
    page, problems = _open(touch, f"{gallery}?lang={lang}")
    cards = page.get_by_test_id("lesson-card")
    expect(cards).to_have_count(12)
    assert page.locator("html").get_attribute("lang") == lang
    expect(page.locator("h1")).to_have_text(words["gallery.heading"])
    for index, (name, entry) in enumerate(GALLERY.items()):
        card = cards.nth(index)
        expect(card).to_have_attribute("data-lesson", name)
        expect(card.locator(".lesson-title")).to_have_text(words[entry.title_key])
        expect(card.locator(".lesson-age")).to_have_text(words["gallery.age"].format(age=entry.age))
        expect(card.locator(".lesson-learns")).to_have_text(words[f"gallery.learns.{name}"])
        drawn = card.evaluate(PICTURE)
        assert drawn and drawn["role"] == "img" and drawn["label"] == words[f"gallery.picture.{entry.shot.words}"]
        assert drawn["shapes"] > 20 and drawn["width"] > 150 and drawn["height"] > 60, (name, drawn)
        box = card.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, name
        assert card.get_attribute("href", timeout=1000) and card.locator("a").count() == 0, name  # one link
    shown = page.locator("body").inner_text()
    assert ".ipynb" not in shown and "00-setup" not in shown and "raupe-race" not in shown
    assert all(url.startswith((gallery, "data:")) for url in fetched), fetched  # nothing from elsewhere
    assert problems == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"test-tablet-{lang}.png"), full_page=True)


def test_the_language_menu_switches_the_page(touch: BrowserContext, gallery: str) -> None:
    page, problems = _open(touch, gallery)
    english, german = catalogue("en"), catalogue("de")
    expect(page.locator("h1")).to_have_text(english["gallery.heading"])
    expect(page.get_by_test_id("language-en")).to_have_attribute("aria-current", "page")
    page.get_by_test_id("language-de").tap()
    expect(page.locator("h1")).to_have_text(german["gallery.heading"])
    assert page.locator("html").get_attribute("lang") == "de" and "lang=de" in page.url
    expect(page.get_by_test_id("language-de")).to_have_attribute("aria-current", "page")
    expect(lesson_card(page, "01-beginner").locator(".lesson-title")).to_have_text(german["lessons.title.beginner"])
    expect(lesson_card(page, "01-beginner")).to_have_attribute("href", re.compile(r"01-beginner\.ipynb\?lang=de$"))
    for link in (page.get_by_test_id("language-en"), page.get_by_test_id("language-de")):
        box = link.bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44
    page.get_by_test_id("language-en").tap()
    expect(page.locator("h1")).to_have_text(english["gallery.heading"])
    assert problems == []


def test_one_tap_opens_one_lesson_in_the_gallerys_language(touch: BrowserContext, gallery: str) -> None:
    page, _ = _open(touch, f"{gallery}?lang=de")
    page.evaluate(
        "() => { window.__taps = []; document.addEventListener('click', () => window.__taps.push(Date.now())); }"
    )
    asked: list[str] = []
    touch.on("request", lambda request: asked.append(request.url) if "/voila/render/" in request.url else None)
    card = lesson_card(page, "10-raupe-shape")
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    assert box
    with touch.expect_page() as opened:  # a double tap (two taps at once, as a child's finger does): one lesson
        for _ in range(2):
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    lesson = opened.value
    expect(lesson).to_have_url(re.compile(r"/voila/render/10-raupe-shape\.ipynb\?lang=de$"))
    root = lesson.locator(".rr-root")
    expect(root).to_have_attribute("lang", "de", timeout=RENDER_TIMEOUT)  # the lesson starts in German
    # The browser may hand the page the second tap a second or more later: the guard has had it once the page's
    # own listener (after the guard's) has counted both.
    page.wait_for_function("() => window.__taps.length >= 2", timeout=RENDER_TIMEOUT)
    taps = page.evaluate("window.__taps")
    assert len(touch.pages) == 2 and len(asked) == 1, (touch.pages, asked, taps)
    page.bring_to_front()
    page.evaluate(
        "() => { for (const card of document.querySelectorAll('[data-tapped]')) delete card.dataset.tapped; }"
    )
    with touch.expect_event("request", lambda request: "/voila/render/" in request.url, timeout=RENDER_TIMEOUT):
        card.tap()  # later (as once the guard's ten seconds are over): back to the lesson's own tab, no third one
    assert len(touch.pages) == 2 and len(asked) == 2, asked  # a third tab would have opened before its request


def test_the_keyboard_reaches_every_card_with_a_visible_focus(browser: Browser, gallery: str) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page, _ = _open(context, gallery)
        reached: list[str] = []
        for _ in range(20):
            page.keyboard.press("Tab")
            focused = page.evaluate(
                """() => { const node = document.activeElement; const style = getComputedStyle(node);
                return { lesson: node.getAttribute("data-lesson"), outline: style.outlineStyle,
                         width: parseFloat(style.outlineWidth) || 0 }; }"""
            )
            if focused["lesson"]:
                assert focused["outline"] != "none" and focused["width"] >= 2, focused
                reached.append(focused["lesson"])
        assert reached[:12] == list(GALLERY)
        SHOTS.mkdir(parents=True, exist_ok=True)
        for lang in LANGUAGES:
            page.goto(f"{gallery}?lang={lang}")
            page.screenshot(path=str(SHOTS / f"test-desktop-{lang}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_serious(touch: BrowserContext, gallery: str, lang: str) -> None:
    page, _ = _open(touch, f"{gallery}?lang={lang}")
    violations = run_axe(page, axe_source())
    assert not describe_violations(violations, REFUSED), "\n".join(describe_violations(violations, REFUSED))


def test_the_gallery_is_compressed_and_small(gallery: str) -> None:
    for lang in LANGUAGES:
        answer = compressed(f"{gallery}?lang={lang}")
        assert len(answer.wire) < 40_000, len(answer.wire)  # twelve pictures, gzipped
        assert "<script src" not in answer.text()


@pytest.fixture(scope="module")
def german_classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_classroom(tmp_path_factory.mktemp("gallery-classroom"), "--lang", "de")
    try:
        yield server
    finally:
        server.stop()


def test_the_classroom_door_shows_what_the_class_can_play(touch: BrowserContext, german_classroom: Server) -> None:
    words = catalogue("de")
    fetched: list[str] = []
    touch.on("request", lambda request: fetched.append(request.url) if request.url.endswith(".svg") else None)
    page, problems = _open(touch, german_classroom.url)
    cards = page.get_by_test_id("door-lessons").get_by_test_id("lesson-card")
    expect(cards).to_have_count(12, timeout=RENDER_TIMEOUT)
    expect(page.get_by_test_id("door-lessons").locator("h2")).to_have_text(words["gallery.door_heading"])
    for index, (name, entry) in enumerate(GALLERY.items()):
        card = cards.nth(index)
        expect(card).to_have_attribute("data-lesson", name)
        expect(card.locator(".lesson-title")).to_have_text(words[entry.title_key])
        expect(card.locator(".lesson-learns")).to_have_text(words[f"gallery.learns.{name}"])
        image = card.locator(".lesson-picture img")  # the picture as a file the tablet keeps
        expect(image).to_have_attribute("alt", words[f"gallery.picture.{entry.shot.words}"])
        expect(image).to_have_attribute("src", f"/caterpillar-learn/lesson-{name}-de.svg")
        expect(image).to_have_js_property("complete", True, timeout=RENDER_TIMEOUT)  # a loaded machine: still loading
        drawn = image.evaluate("(img) => img.complete && [img.naturalWidth, img.getBoundingClientRect().height]")
        assert drawn and drawn[0] > 0 and drawn[1] > 40, (name, drawn)
        assert card.evaluate("(node) => node.closest('a') === null && node.querySelector('a') === null"), name
    expect(page.get_by_test_id("join-code")).to_be_visible()  # the form stays first: the cards come below it
    assert problems == [] and len(fetched) == 12, fetched
    picture = compressed(fetched[0].replace("127.0.0.1", "localhost"))  # gzipped, and asked again only if changed
    assert picture.headers["content-type"].startswith("image/svg+xml") and picture.headers["cache-control"] == ASK
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "test-door-tablet-de.png"), full_page=True)
