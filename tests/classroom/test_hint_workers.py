"""A pupil's hint is worked out in a worker process, and the server's event loop goes on meanwhile.

* two asks for one layout share one solve (one future, one real solve in the workers);
* a hint goes before the next asked-for solve, and what a move cost goes after it;
* a pupil who asks sees "Thinking…" at once, and the hint comes with the page's next redraw,
  the same hint the solver gives in this process; the loss of the move after it comes the same way;
* while a worker solves an Intermediate layout, an asyncio loop's callbacks keep running on time,
  and the same check with today's solve in the server's own process fails;
* over the real server's websocket: "thinking", then the hint;
* closing the pool leaves no process behind.

Beginner layouts are used where the size of a solve does not matter (a solve of a second or so).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from caterpillar_learn.advice import disk_cache, solver
from caterpillar_learn.advice.tables import solved_as
from caterpillar_learn.advice.workers import Solves
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.classroom.rooms.caterpillars.pupil import ClassroomBoard, RoomSession
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.screens import room_view
from caterpillar_learn.i18n import language, text
from caterpillar_learn.ui.caterpillars import advice as bridge
from tests import waiting
from tests.threads import on_own_thread

#: Long enough never to fire in a passing test, short enough to end a failing one (a loaded machine).
SAFETY = 240.0
LAYOUT = "1 3 6 4 6 2 3 5 5 4 2 1"
OTHER = "1 1 6 4 2 2 2 5 5 6 2 1"
REORDERED = "6 4 1 3 2 5 6 3 1 2 4 5"


def labels(typed: str) -> tuple[int, ...]:
    return tuple(int(v) for v in typed.split())


def a_room(level: str, typed: str, dice: str) -> CaterpillarsRoom:
    return CaterpillarsRoom("KX47PQ", RoomSettings.build(level, "typed", typed, dice="typed", hints=True))


class Page:
    """A pupil's board as the server holds it, with its redraw done when the room says something changed."""

    def __init__(self, room: CaterpillarsRoom, nickname: str, pool: Solves) -> None:
        pupil = room.join(nickname)
        room.work_in(bridge.PooledHelper(pool))
        self.board = ClassroomBoard(RoomSession(room, pupil))
        self.changed = threading.Event()
        room.subscribe(lambda _: self.changed.set(), pupil.id)
        self.shown: list[dict[str, Any]] = []
        self.board.observe(lambda change: self.shown.append(dict(change["new"])), names="hint")

    def redraw_when_told(self, until: Any) -> None:
        """What the server's Push does on the page's document after the room's call: ``refresh``."""
        deadline = time.monotonic() + SAFETY
        while not until():
            assert self.changed.wait(max(0.0, deadline - time.monotonic())), "the page was never told"
            self.changed.clear()
            self.board.refresh()


def in_process_hint(board: ClassroomBoard) -> dict[str, Any]:
    game = board.session.game
    return bridge.hint_view(game.state, game.roll())


