"""A Caterpillars room: the engine replaying the room's event log.

A room is its settings (level, the printed layout, where the dice come
from, hints) and a log: pupils joining, the teacher's rolls, every move
each pupil placed.  Its state is nothing but the engine playing that log:
each pupil has a :class:`RoomGame`, the engine's
:class:`~caterpillar_learn.caterpillars.Game` given the room's shared dice;
every choice is checked by the engine (:meth:`Game.check`), written to the
log and committed, and only then made (:meth:`Game.play`) and shown.  A
restart builds every room again from the same log through the same
:meth:`CaterpillarsRoom.apply`, so nothing placed is lost.

The room knows nothing about Panel: a page subscribes a callback
(:meth:`CaterpillarsRoom.subscribe`) that is called after every change.

>>> room = CaterpillarsRoom("KX47PQ", RoomSettings.build("beginner", "standard", dice="typed"))
>>> ada = room.join("Ada")
>>> _ = room.roll("3 5")
>>> ada.game.play(ada.game.legal_moves().first())
>>> room.placed(), room.turn, [kind for kind, _ in room.log]
(1, 1, ['pupil_joined', 'dice_rolled', 'move_placed'])
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from caterpillar_learn.caterpillars import (
    DEFAULT_LABELS,
    CaterpillarsError,
    Game,
    IllegalMoveError,
    Level,
    Move,
    Roll,
    SetupChoice,
    parse_roll,
    rank,
    roll_dice,
)
from caterpillar_learn.caterpillars.dice import roll_setup_dice
from caterpillar_learn.caterpillars.game import choice_from_json, choice_to_json
from caterpillar_learn.caterpillars.scoring import Standing
from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.eventroom import MAX_PUPILS, EventRoom
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.caterpillars import LEVEL_LESSONS, sheet_labels

__all__ = [
    "DICE_SOURCES",
    "LAYOUTS",
    "MAX_PUPILS",
    "CaterpillarsRoom",
    "Pupil",
    "RoomGame",
    "RoomSettings",
    "parse_labels",
    "standard_labels",
]

log = logging.getLogger("caterpillar_learn.classroom")

#: ``standard``: the sheet of the level's own lesson (:func:`standard_labels`); ``typed``: twelve labels the
#: teacher types; ``setup``: the printed layout, its blanks filled from the class's own setup rolls.
LAYOUTS = ("standard", "typed", "setup")
#: ``server``: seeded dice drawn by the server; ``typed``: real dice rolled at the front and typed in.
DICE_SOURCES = ("server", "typed")
#: How the typed labels may be written: numbers, ``-`` or ``.`` for a blank label.
BLANK_MARKS = ("-", ".", "_", "…")


def standard_labels(level: Level) -> tuple[int | None, ...]:
    """The sheet of a level's own lesson, its labels as the lesson fills them: a class that played lesson 01
    meets lesson 01's sheet again in a Beginner room (issue 42).  A room keeps the labels it was made with.

    >>> standard_labels(Level.BEGINNER)
    (1, 2, 6, 3, 6, 2, 1, 5, 5, 1, 2, 6)
    """
    return sheet_labels(LEVEL_LESSONS[level.value])


def parse_labels(value: object) -> tuple[int | None, ...]:
    """Twelve labels as a teacher types them (Alex's four, Bobby's, Charlie's; ``-`` for a blank).

    >>> parse_labels("1 3 6 4 / 6 2 3 5 / 5 4 2 1")
    (1, 3, 6, 4, 6, 2, 3, 5, 5, 4, 2, 1)
    >>> parse_labels("1 - 6 -  - 2 - 5  5 - 2 -") == DEFAULT_LABELS
    True
    >>> parse_labels("1 2 3")
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.codes.ClassroomError: labels: got '1 2 3', expected 12 labels from 1 to 12 \
(- for a blank), Alex's four first
    """
    expected = "12 labels from 1 to 12 (- for a blank), Alex's four first"
    if not isinstance(value, str) or len(value) > 200:
        raise ClassroomError(describe("labels", value, expected))
    tokens = value.replace(",", " ").replace("/", " ").replace("|", " ").split()
    labels: list[int | None] = []
    for token in tokens:
        if token in BLANK_MARKS:
            labels.append(None)
        elif token.isdigit() and len(token) <= 2 and 1 <= int(token) <= 12:
            labels.append(int(token))
        else:
            raise ClassroomError(describe("labels", value, expected))
    if len(labels) != 12:
        raise ClassroomError(describe("labels", value, expected))
    return tuple(labels)


@dataclass(frozen=True)
class RoomSettings:
    """What the teacher chose when creating the room (its ``room_created`` event)."""

    level: Level
    layout: str
    labels: tuple[int | None, ...]
    variation: bool
    dice: str
    seed: int
    hints: bool

    @classmethod
    def build(
        cls,
        level: object,
        layout: object = "standard",
        labels: object = "",
        *,
        dice: object = "server",
        hints: object = True,
        variation: object = False,
        seed: int | None = None,
    ) -> RoomSettings:
        """Settings from the teacher's form, each checked (by the engine where it is a rule question)."""
        chosen = Level.parse(level)
        if layout not in LAYOUTS:
            raise ClassroomError(describe("layout", layout, "one of " + ", ".join(LAYOUTS)))
        if dice not in DICE_SOURCES:
            raise ClassroomError(describe("dice", dice, "one of " + ", ".join(DICE_SOURCES)))
        for name, value in (("hints", hints), ("variation", variation)):
            if not isinstance(value, bool):
                raise ClassroomError(describe(name, value, "true or false"))
        if layout == "standard":
            printed: tuple[int | None, ...] = standard_labels(chosen)
        elif layout == "typed":
            printed = parse_labels(labels)
        else:
            printed = DEFAULT_LABELS
        drawn = random.SystemRandom().randrange(2**32) if seed is None else seed
        settings = cls(chosen, str(layout), printed, bool(variation), str(dice), drawn, bool(hints))
        settings.new_game()  # the engine checks the layout and the variation
        return settings

    def new_game(self) -> Game:
        """A game of this room before any roll (the engine's checks of the layout run here)."""
        return Game(self.level, self.labels, variation=self.variation)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "caterpillars",
            "level": self.level.value,
            "layout": self.layout,
            "labels": list(self.labels),
            "variation": self.variation,
            "dice": self.dice,
            "seed": self.seed,
            "hints": self.hints,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoomSettings:
        settings = cls(
            Level.parse(data["level"]),
            str(data["layout"]),
            tuple(data["labels"]),
            bool(data["variation"]),
            str(data["dice"]),
            int(data["seed"]),
            bool(data["hints"]),
        )
        settings.new_game()
        return settings


class RoomGame(Game):
    """A pupil's game in a room: the room's dice only, and each choice written down before it is made.

    It never draws dice of its own: until the teacher rolls, :meth:`roll`
    says to wait.
    """

    def __init__(self, room: CaterpillarsRoom, pupil: int) -> None:
        settings = room.settings
        super().__init__(settings.level, settings.labels, variation=settings.variation, rolls=room.rolls)
        self.room = room
        self.pupil = pupil

    def roll(self) -> Roll:
        if not self.is_over and not self.has_roll:
            raise IllegalMoveError(text("classroom.msg.wait_roll"))
        return super().roll()

    def play(self, choice: Move | SetupChoice) -> None:
        """Check ``choice`` with the engine, have the room log it, then make it (:meth:`CaterpillarsRoom.place`)."""
        self.room.place(self.pupil, self.check(choice))

    def make(self, choice: Move | SetupChoice) -> None:
        """Make a choice the room has logged (the engine's :meth:`Game.play`)."""
        super().play(choice)


@dataclass
class Pupil:
    """One pupil of a room: a number, the nickname they typed, their game."""

    id: int
    nickname: str
    game: RoomGame


@dataclass
class CaterpillarsRoom(EventRoom):
    """One class playing Caterpillars with shared dice; every change is an event of its log."""

    settings: RoomSettings
    game_name: str = field(init=False, default="caterpillars")
    rolls: list[Roll] = field(init=False, default_factory=list)
    pupils: dict[int, Pupil] = field(init=False, default_factory=dict)
    hints: bool = field(init=False)
    #: Roll the next dice as soon as every pupil has placed (server dice only).
    auto: bool = field(init=False, default=False)
    _reviews: dict[int, dict[str, list[str]]] = field(init=False, default_factory=dict, repr=False)
    #: Reviews on their way from the server's workers, by pupil.
    _reviewing: dict[int, Future[dict[str, list[str]]]] = field(init=False, default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.hints = self.settings.hints
        self.turns = self.settings.new_game().turns

    # -- what pages read ----------------------------------------------------------
    @property
    def turn(self) -> int:
        """How many rolls the teacher has made (setup rolls first)."""
        return len(self.rolls)

    @property
    def setup_turns(self) -> int:
        return self.turns - 12

    def counted(self) -> list[Pupil]:
        """The pupils whose page has connected: only they are shown and waited for (a ghost is neither)."""
        return [pupil for pupil in self.pupils.values() if pupil.id in self.roster.seen]

    def placed(self) -> int:
        """How many counted pupils have placed the latest roll (a finished sheet counts)."""
        return sum(1 for pupil in self.counted() if self.has_placed(pupil))

    def has_placed(self, pupil: Pupil) -> bool:
        return pupil.game.is_over or len(pupil.game.history) >= self.turn

    def can_roll(self) -> bool:
        return self.turn < self.turns

    @property
    def is_over(self) -> bool:
        """Every roll made and every pupil's sheet full."""
        return not self.can_roll() and all(pupil.game.is_over for pupil in self.counted())

    def ranking(self) -> list[Standing]:
        """The class ranking by the rule book: final score, then all twelve boxes (the engine's ``rank``)."""
        return rank({pupil.nickname: pupil.game.state for pupil in self.counted()})

    def pupil_named(self, nickname: str) -> Pupil | None:
        """The pupil whose nickname reads as ``nickname`` (:func:`~.identity.nickname_key`)."""
        ident = self.roster.named(nickname)
        return None if ident is None else self.pupils[ident]

    def reviewed(self, pupil: Pupil) -> dict[str, list[str]] | None:
        """The review of ``pupil``'s sheet if someone has asked for it already."""
        return self._reviews.get(pupil.id)

    def is_busy(self) -> bool:
        """Awake while followed (:meth:`EventRoom.is_busy`) or while a review is worked out for a pupil."""
        return super().is_busy() or bool(self._reviewing)

    def reviewing(self, pupil: Pupil) -> bool:
        """Whether ``pupil``'s review is being worked out in the server's workers."""
        return pupil.id in self._reviewing

    def review(self, pupil: Pupil) -> dict[str, list[str]] | None:
        """The hint generator's review of a finished sheet (loss against best play), computed once.

        It needs the layout's exact solve: with the server's workers
        (:meth:`work_in`) it is worked out there, so ``None`` comes back until
        it has come, and its arrival tells the pupil's page and the teacher's
        (:meth:`notify`).  Without them (a test, a notebook) it is worked out
        here and now.
        """
        if not pupil.game.is_over:
            raise ClassroomError(text("classroom.msg.review_at_end", nickname=pupil.nickname))
        from caterpillar_learn.ui.caterpillars import advice  # the solver: only when asked

        with self.lock:
            if pupil.id in self._reviews:
                return self._reviews[pupil.id]
            if pupil.id not in self._reviewing:
                game = pupil.game
                coming = self.helper.work(advice.review_of, game.state, game.to_json())
                if coming.done():  # worked out here: at once (an error goes to the page's one line)
                    self._reviews[pupil.id] = coming.result()
                    return self._reviews[pupil.id]
                self._reviewing[pupil.id] = coming
                coming.add_done_callback(partial(self._reviewed, pupil.id))
        return None

    def _reviewed(self, ident: int, coming: Future[dict[str, list[str]]]) -> None:
        """On the pool's thread: keep the review that came (a failed one is logged, and may be asked again)."""
        with self.lock:
            if self._reviewing.get(ident) is not coming:  # the pupil was removed meanwhile
                return
            del self._reviewing[ident]
            try:
                self._reviews[ident] = coming.result()
            except Exception:
                log.exception("room %s: the review of pupil %s failed in a worker", self.code, ident)
        self.notify(ident)

    # -- what happens (each one an event, written before it is applied) -----------------
    def roll(self, typed: str | None = None) -> Roll:
        """The next dice: drawn from the room's seed, or the real dice the teacher typed in."""
        with self.lock:
            if not self.can_roll():
                raise ClassroomError(text("classroom.msg.all_rolled"))
            roll = self._typed_roll(typed) if typed is not None else self._drawn_roll()
            self.check_rolls([*self.rolls, roll])  # the engine checks the dice for this turn
            self.record("dice_rolled", {"turn": self.turn, "dice": list(roll.dice), "action": roll.action})
            return roll

    def place(self, pupil: int, choice: Move | SetupChoice) -> None:
        """Log a pupil's checked choice, then make it; with auto on, roll once every pupil has placed."""
        with self.lock:
            game = self.pupils[pupil].game
            self.record("move_placed", {"pupil": pupil, "turn": len(game.history), "choice": choice_to_json(choice)})
            everyone = len(self.counted())
            if self.auto and self.settings.dice == "server" and self.can_roll() and self.placed() == everyone:
                self.roll()

    def set_hints(self, on: object) -> None:
        if not isinstance(on, bool):
            raise ClassroomError(describe("hints", on, "true or false"))
        with self.lock:
            self.record("hints_set", {"on": on})

    def set_auto(self, on: object) -> None:
        if not isinstance(on, bool):
            raise ClassroomError(describe("auto", on, "true or false"))
        with self.lock:
            self.record("auto_set", {"on": on})

    def changes_nothing(self, kind: str, data: Mapping[str, Any]) -> bool:
        """Hints or the automatic roll set as they are already (see :meth:`EventRoom.record`).

        >>> room = CaterpillarsRoom("KX47PQ", RoomSettings.build("beginner", hints=True))
        >>> room.set_hints(True); room.set_auto(False); room.log
        []
        """
        now = {"hints_set": self.hints, "auto_set": self.auto}
        return kind in now and data.get("on") == now[kind]

    def part_of(self, kind: str, data: Mapping[str, Any]) -> int | None:
        """A move changes its pupil's sheet; every other event the whole room."""
        who = data.get("pupil") if kind == "move_placed" else None
        return who if isinstance(who, int) else None

    EVENT_WORDS = "an event of a Caterpillars room"

    def appliers(self) -> Mapping[str, Callable[[Mapping[str, Any]], None]]:
        """Each event of a Caterpillars room's log and its handler (the engine does every check)."""
        return {
            **super().appliers(),
            "dice_rolled": self._on_rolled,
            "move_placed": self._on_placed,
            "hints_set": self._on_hints,
            "auto_set": self._on_auto,
        }

    def seated(self, ident: int, nickname: str, data: Mapping[str, Any]) -> Pupil:
        return Pupil(ident, nickname, RoomGame(self, ident))

    def unseated(self, ident: int, gone: Any) -> None:
        self._reviews.pop(ident, None)
        self._reviewing.pop(ident, None)

    def _on_rolled(self, data: Mapping[str, Any]) -> None:
        if data["turn"] != self.turn:
            raise ClassroomError(describe("dice_rolled turn", data["turn"], f"turn {self.turn}"))
        roll = Roll(tuple(data["dice"]), data.get("action"))
        for pupil in self.pupils.values():
            pupil.game.add_roll(roll)
        self.rolls.append(roll)

    def _on_placed(self, data: Mapping[str, Any]) -> None:
        game = self.pupils[int(data["pupil"])].game
        if data["turn"] != len(game.history):
            raise ClassroomError(describe("move_placed turn", data["turn"], f"turn {len(game.history)}"))
        game.make(choice_from_json(data["choice"]))
        self.roster.seen.add(int(data["pupil"]))  # a pupil who placed had a page (also after a restart)

    def _on_hints(self, data: Mapping[str, Any]) -> None:
        self.hints = bool(data["on"])

    def _on_auto(self, data: Mapping[str, Any]) -> None:
        self.auto = bool(data["on"])

    # -- the dice -----------------------------------------------------------------
    def check_rolls(self, rolls: Sequence[Roll]) -> Game:
        """A fresh game of this room given ``rolls`` (raises the engine's error for a bad one)."""
        game = self.settings.new_game()
        for roll in rolls:
            game.add_roll(roll)
        return game

    def _drawn_roll(self) -> Roll:
        # One generator per turn, from the room's seed: a restart draws the same next roll.
        rng = random.Random(f"{self.settings.seed}/{self.turn}")
        if self.turn < self.setup_turns:
            return Roll(roll_setup_dice(rng))
        return roll_dice(self.settings.level, rng)

    def _typed_roll(self, typed: object) -> Roll:
        if not isinstance(typed, str) or len(typed) > 60:
            raise ClassroomError(describe("dice", typed, "the dice as numbers, e.g. 3 5"))
        try:
            if self.turn < self.setup_turns:  # setup rolls: three plain dice at every level
                values = [int(token) for token in typed.replace(",", " ").split() if token.isdigit()]
                if len(values) != 3 or len(values) != len(typed.replace(",", " ").split()):
                    raise ClassroomError(describe("setup dice", typed, "three dice from 1 to 6, e.g. 2 4 6"))
                return Roll(tuple(sorted(values)))
            return parse_roll(typed, self.settings.level)
        except CaterpillarsError as error:
            raise ClassroomError(str(error)) from None
