"""A teacher's lesson file, played in Chromium (issue 44): the guide's first lesson is copied into a folder, given
its notebook (``caterpillar-learn lesson notebook``) and served with ``caterpillar-learn serve --lessons``; a child
opens its card in the gallery on a 1024 × 768 tablet and walks it by touch, tapping only what is marked, to its
end, with the walk's checks at every wait (one thing marked, in view, 44 px targets) and the page reading the
teacher's words aloud by itself (a lesson for five-year-olds).  The same lesson written in German is walked on a
1920 × 1080 screen to its last step: the page is German, and its voice speaks German.
Screenshots: ``artifacts/screenshots/lesson-file-*.png`` (the first wait of each step, and the end)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from caterpillar_learn.cli import main

from ..lessons.test_files import first_lesson
from ..lessons.test_raupe_files import raupe_lesson
from .axe import REFUSED, axe_source, describe_violations, run_axe
from .conftest import SCREENSHOTS, Server, serve_lessons
from .driver import RENDER_TIMEOUT, open_lesson
from .speech import Heard, record_speech
from .test_child_walk import shoot
from .walk import DESKTOP, TABLET, ChildWalk, child_context, open_touch_lesson, small_targets
from .words import assert_few_words

pytestmark = pytest.mark.browser

#: The guide's lesson in German, as a German teacher writes it (the same steps, the same dice).
GERMAN = {
    'title = "Doubles"\n': 'title = "Päsche"\n',
    'line = "Two dice the same: where can they go?"': 'line = "Zwei gleiche Würfel: wohin damit?"',
    'language = "en"': 'language = "de"',
    'say = "Two dice with the same number are a double. Let us see where a double can go."': (
        'say = "Zwei Würfel mit der gleichen Zahl sind ein Pasch. Wohin passt ein Pasch?"'
    ),
    'title = "Roll"\nsay = "Tap Roll."': 'title = "Würfeln"\nsay = "Tippe auf Würfeln."',
    'title = "Where can they go?"': 'title = "Wohin passen sie?"',
    'title = "Choose"\nsay = "Tap a box with a star."': 'title = "Wählen"\nsay = "Tippe auf ein Kästchen mit Stern."',
    'title = "Play on"\nsay = "Play the game to its end."': 'title = "Weiter"\nsay = "Spiele das Spiel zu Ende."',
}


def german_lesson() -> str:
    source = first_lesson()
    for english, german in GERMAN.items():
        assert english in source, english
        source = source.replace(english, german)
    return source


@pytest.fixture(scope="module")
def teachers_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``caterpillar-learn serve --lessons`` on a folder holding only the teacher's two lessons and their notebooks."""
    folder = tmp_path_factory.mktemp("teacher")
    (folder / "doubles.toml").write_text(first_lesson(), encoding="utf-8")
    (folder / "paesche.toml").write_text(german_lesson(), encoding="utf-8")
    (folder / "changed.toml").write_text(first_lesson(), encoding="utf-8")
    (folder / "change.toml").write_text(raupe_lesson(), encoding="utf-8")
    lessons = [str(folder / f"{name}.toml") for name in ("doubles", "paesche", "changed", "change")]
    assert main(["lesson", "notebook", *lessons]) == 0
    # The teacher changes a die after writing the notebook: 4 4 fits no box, and step 3 asks which boxes it fits.
    (folder / "changed.toml").write_text(first_lesson().replace('roll = "2 2"', 'roll = "4 4"'), encoding="utf-8")
    yield from serve_lessons(tmp_path_factory, lessons=folder)


