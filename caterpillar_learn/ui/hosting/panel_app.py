"""The widgets on Panel: the same ES modules, the same controllers, no kernel.

    panel serve caterpillar_learn/ui/hosting/panel_app.py

serves one page that plays a Beginner game.  :func:`panel_component` turns
any :class:`~caterpillar_learn.ui.base.LearnWidget` class into a Panel
:class:`~panel.custom.AnyWidgetComponent` whose parameters are the widget's
view traits (read from the class: the list is written once, there) plus
``event``.  The component owns a widget used without a kernel: the front end
writes ``event``, the widget plays it (with its guard and its language), and
the widget's traits are copied back into the parameters.  A parameter the
page writes other than ``event`` is put back at once (and handed to
``tampered``), as the widget does in Jupyter, so a classroom server can build on these components without a
second front end or a second copy of the rules.

Panel carries front-end events only as parameter changes (``model.send``
messages do not reach Python there), which is how the widgets talk anyway.
A page's write of ``event`` is played at the next tick of the server's
event loop: Panel would otherwise wait 50 ms (its debounce, meant for a
slider being dragged) before every click, and count every event in its
busy indicator (which no page shows).

A view trait is handed to Bokeh as one :class:`Whole`: Bokeh searches every
new and old value of a property for models it must track (each dict, list
and string of a sheet, twice, in Python), which was more than half of the
time a page's redraw took; a view never holds a model, so the search is
skipped.  The page receives the same JSON.

>>> board = PanelBoard(level="beginner", seed=5)
>>> board.event = {"type": "roll", "seq": 1}
>>> board.dice["rolled"], len(board.dice["values"])
(True, 2)
>>> board._process_events({"final": {"final": 99}})  # as a tampering page's write arrives
>>> board.final
{}
"""

from __future__ import annotations

from functools import cache
from typing import Any

import panel as pn
import param
from bokeh.core.serialization import Serializable, Serializer
from panel.custom import AnyWidgetComponent

from caterpillar_learn.ui.base import LearnWidget
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard

__all__ = ["PanelBoard", "Whole", "app", "panel_component"]

#: What ``panel serve`` plays: the lesson 01-beginner's game without its stepper.
APP_LEVEL = "beginner"
APP_SEED = 1


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


@cache
def panel_component(widget_class: type[LearnWidget[Any]]) -> type[AnyWidgetComponent]:
    """A Panel component class for ``widget_class``: its ES module, its CSS, its view traits as parameters."""
    names = (*widget_class.view_trait_names(), "view_names")
    sample = {name: widget_class.class_traits()[name].default() for name in names}
    whole = frozenset(name for name, value in sample.items() if isinstance(value, (dict, list)))
    view = frozenset(names)

    def __init__(self: Any, widget: LearnWidget[Any], **params: Any) -> None:
        self.widget = widget
        AnyWidgetComponent.__init__(self, **{name: getattr(widget, name) for name in names}, **params)  # type: ignore[no-untyped-call]
        self.param.watch(self._on_event, ["event"])

    def _on_event(self: Any, change: param.parameterized.Event) -> None:
        if isinstance(change.new, dict) and change.new:
            self.widget.handle(change.new)  # plays it (or refuses it in one line) and refreshes its traits
            self.pull()

    def _process_events(self: Any, events: dict[str, Any]) -> None:
        """A page's writes: ``event`` is played (``_on_event``); any other trait written is put back at once."""
        AnyWidgetComponent._process_events(self, events)
        widget = self.widget
        written = {name: value for name, value in events.items() if name in view and value != getattr(widget, name)}
        if written:
            self.pull()  # the truth back on the page
            self.tampered(written)

    def tampered(self: Any, written: dict[str, Any]) -> None:
        """Called with what a page wrote other than ``event`` (after it was put back); a server logs it."""

    def _update_properties(self: Any, *events: param.parameterized.Event, doc: Any) -> dict[str, Any]:
        # Panel asks the page's design for its stylesheets on every change, which only a change of them needs.
        if any(event.name == "stylesheets" for event in events):
            return AnyWidgetComponent._update_properties(self, *events, doc=doc)
        return self._process_param_change({event.name: event.new for event in events})  # type: ignore[no-any-return]

    def _process_param_change(self: Any, params: dict[str, Any]) -> dict[str, Any]:
        properties: dict[str, Any] = AnyWidgetComponent._process_param_change(self, params)  # type: ignore[no-untyped-call]
        for name, value in properties.items():
            if name in whole and isinstance(value, (dict, list)):
                properties[name] = Whole(value)
        return properties

    def pull(self: Any) -> None:
        """Copy the widget's traits into the parameters (Panel sends only what changed)."""
        changed = {name: value for name in names if (value := getattr(self.widget, name)) != getattr(self, name)}
        if changed:  # comparing first is cheaper than letting param compare and notify every name
            self.param.update(changed)

    attributes: dict[str, Any] = {name: _parameter(value) for name, value in sample.items()}
    attributes.update(
        event=param.Dict(default={}),
        # An event is a click, not a value being dragged: play it at the next tick, not after 50 ms.
        _priority_changes=["event"],
        # ... and without Panel's busy bookkeeping (a few param writes on pn.state per event, shown nowhere).
        _busy__ignore=["event"],
        _esm=widget_class.esm(),
        _stylesheets=[widget_class.css()],
        __init__=__init__,
        _on_event=_on_event,
        _process_events=_process_events,
        tampered=tampered,
        _update_properties=_update_properties,
        _process_param_change=_process_param_change,
        pull=pull,
        __doc__=f"{widget_class.__name__} shown by Panel: same ES module, same controller.",
    )
    return type(f"Panel{widget_class.__name__}", (AnyWidgetComponent,), attributes)


def PanelBoard(level: str = APP_LEVEL, seed: int = APP_SEED, **params: Any) -> AnyWidgetComponent:
    """A Caterpillars board on Panel (a component around a :class:`CaterpillarsBoard`)."""
    component: Any = panel_component(CaterpillarsBoard)
    board: AnyWidgetComponent = component(CaterpillarsBoard(level, seed), **params)
    return board


def app() -> pn.viewable.Viewable:
    """The page ``panel serve`` shows: a title and a Beginner board."""
    return pn.Column(
        pn.pane.Markdown("# Caterpillars — Beginner"),  # type: ignore[no-untyped-call]
        PanelBoard(APP_LEVEL, APP_SEED),
        sizing_mode="stretch_width",
    )


if __name__.startswith("bokeh"):  # run by ``panel serve``: one app per browser session
    pn.extension()
    app().servable(title="Caterpillars")
