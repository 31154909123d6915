"""Exact solver for Beginner and Intermediate: expected final score under optimal play.

The value of a sheet depends only on, per caterpillar, *which labels are
still empty* (boxes with equal labels in one caterpillar are interchangeable,
so this is a sub-multiset of its four labels) and its total.  Moreover the
median moves with the totals: adding ``d`` to all three totals adds ``d`` to
every final score, so

    value(empties, t0, t1, t2) = t0 + W[empties](t1 - t0, t2 - t0)

and only the two differences need a table.  A caterpillar with ``k`` filled
boxes has a total from 0 to ``k * max_score``, which bounds both differences.
Layers are solved from the full sheet (``W`` = median of ``0, d1, d2``)
backwards, with array operations over many sets of empty boxes at once: a
layer's options (fill one box with the best score a roll offers for its label,
or a forced zero) are listed for all its sets together, and the sets sharing a
table shape are solved in batches of one strided gather (each option reads a
window of its successor's table), one elementwise maximum per rank of option
and one sum per set.  While solving, every table's rows are padded to the
widest table's length so that all windows have the same strides.  The solution
keeps the tables unpadded in one flat ``float64`` array (10.4 million numbers,
83 MB, at Intermediate for a layout with twelve different labels) for hints.

>>> solution = solve_layout("beginner", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
>>> round(solution.start_value, 4)
14.2734
>>> from caterpillar_learn.caterpillars import State
>>> state = State.new("beginner", solution.labels)
>>> solution.value(state) == solution.start_value
True
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import caterpillar_learn.advice.disk_cache as disk_cache
from caterpillar_learn.advice.errors import AdviceError
from caterpillar_learn.advice.tables import (
    Floats,
    Ints,
    Part,
    Solution,
    exact_level,
    max_box_score,
    roll_table,
    solved_as,
)
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.sheet import BOXES, SLOTS
from caterpillar_learn.errors import describe

#: Solved layouts kept in memory (an Intermediate table is about 83 MB, shared when it comes from a cache folder).
CACHE_SIZE = 4

log = logging.getLogger("caterpillar_learn.advice")


# -- solving ----------------------------------------------------------------------

BestScores = tuple[tuple[int, int], ...]  # (label, best score) pairs a roll offers among present labels


@cache
def _best_scores(level: Level) -> tuple[tuple[BestScores, float], ...]:
    # More points in a caterpillar never lower the value (the median is
    # monotone), so per label only the roll's highest score is worth trying.
    table = roll_table(level)
    grouped: dict[BestScores, float] = {}
    for pairs, p in zip(table.pairs, table.probs):
        best: dict[int, int] = {}
        for score, label in pairs:
            best[label] = max(score, best.get(label, -1))
        key = tuple(sorted(best.items()))
        grouped[key] = grouped.get(key, 0.0) + p
    return tuple(grouped.items())


@cache
def _offers(level: Level, present: frozenset[int]) -> tuple[tuple[BestScores, float], ...]:
    grouped: dict[BestScores, float] = {}
    for best, p in _best_scores(level):
        key = tuple(pair for pair in best if pair[0] in present)
        grouped[key] = grouped.get(key, 0.0) + p
    return tuple(grouped.items())


@dataclass(frozen=True)
class _LayoutOffers:
    """A level's offers restricted to one layout's labels, as arrays over label positions.

    Row ``len(probs)`` of ``label`` and ``score`` is the forced zero: every label, score 0.
    """

    probs: Floats  # per offer
    code: Ints  # (offers, labels): (score + 1) * base ** position per offered label, else 0
    span: int  # base ** labels: more than any sum of codes
    label: Ints  # (offers + 1, pairs): label position per pair, padded with the number of labels
    score: Ints  # (offers + 1, pairs)


@cache
def _layout_offers(level: Level, distinct: tuple[int, ...]) -> _LayoutOffers:
    found = _offers(level, frozenset(distinct))
    where = {lab: i for i, lab in enumerate(distinct)}
    base = max_box_score(level) + 2
    pairs = max(len(distinct), *(len(offer) for offer, _ in found))
    code = np.zeros((len(found), len(distinct)), dtype=np.int64)
    label = np.full((len(found) + 1, pairs), len(distinct), dtype=np.int64)
    score = np.zeros((len(found) + 1, pairs), dtype=np.int64)
    for o, (offer, _) in enumerate(found):
        for j, (lab, s) in enumerate(offer):
            code[o, where[lab]] = (s + 1) * base ** where[lab]
            label[o, j], score[o, j] = where[lab], s
    label[len(found), : len(distinct)] = np.arange(len(distinct))
    return _LayoutOffers(np.array([p for _, p in found]), code, base ** len(distinct), label, score)


@dataclass(frozen=True)
class _Sheet:
    """One layout's sets of empty boxes as arrays; per-set arrays are indexed by combined id.

    While solving, every table's rows are ``row`` apart (the widest table's width), so that
    the window an option reads has the same strides whichever caterpillar it fills.
    """

    max_score: int
    offers: _LayoutOffers
    part_id: Ints  # (3, sets): each caterpillar's part index
    has: npt.NDArray[np.bool_]  # (3, part index, label position + 1): a box with the label is empty
    succ: Ints  # (3, part index, label position + 1): part index after filling one such box
    stride: Ints  # per caterpillar: step of the combined id per step of its part index
    height: Ints
    width: Ints
    base: Ints
    offset: Ints  # start of each table in the solution (rows ``width`` apart)
    padded: Ints  # start of each table while solving (rows ``row`` apart)
    row: int
    order: Ints  # combined ids by layer (filled boxes), then by table shape
    layer: Ints  # start of each layer in ``order``

    @classmethod
    def of(cls, level: Level, parts: tuple[Part, Part, Part]) -> _Sheet:
        mx = max_box_score(level)
        distinct = tuple(sorted({lab for part in parts for lab in part.labels}))
        where = {lab: i for i, lab in enumerate(distinct)}
        sizes = [len(part.remaining) for part in parts]
        has = np.zeros((3, max(sizes), len(distinct) + 1), dtype=np.bool_)
        succ = np.zeros((3, max(sizes), len(distinct) + 1), dtype=np.int64)
        filled = np.zeros((3, max(sizes)), dtype=np.int64)
        for c, part in enumerate(parts):
            filled[c, : sizes[c]] = part.filled
            for i, nxt in enumerate(part.succ):
                for lab, j in nxt.items():
                    has[c, i, where[lab]], succ[c, i, where[lab]] = True, j
        part_id = np.indices(sizes, dtype=np.int64).reshape(3, -1)
        k = filled[np.arange(3)[:, None], part_id]
        height, width = mx * (k[0] + k[1]) + 1, mx * (k[0] + k[2]) + 1
        row = 2 * BOXES * mx + 1
        # Sets of one layer with one table shape get adjacent tables: a batch of them is one slice.
        order = np.lexsort((k[1], k[0], k.sum(axis=0)))
        offset, padded = np.empty_like(order), np.empty_like(order)
        offset[order] = np.cumsum(height[order] * width[order]) - height[order] * width[order]
        padded[order] = np.cumsum(height[order] * row) - height[order] * row
        stride = np.array([sizes[1] * sizes[2], sizes[2], 1], dtype=np.int64)
        layer = np.searchsorted(k.sum(axis=0)[order], np.arange(SLOTS + 2))
        offers = _layout_offers(level, distinct)
        return cls(mx, offers, part_id, has, succ, stride, height, width, mx * k[0], offset, padded, row, order, layer)

    def runs(self, sets: Ints) -> list[tuple[int, int]]:
        """Ranges of ``sets`` (a slice of ``order``) with one table shape."""
        height, width = self.height[sets], self.width[sets]
        cuts = [0, *(np.flatnonzero((np.diff(height) != 0) | (np.diff(width) != 0)) + 1), len(sets)]
        return list(pairwise(int(cut) for cut in cuts))


@dataclass(frozen=True)
class _Options:
    """One layer's options, ordered by set, then by offer group (offers merged per set)."""

    start: Ints  # per option: where its window starts in the successor's table
    points: Floats  # per option: points added to Alex's total (the reference)
    group_option: Ints  # per group, plus one: its first option
    prob: Floats  # per group
    set_group: Ints  # per set of the layer, plus one: its first group


