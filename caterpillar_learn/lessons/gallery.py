"""The lesson gallery: every lesson as a card with a picture, its title, the age it is for and what a child learns.

The twelve lessons (Caterpillars 00–05, Räuber Raupe 10–15) are the
:data:`GALLERY`, one :class:`Entry` each: the game, the youngest age the
lesson is made for, and how its picture is drawn from the lesson's own board
(:mod:`~caterpillar_learn.lessons.thumbnails`).  Every word is the
catalogue's, in the language asked for: the title is the one the lesson
shows at its top (``lessons.title.*``, ``raupe_lessons.title.*``), the age
and the one line are ``gallery.*``.

:func:`cards` gives the cards as plain data (:class:`Card`, with
:meth:`Card.to_json` for a widget's trait); :func:`card_html` draws one card
as HTML: a link when it is given an address (``caterpillar-learn serve``'s
first page), a plain list item when not (the classroom's door, where the
teacher opens the rooms).  Pictures are made once per lesson and language.

>>> [card.name for card in cards("en")][:3]
['00-setup', '01-beginner', '02-intermediate']
>>> card = card_of("01-beginner", "de")
>>> card.title, card.age_text
('Lektion 1: Anfänger', 'Ab 5 Jahren')
>>> card_of("09-nothing", "en")
Traceback (most recent call last):
...
KeyError: "lesson: got '09-nothing', expected one of 00-setup, 01-beginner, 02-intermediate, 03-advanced, \
04-expert, 05-strategy-lab, 10-raupe-shape, 11-raupe-colour, 12-raupe-change-card, \
13-raupe-butterflies-and-aphids, 14-raupe-spot-the-mistake, 15-raupe-race"
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any

from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import available_languages, current_language, language, text
from caterpillar_learn.lessons.files import LessonFile, lesson_of
from caterpillar_learn.lessons.thumbnails import sheet_picture, table_picture

__all__ = [
    "GALLERY",
    "Card",
    "Entry",
    "SheetShot",
    "TableShot",
    "card_html",
    "card_of",
    "card_of_file",
    "cards",
    "is_lesson",
    "picture",
    "picture_file",
    "write_pictures",
]

#: The games, as the cards name them in ``data-game``.
GAMES = ("caterpillars", "raupe")


@dataclass(frozen=True)
class SheetShot:
    """A Caterpillars picture: the lesson's sheet after ``setup_rolls`` setup rolls (``None``: all) and ``rounds``."""

    rounds: int
    setup_rolls: int | None = None
    #: The ``gallery.picture.*`` message that names the picture.
    words: str = "sheet"


@dataclass(frozen=True)
class TableShot:
    """A Räuber Raupe picture: the pile and a hand at the lesson's table, dealt with the lesson's ``seed``."""

    #: The notebook's ``SEED`` (tests/lessons/test_gallery.py reads it there).
    seed: int
    #: The card the lesson teaches, shown in the hand (:data:`~caterpillar_learn.lessons.thumbnails.FEATURES`).
    feature: str = ""
    words: str = "table"


@dataclass(frozen=True)
class Entry:
    """One lesson of the gallery: its notebook's name, its game, its title, the youngest age it is for."""

    name: str
    game: str
    title_key: str
    age: int
    shot: SheetShot | TableShot

    @property
    def number(self) -> int:
        """The lesson's number, from its name (``01-beginner``: 1)."""
        return int(self.name.split("-", 1)[0])


def _sheet(name: str, key: str, age: int, shot: SheetShot) -> Entry:
    return Entry(name, "caterpillars", f"lessons.title.{key}", age, shot)


def _table(name: str, age: int, shot: TableShot) -> Entry:
    return Entry(name, "raupe", f"raupe_lessons.title.{name}", age, shot)


