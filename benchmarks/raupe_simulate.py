#!/usr/bin/env python3
"""How many 4-player Räuber Raupe bot games per second the simulator plays.

Target: at least 200 games/s, so a lesson can show statistics at once.

Beside the real simulator (``caterpillar_learn.raupe.simulate``) this script
runs, in the same process, a straightforward baseline that plays by the
same rules with the same bot parameters but re-derives everything at each
step: the state is a dict whose lists are all copied for every event, matching looks up
traits by name, every bot rescans every hand, and the table checks for a
stalemate after every event.  Both are timed over the same number of games;
the medians of several rounds and their ratio are printed.

    python benchmarks/raupe_simulate.py            # about 10 seconds
    python benchmarks/raupe_simulate.py --rounds 3 --games 100
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from typing import Any

from caterpillar_learn.raupe.bots import LEVELS, BotLevel
from caterpillar_learn.raupe.cards import Card, Mode, Side
from caterpillar_learn.raupe.deck import standard_deck
from caterpillar_learn.raupe.simulate import play_bot_game

PLAYERS = 4
LEVEL = "advanced"
CALL_WINDOW = 2.0
TRAITS = {Mode.SHAPE: ("shape", "leaf_shape"), Mode.COLOUR: ("colour", "leaf_colour")}


def naive_fits(side: Side, top: Side, mode: Mode) -> bool:
    caterpillar, leaf = TRAITS[mode]
    return bool(getattr(side, caterpillar).value == getattr(top, leaf).value)


def naive_count(hand: list[Card], skip: int, leaf: Side, mode: Mode) -> int:
    return sum(
        1 for j, card in enumerate(hand) if j != skip and any(naive_fits(face, leaf, mode) for face in card.sides)
    )


def naive_options(game: dict[str, Any], seat: int) -> list[tuple[int, int]]:
    hand: list[Card] = game["hands"][seat]
    if any(not h for h in game["hands"]):
        return []
    if game["follow_up"] is not None:
        if game["follow_up"] != seat:
            return []
        return [(i, s) for i, card in enumerate(hand) for s in range(len(card.sides))]
    card, side = game["pile"][-1]
    top = card.sides[side]
    options = []
    for i, mine in enumerate(hand):
        if mine.is_butterfly:
            others = [c for j, c in enumerate(hand) if j != i and not c.is_butterfly]
            if others or len(hand) == 1:
                options.append((i, 0))
        for s, face in enumerate(mine.sides):
            if naive_fits(face, top, game["mode"]):
                options.append((i, s))
    return options


def naive_game(rng: random.Random, level: BotLevel) -> int:
    """One baseline game; returns the number of plays."""
    deck = list(standard_deck())
    caterpillars = [c for c in deck if c.sides and not c.is_change]
    changes = [c for c in deck if c.is_change]
    butterflies = [c for c in deck if c.is_butterfly]
    for group in (caterpillars, changes, butterflies):
        rng.shuffle(group)
    share = (len(caterpillars) - 1) // PLAYERS
    game: dict[str, Any] = {
        "hands": [[*caterpillars[1 + p :: PLAYERS][:share], butterflies[p], changes[p]] for p in range(PLAYERS)],
        "pile": [(caterpillars[0], rng.randrange(2))],
        "mode": Mode.SHAPE,
        "clock": 0.0,
        "last": None,
        "follow_up": None,
        "plays": 0,
    }
    while True:
        proposals: list[tuple[float, str, int, Any]] = []
        for seat in range(PLAYERS):
            last = game["last"]
            if last is not None and last[0] != seat:
                chance = level.notice_chance if last[1] else level.false_call_rate
                if rng.random() < chance:
                    react = level.reaction_median * rng.lognormvariate(0, level.reaction_sigma)
                    proposals.append((game["clock"] + react, "call", seat, None))
                    continue
            options = naive_options(game, seat)
            if options:
                hand = game["hands"][seat]
                plain = [o for o in options if hand[o[0]].sides and not hand[o[0]].is_change]
                choice = (plain or options)[0]
                if game["follow_up"] is None:
                    top_card, top_side = game["pile"][-1]
                    top = top_card.sides[top_side]
                    for i, s in options:
                        if hand[i].is_change:
                            other = Mode.COLOUR if game["mode"] is Mode.SHAPE else Mode.SHAPE
                            now = naive_count(hand, i, top, game["mode"])
                            after = naive_count(hand, i, hand[i].sides[s], other)
                            if after > now:
                                choice = (i, s)
                if rng.random() < level.error_rate:
                    choice = (choice[0], 1 - choice[1]) if hand[choice[0]].sides else choice
                median = level.reaction_median + level.search_per_card * len(hand)
                react = median * rng.lognormvariate(0, level.reaction_sigma)
                proposals.append((game["clock"] + react, "play", seat, choice))
        stuck = all(not naive_options(game, s) for s in range(PLAYERS))
        if stuck:
            proposals.append((game["clock"] + CALL_WINDOW, "close", -1, None))
        when, kind, seat, choice = min(proposals, key=lambda p: p[0])
        # Immutability the simple way: a fresh copy of every list for every event.
        game = {**game, "hands": [list(h) for h in game["hands"]], "pile": list(game["pile"])}
        game["clock"] = when
        if kind == "close":
            return int(game["plays"])
        if kind == "call":
            offender = game["last"][0]
            right = game["last"][1]
            giver, receiver = (seat, offender) if right else (offender, seat)
            moved = game["hands"][giver][-3:]
            del game["hands"][giver][-3:]
            game["hands"][receiver].extend(moved)
            depth = rng.randint(1, len(game["pile"]))
            lifted = game["pile"][-depth:]
            game["pile"][-depth:] = [(c, 1 - s if c.sides else 0) for c, s in reversed(lifted)]
            while not game["pile"][-1][0].sides:
                game["pile"].append(game["pile"].pop(0))
            game["last"] = None
            game["follow_up"] = None
            continue
        index, side = choice
        card = game["hands"][seat].pop(index)
        top_card, top_side = game["pile"][-1]
        wrong = (
            game["follow_up"] is None
            and bool(card.sides)
            and not naive_fits(card.sides[side], top_card.sides[top_side], game["mode"])
        )
        if card.is_change:
            game["mode"] = Mode.COLOUR if game["mode"] is Mode.SHAPE else Mode.SHAPE
        game["pile"].append((card, side))
        game["follow_up"] = seat if card.is_butterfly and game["hands"][seat] else None
        game["last"] = (seat, wrong)
        game["plays"] += 1


def time_games(run: Any, games: int, seed: int) -> tuple[float, float]:
    """Games per second and mean plays over ``games`` games."""
    rng = random.Random(seed)
    plays = 0
    start = time.perf_counter()
    for _ in range(games):
        plays += run(rng)
    elapsed = time.perf_counter() - start
    return games / elapsed, plays / games


def main() -> int:
    parser = argparse.ArgumentParser(description="Räuber Raupe simulation benchmark")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    level = LEVELS[LEVEL]
    bots = [level] * PLAYERS

    def engine(rng: random.Random) -> int:
        return play_bot_game(PLAYERS, rng, bots).final.plays

    def baseline(rng: random.Random) -> int:
        return naive_game(rng, level)

    fast, slow, fast_plays, slow_plays = [], [], [], []
    for round_number in range(args.rounds):
        rate, plays = time_games(engine, args.games, round_number)
        fast.append(rate)
        fast_plays.append(plays)
        rate, plays = time_games(baseline, max(1, args.games // 2), round_number)
        slow.append(rate)
        slow_plays.append(plays)
    fast_median, slow_median = statistics.median(fast), statistics.median(slow)
    print(
        f"python {platform.python_version()} on {platform.machine()}, {PLAYERS} players, "
        f"{LEVEL} bots, {args.rounds} rounds"
    )
    print(
        f"engine   median {fast_median:8.1f} games/s  (mean plays/game "
        f"{statistics.mean(fast_plays):.1f}; rounds {[round(r) for r in fast]})"
    )
    print(
        f"baseline median {slow_median:8.1f} games/s  (mean plays/game "
        f"{statistics.mean(slow_plays):.1f}; rounds {[round(r) for r in slow]})"
    )
    print(
        f"ratio engine/baseline {fast_median / slow_median:.1f}x; "
        f"target >= 200 games/s: {'met' if fast_median >= 200 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
