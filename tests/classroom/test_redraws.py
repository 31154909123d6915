"""The server's redraw queue, a page's push, the frozen heap and the views Bokeh holds whole.

:class:`~caterpillar_learn.classroom.push.Redraws` only schedules work on
documents; here each page's document is a :class:`Page` that keeps what is
scheduled until the test turns the event loop (:meth:`Loop.turn`), so the
order of the redraws can be read off.  The widgets and Panel components are
the real ones, on a real room.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from bokeh.core.serialization import Serializer
from bokeh.document import Document
from bokeh.model.util import visit_value_and_its_immediate_references

from caterpillar_learn.classroom.components import classroom_component
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.push import Push, Redraws
from caterpillar_learn.classroom.rooms.caterpillars.pupil import ClassroomBoard, RoomSession
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.classroom.tweaks import Freezer
from caterpillar_learn.ui.hosting.panel_app import Whole


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Loop:
    """The server's event loop as the queue sees it: callbacks wait until the test turns it."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.ticks: list[Callable[[], None]] = []
        self.timeouts: list[tuple[float, Callable[[], None]]] = []

    def turn(self) -> int:
        """Run what was scheduled before this turn (next-tick callbacks, then timeouts that are due)."""
        ticks, self.ticks = self.ticks, []
        for callback in ticks:
            callback()
        due = [entry for entry in self.timeouts if entry[0] <= self.clock.now]
        self.timeouts = [entry for entry in self.timeouts if entry[0] > self.clock.now]
        for _when, callback in due:
            callback()
        return len(ticks) + len(due)

    def run(self, limit: int = 1000) -> None:
        for _ in range(limit):
            if not self.turn():
                return
        raise AssertionError("the loop never went quiet")


class Page:
    """One page's document: what Redraws and Push call on it."""

    def __init__(self, loop: Loop, name: str) -> None:
        self.loop = loop
        self.name = name
        self.gone = False

    def add_next_tick_callback(self, callback: Callable[[], None]) -> None:
        if self.gone:
            raise RuntimeError(f"{self.name} has closed")
        self.loop.ticks.append(callback)

    def add_timeout_callback(self, callback: Callable[[], None], milliseconds: float) -> None:
        if self.gone:
            raise RuntimeError(f"{self.name} has closed")
        self.loop.timeouts.append((self.loop.clock.now + milliseconds / 1000, callback))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def loop(clock: Clock) -> Loop:
    return Loop(clock)


def recorder(done: list[str], name: str) -> Callable[[], None]:
    return lambda: done.append(name)


def test_one_redraw_a_turn_and_the_dice_before_the_sheets(loop: Loop, clock: Clock) -> None:
    redraws = Redraws(clock)
    pages = [Page(loop, f"p{n}") for n in range(3)]
    done: list[str] = []
    for page in pages:
        redraws.add(page, recorder(done, f"sheet {page.name}"))
    for page in pages:
        redraws.add(page, recorder(done, f"dice {page.name}"), urgent=True)
    assert len(loop.ticks) == 1  # only the first step is scheduled: the loop reads its sockets in between
    loop.turn()
    assert done == ["sheet p0"] and len(loop.ticks) == 1
    loop.run()
    assert done == ["sheet p0", "dice p0", "dice p1", "dice p2", "sheet p1", "sheet p2"]
    assert len(redraws) == 0


def test_a_page_event_holds_the_queue_until_it_is_answered(loop: Loop, clock: Clock) -> None:
    redraws = Redraws(clock)
    clicking, other = Page(loop, "clicking"), Page(loop, "other")
    done: list[str] = []
    redraws.add(other, recorder(done, "first"))
    redraws.hold(clicking)  # its click has arrived; the redraw in flight still runs
    redraws.add(other, recorder(done, "second"))
    loop.turn()
    assert done == ["first"]
    loop.turn()
    assert done == ["first"]  # nothing new starts while the click is played
    done.append("click answered")
    redraws.release(clicking)
    loop.run()
    assert done == ["first", "click answered", "second"]


def test_an_event_never_answered_holds_the_queue_for_half_a_second_at_most(loop: Loop, clock: Clock) -> None:
    redraws = Redraws(clock)
    page = Page(loop, "p")
    done: list[str] = []
    redraws.hold(Page(loop, "went away"))
    redraws.add(page, recorder(done, "redraw"))
    loop.turn()
    assert done == []
    clock.now += Redraws.HOLD + 0.01
    loop.run()
    assert done == ["redraw"]


def test_a_closed_page_loses_its_redraws_and_the_others_go_on(loop: Loop, clock: Clock) -> None:
    redraws = Redraws(clock)
    closing, staying = Page(loop, "closing"), Page(loop, "staying")
    done: list[str] = []
    redraws.add(closing, recorder(done, "closing 1"))
    redraws.add(closing, recorder(done, "closing 2"))
    redraws.add(staying, recorder(done, "staying"))
    closing.gone = True
    loop.ticks.clear()  # the page took its scheduled callback with it
    redraws.forget(closing)
    loop.run()
    assert done == ["staying"]


def test_a_step_lost_with_its_page_stops_the_queue_for_two_seconds_at_most(loop: Loop, clock: Clock) -> None:
    redraws = Redraws(clock)
    done: list[str] = []
    redraws.add(Page(loop, "lost"), recorder(done, "lost"))
    loop.ticks.clear()  # scheduled, never run, and no forget() either
    page = Page(loop, "p")
    redraws.add(page, recorder(done, "waits"))
    loop.run()
    assert done == []
    clock.now += Redraws.LOST
    redraws.add(page, recorder(done, "goes"))
    loop.run()
    assert done == ["waits", "goes"]


