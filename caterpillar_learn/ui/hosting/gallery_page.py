"""``caterpillar-learn serve``'s first page: the lesson gallery, in the language the page's address asks for.

Voila draws its "classic" tree page with the template's ``tree.html``
(``share/voila/templates/caterpillar-learn``); :class:`~caterpillar_learn.ui.hosting.voila_app.GalleryHandler`
hands that template :func:`tree_namespace`: the page's language, its words,
the language menu (one link per language, the same page in that language)
and one card per item of the folder.  A lesson of the gallery is its card
(:func:`~caterpillar_learn.lessons.gallery.card_html`); a notebook the
gallery does not know (a teacher's own) gets a plain card with its name; a
folder a card that opens it.

Every link keeps the page's query (the token of a class on the network) and
sets ``lang``: a lesson opened from the German gallery starts in German (its
kernel reads ``lang`` from the address, :data:`caterpillar_learn.i18n.QUERY_ENV`).
A lesson opens in a tab named after it, so a second tap on its card, or a
double tap, comes back to that one tab instead of opening another.

The same page is served on any Jupyter server by our server extension
(:mod:`~caterpillar_learn.ui.hosting.gallery_server`), whose folder pages live
at their own address (:class:`Routes`).

Nothing here imports Voila: the page's data is plain Python, tested without a server.

>>> lesson_href("/", "01-beginner.ipynb", "token=abc&lang=en", "de")
'/voila/render/01-beginner.ipynb?token=abc&lang=de'
>>> page_language("lang=de"), page_language("lang=xx"), page_language("")
('de', 'en', 'en')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from caterpillar_learn.i18n import available_languages, current_language, language, language_choices, text
from caterpillar_learn.lessons import files
from caterpillar_learn.lessons.files import LessonFile
from caterpillar_learn.lessons.gallery import GAMES, card_html, card_of, card_of_file, is_lesson
from caterpillar_learn.ui.base import template

__all__ = [
    "SERVE",
    "Routes",
    "folder_html",
    "language_links",
    "lesson_href",
    "lessons_beside",
    "page_language",
    "tree_namespace",
    "with_language",
]

NOTEBOOK = ".ipynb"


@dataclass(frozen=True)
class Routes:
    """Where a server shows a folder's gallery, relative to its base URL: ``home`` for the top folder,
    ``folders/PATH`` for the others.  (A lesson is always Voila's ``voila/render/PATH``.)

    >>> Routes().folder("/", ""), Routes().folder("/", "my lessons")
    ('/', '/voila/tree/my%20lessons')
    """

    folders: str = "voila/tree"
    home: str = ""

    def folder(self, base_url: str, path: str) -> str:
        """The address of the gallery of the folder at ``path`` (``""``: the top one)."""
        return f"{base_url}{self.folders}/{quote(path)}" if path else f"{base_url}{self.home}"


#: ``caterpillar-learn serve``: Voila's own tree pages, the top one at the server's root.
SERVE = Routes()


def page_language(query: str) -> str:
    """The page's language: ``lang`` in its address when there is a catalogue for it, else the server's."""
    asked = dict(parse_qsl(query)).get("lang", "")
    return asked if asked in available_languages() else current_language()


def with_language(query: str, lang: str) -> str:
    """``query`` with ``lang`` set (every other argument kept, in its order).

    >>> with_language("token=abc", "de"), with_language("lang=en", "de")
    ('token=abc&lang=de', 'lang=de')
    """
    kept = [(name, value) for name, value in parse_qsl(query, keep_blank_values=True) if name != "lang"]
    return urlencode([*kept, ("lang", lang)])


def lesson_href(base_url: str, path: str, query: str, lang: str) -> str:
    """The address of the lesson notebook at ``path``, in ``lang``."""
    return f"{base_url}voila/render/{quote(path)}?{with_language(query, lang)}"


def window_name(path: str) -> str:
    """The name of the tab a lesson opens in: one tab per lesson.

    >>> window_name("sub/01-beginner.ipynb")
    'lesson-sub-01-beginner'
    """
    stem = path.removesuffix(NOTEBOOK)
    return "lesson-" + "".join(c if c.isalnum() or c in "-_" else "-" for c in stem)


def language_links(base_url: str, path: str, query: str, lang: str, routes: Routes = SERVE) -> list[dict[str, Any]]:
    """The language menu: each language, named in itself, linking to this page in it.

    >>> [(link["code"], link["current"]) for link in language_links("/", "", "", "de")]
    [('en', False), ('de', True)]
    """
    here = routes.folder(base_url, path)
    return [
        {**choice, "href": f"{here}?{with_language(query, choice['code'])}", "current": choice["code"] == lang}
        for choice in language_choices()
    ]


def folder_html(name: str, href: str) -> str:
    """A card for a folder of lessons (a teacher's own): its name, one link."""
    return (
        f'<a class="lesson-card lesson-folder" data-testid="lesson-folder" href="{escape(href)}">'
        f'<span class="lesson-title">{escape(name)}/</span></a>'
    )


def other_html(name: str, href: str, target: str) -> str:
    """A card for a notebook the gallery does not know (a teacher's own lesson): its name, one link.

    >>> other_html("my-lesson", "/x", "lesson-my-lesson").startswith('<a class="lesson-card lesson-other"')
    True
    """
    return (
        f'<a class="lesson-card lesson-other" data-testid="lesson-card" data-lesson="{escape(name)}" '
        f'href="{escape(href)}" target="{escape(target)}"><span class="lesson-title">{escape(name)}</span></a>'
    )


def lessons_beside(root: object) -> Callable[[str], LessonFile | None]:
    """How a server finds a teacher's lesson file beside a notebook at a path of its folder ``root`` (its contents
    manager's ``root_dir``; none known: never)."""
    if not isinstance(root, str) or not root:
        return lambda path: None
    return lambda path: files.beside(Path(root, path))


def tree_namespace(
    contents: Iterable[Mapping[str, Any]],
    base_url: str,
    path: str,
    query: str,
    routes: Routes = SERVE,
    lesson_file: Callable[[str], LessonFile | None] = lambda path: None,
) -> dict[str, Any]:
    """What ``tree.html`` shows for a folder's ``contents`` (Voila's listing): the page's words, its language
    menu, the gallery's cards by game (in lesson order) and then the other notebooks and folders.
    Folders open at ``routes`` (:data:`SERVE`'s unless told).  A teacher's notebook that plays a lesson file
    (``lesson_file`` finds the file beside the notebook at a path) gets that lesson's own card.

    >>> page = tree_namespace([{"type": "notebook", "name": "01-beginner.ipynb", "path": "01-beginner.ipynb"},
    ...                        {"type": "notebook", "name": "mine.ipynb", "path": "mine.ipynb"}], "/", "", "lang=de")
    >>> page["lang"], page["heading"], [section["heading"] for section in page["sections"]], len(page["others"])
    ('de', 'Such dir eine Lektion aus', ['Raupen'], 1)
    >>> shown = page["sections"][0]["cards"][0]
    >>> "01-beginner.ipynb?lang=de" in shown and ".ipynb<" not in shown
    True
    """
    lang = page_language(query)
    lessons: dict[str, list[tuple[str, str]]] = {game: [] for game in GAMES}
    others: list[str] = []
    with language(lang):
        for item in contents:
            name, where = str(item.get("name", "")), str(item.get("path", ""))
            if item.get("type") == "directory":
                others.append(folder_html(name, f"{routes.folder(base_url, where)}?{with_language(query, lang)}"))
                continue
            stem = name.removesuffix(NOTEBOOK)
            href, target = lesson_href(base_url, where, query, lang), window_name(where)
            if is_lesson(stem):
                card = card_of(stem, lang)
                lessons[card.game].append((stem, card_html(card, href, target=target)))
            elif (own := lesson_file(where)) is not None:
                others.append(card_html(card_of_file(own, lang), href, target=target))
            else:
                others.append(other_html(stem, href, target))
        return {
            "lang": lang,
            "title": text("gallery.page_title"),
            "heading": text("gallery.heading"),
            "languages_label": text("gallery.languages"),
            "languages": language_links(base_url, path, query, lang, routes),
            "sections": [
                {"game": game, "heading": text(f"gallery.game.{game}"), "cards": [html for _, html in sorted(found)]}
                for game, found in lessons.items()
                if found
            ],
            "others": others,
            "others_heading": text("gallery.other"),
            # A card's badge of practice waiting (issue 33), drawn by the page from its localStorage.
            "practice_due": {"one": template("practice.due.one"), "other": template("practice.due.other")},
        }
