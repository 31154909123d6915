"""The hint panel, the loss after a move, the review and the strategy lab, with
the real advice package, without it (fallback), and with a broken one."""

from __future__ import annotations

import types

import pytest

from caterpillar_learn.caterpillars import Roll, State, legal_moves
from caterpillar_learn.i18n import text
from caterpillar_learn.ui import advice_bridge, lab
from caterpillar_learn.ui.widgets import CaterpillarsBoard

STATE = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
ROLL = Roll((3, 5))


def test_hint_with_the_advice_package() -> None:
    board = CaterpillarsBoard("beginner", seed=5)
    board.act("roll")
    board.act("hint")
    hint = board.hint
    if advice_bridge.advice_module() is None:
        pytest.fail("caterpillar_learn.advice is part of the package and should import")
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


def test_without_the_advice_package_the_hint_lists_the_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(advice_bridge, "advice_module", lambda: None)
    monkeypatch.setattr(lab, "advice_module", lambda: None)
    moves = list(legal_moves(STATE, ROLL))
    view = advice_bridge.hint_view(STATE, ROLL, moves)
    assert view["status"] == "unavailable"
    assert view["title"] == text("lessons.hint.unavailable")
    assert [o["how"] for o in view["options"]] == [m.how for m in moves]
    assert advice_bridge.loss_lines(STATE, ROLL, moves[0]) == []
    assert advice_bridge.review_view(None) == {"summary": [], "rounds": []}  # type: ignore[arg-type]
    report = lab.run_lab("beginner", ("greedy",), games=3, seed=1)
    assert report.notice == text("lessons.lab.missing")
    assert report.notice in report._repr_html_()


def test_a_broken_advice_package_falls_back_too(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("half-written")

    broken = types.SimpleNamespace(hint=boom, explain_choice=boom, review=boom, simulate=boom)
    monkeypatch.setattr(advice_bridge, "advice_module", lambda: broken)
    moves = list(legal_moves(STATE, ROLL))
    assert advice_bridge.hint_view(STATE, ROLL, moves)["status"] == "unavailable"
    assert advice_bridge.loss_lines(STATE, ROLL, moves[0]) == []


def test_a_fake_advice_package_is_read_through_its_documented_api(monkeypatch: pytest.MonkeyPatch) -> None:
    moves = list(legal_moves(STATE, ROLL))
    options = tuple(types.SimpleNamespace(move=m, expected_final=10.0 - i) for i, m in enumerate(moves))
    found = types.SimpleNamespace(
        move=moves[0], expected_final=10.0, exact=True, options=options, explanation=("Because.",)
    )
    choice = types.SimpleNamespace(chosen_value=8.0, best_value=10.0, loss=2.0, reasons=("x", "Why:", "Reason."))
    review = types.SimpleNamespace(
        to_json=lambda: {"summary": ["Well played."], "entries": [{"round": 3, "text": "Round 3 cost 2."}]}
    )
    fake = types.SimpleNamespace(
        hint=lambda s, r: found, explain_choice=lambda s, r, m: choice, review=lambda g: review
    )
    monkeypatch.setattr(advice_bridge, "advice_module", lambda: fake)
    view = advice_bridge.hint_view(STATE, ROLL, moves)
    assert view["status"] == "ready" and view["lines"] == ["Because."]
    assert [o["value"] for o in view["options"]] == [10.0, 9.0, 8.0]
    assert view["title"].startswith("Best move: Alex, box 2: score 5")
    assert advice_bridge.loss_lines(STATE, ROLL, moves[2]) == [
        text("lessons.hint.loss", chosen=8.0, best=10.0, loss=2.0),
        "Why:",
        "Reason.",
    ]
    assert advice_bridge.review_view(None) == {  # type: ignore[arg-type]
        "summary": ["Well played."],
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
        return types.SimpleNamespace(finals=[seed + len(strategy) + i % 3 for i in range(games)])

    monkeypatch.setattr(lab, "advice_module", lambda: types.SimpleNamespace(simulate=simulate))
    report = lab.run_lab("beginner", ("random", "greedy"), games=6, seed=2)
    assert calls == [("beginner", "random", 6, 2, False), ("beginner", "greedy", 6, 2, False)]
    html = report._repr_html_()
    assert html.count("<title>random:") == 3 and html.count("<title>greedy:") == 3
    assert "random: mean 9.0 over 6 games" in report.summary()
