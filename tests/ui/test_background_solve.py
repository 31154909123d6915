"""The first hint's solve, started in a background thread as soon as the layout is known.

Nothing here depends on timing for its verdict: each test holds the
background solve at a gate (an :class:`threading.Event`) or waits on its
future explicitly.  The solver is watched through its public entry point,
``solve_layout``: a layout solved twice shows up as two different
:class:`~caterpillar_learn.advice.Solution` objects for one key.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import caterpillar_learn.advice as advice
from caterpillar_learn.advice import disk_cache, estimate, solver, values
from caterpillar_learn.advice.levels import solved_level
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.i18n import text
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard, CaterpillarsLesson
from caterpillar_learn.ui.caterpillars import advice as advice_bridge

#: Long enough never to fire in a passing test, short enough to end a failing one.
SAFETY = 30.0


@dataclass
class Watch:
    """Every ``solve_layout`` call: who asked, for which layout, which solution came back."""

    gate: threading.Event = field(default_factory=threading.Event)
    calls: list[tuple[str, tuple[Any, ...], int]] = field(default_factory=list)
    entered: threading.Event = field(default_factory=threading.Event)
    pause: float = 0.0

    def solutions(self, key: tuple[Any, ...]) -> set[int]:
        return {ident for _, k, ident in self.calls if k == key}


@pytest.fixture(autouse=True)
def no_solve_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every solve here is a real one: no file of the session's solve cache (tests/ui/conftest.py) stands in."""
    monkeypatch.delenv(disk_cache.ENV, raising=False)


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Iterator[Watch]:
    """Wrap ``solve_layout`` wherever the advice package calls it; background calls wait at ``gate``."""
    # A background solve an earlier test in this process started (a doctest's board, say) is not this test's:
    # it ends before the watch begins, or it would be counted as one of ours.
    left = advice_bridge.join_background_solves(SAFETY)
    assert not left, f"background solves of an earlier test still running: {left}"
    real = solver.solve_layout
    seen = Watch()
    seen.gate.set()

    def watched(level: Any, labels: Any, **kwargs: Any) -> Any:
        who = threading.current_thread().name
        if who.startswith("caterpillars-solve"):
            seen.entered.set()
            assert seen.gate.wait(SAFETY), "the test never opened the gate"
        if seen.pause:
            time.sleep(seen.pause)  # time itself: widens the window in which two unlocked solves would overlap
        solution = real(level, labels, **kwargs)
        seen.calls.append((who, (Level.parse(level), tuple(labels)), id(solution)))
        return solution

    for module in (advice, values, estimate):
        monkeypatch.setattr(module, "solve_layout", watched)
    solver.clear_cache()
    try:
        yield seen
    finally:
        seen.gate.set()  # never leave a background thread stuck behind a failed test
        advice_bridge.join_background_solves(SAFETY)
        solver.clear_cache()


def key_of(board: CaterpillarsBoard) -> tuple[Level, tuple[int, ...]]:
    state = board.session.game.state
    return solved_level(state.level), tuple(v for v in state.labels if v is not None)


def direct_hint(board: CaterpillarsBoard) -> list[tuple[str, float]]:
    """The hint's options as the advice package gives them, read straight from the engine's state."""
    found = advice.hint(board.session.game.state, board.session.game.roll())
    return [(str(o.move), round(float(o.expected_final), 2)) for o in found.options]


def shown_hint(board: CaterpillarsBoard) -> list[tuple[str, float]]:
    found = advice.hint(board.session.game.state, board.session.game.roll())
    by_text = {o.move.describe(): str(o.move) for o in found.options}
    return [(by_text[o["text"]], o["value"]) for o in board.hint["options"]]


def test_the_layout_is_solved_in_the_background_before_the_first_hint(watch: Watch) -> None:
    lesson = CaterpillarsBoard("expert", seed=4)  # a free game: a lesson's roll may ask a question first
    warmup = lesson.session.warmup
    assert warmup is not None and solved_level(warmup.level) is Level.INTERMEDIATE
    assert warmup.is_for(lesson.session.game.state)
    assert warmup.wait() is True
    assert [who.startswith("caterpillars-solve") for who, _, _ in watch.calls] == [True]
    lesson.act("roll")
    lesson.act("hint")
    assert lesson.hint["status"] == "ready"
    assert len(watch.calls) > 1  # the estimate asked for the layout again...
    assert len(watch.solutions(key_of(lesson))) == 1  # ...and got the background thread's solution
    assert shown_hint(lesson) == direct_hint(lesson)


