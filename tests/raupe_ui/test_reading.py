"""What a learner reads in the Räuber Raupe lessons, in every language of the catalogue.

The first two lessons are picture-first (:mod:`tests.reading`): every text
shown there has at most two sentences of at most twelve words, a button's
word at most twelve words.  Lessons 10 and 11 are played here through the
widget as a learner plays them (the question answered wrong and right, cards
played that fit and that do not, calls, a pause, the bots' turns, the end of
a game, a new game) and every text the page shows is collected on the way.

Every lesson's words live in the catalogue (the notebooks hold no Markdown):
:func:`reading_load` counts a lesson's intro and "try this" texts, and
``python -m tests.raupe_ui.test_reading`` prints the table that
``docs/ENGINEERS.md`` quotes.
"""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path

import pytest

from caterpillar_learn.i18n import available_languages, catalogue, language
from caterpillar_learn.lessons import SETUPS
from caterpillar_learn.raupe import legal_plays
from caterpillar_learn.raupe.cards import Colour
from caterpillar_learn.raupe.svg import PATTERNS
from caterpillar_learn.ui.raupe import RaupeWidget
from caterpillar_learn.ui.raupe.views import lesson_view, numbered
from tests.reading import MAX_WORDS, load, sentences, too_long, words

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
LANGUAGES = available_languages()
PICTURE_FIRST = ("10-raupe-shape", "11-raupe-colour")
#: Strings that name a button, a control or a link: only the word limit applies.
LABELS = {"start", "new_game", "pause", "shape", "colour", "aphid", "mistake", "flip", "pile", "speed", "level",
          "save_answers", "read_aloud", "language"}  # fmt: skip
#: The reading load (sentences, words) of each notebook's Markdown before its prose moved into the catalogue
#: (every heading, paragraph and list item counted with :func:`tests.reading.load`; English only).
BEFORE = {
    "10-raupe-shape": (22, 256),
    "11-raupe-colour": (12, 149),
    "12-raupe-change-card": (19, 176),
    "13-raupe-butterflies-and-aphids": (17, 164),
    "14-raupe-spot-the-mistake": (18, 162),
    "15-raupe-race": (17, 158),
}


def lesson_texts(lesson: str, lang: str) -> list[str]:
    """The words of the panels around the table: title, intro, the "try this" heading and items."""
    with language(lang):
        view = lesson_view(lesson)
    return [view["title"], *view["intro"], view["try_title"], *view["try_items"]]


def reading_load(lesson: str, lang: str) -> tuple[int, int]:
    """The reading load (sentences, words) of a lesson's intro and "try this" items in ``lang``.

    The same count as ``scripts/reading_load.py`` (the table of ``docs/ENGINEERS.md``); the
    panels' two headings (the title, "Try this") come on top.
    """
    with language(lang):
        view = lesson_view(lesson)
    return load([*view["intro"], *view["try_items"]])


class Reader:
    """Every text and every label a widget has shown, collected after each action."""

    def __init__(self, widget: RaupeWidget) -> None:
        self.widget = widget
        self.texts: set[str] = set()
        self.labels: set[str] = set()
        #: The line that says what to do now, at each moment.
        self.steps: set[str] = set()
        self.read()

    def read(self) -> None:
        w = self.widget
        table, question = w.table, w.question
        self.texts.update(filter(None, [w.message, *w.log, table["hint"], table["winner"], table["score"]]))
        self.steps.add(table["now"])
        self.texts.add(table["pile"]["label"])
        slip = table.get("slip") or {}
        self.texts.update(filter(None, [slip.get("card_text"), slip.get("leaf_text")]))
        if question:
            self.texts.add(question["text"])
            if "feedback" in question:
                self.texts.add(question["feedback"]["text"])
            self.labels.add(question["check"])
        words = w.lesson_text
        self.texts.update([words["title"], *words["intro"], words["try_title"], *words["try_items"]])
        for name, value in w.strings.items():
            if name in RaupeWidget.STRING_KEYS:  # the table's own words (not what base.py adds for every widget)
                (self.labels if name in LABELS else self.texts).add(value)
        self.labels.update([table["mode_text"], *(o["name"] for o in table["opponents"])])
        # The cards' own labels (aria) are left out: "Card 3 of 7: " and the engine's nine words for a side.

    def act(self, kind: str, **fields: object) -> None:
        self.widget.act(kind, **fields)
        self.read()


def answer_wrong_then_right(reader: Reader) -> None:
    """Start too early; choose a card that does not fit, then leave a fitting one out; then answer right."""
    widget = reader.widget
    question = widget.session.quiz.question
    assert question is not None
    right = sorted(question.correct, key=int)
    reader.act("start")  # "answer the question first"
    wrong = [str(i) for i in range(len(widget.hand)) if str(i) not in right][:1]
    for option in wrong + right[1:]:
        reader.act("answer", option=option)
    reader.act("check")
    assert widget.question["feedback"]["correct"] is False or question.accepts(wrong + right[1:])
    for option in wrong:
        reader.act("answer", option=option)
    if right:
        reader.act("check")  # one fitting card left out
        reader.act("answer", option=right[0])
    reader.act("check")
    assert widget.question["feedback"]["correct"] is True


