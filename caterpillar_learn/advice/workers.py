"""Exact solves, and the hints read from them, in worker processes: a server's event loop never solves.

At Intermediate a layout's exact solve takes seconds of NumPy, and a hint
read from it another 0.1–0.4 s (the chances behind its reasons).  In a
server process that is seconds during which no page is answered: a thread
does not help, because the solve holds the interpreter lock for much of
its time.  :class:`Solves` runs that work in a
:class:`~concurrent.futures.ProcessPoolExecutor` of at most the cores less
one (:func:`default_workers`):

* :meth:`Solves.solve` solves a layout **once** for everyone who asks: a
  dict of layout → :class:`~concurrent.futures.Future`, so thirty pupils
  on one layout start one solve (and layouts that differ only in the order
  of a caterpillar's boxes are one layout here:
  :func:`~caterpillar_learn.advice.tables.solved_as`);
* :meth:`Solves.run` runs a small job (a hint's view, the loss of a move, a
  "what if") in a worker once its layout is solved, and hands back a
  future of its (small, JSON-shaped) result.

The solved tables never travel through a pipe.  A worker keeps a layout it
has just solved in its memory (the jobs waiting for it run there at once)
and writes it to a cache folder (:mod:`caterpillar_learn.advice.disk_cache`,
named in the workers' environment) on a thread of its own, holding the
layout's lock until the file is there; every later job on the layout, in
any worker, maps that file:
an Intermediate table pickles to 84 MB (0.08 s to pickle, 0.09 s to
unpickle, plus the copy through the pipe and 84 MB of the server's memory
per layout), a job's answer to a few kilobytes.  The server keeps no table
at all.

The pool is fed by one dispatcher thread that never gives it more than one
task per worker, so the order is this module's, not the pool's queue's:
jobs somebody waits for whose layout is solved go first (a hint, a "what
if"), then the solves of layouts somebody has asked about, then the other
jobs (what a move cost, which follows the move), then solves started ahead
of any question (when a layout becomes known).  The workers run at a lower priority
(:data:`NICE`) so that the server's event loop wins a contended core.
:meth:`Solves.close` stops the dispatcher, cancels what has not started,
waits for the tasks running (at most one per worker) and stops the
workers; a folder the :class:`Solves` made itself goes with it.  A worker
whose server was killed (and so never closed the pool) ends by itself
within :data:`PARENT_CHECK` seconds.

Results come back on the pool's own thread; a caller hands them to its
event loop itself (the classroom: the pupil's page is redrawn through its
room's listeners, see :mod:`caterpillar_learn.classroom.rooms.caterpillars.pupil`).

>>> default_workers(2), default_workers(1), default_workers(8)
(1, 1, 7)
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import shutil
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from caterpillar_learn.advice import disk_cache
from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.levels import solved_level
from caterpillar_learn.advice.tables import solved_as
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import current_language, language

__all__ = ["NICE", "Solved", "Solves", "default_workers"]

log = logging.getLogger("caterpillar_learn.advice")

T = TypeVar("T")
Key = tuple[Level, tuple[int, ...]]

#: How much lower the workers' scheduling priority is than the server's (``nice``).
NICE = 5
#: How often a worker looks whether its server is still there (seconds).
PARENT_CHECK = 1.0


def default_workers(cores: int | None = None) -> int:
    """The cores less one, at least one: the server's event loop keeps a core."""
    found = os.cpu_count() if cores is None else cores
    return max(1, (found or 1) - 1)


@dataclass(frozen=True)
class Solved:
    """What a worker says about one layout: which process, whether it really solved it, and how long."""

    pid: int
    solved: bool  # False: the folder held it already (another process solved it)
    seconds: float


# -- what runs in a worker ------------------------------------------------------------


def _start_worker(folder: str) -> None:
    os.environ[disk_cache.ENV] = folder
    with contextlib.suppress(OSError, AttributeError):  # not allowed, or not on this system: same priority
        os.nice(NICE)
    watch = threading.Thread(target=_end_with, args=(os.getppid(),), name="caterpillars-parent", daemon=True)
    watch.start()


