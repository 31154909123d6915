"""A lesson's printed page on a lessons server: ``BASE/print/<lesson>?seed=N&lang=L``.

The page itself is :func:`caterpillar_learn.lessons.printable.page_html`;
this module only serves it.  :class:`PrintPage` is a jupyter_server handler
(the server's own login: a class on the network needs the token, as for the
lessons), so it runs on ``caterpillar-learn serve`` (:class:`PrintingVoila`
adds the route to the lessons' Voila) and on any Jupyter server with the
gallery's server extension (:mod:`~caterpillar_learn.ui.hosting.gallery_server`,
at ``BASE/caterpillar-learn/print/<lesson>``); the classroom server answers
its own ``/print/<lesson>`` for the teacher alone with :func:`answer_print`
(:class:`~caterpillar_learn.classroom.scoresheets.LessonPrint`).  Working out a Caterpillars
lesson's answers takes the helper up to a few seconds the first time, so it
runs off the event loop; a bad lesson, seed or language gets one line
(HTTP 404 or 400) naming the field and the value.
"""

from __future__ import annotations

from urllib.parse import quote

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import web
from tornado.ioloop import IOLoop

from caterpillar_learn.i18n import current_language, text
from caterpillar_learn.lessons.printable import PrintableError, lesson_sheet, page_html, parse_seed
from caterpillar_learn.ui.hosting.gallery_page import page_language

__all__ = ["PRINT", "PrintPage", "answer_print", "print_href", "print_route"]

#: Where the printed pages live, under a server's base URL (``caterpillar-learn serve``: ``/print/01-beginner``).
PRINT = "print"
#: A page's seed when its address names none: the lessons' own (every notebook starts at ``SEED = 1``).
DEFAULT_SEED = "1"


def print_href(base_url: str, name: str, seed: int = 1, lang: str = "en", where: str = PRINT) -> str:
    """The address of lesson ``name``'s printed page.

    >>> print_href("/", "01-beginner", 3, "de")
    '/print/01-beginner?seed=3&lang=de'
    """
    return f"{url_path_join(base_url, where, quote(name))}?seed={seed}&lang={lang}"


def print_route(base_url: str, where: str = PRINT) -> tuple[str, type[PrintPage]]:
    """The route of the printed pages under ``base_url`` (a Tornado handler spec).

    >>> print_route("/")[0]
    '/print/(?P<name>[A-Za-z0-9_-]+)'
    """
    return url_path_join(base_url, where, "(?P<name>[A-Za-z0-9_-]+)"), PrintPage


class PrintPage(JupyterHandler):
    """One lesson's page for the teacher's printer."""

    auth_resource = "contents"

    @web.authenticated
    async def get(self, name: str) -> None:
        await answer_print(self, name)


async def answer_print(handler: web.RequestHandler, name: str) -> None:
    """Answer ``handler``'s request with lesson ``name``'s printed page (a lessons server's, the classroom's):
    the seed and the language from its address, or one line naming what was refused."""
    query = handler.request.query
    lang = page_language(query) if "lang=" in query else current_language()
    try:
        seed = parse_seed(handler.get_query_argument("seed", DEFAULT_SEED))
        sheet = await IOLoop.current().run_in_executor(None, lesson_sheet, name, seed, lang)
    except PrintableError as refused:
        handler.set_status(404 if str(refused).startswith("lesson:") else 400)
        handler.set_header("Content-Type", "text/plain; charset=UTF-8")
        handler.finish(f"{text('printable.refused')} {refused}\n")
        return
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    handler.set_header("Cache-Control", "no-store")
    handler.finish(page_html(sheet))
