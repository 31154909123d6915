"""Hostile messages over the real server's websocket: refused, logged, and every room goes on.

``caterpillar-learn classroom`` runs in its own process; the clients speak
Bokeh's protocol as pages do (:class:`~tests.classroom.probe.PageClient`)
and write what a tampered page could write: other traits than ``event``,
events of every wrong shape, another pupil's fields, a flood of joins.
"""

from __future__ import annotations

import os
import re
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from caterpillar_learn.classroom.codes import new_code
from caterpillar_learn.classroom.refusals import EVERY
from caterpillar_learn.i18n import language
from caterpillar_learn.lessons.printable import lesson_sheet
from tests.browser.conftest import Server, cli_command, free_port, start_server
from tests.classroom.probe import PageClient

pytestmark = pytest.mark.slow

#: How long the flooding page sends refused events (seconds; shorter than :data:`EVERY`).
FLOOD = 2.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, str]]:
    yield from _serve(tmp_path_factory.mktemp("classroom"))


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[tuple[Server, str, str]]:
    """A server of the test's own (the other tests' flood of joins has used up this address's joins)."""
    yield from _serve(tmp_path)


def _serve(folder: Path) -> Iterator[tuple[Server, str, str]]:
    """``caterpillar-learn classroom`` on ``folder``: the server, its address and the teacher's token."""
    port = free_port()
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(folder / "data")]
    running = start_server(cmd, f"http://127.0.0.1:{port}/join", folder / "server.log")
    token = re.search(r"token=(\S+)", running.log.read_text())
    assert token, running.log_tail()
    try:
        yield running, f"http://127.0.0.1:{port}", token.group(1)
    finally:
        running.stop()


