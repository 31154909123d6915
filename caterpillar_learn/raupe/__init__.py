"""Räuber Raupe: the real-time card game of caterpillars on leaves.

A pure engine: cards and their notation (:mod:`.cards`), the deck
(:mod:`.deck`), the event-driven referee (:mod:`.referee`), JSON forms of
events, decks and the table (:mod:`.notation`), a mutable game with replay
and save/load (:mod:`.game`), bots (:mod:`.bots`), hints (:mod:`.hints`) and
bot-game statistics (:mod:`.simulate`).  Every error raised on purpose is a
:class:`RaupeError` (:mod:`.errors`).  Nothing here imports a user interface.

>>> game = Game(players=3, seed=5)
>>> len(game.state.hands), game.state.pile[-1].card.is_butterfly
(3, False)
>>> Game.from_json(game.to_json()).state == game.state
True
"""

from caterpillar_learn.raupe.bots import LEVELS, BotLevel, choose_start_mode, get_level, propose
from caterpillar_learn.raupe.cards import (
    BUTTERFLY,
    Card,
    Colour,
    Mode,
    Shape,
    Side,
    format_card,
    format_side,
    parse_card,
    parse_hand,
    parse_mode,
    parse_side,
)
from caterpillar_learn.raupe.deck import load_deck, parse_deck, standard_deck
from caterpillar_learn.raupe.errors import (
    DeckError,
    IllegalEventError,
    NotationError,
    RaupeError,
    SetupError,
    UnknownLevelError,
)
from caterpillar_learn.raupe.game import Game, replay
from caterpillar_learn.raupe.hints import (
    explain_mistake,
    mode_name,
    playable_hint,
    strategy_hint,
    winner_text,
)
from caterpillar_learn.raupe.notation import (
    deck_from_json,
    deck_to_json,
    event_from_json,
    event_to_json,
    state_to_json,
)
from caterpillar_learn.raupe.referee import (
    Call,
    Close,
    Event,
    Mistake,
    Outcome,
    Penalty,
    Placed,
    Play,
    PlayableSide,
    State,
    apply,
    deal,
    draw_cuts,
    legal_plays,
    nobody_can_play,
    outcome,
    playable_sides,
)
from caterpillar_learn.raupe.simulate import (
    BotGame,
    Statistics,
    next_table_event,
    play_bot_game,
    simulate,
)

__all__ = [
    "BUTTERFLY",
    "LEVELS",
    "BotGame",
    "BotLevel",
    "Call",
    "Card",
    "Close",
    "Colour",
    "DeckError",
    "Event",
    "Game",
    "IllegalEventError",
    "Mistake",
    "Mode",
    "NotationError",
    "Outcome",
    "Penalty",
    "Placed",
    "Play",
    "PlayableSide",
    "RaupeError",
    "SetupError",
    "Shape",
    "Side",
    "State",
    "Statistics",
    "UnknownLevelError",
    "apply",
    "choose_start_mode",
    "deal",
    "deck_from_json",
    "deck_to_json",
    "draw_cuts",
    "event_from_json",
    "event_to_json",
    "explain_mistake",
    "format_card",
    "format_side",
    "get_level",
    "legal_plays",
    "load_deck",
    "mode_name",
    "next_table_event",
    "nobody_can_play",
    "outcome",
    "parse_card",
    "parse_deck",
    "parse_hand",
    "parse_mode",
    "parse_side",
    "play_bot_game",
    "playable_hint",
    "playable_sides",
    "propose",
    "replay",
    "simulate",
    "standard_deck",
    "state_to_json",
    "strategy_hint",
    "winner_text",
]