def play_a_game(reader: Reader, rng: random.Random, limit: int = 600) -> None:
    """Play as a child might: mostly fitting cards, sometimes a wrong one, a call now and then, bots in between."""
    widget = reader.widget
    reader.act("start")
    reader.act("mistake")  # nothing to call yet
    reader.act("pause")
    reader.act("play", index=0)  # refused while paused
    reader.act("pause")
    for _ in range(limit):
        state = widget.session.game.state
        if state.finished:
            break
        reader.act("tick", dt=1.0)
        roll = rng.random()
        if roll < 0.1:
            options = legal_plays(widget.session.game.state, 0)
            if options and widget.session.game.state.hands[0]:
                option = options[0]
                if widget.hand[option.card]["side"] != option.side:
                    reader.act("flip", index=option.card)
                reader.act("play", index=option.card)
        elif roll < 0.15 and widget.hand:
            reader.act("play", index=rng.randrange(len(widget.hand)))  # whatever lies on top: may not fit
        elif roll < 0.18:
            reader.act("mistake")  # right or a false alarm, or nothing to call
    reader.act("play", index=0)  # the game is over
    reader.act("start")  # a new game


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lesson", PICTURE_FIRST)
def test_a_picture_first_lesson_keeps_every_text_short(lesson: str, lang: str) -> None:
    readers = []
    for seed in range(1, 7):
        reader = Reader(RaupeWidget(lesson, seed=seed, lang=lang))
        answer_wrong_then_right(reader)
        play_a_game(reader, random.Random(seed))
        readers.append(reader)
    texts = set().union(*(r.texts for r in readers))
    labels = set().union(*(r.labels for r in readers))
    # The games came round to every kind of text: the checks below are not checking nothing.
    assert [key for key in SHOWN if not shown(key, texts, lang)] == []
    assert too_long(texts) == []
    assert too_long(labels, max_sentences=None) == []
    # Each step's line and each rule of "How to play": at most 2 sentences of at most 8 words.
    steps = set().union(*(r.steps for r in readers))
    assert [key for key in STEPS if not shown(key, steps, lang)] == []
    assert [
        t for t in steps | set(lesson_texts(lesson, lang)) if any(words(p) > STEP_WORDS for p in sentences(t))
    ] == []
    assert too_long(steps) == []


#: The most words in a sentence of a step's line or a rule, in the picture-first lessons.
STEP_WORDS = 8
#: The step lines every run of the picture-first lessons shows.
STEPS = ("raupe_lessons.now.check", "raupe_lessons.now.show", "raupe_lessons.now.start", "raupe_lessons.now.play",
         "raupe_lessons.now.paused")  # fmt: skip


#: Messages every run of the picture-first lessons shows (so the collection reaches the game's texts).
SHOWN = (
    "raupe_lessons.title.",
    "raupe_lessons.question.cards",
    "lessons.question.answer_first",
    "raupe_lessons.feedback.wrong",
    "raupe_lessons.feedback.extra",
    "raupe_lessons.feedback.right_many",
    "raupe_lessons.msg.started",
    "raupe_lessons.msg.nothing_to_call",
    "raupe_lessons.msg.paused",
    "raupe_lessons.msg.is_paused",
    "raupe_lessons.msg.resumed",
    "raupe_lessons.msg.played",
    "raupe_lessons.msg.you_played",
    "raupe_lessons.msg.uncalled_you",  # the learner's own slip, left uncalled (a bot does not slip here)
    "raupe_lessons.call.caught_you_shown",  # a wrong card: the why is its picture beside the leaf (issue 40)
    "raupe_lessons.slip.card_words",  # a card that did not fit, beside its leaf (issue 40: no strategy line here)
    "raupe_lessons.slip.leaf_words",
    "raupe.end.empty_hand",
    "raupe_lessons.msg.over",
)


def shown(key: str, texts: set[str], lang: str) -> bool:
    """Whether a text filled from the message ``key`` (a prefix ending in "." for several) is among ``texts``."""
    messages = catalogue(lang)
    # A key with plural forms (German "call.right.one", ".other") is shown when any form is.
    templates = [v for k, v in messages.items() if k == key or k.startswith(key if key.endswith(".") else key + ".")]
    for template in templates:
        parts = [re.escape(literal) for literal, _, _, _ in string.Formatter().parse(template)]
        pattern = re.compile(".+?".join(parts))
        if any(pattern.search(t) for t in texts):
            return True
    return False


