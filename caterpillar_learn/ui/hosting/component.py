"""The one Panel component the widgets are shown by: :class:`LearnComponent`.

A widget on Panel is a declared subclass of :class:`LearnComponent` naming
its widget class, as Panel's own custom components name their ES module::

    class PanelCaterpillarsBoard(LearnComponent):
        widget_class = CaterpillarsBoard

Its parameters are the widget's view traits (read from ``widget_class`` by
:class:`LearnComponentMeta` when the class is declared, so the list is
written once, on the widget) plus ``view_names``, ``handled`` (the ``seq``
of the last event played: the page is ``aria-busy`` until it catches up)
and ``event``.  The component owns a widget
used without a kernel: the front end writes ``event``, the widget plays it
(its guard, its language) and its traits are copied back.  A parameter a
page writes other than ``event`` is put back at once and handed to
:meth:`~LearnComponent.tampered`.  Front-end events travel as parameter
changes (``model.set`` + ``save_changes``; ``model.send`` does not reach
Python on Panel).

**Upstream hooks.**  Four private Panel methods are overridden here and
only here, each for a measured reason (tests/classroom/test_upstream_hooks.py
fails when one is gone or its signature changes):

* ``_process_events``: a page's write of a view trait is put back;
* ``_update_properties``: Panel's stylesheet work only when they change;
* ``_process_param_change``: a view is handed to Bokeh as one
  :class:`~caterpillar_learn.ui.hosting.panel_app.Whole` (Bokeh's search
  for models in every sheet was half of a redraw);
* ``_server_change`` / ``_change_event``: a classroom page's event holds
  the server's redraw queue (:attr:`~LearnComponent.redraws`) until it has
  been played and answered; an event the widget drops
  (:meth:`~caterpillar_learn.ui.base.LearnWidget.drops`: a flooding page
  that was told already) goes no further than Bokeh's patch;
* ``_render_esm``, ``_bundle_path`` and ``_bundle_css``: the ES module is
  worked out once a class, and no bundle file is looked for on disk for
  every page (a classroom join makes two components).

**No parameter objects per component.**  param copies each of a
component's forty-odd parameter objects for the instance the first time
Panel reads it (``self.param[name]``), which Panel does for all of them
when it makes the page's model: a fifth of the model's making, and nothing
here changes a parameter's settings on one component (only its value,
which param keeps per instance anyway).  So every component class is
declared with param's ``no_instance_params``.

>>> from caterpillar_learn.ui.caterpillars import CaterpillarsBoard
>>> class Board(LearnComponent):
...     widget_class = CaterpillarsBoard
>>> board = Board(CaterpillarsBoard("beginner", 5))
>>> board.event = {"type": "roll", "seq": 1}
>>> board.dice["rolled"], board.handled
(True, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import param
from bokeh.core.serialization import Serializable, Serializer
from panel.custom import AnyWidgetComponent, ReactiveESMMetaclass
from param.parameterized import batch_call_watchers, no_instance_params

from caterpillar_learn.ui.base import LearnWidget

__all__ = ["LearnComponent", "LearnComponentMeta", "Whole"]


class Whole(Serializable):
    """A view trait's value as Bokeh holds it: sent as its JSON, never searched for models.

    >>> from bokeh.model.util import visit_value_and_its_immediate_references as visit
    >>> seen = []
    >>> visit(Whole({"scores": {"A": [1, None]}}), seen.append)
    >>> seen
    []
    >>> Serializer().encode(Whole({"a": [1]})) == Serializer().encode({"a": [1]})
    True
    >>> Whole([1]) == Whole([1]), Whole([1]) == [1]
    (True, False)
    """

    __slots__ = ("value",)

    def __init__(self, value: dict[str, Any] | list[Any]) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Whole) and self.value == other.value

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Whole({self.value!r})"

    def to_serializable(self, serializer: Serializer) -> Any:
        return serializer.encode(self.value)


def _parameter(value: object) -> param.Parameter[Any]:
    # Dicts and lists are declared untyped (Bokeh's ``Any`` on both sides), so the model can hold a Whole.
    if isinstance(value, dict):
        return param.Parameter(default={})
    if isinstance(value, list):
        return param.Parameter(default=[])
    return param.String(default="")


#: Each component class's ES module as Panel sends it: (class, compiled, server) -> (its ``_esm``, the text).
_RENDERED: dict[tuple[type, object, bool], tuple[object, str]] = {}


class LearnComponentMeta(ReactiveESMMetaclass):
    """Declares a subclass's parameters, ES module and CSS from its ``widget_class``."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> Any:
        widget_class = namespace.get("widget_class")
        if widget_class is not None:
            names = (*widget_class.view_trait_names(), "view_names", "handled")
            namespace.setdefault("handled", param.Integer(default=0))  # the last event's seq (not a view)
            for trait in names:
                namespace.setdefault(trait, _parameter(widget_class.class_traits()[trait].default()))
            namespace["_view"] = frozenset(names)
            namespace.setdefault("_esm", widget_class.esm())
            namespace.setdefault("_stylesheets", [widget_class.css()])
            namespace.setdefault("__doc__", f"{widget_class.__name__} shown by Panel: same ES module, same controller.")
        return super().__new__(mcs, name, bases, namespace, **kwargs)

    def __init__(cls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(name, bases, namespace, **kwargs)
        # After param's own set-up of the class (it starts each class anew): see "No parameter objects per component".
        no_instance_params(cls)  # type: ignore[no-untyped-call]


class LearnComponent(AnyWidgetComponent, metaclass=LearnComponentMeta):
    """A :class:`~caterpillar_learn.ui.base.LearnWidget` shown by Panel (subclass it with ``widget_class``)."""

    #: The widget class shown (set by each subclass).
    widget_class: ClassVar[type[LearnWidget[Any]] | None] = None
    _view: ClassVar[frozenset[str]] = frozenset()
    # The module is the widget's own text, never a file: Panel would look for a ``.bundle.js`` (and its
    # ``.css``) beside the class on disk every time a page's model is made, and find none.
    _bundle_path: ClassVar[None] = None
    _bundle_css: ClassVar[list[str]] = []

    event = param.Dict(default={})

    # An event is a click, not a value being dragged: play it at the next tick, not after 50 ms ...
    _priority_changes: ClassVar[list[str]] = ["event"]
    # ... and without Panel's busy bookkeeping (a few param writes on pn.state per event, shown nowhere).
    _busy__ignore: ClassVar[list[str]] = ["event"]

    def __init__(self, widget: LearnWidget[Any], **params: Any) -> None:
        self.widget = widget
        #: The classroom server's redraw queue (``Redraws``), held while this page's event is played.
        self.redraws: Any = None
        #: Told (with the page's document) of each event the widget dropped at the door (a classroom's page).
        self.dropped: Callable[[Any], None] | None = None
        #: Each view trait's value as the widget had it when it was last sent (the page may hold less: ``for_page``).
        self._sent: dict[str, Any] = {name: getattr(widget, name) for name in self._view}
        super().__init__(**self._sent, **params)  # type: ignore[no-untyped-call]
        self.param.watch(self._on_event, ["event"])

    def _on_event(self, change: param.parameterized.Event) -> None:
        if isinstance(change.new, dict) and change.new:
            self.widget.receive(change.new)  # plays it (or refuses it in one line), refreshes its traits, `handled`
            self.pull()

    def pull(self, names: Iterable[str] | None = None) -> None:
        """Copy into the parameters the widget's traits (``names``, or all) that differ from what was last sent
        (compared with ``!=`` first, in C), each as the widget would send it to a page holding the last one
        (:meth:`~caterpillar_learn.ui.base.LearnWidget.for_page`)."""
        widget = self.widget
        sent = self._sent
        changed = {}
        for name in self._view if names is None else names:
            value = getattr(widget, name)
            if value != sent[name]:
                changed[name] = widget.for_page(name, sent[name], value)
                sent[name] = value
        if changed:
            # One batch, so one message to the page; not param's update(), which reads all forty-odd values
            # first to put them back on an error (a tenth of a lesson room's CPU while bots race: issue 46).
            with batch_call_watchers(self):
                for name, value in changed.items():
                    setattr(self, name, value)

    def tampered(self, written: dict[str, Any]) -> None:
        """Called with what a page wrote other than ``event`` (after it was put back); a server logs it."""

    # --- Panel's private hooks (see the module's docstring) ---

    @classmethod
    def _render_esm(cls, compiled: bool | str = True, server: bool = False) -> str:
        """The ES module as Panel sends it, worked out once a class (Panel dedents the whole 50-110 KB text
        again for every page: a twentieth of a classroom join's time)."""
        key = (cls, compiled, server)
        source, rendered = _RENDERED.get(key, (None, ""))
        if source is not cls._esm:  # first time, or the class's module was replaced
            rendered = str(super()._render_esm(compiled=compiled, server=server))  # type: ignore[arg-type]
            _RENDERED[key] = (cls._esm, rendered)
        return rendered

    def _process_events(self, events: dict[str, Any]) -> None:
        super()._process_events(events)
        widget = self.widget
        written = {
            name: value for name, value in events.items() if name in self._view and value != getattr(widget, name)
        }
        if written:
            for name in written:
                self._sent[name] = None  # the page holds what it wrote, not what it was sent
            self.pull()  # the truth back on the page
            self.tampered(written)

    def _update_properties(self, *events: param.parameterized.Event, doc: Any) -> dict[str, Any]:
        if any(event.name == "stylesheets" for event in events):
            return super()._update_properties(*events, doc=doc)
        return self._process_param_change({event.name: event.new for event in events})

    def _process_param_change(self, params: dict[str, Any]) -> dict[str, Any]:
        properties: dict[str, Any] = super()._process_param_change(params)  # type: ignore[no-untyped-call]
        view = self._view
        for name, value in properties.items():
            if name in view and isinstance(value, (dict, list)):
                properties[name] = Whole(value)
        return properties

    def _server_change(self, doc: Any, ref: str, subpath: str | None, attr: str, old: Any, new: Any) -> None:
        if attr == "event" and self.widget.drops(new):  # told already: dropped before Panel's work (issue 46)
            if self.dropped is not None:
                self.dropped(doc)
            return
        super()._server_change(doc, ref, subpath, attr, old, new)
        if self.redraws is not None and attr == "event" and "event" in self._events:  # played at the next tick
            self.redraws.hold(doc)

    def _change_event(self, doc: Any) -> None:
        try:
            super()._change_event(doc)
        finally:
            if self.redraws is not None:
                self.redraws.release(doc)
