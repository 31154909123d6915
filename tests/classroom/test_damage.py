"""Damaged data: each damaged-file case is reported in one line, and nothing else is lost.

A damaged or illegal row stops its own room at that event (the later events
stay in the file, listed and unapplied); a file SQLite cannot trust is kept
aside and the server refuses to start; an empty file and a read-only folder
are refused.  Each case is made here on a real file, the way it happens: a
row edited by hand, a file cut short by a full disk, a file overwritten.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import random
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from caterpillar_learn.caterpillars import Move, SetupChoice
from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, Pupil, RoomSettings
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
from caterpillar_learn.classroom.store import FILE_NAME, DamagedFileError, EventStore
from caterpillar_learn.errors import one_line
from caterpillar_learn.i18n import text
from tests.browser.conftest import cli_command

TURNS = 5


def _play(pupil: Pupil, rng: random.Random) -> None:
    choices = pupil.game.legal_moves()
    choice = choices[rng.randrange(len(choices))]
    assert isinstance(choice, Move | SetupChoice)
    pupil.game.play(choice)


def _class(folder: Path) -> tuple[str, str]:
    """A folder with two rooms: Caterpillars (Ada and Ben, :data:`TURNS` rolls each placed) and Räuber Raupe."""
    lobby = Lobby.open(folder)
    room = lobby.create(RoomSettings.build("beginner", "standard", dice="server", hints=False, seed=3))
    assert isinstance(room, CaterpillarsRoom)
    other = lobby.create(TableSettings.build(2, "beginner", hints=False))
    rng = random.Random(3)
    ada, ben = room.join("Ada"), room.join("Ben")
    other.join("Cleo")
    for _ in range(TURNS):
        room.roll()
        _play(ada, rng)
        _play(ben, rng)
    lobby.store.close()
    return room.code, other.code


def _rows(folder: Path) -> list[tuple[int, str, str, str]]:
    db = sqlite3.connect(folder / FILE_NAME)
    rows = db.execute("SELECT id, room, kind, data FROM events ORDER BY id").fetchall()
    db.close()
    return rows


def _edit(folder: Path, ident: int, data: str) -> None:
    db = sqlite3.connect(folder / FILE_NAME)
    db.execute("UPDATE events SET data = ? WHERE id = ?", (data, ident))
    db.commit()
    db.close()


def _moves_of(rows: list[tuple[int, str, str, str]], code: str, pupil: int) -> list[tuple[int, str, str, str]]:
    return [r for r in rows if r[1] == code and r[2] == "move_placed" and json.loads(r[3])["pupil"] == pupil]


def _stopped_as_it_was(folder: Path, code: str, bad: int, caplog: pytest.LogCaptureFixture) -> Lobby:
    """Open ``folder`` whose room ``code`` has a bad row ``bad``: the room stops just before it, the rest is kept."""
    rows = _rows(folder)
    before = [r for r in rows if r[1] == code and r[0] < bad]
    later = [r[0] for r in rows if r[1] == code and r[0] > bad]
    with caplog.at_level(logging.INFO, logger="caterpillar_learn.classroom"):
        lobby = Lobby.open(folder)
    room = lobby.rooms[code]
    assert isinstance(room, CaterpillarsRoom)
    assert len(room.log) + 1 == len(before)  # every event before the bad one (room_created is not in room.log)
    assert [kind for kind, _ in room.log] == [r[2] for r in before[1:]]
    report = lobby.damage[code]
    assert (report.room, report.event, report.applied) == (code, bad, len(before))
    assert [ident for ident, _ in report.held] == later and later  # listed, in order, not applied
    assert report.to_json()["held"][0] == {"event": later[0], "kind": next(r[2] for r in rows if r[0] == later[0])}
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "\n" not in warnings[0], warnings  # one line, no traceback
    assert f"room {code}" in warnings[0] and f"event {bad} " in warnings[0] and report.why in warnings[0]
    # Nothing new is written after events the teacher has not seen: the room is read-only.
    with pytest.raises(ClassroomError, match=f"stopped at event {bad}"):
        room.roll()
    with pytest.raises(ClassroomError, match=f"stopped at event {bad}"):
        room.join("Zoe")
    assert _rows(folder) == rows  # every row still in the file, as it was
    return lobby


def test_a_row_of_invalid_json_stops_its_room_there_and_the_others_play_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    code, other = _class(tmp_path)
    rows = _rows(tmp_path)
    bad = _moves_of(rows, code, 1)[2][0]  # Ada's third move
    _edit(tmp_path, bad, '{"pupil": 1, "turn": ')
    lobby = _stopped_as_it_was(tmp_path, code, bad, caplog)
    assert "not JSON" in lobby.damage[code].why
    room = lobby.rooms[code]
    assert isinstance(room, CaterpillarsRoom) and len(room.pupils[1].game.history) == 2
    assert other not in lobby.damage and lobby.rooms[other].pupil_named("Cleo") is not None
    lobby.rooms[other].join("Dan")  # the other room writes on


def test_an_illegal_move_stops_the_room_and_lists_that_pupils_later_moves(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    code, _ = _class(tmp_path)
    rows = _rows(tmp_path)
    ada = _moves_of(rows, code, 1)
    bad = ada[2][0]
    illegal = json.loads(ada[2][3]) | {"choice": json.loads(ada[1][3])["choice"]}  # her second box again
    _edit(tmp_path, bad, json.dumps(illegal))
    lobby = _stopped_as_it_was(tmp_path, code, bad, caplog)
    held = [ident for ident, _ in lobby.damage[code].held]
    assert [r[0] for r in ada[3:]] and all(r[0] in held for r in ada[3:])  # her later moves: listed, not lost
    room = lobby.rooms[code]
    assert isinstance(room, CaterpillarsRoom) and len(room.pupils[1].game.history) == 2
    assert len(room.pupils[2].game.history) == 2  # Ben's move of that roll came after it: held too


def test_the_teachers_console_shows_the_damage_report_of_the_room(tmp_path: Path) -> None:
    from caterpillar_learn.classroom.consoles import TeacherConsole, TeacherWidget

    code, other = _class(tmp_path)
    bad = _moves_of(_rows(tmp_path), code, 2)[1][0]
    _edit(tmp_path, bad, "[1, 2]")
    lobby = Lobby.open(tmp_path)
    console = TeacherWidget(TeacherConsole(lobby, "http://127.0.0.1:5006/join"))
    console.act("open", code=code)
    (shown,) = console.damage
    assert shown["room"] == code and shown["event"] == bad and str(bad) in shown["report"]
    assert shown["title"] == text("classroom.damage.title", code=code)
    assert [h["event"] for h in shown["held"]] == [ident for ident, _ in lobby.damage[code].held]
    console.act("roll")
    assert console.message == text("classroom.damage.stopped", code=code, event=bad)
    console.act("open", code=other)
    assert console.damage == []  # only the room that is damaged


def _kept(folder: Path) -> list[Path]:
    """The damaged files kept aside in ``folder`` (their ``-wal`` and ``-shm`` go with them)."""
    return [p for p in folder.glob(f"{FILE_NAME}.damaged-*") if not p.name.endswith(("-wal", "-shm"))]


def _keep_aside_case(folder: Path, damage: str) -> bytes:
    _class(folder)
    path = folder / FILE_NAME
    whole = path.read_bytes()
    assert len(whole) > 3 * 4096 and not Path(f"{path}-wal").exists()
    if damage == "truncated":  # a disk that filled up, a copy cut short
        path.write_bytes(whole[: len(whole) // 2])
    else:  # overwritten by something else
        path.write_bytes(random.Random(damage).randbytes(len(whole)))
    return path.read_bytes()


@pytest.mark.parametrize(("damage", "said"), [("truncated", "malformed"), ("garbage", "not a database")])
def test_a_damaged_file_is_kept_aside_and_refused_in_one_line(tmp_path: Path, damage: str, said: str) -> None:
    damaged = _keep_aside_case(tmp_path, damage)
    with pytest.raises(DamagedFileError) as refused:
        Lobby.open(tmp_path)
    message = str(refused.value)
    assert "\n" not in message and str(tmp_path / FILE_NAME) in message
    assert "SQLite says: " in message and said in message
    (kept,) = _kept(tmp_path)
    assert kept.read_bytes() == damaged and kept.name in message  # renamed, never deleted
    assert not (tmp_path / FILE_NAME).exists()
    assert "the next start begins empty" in message
    assert one_line(message) == message, message  # the command line prints it whole, not cut
    again = Lobby.open(tmp_path)  # as the message says
    assert again.rooms == {} and again.damage == {}


def test_integrity_check_failure_is_handled_like_a_damaged_file(tmp_path: Path) -> None:
    store = EventStore.in_folder(tmp_path)
    for number in range(5):
        store.append("KX47PQ", "dice_rolled", {"number": number})
    store.close()
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events_by_room'").fetchone()
    (size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    whole = bytearray(path.read_bytes())
    at = whole.find(b"KX47PQ", (root - 1) * size, root * size)
    whole[at] = ord("C")  # the index now disagrees with its table: only a full check sees it
    path.write_bytes(bytes(whole))
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM events").fetchone() == (5,)  # it still reads
    with pytest.raises(DamagedFileError, match="integrity_check: row 5 missing from index"):
        EventStore.in_folder(tmp_path)
    (kept,) = _kept(tmp_path)
    assert kept.read_bytes() == bytes(whole)


def test_an_empty_or_schema_less_file_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"")
    with pytest.raises(DamagedFileError, match="empty"):
        Lobby.open(tmp_path)
    assert (tmp_path / FILE_NAME).read_bytes() == b""  # not overwritten with a fresh file and a new token

    other = tmp_path / "other"
    other.mkdir()
    db = sqlite3.connect(other / FILE_NAME)
    db.execute("CREATE TABLE notes (line TEXT)")
    db.commit()
    db.close()
    before = (other / FILE_NAME).read_bytes()
    with pytest.raises(DamagedFileError, match="not classroom data"):
        Lobby.open(other)
    assert (other / FILE_NAME).read_bytes() == before
    assert sorted(p.name for p in other.iterdir()) == [FILE_NAME]


NOBODY = 65534
#: Runs a command as root without the capability to write whatever the mode bits say (util-linux's setpriv).
HONOUR_MODES = ["setpriv", "--inh-caps=-dac_override", "--bounding-set=-dac_override", "--"]


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder another user can reach (pytest's own temporary folders are the owner's only)."""
    where = Path(tempfile.mkdtemp(prefix="classroom-damage-"))
    where.chmod(0o755)
    try:
        yield where
    finally:
        for part in where.rglob("*"):
            part.chmod(0o755 if part.is_dir() else 0o644)
        shutil.rmtree(where)


