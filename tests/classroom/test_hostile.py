"""Bad or hostile messages to the classroom's widgets: refused in one line, logged, and the room goes on.

These go through the widgets exactly as Panel hands them the page's writes
(``event`` and any other trait a tampered page sends); the same messages
over a real server's websocket are in ``test_server.py``.
"""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from caterpillar_learn.caterpillars import Move
from caterpillar_learn.classroom.components import classroom_component
from caterpillar_learn.classroom.consoles import JoinDesk, JoinWidget, TeacherConsole, TeacherWidget
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.pupil import ClassroomBoard, RoomSession
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.rooms.raupe.pupil import SeatTable, SeatWidget
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
from caterpillar_learn.classroom.store import EventStore

JOIN_URL = "http://127.0.0.1:5006/join"


def _deep(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = {"type": value}
    return value


#: Events any page might send: wrong shapes, unknown types, huge or odd values.
GARBAGE: list[object] = [
    None,
    "roll",
    ["roll"],
    42,
    10**400,
    {},
    {"type": None},
    {"type": "x" * 100_000},
    {"type": "new_game"},
    {"type": "step", "delta": 1},
    {"type": "__class__"},
    {"type": "box", "caterpillar": "Alex", "box": 10**400},
    {"type": "box", "caterpillar": "Dora", "box": 0},
    {"type": "box", "caterpillar": ["Alex"], "box": "0"},
    {"type": "option", "index": -1},
    {"type": "option", "index": 10**9},
    {"type": "option", "index": True},
    {"type": "die", "index": 0},
    {"type": "play", "index": 0},
    {"type": "join", "code": "x" * 100_000, "nickname": "<script>alert(1)</script>"},
    {f"field{n}": n for n in range(100)} | {"type": "roll"},
    _deep(500),
]


@pytest.fixture
def lobby() -> Lobby:
    return Lobby(EventStore(":memory:"))


def _room(lobby: Lobby, hints: bool = False) -> CaterpillarsRoom:
    room = lobby.create(RoomSettings.build("beginner", dice="typed", hints=hints))
    assert isinstance(room, CaterpillarsRoom)
    return room


def test_a_pupil_board_refuses_every_bad_event_and_logs_it(lobby: Lobby, caplog: pytest.LogCaptureFixture) -> None:
    room = _room(lobby)
    ada, ben = room.join("Ada"), room.join("Ben")
    board = ClassroomBoard(RoomSession(room, ada))
    room.roll("3 5")
    logged = len(room.log)
    with caplog.at_level(logging.WARNING, logger="caterpillar_learn.classroom"):
        for event in GARBAGE:
            board.handle(event)
            assert board.message and len(board.message) <= 300, event
            assert "\n" not in board.message
        board.act("hint")  # hints are off for this class
        assert "Hints are switched off" in board.message
    assert len(room.log) == logged and ada.game.state.filled == 0 and ben.game.state.filled == 0
    refusals = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refusals) == 1  # the flood is told once; the next line counts the rest (classroom/refusals.py)
    assert all(len(r.getMessage()) < 1000 for r in refusals)  # a 100 000-character event is not logged whole
    # After all of it, Ada plays as usual, on her own sheet only.
    move = next(m for m in ada.game.legal_moves() if isinstance(m, Move))
    board.act("box", caterpillar=move.caterpillar, box=move.box, pupil=ben.id)
    assert board.message == "" and ada.game.state.filled == 1 and ben.game.state.filled == 0


def test_a_tampered_page_cannot_write_any_trait_but_event(lobby: Lobby, caplog: pytest.LogCaptureFixture) -> None:
    room = _room(lobby)
    board = ClassroomBoard(RoomSession(room, room.join("Ada")))
    room.roll("3 5")
    board.refresh()
    truth = {name: getattr(board, name) for name in ("sheet", "final", "legal", "dice")}
    with caplog.at_level(logging.WARNING, logger="caterpillar_learn.ui"):
        board.set_state({"final": {"final": 99, "text": "Final score: 99"}, "sheet": {}, "_esm": "alert(1)"})
        board.set_state({"legal": [{"caterpillar": "Alex", "box": 0, "score": 6, "index": 0}]})
    assert {name: getattr(board, name) for name in truth} == truth
    assert any("ignored a front-end write" in r.getMessage() for r in caplog.records)
    component: Any = classroom_component(ClassroomBoard)(board)
    reported: list[dict[str, Any]] = []
    component.tampered = reported.append
    component._process_events({"final": {"final": 99}, "sheet": {"svg": "<script>alert(1)</script>"}})  # a page's write
    assert component.final == {} and component.sheet == truth["sheet"]
    assert reported == [{"final": {"final": 99}, "sheet": {"svg": "<script>alert(1)</script>"}}]


