"""A teacher's lesson file (issue 44): the first lesson of docs/AUTHORING.md is fine as it is copied, and every
wrong lesson is refused in one line naming the step, by the reader or by the engine's check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.cli import main
from caterpillar_learn.lessons import files

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "AUTHORING.md"


def first_lesson() -> str:
    """The first lesson of the guide, as a teacher copies it."""
    found = re.search(r"```toml\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert found, "docs/AUTHORING.md starts with a lesson in a ```toml block"
    return found.group(1)


def test_the_guides_first_lesson_is_fine_as_copied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copied = tmp_path / "doubles.toml"
    copied.write_text(first_lesson(), encoding="utf-8")
    assert main(["lesson", "check", str(copied)]) == 0
    said = capsys.readouterr().out
    assert (
        said
        == 'doubles.toml: fine: "Doubles", beginner, age 5 and up, 5 steps (1 roll, 1 question, 1 place, 1 finish)\n'
    )
    assert said.strip() in GUIDE.read_text(encoding="utf-8")  # the guide quotes what the check says


def test_one_die_changed_is_refused_naming_the_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lesson = first_lesson().replace('roll = "2 2"', 'roll = "4 4"')  # no label 4 on the sheet: nothing fits
    changed = tmp_path / "doubles.toml"
    changed.write_text(lesson, encoding="utf-8")
    assert main(["lesson", "check", str(changed)]) == 1
    assert (
        capsys.readouterr().out
        == 'doubles.toml step 3: ask = "boxes" on 4 4, which fit no box: expected ask = "zero"\n'
    )


HEAD = 'format = 1\nlevel = "beginner"\ntitle = "T"\nage = 5\nline = "L"\n'
ROLL = '[[step]]\nroll = "2 6"\n'

#: Wrong lessons, each with what its one line must say.
WRONG = {
    "not TOML": ("format = = 1", "not TOML"),
    "an unknown key": (HEAD + "colour = 1\n" + ROLL, "key: got 'colour'"),
    "a later format": (HEAD.replace("format = 1", "format = 2") + ROLL, "format: got 2"),
    "another game": (HEAD + 'game = "raupe"\n' + ROLL, "game: got 'raupe'"),
    "an unknown level": (HEAD.replace("beginner", "master") + ROLL, "level: got 'master'"),
    "an unknown language": (HEAD + 'language = "xx"\n' + ROLL, "language: got 'xx'"),
    "an age too young": (HEAD.replace("age = 5", "age = 2") + ROLL, "age: got 2"),
    "no title": (HEAD.replace('title = "T"\n', "") + ROLL, "title: missing"),
    "an unknown label": (HEAD + 'labels = "1 2 6 3 / 6 2 1 5 / 5 1 2 7"\n' + ROLL, "labels: got '7'"),
    "eleven labels": (HEAD + 'labels = "1 2 6 3 / 6 2 1 5 / 5 1 2"\n' + ROLL, "labels: got 11 labels"),
    "no steps": (HEAD, "step: missing"),
    "a step's unknown key": (HEAD + '[[step]]\nroll_again = "2 6"\n', "step 1: key: got 'roll_again'"),
    "a step doing two things": (HEAD + '[[step]]\nroll = "2 6"\nask = "boxes"\n', "step 1: does roll and ask"),
    "an empty step": (HEAD + ROLL + "[[step]]\n", "step 2: says nothing and does nothing"),
    "a die of 7": (HEAD + '[[step]]\nroll = "2 7"\n', "step 1: roll = '2 7'"),
    "three dice at Beginner": (HEAD + '[[step]]\nroll = "2 6 3"\n', "step 1: roll = '2 6 3'"),
    "an unknown question": (HEAD + ROLL + '[[step]]\nask = "maybe"\n', "step 2: ask: got 'maybe'"),
    "nothing fits, but it does": (
        HEAD + ROLL + '[[step]]\nask = "zero"\n',
        'step 2: ask = "zero" claims nothing fits 2 6',
    ),
    "boxes, but nothing fits": (
        HEAD + '[[step]]\nroll = "4 4"\n[[step]]\nask = "boxes"\n',
        'step 2: ask = "boxes" on 4 4',
    ),
    "a question before any dice": (HEAD + '[[step]]\nask = "boxes"\n', 'step 1: ask = "boxes": no dice to ask about'),
    "who flies, before the end": (
        HEAD + ROLL + '[[step]]\nask = "fly"\n',
        'step 2: ask = "fly": asked before the game is over',
    ),
    "a split at Beginner": (HEAD + ROLL + '[[step]]\nask = "split"\n', 'step 2: ask = "split"'),
    "a bonus at Beginner": (HEAD + ROLL + '[[step]]\nask = "bonus"\n', 'step 2: ask = "bonus"'),
    "a choice whose right answer is not there": (
        HEAD + '[[step]]\nsay = "Which?"\nask = "choice"\noptions = ["A", "B"]\nright = 3\n',
        "step 1: right: got 3",
    ),
    "a choice with the same answer twice": (
        HEAD + '[[step]]\nsay = "Which?"\nask = "choice"\noptions = ["A", "A"]\nright = 1\n',
        "step 1: options: two answers are the same",
    ),
    "a choice of one": (
        HEAD + '[[step]]\nsay = "Which?"\nask = "choice"\noptions = ["A"]\nright = 1\n',
        "step 1: options: got",
    ),
    "a choice without its question": (
        HEAD + '[[step]]\nask = "choice"\noptions = ["A", "B"]\nright = 1\n',
        "step 1: say: missing",
    ),
    "too many words for a five-year-old": (
        HEAD + '[[step]]\nsay = "' + "word " * 41 + '"\n',
        "step 1: 41 words, expected at most 40",
    ),
    "a lead without a place": (HEAD + '[[step]]\nroll = "2 6"\nlead = true\n', "step 1: lead: only a step with place"),
    "place = false": (HEAD + ROLL + "[[step]]\nplace = false\n", "step 2: place: got False"),
}


def refused_in_one_line(source: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``lesson check`` on a file of ``source`` exits 1 with one line, of the file, saying ``said``; no traceback."""
    path = tmp_path / "wrong.toml"
    path.write_text(source, encoding="utf-8")
    assert main(["lesson", "check", str(path)]) == 1
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wrong.toml") and said in lines[0], out.out
    assert "Traceback" not in out.err + out.out


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_lesson_is_refused_in_one_line(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused_in_one_line(*WRONG[name], tmp_path, capsys)


def test_several_files_each_get_their_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(first_lesson(), encoding="utf-8")
    bad.write_text(WRONG["a die of 7"][0], encoding="utf-8")
    assert main(["lesson", "check", str(good), str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["good.toml", "bad.toml step 1"]


def test_a_question_after_too_many_ways_asks_for_the_rounds_before_it_to_be_led(
    monkeypatch: pytest.MonkeyPatch, solve_cache: Path
) -> None:
    monkeypatch.setattr(files, "MOST_LINES", 3)  # the limit, small: two free rounds reach more positions
    rolls = "".join(f'[[step]]\nroll = "{dice}"\n[[step]]\nplace = true\n' for dice in ["2 6", "1 5"])
    late = '[[step]]\nroll = "1 6"\n[[step]]\nask = "boxes"\n'
    free = files.parse(HEAD + rolls + late, "late.toml")
    assert files.check(free) == ['late.toml step 6: ask = "boxes": more than 3 ways to reach it, '
                                 "expected lead = true on the places before it"]  # fmt: skip
    led = files.parse(HEAD + rolls.replace("place = true", "place = true\nlead = true") + late, "late.toml")
    assert files.check(led) == []  # one way: the helper's move each round


VALUES = st.one_of(
    st.integers(-5, 2**33), st.booleans(), st.text(max_size=12), st.lists(st.text(max_size=5), max_size=3)
)
KEYS = st.sampled_from([*files.LESSON_KEYS, *files.STEP_KEYS, "x"])


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return str(value)


@st.composite
def lesson_sources(draw: st.DrawFn) -> str:
    """TOML close to a lesson: the lesson's keys and the steps' keys with values of any kind, or any text."""
    if draw(st.booleans()):
        return draw(st.text(max_size=200))
    head = draw(st.dictionaries(KEYS, VALUES, max_size=8))
    steps = draw(st.lists(st.dictionaries(KEYS.filter(lambda key: key != "step"), VALUES, max_size=4), max_size=4))
    lines = [f"{key} = {toml_value(value)}" for key, value in head.items() if key != "step"]
    for step in steps:
        lines.append("[[step]]")
        lines.extend(f"{key} = {toml_value(value)}" for key, value in step.items())
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(lesson_sources())
def test_any_toml_is_read_or_refused_in_one_line_never_a_crash(source: str) -> None:
    try:
        lesson = files.parse(source, "any.toml")
    except files.LessonFileError as error:
        assert "\n" not in str(error) and str(error).startswith("any.toml")
        return
    for problem in files.check(lesson):
        assert "\n" not in problem and problem.startswith("any.toml step ")


def test_a_notebook_is_written_beside_a_lesson_that_is_fine_and_plays_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    good, bad = tmp_path / "doubles.toml", tmp_path / "bad.toml"
    good.write_text(first_lesson(), encoding="utf-8")
    bad.write_text(first_lesson().replace('roll = "2 2"', 'roll = "2 7"'), encoding="utf-8")
    assert main(["lesson", "notebook", str(good), str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "doubles.toml: wrote doubles.ipynb: open it in JupyterLab or Voila, or serve its folder"
    assert lines[-1] == "bad.toml: no notebook written: mend the problems above first"
    assert not (tmp_path / "bad.ipynb").exists()
    book = json.loads((tmp_path / "doubles.ipynb").read_text(encoding="utf-8"))
    assert 'CaterpillarsLesson.from_file("doubles.toml"' in "".join(book["cells"][-1]["source"])
    assert main(["lesson", "notebook", str(good)]) == 0
    assert "is there already: kept" in capsys.readouterr().out


def test_the_notebooks_cells_play_the_lesson_from_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    (tmp_path / "doubles.toml").write_text(first_lesson(), encoding="utf-8")
    assert main(["lesson", "notebook", str(tmp_path / "doubles.toml")]) == 0
    book = json.loads((tmp_path / "doubles.ipynb").read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)  # a kernel runs in its notebook's folder
    names: dict[str, object] = {}
    for cell in book["cells"][1:]:
        exec("".join(cell["source"]), names)
    lesson = names["CaterpillarsLesson"]("doubles.toml", seed=names["SEED"], lang=names["LANG"])  # type: ignore[operator]
    assert lesson.lesson["heading"] == "Doubles" and lesson.lang == "en"


def test_the_lesson_list_gives_a_teachers_lesson_its_own_card_and_a_broken_one_its_name(tmp_path: Path) -> None:
    from caterpillar_learn.ui.hosting.gallery_page import lessons_beside, tree_namespace

    (tmp_path / "doubles.toml").write_text(first_lesson(), encoding="utf-8")
    (tmp_path / "broken.toml").write_text(first_lesson().replace('roll = "2 2"', 'roll = "2 9"'), encoding="utf-8")
    listing = [{"type": "notebook", "name": f"{n}.ipynb", "path": f"{n}.ipynb"} for n in ("doubles", "broken", "x")]
    page = tree_namespace(listing, "/", "", "lang=de", lesson_file=lessons_beside(str(tmp_path)))
    own, broken, plain = page["others"]
    assert 'data-lesson="doubles"' in own and "Ab 5 Jahren" in own and "<svg" in own and "Doubles" in own
    assert 'data-lesson="broken"' in broken and "<svg" not in broken, "a lesson with a problem: its name only"
    assert "<svg" not in plain
    assert lessons_beside(None)("doubles.ipynb") is None


def test_the_schema_is_the_one_the_script_writes_and_agrees_with_the_check(tmp_path: Path) -> None:
    """docs/lesson.schema.json is what scripts/write_lesson_schema.py writes; the guide's lesson is valid by it,
    and a wrong key, a wrong level and a step doing two things are not (as the check says too)."""
    import json
    import tomllib

    import jsonschema

    from caterpillar_learn.lessons.schema import schema

    shipped = json.loads((ROOT / "docs" / "lesson.schema.json").read_text(encoding="utf-8"))
    assert shipped == schema(), "run scripts/write_lesson_schema.py and commit docs/lesson.schema.json"
    validator = jsonschema.Draft202012Validator(shipped)
    good = tomllib.loads(first_lesson())
    assert not list(validator.iter_errors(good))
    two_things = {**good, "step": [{"roll": "2 2", "place": True}]}
    for wrong in ({**good, "colour": "red"}, {**good, "level": "master"}, two_things):
        assert list(validator.iter_errors(wrong)), wrong
        path = tmp_path / "wrong.toml"
        path.write_text(_toml(wrong), encoding="utf-8")
        assert main(["lesson", "check", str(path)]) == 1


def _toml(data: dict[str, object]) -> str:
    """A lesson's data written back as TOML (the few shapes a lesson has)."""
    import json

    lines = [f"{key} = {json.dumps(value)}" for key, value in data.items() if key != "step"]
    for step in data["step"]:  # type: ignore[attr-defined]
        lines += ["[[step]]", *(f"{key} = {json.dumps(value)}" for key, value in step.items())]
    return "\n".join(lines) + "\n"


def test_a_lesson_built_in_a_cell_is_the_guides_lesson_and_plays_and_saves(tmp_path: Path) -> None:
    """The guide's lesson built with caterpillar_learn.lessons.writing is the file's lesson, checked the same
    way; it plays on a board, is saved as a file that lesson check finds fine, and reads back the same."""
    from caterpillar_learn.lessons import writing as w
    from caterpillar_learn.ui.caterpillars import CaterpillarsLesson

    guide = files.parse(first_lesson(), "Doubles")
    built = w.lesson(
        "Doubles",
        level="beginner",
        age=5,
        line=guide.line,
        steps=[
            w.say(guide.steps[0].say, title="Doubles"),
            w.roll("2 2", say="Tap Roll.", title="Roll"),
            w.ask("boxes", title="Where can they go?"),
            w.place(say="Tap a box with a star.", title="Choose"),
            w.finish(say="Play the game to its end.", title="Play on"),
        ],
    )
    assert built == guide
    board = CaterpillarsLesson(built)
    assert board.lesson["heading"] == "Doubles" and board.lesson["count"] == 5
    saved = w.save(built, tmp_path / "doubles.toml")
    assert main(["lesson", "check", str(saved)]) == 0
    assert files.read(str(saved)).steps == guide.steps
    wrong = w.lesson("Zero", level="beginner", age=8, line="L", steps=[w.roll("2 6"), w.place()])
    with pytest.raises(files.LessonFileError, match=r"^Zero step 2: ask"):
        w.lesson("Zero", level="beginner", age=8, line="L", steps=[*wrong.steps[:1], w.ask("zero")])
    steps = [w.choice("Which flies?", ["the middle one", "the longest"], 1), w.roll("3 4 5")]
    mine = w.lesson("Mine", level="intermediate", age=9, line="L", labels="1 2 3 4 / 5 6 7 8 / 9 10 11 12", steps=steps)
    assert files.parse(w.to_toml(mine), "Mine") == mine and mine.labels[-1] == 12


@pytest.mark.parametrize(("level", "lang"), [("beginner", "en"), ("expert", "de")])
def test_a_game_becomes_a_lesson_that_passes_the_check_and_replays_its_dice(
    level: str, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import random

    from caterpillar_learn.caterpillars import Game
    from caterpillar_learn.lessons.caterpillars import guided_game
    from caterpillar_learn.lessons.files import lesson_of
    from caterpillar_learn.ui.caterpillars import CaterpillarsLesson

    from ..ui.test_lesson_follows import follow

    played = Game(level, seed=11)
    rng = random.Random(4)
    while not played.is_over:
        played.play(rng.choice(played.legal_moves()))
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"kind": "caterpillars-lesson", "engine": played.to_json()}), encoding="utf-8")
    out = tmp_path / "again.toml"
    assert main(["lesson", "from-game", str(record), "--out", str(out), "--language", lang, "--age", "8"]) == 0
    assert capsys.readouterr().out.startswith("again.toml: written: 12 rounds of the game's dice")
    assert main(["lesson", "check", str(out)]) == 0
    made = files.read(str(out))
    setup = played.turns - 12
    assert made.labels == played.state.labels and made.language == lang
    assert guided_game(lesson_of(made)).rolls[:12] == played.rolls[setup:], "the lesson's dice are the game's"
    board = CaterpillarsLesson(str(out))
    follow(board, random.Random(1))  # a child who does what is marked, to the lesson's end
    assert board.session.game.rolls[:12] == played.rolls[setup:]
    if lang == "de":
        assert board.lesson["heading"] == "Ein Spiel zum Nachspielen" and board.lang == "de"
    record.write_text('{"engine": {"format": 1, "level": "beginner", "rolls": 7}}', encoding="utf-8")
    assert main(["lesson", "from-game", str(record), "--out", str(tmp_path / "bad.toml")]) == 2
    said = capsys.readouterr().err.strip()
    assert "\n" not in said and "the game's record" in said and not (tmp_path / "bad.toml").exists()
    assert main(["lesson", "from-game", str(record), "--out", str(out)]) == 2
    assert "is there already" in capsys.readouterr().err


def test_a_game_played_at_the_terminal_leaves_its_record_for_from_game(tmp_path: Path) -> None:
    import io
    import json

    from caterpillar_learn.caterpillars import Game
    from caterpillar_learn.caterpillars.cli import play
    from caterpillar_learn.caterpillars.levels import Level

    record = tmp_path / "game.json"
    assert play(Level.BEGINNER, 3, False, io.StringIO("1\n" * 40), io.StringIO(), str(record)) == 0
    game = Game.from_json(json.loads(record.read_text(encoding="utf-8")))
    assert game.is_over
    assert main(["lesson", "from-game", str(record), "--out", str(tmp_path / "again.toml")]) == 0
    assert main(["lesson", "check", str(tmp_path / "again.toml")]) == 0
