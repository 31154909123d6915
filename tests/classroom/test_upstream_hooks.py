"""The private Panel, Bokeh, Tornado and ipywidgets hooks the code still uses, each checked against its upstream.

Every attribute or method below is read or overridden by
``caterpillar_learn`` although its library does not promise it (a leading
underscore, or no public accessor).  Each test names where the code uses
the hook and fails when an upgrade renames or removes it, or changes the
signature the override relies on, so the tweak cannot switch itself off
in silence.  The checks use the real classes (and, for Bokeh's session and
connection, real instances), never a stand-in.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest

from tests.threads import on_own_thread


def _parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


# --- classroom/tweaks.py: send_at_once (TCP_NODELAY on a page's websockets) ---------------------------------


def _session_with_connection() -> tuple[Any, Any, object]:
    from bokeh.core.types import ID
    from bokeh.document import Document
    from bokeh.protocol import Protocol
    from bokeh.server.connection import ServerConnection
    from bokeh.server.session import ServerSession

    session = ServerSession(ID("hook-test"), Document())
    socket = object()  # what Bokeh keeps is its WSHandler; only that it is kept, and where, matters here
    connection = ServerConnection(Protocol(), socket, None, session)  # type: ignore[arg-type]
    return session, connection, socket


def test_a_session_lists_its_websocket_connections_in_subscribed_connections() -> None:
    """``send_at_once`` reads ``ServerSession._subscribed_connections`` (no public accessor lists them)."""
    session, connection, _socket = _session_with_connection()
    assert connection in session._subscribed_connections
    assert session.connection_count == len(session._subscribed_connections) == 1


def test_a_connection_keeps_its_websocket_handler_in_socket() -> None:
    """``send_at_once`` reads ``ServerConnection._socket``: the Tornado handler of the page's websocket."""
    _session, connection, socket = _session_with_connection()
    assert connection._socket is socket


def test_a_session_context_hands_out_its_session() -> None:
    """``send_at_once`` goes from the page's document to its session through ``session_context.session``."""
    from bokeh.server.contexts import BokehSessionContext

    assert isinstance(inspect.getattr_static(BokehSessionContext, "session"), property)


def test_bokehs_websocket_handler_is_tornados_with_ws_connection_and_set_nodelay() -> None:
    """``send_at_once`` checks ``ws_connection`` (None once closed) and calls ``set_nodelay(True)``."""
    from bokeh.server.views.ws import WSHandler
    from tornado.websocket import WebSocketHandler

    assert issubclass(WSHandler, WebSocketHandler)
    assert _parameters(WebSocketHandler.set_nodelay) == ["self", "value"]
    assert "self.ws_connection" in inspect.getsource(WebSocketHandler.__init__)


# --- classroom/tweaks.py: tornado_application and quiet_diagnostics ------------------------------------------


def test_bokehs_server_keeps_its_tornado_application_in_tornado() -> None:
    """``tornado_application`` reads ``server._tornado``, which ``serve`` hands to ``harden`` (Host check, headers,
    log redaction)."""
    from bokeh.server.server import BaseServer, Server

    assert issubclass(Server, BaseServer)
    assert _parameters(BaseServer.__init__) == ["self", "io_loop", "tornado_app", "http_server"]
    assert "self._tornado = tornado_app" in inspect.getsource(BaseServer.__init__)


def test_bokehs_error_diagnostics_setting_turns_off_its_search_for_similar_names() -> None:
    """``quiet_diagnostics`` sets ``perform_error_diagnostics`` off: a missing attribute then costs no
    :mod:`difflib` search."""
    from bokeh.models.widgets import Div
    from bokeh.settings import settings

    before = settings.perform_error_diagnostics()
    try:
        settings.perform_error_diagnostics.set_value(True)
        with pytest.raises(AttributeError, match=r"similar|possible"):
            _ = Div().textt  # type: ignore[attr-defined]
        settings.perform_error_diagnostics.set_value(False)
        with pytest.raises(AttributeError) as missing:
            _ = Div().textt  # type: ignore[attr-defined]
        assert "similar" not in str(missing.value) and "possible" not in str(missing.value)
    finally:
        settings.perform_error_diagnostics.set_value(before)


def test_bokeh_validates_a_new_pages_document_only_while_its_setting_says_so() -> None:
    """``quiet_diagnostics`` sets ``perform_document_validation`` off too: Bokeh's application then skips
    ``doc.validate()`` for every new page."""
    from bokeh.application import Application
    from bokeh.settings import settings

    from caterpillar_learn.classroom.tweaks import quiet_diagnostics

    source = inspect.getsource(Application.initialize_document)
    assert "if settings.perform_document_validation():" in source and "doc.validate()" in source
    before = settings.perform_error_diagnostics(), settings.perform_document_validation()
    try:
        quiet_diagnostics()
        assert not settings.perform_error_diagnostics() and not settings.perform_document_validation()
    finally:
        settings.perform_error_diagnostics.set_value(before[0])
        settings.perform_document_validation.set_value(before[1])


