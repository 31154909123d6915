"""A pupil's page plays a whole game through the lessons' events, with the room's dice."""

from __future__ import annotations

import random

from caterpillar_learn.caterpillars import Game, Move, SetupChoice
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.pupil import ClassroomBoard, RoomSession
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.screens import room_view
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.i18n import text


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


def test_after_placing_a_pupil_is_told_to_wait_and_their_round_is_the_projector_s() -> None:
    lobby = Lobby(EventStore(":memory:"))
    room = lobby.create(RoomSettings.build("beginner", dice="typed", hints=False))
    assert isinstance(room, CaterpillarsRoom)
    board = ClassroomBoard(RoomSession(room, room.join("Ada")))
    shown = []
    for dice in ("3 5", "2 4", "1 6"):
        room.roll(dice)
        board.refresh()
        projector = room_view(room, "")["round_text"]
        entry = board.legal[0]
        board.act("box", caterpillar=entry["caterpillar"], box=entry["box"])
        if board.menu:
            board.act("option", index=board.menu["options"][0]["index"])
        assert board.message == ""
        box = board.sheet["labels"]  # any box: there is no roll for this pupil until the teacher rolls
        board.act("box", caterpillar=next(iter(box)), box=0)
        assert board.message == "You have placed this roll. Wait for the next roll."
        shown.append((board.sheet["round"], projector))
    assert shown == [(number, text("lessons.ui.round", round=number)) for number in (1, 2, 3)]
    session = board.session
    assert isinstance(session, RoomSession)
    german = ClassroomBoard(RoomSession(room, session.pupil), lang="de")  # the same pupil's page in German
    german.act("box", caterpillar="Alex", box=0)
    assert german.message == "Du hast diesen Wurf schon eingetragen. Warte auf den nächsten Wurf."


def test_a_pupil_s_board_has_no_new_game_button() -> None:
    assert '[data-testid="new-game"] { display: none; }' in ClassroomBoard.css()
