"""The Caterpillars lessons as data: which text a step shows, which widget, what to check.

A step's text lives in the message catalogue under ``lessons.<key>.title``
and ``lessons.<key>.body``; its check is a name in :data:`CHECKS`, a test of
the learner's :class:`Progress` that must pass before *next* unlocks.  A
question step (``question``, see :mod:`~caterpillar_learn.lessons.questions`)
asks before it shows and opens *next* once answered.  The guided game plays
the lesson's designed dice (:mod:`~caterpillar_learn.lessons.scenarios`) to
its final score; free play and the review follow.  One new rule a lesson:
lesson 0 only fills the labels, lesson 1 teaches placing.

>>> lesson = get_lesson("02-intermediate")
>>> [step.question for step in lesson.steps if step.question]
['split', 'boxes', 'fly']
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
from functools import cache

from caterpillar_learn.caterpillars import Game, parse_roll
from caterpillar_learn.caterpillars.sheet import ROUNDS
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.questions import KINDS
from caterpillar_learn.lessons.scenarios import ALL_ROUNDS, Scenario, rolls_of


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


#: The checks that count something the learner did: a step's ``times`` says how often (the third roll of a
#: teacher's lesson is ``rolled`` three times).
COUNTS: dict[str, Callable[[Progress], int]] = {
    "rolled": lambda p: p.rolls - p.setup_rolls,
    "played": lambda p: p.moves,
    "hint": lambda p: p.hints,
    "game_over": lambda p: p.games_finished,
}

#: Checks a step may name; each says whether the learner may go on.
CHECKS: dict[str, Callable[[Progress], bool]] = {
    "none": lambda p: True,
    "setup_rolled": lambda p: p.setup_rolls >= 1,
    "setup_done": lambda p: p.setup_done,
    "rolled": lambda p: p.rolls - p.setup_rolls >= 1,
    "played": lambda p: p.moves >= 1,
    "hint": lambda p: p.hints >= 1,
    "game_over": lambda p: p.games_finished >= 1,
    "rolled_twice": lambda p: p.rolls - p.setup_rolls >= 2,
    "played_twice": lambda p: p.moves >= 2,
}


@dataclass(frozen=True)
class Step:
    """One step: text keys ``lessons.<key>.title/.body`` (or a teacher's own words), the widget it uses, its check.

    >>> third_roll = Step("file.5", "rolled", times=3, own=True, title="Roll once more")
    >>> [third_roll.passed(Progress(rolls=rolls)) for rolls in (2, 3)], step_title(third_roll)
    ([False, True], 'Roll once more')
    """

    key: str
    check: str = "none"
    widget: str = "board"
    #: A question of :data:`~caterpillar_learn.lessons.questions.KINDS` asked before the step shows its answer;
    #: *next* opens once it is answered.  ``choice``: a teacher's own question (:attr:`options`, :attr:`right`).
    question: str | None = None
    #: How often the check's count must have happened (:data:`COUNTS`): the third roll is ``rolled`` 3 times.
    times: int = 1
    #: Whether the step is a teacher's (a lesson file): its words are :attr:`title` and :attr:`say`, empty or
    #: not, instead of the catalogue's.
    own: bool = False
    title: str = ""
    say: str = ""
    #: A ``choice`` question's answers, and the number of the right one (from 1).
    options: tuple[str, ...] = ()
    right: int = 0

    def __post_init__(self) -> None:
        if self.check not in CHECKS:
            raise ValueError(describe("step check", self.check, "one of " + ", ".join(CHECKS)))
        if self.question is not None and self.question not in (*KINDS, "choice"):
            raise ValueError(describe("step question", self.question, "one of " + ", ".join((*KINDS, "choice"))))
        if self.times != 1 and self.check not in COUNTS:
            raise ValueError(describe("step times", self.times, "1 for a check that counts nothing"))
        if self.question == "choice" and not 1 <= self.right <= len(self.options):
            raise ValueError(describe("step right", self.right, f"an answer's number from 1 to {len(self.options)}"))

    def passed(self, progress: Progress) -> bool:
        """Whether the learner has done what the step asks (its check, :attr:`times` over)."""
        if self.check in COUNTS:
            return COUNTS[self.check](progress) >= self.times
        return CHECKS[self.check](progress)


def step_title(step: Step) -> str:
    """The step's title as the learner reads it: the teacher's own, else the catalogue's in the page's language."""
    return step.title if step.own else text(f"lessons.{step.key}.title")


def step_body(step: Step) -> str:
    """What the step says: the teacher's own words, else the catalogue's in the page's language."""
    return step.say if step.own else text(f"lessons.{step.key}.body")


@dataclass(frozen=True)
class Practice:
    """What *new game* starts during free play."""

    level: str
    variation: bool = False


@dataclass(frozen=True)
class Lesson:
    """A lesson: its game (level, seed, setup) and its steps; a teacher's lesson (a file) also its own words."""

    name: str
    level: str
    title_key: str
    steps: tuple[Step, ...] = ()
    seed: int = 1
    auto_setup: bool = True
    variation: bool = False
    practice: Practice | None = None
    widgets: tuple[str, ...] = field(default=("board",))
    #: The guided game's designed dice (``None``: seeded dice from the start).
    scenario: Scenario | None = None
    #: Whether the numbers for grown-ups (values, chances, the review) show at the start; the learner's
    #: switch changes it.  Off at every level: numbers stay behind For grown-ups, the hints speak a
    #: child's words.
    numbers: bool = False
    #: A teacher's lesson (:mod:`caterpillar_learn.lessons.files`): its title, the gallery's line, the youngest
    #: age it is for, the language its words are written in, and the sheet its game starts from (no setup).
    title: str = ""
    line: str = ""
    age: int = 0
    language: str = ""
    labels: tuple[int, ...] | None = None


def lesson_title(lesson: Lesson) -> str:
    """The lesson's title: the teacher's own, else the catalogue's in the page's language."""
    return lesson.title or text(lesson.title_key)


# The guided games' dice, found by scripts/find_scenarios.py: each shows what its second part names
# on every line a learner can take, the lesson offering only the helper's move in the rounds it leads
# (tests/lessons/test_scenarios.py replays them all).
BEGINNER_SCENARIO = Scenario(
    ("6 3 2", "1 1 6", "3 2", "4 4", "5 2", "3 3", "6 3", "5 3", "2 6", "6 6", "4 5", "1 1", "5 5", "5 4"),
    ("choice", "zero"),
    # Round 1 is the learner's choice, round 2's forced zero is led; from round 3 the child picks every box
    # (issue 29: the rule has been shown twice).  A tie at the end is no longer certain: it would need every
    # round led.
    led=(2,),
)
INTERMEDIATE_SCENARIO = Scenario(
    (
        "2 5 1", "3 1 4", "4 4 6", "4 2 1", "4 1 4", "4 5 1", "6 4 3", "6 2 5", "1 3 1", "1 1 6", "5 1 4",
        "6 2 4", "6 1 5", "2 4 4", "5 2 3",
    ),
    ("split_score", "split_label", "label_above_6"),
)  # fmt: skip
ADVANCED_SCENARIO = Scenario(
    (
        "5 6 1", "1 4 1", "2 5 4", "1 1 5", "2 1 4", "2 6 2", "2 6 1", "4 4 5", "3 5 3", "6 4 3", "1 2 6",
        "3 1 1", "1 3 6", "5 3 4",
    ),
    ("bonus_wrong", "bonus_right"),
    led=(1,),  # round 2's clear bonus needs round 1's sheet
)  # fmt: skip
EXPERT_SCENARIO = Scenario(
    (
        "2 2 2", "1 3 4", "5 6 4 butterfly", "3 1 1 2x", "1 2 1 10", "5 4 6 C", "5 4 1 10", "5 2 4 A",
        "4 5 1 B", "2 1 2 butterfly", "3 2 5 A", "5 3 3 C", "3 3 3 2x", "3 1 1 B",
    ),
    (
        "bonus_wrong", "face_A_empty", "face_A_filled", "face_B_empty", "face_B_filled", "face_C_empty",
        "face_C_filled", "face_2x", "face_10", "face_butterfly",
    ),
    led=ALL_ROUNDS,  # whether A, B or C meets a filled box depends on every earlier bonus choice
)  # fmt: skip


#: The question steps: each asks before it shows, and opens *next* only once answered.
def _ask(key: str, kind: str) -> Step:
    return Step(f"question.{key}", question=kind)


_FREE = (Step("common.score"), Step("common.free"))
_FREE_BONUS = (Step("common.score_bonus"), Step("common.free"))  # the flying caterpillar's bonus box counts


def _level_lesson(
    number: int,
    level: str,
    first: tuple[str, str],
    explain: str,
    second: tuple[str, str],
    scenario: Scenario,
    *,
    variation: bool = False,
    again: tuple[str, str] = ("common.roll_again", "common.choose_again"),
) -> Lesson:
    """Lesson ``number`` of ``level`` in the level lessons' shape: intro; round 1 asked (``first``, a question's
    key and kind), played, explained; round 2 rolled and played with the ``again`` steps' words, asked
    (``second``); the game to its end; "Which caterpillar will fly?"; the scoring and free play."""
    roll_again, choose_again = again
    return Lesson(
        f"{number:02d}-{level}",
        level,
        f"lessons.title.{level}",
        (
            Step(f"{level}.intro"),
            Step("common.roll", "rolled"),
            _ask(*first),
            Step("common.choose", "played"),
            Step(explain),
            Step(roll_again, "rolled_twice"),
            _ask(*second),
            Step(choose_again, "played_twice"),
            Step("common.hint", "hint"),
            Step("common.finish", "game_over"),
            _ask("fly", "fly"),
            *(_FREE_BONUS if level in ("advanced", "expert") else _FREE),
        ),
        seed=number,
        variation=variation,
        scenario=scenario,
    )


LESSONS: dict[str, Lesson] = {
    lesson.name: lesson
    for lesson in (
        # Lesson 0 teaches only the labels: no game is played before lesson 1 has taught placing.
        Lesson(
            "00-setup",
            "beginner",
            "lessons.title.setup",
            (
                Step("setup.labels"),
                Step("setup.roll", "setup_rolled"),
                Step("setup.place", "setup_done"),
                Step("setup.variation"),
            ),
            seed=1,
            auto_setup=False,
            practice=Practice("intermediate", variation=True),
        ),
        # Round 2 of lesson 1 is the forced zero: its own words for rolling and crossing out.
        _level_lesson(
            1,
            "beginner",
            ("boxes", "boxes"),
            "common.why",
            ("zero", "zero"),
            BEGINNER_SCENARIO,
            again=("beginner.zero", "beginner.cross"),
        ),
        _level_lesson(
            2,
            "intermediate",
            ("split", "split"),
            "intermediate.total",
            ("boxes", "boxes"),
            INTERMEDIATE_SCENARIO,
            variation=True,
        ),
        _level_lesson(
            3, "advanced", ("bonus_no", "bonus"), "advanced.bonus", ("bonus_yes", "bonus"), ADVANCED_SCENARIO
        ),
        _level_lesson(4, "expert", ("bonus_no", "bonus"), "expert.action", ("boxes", "boxes"), EXPERT_SCENARIO),
        Lesson("05-strategy-lab", "intermediate", "lessons.title.lab", (), widgets=("lab",)),
    )
}


def guided_game(lesson: Lesson, seed: int | None = None) -> Game:
    """The lesson's guided game: the scenario's dice first, then dice from ``seed`` (the lesson's by default)."""
    seed = lesson.seed if seed is None else seed
    if lesson.labels is not None:  # a teacher's lesson: its sheet, its dice, then dice from the seed
        dice = lesson.scenario.rolls if lesson.scenario is not None else ()
        return Game(lesson.level, lesson.labels, seed=seed, rolls=[parse_roll(roll, lesson.level) for roll in dice])
    game = Game(lesson.level, variation=lesson.variation, seed=seed)
    if lesson.scenario is None:
        return game
    setup_rolls = game.turns - ROUNDS
    rolls = rolls_of(lesson.level, lesson.variation, lesson.scenario, setup_rolls)
    return Game(lesson.level, variation=lesson.variation, seed=game.rng.randrange(2**32), rolls=rolls)


#: The lesson that teaches each level's game: its guided game's sheet is the level's sheet in a classroom room.
LEVEL_LESSONS = {
    "beginner": "01-beginner",
    "intermediate": "02-intermediate",
    "advanced": "03-advanced",
    "expert": "04-expert",
}


@cache
def sheet_labels(name: str) -> tuple[int | None, ...]:
    """The labels of lesson ``name``'s guided game once its setup is done (the page fills them with the first
    choice, whatever the seed): a class that played the lesson meets the same sheet in a room.

    >>> sheet_labels("01-beginner")
    (1, 2, 6, 3, 6, 2, 1, 5, 5, 1, 2, 6)
    """
    game = guided_game(get_lesson(name))
    while game.phase == "setup":
        game.play(game.legal_moves()[0])
    return game.state.labels


def get_lesson(name: str) -> Lesson:
    """The lesson called ``name`` (its notebook's file name without ``.ipynb``)."""
    try:
        return LESSONS[name]
    except KeyError:
        raise KeyError(describe("lesson", name, "one of " + ", ".join(LESSONS))) from None


__all__ = [
    "CHECKS",
    "COUNTS",
    "LESSONS",
    "LEVEL_LESSONS",
    "Lesson",
    "Practice",
    "Progress",
    "Step",
    "get_lesson",
    "guided_game",
    "lesson_title",
    "sheet_labels",
    "step_body",
    "step_title",
]
