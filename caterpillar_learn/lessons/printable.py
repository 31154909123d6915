"""A lesson on paper for the teacher: its plan, the guided game's dice and answers for a seed, a rules card.

:func:`lesson_sheet` gathers what one lesson's page says (plain data, every
word from the catalogue's ``printable.*`` and the lessons' own keys);
:func:`page_html` draws it as one HTML page with print CSS that fits A4 and
Letter alike (``@page { size: auto }``, margins and a width that both papers
hold).  ``caterpillar-learn serve`` serves it at ``/print/<lesson>?seed=N&lang=L``
(:mod:`caterpillar_learn.ui.hosting.print_page`).

For the Caterpillars lessons 01–04 the dice are the guided game's (the
lesson's designed dice, then dice from the seed), and each question of the
game is answered on the line the star shows (the helper's move every round).
An answer is marked *the same for every pupil* when no earlier choice of the
pupil can change it: every round before it is led by the lesson, or each
choice in the one free round before it gives the same answer (checked here,
move by move).  The Räuber Raupe lessons print their plan and a rules card
drawn from their table (:data:`~caterpillar_learn.lessons.raupe.SETUPS`): the
rules the lesson deals, no more.

>>> sheet = lesson_sheet("01-beginner", seed=1, lang="en")
>>> sheet.dice[2:4], sheet.answers[1].answer, sheet.answers[1].same_for_all
((('Round 1', '2 3', 'the pupil'), ('Round 2', '4 4', 'the lesson')), 'No', True)
>>> len(sheet.rules) >= 4, lesson_sheet("10-raupe-shape", 1, "de").dice
(True, ())
>>> lesson_sheet("09-nothing", 1, "en")
Traceback (most recent call last):
...
caterpillar_learn.lessons.printable.PrintableError: lesson: got '09-nothing', expected one of 00-setup, \
01-beginner, 02-intermediate, 03-advanced, 04-expert, 05-strategy-lab, 10-raupe-shape, 11-raupe-colour, \
12-raupe-change-card, 13-raupe-butterflies-and-aphids, 14-raupe-spot-the-mistake, 15-raupe-race
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html import escape

from caterpillar_learn.caterpillars import CATERPILLARS, Game, Move, Roll, State
from caterpillar_learn.caterpillars.sheet import ROUNDS
from caterpillar_learn.errors import CaterpillarLearnError, describe
from caterpillar_learn.i18n import available_languages, language, text
from caterpillar_learn.lessons.caterpillars import LESSONS, Lesson, guided_game, step_title
from caterpillar_learn.lessons.gallery import GALLERY, card_of
from caterpillar_learn.lessons.questions import (
    CHILD_MARGIN,
    Question,
    ask_bonus,
    ask_boxes,
    ask_fly,
    ask_split,
    ask_zero,
)
from caterpillar_learn.lessons.raupe import SETUPS, TableSetup
from caterpillar_learn.lessons.scenarios import best_move

__all__ = ["MAX_SEED", "Answer", "LessonSheet", "PrintableError", "lesson_sheet", "page_html", "parse_seed"]

#: The largest seed a lesson takes (the engine's generator is seeded with 32 bits).
MAX_SEED = 2**32 - 1
#: The questions whose answer is checked over every choice of one free round (the engine alone, no helper).
CHEAP_KINDS = ("boxes", "zero")


class PrintableError(CaterpillarLearnError):
    """A printable page asked for a lesson, seed or language there is none of."""


@dataclass(frozen=True)
class Answer:
    """One question of the guided game: when it is asked, its words, the right answer, whether it is fixed."""

    when: str
    question: str
    answer: str
    same_for_all: bool


@dataclass(frozen=True)
class LessonSheet:
    """What a lesson's printed page says, in one language."""

    name: str
    lang: str
    seed: int
    title: str
    age: str
    learns: str
    plan: tuple[str, ...]
    #: The guided game's dice: (when, dice, who picks the box: the lesson, the pupil; "" in the setup).
    dice: tuple[tuple[str, str, str], ...]
    #: The labels after the setup, one line per caterpillar.
    labels: tuple[str, ...]
    answers: tuple[Answer, ...]
    rules_title: str
    rules: tuple[str, ...]


