"""Only what changed is written (issue 46): a refused event, or one that changes nothing, is not a row of the log.

A real server (``caterpillar-learn classroom`` in its own process) and pages
that speak Bokeh's protocol (:class:`~tests.classroom.probe.PageClient`): in
each kind of room a pupil's page sends 50 ``pause`` events with no game
running, which the room refuses, and the file gains no row.  In-process, the
teacher's settings sent again as they are write nothing either.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from caterpillar_learn.classroom.consoles import TeacherConsole, TeacherWidget
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import RoomSettings
from caterpillar_learn.classroom.rooms.lesson.room import LessonSettings
from caterpillar_learn.classroom.rooms.raupe.room import TableSettings
from caterpillar_learn.classroom.store import FILE_NAME, EventStore
from tests.browser.conftest import Server
from tests.classroom.probe import PageClient
from tests.classroom.test_server import _serve

#: The refused events each page sends.
REFUSED = 50
#: Each room kind: the teacher's form, and the widget a pupil's page shows.
KINDS = {
    "caterpillars": ({"game": "caterpillars", "level": "beginner", "dice": "typed"}, "ClassroomBoard"),
    "raupe": ({"game": "raupe", "seats": 2}, "SeatWidget"),
    "lesson": ({"game": "lesson", "lesson": "10-raupe-shape"}, "LessonTable"),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, str, Path]]:
    folder = tmp_path_factory.mktemp("written")
    for running, base, token in _serve(folder):  # the classroom tests' own server, on this folder
        yield running, base, token, folder / "data" / FILE_NAME


def rows(path: Path, code: str) -> int:
    """How many events room ``code`` has in the file (read beside the server, as ``sqlite3`` would)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM events WHERE room = ?", (code,)).fetchone()
    return int(count)


def answer(page: PageClient, widget: str, event: dict[str, object], before: str) -> str:
    """Send ``event`` until the page's line shows something else than ``before`` (a pupil's page is drawn again
    once it has joined, so a first event may reach a widget that is gone); the line."""
    for _ in range(20):
        if page.model(widget) is not None:
            page.write(widget, "event", event)
            if page.wait(lambda: page.trait(widget, "message") not in ("", before), timeout=3):
                return str(page.trait(widget, "message"))
        time.sleep(0.2)  # poll: the next try, at most 20
    raise AssertionError(f"{widget} did not answer {event}")


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_fifty_refused_pauses_write_no_row_in_any_room(served: tuple[Server, str, str, Path], kind: str) -> None:
    running, base, token, path = served
    form, widget = KINDS[kind]
    teacher = PageClient(f"{base}/teacher", {"token": token})
    assert teacher.wait(lambda: teacher.model("TeacherWidget") is not None, timeout=30), running.log_tail()
    shown = teacher.trait("TeacherWidget", "room").get("code")  # the console opens the newest room at once
    teacher.send("TeacherWidget", "create", **form)
    assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code") not in (None, shown), timeout=30)
    code = teacher.trait("TeacherWidget", "room")["code"]
    pupil = PageClient(f"{base}/join", {"room": code})
    pupil.send("JoinWidget", "join", code=code, nickname="Flo")
    assert pupil.wait(lambda: pupil.model(widget) is not None, timeout=30), running.log_tail()
    before = rows(path, code)
    refused = answer(pupil, widget, {"type": "pause"}, "")  # the page is drawn and answers
    for seq in range(REFUSED):
        pupil.write(widget, "event", {"type": "pause", "seq": seq})
    # The page's events are handled in order: once the next refusal shows, every pause has been answered.
    answer(pupil, widget, {"type": "nope"}, refused)
    assert rows(path, code) == before, (kind, refused)
    for page in (teacher, pupil):
        page.close()


def test_the_teachers_settings_sent_again_as_they_are_write_nothing() -> None:
    lobby = Lobby(EventStore(":memory:"))
    console = TeacherWidget(TeacherConsole(lobby, "http://127.0.0.1:5006/join"))
    for settings, events in (
        (RoomSettings.build("beginner", hints=True), [("hints", {"on": True}), ("auto", {"on": False})]),
        (TableSettings.build(seats=2), [("start", {})]),
        (LessonSettings.build("10-raupe-shape"), [("pause", {"on": False}), ("anonymize", {"on": False})]),
    ):
        room = lobby.create(settings)
        room.join("Ada")
        console.act("open", code=room.code)
        if isinstance(settings, TableSettings):
            console.act("start")
        before = lobby.store.count()
        for _ in range(REFUSED):
            for kind, fields in events:
                console.act(kind, **fields)
        assert console.message == "", console.message
        assert lobby.store.count() == before, (room.game_name, [k for k, _ in room.log])
