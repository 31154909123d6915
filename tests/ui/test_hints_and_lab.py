"""The hint panel, the loss after a move, the review and the strategy lab, with
the real advice package, a fake one (its documented API) and a broken one."""

from __future__ import annotations

import logging
import types

import pytest

from caterpillar_learn import advice
from caterpillar_learn.caterpillars import Roll, State, legal_moves
from caterpillar_learn.i18n import plural, text
from caterpillar_learn.practice import idea_of
from caterpillar_learn.ui.caterpillars import CaterpillarsBoard
from caterpillar_learn.ui.caterpillars import advice as advice_bridge
from caterpillar_learn.ui.lab import report as lab

STATE = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
ROLL = Roll((3, 5))


def test_hint_with_the_advice_package() -> None:
    board = CaterpillarsBoard("beginner", seed=5)
    board.act("roll")
    board.act("hint")
    hint = board.hint
    assert hint["status"] == "ready"
    values = [o["value"] for o in hint["options"]]
    assert values == sorted(values, reverse=True)
    assert hint["options"][0]["best"]
    assert len(hint["options"]) == len(board.legal)
    # Playing a worse move after a hint tells the learner what it cost.
    worst = hint["options"][-1]
    target = next(m for m in board.legal if m["text"] == worst["text"])
    board.act("box", caterpillar=target["caterpillar"], box=target["box"])
    if board.menu:
        board.act("option", index=target["index"])
    assert board.hint == {}
    if worst["value"] < hint["options"][0]["value"] - 1e-6:
        assert "you gave away" in board.explanation
    else:
        assert "That was the best move" in board.explanation


def test_a_failing_advice_package_is_logged_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("half-written")

    board = CaterpillarsBoard("beginner", seed=5)
    board.act("roll")
    monkeypatch.setattr(advice, "hint", boom)
    with caplog.at_level(logging.ERROR, logger="caterpillar_learn.ui"):
        board.act("hint")
    assert board.message == text("ui.internal") and "\n" not in board.message
    assert "half-written" not in board.message and board.hint == {}
    assert any("half-written" in (record.exc_text or "") for record in caplog.records)
    before = board.session.game.state
    board.act("option", index=0)  # the game goes on
    assert board.session.game.state.filled == before.filled + 1 and board.message == ""


def test_the_hint_panel_reads_the_documented_api(monkeypatch: pytest.MonkeyPatch) -> None:
    moves = list(legal_moves(STATE, ROLL))
    options = tuple(types.SimpleNamespace(move=m, expected_final=10.0 - i) for i, m in enumerate(moves))
    found = types.SimpleNamespace(
        move=moves[0], expected_final=10.0, exact=True, options=options, explanation=("Because.",)
    )
    choice = types.SimpleNamespace(chosen_value=8.0, best_value=10.0, loss=2.0, reasons=("x", "Why:", "Reason."))
    costly = types.SimpleNamespace(line="Round 3 cost 2.", loss=2.0, round=3, roll=ROLL, choice=moves[1], best=moves[0])
    review = types.SimpleNamespace(summary=("Well played.",), entries=(costly,))
    monkeypatch.setattr(advice, "hint", lambda s, r: found)
    monkeypatch.setattr(advice, "explain_choice", lambda s, r, m: choice)
    monkeypatch.setattr(advice, "review", lambda g: review)
    view = advice_bridge.hint_view(STATE, ROLL)
    assert view["status"] == "ready" and view["lines"] == ["Because."]
    assert [o["value"] for o in view["options"]] == [10.0, 9.0, 8.0]
    assert view["title"].startswith("Best move: Alex, box 2: score 5")
    assert advice_bridge.loss_lines(STATE, ROLL, moves[2]) == [
        text("lessons.hint.loss", chosen=8.0, best=10.0, loss=2.0),
        "Why:",
        "Reason.",
    ]
    game = types.SimpleNamespace(level=STATE.level)  # the review reads only the level of the game it is handed
    idea = idea_of(STATE.level, ROLL, moves[1], moves[0])
    named = plural("practice.idea_rounds", 1, idea=text(f"practice.idea.{idea}"), rounds="3")
    assert advice_bridge.review_view(game) == {  # type: ignore[arg-type]
        "summary": ["Well played.", text("practice.review_ideas", ideas=named)],
        "rounds": ["Round 3 cost 2."],
    }


def test_the_review_comes_on_request_at_the_end() -> None:
    board = CaterpillarsBoard("beginner", seed=6)
    board.act("roll")
    board.act("review")
    assert board.message == text("lessons.msg.review_at_end")
    game = board.session.game
    while game.phase != "over":
        board.act("roll")
        board.act("option", index=0)
    assert board.review["reviewed"] is False and board.review["advice"] == []
    assert len(board.review["rounds"]) == 12
    board.act("review")
    assert board.review["reviewed"] is True
    assert board.review["advice"] and len(board.review["rounds"]) == 12
    assert board.review["rounds"][0].startswith("Round 1")


def test_the_lab_draws_one_row_of_bars_per_strategy(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def simulate(
        level: str, strategy: str, games: int, seed: int, labels: object = None, progress: bool = False
    ) -> types.SimpleNamespace:
        calls.append((level, strategy, games, seed, progress))
        finals = [seed + len(strategy) + i % 3 for i in range(games)]
        return types.SimpleNamespace(finals=finals, totals=[(0, final, 20) for final in finals])

    monkeypatch.setattr(lab, "simulate", simulate)
    report = lab.run_lab("beginner", ("random", "greedy"), games=6, seed=2)
    assert calls == [("beginner", "random", 6, 2, False), ("beginner", "greedy", 6, 2, False)]
    html = report._repr_html_()
    assert html.count("<title>random:") == 3 and html.count("<title>greedy:") == 3
    assert "random: mean 9.0 over 6 games" in report.summary()
