"""The strategy insight, its figures, and the other facts the lessons and the teachers' guide state.

* ``docs/ENGINEERS.md`` quotes mean totals of simulated games: every number is
  simulated again here (same command, same seed), and its two sentences (best
  play lets one caterpillar go hungry and feeds the other two together;
  greedy play ends the most level) are checked against those numbers.
* Lesson 05 computes its own figures; its fixed sentences are checked for its
  seeded run, and for the next seeds a teacher may choose.
* The lab's computed sentences, the tie of the scoring, the butterfly's
  *may* and the shape words of the card game are checked against the engine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from statistics import fmean

import pytest

from caterpillar_learn.advice import STRATEGIES, simulate
from caterpillar_learn.caterpillars import Roll, State, legal_moves, score
from caterpillar_learn.cli import main
from caterpillar_learn.i18n import available_languages, language, text
from caterpillar_learn.raupe.cards import parse_side
from caterpillar_learn.ui.lab.report import run_lab
from caterpillar_learn.ui.lab.views import PAGE

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| (Beginner|Intermediate|Advanced|Expert) \| (\w+) \|((?: [\d.]+ \|){5})$", re.MULTILINE)

#: A level's figures: strategy -> (mean final, lowest, middle, highest, highest - lowest).
Figures = dict[str, tuple[float, float, float, float, float]]


def figures_of(level: str, games: int, seed: int) -> Figures:
    out = {}
    for strategy in STRATEGIES:
        result = simulate(level, strategy, games, seed)
        low, middle, high = result.finishes()
        out[strategy] = (result.mean, low, middle, high, result.spread)
    return out


def assert_the_insight(figures: Figures) -> None:
    """Best play lets one caterpillar go hungry and feeds the other two up together; greedy ends the most level."""
    mean, low, middle, high, _ = figures["hint"]
    assert mean == max(f[0] for f in figures.values()), "best play scores most"
    assert low == min(f[1] for f in figures.values()), "its lowest caterpillar is the hungriest"
    assert middle - low > 2 * (high - middle), "the middle one ends close to the highest, far above the lowest"
    spreads = {name: f[4] for name, f in figures.items()}
    assert min(spreads, key=spreads.__getitem__) == "greedy", spreads
    assert figures["greedy"][2] < middle, "greedy's middle caterpillar stays lower"


def guide_table() -> dict[str, Figures]:
    guide = (ROOT / "docs" / "ENGINEERS.md").read_text(encoding="utf-8")
    table: dict[str, Figures] = {}
    for level, strategy, cells in ROW.findall(guide):
        numbers = tuple(float(cell) for cell in cells.replace("|", " ").split())
        table.setdefault(level.lower(), {})[strategy] = numbers  # type: ignore[assignment]
    return table


def test_the_guide_quotes_the_simulated_figures() -> None:
    """docs/ENGINEERS.md: `caterpillar-learn simulate --level L --strategy S --games 2000 --seed 1`."""
    table = guide_table()
    assert set(table) == {"beginner", "intermediate"} and all(set(t) == set(STRATEGIES) for t in table.values())
    for level, quoted in table.items():
        simulated = figures_of(level, 2000, seed=1)
        for strategy, numbers in quoted.items():
            assert [f"{v:.1f}" for v in numbers] == [f"{v:.1f}" for v in simulated[strategy]], (level, strategy)


def test_the_guides_sentences_hold_for_its_figures() -> None:
    guide = (ROOT / "docs" / "ENGINEERS.md").read_text(encoding="utf-8")
    table = guide_table()
    for figures in table.values():
        assert_the_insight(figures)
    low = [table[level]["hint"][1] for level in ("beginner", "intermediate")]
    gap = [table[level]["hint"][3] - table[level]["hint"][2] for level in ("beginner", "intermediate")]
    said = " ".join(guide.split())
    assert f"({low[0]:.1f} at Beginner, {low[1]:.1f} at Intermediate)" in said
    assert f"({gap[0]:.1f} and {gap[1]:.1f} below it)" in said
    assert "Greedy play ends the most level" in said and "go hungry" in said


def lesson_parameters() -> tuple[str, int, int]:
    source = (ROOT / "lessons" / "05-strategy-lab.py").read_text(encoding="utf-8")
    level = re.search(r'^LEVEL = "(\w+)"$', source, re.MULTILINE)
    games = re.search(r"^GAMES = (\d+)$", source, re.MULTILINE)
    seed = re.search(r"^SEED = (\d+)$", source, re.MULTILINE)
    assert level and games and seed
    return level.group(1), int(games.group(1)), int(seed.group(1))


def test_lesson_five_says_what_its_run_shows() -> None:
    level, games, seed = lesson_parameters()
    source = (ROOT / "lessons" / "05-strategy-lab.py").read_text(encoding="utf-8")
    assert "LabWidget(LEVEL, games=GAMES, seed=SEED, run=True, lang=LANG, voice=VOICE)" in source  # the run checked
    said = [text(f"lessons.lab.page.{key}") for key in PAGE["shows"]]  # the lesson's words (the catalogue)
    assert said[0].startswith("Best play lets one caterpillar go hungry.")
    assert said[1].startswith("Greedy play ends the most level.")
    assert "strategies=" not in source  # every strategy runs, the hint strategy (best play) with them
    for chosen in range(seed, seed + 3):  # the lesson's seed, and the next ones a teacher may try
        assert_the_insight(figures_of(level, games, chosen))


def test_the_labs_sentences_are_computed_from_its_numbers() -> None:
    report = run_lab("beginner", ("random", "greedy", "hint"), games=60, seed=4)
    means = {name: fmean(values) for name, values in report.finals.items()}
    spread = {name: fmean(t[2] - t[0] for t in report.totals[name]) for name in report.finals}
    best = max(means, key=means.__getitem__)
    level = min(spread, key=spread.__getitem__)
    lows = fmean(t[0] for t in report.totals[best])
    middles = fmean(t[1] for t in report.totals[best])
    highs = fmean(t[2] for t in report.totals[best])
    assert report.insights() == [
        text("lessons.lab.best", strategy=best, mean=means[best]),
        text("lessons.lab.level", strategy=level, spread=spread[level]),
        text("lessons.lab.shape", strategy=best, below=middles - lows, above=highs - middles),
    ]
    html = report._repr_html_()
    for row in report.rows():
        assert f"<th scope='row'>{row.strategy}</th><td>{row.games}</td><td>{row.mean:.1f}</td>" in html


def test_simulate_keeps_each_games_totals_lowest_first() -> None:
    for level in ("beginner", "advanced"):
        result = simulate(level, "greedy", 30, seed=2)
        assert all(list(t) == sorted(t) for t in result.totals)
        bonus = [final - middle for final, (_, middle, _) in zip(result.finals, result.totals)]
        assert all(b == 0 for b in bonus) if level == "beginner" else all(0 <= b <= 6 for b in bonus)


def test_the_command_line_prints_the_three_means(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--level", "beginner", "--strategy", "hint", "--games", "300", "--seed", "1"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    low, middle, high = simulate("beginner", "hint", 300, seed=1).finishes()
    assert data["caterpillars"] == {"lowest": low, "middle": middle, "highest": high}
    assert data["spread"] == pytest.approx(high - low)


# -- words about the rules ---------------------------------------------------------------


def test_a_tie_names_the_best_choice_the_score_took() -> None:
    labels = (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1)
    state = State("advanced", labels, (2, 2, 3, 3, 2, 2, 3, 3, 4, 4, 4, 4), (1, 4, None))  # Alex, Bobby 10, Charlie 16
    result = score(state)
    assert result.flying == "Bobby" and result.final == 14  # striking Alex instead: 10 + 1
    line = next(line for line in result.explanation if "tie on 10" in line)
    assert "you choose" not in line and "Bobby flies" in line
    no_bonus = score(State("intermediate", labels, state.scores))
    line = next(line for line in no_bonus.explanation if "tie on 10" in line)
    assert "the score is the same either way" in line and no_bonus.final == 10


def test_the_butterfly_is_an_option_and_lesson_four_says_may() -> None:
    for lang in available_languages():  # the lesson's words (the catalogue: every language)
        with language(lang):
            assert ("may write" if lang == "en" else "darfst") in text("lessons.expert.intro.body")
    state = State.new("expert", (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1))
    ways = [way for move in legal_moves(state, Roll((2, 5, 6), "butterfly")) for way in move.ways]
    assert any(way.butterfly for way in ways) and any(not way.butterfly for way in ways)


def test_lesson_ten_uses_the_rule_books_shape_words() -> None:
    with language("en"):  # the lesson's words: its intro in the catalogue (its "How to play" panel)
        words = " ".join(text(f"raupe_lessons.intro.10-raupe-shape.{n}") for n in range(1, 8))
    assert "jagged, straight and round" in words and "Jagged is what the rule book calls square" in words
    assert "square segments" not in words  # the rule book's square is the jagged shape, not the straight one
    assert parse_side("square-red@round-green") == parse_side("jagged-red@round-green")
