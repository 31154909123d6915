"""Rooms nobody uses go back to sleep (issue 46): their memory is given back, and the log wakes them again."""

from __future__ import annotations

from pathlib import Path

import pytest

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom, LessonSettings
from caterpillar_learn.classroom.store import EventStore

AFTER = 600.0


def test_a_room_nobody_follows_sleeps_after_a_while_and_wakes_as_it_was(tmp_path: Path) -> None:
    lobby = Lobby(EventStore(tmp_path / "classroom.sqlite3"), sleep_after=AFTER)
    room = lobby.create(RoomSettings.build("beginner", dice="typed", seed=1))
    lesson = lobby.create(LessonSettings.build("01-beginner"))
    assert isinstance(room, CaterpillarsRoom) and isinstance(lesson, LessonRoom)
    ada = room.join("Ada")
    room.arrive(ada.id)
    room.roll("3 5")
    ada.game.play(ada.game.legal_moves().first())
    page = lesson.subscribe(lambda _part: None, None)  # the teacher's console follows the lesson room
    assert lobby.doze(now=0.0) == []
    assert lobby.doze(now=AFTER - 1) == []  # not long enough
    assert lobby.doze(now=AFTER + 1) == [room.code]  # the lesson room is followed: it stays awake
    assert lobby.awake() == [lesson.code]
    assert [(code, pupils) for code, _, pupils in lobby.listing()] == [(room.code, 1), (lesson.code, 0)]
    with pytest.raises(ClassroomError, match="reload the page"):  # an old object of it takes nothing
        room.roll("2 4")
    again = lobby.rooms[room.code]
    assert isinstance(again, CaterpillarsRoom) and again is not room
    assert again.turn == 1 and again.pupils[ada.id].game.state == ada.game.state
    again.roll("2 4")  # the woken room plays on
    lesson.unsubscribe(page)
    lobby.doze(now=2 * AFTER)
    assert sorted(lobby.doze(now=3 * AFTER + 2)) == sorted([room.code, lesson.code])
    assert lobby.awake() == []
    lobby.close()