def test_the_limits_can_fail() -> None:
    """A long text and a long label are caught (the collection above is not checking nothing)."""
    long = "Before you start: which of your cards fit on the pile as they lie?"
    assert words(long) > MAX_WORDS and too_long([long]) == [long]
    assert too_long(["One. Two. Three."]) == ["One. Two. Three."]
    assert too_long(["One. Two. Three."], max_sentences=None) == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lesson", sorted(SETUPS))
def test_every_lesson_has_its_words_in_every_language(lesson: str, lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    intro, tries = numbered(f"raupe_lessons.intro.{lesson}"), numbered(f"raupe_lessons.try.{lesson}")
    assert len(intro) >= 3 and tries
    for key in [f"raupe_lessons.title.{lesson}", *intro, *tries]:
        assert other.get(key, "").strip(), f"{lang} lacks {key}"
    # No item beyond the numbered run (a gap would hide it) in English or in the translation.
    prefixes = (f"raupe_lessons.intro.{lesson}.", f"raupe_lessons.try.{lesson}.")
    for messages in (english, other):
        assert sorted(k for k in messages if k.startswith(prefixes)) == sorted(intro + tries)
    view = lesson_texts(lesson, lang)
    assert len(view) == len(intro) + len(tries) + 2 and all(view)


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_the_notebook_holds_no_prose(name: str) -> None:
    notebook = json.loads((LESSONS / f"{name}.ipynb").read_text(encoding="utf-8"))
    assert [cell["cell_type"] for cell in notebook["cells"]] == ["markdown", "code", "code"]  # the teacher's note first
    seeds = [c for c in notebook["cells"] if "parameters" in c["metadata"].get("tags", [])]
    assert len(seeds) == 1 and "SEED =" in "".join(seeds[0]["source"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_widget_redraws_the_lessons_words_in_the_language_chosen(lang: str) -> None:
    other = next(code for code in LANGUAGES if code != lang)
    widget = RaupeWidget("10-raupe-shape", seed=4, lang=lang)
    question = widget.session.quiz.question
    assert question is not None
    wrong = next(str(i) for i in range(len(widget.hand)) if str(i) not in question.correct)
    widget.act("answer", option=wrong)
    widget.act("check")
    with language(other):
        expected = lesson_view("10-raupe-shape")
    assert expected != widget.lesson_text
    widget.act("language", value=other)
    assert widget.lesson_text == expected and widget.lang == other
    # The open question is asked again in the new language, the learner's choice and check kept.
    assert widget.question["text"] == catalogue(other)["raupe_lessons.question.cards"]
    assert widget.hand[int(wrong)]["chosen"] is True and widget.question["feedback"]["correct"] is False
    assert widget.question["feedback"]["text"].startswith(catalogue(other)["raupe_lessons.feedback.wrong"])
    widget.act("answer", option=wrong)
    for option in sorted(question.correct):
        widget.act("answer", option=option)
    widget.act("check")
    widget.act("language", value=lang)  # answered right: the feedback follows too
    assert widget.question["feedback"]["correct"] is True
    assert widget.question["text"] == catalogue(lang)["raupe_lessons.question.cards"]


def test_lesson_ten_names_the_rule_books_shapes() -> None:
    """The rule book's square is the jagged shape (docs/RULES.md), never the straight one."""
    english = [s.lower() for item in lesson_texts("10-raupe-shape", "en") for s in sentences(item)]
    square = [s for s in english if "square" in s]
    assert square and all("jagged" in s and "straight" not in s for s in square)
    assert not any("square segments" in item for lang in LANGUAGES for item in lesson_texts("10-raupe-shape", lang))
    german = " ".join(lesson_texts("10-raupe-shape", "de"))
    assert all(word in german for word in ("gezackt", "gerade", "rund"))


def test_lesson_eleven_names_each_colours_pattern_as_the_cards_draw_it() -> None:
    assert PATTERNS == {Colour.GREEN: "stripes", Colour.RED: "dots", Colour.YELLOW: "plain"}
    english = lesson_texts("11-raupe-colour", "en")
    assert {"Green has stripes. Red has dots.", "Yellow is plain and light."} <= set(english)
    german = lesson_texts("11-raupe-colour", "de")
    assert {"Grün hat Streifen. Rot hat Punkte.", "Gelb ist einfarbig und hell."} <= set(german)


def test_the_reading_load_did_not_grow() -> None:
    for lesson, (_, before_words) in BEFORE.items():
        assert reading_load(lesson, "en")[1] < before_words, lesson


def main() -> None:
    """Print the reading load of every lesson, before (the notebook's Markdown) and now, per language."""
    print("lesson | before (en) | " + " | ".join(LANGUAGES))
    for lesson in sorted(SETUPS):
        now = " | ".join("{} sentences, {} words".format(*reading_load(lesson, lang)) for lang in LANGUAGES)
        print("{} | {} sentences, {} words | {}".format(lesson, *BEFORE[lesson], now))


if __name__ == "__main__":
    main()