def test_hostile_messages_are_refused_and_the_room_goes_on(server: tuple[Server, str, str]) -> None:
    running, base, token = server
    stranger = PageClient(f"{base}/teacher", {"token": "guess"})
    assert stranger.model("TeacherWidget") is None  # no console without the token
    stranger.close()

    teacher = PageClient(f"{base}/teacher", {"token": token})
    teacher.send("TeacherWidget", "create", game="caterpillars", level="beginner", dice="typed")
    assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code"))
    code = teacher.trait("TeacherWidget", "room")["code"]

    pupils = {}
    for nickname in ("Ada", "Ben"):
        page = PageClient(f"{base}/join", {"room": code})
        page.send("JoinWidget", "join", code=code, nickname=nickname)
        assert page.wait(lambda page=page: page.model("ClassroomBoard") is not None)
        pupils[nickname] = page
    ada, ben = pupils["Ada"], pupils["Ben"]
    teacher.send("TeacherWidget", "roll", dice="3 5")
    assert ada.wait(lambda: ada.trait("ClassroomBoard", "dice").get("values") == [3, 5])
    # The dice come first and the redrawn sheet at a later tick (server.Push): wait for the whole redraw,
    # or the sheet kept below would be the one before the roll.
    assert ada.wait(lambda: ada.trait("ClassroomBoard", "legal"))

    # Traits other than `event` are put back at once.
    sheet = ada.trait("ClassroomBoard", "sheet")
    ada.write("ClassroomBoard", "final", {"final": 99, "text": "Final score: 99"})
    ada.write("ClassroomBoard", "sheet", {"svg": "<script>alert(1)</script>"})
    ada.write("ClassroomBoard", "lang", "xx")
    assert ada.wait(
        lambda: (
            ada.trait("ClassroomBoard", "final") == {}
            and ada.trait("ClassroomBoard", "sheet") == sheet
            and ada.trait("ClassroomBoard", "lang") == "en"
        )
    )

    # An event that is not even an object is refused by Bokeh's own checks (and logged there).
    for bad in ["roll", [1, 2], 12, None]:
        ada.write("ClassroomBoard", "event", bad)
    # Events of every wrong shape get one line, and change nothing; the page keeps working.
    for bad in [{"type": "x" * 50_000}, {"type": "new_game"}, {"type": "box", "box": 99}, {"type": "option"}]:
        ada.write("ClassroomBoard", "event", bad)
        assert ada.wait(lambda: ada.trait("ClassroomBoard", "message")), bad
        ada.send("ClassroomBoard", "close")  # a good event clears the line
        assert ada.wait(lambda: ada.trait("ClassroomBoard", "message") == "")
    # Naming another pupil changes nothing: a page acts on its own sheet only.
    entry = ada.trait("ClassroomBoard", "legal")[0]
    ada.send("ClassroomBoard", "box", caterpillar=entry["caterpillar"], box=entry["box"], pupil=2, nickname="Ben")
    assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room")["placed"]["count"] == 1)
    pupils_shown = {p["nickname"]: p["filled"] for p in teacher.trait("TeacherWidget", "room")["pupils"]}
    assert pupils_shown == {"Ada": 1, "Ben": 0}

    # The teacher's console refuses bad events too.
    teacher.send("TeacherWidget", "roll", dice="9 9 9 9")
    assert teacher.wait(lambda: "die 9" in teacher.trait("TeacherWidget", "message"))
    teacher.write("TeacherWidget", "room", {"code": "HACKED"})
    assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code") == code)

    # A flood of joins from one address is held back.
    # (Panel merges writes of one trait that arrive together, so each guess waits for its answer.)
    door = PageClient(f"{base}/join", {})
    answers = []
    for attempt in range(16):
        guess = new_code()
        door.send("JoinWidget", "join", code=guess, nickname=f"Guess{attempt}")
        assert door.wait(
            lambda guess=guess: (
                guess in door.trait("JoinWidget", "message") or "Too many" in door.trait("JoinWidget", "message")
            )
        )
        answers.append(door.trait("JoinWidget", "message"))
        door.send("JoinWidget", "join", code="", nickname="")  # a different answer before the next guess
        assert door.wait(
            lambda: (
                "room code: got ''" in door.trait("JoinWidget", "message")
                or "Too many" in door.trait("JoinWidget", "message")
            )
        )
    assert "Too many tries" in answers[-1] and "There is no room" in answers[0]

    # The room goes on: Ben plays, the teacher sees it; the server logged the refusals.
    entry = ben.trait("ClassroomBoard", "legal")[0]
    ben.send("ClassroomBoard", "box", caterpillar=entry["caterpillar"], box=entry["box"])
    assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room")["placed"]["text"] == "2 of 2 placed")
    assert running.process.poll() is None
    log = running.log.read_text()
    # Each page that sent refused events is told in the log (once every few seconds: classroom/refusals.py).
    assert all(who in log for who in ("teacher: refused", "pupil 'Ada': refused", "door (")), log[-2000:]
    assert "ignored a front-end write" in log and "join limit" in log
    assert log.count("expected a dict") == 1  # Bokeh's refusals of the 4 events that were not objects: told once
    for page in (teacher, ada, ben, door):
        page.close()


def test_the_teacher_address_stays_secret_and_the_data_folder_is_private(server: tuple[Server, str, str]) -> None:
    running, base, token = server
    data = Path(running.process.args[-1])  # type: ignore[index]
    assert (data.stat().st_mode & 0o077) == 0
    for guess in ("", token[:-1], token + "x", token.upper() if token.upper() != token else token.lower()):
        page = PageClient(f"{base}/teacher", {"token": guess})
        assert page.model("TeacherWidget") is None
        page.close()
    assert "teacher page asked for without the token" in running.log.read_text()