def test_a_failing_redraw_is_logged_and_the_next_one_runs(
    loop: Loop, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    redraws = Redraws(clock)
    page = Page(loop, "p")
    done: list[str] = []

    def broken() -> None:
        raise ValueError("one page's trouble")

    redraws.add(page, broken)
    redraws.add(page, recorder(done, "next"))
    with caplog.at_level(logging.ERROR, logger="caterpillar_learn.classroom"):
        loop.run()
    assert done == ["next"]
    assert "a page's redraw failed" in caplog.text


@pytest.fixture
def room(tmp_path: Any) -> Iterator[tuple[Lobby, CaterpillarsRoom]]:
    lobby = Lobby(EventStore.in_folder(tmp_path))
    made = lobby.create(RoomSettings.build("beginner", seed=3))
    assert isinstance(made, CaterpillarsRoom)
    yield lobby, made


def pupil_page(room: CaterpillarsRoom, nickname: str) -> tuple[ClassroomBoard, Any]:
    widget = ClassroomBoard(RoomSession(room, room.join(nickname)))
    component = classroom_component(ClassroomBoard)(widget)
    return widget, component


def count_refreshes(widget: ClassroomBoard, stamp: Callable[[], float]) -> list[float]:
    """Note ``stamp()`` each time the widget redraws (and redraw it)."""
    seen: list[float] = []
    original = widget.refresh

    def refresh() -> None:
        seen.append(stamp())
        original()

    widget.refresh = refresh  # type: ignore[method-assign]
    return seen


def test_a_pupil_page_gets_the_dice_first_and_one_whole_redraw_for_a_burst(
    room: tuple[Lobby, CaterpillarsRoom], loop: Loop, clock: Clock
) -> None:
    _lobby, caterpillars = room
    widget, component = pupil_page(caterpillars, "Ada")
    session = widget.session
    assert isinstance(session, RoomSession)
    redraws = Redraws(clock)
    push = Push(Page(loop, "Ada"), widget, component, lambda: {"dice": session.dice_now()}, redraws=redraws)
    refreshes = count_refreshes(widget, lambda: 1)
    caterpillars.roll()
    for _ in range(3):  # a burst of changes
        push()
    loop.turn()
    assert component.dice == session.dice_now() and component.dice["rolled"]  # the dice, before the sheet
    assert refreshes == [] and not component.legal
    loop.run()
    assert refreshes == [1]
    assert component.legal == widget.legal and component.legal


def test_the_teacher_console_redraws_at_most_every_quarter_second(
    room: tuple[Lobby, CaterpillarsRoom], loop: Loop, clock: Clock
) -> None:
    _lobby, caterpillars = room
    widget, component = pupil_page(caterpillars, "Ada")
    redraws = Redraws(clock)
    push = Push(Page(loop, "teacher"), widget, component, redraws=redraws, every=0.25, clock=clock)
    drawn = count_refreshes(widget, clock)
    push()
    loop.run()
    for _ in range(5):  # pupils placing, 50 ms apart
        clock.now += 0.05
        push()
        loop.run()
    clock.now += 0.25
    loop.run()
    assert drawn[0] == 100.0
    assert len(drawn) == 2 and drawn[1] - drawn[0] >= 0.25


def test_a_closed_page_is_not_redrawn(room: tuple[Lobby, CaterpillarsRoom], loop: Loop, clock: Clock) -> None:
    _lobby, caterpillars = room
    widget, component = pupil_page(caterpillars, "Ada")
    push = Push(Page(loop, "Ada"), widget, component, redraws=Redraws(clock))
    refreshes = count_refreshes(widget, lambda: 1)
    push()
    push.closed = True
    loop.run()
    assert refreshes == []


def test_the_heap_is_frozen_once_the_pages_have_settled_and_thawed_when_one_closes(clock: Clock) -> None:
    freezer = Freezer(clock)
    try:
        gc.unfreeze()
        assert not freezer.tick()  # no page yet
        freezer.opened()
        clock.now += Freezer.QUIET / 2
        assert not freezer.tick() and gc.get_freeze_count() == 0
        clock.now += Freezer.QUIET
        assert freezer.tick() and gc.get_freeze_count() > 0
        assert not freezer.tick()  # once
        freezer.closed()
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()


def test_bokeh_holds_a_board_s_views_whole_and_sends_the_same_json(room: tuple[Lobby, CaterpillarsRoom]) -> None:
    _lobby, caterpillars = room
    widget, component = pupil_page(caterpillars, "Ada")
    document = Document()
    root = component.get_root(document)
    document.add_root(root)
    data = root.data
    assert isinstance(data.sheet, Whole) and data.sheet.value == widget.sheet
    found: list[Any] = []
    visit_value_and_its_immediate_references(data.sheet, found.append)
    assert found == []  # nothing for Bokeh to search
    caterpillars.roll()
    widget.refresh()
    component.pull()
    for name in ("sheet", "dice", "legal"):
        held = getattr(data, name)
        assert isinstance(held, Whole) and held.value == getattr(widget, name)
        assert Serializer().encode(held) == Serializer().encode(getattr(widget, name))
    assert data.dice.value["rolled"] and data.legal.value
