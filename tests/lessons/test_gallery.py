"""The lesson gallery's data and pictures (``caterpillar_learn/lessons/gallery.py``, ``thumbnails.py``) and the
first page's plain data (``caterpillar_learn/ui/hosting/gallery_page.py``), without a server.

The page itself, in Chromium, is ``tests/hosting/test_gallery.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from caterpillar_learn.i18n import QUERY_ENV, available_languages, catalogue
from caterpillar_learn.lessons import LESSONS, SETUPS
from caterpillar_learn.lessons.gallery import GALLERY, TableShot, card_html, card_of, cards, picture
from caterpillar_learn.lessons.thumbnails import sanitize, sheet_picture
from caterpillar_learn.ui.hosting.gallery_page import lesson_href, tree_namespace

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p.stem for p in (ROOT / "lessons").glob("*.ipynb"))
SVG = "{http://www.w3.org/2000/svg}"
#: What a picture must never hold: script, foreign content, links, style, event handlers.
FORBIDDEN_TAGS = {"script", "foreignObject", "a", "image", "use", "style", "iframe", "title", "desc"}
SEED = re.compile(r"^SEED = (\d+)$", re.MULTILINE)


def test_the_gallery_is_every_lesson_of_the_package() -> None:
    assert list(GALLERY) == NOTEBOOKS == sorted(LESSONS) + sorted(SETUPS)
    assert len(GALLERY) == 12


@pytest.mark.parametrize("lang", available_languages())
def test_every_card_speaks_its_language_from_the_catalogue(lang: str) -> None:
    words = catalogue(lang)
    shown = cards(lang)
    assert [card.name for card in shown] == NOTEBOOKS
    for card, entry in zip(shown, GALLERY.values()):
        assert card.language == lang
        assert card.title == words[entry.title_key], card.name  # the title the lesson shows at its top
        assert card.learns == words[f"gallery.learns.{card.name}"], card.name
        assert card.age_text == words["gallery.age"].format(age=entry.age), card.name
        assert card.picture_label == words[f"gallery.picture.{entry.shot.words}"], card.name
        assert 4 <= card.age <= 12 and card.number == int(card.name[:2])
        assert ".ipynb" not in card_html(card, "/voila/render/x.ipynb").split('href="')[0]


def test_the_german_cards_are_german() -> None:
    english, german = cards("en"), cards("de")
    for en, de in zip(english, german):
        assert en.learns != de.learns and en.age_text != de.age_text, en.name
        assert en.picture != de.picture, en.name  # the sheet's and the cards' words are in the language too
    assert sum(en.title != de.title for en, de in zip(english, german)) >= 10  # "Räuber Raupe" stays itself


def test_the_ages_climb_with_the_lessons_of_each_game() -> None:
    for game in ("caterpillars", "raupe"):
        ages = [entry.age for entry in GALLERY.values() if entry.game == game]
        assert ages == sorted(ages) and ages[0] == 5, (game, ages)


def test_a_raupe_picture_deals_with_its_notebooks_seed() -> None:
    for name, entry in GALLERY.items():
        if isinstance(entry.shot, TableShot):
            found = SEED.search((ROOT / "lessons" / f"{name}.py").read_text(encoding="utf-8"))
            assert found and int(found.group(1)) == entry.shot.seed, name


def _parse(markup: str) -> ET.Element:
    root = ET.fromstring(markup)
    assert root.tag == f"{SVG}svg"
    return root


@pytest.mark.parametrize("lang", available_languages())
def test_every_picture_is_one_safe_image(lang: str) -> None:
    ids: list[str] = []
    for card in cards(lang):
        root = _parse(card.picture)
        assert root.get("role") == "img" and root.get("aria-label") == card.picture_label, card.name
        assert root.get("viewBox") and root.get("width") is None, card.name  # the page sizes it
        drawn = [element for element in root.iter() if element.tag.removeprefix(SVG) in ("rect", "circle", "path")]
        assert len(drawn) > 20, card.name
        own = [element.get("id") for element in root.iter() if element.get("id")]
        for element in root.iter():
            tag = element.tag.removeprefix(SVG)
            assert element.tag.startswith(SVG) and tag not in FORBIDDEN_TAGS, (card.name, tag)
            for name, value in element.attrib.items():
                assert not name.lower().startswith("on") and "href" not in name, (card.name, name)
                assert name not in ("class", "style", "tabindex") and not name.startswith("data-"), (card.name, name)
                for target in re.findall(r"url\(#([^)]+)\)", value):
                    assert target in own, (card.name, value)  # paint from its own patterns only
                assert "url(" not in re.sub(r"url\(#[^)]+\)", "", value), (card.name, value)
        ids += own
    assert len(ids) == len(set(ids))  # twelve pictures on one page never share an id


def test_pictures_are_the_same_every_time() -> None:
    first = {card.name: card.picture for card in cards("en")}
    picture.cache_clear()
    again = {card.name: card.picture for card in cards("en")}
    assert first == again
    assert len(set(first.values())) == len(first)  # a picture per lesson


def test_a_picture_is_the_lessons_own_board() -> None:
    beginner = card_of("01-beginner", "en").picture
    # Round 2 of the beginner's designed dice fits no box: a 0 is written (the lesson's forced zero).
    assert re.search(r">0</text>", beginner), beginner[:400]
    setup = card_of("00-setup", "en").picture
    assert setup.count(">…</text>") >= 2  # labels still blank: the lesson fills them
    lab = card_of("05-strategy-lab", "en").picture
    assert "flies!" in lab and "Final score" in lab  # a whole game, and the caterpillar that flies
    change = card_of("12-raupe-change-card", "de").picture
    assert "Wechsel" in change  # the change card the lesson teaches is in the hand
    insects = card_of("13-raupe-butterflies-and-aphids", "en").picture
    assert "butterfly" in insects and "aphid" in insects
    assert sheet_picture("01-beginner", "x", rounds=0) != sheet_picture("01-beginner", "x", rounds=3)


def test_the_sanitizer_keeps_drawing_and_drops_everything_else() -> None:
    hostile = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink" viewBox="0 0 9 9" '
        'onload="steal()" style="x"><script>steal()</script><foreignObject><p>hi</p></foreignObject>'
        '<a x:href="javascript:steal()"><rect width="1" height="1"/></a><use x:href="#p"/>'
        '<g data-testid="sheet" tabindex="0" role="button"><circle r="2" fill="url(#p)" onclick="steal()"/>'
        '<rect fill="url(http://elsewhere.test/p)" width="2" height="2"/></g>'
        '<pattern id="p" width="2" height="2"><circle r="1"/></pattern><text x="1">a &lt; b</text></svg>'
    )
    clean = sanitize(hostile, "z", "A picture")
    assert clean == (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9" role="img" aria-label="A picture">'
        '<g><circle r="2" fill="url(#z-0)" /><rect width="2" height="2" /></g>'
        '<pattern id="z-0" width="2" height="2"><circle r="1" /></pattern><text x="1">a &lt; b</text></svg>'
    )
    with pytest.raises(ValueError, match="picture"):
        sanitize("<html><body>no</body></html>", "z", "x")


def test_a_card_is_one_link_or_one_picture_card() -> None:
    card = card_of("10-raupe-shape", "de")
    link = card_html(card, '/voila/render/10-raupe-shape.ipynb?lang=de&x="y"', target="lesson-10-raupe-shape")
    assert link.count("<a ") == 1 and link.endswith("</a>") and "&quot;y&quot;" in link
    assert 'lang="de"' in link and "aria-label" not in link.split("<svg")[0]  # named by what it shows
    assert link.index("lesson-title") < link.index("lesson-learns") < link.index("<svg")
    plain = card_html(card)
    assert "<a " not in plain and "href" not in plain and 'data-testid="lesson-card"' in plain


def test_the_first_pages_links_keep_the_token_and_carry_the_language() -> None:
    assert lesson_href("/", "01-beginner.ipynb", "token=k7m2&lang=en", "de") == (
        "/voila/render/01-beginner.ipynb?token=k7m2&lang=de"
    )
    listing = [
        {"type": "notebook", "name": "15-raupe-race.ipynb", "path": "15-raupe-race.ipynb"},
        {"type": "notebook", "name": "01-beginner.ipynb", "path": "01-beginner.ipynb"},
        {"type": "notebook", "name": "my own.ipynb", "path": "my own.ipynb"},
        {"type": "directory", "name": "drafts", "path": "drafts"},
    ]
    page = tree_namespace(listing, "/base/", "", "token=k7m2")
    assert page["lang"] == "en" and [s["game"] for s in page["sections"]] == ["caterpillars", "raupe"]
    assert [link["href"] for link in page["languages"]] == ["/base/?token=k7m2&lang=en", "/base/?token=k7m2&lang=de"]
    race = page["sections"][1]["cards"][0]
    assert 'href="/base/voila/render/15-raupe-race.ipynb?token=k7m2&amp;lang=en"' in race
    assert 'target="lesson-15-raupe-race"' in race
    mine, drafts = page["others"]
    assert 'href="/base/voila/render/my%20own.ipynb?token=k7m2&amp;lang=en"' in mine and ">my own<" in mine
    assert 'data-testid="lesson-folder"' in drafts and "/base/voila/tree/drafts?token=k7m2&amp;lang=en" in drafts


def test_a_lesson_kernel_starts_in_the_language_of_its_address() -> None:
    """Voila hands a lesson's kernel its page's query (``QUERY_STRING``): ``lang=de`` starts it in German."""
    asks = "from caterpillar_learn.i18n import current_language; print(current_language())"
    for query, expected in (("token=abc&lang=de", "de"), ("lang=xx", "en"), ("", "en")):
        env = {**os.environ, QUERY_ENV: query}
        env.pop("CATERPILLAR_LEARN_LANG", None)
        said = subprocess.run([sys.executable, "-c", asks], env=env, capture_output=True, text=True, check=True)
        assert said.stdout.strip() == expected, query


def test_the_classroom_door_shows_the_cards_in_its_language() -> None:
    """The pupils' door carries the gallery's cards (to look at) and redraws them when its language changes."""
    from caterpillar_learn.classroom.consoles import JoinDesk, JoinWidget
    from caterpillar_learn.classroom.lobby import Lobby
    from caterpillar_learn.classroom.store import EventStore

    door = JoinWidget(JoinDesk(Lobby(EventStore(":memory:")), "10.0.0.7", lambda room, pupil: None), lang="de")
    assert [card["name"] for card in door.lessons] == NOTEBOOKS
    assert door.lessons[1]["title"] == catalogue("de")["lessons.title.beginner"]
    assert door.strings["lessons_title"] == catalogue("de")["gallery.door_heading"]
    door.handle({"type": "language", "value": "en"})
    assert door.lessons[1]["title"] == catalogue("en")["lessons.title.beginner"]
    assert door.lessons[1]["picture"] == card_of("01-beginner", "en").picture
    served = JoinWidget(JoinDesk(Lobby(EventStore(":memory:")), "10.0.0.8", lambda r, p: None, pictures="/static/"))
    assert served.lessons[0]["picture_url"] == "/static/lesson-00-setup-en.svg" and served.lessons[0]["picture"] == ""
