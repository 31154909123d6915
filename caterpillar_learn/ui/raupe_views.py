"""What the Räuber Raupe front end draws: JSON views of a :class:`RaupeTable`.

:class:`~caterpillar_learn.ui.raupe_widget.RaupeWidget` copies
:func:`table_view` into its ``table`` trait and :func:`hand_view` into
``hand``; both read the table and change nothing, so a test can call them at
any moment.  Every word comes from the message catalogue.

>>> from caterpillar_learn.ui.raupe_setups import SETUPS
>>> table = RaupeTable(SETUPS["11-raupe-colour"], seed=3)
>>> view = table_view(table)
>>> view["mode_text"], view["running"], view["paused"], len(hand_view(table)) == len(table.faces)
('Colour', False, False, True)
"""

from __future__ import annotations

from typing import Any

from caterpillar_learn.i18n import text
from caterpillar_learn.raupe import LEVELS, mode_name, outcome, strategy_hint, winner_text
from caterpillar_learn.raupe.hints import describe_side
from caterpillar_learn.raupe.svg import card_svg
from caterpillar_learn.ui.raupe_table import RaupeTable

__all__ = ["hand_view", "hint_line", "table_view"]


def hand_view(table: RaupeTable) -> list[dict[str, Any]]:
    """The learner's cards: index, side up, kind, picture, words, and (if the lesson shows it) whether it fits."""
    if table.human is None:
        return []
    state = table.game.state
    fitting = {(o.card, o.side) for o in table.game.legal_plays(table.human)}
    cards = []
    for index, card in enumerate(state.hands[table.human]):
        side = table.faces[index]
        if card.is_butterfly:
            words, kind = text("raupe_lessons.card.butterfly"), "butterfly"
        else:
            words, kind = describe_side(card.sides[side]), "change" if card.is_change else "caterpillar"
        fits = (index, side) in fitting
        item: dict[str, Any] = {
            "index": index,
            "side": side,
            "kind": kind,
            "svg": card_svg(card, side, uid=f"h{index}"),
        }
        if table.setup.show_fits:
            item["fits"] = fits
            item["other_fits"] = bool(card.sides) and (index, 1 - side) in fitting
        label = text("raupe_lessons.aria.card", number=index + 1, count=len(table.faces), words=words)
        if table.setup.show_fits and fits:
            label += text("raupe_lessons.aria.fits")
        item["label"] = label
        cards.append(item)
    return cards


def hint_line(table: RaupeTable) -> str:
    """The strategy hint under the calls (empty where the lesson gives none)."""
    state = table.game.state
    if not table.setup.hints or table.human is None or state.finished:
        return ""
    lines = [text("raupe_lessons.hint.aphid")] if state.aphid_owed and state.follow_up is None else []
    top = state.top
    if state.follow_up == table.human:
        lines.append(strategy_hint(state.hands[table.human], top, state.mode, after_butterfly=True))  # type: ignore[arg-type]
    elif top is not None:
        lines.append(strategy_hint(state.hands[table.human], top, state.mode))
    return " ".join(lines)


def table_view(table: RaupeTable) -> dict[str, Any]:
    """Everything on the table but the hand: mode, pile, opponents, calls, clock state, tally, winner, record."""
    state = table.game.state
    top = state.pile[-1]
    words = text("raupe_lessons.card.butterfly") if top.face is None else describe_side(top.face)
    result = outcome(state)
    opponents = [
        {"seat": seat, "name": text("raupe_lessons.ui.bot", player=seat + 1), "cards": len(hand)}
        for seat, hand in enumerate(state.hands)
        if seat != table.human
    ]
    tally = table.tally
    score = (
        text("raupe_lessons.ui.referee_tally", **tally)
        if table.human is None
        else text("raupe_lessons.ui.player_tally", **tally)
    )
    return {
        "mode": state.mode.word,
        "mode_text": mode_name(state.mode),
        "pile": {
            "svg": card_svg(top.card, top.side, uid="pile"),
            "size": len(state.pile),
            "label": text("raupe_lessons.aria.pile", words=words, size=len(state.pile)),
        },
        "opponents": opponents,
        "referee": table.human is None,
        "armed": {"aphid": table.armed_aphid, "mode": None if table.armed_mode is None else table.armed_mode.word},
        "can_call": state.last is not None and state.last.player != table.human and not state.finished,
        "follow_up": table.human is not None and state.follow_up == table.human,
        "started": table.started,
        "running": table.running,
        "paused": table.paused,
        "finished": state.finished,
        "winner": "" if result is None else winner_text(result.winners, stalemate=result.stalemate),
        "you_won": result is not None and table.human in result.winners,
        "hint": hint_line(table),
        "score": score,
        "controls": {"show": table.setup.controls, "speed": table.speed, "level": table.level, "levels": list(LEVELS)},
        "record": table.record(),
    }
