"""From the end of a free game to the first practice position (issue 33), at Beginner and Intermediate.

A lesson's free game is played to its last round by a child who always scores the smaller die (so that
there is something to practise); the last move's event is timed with the page's redraw (``views()``),
once the layout's background solve is done, as in a lesson (the solve starts when the labels are known).
Baseline, in the same process and on the same games: the same last move in the same lesson with the
practice switched off (``practises = False``).  The difference is the practice's own work: the review of
the game, its costliest moves and the first position's board.
The page is never blocked by the solve: the child's first roll and move of a free game are timed while
that game's layout is still being solved in the background (``during solve``), beside the same two events
once it is solved.
Run: .venv/bin/python benchmarks/practice_first.py [--games 15]
"""

from __future__ import annotations

import argparse
import statistics
import time

from caterpillar_learn.advice.values import rank_options
from caterpillar_learn.caterpillars import Move
from caterpillar_learn.ui.caterpillars.advice import join_background_solves
from caterpillar_learn.ui.caterpillars.lesson import LessonSession

LESSONS = {"beginner": "01-beginner", "intermediate": "02-intermediate"}


class WithoutPractice(LessonSession):
    practises = False


def smaller_score(session: LessonSession) -> Move:
    options, _ = rank_options(session.game.state, session.game.roll())
    placed = [o.move for o in options if not o.move.zero] or [options[0].move]
    return next(m for m in placed if m.score == min(p.score for p in placed))


def last_move(kind: type[LessonSession], lesson: str, seed: int) -> tuple[float, bool]:
    """Seconds for the event that ends a free game (and the redraw), and whether a practice followed."""
    session = kind(lesson, seed)
    session.step = len(session.lesson.steps) - 1  # free play, as after the lesson's steps (no question asked)
    session.handle({"type": "new_game"})  # free play: the guided game's dice are left behind
    join_background_solves()  # the layout is solved, as it is long before a child's last round
    while True:
        session.handle({"type": "roll"})
        move = smaller_score(session)
        event = {"type": "option", "index": session.legal_moves().index(move)}
        if len(session.game.history) == session.game.turns - 1:
            start = time.perf_counter()
            session.handle(event)
            session.views()
            took = time.perf_counter() - start
            return took, bool(session.views().get("practice", {}).get("status") == "active")
        session.handle(event)


def first_events(lesson: str, seed: int) -> tuple[float, float, bool]:
    """Seconds for a free game's first roll and move (with redraws) while its layout is solved in the background,
    the same after the solve, and whether the solve was still running when both were done."""
    session = LessonSession(lesson, seed)
    session.step = len(session.lesson.steps) - 1
    session.handle({"type": "new_game"})
    start = time.perf_counter()  # the child's first move: any offered one (asking the solver here would wait)
    session.handle({"type": "roll"})
    session.views()
    session.handle({"type": "option", "index": 0})
    session.views()
    during = time.perf_counter() - start
    running = bool(join_background_solves(timeout=0.0))
    join_background_solves()
    start = time.perf_counter()
    session.handle({"type": "roll"})
    session.views()
    session.handle({"type": "option", "index": 0})
    session.views()
    return during, time.perf_counter() - start, running


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=15)
    args = parser.parse_args()
    for level, lesson in LESSONS.items():
        ours, base, practised = [], [], 0
        for seed in range(args.games):
            took, active = last_move(LessonSession, lesson, 100 + seed)
            ours.append(took)
            practised += active
            base.append(last_move(WithoutPractice, lesson, 100 + seed)[0])
        print(
            f"{level}: {args.games} games ({practised} with practice), end of game → first practice position "
            f"median {1e3 * statistics.median(ours):.1f} ms, max {1e3 * max(ours):.0f} ms; "
            f"baseline (same move, no practice) median {1e3 * statistics.median(base):.1f} ms; "
            f"practice's own work {1e3 * (statistics.median(ours) - statistics.median(base)):.1f} ms"
        )
        during, after, running = zip(*(first_events(lesson, 200 + seed) for seed in range(args.games)), strict=True)
        print(
            f"{level}: a free game's first roll and move while its layout is solved (still solving in "
            f"{sum(running)} of {args.games}): median {1e3 * statistics.median(during):.1f} ms, max "
            f"{1e3 * max(during):.0f} ms; once solved median {1e3 * statistics.median(after):.1f} ms"
        )


if __name__ == "__main__":
    main()
