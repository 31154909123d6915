"""What the page's voice needs from Python: the words it says on its own, and where it starts switched on.

The voice itself is ``widgets/shared.js`` (``speaker`` and the voice behind it):
each new step, question and feedback is read aloud as it appears, through the
browser's ``speechSynthesis``, as PhET's Voicing does.  It is on from the start
in the lessons for children who cannot read yet (:data:`SPOKEN_LESSONS`) and
off elsewhere; the learner's switch (``data-testid="voice-switch"``) wins, and
the page remembers it.

Every widget's ``strings`` carry these entries (:func:`voice_strings`):

* ``voice_default``: ``"on"`` or ``"off"``;
* ``voice_switch``: the switch's label;
* ``decimal_mark``: the language's decimal mark (Babel's CLDR symbol), for numbers the front end writes itself
  (``decimal`` in ``widgets/shared.js``: a table's ``24,5`` in German);
* ``speech``: JSON of ``{"twins": [[shown, spoken], ...], "ear": [[symbol, word], ...], "decimal": mark}``: the
  catalogue's spoken twins (templates, matched against what is shown) and the
  symbols said as words (:data:`caterpillar_learn.i18n.EAR_SYMBOLS`).

>>> strings = voice_strings(True)
>>> strings["voice_default"], strings["voice_switch"], strings["decimal_mark"]
('on', 'Read aloud by itself', '.')
>>> ["+", "plus"] in json.loads(strings["speech"])["ear"]
True
>>> speaks_by_default("01-beginner"), speaks_by_default("02-intermediate"), speaks_by_default("11-raupe-colour")
(True, False, True)
"""

from __future__ import annotations

import json

from caterpillar_learn.i18n import EAR_SYMBOLS, format_number, spoken_twins, text

__all__ = ["SPOKEN_LESSONS", "speaks_by_default", "voice_strings"]

#: The lessons whose page reads aloud by itself from the start: the first ones of each game.
SPOKEN_LESSONS = frozenset({"00-setup", "01-beginner", "10-raupe-shape", "11-raupe-colour"})


#: A teacher's lesson (a file) for children this old or younger starts with the voice on, as ours for them do.
SPOKEN_UP_TO_AGE = 7


def speaks_by_default(lesson: str | None, age: int = 0) -> bool:
    """Whether the page of ``lesson`` (a lesson's name, or ``None`` outside a lesson) starts with the voice on;
    ``age``: the youngest age a teacher's lesson is for (0: one of ours, whose names say it).

    >>> speaks_by_default("doubles", age=5), speaks_by_default("doubles", age=9)
    (True, False)
    """
    return lesson in SPOKEN_LESSONS or 0 < age <= SPOKEN_UP_TO_AGE


def voice_strings(on: bool) -> dict[str, str]:
    """The voice's entries of a widget's ``strings``, in the current language (see the module's documentation)."""
    ear = [[symbol, text(f"ui.ear.{name}") if name else ""] for symbol, name in EAR_SYMBOLS.items()]
    speech = {"twins": [list(pair) for pair in spoken_twins()], "ear": ear, "decimal": format_number(0.5, ".1f")[1]}
    return {
        "voice_default": "on" if on else "off",
        "voice_switch": text("ui.voice.switch"),
        "decimal_mark": format_number(0.5, ".1f")[1],
        "speech": json.dumps(speech, ensure_ascii=False),
    }
