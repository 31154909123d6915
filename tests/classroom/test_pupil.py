"""A pupil's page plays a whole game through the lessons' events, with the room's dice."""

from __future__ import annotations

import random

from caterpillar_learn.caterpillars import Game, Move, SetupChoice
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.pupil import ClassroomBoard, RoomSession
from caterpillar_learn.classroom.rooms import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.store import EventStore


def test_a_class_s_own_setup_rolls_then_twelve_rounds_by_clicks() -> None:
    lobby = Lobby(EventStore(":memory:"))
    room = lobby.create(RoomSettings.build("intermediate", "setup", dice="typed", hints=False))
    assert isinstance(room, CaterpillarsRoom)
    boards = [ClassroomBoard(RoomSession(room, room.join(name))) for name in ("Ada", "Ben")]
    rng = random.Random(5)
    while room.can_roll():
        setup = room.turn < room.setup_turns
        room.roll(" ".join(str(rng.randint(1, 6)) for _ in range(3)))
        for number, board in enumerate(boards):
            board.refresh()
            assert board.dice["rolled"] and board.dice["values"] == list(room.rolls[-1].dice)
            if setup:  # click the blank labels; Ben takes the dice in the other order
                order = [0, 1, 2] if number == 0 else [2, 1, 0]
                for index in order:
                    board.refresh()
                    board.act("die", index=index)
                    entry = board.legal[0]
                    board.act("box", caterpillar=entry["caterpillar"], box=entry["box"])
                    assert board.message == ""
            else:
                entry = board.legal[-1 if number else 0]
                board.act("option", index=entry["index"])
                assert board.message == ""
    assert room.is_over
    for board in boards:
        session = board.session
        assert isinstance(session, RoomSession)
        replayed = Game("intermediate", room.settings.labels, rolls=room.rolls)
        for turn in session.game.history:
            assert isinstance(turn.choice, Move | SetupChoice)
            replayed.play(turn.choice)
        assert replayed.state == session.game.state and board.final["final"] == replayed.score().final
    assert boards[0].session.game.state.labels != boards[1].session.game.state.labels
    board = boards[0]
    board.act("new_game")
    assert "new_game" in board.message  # the teacher starts games, not a pupil's page
    board.act("hint")
    assert "Hints are switched off" in board.message
