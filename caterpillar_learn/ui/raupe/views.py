"""What the Räuber Raupe front end draws: JSON views of a table, described once.

Each payload is a :class:`~typing.TypedDict` here and a JSDoc ``@typedef`` of
the same name and fields in ``widgets/raupe.js`` (a test keeps the two
alike).  :func:`table_view` and :func:`hand_view` read a table (anything
shaped like :class:`Seat`, in practice :class:`~caterpillar_learn.ui.raupe.RaupeTable`)
and change nothing, so a test can call them at any moment.  Every word comes
from the message catalogue; the cards are drawn by :mod:`caterpillar_learn.raupe.svg`.

A lesson's own words (its title, the intro above the table and the "try
this" list below it) are catalogue messages too, numbered per lesson
(``raupe_lessons.intro.<lesson>.1``, ``.2``, ...): :func:`lesson_view`
lists them, so the notebook holds no prose and a translation shows every
word in its own language.

>>> from caterpillar_learn.lessons import get_table
>>> from caterpillar_learn.ui.raupe import RaupeTable
>>> table = RaupeTable(get_table("11-raupe-colour"), seed=3)
>>> view = table_view(table)
>>> view["mode_text"], view["running"], view["paused"], len(hand_view(table)) == len(table.faces)
('Colour', False, False, True)
>>> lesson_view("10-raupe-shape")["intro"][3]
'Put the same shape on the leaf.'
"""

from __future__ import annotations

from typing import Any, NotRequired, Protocol, TypedDict

from caterpillar_learn.i18n import catalogue, current_language, text
from caterpillar_learn.lessons import TableSetup
from caterpillar_learn.lessons.stars import MOST, table_stars
from caterpillar_learn.raupe import LEVELS, Card, Game, Mode, Play, mode_name, outcome, strategy_hint, winner_text
from caterpillar_learn.raupe.cards import BUTTERFLY_NAME, Side, format_side
from caterpillar_learn.raupe.hints import describe_side, trait_name
from caterpillar_learn.raupe.svg import card_svg, printed_words, side_svg
from caterpillar_learn.ui.quiz import Quiz

__all__ = [
    "HandCard",
    "LessonText",
    "Seat",
    "SlipView",
    "TableView",
    "hand_view",
    "hint_line",
    "lesson_view",
    "numbered",
    "slip_text",
    "slip_view",
    "table_view",
]


class Seat(Protocol):
    """What the views read of a table (:class:`~caterpillar_learn.ui.raupe.RaupeTable`)."""

    setup: TableSetup
    game: Game
    human: int | None
    faces: list[int]
    quiz: Quiz
    armed_aphid: bool
    armed_mode: Mode | None
    started: bool
    paused: bool
    tally: dict[str, int]
    speed: float
    level: str

    @property
    def steps(self) -> tuple[str, ...]: ...

    @property
    def step(self) -> str: ...

    @property
    def running(self) -> bool: ...

    def record(self) -> dict[str, Any]: ...

    def to_do(self) -> str: ...

    def now_text(self, todo: str) -> str: ...


class HandCard(TypedDict, total=False):
    index: int
    side: int
    kind: str
    svg: str
    label: str
    #: While "Which of your cards fit?" waits for its check: the card is an answer, maybe chosen.
    answer: bool
    chosen: bool


class TableView(TypedDict):
    mode: str
    mode_text: str
    pile: dict[str, Any]
    opponents: list[dict[str, Any]]
    referee: bool
    armed: dict[str, Any]
    can_call: bool
    follow_up: bool
    started: bool
    running: bool
    paused: bool
    #: False where the server's clock moves the table (a lesson room): the page then sends no ticks.
    ticks: NotRequired[bool]
    finished: bool
    winner: str
    you_won: bool
    hint: str
    score: str
    #: The learner's counts (fitting cards, slips, calls), for the sounds that answer them (widgets/sound.js).
    tally: dict[str, int]
    controls: dict[str, Any]
    record: dict[str, Any]
    #: The calls the lesson has taught ("shape", "colour", "aphid", "mistake"); only these are shown.
    calls: list[str]
    #: The one thing to do now (see :meth:`~caterpillar_learn.ui.raupe.RaupeTable.to_do`) and its line.
    todo: str
    now: str
    #: Where the lesson is: ``{"step": 1-based, "count": n, "label": "Step 2 of 4"}``.
    progress: dict[str, Any]
    hand_title: str
    #: At the end of a game: the stars it earned (1 to 3; 0 while it runs) and their words.
    stars: int
    stars_text: str
    #: A lesson's table: the learner's newest card that did not fit, beside the leaf it went on ({} if none).
    slip: NotRequired[SlipView]
    #: A lesson's table: the message tells a bot's move, shown and not read aloud (``TableSetup.speak_bots``).
    quiet: NotRequired[bool]


