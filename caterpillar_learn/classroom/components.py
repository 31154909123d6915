"""The classroom's widgets as Panel components: the lessons' components with a cheaper redraw.

:func:`~caterpillar_learn.ui.hosting.panel_app.panel_component` copies all
of a widget's traits into the component's parameters after every event, and
``param`` compares each one with its own deep comparison, in Python: about
1.3 ms a page on this machine, paid for every page after every roll.  The
classroom's components first compare with ``!=`` (C code, microseconds) and
hand ``param`` only what changed.  Same ES module, same parameters, same
guard: only :meth:`pull` differs, and a component given the server's
redraw queue (its ``redraws``, :class:`~caterpillar_learn.classroom.server.Redraws`)
holds that queue from the moment its page's event arrives until the event
has been played and answered, so a click goes before other pages' redraws.

The classes are made once per widget class, and by the server before any
page opens (see :func:`caterpillar_learn.classroom.server.build_pages`).

>>> from caterpillar_learn.classroom.consoles import JoinWidget
>>> classroom_component(JoinWidget) is classroom_component(JoinWidget)
True
"""

from __future__ import annotations

from functools import cache
from typing import Any

from caterpillar_learn.ui.base import LearnWidget
from caterpillar_learn.ui.hosting.panel_app import panel_component

__all__ = ["classroom_component"]


@cache
def classroom_component(widget_class: type[LearnWidget[Any]]) -> type[Any]:
    """The Panel component class for ``widget_class`` (call it with the class, never ``type(widget)``:
    anywidget gives every instance a class of its own)."""
    make: Any = panel_component  # cached by class
    base: Any = make(widget_class)
    names = (*widget_class.view_trait_names(), "view_names")

    def pull(self: Any) -> None:
        """Copy into the parameters only the traits that differ (compared in C first)."""
        changed = {}
        for name in names:
            value = getattr(self.widget, name)
            if value != getattr(self, name):
                changed[name] = value
        if changed:
            self.param.update(changed)

    def _server_change(self: Any, doc: Any, ref: str, subpath: str | None, attr: str, old: Any, new: Any) -> None:
        base._server_change(self, doc, ref, subpath, attr, old, new)
        redraws = self.redraws
        if redraws is not None and attr == "event" and "event" in self._events:  # to be played at the next tick
            redraws.hold(doc)

    def _change_event(self: Any, doc: Any) -> None:
        try:
            base._change_event(self, doc)
        finally:
            if self.redraws is not None:
                self.redraws.release(doc)

    attributes = {
        "pull": pull,
        "_server_change": _server_change,
        "_change_event": _change_event,
        "redraws": None,
        "__doc__": base.__doc__,
        "__module__": __name__,
    }
    return type(base.__name__, (base,), attributes)
