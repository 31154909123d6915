"""A teacher's Räuber Raupe lesson file (issue 44): the guide's Räuber Raupe lesson is fine as copied and plays at
its table in its own words; every wrong one is refused in one line naming the field, by the reader or by the
engine's check; any TOML shaped like one is read or refused, never a crash."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.cli import main
from caterpillar_learn.lessons import files, raupe_files
from caterpillar_learn.lessons.raupe import CALLS
from caterpillar_learn.raupe import Play
from caterpillar_learn.ui.raupe import RaupeWidget

from .test_files import refused_in_one_line

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "AUTHORING.md"


def raupe_lesson() -> str:
    """The guide's Räuber Raupe lesson, as a teacher copies it: the ```toml block under its heading."""
    found = re.search(
        r"^## A Räuber Raupe lesson\n(?:(?!^## ).)*?```toml\n(.*?)```", GUIDE.read_text("utf-8"), re.S | re.M
    )
    assert found, 'docs/AUTHORING.md has a section "A Räuber Raupe lesson" with a lesson in a ```toml block'
    return found.group(1)


def copied(folder: Path, source: str | None = None, name: str = "change.toml") -> Path:
    path = folder / name
    path.write_text(raupe_lesson() if source is None else source, encoding="utf-8")
    return path


def answered(widget: RaupeWidget) -> RaupeWidget:
    """``widget`` with "Which of your cards fit?" answered right, as a learner would."""
    question = widget.session.quiz.question
    assert question is not None, "the guide's lesson asks its question first"
    for option in sorted(question.correct):
        widget.act("answer", option=option)
    widget.act("check")
    return widget


def test_the_guides_raupe_lesson_is_fine_as_copied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = re.search(r"```toml\n(.*?)```", GUIDE.read_text("utf-8"), re.S)
    assert first and raupe_lesson() != first.group(1), "the block under its heading, not the guide's first lesson"
    assert main(["lesson", "check", str(copied(tmp_path))]) == 0
    said = capsys.readouterr().out
    assert said == 'change.toml: fine: "Change cards", raupe, shape, 2 players, age 6 and up\n'
    assert said.strip() in GUIDE.read_text("utf-8")  # the guide quotes what the check says


def test_it_plays_at_its_own_table_in_its_own_words(tmp_path: Path) -> None:
    widget = RaupeWidget(str(copied(tmp_path)))
    lesson = raupe_files.parse(raupe_lesson(), "change.toml")
    assert widget.lesson_text == {
        "title": "Change cards",
        "intro": list(lesson.intro),
        "try_title": "Try this",
        "try_items": list(lesson.try_this),
    }
    assert widget.lesson_text["intro"][0] == "A change card has a sky on it."
    setup = widget.session.setup
    assert (setup.players, setup.mode, setup.speed, setup.calls) == (2, "shape", 0.7, ("shape", "colour"))
    assert not setup.bot_mistakes and setup.question and widget.lang == "en"
    dealt = [card for hand in widget.session.game.state.hands for card in hand]
    assert any(card.is_change for card in dealt), "change cards are dealt"
    assert not any(card.is_butterfly for card in setup.deck() + tuple(dealt)), "no butterflies (butterflies = false)"
    assert not any(side.aphid for card in setup.deck() for side in card.sides), "no aphids (aphids = false)"
    assert widget.session.seed == 7 and widget.lesson == "change"
    assert ":raupe-lesson:change:7" in widget.saved["key"], "the file's stem names the lesson's saves"
    answered(widget).act("start")
    assert widget.table["running"], widget.message
    for _ in range(40):
        widget.act("tick", dt=1.0)
    bots = [event for event in widget.session.game.events if isinstance(event, Play) and event.player == 1]
    assert bots, "the bot plays its cards as the clock runs"
    assert widget.table["opponents"][0]["cards"] < len(widget.session.game.initial.hands[1])
    again = widget.session.fresh()  # New game and Start over keep the lesson's own words
    assert again.views()["lesson_text"] == widget.lesson_text and again.setup == setup
    assert RaupeWidget(str(copied(tmp_path)), seed=3).session.seed == 3


def test_a_german_file_starts_the_table_in_german(tmp_path: Path) -> None:
    german = (
        raupe_lesson()
        .replace('language = "en"', 'language = "de"')
        .replace('"A change card has a sky on it."', '"Eine Wechselkarte hat einen Himmel."')
    )
    path = copied(tmp_path, german)
    widget = RaupeWidget(str(path))
    assert widget.lang == "de" and widget.table["mode_text"] == "Form"
    assert widget.lesson_text["intro"][0] == "Eine Wechselkarte hat einen Himmel."
    assert widget.lesson_text["try_title"] == "Probier das aus"
    assert RaupeWidget(str(path), lang="en").lang == "en", "lang= says otherwise"


