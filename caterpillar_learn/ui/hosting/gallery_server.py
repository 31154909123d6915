"""The lesson gallery on any Jupyter server: a server extension for Binder, JupyterHub and ``jupyter lab``.

``caterpillar-learn serve`` shows the gallery as its first page.  A plain
Jupyter server (a Binder session, a school's JupyterHub, ``jupyter lab``)
runs Voila as a server extension instead, whose own first page is a list
drawn by JavaScript.  This extension adds the gallery's page to such a
server: ``BASE/caterpillar-learn/gallery/PATH`` shows the folder ``PATH`` of
the server's files as the gallery's cards (the same ``tree.html`` of the
lessons' Voila template and the same page data,
:func:`~caterpillar_learn.ui.hosting.gallery_page.tree_namespace`), and each
card opens its lesson in Voila (``BASE/voila/render/PATH``).

An install switches it on: ``etc/jupyter/jupyter_server_config.d/caterpillar_learn.json``
(:mod:`~caterpillar_learn.ui.hosting.jupyter_data`).  It adds the gallery's page and each lesson's printed page
(``BASE/caterpillar-learn/print/<lesson>``) and
changes nothing else on the server: Voila's template and front-end
extensions stay as the server's configuration says (``binder/`` chooses the
lessons' own).

The page is jupyter_server's: its login, its ``contents`` permission, its
hidden-file rule.  The cards' pictures are drawn off the event loop (the
first page in a language takes about a second).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, Template
from jupyter_core.paths import jupyter_path
from jupyter_core.utils import ensure_async
from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import JupyterHandler, path_regex
from jupyter_server.serverapp import ServerApp
from jupyter_server.utils import url_path_join
from tornado import web
from tornado.ioloop import IOLoop

from caterpillar_learn.ui.hosting.gallery_page import Routes, lessons_beside, tree_namespace
from caterpillar_learn.ui.hosting.jupyter_data import SHARE, VOILA_TEMPLATE
from caterpillar_learn.ui.hosting.print_page import print_route

__all__ = ["ROUTES", "GalleryPage", "gallery_template", "is_shown", "load_jupyter_server_extension"]

#: The gallery's pages on a Jupyter server: ``BASE/caterpillar-learn/gallery`` and ``.../gallery/PATH``.
ROUTES = Routes(folders="caterpillar-learn/gallery", home="caterpillar-learn/gallery")
#: A lesson's printed page on a Jupyter server: ``BASE/caterpillar-learn/print/<lesson>``
#: (:mod:`~caterpillar_learn.ui.hosting.print_page`).
PRINTED = "caterpillar-learn/print"
#: The notebooks a gallery shows: those Voila renders as lessons.
NOTEBOOK = ".ipynb"


def template_folders() -> list[Path]:
    """Where ``tree.html`` is looked for: the lessons' Voila template where Jupyter finds it (an install's
    ``share/jupyter``, ``JUPYTER_PATH``), then the package's own copy of the same file."""
    found = [Path(folder) for folder in jupyter_path("voila", "templates", VOILA_TEMPLATE)]
    return [*found, SHARE / "voila" / "templates" / VOILA_TEMPLATE]


def gallery_template() -> Template:
    """The gallery's page (``tree.html``), escaped as Voila escapes its templates."""
    return Environment(loader=FileSystemLoader(template_folders()), autoescape=True).get_template("tree.html")


def is_shown(item: Mapping[str, Any]) -> bool:
    """Whether the gallery shows an item of a folder's listing: ``.ipynb`` notebooks and folders, none hidden.
    (A server with jupytext lists a notebook's ``.py`` twin as a notebook too: one card a lesson is enough.)

    >>> is_shown({"type": "notebook", "name": "01-beginner.ipynb"}), is_shown({"type": "file", "name": "a.txt"})
    (True, False)
    >>> is_shown({"type": "notebook", "name": "01-beginner.py"}), is_shown({"type": "directory", "name": ".git"})
    (False, False)
    """
    name = str(item.get("name", ""))
    if name.startswith("."):
        return False
    return item.get("type") == "directory" or (item.get("type") == "notebook" and name.endswith(NOTEBOOK))


class GalleryPage(JupyterHandler):
    """A folder of the server's files as the lesson gallery."""

    auth_resource = "contents"

    def initialize(self, template: Template) -> None:
        self.template = template

    @web.authenticated
    @authorized
    async def get(self, path: str = "") -> None:
        path = path.strip("/")
        contents = self.contents_manager
        # jupyter_server's contents managers are untyped, sync or async
        if not await ensure_async(contents.dir_exists(path)):  # type: ignore[no-untyped-call]
            raise web.HTTPError(404)
        hidden = await ensure_async(contents.is_hidden(path))  # type: ignore[no-untyped-call]
        if hidden and not contents.allow_hidden:
            raise web.HTTPError(404)
        listing = await ensure_async(contents.get(path, content=True))  # type: ignore[no-untyped-call]
        items = sorted((item for item in listing["content"] if is_shown(item)), key=lambda item: str(item["name"]))
        query = self.request.query
        # The cards' pictures: a solve-free drawing, but about a second for the first page in a language.
        beside = lessons_beside(getattr(contents, "root_dir", None))  # a teacher's lesson files beside notebooks
        gallery = await IOLoop.current().run_in_executor(
            None, tree_namespace, items, self.base_url, path, query, ROUTES, beside
        )
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(self.template.render(gallery=gallery))


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """What jupyter_server loads: this module (its :func:`load_jupyter_server_extension`)."""
    return [{"module": __name__}]


def _load_jupyter_server_extension(server_app: ServerApp) -> None:
    """Add the gallery's pages to ``server_app``."""
    web_app = server_app.web_app
    base_url = web_app.settings["base_url"]
    route = url_path_join(base_url, ROUTES.folders) + path_regex
    printed = print_route(base_url, PRINTED)
    web_app.add_handlers(".*$", [(route, GalleryPage, {"template": gallery_template()}), printed])  # type: ignore[no-untyped-call]
    server_app.log.info("caterpillar-learn: the lesson gallery at %s", ROUTES.folder(base_url, ""))


#: The name older servers (and ``jupyter server extension list``) look for.
load_jupyter_server_extension = _load_jupyter_server_extension