def test_two_asks_for_one_layout_start_one_solve(pool: Solves) -> None:
    asks: list[Any] = []
    threads = [threading.Thread(target=lambda: asks.append(pool.solve("beginner", labels(LAYOUT)))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    asks.append(pool.solve(Level.BEGINNER, list(labels(LAYOUT)), asked=True))
    other = pool.solve("beginner", labels(OTHER))
    assert len({id(future) for future in asks}) == 1, "one future for the layout, shared"
    assert other is not asks[0]
    found = [asks[0].result(SAFETY), other.result(SAFETY)]
    assert [entry.solved for entry in found] == [True, True], "each layout really solved, by a worker"
    assert all(entry.pid != psutil.Process().pid for entry in found)
    # Asked again at once, while the worker may still be writing the file behind its answer: no new solve.
    assert pool.solve("beginner", labels(LAYOUT)) is asks[0], "a solved layout is not solved again"
    # The same labels with each caterpillar's boxes in another order: the same game, the same solve.
    assert pool.solve("beginner", labels(REORDERED)) is asks[0], "another order of the boxes is not solved again"
    expected = sorted(disk_cache.file_name(Level.BEGINNER, solved_as(labels(t))) for t in (LAYOUT, OTHER))
    deadline = time.monotonic() + SAFETY
    while (stored := sorted(p.name for p in pool.folder.glob(f"*{disk_cache.SUFFIX}"))) != expected:
        assert time.monotonic() < deadline, f"the workers wrote {stored}, not {expected}"
        time.sleep(0.05)  # poll: the next look at the folder, bounded by the deadline
    assert pool.solve("beginner", labels(LAYOUT)) is asks[0], "nor once its file is there"


THIRD = "2 3 6 4 6 2 3 5 5 4 2 1"


def test_a_hint_goes_before_the_next_solve_and_what_a_move_cost_after_it(pool: Solves) -> None:
    done: list[str] = []
    lock = threading.Lock()

    def note(name: str) -> Any:
        def call(_: Any) -> None:
            with lock:
                done.append(name)

        return call

    first = pool.solve("beginner", labels(LAYOUT), asked=True)  # the one worker is busy with it
    # Queued while it runs, the follow-up first: the order of asking is not the order of answering.
    cost = pool.run("beginner", labels(LAYOUT), time.monotonic, urgent=False)
    hint = pool.run("beginner", labels(LAYOUT), time.monotonic)
    other = pool.solve("beginner", labels(OTHER), asked=True)
    ahead = pool.solve("beginner", labels(THIRD))  # known, nobody asked: last of all
    for name, future in (("solve", first), ("cost", cost), ("hint", hint), ("other", other), ("ahead", ahead)):
        future.add_done_callback(note(name))
    for future in (first, cost, hint, other, ahead):
        future.result(SAFETY)
    assert done == ["solve", "hint", "other", "cost", "ahead"]


def test_pupils_on_one_layout_share_the_workers_solve(pool: Solves) -> None:
    room = a_room("beginner", LAYOUT, "typed")
    pages = [Page(room, name, pool) for name in ("Ada", "Ben", "Cem")]
    warmups = [page.board.session.warmup for page in pages]
    assert all(w is not None for w in warmups)
    room.roll("3 5")
    for page in pages:
        page.board.act("hint")
    for page in pages:
        page.redraw_when_told(lambda page=page: page.board.hint.get("status") == "ready")
    assert pool.solving() == []
    solved = pool.solve("beginner", labels(LAYOUT)).result(SAFETY)
    assert solved.solved and len(list(pool.folder.glob(f"*{disk_cache.SUFFIX}"))) == 1


def test_a_hint_shows_thinking_then_comes_with_the_next_redraw(pool: Solves) -> None:
    room = a_room("beginner", LAYOUT, "typed")
    page = Page(room, "Ada", pool)
    room.roll("3 5")
    page.board.refresh()
    page.board.act("hint")
    assert page.board.hint == {"status": "thinking", "title": text("classroom.msg.hint_thinking")}
    assert page.board.message == ""
    page.redraw_when_told(lambda: page.board.hint.get("status") == "ready")
    assert [entry.get("status") for entry in page.shown] == ["thinking", "ready"]
    assert page.board.hint == in_process_hint(page.board), "the worker's hint is the solver's"

    # The move after a hint: placed at once, and what it cost follows from a worker.
    game = page.board.session.game
    before, roll = game.state, game.roll()
    best = page.board.hint["best"]
    page.board.act("box", caterpillar=best["caterpillar"], box=best["box"])
    if page.board.menu:
        page.board.act("option", index=0)
    assert game.state.filled == 1
    assert page.board.explanation.endswith(text("classroom.msg.cost_thinking"))
    page.redraw_when_told(lambda: text("classroom.msg.cost_thinking") not in page.board.explanation)
    move = game.history[-1].choice
    cost = " ".join(bridge.loss_lines(before, roll, move))  # type: ignore[arg-type]
    assert page.board.explanation.endswith(cost), page.board.explanation


def test_what_if_comes_from_a_worker_too(pool: Solves) -> None:
    room = a_room("beginner", LAYOUT, "typed")
    page = Page(room, "Ada", pool)
    room.roll("3 5")
    page.board.refresh()
    first = page.board.legal[0]
    page.board.act("box", caterpillar=first["caterpillar"], box=first["box"])
    assert page.board.session.game.state.filled == 1
    page.board.act("whatif", index=0)
    assert "yours" not in page.board.whatif and page.board.message == ""
    page.redraw_when_told(lambda: "yours" in page.board.whatif)
    last = page.board.session.game.history[-1]
    other = page.board.session.other_moves()[0]
    assert page.board.whatif["yours"]["value"] == bridge.outcome(last.before, last.choice)["value"]  # type: ignore[arg-type]
    assert page.board.whatif["other"]["value"] == bridge.outcome(last.before, other)["value"]


def test_the_review_at_the_end_comes_from_a_worker_and_the_server_never_solves(pool: Solves) -> None:
    solver.clear_cache()
    room = a_room("beginner", LAYOUT, "typed")
    page = Page(room, "Ada", pool)
    room.roster.seen.add(page.board.session.pupil.id)  # her page has connected: the console counts her
    for _ in range(12):
        room.roll("3 5")
        page.board.refresh()
        first = page.board.legal[0]
        page.board.act("box", caterpillar=first["caterpillar"], box=first["box"])
        if page.board.menu:
            page.board.act("option", index=0)
    game = page.board.session.game
    assert game.phase == "over"
    page.board.act("review")
    assert page.board.review.get("thinking") == text("lessons.ui.review_thinking"), page.board.review
    assert not page.board.review["reviewed"]
    row = next(row for row in room_view(room, "http://x/")["leaderboard"] if row["nickname"] == "Ada")
    assert row.get("reviewing") is True and "review" not in row, "the teacher sees it is on its way"
    page.redraw_when_told(lambda: bool(page.board.review.get("reviewed")))
    assert "thinking" not in page.board.review
    row = next(row for row in room_view(room, "http://x/")["leaderboard"] if row["nickname"] == "Ada")
    assert "reviewing" not in row and row["review"], row
    assert not solver._CACHE, "the server's process solved nothing: the review came from a worker"
    expected = bridge.review_view(game)  # only now, here, for the comparison
    assert page.board.review["advice"] == expected["summary"]
    assert page.board.review["rounds"] == expected["rounds"]


def test_a_hint_in_german_comes_back_in_german(pool: Solves) -> None:
    room = a_room("beginner", LAYOUT, "typed")
    pupil = room.join("Ada")
    room.work_in(bridge.PooledHelper(pool))
    board = ClassroomBoard(RoomSession(room, pupil), lang="de")
    changed = threading.Event()
    room.subscribe(lambda _: changed.set(), pupil.id)
    room.roll("3 5")
    board.act("hint")
    with language("de"):
        assert board.hint == {"status": "thinking", "title": text("classroom.msg.hint_thinking")}
    assert board.hint["title"].startswith("Ich denke nach")
    while board.hint.get("status") != "ready":
        assert changed.wait(SAFETY)
        changed.clear()
        board.refresh()
    with language("de"):
        assert board.hint == in_process_hint(board)


def test_a_new_move_drops_a_hint_still_on_its_way(pool: Solves) -> None:
    room = a_room("beginner", OTHER, "typed")
    page = Page(room, "Ada", pool)
    room.roll("3 5")
    page.board.act("hint")
    first = page.board.legal[0]
    page.board.act("box", caterpillar=first["caterpillar"], box=first["box"])
    if page.board.menu:
        page.board.act("option", index=first["index"])
    assert page.board.session.game.state.filled == 1
    pool.solve("beginner", labels(OTHER)).result(SAFETY)
    # The hint's job runs once the solve is in; a job asked for after it, and not urgent (so behind every hint),
    # ends after it on the pool's one worker: the hint has come back (and been dropped, or shown) by then.
    pool.run("beginner", labels(OTHER), time.monotonic, urgent=False).result(SAFETY)
    page.board.refresh()
    assert page.board.hint == {}, "a hint for the sheet before the move is never shown"


# -- the event loop ---------------------------------------------------------------------


async def _longest_gap_while(ask: Any, arrived: threading.Event, seconds: float) -> float:
    """Ask (in a loop callback, as a page's event is), then tick every 20 ms until ``arrived``; the longest gap."""
    loop = asyncio.get_running_loop()
    loop.call_soon(ask)
    last, longest = time.monotonic(), 0.0
    end = last + seconds
    while not arrived.is_set() and time.monotonic() < end:
        await asyncio.sleep(0.02)  # time itself: the loop's longest gap is measured by these 20 ms ticks
        now = time.monotonic()
        longest, last = max(longest, now - last), now
    return longest


def _loop_check(typed: str, pool: Solves | None) -> tuple[float, ClassroomBoard]:
    room = a_room("intermediate", typed, "typed")
    pupil = room.join("Ada")
    if pool is not None:
        room.work_in(bridge.PooledHelper(pool))
    board = ClassroomBoard(RoomSession(room, pupil))
    room.roll("2 5 6")
    board.refresh()
    arrived = threading.Event()

    def ask() -> None:
        board.act("hint")
        if board.hint.get("status") == "ready":
            arrived.set()

    def told(_: object) -> None:
        board.refresh()  # (in this test on the pool's thread; the server's Push does it on the page's document)
        if board.hint.get("status") == "ready":
            arrived.set()

    room.subscribe(told, pupil.id)
    gap = on_own_thread(asyncio.run, _longest_gap_while(ask, arrived, SAFETY))
    assert arrived.is_set()
    return gap, board


@pytest.mark.slow
def test_the_event_loop_goes_on_while_a_worker_solves(pool: Solves, monkeypatch: pytest.MonkeyPatch) -> None:
    gap, board = _loop_check("1 3 6 4 6 2 3 5 5 4 2 7", pool)
    assert board.hint["status"] == "ready"
    solved = pool.solve("intermediate", labels("1 3 6 4 6 2 3 5 5 4 2 7")).result(SAFETY)
    assert solved.solved and solved.seconds > 1.0
    # The same check with the solve in the server's own process (today's background thread):
    monkeypatch.delenv(disk_cache.ENV, raising=False)
    from caterpillar_learn.advice import solver

    solver.clear_cache()
    try:
        blocked, _ = _loop_check("1 3 6 4 6 2 3 5 5 4 2 8", None)
    finally:
        solver.clear_cache()
        bridge.join_background_solves(SAFETY)
    print(f"longest gap of the loop: {gap:.3f} s with the pool, {blocked:.3f} s with the solve in process")
    assert blocked > 1.0, f"the check can fail: with the solve in process the loop stood still {blocked:.2f} s"
    assert gap < max(0.5, blocked / 4), f"the loop stood still {gap:.2f} s while a worker solved ({blocked:.2f} s)"


# -- stopping -----------------------------------------------------------------------------


def test_closing_stops_every_worker_and_removes_its_own_folder() -> None:
    solves = Solves(workers=1)
    folder = solves.folder
    found = solves.solve("beginner", labels(LAYOUT)).result(SAFETY)
    worker = psutil.Process(found.pid)
    assert worker.ppid() == psutil.Process().pid
    later = solves.solve("beginner", labels(OTHER))  # may still be waiting: cancelled or finished by close()
    solves.close()
    assert not psutil.pid_exists(found.pid), "the worker is gone, not a zombie"
    assert [child for child in psutil.Process().children() if child.pid == found.pid] == []
    assert later.done()
    assert not folder.exists()
    with pytest.raises(Exception, match="closed"):
        solves.solve("beginner", labels("2 3 6 4 6 2 3 5 5 4 2 1"))


ORPHAN = """
import sys, time
from caterpillar_learn.advice.workers import Solves

if __name__ == "__main__":
    solves = Solves(workers=1)
    print(solves.solve("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1)).result(300).pid, flush=True)
    # time itself: a server that lives on until the test kills it (it waits on nothing)
    time.sleep(600)
"""


def test_a_killed_server_leaves_no_worker_behind(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = tmp_path / "server.py"
    script.write_text(ORPHAN)
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        worker = psutil.Process(int(server.stdout.readline()))
        assert worker.is_running()
    finally:
        server.kill()  # SIGKILL: the pool is never closed
        server.wait()
    worker.wait(timeout=30)  # raises if the worker is still there
    assert not psutil.pid_exists(worker.pid)


def test_the_lobby_hands_its_helper_to_every_room_made_before_and_after(pool: Solves) -> None:
    from caterpillar_learn.classroom.lobby import Lobby
    from caterpillar_learn.classroom.rooms.lesson.room import LessonSettings
    from caterpillar_learn.classroom.store import EventStore

    lobby = Lobby(EventStore(":memory:"))
    before = lobby.create(RoomSettings.build("beginner", dice="typed"))
    assert before.helper is bridge.HERE  # a room works here until the server gives its workers
    helper = bridge.PooledHelper(pool)
    lobby.work_in(helper)
    after = lobby.create(LessonSettings.build("01-beginner"))
    assert before.helper is helper and after.helper is helper
    assert after.shared.inner is helper  # a lesson room's shared moves come from the workers too


# -- over the real server ---------------------------------------------------------------------


@pytest.mark.slow
def test_over_the_websocket_a_pupil_sees_thinking_then_the_hint(tmp_path: Path) -> None:
    from tests.browser.conftest import cli_command, free_port, start_server
    from tests.classroom.probe import PageClient

    port = free_port()
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(tmp_path / "data")]
    running = start_server(cmd, f"http://127.0.0.1:{port}/join", tmp_path / "server.log")
    try:
        server = psutil.Process(running.process.pid)
        token = re.search(r"token=(\S+)", running.log.read_text())
        assert token, running.log_tail()
        base = f"http://127.0.0.1:{port}"
        teacher = PageClient(f"{base}/teacher", {"token": token.group(1)})
        teacher.send(
            "TeacherWidget", "create", game="caterpillars", level="beginner", layout="typed", labels=OTHER, dice="typed"
        )
        assert teacher.wait(lambda: teacher.trait("TeacherWidget", "room").get("code"))
        code = teacher.trait("TeacherWidget", "room")["code"]
        page = PageClient(f"{base}/join", {"room": code})
        page.send("JoinWidget", "join", code=code, nickname="Ada")
        assert page.wait(lambda: page.model("ClassroomBoard") is not None)
        teacher.send("TeacherWidget", "roll", dice="3 5")
        assert page.wait(lambda: page.trait("ClassroomBoard", "legal"))
        statuses: list[str] = []
        page.watch("ClassroomBoard", "hint", lambda new: statuses.append(str(new.get("status"))))
        page.send("ClassroomBoard", "hint")
        ready = page.wait(lambda: "ready" in statuses, timeout=SAFETY)
        assert ready, (statuses, running.log_tail())
        assert statuses[0] == "thinking" and statuses[-1] == "ready"
        assert page.trait("ClassroomBoard", "hint")["options"]
        workers = [child for child in server.children(recursive=True) if "python" in child.name().lower()]
        assert workers, "the hint was worked out in a worker process of the server"
        page.close()
        teacher.close()
    finally:
        running.stop()
    waiting.until(lambda: not [w for w in workers if _running(w)], 30, "workers left running after the server stopped")


def _running(process: psutil.Process) -> bool:
    """Still running, and not a zombie waiting for its parent."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