def parse_seed(value: str) -> int:
    """A page's ``seed`` argument as a whole number from 0 to :data:`MAX_SEED`.

    >>> parse_seed("7")
    7
    >>> parse_seed("x")
    Traceback (most recent call last):
    ...
    caterpillar_learn.lessons.printable.PrintableError: seed: got 'x', expected a whole number from 0 to 4294967295
    """
    if not value.isdigit() or int(value) > MAX_SEED:
        raise PrintableError(describe("seed", value, f"a whole number from 0 to {MAX_SEED}"))
    return int(value)


def lesson_sheet(name: str, seed: int, lang: str) -> LessonSheet:
    """The printed page of lesson ``name`` for ``seed`` in ``lang`` (worked out once, then kept)."""
    if name not in GALLERY:
        raise PrintableError(describe("lesson", name, "one of " + ", ".join(GALLERY)))
    if lang not in available_languages():
        raise PrintableError(describe("lang", lang, "one of " + ", ".join(available_languages())))
    if not 0 <= seed <= MAX_SEED:
        raise PrintableError(describe("seed", seed, f"a whole number from 0 to {MAX_SEED}"))
    return _sheet(name, seed, lang)


@lru_cache(maxsize=64)
def _sheet(name: str, seed: int, lang: str) -> LessonSheet:
    card = card_of(name, lang)
    with language(lang):
        dice: tuple[tuple[str, str, str], ...] = ()
        labels: tuple[str, ...] = ()
        answers: tuple[Answer, ...] = ()
        if name in SETUPS:
            plan = _numbered(f"raupe_lessons.intro.{name}") + _numbered(f"raupe_lessons.try.{name}")
            rules_title, rules = text("printable.rules.raupe"), _raupe_rules(SETUPS[name])
        else:
            lesson = LESSONS[name]
            plan = tuple(step_title(step) for step in lesson.steps)
            if lesson.scenario is not None:
                dice, labels, answers = _guided(lesson, seed)
            rules_title, rules = text("printable.rules.caterpillars"), _caterpillars_rules(lesson)
        return LessonSheet(
            name, lang, seed, card.title, card.age_text, card.learns, plan, dice, labels, answers, rules_title, rules
        )


def _numbered(prefix: str) -> tuple[str, ...]:
    """The catalogue's lines ``prefix.1``, ``prefix.2``, ... as far as they go."""
    lines = []
    number = 1
    while True:
        try:
            lines.append(text(f"{prefix}.{number}"))
        except KeyError:
            return tuple(lines)
        number += 1


# -- the guided game -----------------------------------------------------------------------


def _roll_words(roll: Roll) -> str:
    faces = [str(die) for die in roll.dice]
    if roll.action is not None:
        faces.append(text(f"printable.face.{roll.action}"))
    return " ".join(faces)


def _guided(lesson: Lesson, seed: int) -> tuple[tuple[tuple[str, str, str], ...], tuple[str, ...], tuple[Answer, ...]]:
    """The guided game's dice, the labels after its setup, and its questions answered on the star's line."""
    scenario = lesson.scenario
    assert scenario is not None  # only lessons with designed dice come here
    game = guided_game(lesson, seed)
    dice: list[tuple[str, str, str]] = []
    while game.phase == "setup":  # the lesson fills the labels itself: the first choice, as the page does
        number = len(dice) + 1
        dice.append((text("printable.setup_roll", number=number), _roll_words(game.roll()), ""))
        game.play(game.legal_moves()[0])
    labels = tuple(
        text(
            "printable.labels", caterpillar=name, labels=" ".join(str(v) for v in game.state.labels[i * 4 : i * 4 + 4])
        )
        for i, name in enumerate(CATERPILLARS)
    )
    kinds = [step.question for step in lesson.steps if step.question and step.question != "fly"]
    answers: list[Answer] = []
    before: list[Game] = []  # the game at the start of each round, on the star's line
    while game.phase == "play":
        number = game.state.round
        roll = game.roll()
        led = text("printable.led" if number in scenario.led else "printable.free")
        dice.append((text("printable.round", number=number), _roll_words(roll), led))
        before.append(Game.from_json(game.to_json()))
        if number <= len(kinds):
            kind = kinds[number - 1]
            question = _question(kind, game.state, roll)
            fixed = all(r in scenario.led for r in range(1, number)) or _same_after_free_round(game, before, kind)
            answers.append(Answer(dice[-1][0], question.text, _answer_words(question), fixed))
        game.play(best_move(game.state, roll))
    fly = ask_fly(game.state)
    answers.append(
        Answer(text("printable.at_end"), fly.text, _answer_words(fly), set(scenario.led) >= set(range(1, ROUNDS + 1)))
    )
    return tuple(dice), labels, tuple(answers)