@pytest.mark.parametrize(
    ("name", "viewport", "lang"), [("doubles", TABLET, "en"), ("paesche", DESKTOP, "de")], ids=["en-tablet", "de-big"]
)
def test_a_child_walks_a_teachers_lesson_by_touch(
    browser: Browser, teachers_server: Server, name: str, viewport: dict[str, int], lang: str
) -> None:
    with child_context(browser, viewport) as context:
        record_speech(context)
        page = open_touch_lesson(context, teachers_server.url, name, open_lesson)
        expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(page.locator(".cl-root").first).to_have_attribute("lang", lang)
        heard = Heard(page, listen=1.0)
        titles: list[str] = []

        def at_wait(walk: ChildWalk) -> None:
            heard.at_wait(walk)
            assert_few_words(walk.page, f"at wait {walk.waits} of {name}")
            titles.append(walk.page.get_by_test_id("lesson-step").inner_text())

        walk = ChildWalk(page, random.Random(2), on_wait=at_wait, shots=shoot(f"lesson-file-{lang}", each_step=True))
        if lang == "de":  # the German page's words and voice are the point: its walk ends at the last step
            walk.done = lambda w: w.seen.get("now") == w.seen.get("max")
        walk.walk()  # the English child's to the game's end, New game marked
        if lang == "en":
            expect(page.get_by_test_id("final-score")).to_contain_text(re.compile(r"\d"))
            expect(page.get_by_test_id("final-score")).to_be_in_viewport()
        page.screenshot(path=str(SCREENSHOTS / f"lesson-file-{lang}-end.png"))
        words = [line for line in GERMAN.values() if "title" in line] if lang == "de" else []
        for german in words:  # every step's own title was shown, in the teacher's words
            title = german.split('"')[1]
            assert any(title in shown for shown in titles), (title, titles)
        if lang == "en":
            assert any("Where can they go?" in shown for shown in titles), titles
        assert heard.spoken_steps == heard.steps, f"silent at steps {sorted(heard.steps - heard.spoken_steps)}"
        langs = {str(utterance["lang"])[:2] for utterance in heard.said}
        assert langs == {lang}, langs
        said = " ".join(str(utterance["text"]) for utterance in heard.said)
        assert ("Pasch" in said) if lang == "de" else ("double" in said), said[:300]


def test_a_lesson_whose_claim_fails_is_refused_on_its_page_in_one_line(
    browser: Browser, teachers_server: Server
) -> None:
    with child_context(browser, TABLET) as context:
        page = context.new_page()
        page.goto(teachers_server.url.rstrip("/") + "/voila/render/changed.ipynb")
        refused = page.get_by_test_id("lesson-refused")
        expect(refused).to_have_text(
            'changed.toml step 3: ask = "boxes" on 4 4, which fit no box: expected ask = "zero"', timeout=RENDER_TIMEOUT
        )
        expect(page.locator(".cl-root")).to_have_count(0)
        expect(page.get_by_text("Traceback")).to_have_count(0)


def test_the_gallery_shows_a_teachers_lessons_as_it_shows_ours(browser: Browser, teachers_server: Server) -> None:
    """Each teacher's lesson has its own card: its title, the age it is for, its line and a picture of its sheet."""
    with child_context(browser, TABLET) as context:
        gallery = context.new_page()
        gallery.goto(teachers_server.url)
        doubles = gallery.locator('[data-testid="lesson-card"][data-lesson="doubles"]')
        expect(doubles).to_be_visible()
        expect(doubles.locator(".lesson-title")).to_have_text("Doubles")
        expect(doubles.locator(".lesson-learns")).to_have_text("Two dice the same: where can they go?")
        expect(doubles.locator(".lesson-age")).to_have_text("From age 5")
        expect(doubles.locator(".lesson-picture svg")).to_be_visible()
        expect(gallery.locator('[data-lesson="paesche"] .lesson-title')).to_have_text("Päsche")
        gallery.screenshot(path=str(SCREENSHOTS / "lesson-file-gallery.png"))
        problems = describe_violations(run_axe(gallery, axe_source()), REFUSED)
        assert not problems, "\n".join(problems)


@pytest.mark.parametrize("viewport", [TABLET, DESKTOP], ids=["tablet", "big"])
def test_a_teachers_card_lesson_opens_with_its_words_and_one_thing_to_do(
    browser: Browser, teachers_server: Server, viewport: dict[str, int]
) -> None:
    """The guide's Räuber Raupe lesson: its notebook opens the card table with the teacher's words, asking
    "Which of your cards fit?" first, one thing marked, every target big enough."""
    with child_context(browser, viewport) as context:
        page = open_touch_lesson(context, teachers_server.url, "change", open_lesson)
        expect(page.locator(".rr-root").first).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(page.get_by_role("heading", name="Change cards")).to_be_visible()
        expect(page.get_by_test_id("lesson-intro")).to_contain_text("A change card has a sky on it.")  # its rules
        expect(page.locator('[data-todo="true"] >> visible=true')).to_have_count(1)
        assert not small_targets(page), small_targets(page)
        page.screenshot(path=str(SCREENSHOTS / f"lesson-file-raupe-{viewport['width']}.png"))