def test_a_pupil_acts_only_on_their_own_sheet(lobby: Lobby) -> None:
    room = _room(lobby)
    pupils = [room.join(name) for name in ("Ada", "Ben", "Cleo")]
    boards = [ClassroomBoard(RoomSession(room, pupil)) for pupil in pupils]
    room.roll("3 5")
    rng = random.Random(3)
    for board in boards[:2]:
        board.refresh()
        entry = board.legal[rng.randrange(len(board.legal))]
        board.act("box", caterpillar=entry["caterpillar"], box=entry["box"], nickname="Cleo", pupil=3, room="ZZZZZZ")
    assert [p.game.state.filled for p in pupils] == [1, 1, 0]
    assert [kind for kind, _ in room.log].count("move_placed") == 2
    assert {data["pupil"] for kind, data in room.log if kind == "move_placed"} == {1, 2}


def test_the_teacher_console_refuses_bad_events_and_the_room_goes_on(
    lobby: Lobby, caplog: pytest.LogCaptureFixture
) -> None:
    console = TeacherWidget(TeacherConsole(lobby, JOIN_URL))
    console.act("roll")
    assert console.message == "Create a room first."
    bad_rooms: list[dict[str, Any]] = [
        {"game": "chess"},
        {"level": "master"},
        {"level": "beginner", "layout": "typed", "labels": "1 " * 100_000},
        {"level": "beginner", "dice": {"loaded": True}},
        {"level": "beginner", "hints": "no"},
        {"game": "raupe", "seats": 99},
        {"game": "raupe", "seats": 2, "bots": "terminator"},
    ]
    with caplog.at_level(logging.WARNING, logger="caterpillar_learn.classroom"):
        for fields in bad_rooms:
            console.act("create", **fields)
            assert console.message and len(console.message) <= 300, fields
        assert not lobby.rooms and lobby.store.count() == 0
        console.act("create", level="beginner", dice="typed")
        room = next(iter(lobby.rooms.values()))
        assert isinstance(room, CaterpillarsRoom)
        for event in GARBAGE + [
            {"type": "roll", "dice": {"a": 1}},
            {"type": "roll", "dice": "9 9"},
            {"type": "hints", "on": "yes"},
            {"type": "auto", "on": 1},
            {"type": "open", "code": "ZZZZZZ"},
            {"type": "review", "nickname": "Nobody"},
            {"type": "start"},
        ]:
            console.handle(event)
            assert console.message, event
    assert room.rolls == [] and room.log == []
    assert sum("teacher: refused" in r.getMessage() for r in caplog.records) == 1  # the rest counted, not logged
    console.act("roll", dice="3 5")
    assert console.message == "" and console.room["sheet"]["dice"]["values"] == [3, 5]


def test_the_door_refuses_bad_joins_in_one_line(lobby: Lobby) -> None:
    room = _room(lobby)
    joined: list[Any] = []
    door = JoinWidget(JoinDesk(lobby, "10.0.0.9", lambda room, pupil: joined.append(pupil)))
    for fields in (
        {"code": room.code},
        {"code": room.code, "nickname": ""},
        {"code": room.code, "nickname": "<img src=x onerror=alert(1)>"},
        {"code": "ZZZZZZ", "nickname": "Ada"},
        {"code": {"$ne": None}, "nickname": "Ada"},
        {"code": room.code, "nickname": ["Ada"]},
    ):
        door.act("join", **fields)
        assert door.message and len(door.message) <= 300
    assert not joined and not room.pupils
    door.act("join", code=room.code.lower(), nickname="Ada")
    assert door.message == "" and [p.nickname for p in joined] == ["Ada"]


def test_a_raupe_seat_refuses_bad_events_and_plays_only_its_own_cards(lobby: Lobby) -> None:
    room = lobby.create(TableSettings.build(seats=2, seed=3))
    assert isinstance(room, RaupeRoom)
    ada, ben = room.join("Ada"), room.join("Ben")
    seats = [SeatWidget(SeatTable(room, ada)), SeatWidget(SeatTable(room, ben))]
    seats[0].act("play", index=0)
    assert "not started" in seats[0].message
    seats[0].act("start")
    seats[1].act("start")
    assert "already" in seats[1].message
    logged = len(room.log)
    hands = [len(hand) for hand in room.tables[0].game.state.hands]
    for event in [e for e in GARBAGE if e != {"type": "play", "index": 0}] + [
        {"type": "play", "index": 99},
        {"type": "flip", "index": -1},
        {"type": "shout", "word": "x" * 10_000},
        {"type": "speed", "value": 100},
        {"type": "level", "value": "expert"},
        {"type": "pause"},
        {"type": "tick", "dt": 10**9},
    ]:
        seats[0].handle(event)
        if event != {"type": "tick", "dt": 10**9}:
            assert seats[0].session.refusal, event
    assert len(room.log) == logged and [len(h) for h in room.tables[0].game.state.hands] == hands
    seats[1].act("play", index=0)
    assert [len(h) for h in room.tables[0].game.state.hands] == [hands[0], hands[1] - 1]