def test_a_lessons_printed_page_is_the_teachers_alone(server: tuple[Server, str, str]) -> None:
    """Issue 42: the classroom serves each lesson's printed page (its plan and answers) as ``serve`` does, to the
    teacher's browser alone: the console's link carries the token once, and the page takes it out of its address."""
    _running, base, token = server
    teacher = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with teacher.open(f"{base}/print/01-beginner?seed=3&lang=de&token={token}", timeout=60) as answer:
        page = answer.read().decode()
        assert answer.status == 200 and "token" not in answer.url and "seed=3" in answer.url
    with language("de"):
        assert lesson_sheet("01-beginner", 3, "de").title in page and "<html" in page
    again = teacher.open(f"{base}/print/02-intermediate?seed=1", timeout=60)  # the cookie, no token
    assert again.status == 200
    for stranger, status in ((f"{base}/print/01-beginner?seed=3", 403), (f"{base}/print/01-beginner?token=x", 403)):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(stranger, timeout=60)  # a pupil's tablet: no token, no cookie
        assert refused.value.code == status
    with pytest.raises(urllib.error.HTTPError) as unknown:
        teacher.open(f"{base}/print/99-none?seed=1", timeout=60)
    assert unknown.value.code == 404 and "lesson" in unknown.value.read().decode()


def test_a_flood_of_refused_events_is_told_once_every_few_seconds(own_server: tuple[Server, str, str]) -> None:
    running, base, token = own_server
    teacher = PageClient(f"{base}/teacher", {"token": token})
    teacher.send("TeacherWidget", "create", game="caterpillars", level="beginner", dice="typed")
    assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code"))
    code = teacher.trait("TeacherWidget", "room")["code"]
    flo = PageClient(f"{base}/join", {"room": code})
    flo.send("JoinWidget", "join", code=code, nickname="Flo")
    assert flo.wait(lambda: flo.model("ClassroomBoard") is not None)

    def told() -> tuple[list[str], list[str]]:
        """The log's lines about Flo's refused events, and about the messages Bokeh refused."""
        lines = running.log.read_text().splitlines()
        return [line for line in lines if "pupil 'Flo': refused" in line], [x for x in lines if "expected a dict" in x]

    def flood() -> None:
        """An event that is not even an object (Bokeh refuses it), then one the board refuses: both reach the
        server, in order, before the board's line under the sheet changes (two such events in turn)."""
        nonlocal sent
        before = flo.trait("ClassroomBoard", "message")
        flo.write("ClassroomBoard", "event", sent)
        flo.write("ClassroomBoard", "event", {**bad[sent % 2], "seq": sent})
        sent += 1
        assert flo.wait(lambda: flo.trait("ClassroomBoard", "message") not in ("", before))

    bad = [{"type": "box", "box": 99}, {"type": "option"}]
    size, sent, start = running.log.stat().st_size, 0, time.monotonic()
    flood()
    told_by = time.monotonic()  # the first lines were written by now (the board answered the second event)
    while time.monotonic() - start < FLOOD:
        flood()
    assert sent > 10, sent  # a flood even on a loaded machine (19 round trips seen beside a full suite)
    assert [len(lines) for lines in told()] == [1, 1], told()
    assert running.log.stat().st_size - size < 1000, running.log_tail()  # a line of each for the whole flood

    # The next lines, once EVERY seconds have passed since the first, count every refusal since.
    # time itself: the refusals' lines are written once a window of EVERY seconds has passed
    time.sleep(max(0.0, told_by + EVERY + 0.2 - time.monotonic()))
    flood()
    assert flo.wait(lambda: [len(lines) for lines in told()] == [2, 2]), running.log_tail()
    assert all(f"(and {sent - 2} more refused in the last " in lines[1] for lines in told()), told()
    for page in (teacher, flo):
        page.close()


def test_sigterm_stops_the_server_as_ctrl_c_does(tmp_path: Path) -> None:
    """A service manager's stop (SIGTERM) closes the store and removes the pictures' folder the server made
    (before, each stop left a folder in the temporary folder), and the server exits 0."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    port = free_port()
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(tmp_path / "data")]
    environment = {**os.environ, "TMPDIR": str(temporary)}
    running = start_server(cmd, f"http://127.0.0.1:{port}/join", tmp_path / "server.log", env=environment)
    made = [path.name for path in temporary.iterdir()]
    assert any(name.startswith("caterpillar-learn-classroom-") for name in made), made
    running.process.send_signal(signal.SIGTERM)
    assert running.process.wait(timeout=30) == 0, running.log_tail()
    assert not [path for path in temporary.iterdir() if path.name.startswith("caterpillar-learn-classroom-")]