@functools.cache
def _as_nobody() -> bool:
    """Whether a read-only place must be shown to the server by running it as another user.

    Root writes anywhere, whatever the mode bits say, by its capability ``CAP_DAC_OVERRIDE``.  As root the
    server runs without it (:data:`HONOUR_MODES`): a read-only place is read-only to it, as to any user.  It
    keeps its own files and ``CAP_DAC_READ_SEARCH`` (reading anything), so it runs from wherever the checkout
    lies, a clone in a folder only root may enter too; no mount namespace is needed either (a container's root
    seldom may make one).  Only where setpriv is missing or refused does it run as ``nobody``, which needs the
    checkout and the interpreter readable by ``nobody``.
    """
    if os.geteuid() != 0:
        return False
    with tempfile.TemporaryDirectory() as place:
        Path(place).chmod(0o555)
        try:
            done = subprocess.run([*HONOUR_MODES, "touch", f"{place}/x"], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return True
        finally:
            Path(place).chmod(0o755)
    refused = done.returncode != 0 and b"Permission denied" in done.stderr  # the modes honoured, as wanted
    return not refused


def _run_classroom(data: Path, home: Path, *, read_only: bool = False) -> subprocess.CompletedProcess[str]:
    """The real ``caterpillar-learn classroom`` on ``data``, seeing the mode bits as any user (``read_only``)."""
    environment = {**os.environ, "HOME": str(home)}
    command = [*cli_command(), "classroom", "--port", "0", "--data", str(data)]
    as_nobody = read_only and _as_nobody()
    if read_only and os.geteuid() == 0 and not as_nobody:
        command = [*HONOUR_MODES, *command]
    try:
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=120,
            env=environment,
            user=NOBODY if as_nobody else None,
            group=NOBODY if as_nobody else None,
            extra_groups=[] if as_nobody else None,
        )
    except subprocess.TimeoutExpired as still_running:
        raise AssertionError(f"the server started instead of refusing: {still_running.stderr!r}") from None


