"""What every page of the classroom server gets, whoever builds it: an end, and a word when the server goes.

:func:`every_page` wraps the server's page functions (in
:func:`~caterpillar_learn.classroom.server.serve`), so the pages
themselves need not know:

* **Its widgets closed when its session ends.**  An ipywidgets widget stays
  in ipywidgets' registry of live widgets until it is closed, and so does
  everything it holds (a pupil's sheet, a door, a console): a page's Bokeh
  session is destroyed when the page is closed, or when a page that never
  connected its websocket passes Bokeh's unused-session lifetime, but its
  widgets stayed, some 130 kB a page load.  :class:`PageWidgets` notes each
  widget made while a page's document is Panel's current one (ipywidgets'
  public ``Widget.on_widget_constructed`` hook) and closes them when that
  document's session is destroyed (Bokeh's ``Document.on_session_destroyed``).
* **"Connection lost — trying again…"** (:func:`connection_lost_js`): a
  small script every page loads (Panel's ``config.js_files``, served from a
  folder of the server's own by :func:`write_notice`) listens for Bokeh's
  ``connection_lost`` document event; the page then shows the words
  (``classroom.connection.lost`` in the server's language,
  ``role="alert"``, test id ``connection-lost``) and asks the server every
  second whether it is back; once it answers, the page reloads itself, and
  a joined pupil's page comes back to their sheet.  A script file rather
  than a Bokeh ``CustomJS``: that one is compiled with ``new Function``,
  which the pages' Content-Security-Policy would have to allow
  (``'unsafe-eval'``) for this alone.

>>> "connection-lost" in connection_lost_js("Connection lost")
True
"""

from __future__ import annotations

import json
import logging
import weakref
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from caterpillar_learn.i18n import text
from caterpillar_learn.ui.assets import widget_file

__all__ = ["NOTICE_FILE", "PageWidgets", "connection_lost_js", "every_page", "write_notice"]

log = logging.getLogger("caterpillar_learn.classroom")

#: How often a page that lost the server asks whether it is back (ms).
RETRY_MS = 1000

_NOTICE_STYLE = (
    "position:fixed;top:0;left:0;right:0;z-index:100000;padding:12px 16px;"
    "background:#8a1c1c;color:#fff;font:700 20px system-ui,sans-serif;text-align:center"
)


def connection_lost_js(words: str, retry_ms: int = RETRY_MS) -> str:
    """The script every page loads: on a lost websocket, show ``words`` at the top, then reload once the
    server answers (``widgets/connection-lost.js``, type-checked with the widgets), after the line that gives
    it its words, their style and how often it asks again.

    >>> script = connection_lost_js("Verbindung verloren", 500)
    >>> script.splitlines()[0].startswith('window.caterpillarLearnConnectionLost = {"words": "Verbindung verloren"')
    True
    """
    config = {"words": words, "style": _NOTICE_STYLE, "retry": int(retry_ms)}
    script = widget_file("connection-lost.js").read_text(encoding="utf-8")
    return f"window.caterpillarLearnConnectionLost = {json.dumps(config, ensure_ascii=False)};\n{script}"


#: The script's file name in the server's own static folder.
NOTICE_FILE = "connection-lost.js"


def write_notice(folder: Path, words: str | None = None) -> Path:
    """Write the connection-lost script (in the current language) into ``folder``; its path.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     "Connection lost" in write_notice(Path(folder)).read_text(encoding="utf-8")
    True
    """
    path = folder / NOTICE_FILE
    path.write_text(connection_lost_js(words or text("classroom.connection.lost")), encoding="utf-8")
    return path


class PageWidgets:
    """Every ipywidgets widget made for a page, closed when that page's session ends.

    A widget made while no page's document is current (at start) belongs to
    the process and is never closed here.
    """

    def __init__(self, current_doc: Callable[[], Any]) -> None:
        self._current_doc = current_doc
        self._by_doc: weakref.WeakKeyDictionary[Any, list[weakref.ref[Any]]] = weakref.WeakKeyDictionary()
        self._before: Callable[[Any], None] | None = None

    def install(self) -> None:
        """Note every widget made from now on (ipywidgets keeps one such hook: the one before is called too)."""
        from ipywidgets import Widget

        before = Widget._widget_construction_callback  # the public setter has no getter: keep the hook before
        self._before = before if callable(before) else None
        Widget.on_widget_constructed(self._constructed)

    def _constructed(self, widget: Any) -> None:
        if self._before is not None:
            self._before(widget)
        doc = self._current_doc()
        if doc is not None:
            self._by_doc.setdefault(doc, []).append(weakref.ref(widget))

    def follow(self, doc: Any) -> None:
        """Close ``doc``'s widgets when its session is destroyed."""
        doc.on_session_destroyed(lambda _context: self.close(doc))

    def close(self, doc: Any) -> int:
        """Close the widgets made for ``doc``; how many there were."""
        closed = 0
        for ref in self._by_doc.pop(doc, []):
            widget = ref()
            if widget is None:
                continue
            try:
                widget.close()
                closed += 1
            except Exception:  # one widget's trouble must not keep the others
                log.debug("could not close a page's widget", exc_info=True)
        return closed

    def live(self, doc: Any) -> int:
        """How many widgets made for ``doc`` are still alive."""
        return sum(ref() is not None for ref in self._by_doc.get(doc, []))


#: The head every page adds to Panel's: a tablet or a phone lays the page out at its own width (without it,
#: a phone draws a desktop's 980 px and shrinks it; Lighthouse's "viewport" check), and a printed page
#: leaves out the connection-lost notice (the widgets' own stylesheets say what else they print).  Panel
#: renders a document's string template as ``{% extends base %}`` plus the string.
PAGE_HEAD = (
    "{% block inner_head %}"
    "{{ super() }}"
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    '<style>@media print { [data-testid="connection-lost"] { display: none !important; } }</style>'
    "{% endblock %}"
)


@cache
def page_template() -> Any:
    """:data:`PAGE_HEAD` as Panel renders it, compiled once: given the string, Panel compiles it again for every
    page it sends (2-3 % of a pupil's join); given the compiled template, it renders it as it is.

    >>> page_template() is page_template()
    True
    """
    from panel.io.resources import get_env

    env = get_env()  # type: ignore[no-untyped-call]
    env.trim_blocks = env.lstrip_blocks = True  # as Panel's own environment (the output is the same)
    return env.from_string("{% extends base %}\n" + PAGE_HEAD)


def every_page(pages: dict[str, Callable[[], Any]], widgets: PageWidgets) -> dict[str, Callable[[], Any]]:
    """``pages`` with what every page gets: its widgets closed at its end, no Bokeh notice of its own
    (the connection-lost script says it in the page's words), and :data:`PAGE_HEAD`."""
    import panel as pn

    template = page_template()

    def wrap(page: Callable[[], Any]) -> Callable[[], Any]:
        def opened() -> Any:
            doc = pn.state.curdoc
            if doc is not None:
                widgets.follow(doc)
                doc.config.notify_connection_status = False  # Bokeh's own notice is in English and says "Try"
                doc.template = template
            return page()

        opened.__name__ = getattr(page, "__name__", "page")
        return opened

    return {path: wrap(page) for path, page in pages.items()}