def _question(kind: str, state: State, roll: Roll) -> Question:
    if kind == "boxes":
        return ask_boxes(state, roll)
    if kind == "zero":
        return ask_zero(state, roll)
    best = best_move(state, roll)
    if kind == "bonus":
        return ask_bonus(state, roll, best, CHILD_MARGIN)
    return ask_split(state, roll, best.slot)


def _same_after_free_round(game: Game, before: list[Game], kind: str) -> bool:
    """Whether a question of ``kind`` this round has one answer whatever the pupil chose in the round before
    (only for a question the engine answers alone, and only when that round is the one free round)."""
    if kind not in CHEAP_KINDS or len(before) != 2:
        return False
    start = before[0]
    answers = set()
    for move in start.legal_moves():
        if not isinstance(move, Move):
            return False
        after = Game.from_json(start.to_json())
        after.play(move)
        answers.add(_question(kind, after.state, after.roll()).correct)
    return len(answers) == 1


def _answer_words(question: Question) -> str:
    labels = {option.id: option.label for option in question.options}
    if question.kind == "split":  # the dice that make the score: "2+3"
        return text("printable.either").join(key.replace("+", " + ") for key in sorted(question.correct))
    if question.kind == "boxes" and not question.correct:
        return text("printable.no_box")
    if question.kind in ("bonus", "zero") and len(question.correct) > 1:
        return text("printable.both_right")
    ordered = [option.id for option in question.options if option.id in question.correct]
    return text("printable.either" if question.kind == "fly" else "printable.and").join(labels[i] for i in ordered)


# -- rules cards ---------------------------------------------------------------------------

#: The lessons' own words for the rules of each level, in the order a rules card reads them.
LEVEL_RULES = {
    "beginner": ("printable.rules.sheet", "lessons.beginner.intro.body", "printable.rules.zero"),
    "intermediate": ("printable.rules.sheet", "lessons.intermediate.intro.body", "printable.rules.zero"),
    "advanced": (
        "printable.rules.sheet",
        "lessons.intermediate.intro.body",
        "printable.rules.zero",
        "lessons.advanced.intro.body",
    ),
    "expert": (
        "printable.rules.sheet",
        "lessons.intermediate.intro.body",
        "printable.rules.zero",
        "lessons.advanced.intro.body",
        "lessons.expert.intro.body",
    ),
}


def _caterpillars_rules(lesson: Lesson) -> tuple[str, ...]:
    keys = LEVEL_RULES[lesson.level]
    if lesson.name == "00-setup":
        keys = ("printable.rules.sheet", "printable.rules.setup", "printable.rules.variation")
    end = "lessons.common.score_bonus.body" if lesson.level in ("advanced", "expert") else "lessons.common.score.body"
    return tuple(text(key) for key in (*keys, "printable.rules.rounds", end))


def _raupe_rules(table: TableSetup) -> tuple[str, ...]:
    """The rules a lesson's table deals, in the class's words."""
    keys = ["printable.raupe.deal"]
    if not table.extras:
        keys.append(f"printable.raupe.match_{table.mode}")
    else:
        keys += ["printable.raupe.match", "printable.raupe.change"]
    if table.extras and table.butterflies:
        keys.append("printable.raupe.butterfly")
    if table.extras and table.aphids:
        keys.append("printable.raupe.aphid")
    if "mistake" in table.calls:
        keys += ["printable.raupe.mistake", "printable.raupe.false_call"]
    keys.append("printable.raupe.win")
    return tuple(text(key) for key in keys)


# -- the page ------------------------------------------------------------------------------

