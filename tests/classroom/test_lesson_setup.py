"""A lesson room set up like a lesson (issue 42): a seed, hints and a language at creation, for every pupil.

The console's form sends them with the lesson; the room's first row keeps them, so a restart replays the same
room; each pupil's page starts in the room's language, deals the seed's cards or dice, and offers no hint where
the teacher switched hints off.  A bad value is refused in one line naming the field.
"""

from __future__ import annotations

import pytest

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.consoles import TeacherConsole, TeacherWidget
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.lesson.page import lesson_widget
from caterpillar_learn.classroom.rooms.lesson.pupil import LessonSettings, RoomLesson, RoomTable
from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom
from caterpillar_learn.classroom.store import EventStore
from caterpillar_learn.i18n import language, text

JOIN = "http://127.0.0.1:1/join"


def created(lobby: Lobby, **fields: object) -> LessonRoom:
    console = TeacherWidget(TeacherConsole(lobby, JOIN))
    console.act("create", game="lesson", **fields)
    assert console.message == "", console.message
    room = lobby.rooms[console.room["code"]]
    assert isinstance(room, LessonRoom)
    # The console names the room with what it was set up with (issue 42: shown on the console).
    title = next(listed["title"] for listed in console.desk["rooms"] if listed["code"] == room.code)
    assert text("classroom.title.seed", seed=room.settings.seed) in title, title
    if room.settings.hints is False:
        assert text("classroom.title.hints_off") in title, title
    return room


def test_a_card_lesson_with_a_seed_hints_off_and_german_gives_every_pupil_those() -> None:
    store = EventStore(":memory:")
    room = created(Lobby(store), lesson="10-raupe-shape", mode="own", seed="77", hints=False, lang="de")
    assert (room.settings.seed, room.settings.hints, room.settings.lang) == (77, False, "de")
    pupils = [room.join(name) for name in ("Ada", "Ben")]
    for pupil in pupils:
        room.arrive(pupil.id)
        table = pupil.session
        assert isinstance(table, RoomTable) and table.seed == 77 and table.setup.hints is False
        page = lesson_widget(room, pupil)
        assert page.lang == "de"
        with language("de"):
            assert page.table["mode_text"] == text("raupe.mode.shape") == "Form"
    # The settings are the room's first row: a server started again on the same log has the same room.
    again = Lobby(store).rooms[room.code]
    assert isinstance(again, LessonRoom) and again.settings == room.settings


def test_a_caterpillars_lesson_with_hints_off_offers_no_hint_after_its_guided_game() -> None:
    room = created(Lobby(EventStore(":memory:")), lesson="01-beginner", seed=5, hints=False, lang="de")
    (ada,) = [room.join("Ada")]
    room.arrive(ada.id)
    lesson = ada.session
    assert isinstance(lesson, RoomLesson) and lesson.seed == 5 and lesson.free_hints is False
    assert lesson.offers_hint()  # the guided game keeps the hint: a step of it teaches the Hint button
    lesson.games_made = 2  # as after New game at the lesson's end: a free game
    assert not lesson.offers_hint()
    with pytest.raises(ClassroomError, match=text("classroom.msg.hints_off", lang="de")[:20]):
        room.act(ada.id, {"type": "hint"})
    assert lesson_widget(room, ada).lesson["no_hint"] is True


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({"seed": -1}, "seed: got -1, expected a whole number from 0 to 999999999"),
        ({"seed": "many"}, "seed: got 'many', expected a whole number"),
        ({"hints": "maybe"}, "hints: got 'maybe', expected on (true), off (false)"),
        ({"lang": "xx"}, "language: got 'xx', expected one of"),
    ],
)
def test_a_bad_setting_is_refused_in_one_line(fields: dict[str, object], line: str) -> None:
    with pytest.raises(ClassroomError) as refused:
        LessonSettings.build("01-beginner", **fields)  # type: ignore[arg-type]
    assert str(refused.value).startswith(line) and "\n" not in str(refused.value)