class SlipView(TypedDict):
    """A card that did not fit and the leaf it went on, side by side, each with its shape and colour in words."""

    card: str
    leaf: str
    card_text: str
    leaf_text: str
    #: Both in one sentence, for the ear: the page's voice and a screen reader (the pictures and short words are
    #: hidden from it).
    said: str


class LessonText(TypedDict, total=False):
    """A lesson's words around the table (``{}`` for a table that is no lesson)."""

    title: str
    #: The intro above the table: short items, each read aloud on its own.
    intro: list[str]
    try_title: str
    #: "Try this": what to do once the table is known.
    try_items: list[str]


def numbered(prefix: str) -> list[str]:
    """The catalogue keys ``prefix.1``, ``prefix.2``, ... that English has, in order.

    English is the source language, so it decides how many items there are
    (a translation that lacks one falls back to English for it).

    >>> numbered("raupe_lessons.try.11-raupe-colour")
    ['raupe_lessons.try.11-raupe-colour.1', 'raupe_lessons.try.11-raupe-colour.2']
    """
    english = catalogue("en")
    keys: list[str] = []
    while f"{prefix}.{len(keys) + 1}" in english:
        keys.append(f"{prefix}.{len(keys) + 1}")
    return keys


def lesson_view(lesson: str) -> LessonText:
    """The title, intro and "try this" items of the Räuber Raupe lesson ``lesson``, in the current language."""
    if f"raupe_lessons.title.{lesson}" not in catalogue("en"):
        return {}
    return {
        "title": text(f"raupe_lessons.title.{lesson}"),
        "intro": [text(key) for key in numbered(f"raupe_lessons.intro.{lesson}")],
        "try_title": text("raupe_lessons.ui.try"),
        "try_items": [text(key) for key in numbered(f"raupe_lessons.try.{lesson}")],
    }


def hand_view(table: Seat) -> list[HandCard]:
    """The learner's cards: index, side up, kind, picture and words (never whether it fits: the child matches)."""
    if table.human is None:
        return []
    state = table.game.state
    cards = []
    for index, card in enumerate(state.hands[table.human]):
        side = table.faces[index]
        kind = "butterfly" if card.is_butterfly else "change" if card.is_change else "caterpillar"
        item: HandCard = {
            "index": index,
            "side": side,
            "kind": kind,
            "svg": card_svg(card, side, uid=f"h{index}"),
        }
        asking = table.quiz.is_pending and not table.started
        if asking:
            item["answer"], item["chosen"] = True, str(index) in table.quiz.selected
        # Nothing says which card fits: the child matches (a hint marks one after a pause: seat.to_do).
        # The name starts with the words the card prints (what a reader sees is what a screen reader says).
        shown = printed_words(None if card.is_butterfly else card.sides[side])
        label = text("raupe_lessons.aria.card", number=index + 1, count=len(table.faces), words=shown)
        item["label"] = label
        cards.append(item)
    return cards


def slip_text(face: Side, leaf: Side) -> str:
    """A card that did not fit and the leaf it went on, in one sentence for the ear: both shapes and colours.

    >>> from caterpillar_learn.raupe.cards import parse_side
    >>> slip_text(parse_side("round-red@round-red"), parse_side("round-red@jagged-green"))
    'Your caterpillar: round, red; the leaf: jagged, green.'
    """
    return text(
        "raupe_lessons.slip.said",
        **_traits(face.shape.value, face.colour.value),
        leaf_shape=trait_name(leaf.leaf_shape.value),
        leaf_colour=trait_name(leaf.leaf_colour.value),
    )


def _traits(shape: str, colour: str) -> dict[str, str]:
    return {"shape": trait_name(shape), "colour": trait_name(colour)}


def slip_view(card: Card, side: int, leaf: Side) -> SlipView:
    """The pictures and words of a card (``side`` up) that did not fit ``leaf`` (the card it went on).

    >>> from caterpillar_learn.raupe.cards import parse_card, parse_side
    >>> card = parse_card("round-red@round-red|straight-red@round-red")
    >>> view = slip_view(card, 0, parse_side("round-red@jagged-green"))
    >>> view["card_text"], view["leaf_text"]
    ('Caterpillar: round, red', 'Leaf: jagged, green')
    """
    face = card.sides[side]
    return {
        "card": card_svg(card, side, uid="rr-wrong-card", width=90),
        "leaf": side_svg(leaf, uid="rr-wrong-leaf", width=90),
        "card_text": text("raupe_lessons.slip.card_words", **_traits(face.shape.value, face.colour.value)),
        "leaf_text": text("raupe_lessons.slip.leaf_words", **_traits(leaf.leaf_shape.value, leaf.leaf_colour.value)),
        "said": slip_text(face, leaf),
    }


def hint_line(table: Seat) -> str:
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