#: Fits A4 (210 × 297 mm) and Letter (216 × 279 mm): 12 mm margins leave 186 × 255 mm on either paper.
PRINT_CSS = """
@page { size: auto; margin: 12mm; }
body { font-family: sans-serif; font-size: 11pt; line-height: 1.35; color: #000; background: #fff;
       max-width: 186mm; margin: 1rem auto; padding: 0 0.5rem; }
h1 { font-size: 18pt; margin: 0 0 0.2rem; }
h2 { font-size: 13pt; margin: 1rem 0 0.3rem; break-after: avoid; }
.about { margin: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #666; padding: 0.15rem 0.4rem; text-align: left; vertical-align: top; }
tr { break-inside: avoid; }
.dice td:nth-child(2) { font-size: 13pt; font-weight: bold; letter-spacing: 0.1em; white-space: nowrap; }
ol { margin: 0.2rem 0 0 1.4rem; padding: 0; columns: 2; column-gap: 2rem; }
.card { break-before: page; border: 3px solid #000; border-radius: 12px; padding: 0.8rem 1.2rem; }
.card h2 { font-size: 20pt; margin-top: 0; }
.card li { font-size: 15pt; margin: 0.35rem 0; }
.card ul { padding-left: 1.4rem; }
.toolbar { margin: 0.5rem 0 1rem; }
.toolbar button { font-size: 1rem; min-height: 44px; padding: 0 1rem; }
@media print { .toolbar { display: none; } body { margin: 0; padding: 0; } }
"""


def page_html(sheet: LessonSheet) -> str:
    """The page as HTML: no script but the Print button's one line, no file from elsewhere."""
    with language(sheet.lang):
        seed, button = text("printable.seed", seed=sheet.seed), text("printable.print")
        parts = [
            f'<h1 data-testid="print-title">{escape(sheet.title)}</h1>',
            f'<p class="about">{escape(sheet.age)} · {escape(sheet.learns)} · {escape(seed)}</p>',
            f'<p class="toolbar"><button type="button" onclick="window.print()">{escape(button)}</button></p>',
        ]
        if sheet.plan:
            parts.append(f"<h2>{escape(text('printable.plan'))}</h2>")
            parts.append("<ol>" + "".join(f"<li>{escape(line)}</li>" for line in sheet.plan) + "</ol>")
        if sheet.dice:
            parts.append(f"<h2>{escape(text('printable.dice'))}</h2>")
            if sheet.labels:
                parts.append(f'<p class="about">{escape(" · ".join(sheet.labels))}</p>')
            rows = "".join(
                f"<tr><td>{escape(when)}</td><td>{escape(dice)}</td><td>{escape(led)}</td></tr>"
                for when, dice, led in sheet.dice
            )
            head = "".join(
                f"<th>{escape(text(key))}</th>" for key in ("printable.when", "printable.die", "printable.led_head")
            )
            parts.append(f'<table class="dice" data-testid="print-dice"><tr>{head}</tr>{rows}</table>')
        if sheet.answers:
            parts.append(f"<h2>{escape(text('printable.answers'))}</h2>")
            head = "".join(
                f"<th>{escape(text(key))}</th>" for key in ("printable.when", "printable.question", "printable.answer")
            )
            fixed, on_line = text("printable.fixed"), text("printable.on_line")
            rows = "".join(
                f"<tr><td>{escape(a.when)}</td><td>{escape(a.question)}</td><td><strong>{escape(a.answer)}</strong>"
                f"<br><small>{escape(fixed if a.same_for_all else on_line)}</small></td></tr>"
                for a in sheet.answers
            )
            parts.append(f'<table data-testid="print-answers"><tr>{head}</tr>{rows}</table>')
        items = "".join(f"<li>{escape(line)}</li>" for line in sheet.rules)
        card = f'<section class="card" data-testid="print-rules"><h2>{escape(sheet.rules_title)}</h2>'
        parts.append(f"{card}<ul>{items}</ul></section>")
        title = escape(text("printable.page_title", title=sheet.title))
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(sheet.lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{PRINT_CSS}</style></head><body>{''.join(parts)}</body></html>\n"
    )


def lesson_names() -> tuple[str, ...]:
    """Every lesson with a printed page: the gallery's.

    >>> lesson_names()[:2]
    ('00-setup', '01-beginner')
    """
    return tuple(GALLERY)
