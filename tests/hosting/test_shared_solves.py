"""The kernels of a class share their exact solves through a cache folder.

* a layout in the folder is read, not solved (in this process after its memory
  is cleared, and in another process), with values bit for bit those of a solve;
* a file that is truncated, altered, another layout's, another code's, or a
  pickle is ignored (never unpickled) and the layout is solved again;
* processes asking for one layout at once solve it once; writers racing on one
  file leave a whole file;
* an Expert lesson's kernel stays small after several "New game"s.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import pytest

from caterpillar_learn.advice import disk_cache, solver
from caterpillar_learn.caterpillars.levels import Level

#: Layouts as the folder names them: each caterpillar's labels in order (one file serves every order of its boxes).
LAYOUT = (1, 3, 4, 6, 2, 3, 5, 6, 1, 2, 4, 5)
OTHER = (1, 1, 4, 6, 2, 2, 2, 5, 1, 2, 5, 6)
#: LAYOUT with each caterpillar's boxes in another order: the same game.
REORDERED = (6, 4, 3, 1, 5, 2, 6, 3, 4, 5, 1, 2)
#: An Expert kernel's resident memory after several new games (the issue's budget).
KERNEL_BUDGET_MB = 150

# Run by a fresh interpreter: solve one layout and say how many times it really solved.
SOLVE_ONCE = """
import hashlib, json, sys
from caterpillar_learn.advice import solver
real, calls = solver._solve, []
def counted(*args, **kwargs):
    calls.append(args[1])
    return real(*args, **kwargs)
solver._solve = counted
solution = solver.solve_layout(sys.argv[1], [int(v) for v in sys.argv[2].split()])
print(json.dumps({"solves": len(calls), "digest": hashlib.sha256(solution.values.tobytes()).hexdigest()}))
"""


def digest(values: Any) -> str:
    return hashlib.sha256(np.asarray(values).tobytes()).hexdigest()


@pytest.fixture(scope="module")
def reference() -> dict[tuple[int, ...], str]:
    """Digests of the values solved with no cache folder at all."""
    os.environ.pop(disk_cache.ENV, None)
    solver.clear_cache()
    found = {labels: digest(solver.solve_layout("beginner", labels).values) for labels in (LAYOUT, OTHER)}
    solver.clear_cache()
    return found


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder named in the environment, an empty memory cache, and a count of real solves."""
    monkeypatch.setenv(disk_cache.ENV, str(tmp_path))
    solver.clear_cache()
    yield tmp_path
    solver.clear_cache()


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    calls: list[tuple[int, ...]] = []
    real = solver._solve

    def counted(level: Level, labels: tuple[int, ...], progress: bool) -> Any:
        calls.append(labels)
        return real(level, labels, progress)

    monkeypatch.setattr(solver, "_solve", counted)
    return calls


def solve_in_process(folder: Path, labels: tuple[int, ...]) -> subprocess.Popen[str]:
    env = {**os.environ, disk_cache.ENV: str(folder)}
    argv = [sys.executable, "-c", SOLVE_ONCE, "beginner", " ".join(map(str, labels))]
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True)


def test_a_stored_layout_is_read_not_solved(folder: Path, solves: list, reference: dict) -> None:
    first = solver.solve_layout("beginner", LAYOUT)
    assert solves == [LAYOUT]
    assert (folder / disk_cache.file_name(Level.BEGINNER, LAYOUT)).is_file()
    assert isinstance(first.values, np.memmap), "the process keeps the shared file's copy, not its own"
    solver.clear_cache()
    again = solver.solve_layout("beginner", LAYOUT)
    assert solves == [LAYOUT], "read from the folder, not solved again"
    assert digest(again.values) == digest(first.values) == reference[LAYOUT]
    for name in ("offset", "height", "width", "base"):
        assert np.array_equal(getattr(again, name), getattr(first, name))
    assert again.start_value == first.start_value
    solver.clear_cache()
    moved = solver.solve_layout("beginner", REORDERED)
    assert solves == [LAYOUT], "another order of the boxes reads the same file"
    assert moved.labels == REORDERED and moved.start_value == first.start_value
    stored = sorted(p.name for p in folder.glob(f"*{disk_cache.SUFFIX}"))
    assert stored == [disk_cache.file_name(Level.BEGINNER, LAYOUT)]


def test_another_process_reads_the_layout_without_solving(folder: Path, reference: dict) -> None:
    solver.solve_layout("beginner", LAYOUT)
    process = solve_in_process(folder, LAYOUT)
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    assert json.loads(out) == {"solves": 0, "digest": reference[LAYOUT]}


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(path.stat().st_size))


def _flip_a_value(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-1000] ^= 0x10
    path.write_bytes(bytes(data))


def _other_layout(path: Path) -> None:
    other = disk_cache.write(path.parent, Level.BEGINNER, OTHER, solver._solve(Level.BEGINNER, OTHER, False).values)
    other.replace(path)