def earned_stars(table: Seat) -> int:
    """The stars of a finished game (0 while it runs): a win earns all; else the learner's fitting cards
    against the busiest bot's, and a referee's right calls against every mistake there was to call."""
    state = table.game.state
    result = outcome(state)
    if not state.finished or table.human is None:
        return 0
    tally = table.tally
    if table.setup.referee:
        return table_stars(tally["right"], tally["right"] + tally["missed"])
    if result is not None and table.human in result.winners:
        return MOST
    played = [0] * table.game.players
    for event in table.game.events:
        if isinstance(event, Play):
            played[event.player] += 1
    busiest = max((count for seat, count in enumerate(played) if seat != table.human), default=0)
    return table_stars(tally["fits"], busiest)


def face_key(face: Side | None) -> str:
    """A card's face as the page keeps its picture: the face in notation and the language of its words.

    >>> from caterpillar_learn.raupe.cards import parse_side
    >>> face_key(parse_side("round-red@jagged-green+aphid")), face_key(None)
    ('en:round-red@jagged-green+aphid', 'en:butterfly')
    """
    return f"{current_language()}:{BUTTERFLY_NAME if face is None else format_side(face)}"


def for_a_page_holding(held: object, table: TableView) -> TableView:
    """``table`` as sent to a page that was last sent ``held``: the card now under the top, when it is the top
    that page holds, goes as its key alone (``below`` empty, ``below_key`` kept), and the page draws the picture
    it has.  In a race the pile's two pictures were most of a bots' move's bytes (issue 46).

    >>> pile = {"key": "en:b", "svg": "<svg B/>", "below_key": "en:a", "below": "<svg A/>"}
    >>> for_a_page_holding({"pile": {"key": "en:a", "svg": "<svg A/>"}}, {"pile": pile})["pile"]["below"]
    ''
    >>> for_a_page_holding({"pile": {"key": "en:z"}}, {"pile": pile})["pile"]["below"]
    '<svg A/>'
    >>> for_a_page_holding({}, {"pile": pile})["pile"]["below"]
    '<svg A/>'
    """
    pile = table.get("pile") or {}
    held_pile = held.get("pile") if isinstance(held, dict) else None
    if not pile.get("below") or not isinstance(held_pile, dict) or held_pile.get("key") != pile.get("below_key"):
        return table
    return {**table, "pile": {**pile, "below": ""}}


def table_view(table: Seat) -> TableView:
    """Everything on the table but the hand: mode, pile, opponents, calls, clock state, tally, winner, record."""
    state = table.game.state
    top = state.pile[-1]
    words = text("raupe_lessons.card.butterfly") if top.face is None else describe_side(top.face)
    below = state.pile[-2] if table.setup.show_below and len(state.pile) > 1 else None
    result = outcome(state)
    opponents = [
        {"seat": seat, "name": text("raupe_lessons.ui.bot", player=seat + 1), "cards": len(hand)}
        for seat, hand in enumerate(state.hands)
        if seat != table.human
    ]
    tally = table.tally
    score = (
        text("raupe_lessons.ui.referee_tally", **tally)
        if table.setup.referee
        else text("raupe_lessons.ui.player_tally", **tally)
    )
    todo = table.to_do()
    step = table.steps.index(table.step) + 1
    stars = earned_stars(table)
    return {
        "mode": state.mode.word,
        "mode_text": mode_name(state.mode),
        "pile": {
            "svg": card_svg(top.card, top.side, uid="pile"),
            "key": face_key(top.face),
            "size": len(state.pile),
            "label": text("raupe_lessons.aria.pile", words=words, size=len(state.pile)),
            "below": "" if below is None else card_svg(below.card, below.side, uid="below"),
            "below_key": "" if below is None else face_key(below.face),
            "show_below": table.setup.show_below,
            # Who put the top card down (-1: the card dealt to start it), so the page moves it from there.
            "by": -1 if state.last is None else state.last.player,
        },
        "opponents": opponents,
        "referee": table.setup.referee,
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
        "tally": dict(table.tally),
        "controls": {
            "show": table.setup.controls,
            "speed": table.speed,
            "speed_text": text("raupe_lessons.ui.speed_value", value=table.speed),
            "level": table.level,
            "levels": [{"value": name, "label": text(f"raupe_lessons.level.{name}")} for name in LEVELS],
        },
        "record": table.record(),
        "calls": list(table.setup.calls),
        "todo": todo,
        "now": table.now_text(todo),
        "progress": {
            "step": step,
            "count": len(table.steps),
            "label": text("raupe_lessons.ui.progress", step=step, count=len(table.steps)),
        },
        "hand_title": text("raupe_lessons.ui.hand"),
        "stars": stars,
        "stars_text": text("lessons.final.stars", count=stars, most=MOST) if stars else "",
    }
