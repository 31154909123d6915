"""What a card table tells the learner about each card and call: the table's line, in the learner's words.

A :class:`Commentary` belongs to one :class:`~caterpillar_learn.ui.raupe.controller.RaupeTable`: after each
card it says who played what (and what they shouted), after a call who was right and whose cards went to
whom, and it keeps the learner's tally and slips.  The learner is "you", never "player 1"; a wrong card of
theirs is shown beside its leaf (:attr:`~caterpillar_learn.ui.raupe.controller.RaupeTable.shown_slip`), so the
words leave the why to the picture.  No rules here: a penalty and its mistakes are the referee's.

>>> from caterpillar_learn.lessons import get_table
>>> from caterpillar_learn.ui.raupe import RaupeTable
>>> table = RaupeTable(get_table("15-raupe-race"), seed=2)
>>> table.commentary.reasons(1, ())
''
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from caterpillar_learn.i18n import text
from caterpillar_learn.raupe import Play, explain_mistake, mode_name
from caterpillar_learn.raupe.hints import describe_side, penalty_text, trait_name
from caterpillar_learn.raupe.referee import Mistake, Penalty
from caterpillar_learn.ui.raupe.questions import SLIPS

if TYPE_CHECKING:
    from caterpillar_learn.ui.raupe.controller import RaupeTable

__all__ = ["Commentary"]


class Commentary:
    """``table``'s line about what just happened."""

    def __init__(self, table: RaupeTable) -> None:
        self.table = table

    def why_fine(self, state: Any) -> str:
        """Why the newest card of ``state`` (before a false call) broke no rule."""
        top, below = state.pile[-1], state.pile[-2]
        if top.face is None or below.face is None:
            return text("raupe_lessons.referee.fine_joker")
        mode = state.mode.other if top.face.sky else state.mode
        trait = trait_name(top.face.caterpillar_key[mode].value)
        return text("raupe_lessons.referee.fine", trait=trait, mode=mode_name(mode))

    def call(self, penalty: Penalty, before: Any) -> str:
        """What a call did, said to the learner: who was right, and whose 3 cards went to whom.

        The rule book: the player who made the mistake "receive[s] 3 cards as a punishment from the
        player that notices the mistake"; a wrong call costs the caller 3 cards from the accused.
        """
        you, count = self.table.human, len(penalty.cards)
        reasons = self.reasons(penalty.accused, penalty.mistakes)
        if penalty.caller == you:
            if penalty.right:
                return text("raupe_lessons.call.you_right", player=penalty.accused + 1, count=count, reasons=reasons)
            why = self.why_fine(before)
            return text("raupe_lessons.call.you_wrong", player=penalty.accused + 1, count=count, why=why)
        if penalty.accused == you:
            key = "raupe_lessons.call.caught_you" if penalty.right else "raupe_lessons.call.false_on_you"
            if penalty.right and not reasons:  # the why is the picture beside the pile (a wrong card, shown)
                key = "raupe_lessons.call.caught_you_shown"
            return text(key, player=penalty.caller + 1, count=count, reasons=reasons)
        return penalty_text(penalty)

    def reasons(self, player: int, mistakes: tuple[Mistake, ...]) -> str:
        """Why ``player``'s card was a mistake, in words.  The learner's wrong card, shown beside its leaf, needs
        none: the picture says it (the words would name "the leaf below", covered by now)."""
        shown = player == self.table.human and self.table.shown_slip is not None
        return " ".join(
            explain_mistake(mistake) for mistake in mistakes if not (shown and mistake is Mistake.WRONG_CARD)
        )

    def uncalled(self, player: int, mistakes: tuple[Any, ...]) -> None:
        """``player``'s mistake went uncalled (a card covered it): said, and counted where a referee watches."""
        table = self.table
        reasons = self.reasons(player, mistakes)
        if table.setup.referee and player != table.human:
            table.tally["missed"] += 1
        if player == table.human:  # the learner is nobody's "player 1" on the screen: their own mistake is "yours"
            table.say(text("raupe_lessons.msg.uncalled_you", reasons=reasons))
        else:
            table.say(text("raupe_lessons.msg.uncalled", player=player + 1, reasons=reasons))

    def played(self, event: Play, state: Any, before: Any) -> None:
        """A card went on the pile: the learner's slip kept (and shown at once), and who played what, said."""
        table = self.table
        mistakes = state.last.mistakes
        if event.player == table.human:
            table.tally["slips" if mistakes else "fits"] += 1
            leaf = before.pile[-1].face
            slip = next((m for m in SLIPS if m in mistakes), None)
            if slip is not None and leaf is not None:  # to ask about before the next game
                table.questions.slips.append((event.card, event.side, leaf, before.mode, slip))
            table.shown_slip = None  # the newest card only
            if Mistake.WRONG_CARD in mistakes and leaf is not None:  # shown at once, beside its leaf
                table.shown_slip = (event.card, event.side, leaf)
                # The line names what the mode asks for; the picture pair beside the pile shows (and the voice
                # reads) each card's shape and colour, once.
                table.say(text(f"raupe_lessons.slip.not_{before.mode.word}"))
                return
        else:  # a card on top of the learner's: their slip can no longer be called, and its picture goes
            table.shown_slip = None
        card = event.card
        words = text("raupe_lessons.card.butterfly") if card.is_butterfly else describe_side(card.sides[event.side])
        shouts = [text("raupe.call.aphid")] if event.aphid else []
        if event.announce is not None:
            shouts.append(text(f"raupe.call.{event.announce.word}"))
        key = "raupe_lessons.msg." + ("you_played" if event.player == table.human else "played")
        key += "_shouting" if shouts else ""
        line = text(key, player=event.player + 1, words=words, shouts=" ".join(shouts))
        table.say(line, bot=event.player != table.human)
