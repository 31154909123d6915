"""The lessons' Jupyter data: where Jupyter finds the lessons' Voila look, their mend and the gallery.

The package carries two folders laid out as Jupyter's own are, and an
install copies each one under ``sys.prefix`` (setuptools ``data_files``, as
Voila's own templates and JupyterLab's extensions are installed):

* :data:`SHARE` becomes ``share/jupyter``: the lessons' Voila templates
  (``voila/templates/caterpillar-learn``, :data:`VOILA_TEMPLATE`, Voila's
  whole page, and ``voila/templates/caterpillar-learn-light``,
  :data:`VOILA_LIGHT_TEMPLATE`, the light page ``serve`` shows) and the
  front-end extension that mends two widget races on the whole page
  (``voila/labextensions/caterpillar_learn_voila``: the folder Voila alone
  reads, so JupyterLab never loads it).
* :data:`ETC` becomes ``etc/jupyter``: ``jupyter_server_config.d/caterpillar_learn.json``
  enables :data:`SERVER_EXTENSION` (the gallery on any Jupyter server:
  Binder, JupyterHub, ``jupyter lab``).

``caterpillar-learn serve`` reads the same files from the package itself
(:data:`SHARE` on ``JUPYTER_PATH``), so a checkout that was never installed
serves them too.  Nothing here imports Jupyter.

>>> (SHARE / "voila" / "templates" / VOILA_TEMPLATE / "index.html.j2").is_file()
True
>>> sorted(installed_files())[0][0]
'etc/jupyter/jupyter_server_config.d'
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "ETC",
    "SERVER_EXTENSION",
    "SHARE",
    "VOILA_EXTENSIONS",
    "VOILA_LABEXTENSION",
    "VOILA_LABEXTENSIONS",
    "VOILA_LIGHT_TEMPLATE",
    "VOILA_TEMPLATE",
    "installed_files",
]

HERE = Path(__file__).resolve().parent
#: The package's ``share/jupyter``: Jupyter's data (templates, front-end extensions).
SHARE = HERE / "share"
#: The package's ``etc/jupyter``: Jupyter's configuration (the server extension switched on).
ETC = HERE / "etc"
#: Where each folder goes under ``sys.prefix`` when the package is installed.
INSTALLED_AS = {SHARE: "share/jupyter", ETC: "etc/jupyter"}
#: The lessons' Voila template: Voila's ``lab`` page, without the style sheets it links from a CDN (Binder's).
VOILA_TEMPLATE = "caterpillar-learn"
#: The lessons' light Voila template (``caterpillar-learn serve``, issue 40): the same page and kernel, with
#: ``static/lesson-page.js`` (a few KiB) in place of Voila's JupyterLab application; its lesson list and
#: error pages are :data:`VOILA_TEMPLATE`'s.
VOILA_LIGHT_TEMPLATE = "caterpillar-learn-light"
#: The Voila-only front-end extension (its ``static/remoteEntry.js`` says what it mends and how).
VOILA_LABEXTENSION = "caterpillar_learn_voila"
#: Front-end extensions for Voila alone (``voila/labextensions/*/`` of :data:`SHARE`).
VOILA_LABEXTENSIONS = SHARE / "voila" / "labextensions"
#: The front-end extensions Voila's whole page (:data:`VOILA_TEMPLATE`: Binder's lessons, and ``serve``'s for a
#: notebook that is not all anywidgets) loads (issue 19), each one because a lesson needs it:
#: ipywidgets' manager and Voila's own widget manager draw every widget; anywidget runs the boards
#: (``widgets/*.js``); :data:`VOILA_LABEXTENSION` mends the races.  Everything else installed beside
#: them (jupytext, the Notebook's and Panel's JupyterLab extensions, pygments' theme) is for
#: JupyterLab, fails on Voila's page and would only add to what a tablet downloads.
VOILA_EXTENSIONS = (
    "@jupyter-widgets/jupyterlab-manager",
    "@voila-dashboards/widgets-manager8",
    "anywidget",
    VOILA_LABEXTENSION,
)
#: The Jupyter server extension that adds the gallery's page (:mod:`caterpillar_learn.ui.hosting.gallery_server`).
SERVER_EXTENSION = "caterpillar_learn.ui.hosting.gallery_server"


def installed_files(root: Path = HERE.parents[2]) -> Iterator[tuple[str, str]]:
    """Each data file as setuptools' ``data_files`` names it: (its folder under ``sys.prefix``, its path from
    ``root``, the project's folder).  ``tests/binder`` checks that pyproject.toml installs exactly these."""
    for folder, installed in INSTALLED_AS.items():
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                where = path.parent.relative_to(folder).as_posix()
                yield installed if where == "." else f"{installed}/{where}", path.relative_to(root).as_posix()