def _end_with(parent: int) -> None:
    """End this worker once its server has gone (killed, so it never closed the pool): no orphan is left."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


def _solve_in_worker(level: str, labels: tuple[int, ...]) -> Solved:
    """Solve in memory and answer at once; the tables are written to the folder behind, on a thread of their own.

    The layout's lock is held from before the solve until the file is
    written, so another process asking meanwhile waits for the file instead
    of solving again (and the parent counts a locked layout as stored).
    """
    from caterpillar_learn.advice import solver

    folder = disk_cache.cache_folder()
    assert folder is not None, "a worker's folder is set by its initializer"
    started = time.perf_counter()
    key = Level(level), labels
    if (folder / disk_cache.file_name(*key)).exists():
        solver.solve_layout(level, labels)
        return Solved(os.getpid(), False, time.perf_counter() - started)
    lock = contextlib.ExitStack()
    lock.enter_context(disk_cache.solving(folder, *key))
    try:
        if (folder / disk_cache.file_name(*key)).exists():  # another process wrote it while this one waited
            solver.solve_layout(level, labels)
            lock.close()
            return Solved(os.getpid(), False, time.perf_counter() - started)
        solution = solver.solve_here(level, labels)
    except BaseException:
        lock.close()
        raise
    behind = threading.Thread(target=_store_behind, args=(folder, solution, lock), name="caterpillars-store")
    behind.start()  # not a daemon: a worker that is stopped finishes the file first
    return Solved(os.getpid(), True, time.perf_counter() - started)


def _store_behind(folder: Path, solution: Any, lock: contextlib.ExitStack) -> None:
    from caterpillar_learn.advice import solver

    with lock:
        solver.store(folder, solution)


def _job_in_worker(lang: str, job: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    with language(lang):
        return job(*args)


# -- the parent's side ----------------------------------------------------------------


@dataclass(eq=False)
class _Layout:
    key: Key
    future: Future[Solved] = field(default_factory=Future)
    started: bool = False
    waiting: list[_Job] = field(default_factory=list)  # jobs held until the layout is solved


@dataclass(eq=False)
class _Job:
    lang: str
    job: Callable[..., Any]
    args: tuple[Any, ...]
    urgent: bool = True  # somebody waits for it now (a hint); False: it can follow the solves asked for
    future: Future[Any] = field(default_factory=Future)


class Solves:
    """The exact solves of one process's learners, in worker processes, one solve per layout.

    ``folder`` is where the workers leave the solved tables (by default a
    fresh temporary folder, removed by :meth:`close`); ``workers`` the size
    of the pool (by default :func:`default_workers`).  The pool starts at
    the first task.
    """

    def __init__(self, folder: Path | None = None, workers: int | None = None) -> None:
        count = default_workers() if workers is None else workers
        if not isinstance(count, int) or count < 1:
            raise AdviceError(describe("workers", count, "a whole number from 1"))
        self.workers = count
        self._own_folder = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="caterpillar-learn-solves-")) if folder is None else Path(folder)
        self._layouts: dict[Key, _Layout] = {}
        self._ready: deque[_Job] = deque()  # jobs whose layout is solved, somebody waiting for them
        self._later: deque[_Job] = deque()  # jobs whose layout is solved, after the solves asked for
        self._asked: deque[_Layout] = deque()  # layouts a job waits for
        self._ahead: deque[_Layout] = deque()  # layouts solved ahead of any question
        self._busy = 0
        self._closed = False
        self._changed = threading.Condition()
        self._pool: ProcessPoolExecutor | None = None
        self._dispatcher: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"Solves({str(self.folder)!r}, workers={self.workers})"

    # -- asking ----------------------------------------------------------------------
    def solve(self, level: Level | str, labels: Sequence[int], *, asked: bool = False) -> Future[Solved]:
        """The future of ``level``'s layout ``labels`` solved into the folder: one per layout, shared.

        ``level`` is mapped to the level whose solve its hints read (Advanced
        and Expert read Intermediate's).  ``asked``: somebody waits for it
        (it goes before solves started ahead of any question).
        """
        with self._changed:
            layout = self._layout(_key(level, labels))
            if asked and not layout.started and layout not in self._asked:
                self._asked.append(layout)
                self._changed.notify()
            return layout.future

    def run(
        self, level: Level | str, labels: Sequence[int], job: Callable[..., T], *args: Any, urgent: bool = True
    ) -> Future[T]:
        """``job(*args)`` in a worker, in the current language, once the layout is solved.

        ``job`` must be a module-level function (it is sent by name) and its
        arguments and result small and picklable.  A failed solve does not
        stop the job: it then solves in its worker by itself, or fails there.
        ``urgent=False`` (what a move cost, shown after the move): the job
        waits behind the solves that somebody has asked for, so that a
        class's hints are not held up by the follow-ups of the first ones.
        """
        task = _Job(current_language(), job, args, urgent)
        with self._changed:
            if self._closed:
                raise AdviceError(describe("solves", "closed", "an open pool of workers"))
            layout = self._layout(_key(level, labels))
            if layout.future.done():
                self._queue(task)
            else:
                layout.waiting.append(task)
                if not layout.started and layout not in self._asked:
                    self._asked.append(layout)
            self._changed.notify()
        return task.future

    def _layout(self, key: Key) -> _Layout:
        """The layout's entry (under the lock): a new solve unless one is running or its file is still there."""
        layout = self._layouts.get(key)
        if layout is not None and (not layout.future.done() or self._still_stored(layout)):
            return layout
        if self._closed:
            raise AdviceError(describe("solves", "closed", "an open pool of workers"))
        layout = self._layouts[key] = _Layout(key)
        self._ahead.append(layout)
        self._changed.notify()
        self._start()
        return layout

    def _queue(self, job: _Job) -> None:
        (self._ready if job.urgent else self._later).append(job)

    def _still_stored(self, layout: _Layout) -> bool:
        if layout.future.cancelled() or layout.future.exception() is not None:
            return False
        level, labels = layout.key
        # A worker writes the file just after answering (and holds the layout's lock until it has).
        return (self.folder / disk_cache.file_name(level, labels)).exists() or disk_cache.is_locked(
            self.folder, level, labels
        )

    def solving(self) -> list[tuple[Level, tuple[int, ...]]]:
        """The layouts not solved yet, in the order they were asked for first."""
        with self._changed:
            return [key for key, layout in self._layouts.items() if not layout.future.done()]

    # -- the dispatcher ------------------------------------------------------------------
    def _start(self) -> None:
        if self._dispatcher is None:
            self._dispatcher = threading.Thread(target=self._dispatch, name="caterpillars-solves", daemon=True)
            self._dispatcher.start()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # never fork a server's threads and locks
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker, initargs=(str(self.folder),)
            )
        return self._pool

    def _next(self) -> _Job | _Layout | None:
        """The next task (under the lock): jobs waited for, asked-for solves, other jobs, then other solves."""
        job = self._first_job(self._ready)
        if job is not None:
            return job
        layout = self._first_solve(self._asked)
        if layout is not None:
            return layout
        return self._first_job(self._later) or self._first_solve(self._ahead)

    @staticmethod
    def _first_job(queue: deque[_Job]) -> _Job | None:
        while queue:
            job = queue.popleft()
            if not job.future.cancelled():  # its asker has moved on
                return job
        return None

    def _first_solve(self, queue: deque[_Layout]) -> _Layout | None:
        while queue:
            layout = queue.popleft()
            if not layout.started and self._layouts.get(layout.key) is layout:
                layout.started = True
                return layout
        return None

    def _dispatch(self) -> None:
        while True:
            with self._changed:
                task = None
                while not self._closed:
                    if self._busy < self.workers:
                        task = self._next()
                        if task is not None:
                            break
                    self._changed.wait()
                if self._closed:
                    return
                self._busy += 1
            try:
                if isinstance(task, _Layout):
                    level, labels = task.key
                    running = self._executor().submit(_solve_in_worker, level.value, labels)
                    running.add_done_callback(partial(self._solved, task))
                else:
                    assert task is not None
                    running = self._executor().submit(_job_in_worker, task.lang, task.job, task.args)
                    running.add_done_callback(partial(self._done, task))
            except Exception as error:  # a broken pool: this task fails, the next one gets a new pool
                log.exception("could not hand a task to the workers")
                with self._changed:
                    self._busy -= 1
                    broken, self._pool = self._pool, None
                if broken is not None:
                    broken.shutdown(wait=False, cancel_futures=True)
                self._fail(task, error)

    def _fail(self, task: _Job | _Layout | None, error: BaseException) -> None:
        if isinstance(task, _Layout):
            self._settle(task, None, error)
        elif task is not None:
            _copy(task.future, None, error)

    def _solved(self, layout: _Layout, done: Future[Solved]) -> None:
        error = done.exception() if not done.cancelled() else AdviceError("the solve was cancelled")
        self._settle(layout, None if error is not None else done.result(), error, finished=True)

    def _settle(
        self, layout: _Layout, found: Solved | None, error: BaseException | None, finished: bool = False
    ) -> None:
        with self._changed:
            if finished:
                self._busy -= 1
            waiting, layout.waiting = layout.waiting, []
            if error is not None:
                log.error("solving the %s layout %s failed: %s", layout.key[0].value, layout.key[1], error)
            for job in waiting:  # after a failed solve too: each job then solves (or fails) in its worker
                self._queue(job)
            self._changed.notify_all()
        _copy(layout.future, found, error)

    def _done(self, job: _Job, done: Future[Any]) -> None:
        with self._changed:
            self._busy -= 1
            self._changed.notify_all()
        if done.cancelled():
            _copy(job.future, None, AdviceError("the job was cancelled"))
        else:
            _copy(job.future, done.result() if done.exception() is None else None, done.exception())

    # -- stopping ----------------------------------------------------------------------
    def close(self) -> None:
        """Cancel what has not started, wait for the running tasks, stop the workers (and remove an own folder)."""
        with self._changed:
            if self._closed:
                return
            self._closed = True
            left = [layout.future for layout in self._layouts.values() if not layout.started]
            left += [job.future for layout in self._layouts.values() for job in layout.waiting]
            left += [job.future for job in (*self._ready, *self._later)]
            self._ready.clear()
            self._later.clear()
            self._changed.notify_all()
        if self._dispatcher is not None:
            self._dispatcher.join()
        for future in left:
            future.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        if self._own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Solves:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _key(level: Level | str, labels: Sequence[int]) -> Key:
    if any(not isinstance(v, int) or not 1 <= v <= 12 for v in labels) or len(labels) != 12:
        raise AdviceError(describe("labels", list(labels), "12 labels from 1 to 12 (finish the setup first)"))
    # One solve serves every order of a caterpillar's boxes: thirty pupils who wrote the same setup dice
    # into their caterpillars in different orders share it.
    return solved_level(Level.parse(level)), solved_as(labels)


def _copy(future: Future[Any], value: Any, error: BaseException | None) -> None:
    if future.done():  # cancelled by its asker meanwhile
        return
    with contextlib.suppress(Exception):  # cancelled (or set) between the check and here
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)