def test_a_hint_asked_during_the_solve_waits_for_it_showing_thinking(watch: Watch) -> None:
    watch.gate.clear()
    board = CaterpillarsBoard("beginner", seed=5)
    assert watch.entered.wait(SAFETY)  # the background solve has begun and holds the advice lock
    board.act("roll")
    shown: list[dict[str, Any]] = []
    board.observe(lambda change: shown.append(dict(change["new"])), names="hint")
    opener = threading.Timer(0.3, watch.gate.set)
    opener.start()
    try:
        board.act("hint")
    finally:
        opener.cancel()
        watch.gate.set()
    assert watch.gate.is_set()
    assert [entry.get("status") for entry in shown] == ["thinking", "ready"]
    assert shown[0]["title"] == text("lessons.ui.thinking")
    assert board.session.warmup is not None and board.session.warmup.future.done()
    # One solve for the layout, from the background thread; the hint read it rather than solving again.
    assert len(watch.solutions(key_of(board))) == 1
    assert watch.calls[0][0].startswith("caterpillars-solve")
    assert shown_hint(board) == direct_hint(board)


def test_two_threads_asking_for_one_layout_solve_it_once(watch: Watch) -> None:
    watch.pause = 0.2
    board = CaterpillarsBoard("beginner", seed=7)
    state = board.session.game.state
    again = advice_bridge.prepare("beginner", state.labels)
    assert again is not None and board.session.warmup is not None
    board.act("roll")
    board.act("hint")  # a third asker, on the kernel's thread
    assert again.wait() and board.session.warmup.wait()
    assert board.hint["status"] == "ready"
    key = key_of(board)
    assert len([c for c in watch.calls if c[1] == key]) >= 2
    assert len(watch.solutions(key)) == 1


def test_clicks_do_not_wait_for_the_background_solve(watch: Watch) -> None:
    watch.gate.clear()
    board = CaterpillarsBoard("beginner", seed=3)
    assert watch.entered.wait(SAFETY)
    opener = threading.Timer(SAFETY, watch.gate.set)  # only if a click wrongly waits for the lock
    opener.start()
    try:
        for _ in range(3):
            board.act("roll")
            first = board.legal[0]
            board.act("box", caterpillar=first["caterpillar"], box=first["box"])
            if board.menu:
                board.act("option", index=first["index"])
        assert board.session.game.state.filled == 3 and board.message == ""
        assert not watch.gate.is_set()  # three rounds played while the solve was still held
        assert board.session.warmup is not None and not board.session.warmup.future.done()
    finally:
        opener.cancel()
        watch.gate.set()
    assert board.session.warmup.wait()


def test_a_new_game_drops_a_waiting_solve_and_never_reads_a_stale_one(watch: Watch) -> None:
    watch.gate.clear()
    board = CaterpillarsBoard("beginner", seed=1)
    first = board.session.warmup
    assert first is not None and watch.entered.wait(SAFETY)  # running: it cannot be dropped
    board.act("new_game")
    second = board.session.warmup
    board.act("new_game")
    third = board.session.warmup
    assert first is not None and second is not None and third is not None
    assert len({first.labels, second.labels, third.labels}) == 3  # seeds 1, 2, 3 set different labels
    assert second.future.cancelled()  # it never started, and never will
    state = board.session.game.state
    assert third.is_for(state) and not first.is_for(state) and not second.is_for(state)
    board.act("roll")
    opener = threading.Timer(0.2, watch.gate.set)
    opener.start()
    try:
        board.act("hint")  # waits for the stale solve, which holds the lock, then for its own
    finally:
        opener.cancel()
        watch.gate.set()
    assert first.future.result(SAFETY) is True and third.future.result(SAFETY) is True
    assert board.hint["status"] == "ready"
    assert shown_hint(board) == direct_hint(board)
    solved = [key[1] for _, key, _ in watch.calls]
    assert second.labels not in solved
    assert solved.count(first.labels) == 1 and len(watch.solutions(key_of(board))) == 1


def test_the_setup_lesson_starts_the_solve_only_when_the_last_label_is_placed(watch: Watch) -> None:
    board = CaterpillarsLesson("00-setup")
    assert board.session.warmup is None
    while board.session.game.phase == "setup":
        board.act("roll")
        blanks = board.session.game.state.blank_label_slots()
        for entry in [m for m in board.legal if m.get("setup")][: min(3, len(blanks))]:
            assert board.session.warmup is None
            board.act("box", caterpillar=entry["caterpillar"], box=entry["box"])
    warmup = board.session.warmup
    assert warmup is not None and warmup.is_for(board.session.game.state)
    assert warmup.wait() is True


def test_a_failing_solve_ends_its_thread_and_the_hint_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("half-written")

    monkeypatch.setattr(advice, "solve_layout", boom)
    monkeypatch.setattr(advice, "hint", boom)
    with caplog.at_level(logging.ERROR, logger="caterpillar_learn.ui"):
        board = CaterpillarsBoard("advanced", seed=2)
        assert board.session.warmup is not None and board.session.warmup.wait() is False
        board.act("roll")
        board.act("hint")
    assert board.hint == {} and board.message == text("ui.internal")
    assert sum("half-written" in (record.exc_text or "") for record in caplog.records) == 2
