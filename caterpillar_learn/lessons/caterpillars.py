"""The Caterpillars lessons as data: which text a step shows, which widget, what to check.

A step's text lives in the message catalogue under ``lessons.<key>.title``
and ``lessons.<key>.body``; its check is a name in :data:`CHECKS`, a test of
the learner's :class:`Progress` that must pass before *next* unlocks.  The
guided part of every game lesson ends with a full twelve-round game played
to its final score (the ``game_over`` check), then free play and the review.

>>> lesson = get_lesson("02-intermediate")
>>> [step.check for step in lesson.steps][-3:]
['game_over', 'none', 'none']
>>> CHECKS["played"](Progress(moves=1)), CHECKS["played"](Progress())
(True, False)
>>> get_lesson("09-nothing")
Traceback (most recent call last):
...
KeyError: "lesson: got '09-nothing', expected one of 00-setup, 01-beginner, 02-intermediate, \
03-advanced, 04-expert, 05-strategy-lab"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from caterpillar_learn.errors import describe


@dataclass
class Progress:
    """What the learner has done so far (cumulative over the lesson's games)."""

    rolls: int = 0
    setup_rolls: int = 0
    setup_done: bool = False
    moves: int = 0
    illegal_clicks: int = 0
    menus: int = 0
    hints: int = 0
    games_finished: int = 0
    games_started: int = 1


#: Checks a step may name; each says whether the learner may go on.
CHECKS: dict[str, Callable[[Progress], bool]] = {
    "none": lambda p: True,
    "setup_rolled": lambda p: p.setup_rolls >= 1,
    "setup_done": lambda p: p.setup_done,
    "rolled": lambda p: p.rolls - p.setup_rolls >= 1,
    "played": lambda p: p.moves >= 1,
    "hint": lambda p: p.hints >= 1,
    "game_over": lambda p: p.games_finished >= 1,
}


@dataclass(frozen=True)
class Step:
    """One step: text keys ``lessons.<key>.title/.body``, the widget it uses, its check."""

    key: str
    check: str = "none"
    widget: str = "board"

    def __post_init__(self) -> None:
        if self.check not in CHECKS:
            raise ValueError(describe("step check", self.check, "one of " + ", ".join(CHECKS)))


@dataclass(frozen=True)
class Practice:
    """What *new game* starts during free play."""

    level: str
    variation: bool = False


@dataclass(frozen=True)
class Lesson:
    """A lesson: its game (level, seed, setup) and its steps."""

    name: str
    level: str
    title_key: str
    steps: tuple[Step, ...] = ()
    seed: int = 1
    auto_setup: bool = True
    variation: bool = False
    practice: Practice | None = None
    widgets: tuple[str, ...] = field(default=("board",))


def _game_steps(level: str, *middle: Step) -> tuple[Step, ...]:
    """The shared shape: explain → roll → legal moves → choose → why → hint → finish → score."""
    return (
        Step(f"{level}.intro"),
        Step("common.roll", "rolled"),
        Step("common.legal"),
        *middle,
        Step("common.choose", "played"),
        Step("common.why"),
        Step("common.hint", "hint"),
        Step("common.finish", "game_over"),
        Step("common.score"),
        Step("common.free"),
    )


LESSONS: dict[str, Lesson] = {
    lesson.name: lesson
    for lesson in (
        Lesson(
            "00-setup",
            "beginner",
            "lessons.title.setup",
            (
                Step("setup.labels"),
                Step("setup.roll", "setup_rolled"),
                Step("setup.place", "setup_done"),
                Step("common.roll", "rolled"),
                Step("common.choose", "played"),
                Step("common.finish", "game_over"),
                Step("common.score"),
                Step("setup.variation"),
            ),
            seed=1,
            auto_setup=False,
            practice=Practice("intermediate", variation=True),
        ),
        Lesson("01-beginner", "beginner", "lessons.title.beginner", _game_steps("beginner"), seed=1),
        Lesson(
            "02-intermediate",
            "intermediate",
            "lessons.title.intermediate",
            _game_steps("intermediate", Step("intermediate.total")),
            seed=2,
        ),
        Lesson(
            "03-advanced",
            "advanced",
            "lessons.title.advanced",
            _game_steps("advanced", Step("advanced.bonus")),
            seed=3,
        ),
        Lesson(
            "04-expert",
            "expert",
            "lessons.title.expert",
            _game_steps("expert", Step("expert.action")),
            seed=4,
        ),
        Lesson("05-strategy-lab", "beginner", "lessons.title.lab", (), widgets=("lab",)),
    )
}


def get_lesson(name: str) -> Lesson:
    """The lesson called ``name`` (its notebook's file name without ``.ipynb``)."""
    try:
        return LESSONS[name]
    except KeyError:
        raise KeyError(describe("lesson", name, "one of " + ", ".join(LESSONS))) from None


__all__ = ["CHECKS", "LESSONS", "Lesson", "Practice", "Progress", "Step", "get_lesson"]
