"""A seat at a Räuber Raupe table, as a lesson shows it: what to do now, the line that says it, the steps.

The same rules read a lesson's table (:class:`~caterpillar_learn.ui.raupe.controller.RaupeTable`,
the learner against bots) and a pupil's seat at a shared classroom table
(:class:`~caterpillar_learn.classroom.rooms.raupe.pupil.SeatTable`): each is a :class:`Place`.
"""

from __future__ import annotations

from typing import Protocol

from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import TableSetup
from caterpillar_learn.raupe import Game, Mode, outcome
from caterpillar_learn.raupe.referee import Outcome
from caterpillar_learn.ui.quiz import Quiz

__all__ = ["HINT_PAUSE", "Place", "SeatRules", "now_text", "step", "steps", "to_do"]

_NO_OUTCOME = Outcome(winners=(), stalemate=False)
#: Real seconds the learner has not acted (whatever the bots did) after which a lesson says in words how to find
#: a card that fits; after twice as long it marks one.  Until then the hand as a whole is the thing to do: the
#: child does the matching (issue 40: help follows the child, not the pile).
HINT_PAUSE = 8.0


class Place(Protocol):
    """What the seat's rules read: the table's setup and game, the player, the question, the cards' faces."""

    @property
    def setup(self) -> TableSetup: ...
    @property
    def game(self) -> Game: ...
    @property
    def human(self) -> int | None: ...
    @property
    def quiz(self) -> Quiz: ...
    @property
    def faces(self) -> list[int]: ...
    @property
    def armed_aphid(self) -> bool: ...
    @property
    def armed_mode(self) -> Mode | None: ...
    @property
    def waited(self) -> float:
        """Real seconds since the learner last acted (or again had a card that fits), while they may play."""
        ...

    @property
    def paused(self) -> bool: ...
    @property
    def asking(self) -> bool: ...
    @property
    def showing(self) -> bool: ...
    @property
    def running(self) -> bool: ...
    @property
    def started(self) -> bool: ...


class SeatRules:
    """This module's rules as a seat's own methods: mixed into a lesson's table and a classroom seat, each a
    :class:`Place`, so that both read their steps and their thing to do the same way."""

    def to_do(self) -> str:
        """The one thing the lesson waits for now, as the page marks it (:func:`to_do`).

        >>> from caterpillar_learn.lessons import get_table
        >>> from caterpillar_learn.ui.raupe.controller import RaupeTable
        >>> table = RaupeTable(get_table("15-raupe-race"), seed=3)
        >>> table.to_do()
        'start'
        >>> table.handle({"type": "start"}); table.to_do()
        'hand'
        """
        return to_do(self)  # type: ignore[arg-type]  # the class it is mixed into is a Place

    def now_text(self, todo: str) -> str:
        """The one short line that says what to do now (:func:`now_text`)."""
        return now_text(self, todo)  # type: ignore[arg-type]

    @property
    def steps(self) -> tuple[str, ...]:
        """The lesson's steps (:func:`steps`)."""
        return steps(self)  # type: ignore[arg-type]

    @property
    def step(self) -> str:
        """The step the lesson is at (:func:`step`)."""
        return step(self)  # type: ignore[arg-type]