def _options(sheet: _Sheet, sets: Ints) -> _Options:
    mx, offers, row = sheet.max_score, sheet.offers, sheet.row
    part_id = sheet.part_id[:, sets]
    has = sheet.has[np.arange(3), part_id.T]  # (sets, 3, labels + 1)
    # Offers leaving a set the same (label, score) pairs are one group (probabilities added);
    # offers leaving none (key 0) force a zero in any empty box, the extra row of offers.label.
    # The key packs the set's position and its pairs into one int64: at most 924 sets per
    # layer times base ** 12 <= 14 ** 12 stays far below 2 ** 63.
    key = has[:, :, :-1].any(axis=1).astype(np.int64) @ offers.code.T
    key += np.arange(len(sets), dtype=np.int64)[:, None] * offers.span
    groups, first, inverse = np.unique(key.ravel(), return_index=True, return_inverse=True)
    prob = np.asarray(np.bincount(inverse, weights=np.tile(offers.probs, len(sets))), dtype=np.float64)
    group_set = groups // offers.span
    group_offer = np.where(groups % offers.span == 0, len(offers.probs), first % len(offers.probs))
    labels = offers.label[group_offer]
    fits = has[group_set[:, None, None], np.arange(3)[None, :, None], labels[:, None, :]]
    group, cat, pair = np.nonzero(fits)
    lab, score, at = labels[group, pair], offers.score[group_offer[group], pair], group_set[group]
    own = part_id[cat, at]
    succ_id = sets[at] + (sheet.succ[cat, own, lab] - own) * sheet.stride[cat]
    # Successor table coordinates (see the module docstring): filling Alex lowers both
    # differences by the score (and the successor's base is mx higher); Bobby's score
    # shifts rows, Charlie's shifts columns.
    shift = np.where(cat == 0, (mx - score) * (row + 1), np.where(cat == 1, score * row, score))
    counts = np.bincount(group, minlength=len(groups))
    return _Options(
        sheet.padded[succ_id] + shift,
        np.where(cat == 0, score, 0).astype(np.float64),
        np.concatenate(([0], np.cumsum(counts))),
        prob,
        np.searchsorted(group_set, np.arange(len(sets) + 1)),
    )