def test_a_notebook_plays_the_file_from_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copied(tmp_path)
    assert main(["lesson", "notebook", str(path)]) == 0
    assert (
        capsys.readouterr().out
        == "change.toml: wrote change.ipynb: open it in JupyterLab or Voila, or serve its folder\n"
    )
    book = json.loads((tmp_path / "change.ipynb").read_text(encoding="utf-8"))
    *imports, shown = "".join(book["cells"][-1]["source"]).splitlines()
    assert shown == 'RaupeWidget.from_file("change.toml", seed=SEED, lang=LANG, voice=VOICE)'
    assert "Räuber Raupe, shape" in "".join(book["cells"][0]["source"])
    monkeypatch.chdir(tmp_path)  # a kernel runs in its notebook's folder
    names: dict[str, object] = {}
    exec("".join(book["cells"][1]["source"]) + "\n" + "\n".join(imports), names)
    widget = eval(shown, names)
    assert isinstance(widget, RaupeWidget) and widget.lesson_text["title"] == "Change cards"
    assert widget.voice is True, "a lesson for a child of 6 reads aloud by itself"


def test_a_file_the_engine_refuses_is_one_line_in_place_of_the_table(tmp_path: Path) -> None:
    path = copied(tmp_path, raupe_lesson().replace('calls = ["shape", "colour"]', 'calls = ["shape"]'))
    with pytest.raises(files.LessonFileError) as refused:
        RaupeWidget(str(path))
    assert str(refused.value) == f'{path}: calls: this deck has change cards, expected "colour" in calls ' + (
        "(a change card's player calls the new mode)"
    )
    shown = RaupeWidget.from_file(path)
    assert type(shown).__name__ == "HTML" and 'data-testid="lesson-refused"' in shown.value
    assert "calls: this deck has change cards" in shown.value and "\n" not in shown.value
    assert "a file whose name ends in .toml" in RaupeWidget.from_file(tmp_path / "change.ipynb").value


def test_the_caterpillars_reader_points_a_raupe_lesson_to_its_table(tmp_path: Path) -> None:
    with pytest.raises(files.LessonFileError, match=r"^change\.toml: game: got 'raupe', expected caterpillars: a"):
        files.parse(raupe_lesson(), "change.toml")
    with pytest.raises(files.LessonFileError, match=r"^change\.toml: mode: got 'size'"):
        files.parse(raupe_lesson().replace('mode = "shape"', 'mode = "size"'), "change.toml")
    with pytest.raises(files.LessonFileError, match=r"game: missing, expected \"raupe\""):
        raupe_files.parse('format = 1\nlevel = "beginner"\n', "doubles.toml")


def test_our_first_lesson_written_as_a_file_is_its_table() -> None:
    """Lesson 10 ("Shape!") as a teacher writes it: the same table as ours, with no call and no slipping bots."""
    from dataclasses import asdict

    from caterpillar_learn.lessons import get_table

    source = RHEAD + "change_cards = false\nquestion = true\nhints = false\n"
    written, ours = raupe_files.table_of(raupe_files.parse(source, "shape.toml")), get_table("10-raupe-shape")
    assert written.deck() == ours.deck()
    unsaid = ("butterflies", "aphids")  # ours leaves them at their defaults: without change cards nothing deals them
    assert {k: v for k, v in asdict(written).items() if k not in unsaid} == {
        k: v for k, v in asdict(ours).items() if k not in unsaid
    }


RHEAD = 'format = 1\ngame = "raupe"\ntitle = "T"\nage = 5\nline = "L"\nmode = "shape"\nintro = ["Go."]\n'
PLAIN = RHEAD + "change_cards = false\n"

