"""An archive that cannot lose a tap (issue 46), with the real server in its own process.

* ``--archive`` and ``--restore`` refuse, in one line, while a server holds the data folder;
* a room archived from the console answers a page still open on it with a line, and writes nothing;
* a room found damaged at start is not half applied: the damaged event and the later ones are set aside in a
  quarantine file that the log names, and ``--restore`` puts them back once the line is mended.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom
from caterpillar_learn.classroom.store import FILE_NAME
from caterpillar_learn.i18n import text
from tests.browser.conftest import Server, cli_command, free_port, start_server
from tests.classroom.probe import PageClient
from tests.classroom.test_damage import TURNS, _class, _edit, _moves_of, _rows
from tests.classroom.test_written import answer

pytestmark = pytest.mark.slow


def serve(folder: Path) -> tuple[Server, str, str]:
    port = free_port()
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(folder / "data")]
    running = start_server(cmd, f"http://127.0.0.1:{port}/join", folder / "server.log")
    token = re.search(r"token=(\S+)", running.log.read_text())
    assert token, running.log_tail()
    return running, f"http://127.0.0.1:{port}", token.group(1)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Server, str, str]]:
    running = serve(tmp_path)
    try:
        yield running
    finally:
        running[0].stop()


def classroom(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*cli_command(), "classroom", *options], capture_output=True, text=True, timeout=120)


def one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def test_archive_and_restore_refuse_while_a_server_holds_the_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, other = _class(data)
    running, _base, _token = serve(tmp_path)
    try:
        before = _rows(data)
        one_line(classroom("--archive", other, "--data", str(data)), "--archive:", "is running", "Archive this room")
        (tmp_path / "some.jsonl").write_text("{}\n")
        one_line(classroom("--restore", str(tmp_path / "some.jsonl"), "--data", str(data)), "--restore:", "stop it")
        one_line(classroom("--port", "0", "--data", str(data)), "--data:", "another classroom server")
        assert _rows(data) == before
    finally:
        running.stop()
    done = classroom("--archive", other, "--data", str(data))  # the server stopped: the folder is free again
    assert done.returncode == 0 and "Archived" in done.stdout, done.stderr
    assert {row[1] for row in _rows(data)} == {code}


def test_a_room_archived_from_the_console_answers_a_late_tap_with_a_line(served: tuple[Server, str, str]) -> None:
    running, base, token = served
    path = running.log.parent / "data" / FILE_NAME
    teacher = PageClient(f"{base}/teacher", {"token": token})
    assert teacher.wait(lambda: teacher.model("TeacherWidget") is not None, timeout=30), running.log_tail()
    teacher.send("TeacherWidget", "create", game="raupe", seats=2)
    assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code"), timeout=30)
    code = teacher.trait("TeacherWidget", "room")["code"]
    pupil = PageClient(f"{base}/join", {"room": code})
    pupil.send("JoinWidget", "join", code=code, nickname="Flo")
    assert pupil.wait(lambda: pupil.model("SeatWidget") is not None, timeout=30), running.log_tail()
    answer(pupil, "SeatWidget", {"type": "flip", "index": 99}, "")  # the page answers (no table running yet)
    teacher.send("TeacherWidget", "archive", code=code)  # finished: no table is running
    assert teacher.wait(lambda: "Archived" in str(teacher.trait("TeacherWidget", "desk").get("notice")), timeout=30), (
        teacher.trait("TeacherWidget", "message"),
        running.log_tail(),
    )
    line = answer(pupil, "SeatWidget", {"type": "start"}, pupil.trait("SeatWidget", "message"))
    assert line == text("classroom.archive.closed", code=code)
    written = [row for row in _rows(path.parent) if row[1] == code]
    assert written == [], written  # the late Start wrote nothing (and the archive took every row)
    for page in (teacher, pupil):
        page.close()


def test_a_damaged_room_is_set_aside_in_a_quarantine_file_and_restore_puts_it_back(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, _other = _class(data)
    rows = _rows(data)
    bad = _moves_of(rows, code, 1)[2]  # Ada's third move
    later = [row[0] for row in rows if row[1] == code and row[0] > bad[0]]
    _edit(data, bad[0], '{"pupil": 1, "turn": ')
    running, _base, _token = serve(tmp_path)
    try:
        warned = [line for line in running.log.read_text().splitlines() if " WARNING " in line]
        assert len(warned) == 1 and f"room {code}: event {bad[0]} (move_placed)" in warned[0], running.log_tail()
        found = re.search(r"set aside in (quarantine/\S+\.jsonl)", warned[0])
        assert found, warned[0]
        kept = data / found.group(1)
        assert f"{len(later)} later events" in warned[0] and "--restore" in warned[0]
        applied = [row[0] for row in rows if row[1] == code and row[0] < bad[0]]
        assert [row[0] for row in _rows(data) if row[1] == code] == applied  # the log: what the room applied
    finally:
        running.stop()
    again = Lobby.open(data, hold=True)  # the next start: still stopped, with the same report and file
    assert again.damage[code].quarantine == found.group(1) and again.damage[code].event == bad[0]
    with pytest.raises(ClassroomError, match=f"stopped at event {bad[0]}"):
        again.rooms[code].roll()
    again.close()
    head, *aside = (json.loads(line) for line in kept.read_text().splitlines())
    assert head["room"] == code and [line["id"] for line in aside] == [bad[0], *later]
    aside[0]["data"] = bad[3]  # the school's IT mends the damaged line in the quarantine file
    kept.write_text("".join(json.dumps(line) + "\n" for line in (head, *aside)))
    done = classroom("--restore", str(kept), "--data", str(data))
    assert done.returncode == 0 and f"Restored {len(later) + 1} events of room {code}" in done.stdout, done.stderr
    assert _rows(data) == rows  # every event back, in its place
    lobby = Lobby.open(data)
    room = lobby.rooms[code]
    assert isinstance(room, CaterpillarsRoom) and not lobby.damage
    assert room.turn == TURNS and all(len(pupil.game.history) == TURNS for pupil in room.pupils.values())
    lobby.close()
