"""How much a learner must read: sentences and words, counted the same way for every lesson and language.

A sentence ends at ``.``, ``!`` or ``?`` (a colon does not end one); a word
is anything between spaces, so a die's "5" counts as a word as it is read
aloud.  The picture-first lessons (Caterpillars Beginner, Räuber Raupe 10
and 11) allow at most :data:`MAX_SENTENCES` sentences in a step's text and
at most :data:`MAX_WORDS` words in any sentence a learner sees.

>>> sentences("Put the 5 on Bobby: Bobby is in the middle now. Well done!")
['Put the 5 on Bobby: Bobby is in the middle now.', 'Well done!']
>>> words("Put the 5 on Bobby: Bobby is in the middle now.")
11
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MAX_SENTENCES = 2
MAX_WORDS = 12

_END = re.compile(r"(?<=[.!?…])\s+")


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _END.split(" ".join(text.split())) if part.strip()]


def words(sentence: str) -> int:
    return len([w for w in sentence.split() if any(ch.isalnum() for ch in w)])


def too_long(texts: Iterable[str], max_sentences: int | None = MAX_SENTENCES) -> list[str]:
    """The texts that break the limits (more sentences than ``max_sentences``, or a sentence too long)."""
    bad = []
    for text in texts:
        parts = sentences(text)
        if (max_sentences is not None and len(parts) > max_sentences) or any(words(p) > MAX_WORDS for p in parts):
            bad.append(text)
    return bad


def load(texts: Iterable[str]) -> tuple[int, int]:
    """The reading load of distinct texts: (sentences, words)."""
    unique = set(texts)
    return sum(len(sentences(t)) for t in unique), sum(words(t) for t in unique)