#: Wrong Räuber Raupe lessons, each with what its one line must say.
WRONG = {
    "not TOML": ('format = 1\ngame = "raupe"\nmode = = 1', "not TOML"),
    "a Caterpillars key": (RHEAD + 'level = "beginner"\n', "game: got 'raupe', expected caterpillars for a lesson"),
    "steps": (RHEAD + '[[step]]\nsay = "Hi"\n', "game: got 'raupe', expected caterpillars for a lesson with step"),
    "an unknown key": (RHEAD + "deal = 7\n", "key: got 'deal'"),
    "a later format": (RHEAD.replace("format = 1", "format = 2"), "format: got 2"),
    "no mode": (RHEAD.replace('mode = "shape"\n', ""), "mode: missing"),
    "a mode that is none": (RHEAD.replace('"shape"', '"size"'), "mode: got 'size'"),
    "five players": (RHEAD + "players = 5\n", "players: got 5"),
    "unknown bots": (RHEAD + 'bots = "master"\n', "bots: got 'master'"),
    "bots too fast": (RHEAD + "speed = 3.0\n", "speed: got 3.0"),
    "a speed in words": (RHEAD + 'speed = "fast"\n', "speed: got 'fast'"),
    "more cards than the deck": (RHEAD + "cards = 80\n", "cards: got 80"),
    "an unknown call": (RHEAD + 'calls = ["shape", "colour", "aphid", "hop"]\n', "calls: got 'hop'"),
    "a call twice": (RHEAD + 'calls = ["shape", "shape", "colour", "aphid"]\n', "calls: got a call twice"),
    "no intro": (RHEAD.replace('intro = ["Go."]\n', ""), "intro: missing"),
    "an empty intro line": (RHEAD.replace('["Go."]', '["Go.", " "]'), "intro: got ['Go.', ' ']"),
    "try in one line": (RHEAD + 'try = "Look."\n', "try: got 'Look.', expected a list in [ ]"),
    "an unknown language": (RHEAD + 'language = "xx"\n', "language: got 'xx'"),
    "an aphid call without aphids": (
        RHEAD + 'aphids = false\ncalls = ["shape", "colour", "aphid"]\n',
        'calls: "aphid" is taught, but this deck has no aphids',
    ),
    "a shape call without change cards": (PLAIN + 'calls = ["shape"]\n', 'calls: "shape" is taught, but this deck'),
    "change cards without their call": (
        RHEAD + 'aphids = false\ncalls = ["colour"]\n',
        'calls: this deck has change cards, expected "shape" in calls',
    ),
    "aphids without their call": (RHEAD + 'calls = ["shape", "colour"]\n', 'expected "aphid" in calls'),
    "butterflies without change cards": (PLAIN + "butterflies = true\n", "butterflies: true, but a deck without"),
    "a referee nobody lets call": (RHEAD + "referee = true\n", "referee: a referee calls the bots' mistakes"),
    "sloppy bots nobody lets call": (RHEAD + 'bots = "sloppy"\n', 'bots: "sloppy" bots slip'),
    "three players, two change cards": (
        RHEAD + 'players = 3\naphids = false\ncalls = ["shape", "colour"]\n',
        "players: 3 cannot be dealt this deck (change cards: got 2, expected at least one per player (3))",
    ),
    "a hand left empty": (PLAIN + "players = 4\ncards = 4\n", "cards: 4 caterpillar cards leave a hand empty"),
    "more cards than the deck without aphids": (
        RHEAD + 'aphids = false\ncards = 50\ncalls = ["shape", "colour"]\n',
        "cards: got 50, expected 0 (all) or 1 to 36",
    ),
    "too many words for a five-year-old": (
        RHEAD.replace('["Go."]', '["Go.", "' + "word " * 41 + '"]'),
        "intro 2: 41 words, expected at most 40 for a child of 5",
    ),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_raupe_lesson_is_refused_in_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused_in_one_line(*WRONG[name], tmp_path, capsys)


def test_the_guides_raupe_lesson_is_valid_by_the_schema_and_wrong_ones_are_not() -> None:
    import tomllib

    import jsonschema

    validator = jsonschema.Draft202012Validator(json.loads((ROOT / "docs" / "lesson.schema.json").read_text("utf-8")))
    good = tomllib.loads(raupe_lesson())
    assert not list(validator.iter_errors(good))
    for wrong in (
        {**good, "level": "beginner"},
        {**good, "bots": "master"},
        {**good, "speed": 3},
        {**good, "try": "x"},
    ):
        assert list(validator.iter_errors(wrong)), wrong


CHARACTERS = st.characters(exclude_categories=("Cs",))  # TOML has no lone surrogate: its text goes deeper
VALUES = st.one_of(
    st.integers(-5, 2**33),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(CHARACTERS, max_size=12),
    st.lists(st.sampled_from([*CALLS, "hop", ""]), max_size=5),
    st.lists(st.text(CHARACTERS, max_size=60), max_size=3),
)
#: A lesson's own keys three times as often as a key that refuses it at once ("game", a Caterpillars key, "x").
KEYS = st.sampled_from(
    [*[key for key in raupe_files.RAUPE_KEYS if key != "game"] * 3, "game", *raupe_files.CATERPILLARS_KEYS, "x"]
)


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return str(value)


@st.composite
def raupe_sources(draw: st.DrawFn) -> str:
    """TOML close to a Räuber Raupe lesson: the guide's, with keys left out and keys of any value put in."""
    import tomllib

    lesson = tomllib.loads(raupe_lesson())
    for key in draw(st.lists(st.sampled_from(sorted(set(lesson) - {"game"})), max_size=3)):
        lesson.pop(key, None)
    lesson.update(draw(st.dictionaries(KEYS, VALUES, max_size=4)))
    return "\n".join(f"{key} = {toml_value(value)}" for key, value in lesson.items()) + "\n"


@settings(max_examples=200, deadline=None)
@given(raupe_sources())
def test_any_raupe_shaped_toml_is_read_or_refused_never_a_crash(source: str) -> None:
    try:
        lesson = raupe_files.parse(source, "any.toml")
    except files.LessonFileError as error:
        assert "\n" not in str(error) and str(error).startswith("any.toml: ")
        return
    problems = raupe_files.check(lesson)
    for problem in problems:
        assert "\n" not in problem and problem.startswith("any.toml: ")
    if not problems:  # a lesson the check finds fine is dealt at its table
        table = raupe_files.table_of(lesson)
        assert table.players == lesson.players and len(table.deck()) > lesson.players
