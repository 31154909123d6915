"""``caterpillar-learn raupe ...``: playable sides and bot statistics as JSON.

>>> import contextlib, io
>>> from caterpillar_learn.cli import OneLineParser
>>> parser = OneLineParser(prog="caterpillar-learn")
>>> register(parser.add_subparsers(dest="command", parser_class=OneLineParser))
>>> args = parser.parse_args(["raupe", "playable", "--top", "round-red@jagged-green",
...     "--mode", "shape", "--hand", "jagged-yellow@round-red|straight-red@round-yellow;butterfly"])
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = args.handler(args)
>>> code, out.getvalue().strip()
(0, '[{"card": 0, "side": 0}, {"card": 1, "side": 0}]')
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from caterpillar_learn.raupe.bots import LEVELS
from caterpillar_learn.raupe.cards import parse_hand, parse_mode, parse_side
from caterpillar_learn.raupe.deck import load_deck
from caterpillar_learn.raupe.referee import playable_sides
from caterpillar_learn.raupe.simulate import simulate
from caterpillar_learn.reading import games_argument, seed_argument, whole_number_argument

__all__ = ["register"]


def _playable(args: argparse.Namespace) -> int:
    top = parse_side(args.top)
    mode = parse_mode(args.mode)
    hand = parse_hand(args.hand)
    options = playable_sides(hand, top, mode, after_butterfly=args.after_butterfly)
    print(json.dumps([{"card": o.card, "side": o.side} for o in options]))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    deck = None if args.deck is None else load_deck(args.deck)
    stats = simulate(args.players, args.seed, args.games, args.bot_level, deck)
    print(json.dumps(stats.to_json()))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``raupe`` command with its ``playable`` and ``simulate`` sub-commands.

    >>> from caterpillar_learn.cli import OneLineParser
    >>> parser = OneLineParser(prog="x")
    >>> register(parser.add_subparsers(dest="command", parser_class=OneLineParser))
    >>> parser.parse_args(["raupe", "simulate", "--players", "3"]).games
    100
    """
    raupe = subparsers.add_parser("raupe", help="the card game Räuber Raupe")
    commands = raupe.add_subparsers(dest="raupe_command", required=True, parser_class=type(raupe))
    playable = commands.add_parser("playable", help="list every side of a hand that may be played now (JSON)")
    playable.add_argument("--top", required=True, help="top side, e.g. round-red@jagged-green")
    playable.add_argument("--mode", required=True, help="shape or colour")
    playable.add_argument("--hand", required=True, help='cards separated by ";"')
    playable.add_argument(
        "--after-butterfly",
        action="store_true",
        help="the player has just put down a butterfly: any card may follow",
    )
    playable.set_defaults(handler=_playable)

    sim = commands.add_parser("simulate", help="statistics of bot games (JSON)")
    sim.add_argument("--players", type=whole_number_argument(2, 4), default=4, metavar="{2,3,4}")
    sim.add_argument("--seed", type=seed_argument, default=0)
    sim.add_argument("--games", type=games_argument, default=100, help="how many games (1 to 100000)")
    sim.add_argument("--bot-level", choices=list(LEVELS), default="advanced")
    sim.add_argument("--deck", default=None, help="custom deck file, one card per line (- for standard input)")
    sim.set_defaults(handler=_simulate)