def _other_code(path: Path) -> None:
    data = path.read_bytes()
    code = disk_cache.code_fingerprint().encode()
    path.write_bytes(data.replace(code, b"0" * len(code), 1))


class _Marker:
    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        return (Path.write_text, (self.path, "unpickled"))


def _pickle(path: Path) -> None:
    path.write_bytes(pickle.dumps(_Marker(path.with_name("unpickled"))))


@pytest.mark.parametrize(
    "spoil", [_truncate, _garbage, _flip_a_value, _other_layout, _other_code, _pickle], ids=lambda f: f.__name__[1:]
)
def test_a_spoilt_file_is_ignored_and_solved_again(
    folder: Path, solves: list, reference: dict, spoil: Callable[[Path], None]
) -> None:
    path = disk_cache.write(folder, Level.BEGINNER, LAYOUT, solver._solve(Level.BEGINNER, LAYOUT, False).values)
    spoil(path)
    solves.clear()  # the solves above only made the file
    solution = solver.solve_layout("beginner", LAYOUT)
    assert solves == [LAYOUT], "solved again"
    assert digest(solution.values) == reference[LAYOUT]
    assert not (folder / "unpickled").exists(), "the file was unpickled"
    size = solution.values.size
    assert disk_cache.read(folder, Level.BEGINNER, LAYOUT, size) is not None, "the spoilt file was replaced"


def test_processes_asking_at_once_solve_the_layout_once(folder: Path, reference: dict) -> None:
    processes = [solve_in_process(folder, LAYOUT) for _ in range(3)]
    results = []
    for process in processes:
        out, _ = process.communicate(timeout=180)
        assert process.returncode == 0
        results.append(json.loads(out))
    assert sum(r["solves"] for r in results) == 1, results
    assert {r["digest"] for r in results} == {reference[LAYOUT]}


def test_racing_writers_leave_a_whole_file(tmp_path: Path) -> None:
    versions = [np.full(50_000, float(n)) for n in range(4)]
    seen: list[float] = []
    failures: list[BaseException] = []

    def writer(values: np.ndarray) -> None:
        try:
            for _ in range(15):
                disk_cache.write(tmp_path, Level.BEGINNER, LAYOUT, values)
        except BaseException as error:  # reported below: a thread must not fail silently
            failures.append(error)

    def read_once() -> None:
        values = disk_cache.read(tmp_path, Level.BEGINNER, LAYOUT, 50_000)
        if values is not None:
            assert values.min() == values.max(), "a file mixing two writes"
            seen.append(float(values[0]))

    def reader(writers: list[threading.Thread]) -> None:
        # reads for as long as any writer writes, however the machine schedules them
        try:
            while any(writer.is_alive() for writer in writers):
                read_once()
        except BaseException as error:  # reported below: a thread must not fail silently
            failures.append(error)

    writers = [threading.Thread(target=writer, args=(v,)) for v in versions]
    reading = threading.Thread(target=reader, args=(writers,))
    for thread in writers:
        thread.start()
    reading.start()
    for thread in [*writers, reading]:
        thread.join()
    read_once()  # after the last write, a whole file is there to read
    assert not failures
    final = disk_cache.read(tmp_path, Level.BEGINNER, LAYOUT, 50_000)
    assert final is not None and float(final[0]) in {0.0, 1.0, 2.0, 3.0}
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == [
        disk_cache.file_name(Level.BEGINNER, LAYOUT)
    ], "no temporary file left behind"


@pytest.mark.slow
def test_an_expert_kernel_stays_small_after_several_new_games(tmp_path: Path) -> None:
    from jupyter_client.manager import start_new_kernel

    from caterpillar_learn.ui.hosting.serve import KERNEL_NAME, pinned_kernel

    env = {**os.environ, disk_cache.ENV: str(tmp_path)}
    with pinned_kernel():
        manager, client = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=120, env=env)
    try:
        process = psutil.Process(manager.provisioner.process.pid)  # type: ignore[union-attr]

        def run(code: str) -> None:
            reply = client.execute_interactive(code, timeout=600, output_hook=lambda msg: None)
            assert reply["content"]["status"] == "ok", reply["content"]

        run(
            # a free Expert game: a lesson's roll may ask a question before it gives a hint
            "from caterpillar_learn.ui.caterpillars import CaterpillarsBoard\n"
            "from caterpillar_learn.ui.caterpillars.advice import join_background_solves\n"
            "lesson = CaterpillarsBoard('expert', seed=4)\n"
            "display(lesson)\n"
            "join_background_solves()\n"
        )
        resident = []
        for _ in range(4):
            run(
                "lesson.act('new_game'); join_background_solves(); lesson.act('roll'); lesson.act('hint')\n"
                "assert lesson.hint['status'] == 'ready', lesson.hint\n"
            )
            resident.append(process.memory_info().rss / 1e6)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert len(list(tmp_path.glob(f"*{disk_cache.SUFFIX}"))) == 5, "each game's layout went to the folder"
    assert max(resident) <= KERNEL_BUDGET_MB, [round(r) for r in resident]
