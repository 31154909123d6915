"""The strategy lab widget without a browser: its controls, the run event and its checks, "Running…"."""

from __future__ import annotations

from typing import Any

import pytest

from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.i18n import language, text
from caterpillar_learn.ui.lab import LabWidget, controller
from caterpillar_learn.ui.lab.report import LabReport


def run(widget: LabWidget, **fields: Any) -> None:
    widget.act("run", **{"level": "beginner", "strategies": ["greedy", "hint"], "games": 20, **fields})


def test_the_controls_start_with_best_play_ticked_and_nothing_run() -> None:
    widget = LabWidget("intermediate", games=200, seed=3)
    view = widget.lab
    assert view["status"] == "idle" and view["rows"] == [] and view["svg"] == ""
    controls = view["controls"]
    assert controls["level"] == "intermediate" and controls["games"] == 200
    assert (controls["min_games"], controls["max_games"]) == controller.GAMES
    assert [s["name"] for s in controls["strategies"] if s["checked"]] == ["random", "greedy", "median", "hint"]
    assert [lv["label"] for lv in controls["levels"]] == ["Beginner", "Intermediate", "Advanced", "Expert"]
    assert all("{" not in value or "}" in value for value in widget.strings.values())


def test_a_run_draws_the_histogram_the_table_and_what_it_shows() -> None:
    widget = LabWidget()
    run(widget, strategies=["hint", "greedy"], games=40)
    view = widget.lab
    assert widget.message == "" and view["status"] == "ready"
    assert [row["strategy"] for row in view["rows"]] == ["greedy", "hint"]  # always in the same order
    for row in view["rows"]:
        assert row["games"] == 40 and row["lowest"] <= row["middle"] <= row["highest"]
        assert row["spread"] == pytest.approx(row["highest"] - row["lowest"], abs=0.11)  # each to one decimal
    assert view["svg"].startswith("<svg") and len(view["insights"]) == 3
    assert [s["name"] for s in view["controls"]["strategies"] if s["checked"]] == ["greedy", "hint"]
    assert view["status_text"] == text("lessons.lab.ui.ready", games=40, level="Beginner", seed=1)
    first = view["rows"]
    run(widget, strategies=["hint", "greedy"], games=40)
    assert widget.lab["rows"] == first  # seeded: the same choices play the same games


@pytest.mark.parametrize(
    ("fields", "word"),
    [
        ({"games": 19}, "games"),
        ({"games": 2001}, "games"),
        ({"games": "many"}, "games"),
        ({"games": 10**400}, "games"),
        ({"games": True}, "games"),
        ({"strategies": []}, "strategies"),
        ({"strategies": ["hint", "hint"]}, "strategies"),
        ({"strategies": "hint"}, "strategies"),
        ({"strategies": ["clever"]}, "strategies"),
        ({"level": "master"}, "level"),
        ({"level": None}, "level"),
    ],
)
def test_a_bad_run_says_why_in_one_line_and_keeps_the_last_report(fields: dict[str, Any], word: str) -> None:
    widget = LabWidget()
    run(widget)
    before = widget.lab
    run(widget, **fields)
    assert widget.message.startswith(f"{word}:") and "\n" not in widget.message and len(widget.message) <= 300
    assert widget.lab == before
    run(widget)
    assert widget.message == ""


def test_running_shows_first_then_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    widget = LabWidget()
    seen = []

    def slow(level: str, strategies: tuple[str, ...], games: dict[str, int], seed: int) -> LabReport:
        seen.append((widget.lab["status"], widget.lab["status_text"]))
        return LabReport(level, {name: [10] * games[name] for name in strategies}, seed)

    monkeypatch.setattr(controller, "run_lab", slow)
    run(widget)
    assert seen == [("running", text("lessons.lab.ui.running"))]
    assert widget.lab["status"] == "ready"


def test_a_slow_strategy_plays_fewer_games_and_the_lab_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = {}

    def quick(level: str, strategies: tuple[str, ...], games: dict[str, int], seed: int) -> LabReport:
        asked.update(games)
        return LabReport(level, {name: [10] * games[name] for name in strategies}, seed)

    monkeypatch.setattr(controller, "run_lab", quick)
    widget = LabWidget()
    run(widget, level="expert", strategies=["greedy", "hint"], games=500)
    cap = controller.SLOW_GAMES[(widget.session.level, "hint")]
    assert asked == {"greedy": 500, "hint": cap}
    assert widget.lab["notes"] == [text("lessons.lab.ui.fewer", strategy="hint", level="Expert", games=cap)]
    run(widget, level="beginner", strategies=["greedy", "hint"], games=500)
    assert asked == {"greedy": 500, "hint": 500} and widget.lab["notes"] == []