#: Gathered table cells per batch: small enough to stay in cache and be reused by the allocator.
_BATCH_CELLS = 1 << 18


class _Scratch:
    """A buffer reused from batch to batch: a fresh large array costs a page fault per 4 kB."""

    def __init__(self) -> None:
        self._buffer = np.empty(0)

    def take(self, size: int) -> Floats:
        if self._buffer.size < size:
            self._buffer = np.empty(size)
        return self._buffer[:size]


def _solve_layer(sheet: _Sheet, work: Floats, sets: Ints, scratch: _Scratch) -> None:
    """Tables of one layer's ``sets`` (ordered by shape) from the next layer's tables."""
    options = _options(sheet, sets)
    set_option = options.group_option[options.set_group]
    for a, b in sheet.runs(sets):
        rows, cols = int(sheet.height[sets[a]]), int(sheet.width[sets[a]])
        # Split the sets of one shape into batches that gather about _BATCH_CELLS cells.
        batch = (set_option[a:b] - set_option[a]) // max(1, _BATCH_CELLS // (rows * cols))
        cuts = [a, *(a + np.flatnonzero(np.diff(batch)) + 1), b]
        for lo, hi in pairwise(int(cut) for cut in cuts):
            at = int(sheet.padded[sets[lo]])
            out = work[at : at + (hi - lo) * rows * sheet.row].reshape(hi - lo, rows, sheet.row)[:, :, :cols]
            _solve_batch(work, options, set_option, (lo, hi), out, sheet.row, scratch)


def _solve_batch(
    work: Floats, options: _Options, set_option: Ints, sets: tuple[int, int], out: Floats, row: int, scratch: _Scratch
) -> None:
    """Tables of the layer's sets ``lo:hi`` (one shape) into ``out``."""
    lo, hi = sets
    rows, cols = out.shape[1:]
    first = int(set_option[lo])
    g0, g1 = int(options.set_group[lo]), int(options.set_group[hi])
    group_first = options.group_option[g0 : g1 + 1] - first
    count = np.diff(group_first)
    # Groups with the most options first, options rank by rank: the groups with an r-th
    # option are a prefix, so each rank is one elementwise maximum on contiguous rows.
    by_count = np.argsort(-count, kind="stable")
    ranked = count[by_count]
    prefix = [int(np.count_nonzero(ranked > r)) for r in range(int(ranked[0]))]
    order = np.concatenate([group_first[by_count[:n]] + r for r, n in enumerate(prefix)]) + first
    # Each option reads a (rows, cols) window of its successor's table: a strided view of
    # the work array, so the gather copies whole rows.
    step = work.strides[0]
    shape = (work.size - (rows - 1) * row - cols + 1, rows, cols)
    windows = np.lib.stride_tricks.as_strided(work, shape, (step, row * step, step), writeable=False)
    table = windows[options.start[order]]
    table += options.points[order][:, None, None]
    flat = table.reshape(order.size, rows * cols)
    best = flat[: prefix[0]]
    done = prefix[0]
    for n in prefix[1:]:
        np.maximum(best[:n], flat[done : done + n], out=best[:n])
        done += n
    back = np.empty_like(by_count)
    back[by_count] = np.arange(by_count.size)
    weighted = np.take(best, back, axis=0, out=scratch.take(best.size).reshape(best.shape))
    weighted *= options.prob[g0:g1, None]
    np.add.reduceat(weighted.reshape(-1, rows, cols), options.set_group[lo:hi] - g0, axis=0, out=out)