# --- classroom/lifetime.py: PageWidgets.install (the widget construction hook before ours) -------------------


def test_ipywidgets_keeps_the_construction_callback_in_widget_construction_callback() -> None:
    """``PageWidgets.install`` reads ``Widget._widget_construction_callback`` (the setter has no getter)."""
    from ipywidgets import Widget

    before = Widget._widget_construction_callback

    def noted(widget: Any) -> None:
        pass

    try:
        Widget.on_widget_constructed(noted)
        assert Widget._widget_construction_callback is noted
    finally:
        Widget._widget_construction_callback = before


# --- ui/hosting/panel_app.py and classroom/components.py: the Panel component's overrides -------------------


def test_panel_plays_a_pages_writes_through_process_events() -> None:
    """The component overrides ``_process_events(events)`` to put back what a page wrote other than ``event``."""
    from panel.custom import AnyWidgetComponent

    assert _parameters(AnyWidgetComponent._process_events) == ["self", "events"]
    assert "_process_events(" in inspect.getsource(AnyWidgetComponent._change_event)


def test_panel_builds_a_models_properties_in_update_properties_and_process_param_change() -> None:
    """The component skips Panel's stylesheet work in ``_update_properties(*events, doc)`` and wraps a view in
    ``Whole`` in ``_process_param_change(params)``; Panel calls the one from its param watcher."""
    from panel.custom import AnyWidgetComponent
    from panel.reactive import Syncable

    update = inspect.signature(AnyWidgetComponent._update_properties).parameters
    assert list(update) == ["self", "events", "doc"]
    assert update["events"].kind is inspect.Parameter.VAR_POSITIONAL
    assert update["doc"].kind is inspect.Parameter.KEYWORD_ONLY
    assert _parameters(AnyWidgetComponent._process_param_change) == ["self", "params"]
    assert "self._update_properties(" in inspect.getsource(Syncable._param_change)


def test_panel_hears_a_pages_change_in_server_change_and_plays_it_in_change_event() -> None:
    """The classroom's component holds the redraw queue from ``_server_change`` (once ``event`` waits in
    ``_events``) until ``_change_event(doc)`` has played it."""
    from panel.custom import AnyWidgetComponent
    from panel.reactive import Syncable

    assert _parameters(AnyWidgetComponent._server_change) == ["self", "doc", "ref", "subpath", "attr", "old", "new"]
    assert _parameters(AnyWidgetComponent._change_event) == ["self", "doc"]
    source = inspect.getsource(Syncable._server_change)
    assert "self._events.update({attr: new})" in source
    assert "self._events = {}" in inspect.getsource(Syncable._change_event)


def test_panel_schedules_priority_changes_at_once_and_leaves_busy_ignored_out_of_its_indicator() -> None:
    """The component lists ``event`` in ``_priority_changes`` (no 50 ms debounce) and ``_busy__ignore``."""
    from panel.custom import AnyWidgetComponent
    from panel.reactive import Syncable

    assert isinstance(AnyWidgetComponent._priority_changes, list)
    assert isinstance(AnyWidgetComponent._busy__ignore, list)
    assert "self._priority_changes" in inspect.getsource(Syncable._server_change)
    assert "self._busy__ignore" in inspect.getsource(Syncable._process_events)


@pytest.mark.parametrize(
    "name", ["_process_events", "_update_properties", "_process_param_change", "_server_change", "_change_event"]
)
def test_the_one_component_overrides_what_panel_calls(name: str) -> None:
    """The overrides are found by Panel (same name on the class Panel calls them on), in one class only."""
    from panel.custom import AnyWidgetComponent

    from caterpillar_learn.classroom.components import PanelClassroomBoard
    from caterpillar_learn.ui.hosting.component import LearnComponent
    from caterpillar_learn.ui.hosting.panel_app import PanelCaterpillarsBoard

    assert name in vars(LearnComponent)
    assert getattr(LearnComponent, name) is not getattr(AnyWidgetComponent, name)
    for declared in (PanelCaterpillarsBoard, PanelClassroomBoard):
        assert name not in vars(declared)
        assert getattr(declared, name) is getattr(LearnComponent, name)


# --- ui/hosting/panel_app.py: Whole (a view handed to Bokeh without its search for models) -----------------