def to_do(place: Place) -> str:
    """The one thing the lesson waits for now at ``place``, as the page marks it (``data-todo``).

    ``"question"`` (the question's panel), ``"check"``, ``"start"`` (also Play again),
    ``"pause"`` (to play on), ``"hand"`` (find a card that fits: nothing in it is marked as the answer),
    ``"pile"`` (nothing fits: watch), or, once the learner has waited :data:`HINT_PAUSE` twice,
    ``"card:<i>"``, ``"flip:<i>"`` or ``"call:<word>"`` for the card the hints would play.
    """
    if place.asking:
        if not place.showing:
            return "question"
        question = place.quiz.question
        assert question is not None
        if question.kind != "cards":  # a yes-or-no question (a slip's "Does this one fit?"): its right button
            right = min(question.correct)
            return "check" if place.quiz.selected == {right} else f"answer:{right}"
        wrong = sorted(set(place.quiz.selected) - set(question.correct), key=int)
        missing = sorted(set(question.correct) - set(place.quiz.selected), key=int)
        return f"card:{(wrong or missing)[0]}" if wrong or missing else "check"
    if not place.running:
        return "start"
    if place.paused:
        return "pause"
    assert place.human is not None
    state = place.game.state
    options = place.game.legal_plays(place.human)
    if not options:
        return "pile"  # nothing fits: watch the pile (marked, never glowing: nothing in the hand to tap)
    if not place.setup.show_fits:
        return "hand"
    if state.aphid_owed and state.follow_up is None and not place.armed_aphid and "aphid" in place.setup.calls:
        return "call:aphid"  # a rule to keep, not a card to find
    if place.waited < 2 * HINT_PAUSE:
        return "hand"  # the child finds the card; a hint in words after one pause, a card marked after two
    hand = state.hands[place.human]
    # As the hints advise: a caterpillar before the butterfly, a side already up before a flip.
    option = min(options, key=lambda o: (hand[o.card].is_butterfly, o.side != place.faces[o.card], o.card))
    card = hand[option.card]
    if card.is_change and state.follow_up is None and place.armed_mode is not state.mode.other:
        return f"call:{state.mode.other.word}"
    if card.sides and option.side != place.faces[option.card]:
        return f"flip:{option.card}"
    return f"card:{option.card}"


def now_text(place: Place, todo: str) -> str:
    """The one short line that says what to do now (what :meth:`to_do` marks)."""
    state = place.game.state
    kind, _, detail = todo.partition(":")
    if kind == "question":
        return ""  # the question says what to do, once (issue 29)
    if kind == "check":
        return text("raupe_lessons.now.check")
    if kind in ("card", "answer") and place.asking:  # a glowing card, or a glowing Yes or No (issue 40: as shown)
        return text("raupe_lessons.now.show" if kind == "card" else "raupe_lessons.now.show_answer")
    if kind == "start":
        if not state.finished:
            return text("raupe_lessons.now.start")
        won = place.human in (outcome(state) or _NO_OUTCOME).winners
        return text("raupe_lessons.now.won" if won else "raupe_lessons.now.over")
    if kind == "pause":
        return text("raupe_lessons.now.paused")
    if kind == "call":
        if detail == "aphid":
            return text("raupe_lessons.now.aphid")
        return text("raupe_lessons.now.announce", call=text(f"raupe.call.{detail}"))
    if kind == "flip":
        return text("raupe_lessons.now.flip")
    if state.follow_up == place.human:
        return text("raupe_lessons.now.follow_up")
    if kind == "card":
        return text("raupe_lessons.now.show")  # the hint on the board: the card glows
    if kind == "hand" and place.setup.show_fits and place.waited >= HINT_PAUSE:
        return text(f"raupe_lessons.now.hint_{state.mode.word}")  # the first hint: in words
    if "mistake" in place.setup.calls and place.setup.referee:
        return text("raupe_lessons.now.watch")
    if not place.setup.show_fits:
        return text("raupe_lessons.now.race")
    return text("raupe_lessons.now.play" if kind == "hand" else "raupe_lessons.now.wait")


def steps(place: Place) -> tuple[str, ...]:
    """The lesson's steps: the opening question (if asked), start, play, the end of the game."""
    return ("look", "start", "play", "end") if place.setup.question else ("start", "play", "end")


def step(place: Place) -> str:
    """The step the lesson is at: it follows the game (nobody presses Next)."""
    if place.asking:  # the opening question, or a slip's before the next game (then "start" if none opened)
        return "look" if place.setup.question else "start"
    if place.game.state.finished:
        return "end"
    return "play" if place.started else "start"
