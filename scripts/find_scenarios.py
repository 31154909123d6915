"""Find designed dice for the lessons' guided games (caterpillar_learn/lessons/caterpillars.py).

    .venv/bin/python scripts/find_scenarios.py [--lesson 01-beginner] [--seed 1] [--tries 400]
    .venv/bin/python scripts/find_scenarios.py --check

Each lesson's scenario must show the rules named in its ``covers`` whatever
the learner chooses in the rounds it does not lead
(:func:`caterpillar_learn.lessons.scenarios.guided_lines` and ``coverage``).  This script draws
candidate dice (with a few fixed rolls where a rule needs them: round 2 of
Beginner is a double 4 on a sheet without a label 4, so no box fits), plays
each candidate through the engine and prints the first that covers the
list, as the ``Scenario(...)`` to paste into the lesson data.  ``--check``
replays the scenarios in the lesson data and reports what each shows (the
test suite does the same: tests/lessons/test_scenarios.py).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from caterpillar_learn.caterpillars import ACTION_FACES, Game
from caterpillar_learn.lessons import LESSONS, get_lesson
from caterpillar_learn.lessons.caterpillars import Lesson, guided_game
from caterpillar_learn.lessons.scenarios import Scenario, coverage, guided_lines, play_guided


def _dice(rng: random.Random, count: int, faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)) -> str:
    return " ".join(str(rng.choice(faces)) for _ in range(count))


def candidate(lesson: Lesson, rng: random.Random) -> tuple[str, ...]:
    """One set of designed dice for ``lesson`` (setup rolls, then 12 rounds)."""
    probe = Game(lesson.level, variation=lesson.variation)
    setup = probe.turns - 12
    dice = probe.level.rules.dice
    if lesson.level == "beginner":
        no_four = (1, 2, 3, 5, 6)  # no label 4 anywhere, so a double 4 fits no box
        rolls = [_dice(rng, 3, no_four) for _ in range(setup)]
        first = " ".join(str(d) for d in rng.sample(no_four, 2))  # two labels: either die can be the score
        rolls += [first, "4 4"] + [_dice(rng, dice) for _ in range(10)]
        return tuple(rolls)
    rolls = [_dice(rng, 3) for _ in range(setup)]
    if lesson.level == "advanced":  # round 2: a cheap pair beside a big die, where a bonus can pay
        cheap = f"1 {rng.choice((1, 2))} {rng.choice((5, 6))}"
        return tuple(rolls + [_dice(rng, dice), cheap] + [_dice(rng, dice) for _ in range(10)])
    if lesson.level != "expert":
        return tuple(rolls + [_dice(rng, dice) for _ in range(12)])
    faces = list(ACTION_FACES) + list(rng.sample(list(ACTION_FACES), 12 - len(ACTION_FACES)))
    rng.shuffle(faces)
    return tuple(rolls + [f"{_dice(rng, dice)} {face}" for face in faces])


#: What the first two rounds decide: a candidate missing one is dropped before its whole game is played.
EARLY = {"choice", "zero", "split_score", "split_label", "label_above_6", "bonus_right", "bonus_wrong"}


def missing(lesson: Lesson) -> set[str]:
    """What some line of the lesson's guided game fails to show."""
    assert lesson.scenario is not None
    wanted = set(lesson.scenario.covers)
    return set().union(*(wanted - coverage(end) for end in guided_lines(guided_game(lesson), lesson.scenario)))


def find(lesson: Lesson, seed: int, tries: int) -> Scenario | None:
    rng = random.Random(seed)
    assert lesson.scenario is not None
    wanted, led = set(lesson.scenario.covers), lesson.scenario.led
    for attempt in range(tries):
        rolls = candidate(lesson, rng)
        trial = Lesson(**{**lesson.__dict__, "scenario": Scenario(rolls, tuple(wanted), led)})
        if not (wanted & EARLY) <= coverage(play_guided(guided_game(trial), rounds=2)):
            continue
        if not wanted <= coverage(play_guided(guided_game(trial))):
            continue  # the helper's own line misses: no need to try the others
        if not missing(trial):
            print(f"# {lesson.name}: found after {attempt + 1} tries", file=sys.stderr)
            return Scenario(rolls, lesson.scenario.covers, led)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lesson", action="append", help="a lesson name (default: every lesson with a scenario)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, default=400)
    parser.add_argument("--check", action="store_true", help="replay the lesson data's scenarios instead")
    args = parser.parse_args()
    names = args.lesson or [name for name, lesson in LESSONS.items() if lesson.scenario is not None]
    failed = 0
    for name in names:
        lesson = get_lesson(name)
        if args.check:
            lacking = missing(lesson)
            print(f"{name}: some line misses {sorted(lacking)}" if lacking else f"{name}: every line covers its list")
            failed += bool(lacking)
            continue
        found = find(lesson, args.seed, args.tries)
        if found is None:
            print(f"# {name}: nothing found in {args.tries} tries", file=sys.stderr)
            failed += 1
        else:
            print(f"{name}: Scenario({found.rolls!r}, {found.covers!r}, {found.led!r})")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