def test_bokeh_searches_a_new_value_for_models_but_not_a_serializable() -> None:
    """``Whole`` is a ``Serializable``: Bokeh's search for models in a property's value passes it by, and its
    serializer asks it for its JSON through ``to_serializable``."""
    from bokeh.core.serialization import Serializable, Serializer
    from bokeh.model.util import visit_value_and_its_immediate_references
    from bokeh.models.widgets import Div

    from caterpillar_learn.ui.hosting.panel_app import Whole

    assert _parameters(Serializable.to_serializable) == ["self", "serializer"]
    div = Div()
    seen: list[Any] = []
    visit_value_and_its_immediate_references({"inside": [div]}, seen.append)
    assert seen == [div]  # a dict is searched ...
    seen.clear()
    visit_value_and_its_immediate_references(Whole({"inside": ["sheet"]}), seen.append)
    assert seen == []  # ... a Whole is not
    assert Serializer().encode(Whole({"a": [1, None]})) == Serializer().encode({"a": [1, None]})


def test_a_pages_view_reaches_the_bokeh_model_as_a_whole() -> None:
    """The model a page is drawn from holds each dict or list view as a ``Whole`` (the search skipped)."""
    from bokeh.document import Document

    from caterpillar_learn.ui.hosting.panel_app import PanelBoard, Whole

    board: Any = PanelBoard(level="beginner", seed=3)
    model: Any = board.get_root(Document())
    board.event = {"type": "roll", "seq": 1}
    held = model.data.dice
    assert isinstance(held, Whole)
    assert held.value == board.dice


def test_a_served_pages_websocket_sends_at_once() -> None:
    """End to end: ``send_at_once`` on a real Bokeh server turns ``TCP_NODELAY`` on for the page's websocket."""
    import socket as sockets
    import threading

    import panel as pn
    from bokeh.client import pull_session

    from caterpillar_learn.classroom.tweaks import send_at_once
    from tests.browser.conftest import free_port

    found: list[int] = []
    done = threading.Event()

    def page() -> pn.viewable.Viewable:
        doc: Any = pn.state.curdoc

        def measure() -> None:
            send_at_once(doc)
            session = doc.session_context.session
            for connection in session._subscribed_connections:
                raw = connection._socket.ws_connection.stream.socket
                found.append(raw.getsockopt(sockets.IPPROTO_TCP, sockets.TCP_NODELAY))
            done.set()

        doc.add_next_tick_callback(measure)  # the websocket is subscribed by the time a callback runs
        return pn.pane.Markdown("hook test")  # type: ignore[no-untyped-call]

    port = free_port()
    server = pn.serve({"hook": page}, port=port, show=False, threaded=True, verbose=False)  # type: ignore[no-untyped-call]

    def open_the_page() -> bool:
        """A Bokeh client opens the page (its loop on this thread of its own); whether the callback ran."""
        for _ in range(100):  # the server's thread starts listening soon
            try:
                session = pull_session(url=f"http://localhost:{port}/hook")
            except OSError:
                done.wait(0.1)
                continue
            ran = done.wait(30.0)
            session.close()
            return ran
        raise AssertionError(f"the server on port {port} never listened")

    try:
        assert on_own_thread(open_the_page), "the page's callback never ran"
    finally:
        server.stop()
    assert found and all(found), f"TCP_NODELAY per websocket: {found}"


# --- classroom/tweaks.py and classroom/lifetime.py: a page's HTML worked out once a kind of page -------------


def test_panel_lists_a_pages_bundles_through_the_module_global_bundle_resources() -> None:
    """``one_bundle_a_kind`` replaces ``panel.io.server.bundle_resources``, which ``server_html_page_for_session``
    calls with the page's roots and resources (looked up in that module when a page is sent)."""
    import panel.io.server as panel_server
    from panel.io.resources import bundle_resources

    assert _parameters(bundle_resources)[:2] == ["roots", "resources"]
    assert "bundle_resources(doc.roots, resources)" in inspect.getsource(panel_server.server_html_page_for_session)


def test_a_remembered_bundle_is_the_one_panel_works_out() -> None:
    """The second page of a kind gets the first one's bundle, and it is what Panel itself would list."""
    import panel.io.server as panel_server
    from bokeh.document import Document
    from panel.io.resources import Resources

    from caterpillar_learn.classroom.components import PanelJoinWidget
    from caterpillar_learn.classroom.consoles import JoinDesk, JoinWidget
    from caterpillar_learn.classroom.lobby import Lobby
    from caterpillar_learn.classroom.store import EventStore
    from caterpillar_learn.classroom.tweaks import one_bundle_a_kind

    lobby = Lobby(EventStore(":memory:"))
    pages = []
    for _ in range(2):
        document = Document()
        document.add_root(
            PanelJoinWidget(JoinWidget(JoinDesk(lobby, "10.0.0.7", lambda room, pupil: None))).get_root(document)
        )
        pages.append(document)
    resources = Resources(mode="server", root_url="/")
    before = panel_server.bundle_resources
    own = before(pages[0].roots, resources)
    try:
        one_bundle_a_kind()
        first = panel_server.bundle_resources(pages[0].roots, resources)
        assert panel_server.bundle_resources(pages[1].roots, resources) is first
    finally:
        panel_server.bundle_resources = before
    for part in ("js_files", "js_raw", "css_files", "css_raw"):
        assert getattr(first, part) == getattr(own, part), part


