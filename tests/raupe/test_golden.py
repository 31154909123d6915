"""Golden replays (seed, events -> outcome); scripts/regenerate_raupe_golden.py rewrites them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from caterpillar_learn.raupe.bots import get_level
from caterpillar_learn.raupe.cards import parse_mode
from caterpillar_learn.raupe.game import Game
from caterpillar_learn.raupe.notation import event_from_json, event_to_json
from caterpillar_learn.raupe.referee import outcome
from caterpillar_learn.raupe.simulate import play_bot_game

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "raupe" / "games.json"
CASES: list[dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_golden_file_covers_both_endings() -> None:
    assert len(CASES) >= 8
    assert {case["outcome"]["stalemate"] for case in CASES} == {True, False}
    assert any(event.get("call") is not None for case in CASES for event in case["events"])


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"seed{c['seed']}-{c['players']}p")
def test_event_log_replays_to_the_recorded_outcome(case: dict[str, Any]) -> None:
    game = Game(case["players"], case["seed"], parse_mode(case["mode"]))
    for item in case["events"]:
        game.submit(event_from_json(item))
    state = game.state
    result = outcome(state)
    assert result is not None
    expected = case["outcome"]
    assert list(result.winners) == expected["winners"]
    assert result.stalemate == expected["stalemate"]
    assert state.plays == expected["plays"]
    assert state.clock == expected["seconds"]
    assert [len(hand) for hand in state.hands] == expected["hand_sizes"]
    assert len(state.pile) == expected["pile_size"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"seed{c['seed']}-{c['players']}p")
def test_bots_replay_the_same_events_from_the_seed(case: dict[str, Any]) -> None:
    players = case["players"]
    game = play_bot_game(players, random.Random(case["seed"]), [get_level(case["level"])] * players)
    assert game.initial.mode.word == case["mode"]
    assert [event_to_json(event) for event in game.events] == case["events"]
    assert game.mistakes_made == case["outcome"]["mistakes_made"]
    assert game.mistakes_caught == case["outcome"]["mistakes_caught"]