#: Every lesson, in the order of their numbers.  The ages follow docs/PEDAGOGY: lessons 00, 01, 10 and 11 are
#: made for children who cannot read yet (they read themselves aloud); each later lesson adds one idea.
GALLERY: dict[str, Entry] = {
    entry.name: entry
    for entry in (
        _sheet("00-setup", "setup", 5, SheetShot(rounds=0, setup_rolls=1, words="setup")),
        _sheet("01-beginner", "beginner", 5, SheetShot(rounds=3)),  # round 2: a box crossed out with a 0
        _sheet("02-intermediate", "intermediate", 7, SheetShot(rounds=3)),  # labels above 6
        _sheet("03-advanced", "advanced", 8, SheetShot(rounds=3)),  # a die kept in a bonus box
        _sheet("04-expert", "expert", 9, SheetShot(rounds=4)),
        _sheet("05-strategy-lab", "lab", 10, SheetShot(rounds=12, words="final")),  # a whole game: one flies
        _table("10-raupe-shape", 5, TableShot(10)),
        _table("11-raupe-colour", 5, TableShot(11)),
        _table("12-raupe-change-card", 6, TableShot(12, "change")),
        _table("13-raupe-butterflies-and-aphids", 6, TableShot(13, "butterfly")),
        _table("14-raupe-spot-the-mistake", 7, TableShot(14)),
        _table("15-raupe-race", 8, TableShot(15)),
    )
}


def is_lesson(name: str) -> bool:
    """Whether ``name`` (a notebook's file name without ``.ipynb``) is a lesson of the gallery.

    >>> is_lesson("10-raupe-shape"), is_lesson("my-copy")
    (True, False)
    """
    return name in GALLERY


@dataclass(frozen=True)
class Card:
    """What a card shows, in one language: plain data for a page or a widget's trait."""

    name: str
    number: int
    game: str
    language: str
    title: str
    age: int
    age_text: str
    learns: str
    #: The lesson's picture: sanitized SVG markup, one image (``role="img"``) named :attr:`picture_label`.
    picture: str
    picture_label: str

    def to_json(self) -> dict[str, Any]:
        """The card as JSON (every field).

        >>> sorted(card_of("10-raupe-shape", "en").to_json())[:4]
        ['age', 'age_text', 'game', 'language']
        """
        return asdict(self)


def card_of(name: str, lang: str | None = None) -> Card:
    """The card of the lesson ``name`` in ``lang`` (default: the current language)."""
    entry = _entry(name)
    chosen = lang or current_language()
    with language(chosen):
        return Card(
            name=entry.name,
            number=entry.number,
            game=entry.game,
            language=chosen,
            title=text(entry.title_key),
            age=entry.age,
            age_text=text("gallery.age", age=entry.age),
            learns=text(f"gallery.learns.{entry.name}"),
            picture=picture(entry.name, chosen),
            picture_label=text(f"gallery.picture.{entry.shot.words}"),
        )


def card_of_file(lesson: LessonFile, lang: str | None = None) -> Card:
    """The card of a teacher's lesson file (:mod:`caterpillar_learn.lessons.files`): its own title, age and line,
    and a picture of its sheet after its first rounds, in ``lang``'s words around them.

    >>> from caterpillar_learn.lessons.files import parse
    >>> mine = parse('format = 1\\nlevel = "beginner"\\ntitle = "Doubles"\\nage = 5\\nline = "Two the same"\\n'
    ...              '[[step]]\\nroll = "2 2"\\n', "doubles.toml")
    >>> card = card_of_file(mine, "de")
    >>> card.name, card.title, card.age_text, card.learns, card.picture.startswith("<svg")
    ('doubles', 'Doubles', 'Ab 5 Jahren', 'Two the same', True)
    """
    chosen = lang or current_language()
    with language(chosen):
        label = text("gallery.picture.sheet")
        return Card(
            name=Path(lesson.name).stem,
            number=0,
            game="caterpillars",
            language=chosen,
            title=lesson.title,
            age=lesson.age,
            age_text=text("gallery.age", age=lesson.age),
            learns=lesson.line,
            picture=_file_picture(lesson, chosen, label),
            picture_label=label,
        )


