"""Räuber Raupe tables: seating, the server's clock, bots in the empty seats, and replay from the log."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.identity import RejoinNeeded, new_secret
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.raupe.pupil import SeatTable, SeatWidget
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
from caterpillar_learn.classroom.screens import room_view
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.i18n import language, text
from caterpillar_learn.raupe import Game, next_table_event


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _room(lobby: Lobby, seats: int, seed: int = 3) -> RaupeRoom:
    room = lobby.create(TableSettings.build(seats=seats, seed=seed, bots="advanced"))
    assert isinstance(room, RaupeRoom)
    return room


def test_pupils_fill_tables_in_order_and_keep_their_seat() -> None:
    room = _room(Lobby(EventStore(":memory:")), seats=2)
    secrets = [new_secret() for _ in range(5)]
    seated = [room.join(name, secret) for name, secret in zip(("Ada", "Ben", "Cleo", "Dan", "Eve"), secrets)]
    assert [(p.table, p.seat) for p in seated] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]
    assert room.join("cleo", secrets[2]) is seated[2]  # the page that holds Cleo's secret: her seat again
    for typed in ("cleo", "ＣＬＥＯ"):
        with pytest.raises(RejoinNeeded):
            room.join(typed)  # without it: the teacher decides
    room.start(2)
    late = room.join("Finn")  # a started table takes nobody: a new one opens
    assert (late.table, late.seat) == (3, 0)
    assert room.tables[2].name(1).endswith("(bot)") and "Eve" in room.tables[2].name(0)
    with pytest.raises(ClassroomError):
        room.start(9)


def test_a_table_with_bots_plays_on_the_servers_clock_only_while_someone_watches(tmp_path: Path) -> None:
    lobby = Lobby(EventStore(tmp_path / "log.sqlite3"))
    room = _room(lobby, seats=3)
    ada = room.join("Ada")
    room.start(0)
    clock = Clock()
    for _ in range(40):
        clock.now += 0.25
        room.tick(clock)
    assert not room.tables[0].game.events  # no page follows the table: it waits
    token = room.subscribe(lambda _table: None, 0)
    for _ in range(4 * 60 * 10):
        clock.now += 0.25
        room.tick(clock)
        if room.tables[0].game.is_over:
            break
    table = room.tables[0]
    assert table.game.events and all(e.time <= table.now for e in table.game.events)
    bots = {e.player for e in table.game.events if hasattr(e, "player")} - {ada.seat}
    assert bots  # the empty seats are played
    room.unsubscribe(token)
    # The log gives the same table back, event for event (cuts included).
    again = Lobby(EventStore(tmp_path / "log.sqlite3")).rooms[room.code]
    assert isinstance(again, RaupeRoom)
    assert again.tables[0].game.to_json() == table.game.to_json()
    assert Game.from_json(table.game.to_json()).state == table.game.state


def test_two_pupils_play_each_other_through_their_seats() -> None:
    room = _room(Lobby(EventStore(":memory:")), seats=2)
    seats = [SeatWidget(SeatTable(room, room.join(name))) for name in ("Ada", "Ben")]
    seats[0].act("start")
    game = room.tables[0].game
    for turn in range(6):
        seat = seats[turn % 2]
        seat.refresh()
        fitting = [card["index"] for card in seat.hand if card.get("fits")]
        before = len(game.state.hands[turn % 2])
        seat.act("play", index=fitting[0] if fitting else 0)
        assert seat.session.refusal == "" and len(game.state.hands[turn % 2]) == before - 1
    assert [e.player for e in game.events] == [0, 1, 0, 1, 0, 1]
    seats[1].refresh()
    assert seats[1].table["pile"]["size"] == 7 and seats[1].table["running"] is False  # the server's clock
    names = [o["name"] for o in seats[1].table["opponents"]]
    assert names == ["Player 1: Ada"]
    # Each page numbers its own pupil as the table does ("Player 2: Ben puts down …"), not as a lesson's 1.
    assert seats[0].table["hand_title"] == text("classroom.raupe.hand", player=1)
    assert seats[1].table["hand_title"] == text("classroom.raupe.hand", player=2)
    assert any(line.startswith("Player 2: Ben") for line in seats[1].log), seats[1].log


def test_a_call_is_judged_by_the_referee_and_its_cut_is_logged_before_it_happens() -> None:
    room = _room(Lobby(EventStore(":memory:")), seats=2)
    ada, ben = (SeatWidget(SeatTable(room, room.join(name))) for name in ("Ada", "Ben"))
    ada.act("start")
    ada.act("play", index=0)
    logged = [kind for kind, _ in room.log]
    ben.act("mistake")
    assert ben.session.refusal == ""
    kind, data = room.log[-1]
    assert kind == "table_event" and data["event"]["call"] == 1 and data["event"]["cuts"]
    assert len(room.log) == len(logged) + 1
    assert room.tables[0].game.state.penalty is not None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_winner_of_a_table_is_named_by_nickname(seed: int) -> None:
    room = _room(Lobby(EventStore(":memory:")), seats=2, seed=seed)
    for name in ("Ada", "Ben"):
        room.arrive(room.join(name).id)
    room.start(0)
    shared = room.tables[0]
    bot = shared.setup.bot_level(shared.setup.level)
    rng = random.Random(seed)
    for _ in range(2000):  # both seats played as bots play, through the room's own log
        if shared.game.state.finished:
            break
        shared.submit(next_table_event(shared.game.state, [bot, bot], rng))
    assert shared.game.state.finished
    status = room_view(room, "")["tables"][0]["status"]
    assert status == shared.lines[0] == shared.winner_text()
    assert ("Ada" in status or "Ben" in status) and "Player" not in status


def test_the_teacher_removes_a_seated_pupil_and_a_bot_takes_the_seat() -> None:
    room = _room(Lobby(EventStore(":memory:")), seats=2)
    ada, ben = room.join("Ada"), room.join("Ghost")
    room.arrive(ada.id)
    assert [p["nickname"] for p in room_view(room, "")["pupils"]] == ["Ada"]  # a page that never connected
    room.start(0)
    room.rename(ada.id, "Ava")
    room.remove(ben.id)
    assert room.tables[0].name(0) == "Player 1: Ava" and room.tables[0].name(1).endswith("(bot)")
    assert room.pupil_named("Ghost") is None and room.pupil_named("AVA") is ada


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_finished_table_says_it_is_over_and_how_to_play_again(lang: str) -> None:
    """At a finished table a tap and Start say the same thing: the game is over, a new game is a new room (not
    "press Start" while Start is refused as already started)."""
    room = _room(Lobby(EventStore(":memory:")), seats=2, seed=1)
    ada, ben = room.join("Ada"), room.join("Ben")
    room.start(0)
    shared = room.tables[0]
    bot = shared.setup.bot_level(shared.setup.level)
    rng = random.Random(1)
    while not shared.game.state.finished:
        shared.submit(next_table_event(shared.game.state, [bot, bot], rng))
    widget = SeatWidget(SeatTable(room, ada), lang=lang)
    written = len(room.log)
    with language(lang):
        finished, new_room = text("classroom.raupe.finished"), text("classroom.ui.new_room")
    for kind, fields in (("play", {"index": 0}), ("mistake", {}), ("start", {}), ("shout", {"word": "shape"})):
        widget.act(kind, **fields)
        assert widget.message == finished, (kind, widget.message)
    assert "Start" not in finished and new_room in finished
    assert len(room.log) == written and ben.id in room.pupils