def test_panel_renders_a_documents_compiled_template_as_it_is() -> None:
    """``every_page`` gives each page :func:`~caterpillar_learn.classroom.lifetime.page_template`, compiled once;
    Panel renders a string template after compiling ``{% extends base %}`` and it, a template as given: the same
    page either way."""
    from panel.io.server import html_page_for_render_items

    from caterpillar_learn.classroom.lifetime import PAGE_HEAD, page_template

    as_string = html_page_for_render_items(("", ""), {}, [], "Title", template=PAGE_HEAD)
    compiled = html_page_for_render_items(("", ""), {}, [], "Title", template=page_template())
    assert 'name="viewport"' in compiled
    same = lambda page: re.sub(r"\bp\d+\b", "pN", page)  # noqa: E731  # each page's element ids are new
    assert same(compiled) == same(as_string)


# --- ui/hosting/component.py: the component's ES module worked out once, no bundle file looked for -----------


def test_panel_asks_a_component_for_its_module_and_bundle_file_on_every_model() -> None:
    """``LearnComponent`` overrides ``_render_esm(compiled, server)`` (Panel dedents the module again for every
    model it makes) and sets ``_bundle_path`` and ``_bundle_css``, which Panel reads (and looks for on disk)."""
    from panel.custom import AnyWidgetComponent, ReactiveESM
    from panel.io.resources import Resources

    from caterpillar_learn.classroom.components import PanelClassroomBoard
    from caterpillar_learn.ui.hosting.component import LearnComponent

    assert _parameters(AnyWidgetComponent._render_esm) == ["compiled", "server"]
    properties = inspect.getsource(ReactiveESM._get_properties)
    assert "self._render_esm(" in properties and "self._bundle_path" in properties
    assert "'_bundle_css'" in inspect.getsource(Resources.css_files.fget)  # type: ignore[attr-defined]
    assert "_render_esm" in vars(LearnComponent)
    for server in (True, False):
        panels = super(LearnComponent, PanelClassroomBoard)._render_esm(True, server)  # type: ignore[misc]
        assert PanelClassroomBoard._render_esm(True, server) == panels
        assert PanelClassroomBoard._render_esm(True, server) is PanelClassroomBoard._render_esm(True, server)
    assert PanelClassroomBoard._bundle_path is None and not PanelClassroomBoard._bundle_css


def test_a_components_parameters_are_its_classs_and_its_values_its_own() -> None:
    """Every component class is declared with param's ``no_instance_params`` (read by ``_instantiated_parameter``
    through ``disable_instance_params``): Panel gets the class's parameter objects, not a copy of each for every
    component, and each component still keeps its own values."""
    import param

    from caterpillar_learn.classroom.components import PanelJoinWidget
    from caterpillar_learn.classroom.consoles import JoinDesk, JoinWidget
    from caterpillar_learn.classroom.lobby import Lobby
    from caterpillar_learn.classroom.store import EventStore

    assert "disable_instance_params" in inspect.getsource(param.parameterized._instantiated_parameter)
    lobby = Lobby(EventStore(":memory:"))
    ada, bob = (
        PanelJoinWidget(JoinWidget(JoinDesk(lobby, "10.0.0.7", lambda room, pupil: None, nickname=name)))
        for name in ("Ada", "Bob")
    )
    assert ada.param["door"] is PanelJoinWidget.param["door"] is bob.param["door"]
    assert (ada.door["nickname"], bob.door["nickname"]) == ("Ada", "Bob")
    ada.event = {"type": "join", "code": "KX47PQ", "nickname": "Ada", "seq": 1}
    assert ada.message and not bob.message and ada.handled == 1 and bob.handled == 0


# --- classroom/tweaks.py: one_collector (Panel's collection after a closed page, switched off) -------------------


def test_panel_schedules_its_collection_after_a_closed_page_by_the_module_global_name() -> None:
    """``one_collector`` replaces ``panel.io.document._garbage_collect``; Panel's ``_destroy_document`` must
    look it up by that name when it schedules it (a reference taken at import would keep Panel's own)."""
    import panel.io.document as document

    assert callable(document._garbage_collect)
    assert "_garbage_collect" in document._destroy_document.__code__.co_names
