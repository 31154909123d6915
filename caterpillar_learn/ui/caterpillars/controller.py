"""One learner's Caterpillars game behind a widget: events in, views out.

A :class:`Session` holds a :class:`~caterpillar_learn.caterpillars.Game` and
what the screen shows around it (whether the dice are revealed, the setup
values placed so far, the open per-box menu, the last explanation); a
:class:`~caterpillar_learn.ui.caterpillars.lesson.LessonSession` adds a lesson's steps
(:mod:`.lesson`).  Neither knows anything about
anywidget (:class:`~caterpillar_learn.ui.base.Controller`): the widget hands
them the front end's events and copies :meth:`Session.views` into traits, so
the same logic serves Jupyter, Voila, Panel and the tests.  Every rule
question goes to the engine; an event that makes no sense raises a one-line
error and leaves the game as it was.

As soon as a game's labels are all known (at the start, or when the setup
is done) the session starts the exact solve its hints will read in a
background thread (:func:`~caterpillar_learn.ui.caterpillars.advice.prepare`);
a hint waits for that solve if it is still running, and a new game drops it.

>>> session = Session("beginner", seed=3, auto_setup=True)
>>> session.handle({"type": "roll"})
>>> first = session.legal_moves()[0]
>>> session.handle({"type": "box", "caterpillar": first.caterpillar, "box": first.box})
>>> session.game.state.filled
1
>>> session.handle({"type": "box", "caterpillar": "Dora", "box": 9})
Traceback (most recent call last):
...
caterpillar_learn.caterpillars.errors.InvalidStateError: caterpillar: got 'Dora', expected 'Alex', 'Bobby' or 'Charlie'
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from caterpillar_learn.caterpillars import DEFAULT_LABELS, Game, Move, Roll, SetupChoice, State, legal_moves, why_not
from caterpillar_learn.caterpillars.game import Turn
from caterpillar_learn.caterpillars.sheet import describe_slot, slot_of
from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import Progress
from caterpillar_learn.ui.caterpillars.advice import (
    HERE,
    WAIT_SECONDS,
    Helper,
    Warmup,
    both,
    loss_lines,
    outcome,
    review_of,
)
from caterpillar_learn.ui.caterpillars.dice import DiceSource, OwnDice
from caterpillar_learn.ui.caterpillars.views import (
    dice_view,
    final_view,
    legal_view,
    menu_view,
    review_view,
    sheet_view,
)
from caterpillar_learn.ui.events import BadEventError, Dispatcher, Handler, handler, whole

__all__ = ["Session"]

_uids = itertools.count(1)
log = logging.getLogger("caterpillar_learn.ui")


@dataclass
class Session(Dispatcher):
    """A game plus what the screen shows around it."""

    level: str = "beginner"
    seed: int = 1
    labels: Sequence[int | None] = DEFAULT_LABELS
    variation: bool = False
    auto_setup: bool = False
    #: What *new game* switches to (a lesson's free play), if anything.
    practice: tuple[str, bool] | None = None
    #: Whether the numbers for grown-ups are shown (values, chances, what a move cost, the review);
    #: without them the hint speaks a child's words.
    numbers: bool = True
    #: Where the dice come from and who may roll them (:mod:`.dice`): in a lesson, the learner.
    dice: DiceSource = field(default_factory=OwnDice, repr=False, kw_only=True)
    #: Where the helper's answers are worked out (:class:`~.advice.Helper`): here, or a server's workers.
    helper: Helper = field(default=HERE, repr=False, kw_only=True)
    #: Redraws the page once an answer from elsewhere has come (called on the pool's thread); set by the host.
    told: Callable[[], None] = field(default=lambda: None, repr=False, kw_only=True)
    game: Game = field(init=False)
    revealed: bool = field(init=False, default=False)
    pending: dict[int, int] = field(init=False, default_factory=dict)  # slot → setup label placed this roll
    pieces: list[int] = field(init=False, default_factory=list)  # die index of each, -1 = sum
    selected_die: int | None = field(init=False, default=None)
    menu_slot: int | None = field(init=False, default=None)
    explanation: str = field(init=False, default="")
    message: str = field(init=False, default="")
    hint: dict[str, Any] = field(init=False, default_factory=dict)
    progress: Progress = field(init=False, default_factory=Progress)
    roll_count: int = field(init=False, default=0)
    #: The helper's review of the finished game, once asked for (it takes seconds at Expert).
    advice_review: dict[str, list[str]] | None = field(init=False, default=None)
    #: The background solve of this game's layout, once its labels are known.
    warmup: Warmup | None = field(init=False, default=None, repr=False)
    #: The last round replayed with another move ("Try another move"), as its view.
    whatif: dict[str, Any] = field(init=False, default_factory=dict)
    #: Makes this sheet's pattern ids unique on a page with several boards.
    uid: str = field(init=False, default_factory=lambda: f"b{next(_uids)}")
    #: Whether the page is used by touch: "tap" and no key hints (the front end says otherwise with
    #: the event ``device``; touch first, so a tablet never shows a mouse's words).
    touch: bool = field(init=False, default=True)
    #: The helper's answers on their way: kind → (the turn asked in, the future, how to show it).
    coming: dict[str, tuple[int | None, Future[Any], Callable[[Any], None]]] = field(
        init=False, default_factory=dict, repr=False
    )

    def __post_init__(self) -> None:
        self.start(self.seed)

    # -- starting -----------------------------------------------------------
    def start(self, seed: int) -> None:
        """A fresh game with ``seed`` (the whole class gets the same dice)."""
        self.seed = seed
        for kind, (turn, future, _) in list(self.coming.items()):
            if turn is not None:  # an answer for the last game's sheet
                del self.coming[kind]
                future.cancel()
        self.game = self.make_game(seed)
        self.whatif = {}
        self.revealed = False
        self.pending = {}
        self.pieces = []
        self.selected_die = None
        self.menu_slot = None
        self.explanation = ""
        self.hint = {}
        self.advice_review = None
        if self.warmup is not None:
            self.warmup.cancel()  # only drops it if it has not started; a running solve just ends unread
            self.warmup = None
        if self.auto_setup:
            while self.game.phase == "setup":
                self.game.play(self.game.legal_moves()[0])
        self.solve_layout()

    def make_game(self, seed: int) -> Game:
        """The game a start or *new game* plays (a lesson's first one uses its designed dice)."""
        return Game(self.level, self.labels, variation=self.variation, seed=seed)

    def solve_layout(self) -> None:
        """Start solving the layout in the background (by the helper), once no label is blank."""
        if self.game.phase != "setup" and self.warmup is None:
            self.warmup = self.helper.prepare(self.level, self.game.state.labels)

    # -- what happens outside the session -------------------------------------------
    def catch_up(self) -> None:
        """Take in what happened outside: dice rolled elsewhere (:attr:`dice`), the helper's answers that came.

        The widget calls it before it draws (:meth:`views` itself changes nothing), and :meth:`handle` first.
        """
        self.dice.catch_up(self)
        self.take_answers()

    def expect(self, kind: str, future: Future[Any], show: Callable[[Any], None], *, keep: bool = False) -> None:
        """Show ``future``'s answer with ``show``: now if it has come, else once it comes (:meth:`take_answers`),
        if the turn is still the same (``keep``: whatever happens meanwhile).  Its arrival calls :attr:`told`, so
        the page redraws."""
        self.coming[kind] = (None if keep else len(self.game.history), future, show)
        if future.done():
            self.take_answers()
        else:
            future.add_done_callback(lambda _: self.told())

    def awaits(self, kind: str) -> bool:
        """Whether the helper's answer of ``kind`` (``hint``, ``loss``, ``whatif``, ``review``, ...) is on its way
        (not shown yet: :meth:`catch_up` shows what has come)."""
        return kind in self.coming

    def settle(self, *kinds: str) -> None:
        """Wait for the answers of ``kinds`` still on their way (a replay, or a move that must come after them)."""
        for kind in kinds:
            coming = self.coming.get(kind)
            if coming is not None:
                try:
                    coming[1].result(WAIT_SECONDS)
                except Exception:  # shown by take_answers
                    log.debug("the helper's %s a move waited for failed", kind, exc_info=True)
        self.take_answers()

    def take_answers(self) -> None:
        """Show the answers that have come; drop those for a sheet that is gone (a move since)."""
        turn = len(self.game.history)
        for kind, (asked, future, show) in list(self.coming.items()):
            if asked is not None and asked != turn:
                del self.coming[kind]
                future.cancel()  # a job not started yet is dropped
            elif future.done():
                del self.coming[kind]
                try:
                    found = future.result()
                except Exception:  # one line for the learner, the trace for the log; the game goes on
                    log.exception("%s: the helper's %s failed", type(self).__name__, kind)
                    self.message = text("ui.internal")
                    found = None
                show(found)

    # -- events -------------------------------------------------------------
    def interim(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """What to show while a slow event (a hint, the review) is worked on."""
        if event["type"] == "hint":
            return {"hint": {"status": "thinking", "title": text(self.helper.thinking)}}
        if event["type"] == "review" and self.game.phase == "over":
            return {"review": {**self.views()["review"], "thinking": text("lessons.ui.review_thinking")}}
        return {}

    def handle(self, event: Mapping[str, Any]) -> None:
        """Apply one front-end event through its handler (:meth:`handlers`); a bad one raises and changes nothing."""
        self.message = ""
        apply = handler(event, self.handlers())
        self.catch_up()
        apply(event)

    def handlers(self) -> dict[str, Handler]:
        """Each event a page may send, and the method that applies it (the events this session takes)."""
        return {
            "roll": self.on_roll, "box": self.on_box, "option": self.on_option, "close": self.on_close,
            "die": self.on_die, "hint": self.on_hint, "review": self.on_review, "new_game": self.on_new_game,
            "whatif": self.on_whatif, "device": self.on_device,
        }  # fmt: skip

    # -- the handlers, one per event -------------------------------------------------
    def on_new_game(self, event: Mapping[str, Any]) -> None:
        if self.practice is not None:
            self.level, self.variation = self.practice
        self.start(self.seed + 1)
        self.progress.games_started += 1

    def on_roll(self, event: Mapping[str, Any]) -> None:
        self.roll()

    def on_box(self, event: Mapping[str, Any]) -> None:
        self.click_box(slot_of(event.get("caterpillar"), event.get("box")))  # type: ignore[arg-type]

    def on_option(self, event: Mapping[str, Any]) -> None:
        self.choose(whole(event.get("index"), "option index"))

    def on_close(self, event: Mapping[str, Any]) -> None:
        self.menu_slot = None

    def on_die(self, event: Mapping[str, Any]) -> None:
        self.select_die(whole(event.get("index"), "die index"))

    def on_hint(self, event: Mapping[str, Any]) -> None:
        self.ask_hint()

    def on_review(self, event: Mapping[str, Any]) -> None:
        if self.game.phase != "over":
            raise BadEventError(text("lessons.msg.review_at_end"))
        if self.advice_review is None and "review" not in self.coming:
            self.expect("review", self.helper.work(review_of, self.game.state, self.game.to_json()), self._show_review)

    def _show_review(self, review: dict[str, list[str]] | None) -> None:
        self.advice_review = review

    def on_whatif(self, event: Mapping[str, Any]) -> None:
        self.try_other(whole(event.get("index"), "other move"))

    def on_device(self, event: Mapping[str, Any]) -> None:
        touch = event.get("touch")
        if not isinstance(touch, bool):
            raise BadEventError(describe("touch", touch, "true or false"))
        self.touch = touch

    def words(self, key: str, **values: Any) -> str:
        """The catalogue's text at ``key``, in the mouse's words (``<key>_mouse``) where the page has no touch."""
        if not self.touch:
            try:
                return text(key + "_mouse", **values)
            except KeyError:
                pass
        return text(key, **values)

    def roll(self) -> None:
        """The Roll button: as the dice source says (:meth:`.dice.DiceSource.roll`)."""
        self.dice.roll(self)

    def need_roll(self) -> None:
        """Refuse in one line what needs this turn's dice before they are shown."""
        self.dice.check_rolled(self)

    def click_box(self, slot: int) -> None:
        self.need_roll()
        if self.game.phase == "setup":
            self._place_label(slot)
            return
        moves = [m for m in self.legal_moves() if m.slot == slot]
        if not moves:
            self.progress.illegal_clicks += 1
            self.menu_slot = None
            self.explanation = why_not(self.game.state, self.game.roll(), slot)
        elif len(moves) == 1:
            self._play(moves[0])
        else:
            self.menu_slot = slot
            self.progress.menus += 1

    def choose(self, index: int) -> None:
        self.need_roll()
        moves = self.legal_moves()
        if not 0 <= index < len(moves) or (self.menu_slot is not None and moves[index].slot != self.menu_slot):
            raise BadEventError(describe("option index", index, "one of the options shown"))
        self._play(moves[index])

    def _play(self, move: Move) -> None:
        before, roll = self.game.state, self.game.roll()
        asked = self.hint.get("status") == "ready"
        self.game.play(move)
        self.progress.moves += 1
        self.menu_slot = None
        self.revealed = False
        hinted, self.hint = self.hint, {}
        lines = [played_line(before, move), *(move.how[:1] if self.numbers else ())]
        if self.game.phase == "over":
            self.progress.games_finished += 1
        self.explanation = " ".join(lines)
        if asked and self.numbers:  # after a hint: what the move cost, by the helper (at once, or on its way)
            self._tell_cost(" ".join(lines), before, roll, move)
            return
        if asked:  # in a child's words: the same as the helper, or what the helper would have done; the
            # move itself is on the board (few words, issue 29)
            if hinted.get("best", {}).get("text") == move.describe():
                lines = [text("lessons.hint.child_same")]
            else:
                lines = [text("lessons.hint.child_other", hint=hinted.get("child", ""))]
        if self.game.phase == "over":
            lines.append(text("lessons.explain.over", final=self.game.score().final))
        self.explanation = " ".join(lines)

    def _tell_cost(self, played: str, before: State, roll: Roll, move: Move) -> None:
        over = text("lessons.explain.over", final=self.game.score().final) if self.game.phase == "over" else ""

        def show(lines: list[str] | None) -> None:
            self.explanation = " ".join(part for part in (played, *(lines or ()), over) if part)

        self.explanation = " ".join(part for part in (played, text(self.helper.cost_thinking), over) if part)
        self.expect("loss", self.helper.work(loss_lines, before, roll, move, urgent=False), show)

    def select_die(self, index: int) -> None:
        self.need_roll()
        if self.game.phase != "setup":
            raise BadEventError(text("lessons.msg.die_setup_only"))
        dice = self.game.roll().dice
        if not 0 <= index < len(dice) or index in self.used_dice():
            raise BadEventError(describe("die index", index, "a die not used yet"))
        self.selected_die = index

    def admit_hint(self) -> None:
        """Check that a hint may be asked now (the dice rolled, a round of play) and count it; else refuse in
        one line.  Every way of working out a hint starts here (a classroom's goes to a worker)."""
        self.need_roll()
        if self.game.phase != "play":
            raise BadEventError(text("lessons.msg.hint_play_only"))
        self.progress.hints += 1

    def ask_hint(self) -> None:
        self.admit_hint()
        self.hint = {"status": "thinking", "title": text(self.helper.thinking)}
        if "hint" in self.coming:  # asked again while it is on its way
            return
        self.expect("hint", self.helper.hint(self.game.state, self.game.roll(), self.warmup), self._show_hint)

    def _show_hint(self, view: dict[str, Any] | None) -> None:
        self.hint = view if view is not None else {}

    def other_moves(self) -> list[Move]:
        """The moves the last round offered besides the one played (for "Try another move")."""
        last = self.game.history[-1] if self.game.history else None
        if last is None or not isinstance(last.choice, Move) or self.revealed:
            return []
        return [move for move in legal_moves(last.before, last.roll) if move != last.choice]

    def other_move(self, index: object) -> tuple[Turn, Move, Move]:
        """The last turn, the move played in it and the other move number ``index`` (checked)."""
        others = self.other_moves()
        if not others:
            raise BadEventError(text("lessons.whatif.after_move"))
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(others):
            raise BadEventError(describe("other move", index, f"a number from 0 to {len(others) - 1}"))
        last = self.game.history[-1]
        assert isinstance(last.choice, Move)
        return last, last.choice, others[index]

    def try_other(self, index: int) -> None:
        """Replay the last round with another move; show both outcomes side by side."""
        last, chosen, other = self.other_move(index)
        rounds = sum(1 for turn in self.game.history if not turn.is_setup)
        words = (
            text("lessons.whatif.title", round=rounds),
            text("lessons.whatif.yours", move=chosen.describe()),
            text("lessons.whatif.other", move=other.describe()),
        )
        self.whatif = {"title": text(self.helper.thinking), "index": index}
        work = self.helper.work
        outcomes = both(work(outcome, last.before, chosen), work(outcome, last.before, other))
        self.expect("whatif", outcomes, partial(self._show_whatif, words, index))

    def _show_whatif(self, words: tuple[str, str, str], index: int, found: list[Any] | None) -> None:
        if found is None:
            self.whatif = {}
            return
        title, yours, theirs = words
        self.whatif = {
            "title": title,
            "yours": {**found[0], "text": yours},
            "other": {**found[1], "text": theirs},
            "index": index,
        }

    # -- setup ----------------------------------------------------------------
    def used_dice(self) -> list[int]:
        """The dice (by index) this setup roll's labels took so far."""
        return [index for index in self.pieces if index >= 0]

    def _place_label(self, slot: int) -> None:
        state = self.game.state
        name, box = describe_slot(slot)
        if state.labels[slot] is not None or slot in self.pending:
            self.progress.illegal_clicks += 1
            self.explanation = text("lessons.setup.not_blank", caterpillar=name, number=box + 1)
            return
        dice = self.game.roll().dice
        if self.variation and self.pieces:
            # The variation's second label takes the sum of the two dice not used first.
            index, value = -1, sum(dice) - dice[self.pieces[0]]
        else:
            unused = next(i for i in range(len(dice)) if i not in self.used_dice())
            index = self.selected_die if self.selected_die is not None else unused
            value = dice[index]
        self.pieces.append(index)
        self.pending[slot] = value
        self.selected_die = None
        self.explanation = text("lessons.setup.placed", value=value, caterpillar=name, number=box + 1)
        wanted = 2 if self.variation else 3
        if len(self.pending) >= min(wanted, len(state.blank_label_slots())):
            choice = SetupChoice(tuple(sorted(self.pending.items())))
            self.pending = {}
            self.pieces = []
            self.game.play(choice)
            self.revealed = False
            if self.game.phase == "play":
                self.progress.setup_done = True
                self.explanation = text("lessons.setup.done")  # the news now: every label is there (few words)
                self.solve_layout()

    # -- views --------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """The moves the learner may click now (none before the roll)."""
        if self.game.phase != "play" or not self.revealed:
            return []
        return [move for move in self.game.legal_moves() if isinstance(move, Move)]

    def views(self) -> dict[str, Any]:
        """Every view trait's JSON, by trait name."""
        game = self.game
        blanks = []
        if game.phase == "setup" and self.revealed:
            blanks = [slot for slot in game.state.blank_label_slots() if slot not in self.pending]
        legal = legal_view(game, self.legal_moves(), blanks)
        whatif = {**self.whatif, "options": [m.describe() for m in self.other_moves()]}
        if not self.numbers:
            whatif = {key: _without_value(part) for key, part in whatif.items()}
        return {
            "sheet": sheet_view(game, legal, self.pending, self.uid),
            "dice": dice_view(
                game, revealed=self.revealed, count=self.roll_count, used=self.used_dice(), selected=self.selected_die
            ),
            "legal": legal,
            "menu": menu_view(self.menu_slot, legal),
            "hint": self.hint if self.numbers else _in_child_words(self.hint),
            "explanation": self.explanation,
            "final": final_view(game),
            "review": self._review_view(),
            "whatif": whatif,
        }

    def _review_view(self) -> dict[str, Any]:
        if not self.numbers:
            return {}
        view: dict[str, Any] = dict(review_view(self.game, self.advice_review))
        if "review" in self.coming and view:  # on its way from the helper
            view["thinking"] = text("lessons.ui.review_thinking")
        return view


def _in_child_words(hint: dict[str, Any]) -> dict[str, Any]:
    """The hint without its numbers: the best move in a child's words, and its box for the sheet."""
    if hint.get("status") != "ready":
        return hint
    return {"status": "ready", "title": hint["child"], "lines": [], "options": [], "best": hint["best"]}


def _without_value(part: Any) -> Any:
    """A "Try another move" outcome without its expected score (the sheets side by side stay)."""
    if isinstance(part, dict):
        return {key: value for key, value in part.items() if key != "value_text"}
    return part


def played_line(before: State, move: Move) -> str:
    """What the learner's move did, naming the box by its label, as the board shows it (issue 40: "the die picks
    the box", so box 6 is the box labelled 6); a move with a bonus box in the engine's full words.

    >>> from caterpillar_learn.caterpillars import Game
    >>> game = Game("beginner", labels=[1, 3, 6, 4, 2, 2, 5, 5, 6, 6, 1, 1])
    >>> played_line(game.state, Move.of("Bobby", 0, 4))
    "You wrote 4 in Bobby's box 2."
    >>> played_line(game.state, Move.of("Alex", 2, 0, zero=True))
    "You crossed out Alex's box 6."
    """
    name, _ = describe_slot(move.slot)
    label = before.labels[move.slot]
    if move.bonus is not None or label is None:
        return text("lessons.explain.played", move=move.describe())
    key = "lessons.explain.crossed_out" if move.zero else "lessons.explain.wrote"
    return text(key, caterpillar=name, label=label, score=move.score)
