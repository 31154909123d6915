"""A card table's questions: "Which of your cards fit?" before the first game, and the learner's own slips asked
about before the next ("Does this one fit?", "Did this one need a call?", issue 33).

A :class:`TableQuestions` belongs to one :class:`~caterpillar_learn.ui.raupe.controller.RaupeTable` and asks
through its :class:`~caterpillar_learn.ui.quiz.Quiz`.  A wrong check of the opening question names one card
to look at again and why, by the picture's traits; after :data:`SHOW_AFTER` wrong checks the cards to tap
glow.  No rules here: what fits is the engine's (``Game.legal_plays``), why the hints' words.

>>> from caterpillar_learn.lessons import get_table
>>> from caterpillar_learn.ui.raupe import RaupeTable
>>> table = RaupeTable(get_table("10-raupe-shape"), seed=4)
>>> table.quiz.question.kind, table.questions.showing, table.questions.slips_asked
('cards', False, [])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.questions import Feedback, ask_call, ask_cards, ask_fit
from caterpillar_learn.raupe import Mode, explain_mistake
from caterpillar_learn.raupe.cards import Card, Side
from caterpillar_learn.raupe.hints import describe_side, fit_reason, trait_name
from caterpillar_learn.raupe.referee import Mistake
from caterpillar_learn.raupe.svg import card_svg, side_svg
from caterpillar_learn.ui.quiz import QuestionView

if TYPE_CHECKING:
    from caterpillar_learn.ui.raupe.controller import RaupeTable

__all__ = ["SHOW_AFTER", "SLIPS", "Slip", "TableQuestions"]

#: Wrong checks after which the opening question shows its answer (the learner then taps it).
SHOW_AFTER = 2
#: A slip of the learner's, asked about before the next game: the card, its side, the card it went on, the mode,
#: the mistake (issue 33).
Slip = tuple[Card, int, Side, Mode, Mistake]
#: The slips asked about, by the first of a play's mistakes in this order.
SLIPS = (Mistake.WRONG_CARD, Mistake.MISSING_APHID, Mistake.MISSING_ANNOUNCEMENT)


def in_few_words(feedback: Feedback | None) -> Feedback | None:
    """A slip question's wrong answer says why, and no more (issue 40: at most 40 words on the screen): the
    general "Not quite. Change your answer and check again." goes, the reason stays."""
    wrong = text("lessons.feedback.wrong")
    if feedback is None or feedback.correct or not feedback.text.startswith(wrong):
        return feedback
    why = feedback.text[len(wrong) :].strip()
    return Feedback(False, why[:1].upper() + why[1:] if why else text("lessons.feedback.try_again"))


class TableQuestions:
    """``table``'s questions, and the learner's slips to ask about."""

    def __init__(self, table: RaupeTable) -> None:
        self.table = table
        #: Wrong checks of the opening question; from :data:`SHOW_AFTER` on, the answer is shown.
        self.misses = 0
        #: The learner's slips of the game on the table (a card that did not fit, a missed "Aphid!" or change of
        #: mode), and those asked about before the next game.
        self.slips: list[Slip] = []
        self.slips_asked: list[Slip] = []

    @property
    def showing(self) -> bool:
        """Whether the opening question shows its answer (after :data:`SHOW_AFTER` wrong checks)."""
        return self.misses >= SHOW_AFTER and self.table.quiz.is_pending

    def ask(self) -> None:
        """Ask "Which of your cards fit?" about the hand as it lies (the ✓ marks stay hidden until checked)."""
        table = self.table
        assert table.human is not None
        state = table.game.state
        hand = state.hands[table.human]
        fitting = {(o.card, o.side) for o in table.game.legal_plays(table.human)}
        labels, fits, reasons = [], [], []
        top = state.pile[-1].face
        for index, card in enumerate(hand):
            side = table.faces[index]
            words = text("raupe_lessons.card.butterfly") if card.is_butterfly else describe_side(card.sides[side])
            labels.append(text("raupe_lessons.aria.card", number=index + 1, count=len(hand), words=words))
            if (index, side) in fitting:
                fits.append(index)
            reasons.append(fit_reason(card, side, top, state.mode))
        table.quiz.ask(ask_cards(labels, fits, reasons), "cards")

    def before_next_game(self) -> bool:
        """A new game is dealt: ask about one or two of the last game's slips first (whether any are asked)."""
        slips, self.slips = self.slips[-2:], []
        if not slips or self.table.human is None:
            return False
        self.slips_asked = slips
        self.ask_slip()
        return True

    def ask_slip(self) -> None:
        """Ask about the first slip still to practise: "Does this one fit?" (no, and why) for a card that did not
        fit, "Did this one need a call?" (yes, and which) for a missed call."""
        card, side, leaf, mode, mistake = self.slips_asked[0]
        self.misses = 0
        if mistake is Mistake.WRONG_CARD:
            question = ask_fit(False, fit_reason(card, side, leaf, mode))
        else:
            question = ask_call(True, explain_mistake(mistake))
        self.table.quiz.ask(question, "slip")

    def check(self) -> None:
        """Check the answer: the opening question's in a child's words, a slip's in few, and on to the next slip."""
        table = self.table
        quiz = table.quiz
        quiz.check()
        self.misses += not quiz.is_right
        if quiz.question is not None and quiz.question.kind == "cards":
            quiz.feedback = self.card_feedback()
        table.say("")  # the question's own feedback says it, once (issue 29)
        if quiz.question is None or quiz.question.kind != "slip":
            return
        # Practice, not one of the lesson's answers: the record keeps those (and a reload brings them back).
        del quiz.answers[-1:]
        quiz.feedback = in_few_words(quiz.feedback)
        if quiz.is_right:
            said = quiz.feedback.text if quiz.feedback is not None else ""
            self.slips_asked.pop(0)
            if self.slips_asked:  # the next slip; the last answer's words stay in the table's line
                self.ask_slip()
                table.say(said)

    def card_feedback(self) -> Feedback:
        """The check of "Which of your cards fit?" in a child's words: two short sentences at most.

        Right: which cards fit.  Wrong: one card to look at again (a card
        chosen that does not fit, else one left out) and why, by the picture's
        traits; the next check names the next one.
        """
        table = self.table
        question = table.quiz.question
        assert question is not None and table.human is not None
        chosen, right = set(table.quiz.selected), set(question.correct)
        if question.accepts(chosen):
            # The cards carry no numbers: the feedback counts them (issue 29: nothing the child cannot see).
            if not right:
                return Feedback(True, text("raupe_lessons.feedback.right_none"))
            key = "raupe_lessons.feedback.right_one" if len(right) == 1 else "raupe_lessons.feedback.right_many"
            return Feedback(True, text(key, cards=len(right)))
        if self.showing:  # the cards to tap glow, one at a time; the line above says so
            return Feedback(False, text("lessons.feedback.show"))
        extra, missed = sorted(chosen - right, key=int), sorted(right - chosen, key=int)
        index, fits = (int(extra[0]), False) if extra else (int(missed[0]), True)
        state = table.game.state
        card, side, top = state.hands[table.human][index], table.faces[index], state.pile[-1].face
        if card.is_butterfly or top is None:
            why = fit_reason(card, side, top, state.mode)
            reason = text("raupe_lessons.feedback." + ("missed_why" if fits else "extra_why"), why=why)
        elif fits:
            reason = text(
                "raupe_lessons.feedback.missed", trait=trait_name(card.sides[side].caterpillar_key[state.mode].value)
            )
        else:
            mine = trait_name(card.sides[side].caterpillar_key[state.mode].value)
            reason = text("raupe_lessons.feedback.extra", mine=mine, leaf=trait_name(top.leaf_key[state.mode].value))
        return Feedback(False, text("raupe_lessons.feedback.wrong") + " " + reason)

    def translate(self) -> None:
        """Ask the question again in the current language, keeping the learner's choice and check.

        Only before the first game: the question is about the hand as dealt.
        """
        table = self.table
        quiz = table.quiz
        if table.human is None or quiz.question is None or table.started:
            return
        selected, checked = set(quiz.selected), quiz.feedback is not None
        if quiz.question.kind == "slip":
            misses = self.misses
            self.ask_slip()
            self.misses, quiz.selected = misses, selected
            if checked:
                quiz.check()
            return
        self.ask()
        quiz.selected = selected
        if checked:
            quiz.feedback = self.card_feedback()

    def view(self) -> QuestionView:
        """The question's JSON; a slip's "Does this one fit?" with its picture (the leaf, then the card)."""
        view = self.table.quiz.view()
        if view.get("kind") == "slip" and self.slips_asked:
            card, side, leaf, _, _ = self.slips_asked[0]
            leaf_svg = side_svg(leaf, uid="rr-slip-leaf", width=110)
            view["picture"] = leaf_svg + card_svg(card, side, uid="rr-slip-card", width=110)
        return view