def test_the_language_switch_redraws_the_lab_in_german_and_keeps_the_run() -> None:
    widget = LabWidget("beginner", games=20)
    assert {"code": "de", "name": "Deutsch"} in widget.languages
    assert widget.strings["language"] == "Language" and widget.strings["read_aloud"] == "Read aloud"
    english = dict(widget.strings)
    run(widget)
    rows = widget.lab["rows"]
    widget.act("language", value="de")
    assert widget.lang == "de" and widget.message == ""
    with language("de"):
        wanted = {key: text(f"lessons.ui.{key}") for key in ("language", "read_aloud", "no_voice")}
        assert {key: widget.strings[key] for key in wanted} == wanted
        assert widget.strings["run"] == text("lessons.lab.ui.run") != english["run"]
        level = text("caterpillars.level.beginner")
        assert widget.lab["status_text"] == text("lessons.lab.ui.ready", games=20, level=level, seed=1)
        assert [lv["label"] for lv in widget.lab["controls"]["levels"]] == [
            text(f"caterpillars.level.{lv.value}") for lv in Level
        ]
        assert widget.lab["insights"][0].startswith(text("lessons.lab.best", strategy="", mean=0).split(":")[0])
    # The same games, only the words change: the strategies' names too.
    assert [{**row, "name": ""} for row in widget.lab["rows"]] == [{**row, "name": ""} for row in rows]
    assert [row["name"] for row in widget.lab["rows"]] == ["zufällig", "gierig", "Mitte", "Hinweis"][
        : len(rows)
    ] or all(row["name"] != row["strategy"] for row in widget.lab["rows"])
    run(widget, games=30)  # the lab goes on in German
    with language("de"):
        assert widget.lab["status_text"] == text("lessons.lab.ui.ready", games=30, level=level, seed=1)
    widget.act("language", value="en")
    assert widget.strings == english


def test_one_rounding_for_the_chart_the_table_and_the_sentences() -> None:
    """Halves round up on the decimal value (30.25 is 30.3, 6.45 is 6.5), wherever the lab writes a number.

    Before, the chart and the sentences used ``format`` (half to even on the binary float: 30.2, and 6.4 for
    6.449999999999999) and the table ``toFixed`` after ``round(x, 2)`` (30.3; and 30.245 became 30.25, 30.3).
    """
    from decimal import Decimal

    from caterpillar_learn.ui.lab.report import one_decimal

    for value, wanted in [(30.25, "30.3"), (6.45, "6.5"), (10.01 - 3.56, "6.5"), (30.245, "30.2"), (12.35, "12.4")]:
        assert str(one_decimal(value)) == wanted, value
        assert format(one_decimal(value), ".1f") == wanted  # how the catalogue writes it: no second rounding
    assert format(30.25, ".1f") == "30.2" and format(10.01 - 3.56, ".1f") == "6.4"  # what one_decimal replaces
    assert one_decimal(Decimal("6.45")) == Decimal("6.5")
    # A report whose means are exactly such halves: the chart's label, the table and the sentence agree.
    report = LabReport(
        "beginner",
        {"greedy": [30, 30, 30, 31], "hint": [30, 31, 31, 31]},  # means 30.25 and 30.75
        seed=1,
        totals={"greedy": [(20, 30, 33)] * 4, "hint": [(10, 30, 36), (10, 31, 37), (11, 31, 37), (10, 31, 37)]},
    )
    assert "mean 30.3" in report.histogram_svg() and "mean 30.8" in report.histogram_svg()
    assert report.insights()[0] == "Highest mean final score: hint (30.8)."
    assert "<td>30.8</td>" in report.table_html()
    widget = LabWidget("beginner", games=20)
    widget.session.report = report
    widget.refresh()
    assert [row["mean"] for row in widget.lab["rows"]] == [30.3, 30.8]
    with language("de"):
        assert "Durchschnitt 30,3" in report.histogram_svg()