def _median_table(size: int, max_score: int) -> Floats:
    d = np.arange(size, dtype=np.float64) - 4 * max_score
    d1, d2 = np.meshgrid(d, d, indexing="ij")
    return np.median(np.stack([np.zeros_like(d1), d1, d2]), axis=0).ravel()


def _layout(level: Level, labels: tuple[int, ...]) -> tuple[tuple[Part, Part, Part], _Sheet, int]:
    """A layout's caterpillars, its sets of empty boxes, and the size of its solution's tables."""
    parts = (Part.of(labels[0:4]), Part.of(labels[4:8]), Part.of(labels[8:12]))
    sheet = _Sheet.of(level, parts)
    return parts, sheet, int(sheet.offset[sheet.order[-1]]) + sheet.row * sheet.row


def _solve(level: Level, labels: tuple[int, ...], progress: bool) -> Solution:
    started = time.perf_counter()
    mx = max_box_score(level)
    parts, sheet, size = _layout(level, labels)
    full = int(sheet.order[-1])
    work = np.empty(int(sheet.padded[full]) + sheet.row * sheet.row)
    work[sheet.padded[full] :] = _median_table(sheet.row, mx)
    bar = _progress_bar(len(sheet.order) - 1, level) if progress else None
    scratch = _Scratch()
    for filled in range(SLOTS - 1, -1, -1):
        sets = sheet.order[sheet.layer[filled] : sheet.layer[filled + 1]]
        _solve_layer(sheet, work, sets, scratch)
        if bar is not None:
            bar.update(len(sets))
    if bar is not None:
        bar.close()
    # The solution keeps the tables without padding (rows ``width`` apart).
    values = np.empty(size)
    for a, b in sheet.runs(sheet.order):
        rows, cols, at, to = (int(x[sheet.order[a]]) for x in (sheet.height, sheet.width, sheet.padded, sheet.offset))
        values[to : to + (b - a) * rows * cols].reshape(b - a, rows, cols)[...] = work[
            at : at + (b - a) * rows * sheet.row
        ].reshape(b - a, rows, sheet.row)[:, :, :cols]
    del work
    seconds = time.perf_counter() - started
    return Solution(level, labels, mx, parts, values, sheet.offset, sheet.height, sheet.width, sheet.base, seconds)


def _progress_bar(total: int, level: Level) -> Any:
    from tqdm import tqdm  # imported lazily: only a solve with progress needs it

    return tqdm(total=total, desc=f"solving this layout ({level.value})", unit="set", leave=False)


# -- the cache --------------------------------------------------------------------

#: Solutions by (level, labels), least recently used first.  Layouts that differ only in the order of a
#: caterpillar's boxes share one solve (:func:`~caterpillar_learn.advice.tables.solved_as`): each keeps a view
#: with its own labels on the same tables, and :data:`CACHE_SIZE` counts the tables, not the views.
_CACHE: OrderedDict[tuple[Level, tuple[int, ...]], Solution] = OrderedDict()
#: Held while the cache is read or changed: a worker stores its tables on a thread of its own.
_CACHE_LOCK = threading.RLock()


def _cached(level: Level, labels: tuple[int, ...]) -> Solution | None:
    """The layout's solution from memory: its own entry, or a view of a layout it shares a solve with."""
    key = (level, labels)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
        same = solved_as(labels)
        for (other_level, other), solution in reversed(_CACHE.items()):
            if other_level == level and solved_as(other) == same:
                return _keep(replace(solution, labels=labels))
    return None


def _keep(solution: Solution) -> Solution:
    """Keep ``solution`` in memory, and forget the least recently used tables beyond :data:`CACHE_SIZE`."""
    with _CACHE_LOCK:
        _CACHE[(solution.level, solution.labels)] = solution
        _CACHE.move_to_end((solution.level, solution.labels))
        while len({(level, solved_as(labels)) for level, labels in _CACHE}) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return solution