@lru_cache(maxsize=64)
def _file_picture(lesson: LessonFile, lang: str, label: str) -> str:
    """A teacher's lesson's picture (its sheet after its own first rounds), made once per lesson and language."""
    uid = "own-" + "".join(c for c in Path(lesson.name).stem if c.isalnum())
    return sheet_picture(lesson_of(lesson), label, uid=uid)


def cards(lang: str | None = None) -> tuple[Card, ...]:
    """Every lesson's card in ``lang`` (default: the current language), in the order of their numbers."""
    return tuple(card_of(name, lang) for name in GALLERY)


@lru_cache(maxsize=64)
def picture(name: str, lang: str) -> str:
    """The picture of lesson ``name`` in ``lang`` (the sheet and the cards carry words), made once and kept.

    >>> picture("01-beginner", "en") is picture("01-beginner", "en")
    True
    """
    entry = _entry(name)
    shot = entry.shot
    uid = f"lesson{entry.number:02d}"
    with language(lang):
        label = text(f"gallery.picture.{shot.words}")
        if isinstance(shot, SheetShot):
            return sheet_picture(name, label, rounds=shot.rounds, setup_rolls=shot.setup_rolls, uid=uid)
        return table_picture(name, shot.seed, label, feature=shot.feature, uid=uid)


def picture_file(name: str, lang: str) -> str:
    """The file name of lesson ``name``'s picture in ``lang`` (:func:`write_pictures`).

    >>> picture_file("01-beginner", "de")
    'lesson-01-beginner-de.svg'
    """
    return f"lesson-{_entry(name).name}-{lang}.svg"


def write_pictures(folder: Path) -> list[Path]:
    """Every lesson's picture in every language as an SVG file in ``folder`` (a server's static folder: a
    page then shows it as an image its browser keeps, instead of receiving its markup).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = write_pictures(Path(folder))
    ...     len(written), written[0].read_text(encoding="utf-8").startswith("<svg")
    (24, True)
    """
    written = []
    for lang in available_languages():
        for name in GALLERY:
            path = folder / picture_file(name, lang)
            path.write_text(picture(name, lang), encoding="utf-8")
            written.append(path)
    return written


def _entry(name: str) -> Entry:
    try:
        return GALLERY[name]
    except KeyError:
        raise KeyError(describe("lesson", name, "one of " + ", ".join(GALLERY))) from None


def card_html(card: Card, href: str | None = None, *, target: str | None = None) -> str:
    """One card as HTML: the picture, the title, the age and the one line.

    With ``href`` the whole card is one link (opening in ``target``, a window name), named by what it
    shows: the title, the age, the line and last the picture's label (the picture comes first in the
    DOM's order only for the eye, through the CSS ``order`` of ``.lesson-picture``).  Without ``href``,
    a card to look at: a group named by its title.

    >>> shown = card_html(card_of("01-beginner", "en"), "/voila/render/01-beginner.ipynb?lang=en", target="lesson-01")
    >>> shown.startswith('<a class="lesson-card '), 'data-lesson="01-beginner"' in shown, 'target="lesson-01"' in shown
    (True, True, True)
    >>> card_html(card_of("01-beginner", "en")).startswith('<div class="lesson-card ')
    True
    """
    ids = f"lesson-{card.name}"
    inner = (
        f'<span class="lesson-title" id="{ids}-title">{escape(card.title)}</span> '
        f'<span class="lesson-about" id="{ids}-about">'
        f'<span class="lesson-age">{escape(card.age_text)}</span> '
        f'<span class="lesson-learns">{escape(card.learns)}</span></span> '
        f'<span class="lesson-picture">{card.picture}</span>'
    )
    common = (
        f'class="lesson-card lesson-{card.game}" data-testid="lesson-card" data-lesson="{escape(card.name)}" '
        f'data-game="{card.game}" lang="{escape(card.language)}"'
    )
    if href is None:
        return f'<div {common} role="group" aria-labelledby="{ids}-title" aria-describedby="{ids}-about">{inner}</div>'
    opens = f' target="{escape(target)}"' if target else ""
    return f'<a {common} href="{escape(href)}"{opens}>{inner}</a>'
