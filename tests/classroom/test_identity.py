"""Who a pupil is: nicknames read as people read them, secrets kept by the page, the teacher deciding the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.consoles import JoinDesk, JoinWidget, TeacherConsole, TeacherWidget
from caterpillar_learn.classroom.identity import (
    RejoinNeeded,
    Removed,
    check_nickname,
    is_secret,
    new_secret,
    nickname_key,
)
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
from caterpillar_learn.classroom.store import FILE_NAME, EventStore

#: Nicknames a child at the projector reads as "Ada": case, fullwidth letters, a Cyrillic А.
LOOK_ALIKES = ("ADA", "ada", "Ａｄａ", "ＡＤＡ", "Аda")


@pytest.mark.parametrize("typed", LOOK_ALIKES)
def test_look_alikes_of_a_nickname_read_as_that_nickname(typed: str) -> None:
    assert nickname_key(typed) == nickname_key("Ada")


@pytest.mark.parametrize(("one", "other"), [("Ada", "Ida"), ("Jörg", "Jorg"), ("Ben", "Ben2"), ("Kim", "Tim")])
def test_different_nicknames_stay_different(one: str, other: str) -> None:
    assert nickname_key(one) != nickname_key(other)


@pytest.mark.parametrize("typed", ["Аda", "Bеn", "Adа1", "Ζoe"])  # Cyrillic А, е, а; Greek Ζ with Latin letters
def test_a_nickname_mixing_alphabets_is_refused_in_one_line(typed: str) -> None:
    with pytest.raises(ClassroomError) as refused:
        check_nickname(typed)
    message = str(refused.value)
    assert message.startswith("nickname:") and repr(typed) in message and "\n" not in message


@pytest.mark.parametrize("typed", ["Ada", "Jörg", "Zoë", "Ада", "Ben 2", "Ｂｅｎ"])
def test_nicknames_of_one_alphabet_are_taken(typed: str) -> None:
    assert check_nickname(typed) == typed


def _lobby(path: Path | None = None) -> Lobby:
    return Lobby(EventStore(":memory:" if path is None else path))


def _caterpillars(lobby: Lobby) -> CaterpillarsRoom:
    room = lobby.create(RoomSettings.build("beginner", dice="typed"))
    assert isinstance(room, CaterpillarsRoom)
    return room


def _raupe(lobby: Lobby) -> RaupeRoom:
    room = lobby.create(TableSettings.build(seats=2, seed=3))
    assert isinstance(room, RaupeRoom)
    return room


@pytest.mark.parametrize("make", [_caterpillars, _raupe])
@pytest.mark.parametrize("typed", LOOK_ALIKES)
def test_a_look_alike_nickname_never_gets_the_pupil_s_sheet(make: Any, typed: str) -> None:
    lobby = _lobby()
    room = make(lobby)
    secret = new_secret()
    _, ada = lobby.join(room.code, "Ada", client="10.0.0.1", secret=secret)
    with pytest.raises(ClassroomError) as refused:
        lobby.join(room.code, typed, client="10.0.0.2", secret=new_secret())
    # Either the mixed alphabets are refused, or the teacher is asked: never Ada's sheet, never a second Ada.
    assert isinstance(refused.value, RejoinNeeded) or "alphabet" in str(refused.value)
    if isinstance(refused.value, RejoinNeeded):
        assert refused.value.pupil == ada.id
    assert list(room.pupils) == [ada.id]


def test_the_page_s_secret_gives_the_sheet_back_and_only_its_hash_is_kept(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    lobby = _lobby(path)
    room = _caterpillars(lobby)
    secret = new_secret()
    _, ada = lobby.join(room.code, "Ada", client="10.0.0.1", secret=secret)
    assert lobby.join(room.code, None, client="10.0.0.1", secret=secret)[1] is ada  # a reload, the same tablet
    with pytest.raises(ClassroomError):
        lobby.join(room.code, None, client="10.0.0.1", secret=new_secret())
    lobby.store.close()
    again = _lobby(path)  # a restart: the secret still works
    assert again.join(room.code, None, client="10.0.0.1", secret=secret)[1].nickname == "Ada"
    again.store.close()
    for stored in tmp_path.iterdir():
        assert secret.encode() not in stored.read_bytes()


def test_a_second_tablet_waits_for_the_teacher_who_lets_it_in_or_refuses(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    lobby = _lobby(path)
    console = TeacherWidget(TeacherConsole(lobby, "http://127.0.0.1:5006/join"))
    console.act("create", game="caterpillars", level="beginner", layout="standard", dice="typed", hints=True)
    code = console.room["code"]
    joined: list[Any] = []
    first = JoinWidget(JoinDesk(lobby, "10.0.0.1", lambda room, pupil: joined.append(pupil)))
    first.act("join", code=code, nickname="Ada")
    assert first.door["state"] == "joined" and is_secret(first.door["secret"])

    second = JoinWidget(JoinDesk(lobby, "10.0.0.2", lambda room, pupil: joined.append(pupil)))
    second.act("join", code=code, nickname="ＡＤＡ")
    assert second.door["state"] == "waiting" and second.door["note"].startswith("Ask your teacher")
    assert second.door["secret"] == "" and len(joined) == 1
    console.refresh()
    (request,) = console.room["requests"]
    assert request["text"] == "Ada wants to join on another tablet."
    console.act("let_in", request=request["id"])
    second.refresh()
    assert second.door["state"] == "joined" and joined[1] is joined[0]
    assert is_secret(second.door["secret"]) and second.door["secret"] != first.door["secret"]
    console.refresh()
    assert console.room["requests"] == [] and len(console.room["pupils"]) == 1

    third = JoinWidget(JoinDesk(lobby, "10.0.0.3", lambda room, pupil: joined.append(pupil)))
    third.act("join", code=code, nickname="ada")
    console.refresh()
    console.act("refuse", request=console.room["requests"][0]["id"])
    third.refresh()
    assert third.door["state"] == "refused" and third.door["secret"] == "" and len(joined) == 2
    console.act("let_in", request=console.room["requests"][0]["id"] if console.room["requests"] else 99)
    assert console.message == "That page is not waiting any more."

    lobby.store.close()
    again = _lobby(path)  # the secret the teacher handed out survives a restart
    assert again.join(code, None, client="10.0.0.2", secret=second.door["secret"])[1].nickname == "Ada"


def test_a_page_that_closes_while_waiting_leaves_the_console() -> None:
    lobby = _lobby()
    room = _caterpillars(lobby)
    lobby.join(room.code, "Ada", client="10.0.0.1", secret=new_secret())
    door = JoinDesk(lobby, "10.0.0.2", lambda room, pupil: None)
    door.handle({"type": "join", "code": room.code, "nickname": "ADA"})
    assert len(room.roster.requests) == 1
    door.close()
    assert room.roster.requests == {}


def test_the_door_keeps_the_secret_out_of_every_log_line(caplog: pytest.LogCaptureFixture) -> None:
    lobby = _lobby()
    room = _caterpillars(lobby)
    secret = new_secret()
    lobby.join(room.code, "Ada", client="10.0.0.1", secret=secret)
    door = JoinWidget(JoinDesk(lobby, "10.0.0.1", lambda room, pupil: None))
    with caplog.at_level("DEBUG"):
        door.act("resume", code="ZZZZZZ", secret=secret)  # an old room: the form, without a word
        assert door.door["state"] == "door" and door.message == ""
        door.act("join", code=room.code, nickname=["not", "a", "name"], secret=secret)
        door.act("resume", code=room.code, secret=secret)
    assert door.door["state"] == "joined" and door.door["secret"] == secret
    assert caplog.records and all(secret not in record.getMessage() for record in caplog.records)


def test_a_removed_pupil_s_page_is_told_so_and_their_secret_no_longer_works(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    lobby = _lobby(path)
    room = _caterpillars(lobby)
    secret = new_secret()
    _, ben = lobby.join(room.code, "Ben", client="10.0.0.1", secret=secret)
    room.remove(ben.id)
    with pytest.raises(Removed):
        lobby.join(room.code, None, client="10.0.0.1", secret=secret)
    door = JoinWidget(JoinDesk(lobby, "10.0.0.1", lambda room, pupil: None))
    door.act("resume", code=room.code, secret=secret)
    assert door.door["state"] == "removed" and "taken you out" in door.door["note"]
    lobby.store.close()
    again = _lobby(path)
    with pytest.raises(Removed):
        again.join(room.code, None, client="10.0.0.1", secret=secret)
