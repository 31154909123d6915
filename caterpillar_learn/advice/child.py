"""The helper's best move in a child's words: where the die goes, and one true reason, with no numbers.

A child of five reads (or hears) "Put the 5 on Bobby: Bobby is in the
middle now." rather than expected values.  The reason is a fact about the
sheet *after* the move, read off the totals, and only said when it holds
strictly: the caterpillar is then the middle one, the smallest or the
biggest.  (The median rule is why that matters: the middle caterpillar's
points count, and best play keeps one caterpillar small.)  When no such
fact holds, the helper only says that it likes the move best.

>>> from caterpillar_learn.caterpillars import Move, State, apply
>>> state = State.new("beginner", [1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
>>> state = apply(apply(state, Move.of("Alex", 0, 6)), Move.of("Charlie", 0, 2))
>>> child_reason(state, Move.of("Bobby", 2, 4))
'middle'
>>> child_hint(state, Move.of("Bobby", 2, 4))
'Put the 4 on Bobby: Bobby is in the middle now.'
>>> child_hint(state, Move.of("Bobby", 1, 0, zero=True))
'Put a 0 on Bobby: Bobby stays the smallest.'
"""

from __future__ import annotations

from caterpillar_learn.caterpillars import CATERPILLARS, Move, State, apply
from caterpillar_learn.i18n import text

__all__ = ["REASONS", "child_hint", "child_reason"]

#: The reasons a child hint may give, each a fact about the totals after the move.
REASONS = ("middle", "smallest", "biggest", "best")


def child_reason(state: State, move: Move) -> str:
    """Which of :data:`REASONS` is true of the totals after ``move`` (``"best"`` when none is)."""
    totals = apply(state, move).totals
    mine = totals[CATERPILLARS.index(move.caterpillar)]
    others = [total for name, total in zip(CATERPILLARS, totals) if name != move.caterpillar]
    if min(others) < mine < max(others):
        return "middle"
    if mine < min(others):
        return "smallest"
    if mine > max(others):
        return "biggest"
    return "best"


def child_hint(state: State, move: Move) -> str:
    """One or two short sentences: where to put the die, and why (see the module docstring)."""
    if move.zero:
        put = text("advice.child.zero", caterpillar=move.caterpillar)
    else:
        put = text("advice.child.put", score=move.score, caterpillar=move.caterpillar)
    reason = text(f"advice.child.{child_reason(state, move)}", caterpillar=move.caterpillar)
    return text("advice.child.hint", put=put, reason=reason)