def solve_layout(level: Level | str, labels: Sequence[int | None], *, progress: bool = False) -> Solution:
    """The exact solution of one layout, solved once and then kept (least recently used).

    With a cache folder (:func:`~caterpillar_learn.advice.disk_cache.cache_folder`,
    set by ``caterpillar-learn serve`` for its kernels) a layout another
    process has solved is read from the folder instead, and one this process
    solves is written there; either way the tables kept are the file's, mapped
    read-only, so the processes of a class share one copy.

    >>> solve_layout("advanced", (1,) * 12)
    Traceback (most recent call last):
    ...
    caterpillar_learn.advice.errors.AdviceError: level: got 'advanced', \
expected beginner or intermediate for an exact solve
    """
    level = exact_level(level)
    if len(labels) != SLOTS or any(not isinstance(v, int) or not 1 <= v <= 12 for v in labels):
        raise AdviceError(describe("labels", list(labels), "12 labels from 1 to 12 (finish the setup first)"))
    own = tuple(int(v) for v in labels if v is not None)
    found = _cached(level, own)
    if found is not None:
        return found
    folder = disk_cache.cache_folder()
    same = solved_as(own)  # solved (and stored) once for every order of the caterpillars' boxes
    solution = _solve(level, same, progress) if folder is None else _shared_solve(folder, level, same, progress)
    return _keep(solution if same == own else replace(solution, labels=own))


def _shared_solve(folder: Path, level: Level, labels: tuple[int, ...], progress: bool) -> Solution:
    """The layout from ``folder``, or solved once for every process sharing the folder."""
    found = _stored(folder, level, labels)
    if found is not None:
        return found
    with disk_cache.solving(folder, level, labels):
        found = _stored(folder, level, labels)  # solved by another process while this one waited
        if found is not None:
            return found
        solution = _solve(level, labels, progress)
        try:
            disk_cache.write(folder, level, labels, solution.values)
        except OSError as error:  # a full or read-only disk: this process keeps its own tables
            log.warning("cannot store the %s layout %s in %s: %s", level.value, labels, folder, error)
            return solution
    # The stored copy replaces this process's own: its memory is shared with the other processes.
    stored = _stored(folder, level, labels, check=False)  # this process has just written it
    return solution if stored is None else replace(stored, seconds=solution.seconds)


def _stored(folder: Path, level: Level, labels: tuple[int, ...], *, check: bool = True) -> Solution | None:
    started = time.perf_counter()
    parts, sheet, size = _layout(level, labels)
    values = disk_cache.read(folder, level, labels, size, check=check)
    if values is None:
        return None
    seconds = time.perf_counter() - started
    mx = max_box_score(level)
    return Solution(level, labels, mx, parts, values, sheet.offset, sheet.height, sheet.width, sheet.base, seconds)


def solve_here(level: Level | str, labels: Sequence[int]) -> Solution:
    """The layout solved in this process's memory and kept like :func:`solve_layout`'s; no folder is read or written.

    A worker process calls it, then :func:`store` once the hint it was
    asked for has gone: a pupil does not wait for 84 MB to be written
    and checksummed.
    """
    level = exact_level(level)
    own = tuple(int(v) for v in labels)
    found = _cached(level, own)
    if found is not None:
        return found
    same = solved_as(own)
    solution = _solve(level, same, False)
    return _keep(solution if same == own else replace(solution, labels=own))


def store(folder: Path, solution: Solution) -> None:
    """Write ``solution`` to the cache folder, and keep the stored (mapped, shared) copy in its place in memory.

    A full or read-only disk is logged; the process then keeps its own copy.
    """
    same = solved_as(solution.labels)  # the file serves every order of the caterpillars' boxes
    try:
        disk_cache.write(folder, solution.level, same, solution.values)
    except OSError as error:
        log.warning("cannot store the %s layout %s in %s: %s", solution.level.value, same, folder, error)
        return
    stored = _stored(folder, solution.level, same, check=False)  # just written from these values
    if stored is None:
        return
    with _CACHE_LOCK:
        for key, kept in _CACHE.items():  # every view of these tables now reads the shared copy
            if kept.values is solution.values:
                _CACHE[key] = replace(stored, labels=kept.labels, seconds=kept.seconds)


def clear_cache() -> None:
    """Forget every solved layout kept in memory (a cache folder keeps its files)."""
    with _CACHE_LOCK:
        _CACHE.clear()


__all__ = ["CACHE_SIZE", "clear_cache", "solve_here", "solve_layout", "store"]