def _home(folder: Path) -> Path:
    home = folder / "home"
    home.mkdir()
    os.chown(home, NOBODY, NOBODY) if _as_nobody() else None
    return home


def _one_line_exit_2(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("caterpillar-learn classroom: ")
    for word in words:
        assert word in done.stderr, done.stderr


@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_read_only_data_folder_or_file_is_refused_at_start(shared_folder: Path, what: str) -> None:
    data = shared_folder / "data"
    _class(data)
    home = _home(shared_folder)
    if what == "folder":
        data.chmod(0o555)  # root-owned and not writable for anyone else either
        place = data
    else:
        (data / FILE_NAME).chmod(0o444)
        data.chmod(0o755)
        if _as_nobody():
            os.chown(data, NOBODY, NOBODY)  # the folder is the user's, the file is not
        place = data / FILE_NAME
    before = _rows(data)
    done = _run_classroom(data, home, read_only=True)
    _one_line_exit_2(done, f"{place}: read-only")
    assert _rows(data) == before


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_the_cli_refuses_a_damaged_file_in_one_line_with_exit_2(shared_folder: Path, damage: str) -> None:
    data = shared_folder / "data"
    damaged = _keep_aside_case(data, damage)
    done = _run_classroom(data, _home(shared_folder))
    _one_line_exit_2(done, str(data / FILE_NAME), "kept as classroom.sqlite3.damaged-", "begins empty")
    (kept,) = _kept(data)
    assert kept.read_bytes() == damaged


def test_the_cli_refuses_an_empty_file_in_one_line_with_exit_2(shared_folder: Path) -> None:
    data = shared_folder / "data"
    data.mkdir()
    (data / FILE_NAME).write_bytes(b"")
    done = _run_classroom(data, _home(shared_folder))
    _one_line_exit_2(done, str(data / FILE_NAME), "empty")


@pytest.mark.browser
@pytest.mark.slow
def test_the_real_server_starts_with_one_line_and_the_console_shows_the_report(tmp_path: Path, browser: Any) -> None:
    from tests.browser.conftest import printed_address, start_classroom

    data = tmp_path / "data"
    code, _ = _class(data)
    bad = _moves_of(_rows(data), code, 1)[1][0]
    _edit(data, bad, "{")
    before = _rows(data)
    server = start_classroom(tmp_path)
    try:
        lines = server.log.read_text().splitlines()
        warned = [line for line in lines if " WARNING " in line]
        assert len(warned) == 1 and f"room {code}: event {bad} (move_placed)" in warned[0], server.log_tail()
        assert not any("Traceback" in line for line in lines)
        page = browser.new_page()
        try:
            page.goto(printed_address(server, "Teacher (keep this address to yourself):"))
            page.locator(f'[data-testid="open-room"][data-code="{code}"]').click(timeout=90_000)
            report = page.get_by_test_id("damage-report")
            report.wait_for(timeout=60_000)
            assert report.get_attribute("role") == "status"
            assert report.locator(f'[data-room="{code}"]').get_attribute("data-event") == str(bad)
            assert text("classroom.damage.title", code=code) in report.inner_text()
            page.get_by_test_id("teacher-roll").click()
            stopped = text("classroom.damage.stopped", code=code, event=bad)
            page.get_by_test_id("message").filter(has_text=stopped).wait_for(timeout=60_000)
        finally:
            page.close()
    finally:
        server.stop()
    # the roll was refused: nothing written; the damaged event and the later ones were set aside (issue 46)
    assert _rows(data) == [row for row in before if not (row[1] == code and row[0] >= bad)]


def test_a_stopped_raupe_room_keeps_its_clock_still_and_writes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lobby = Lobby.open(tmp_path)
    room = lobby.create(TableSettings.build(2, "beginner", hints=False))
    assert isinstance(room, RaupeRoom)
    room.join("Cleo")
    room.start_all()
    room.subscribe(lambda table: None, 0)
    seconds = iter(range(1, 1000))
    for _ in range(40):  # the bot plays, a second of game time each tick
        room.tick(lambda: float(next(seconds)))
    lobby.store.close()
    events = [r for r in _rows(tmp_path) if r[2] == "table_event"]
    assert len(events) > 4
    _edit(tmp_path, events[3][0], json.dumps({"table": 0, "event": {"kind": "moon"}}))
    before = _rows(tmp_path)
    again = Lobby.open(tmp_path)
    stopped = again.rooms[room.code]
    assert isinstance(stopped, RaupeRoom)
    assert again.damage[room.code].event == events[3][0] and len(stopped.log) == 1 + 1 + 3
    stopped.subscribe(lambda table: None, 0)  # a pupil's page follows the table
    with caplog.at_level(logging.INFO, logger="caterpillar_learn.classroom"):
        for _ in range(3):
            for table in stopped.tables:
                table.moved = 1.0  # long ago: a whole tick of game time is due
            again.tick()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # no clock failing four times a second
    assert _rows(tmp_path) == before and len(stopped.log) == 5
