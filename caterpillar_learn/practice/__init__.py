"""Practice from one's own mistakes: a game's costliest moves come back to be played again.

* :mod:`.mistakes`: the costliest moves of a game (the review's losses) as
  positions, and the verdict on a new try;
* :mod:`.ideas`: the idea each mistake missed, from the engine's comparison
  of the move and the best one;
* :mod:`.book`: the learner's practice book, the spaced schedule and which
  ideas are mastered.

The lessons show it (:mod:`caterpillar_learn.ui.caterpillars.practice`);
nothing here draws or knows about a page.
"""

from caterpillar_learn.practice.book import BOOK_FORMAT, GAPS, MASTERY_DAYS, Book, IdeaRecord, Item, game_key
from caterpillar_learn.practice.ideas import IDEAS, idea_of
from caterpillar_learn.practice.mistakes import (
    MOST,
    Mistake,
    Position,
    PracticeError,
    Verdict,
    costliest,
    judge,
    mistake_at,
    review_ideas,
    threshold,
)

__all__ = [
    "BOOK_FORMAT",
    "GAPS",
    "IDEAS",
    "MASTERY_DAYS",
    "MOST",
    "Book",
    "IdeaRecord",
    "Item",
    "Mistake",
    "Position",
    "PracticeError",
    "Verdict",
    "costliest",
    "game_key",
    "idea_of",
    "judge",
    "mistake_at",
    "review_ideas",
    "threshold",
]
