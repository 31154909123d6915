"""One Räuber Raupe table behind a widget: events in, a game and its story out.

:class:`RaupeTable` holds one game (the engine's
:class:`~caterpillar_learn.raupe.Game`) and what the screen shows around it
(which side of each hand card faces up, the shouts armed for the next card,
what just happened, the learner's tally); it knows nothing about anywidget
(:class:`~caterpillar_learn.ui.base.Controller`).  The widget hands it the
front end's events and copies its views
(:mod:`~caterpillar_learn.ui.raupe.views`) into traits, so a test drives the
very same logic without a browser.  Each lesson's table is a
:class:`~caterpillar_learn.lessons.TableSetup`.

Time.  The engine stamps every event with seconds.  The table's clock only
moves when told: the front end sends a ``tick`` with the real seconds since
its last tick (about four a second while a game runs), the table multiplies
them by the bots' speed factor and applies every bot event that has come due
(:func:`~caterpillar_learn.raupe.next_table_event`).  A learner's action is
stamped with the current clock.  So Voila needs no background task, and a
test advances the clock explicitly with ``tick`` events.  A ``pause`` event
stops the clock until the next one: ticks are ignored, so the bots wait too,
and the learner's cards, shouts and calls are refused with one line.

Fair in real time.  A card is judged against the pile the learner saw.  The
page sends with each card the pile size it showed (``seen``) and the seconds
since that pile appeared (``since``); without them the table uses its own
real-time clock (the ticks' seconds, before the speed factor).  A card that
does not fit the pile as it is now, tapped while the page still showed an
older pile or within :data:`TOO_LATE` seconds after the pile changed, is
refused with "Too late: the pile changed" and costs nothing.  Only a change
someone else made counts: the learner's own card (or call) never makes their
next tap late (issue 40), so a second card tapped at once is judged on the
learner's own card like any other.

Help follows the child (issue 40).  The hints of
:func:`~caterpillar_learn.ui.raupe.seat.to_do` wait for the learner, not for
the pile: :attr:`RaupeTable.waited` counts real seconds since the learner's
own last action (a card tapped, a call, a flip, Start), or since a card of
theirs fits again after a spell where none did (a child who was rightly
watching is not hinted at once).  The bots playing meanwhile do not restart
it, and they keep their pace: the marked card is drawn afresh from each new
pile, so it always fits the pile as it lies (a card covered a moment before
the tap is "too late", and free).

A wrong card shows at once.  When the learner's card does not fit the leaf
it went on, the table says so at once: the learner's own line says which
trait the mode asks for ("Not the same shape!"), and
:attr:`RaupeTable.shown_slip` keeps the card beside that leaf in the table's
view (``slip``, each with its shape and colour in words) while the card can
be called: until the next card on the pile.  A bot's call meanwhile says who
saw the mistake and what it costs, and leaves the why to that picture (not
"the leaf below", which the card now covers).

Speech.  A lesson whose setup has ``speak_bots=False`` (lessons 10 and 11)
shows the bots' cards in the table's line but marks that line as not to be
read aloud (the table view's ``quiet``): the page's voice is for what the
child must know now (PEDAGOGY 24).

>>> from caterpillar_learn.lessons import get_table
>>> table = RaupeTable(get_table("10-raupe-shape"), seed=4)
>>> table.handle({"type": "start"})  # "Which of your cards fit?" comes first
Traceback (most recent call last):
...
caterpillar_learn.ui.events.BadEventError: Answer the question first, then play.
>>> for option in sorted(table.quiz.question.correct):
...     table.handle({"type": "answer", "option": option})
>>> table.handle({"type": "check"})
>>> table.handle({"type": "start"})
>>> table.handle({"type": "play", "index": "x"})
Traceback (most recent call last):
...
caterpillar_learn.ui.events.BadEventError: card number: got 'x', expected a whole number from 0 to 11
>>> Game.from_json(table.record()).state == table.game.state
True

Resume (:mod:`caterpillar_learn.ui.resume`).  A reload comes back at the
lesson's step with the same cards, not in the middle of a game: a real-time
game stopped half-way is dealt again.  The save keeps the events that make
the step (the question's answers and checks, *Start*/*New game*, the bots'
speed and level), not the ticks, cards and calls of a game; its ``engine``
is the current game as dealt (``Game.to_json``).  The replayed table has the
same game dealt, and if it was running it waits, paused, for the learner.

>>> saved = table.save()
>>> [event["type"] for event in saved["events"]][-2:]
['check', 'start']
>>> back = RaupeTable.restore(saved, setup=get_table("10-raupe-shape"))
>>> back.game.state.hands == table.game.state.hands, back.paused, back.quiz.answers == table.quiz.answers
(True, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from caterpillar_learn.errors import describe
from caterpillar_learn.i18n import text
from caterpillar_learn.lessons import SETUPS, TableSetup
from caterpillar_learn.lessons.raupe_files import SPEEDS
from caterpillar_learn.raupe import (
    BotLevel,
    Call,
    Close,
    Event,
    Game,
    IllegalEventError,
    Mode,
    Play,
    get_level,
    mode_name,
    next_table_event,
    outcome,
    parse_mode,
    winner_text,
)
from caterpillar_learn.raupe.cards import Card, Side
from caterpillar_learn.raupe.referee import PENALTY_CARDS, Outcome
from caterpillar_learn.ui.events import BadEventError, Dispatcher, Handler, handler, number, whole
from caterpillar_learn.ui.quiz import Quiz
from caterpillar_learn.ui.raupe import seat
from caterpillar_learn.ui.raupe.commentary import Commentary
from caterpillar_learn.ui.raupe.questions import TableQuestions
from caterpillar_learn.ui.raupe.table_save import KEPT, replay, save_of
from caterpillar_learn.ui.raupe.views import hand_view, lesson_view, slip_view, table_view
from caterpillar_learn.ui.resume import SaveError, SaveRecord

__all__ = ["RaupeTable"]

#: What waits while a lesson's question is open (a tap on a card answers it instead).
WAIT_FOR_THE_ANSWER = ("flip", "shout", "mistake", "pause", "start")
#: What needs a game that runs: not over, not paused.
IN_PLAY = ("play", "flip", "shout", "mistake")
#: Longest stretch of real time one tick may add (a hidden browser tab pauses the game).
MAX_TICK = 1.0
LOG_LINES = 5
#: Bot events applied at most per tick, so a long tick cannot run a whole game at once.
MAX_EVENTS_PER_TICK = 20
#: Real seconds after a change of the pile during which a card that no longer fits counts as "too late".
TOO_LATE = 0.5
_NO_OUTCOME = Outcome(winners=(), stalemate=False)


class RaupeTable(Dispatcher, seat.SeatRules):
    """One game at one table, driven by events; a bad event only sets :attr:`message`.

    >>> from caterpillar_learn.lessons import get_table
    >>> table = RaupeTable(get_table("15-raupe-race"), seed=2)
    >>> table.handle({"type": "start"}); table.handle({"type": "tick", "dt": 1.0})
    >>> table.now  # a second of real time at this table's speed (1.0)
    1.0
    """

    #: The ``kind`` of this controller's saves (:mod:`caterpillar_learn.ui.resume`).
    save_kind = "raupe-lesson"

    def __init__(
        self, setup: TableSetup, seed: int, name: str = "", *, words: Callable[[], Mapping[str, Any]] | None = None
    ) -> None:
        #: The events a save keeps (:data:`KEPT`), in order, without ``seq``.
        self.accepted: list[dict[str, Any]] = []
        self.setup = setup
        self.name = name
        #: The lesson's words around the table in the current language (``lesson_text``): a teacher's lesson file's
        #: (:func:`~caterpillar_learn.lessons.raupe_files.words_of`); ``None``: the catalogue's for ``name``.
        self.words = words
        self.seed = seed
        self.level = setup.level
        self.speed = setup.speed
        self.games = 0
        self.human: int | None = 0  # the learner is player 1 at every table (the referee holds cards too)
        self.tally = {"fits": 0, "slips": 0, "caught": 0, "right": 0, "wrong": 0, "missed": 0}
        self.message = ""
        self.quiz = Quiz()
        #: The opening question, and the learner's slips asked about before the next game (issue 33).
        self.questions = TableQuestions(self)
        #: The table's line about each card and call.
        self.commentary = Commentary(self)
        self.deal()
        if setup.question and self.human is not None:
            self.questions.ask()

    # -- setting up ------------------------------------------------------------
    def deal(self) -> None:
        """A fresh game: the lesson's seed first, then one more for every new game."""
        seed = self.seed + self.games
        self.game = Game(self.setup.players, seed, parse_mode(self.setup.mode), self.setup.deck())
        #: The game as dealt (``Game.to_json``): a save's ``engine``, which a resume deals again.
        self.dealt = self.game.to_json()
        self.bot_rng = random.Random(seed * 1_000_003 + 17)  # bots draw apart from the deal and cuts
        self.now = 0.0
        #: Real seconds the clock has run (before the speed factor) and when the pile last changed.
        self.real = 0.0
        self.pile_changed = -TOO_LATE
        #: The pile's size after each change since the deal, and whether the learner made it (their card or
        #: call): what :meth:`pile_moved` reads; and when someone else last changed it (real seconds).
        self.pile_sizes: list[tuple[int, bool]] = [(len(self.game.state.pile), False)]
        self.others_changed = -TOO_LATE
        #: When the learner last acted, or again had a card that fits (real seconds): :attr:`waited` counts from
        #: here; and whether a card of theirs fitted at the last change of the table.
        self.idle_since = 0.0
        self.could_play = self.can_play()
        #: The learner's newest card that did not fit, beside the leaf it went on (the card, its side, the leaf):
        #: shown until the next card on the pile (the table view's ``slip``).
        self.shown_slip: tuple[Card, int, Side] | None = None
        #: Whether :attr:`message` tells a bot's move (shown, and not read aloud where the lesson says so).
        self.bot_said = False
        self.started = False
        self.paused = False
        self.faces = [0] * len(self.game.state.hands[0])
        self.armed_aphid = False
        self.armed_mode: Mode | None = None
        self.log: list[str] = []
        self.pending: Event | None = None
        self.plan()

    @property
    def levels(self) -> list[BotLevel | None]:
        """Each seat's bot level (None for the learner).

        A bot holding :data:`~caterpillar_learn.raupe.referee.PENALTY_CARDS` cards or fewer does not
        call: its call would hand over its last cards and win the lesson's game on the spot
        (docs/RULES.md, "Mistake").
        """
        level = self.setup.bot_level(self.level)
        quiet = replace(level, notice_chance=0.0, false_call_rate=0.0)
        hands = self.game.state.hands
        return [
            None if seat == self.human else quiet if len(hands[seat]) <= PENALTY_CARDS else level
            for seat in range(self.game.players)
        ]

    def plan(self) -> None:
        """Ask the bots for their next event (drawn afresh after every change of the table)."""
        state = self.game.state
        event = None if state.finished else next_table_event(state, self.levels, self.bot_rng)
        latest = round(state.clock + self.setup.bot_wait * self.setup.speed, 3)
        if isinstance(event, Play) and event.time > latest:
            event = replace(event, time=latest)
        self.pending = event

    def say(self, line: str, *, bot: bool = False) -> None:
        self.message = line
        self.bot_said = bot
        self.log = [line, *self.log][:LOG_LINES]

    def can_play(self) -> bool:
        """Whether a card of the learner's fits the pile now (either side)."""
        return self.human is not None and bool(self.game.legal_plays(self.human))

    def acted(self) -> None:
        """The learner did something (a card tapped, a call, a flip, Start): the hints' wait starts again."""
        self.idle_since = self.real

    # -- events ------------------------------------------------------------------
    def interim(self, event: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    @property
    def showing(self) -> bool:
        """Whether the opening question shows its answer (:attr:`.questions.TableQuestions.showing`)."""
        return self.questions.showing

    def translate(self) -> None:
        """Ask the question again in the current language (:meth:`.questions.TableQuestions.translate`)."""
        self.questions.translate()

    @property
    def asking(self) -> bool:
        """Whether the question waits for a right answer before the first game (taps on cards answer it)."""
        return self.quiz.is_pending and not self.started

    def handlers(self) -> dict[str, Handler]:
        """Each event a page may send, and the method that applies it (the events this table takes)."""
        return {
            "answer": self.on_answer, "check": self.on_check, "start": self.on_start, "tick": self.on_tick,
            "play": self.on_play, "flip": self.on_flip, "shout": self.on_shout, "mistake": self.on_mistake,
            "speed": self.on_speed, "level": self.on_level, "pause": self.on_pause, "nickname": self.on_nickname,
        }  # fmt: skip

    def handle(self, event: Mapping[str, Any]) -> None:
        """Apply one front-end event through its handler (:meth:`handlers`); a bad one raises and changes nothing."""
        apply = handler(event, self.handlers())
        kind = event["type"]
        if self.asking and kind in WAIT_FOR_THE_ANSWER:
            raise BadEventError(text("lessons.question.answer_first"))
        if kind in IN_PLAY and not self.asking:
            if self.game.state.finished:
                raise BadEventError(text("raupe_lessons.msg.over"))
            if self.paused:
                raise BadEventError(text("raupe_lessons.msg.is_paused"))
        answering = self.asking
        slip = self.quiz.question is not None and self.quiz.question.kind == "slip" and answering
        after_slips = kind == "start" and not self.started and self.games > 0 and not self.asking
        apply(event)
        kept = {name: value for name, value in event.items() if name != "seq"}
        if after_slips:  # the game was dealt before the slips' questions: a replay, which has no slips, deals it
            kept["deal"] = False  # at the start before; this start only starts it
        if (kind in KEPT and not (slip and kind in ("answer", "check"))) or (kind == "play" and answering and not slip):
            self.accepted.append(kept)

    # -- save and resume (caterpillar_learn.ui.resume) ------------------------------------
    def save(self) -> SaveRecord:
        """The step's events and the current game as dealt (:func:`.table_save.save_of`)."""
        return save_of(self)

    def replay(self, save: object) -> None:
        """Replay ``save`` on this fresh table through its own guard, or raise :class:`SaveError`."""
        replay(self, save)

    def fresh(self) -> RaupeTable:
        """The same lesson and seed at its start (the learner's nickname kept), asking in the current language."""
        table = type(self)(self.setup, self.seed, self.name, words=self.words)
        table.quiz.nickname = self.quiz.nickname
        return table

    def close(self) -> None:
        """Nothing runs beside a table (its clock is the page's ticks)."""

    @classmethod
    def restore(cls, save: object, *, setup: TableSetup | None = None, lesson: str | None = None) -> RaupeTable:
        """The table ``save`` names (its lesson's table, or ``setup``), replayed; or :class:`SaveError`."""
        name = lesson if lesson is not None else save.get("lesson") if isinstance(save, Mapping) else None
        seed = save.get("seed") if isinstance(save, Mapping) else None
        if not isinstance(name, str) or (setup is None and name not in SETUPS):
            raise SaveError(describe("save lesson", name, "one of " + ", ".join(SETUPS)))
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
            raise SaveError(describe("save seed", seed, "a whole number from 0 to 4294967295"))
        table = cls(setup if setup is not None else SETUPS[name], seed, name)
        table.replay(save)
        return table

    # -- the handlers, one per event -------------------------------------------------
    def on_answer(self, event: Mapping[str, Any]) -> None:
        self.quiz.choose(event.get("option"))

    def on_check(self, event: Mapping[str, Any]) -> None:
        self.questions.check()

    def on_play(self, event: Mapping[str, Any]) -> None:
        index = whole(event.get("index"), "card number", len(self.faces))
        if self.asking:  # a tap on a card answers the question
            self.quiz.choose(str(index))
        else:
            self.play(index, *self.seen(event))

    def on_start(self, event: Mapping[str, Any]) -> None:
        self.start(deal=event.get("deal") is not False)

    def on_nickname(self, event: Mapping[str, Any]) -> None:
        self.quiz.name_learner(event.get("value"))

    def on_tick(self, event: Mapping[str, Any]) -> None:
        self.advance(number(event.get("dt"), "tick dt", 0.0, 3600.0))

    def on_speed(self, event: Mapping[str, Any]) -> None:
        self.speed = number(event.get("value"), "speed", *SPEEDS)

    def on_level(self, event: Mapping[str, Any]) -> None:
        value = event.get("value")
        self.level = get_level(value if isinstance(value, str) and len(value) < 40 else "…").name
        self.plan()

    def on_pause(self, event: Mapping[str, Any]) -> None:
        self.toggle_pause()

    def on_mistake(self, event: Mapping[str, Any]) -> None:
        self.advance(0.0)
        self.call(*self.seen(event))

    def on_flip(self, event: Mapping[str, Any]) -> None:
        assert self.human is not None
        index = whole(event.get("index"), "card number", len(self.faces))
        self.faces[index] = 1 - self.faces[index] if self.game.state.hands[self.human][index].sides else 0
        self.acted()

    def on_shout(self, event: Mapping[str, Any]) -> None:
        self.shout(event.get("word"))

    @staticmethod
    def seen(event: Mapping[str, Any]) -> tuple[int | None, float | None]:
        """What the page showed when the learner tapped: the pile's size, and seconds since it changed."""
        seen, since = event.get("seen"), event.get("since")
        return (
            None if seen is None else whole(seen, "pile seen"),
            None if since is None else number(since, "seconds since the pile changed", 0.0, 86400.0),
        )

    def start(self, *, deal: bool = True) -> None:
        """Start the clock; when a game runs or is over, deal a new one and start it, or first ask about one or two
        of the learner's slips of the game before ("Does this one fit?", issue 33).  ``deal=False``: a replayed
        start after those questions (the replay, which has no slips, dealt and started at the start before)."""
        if self.started:
            if not deal:
                return
            self.games += 1
            self.deal()
            if self.questions.before_next_game():
                self.started = False
                self.message = ""  # the last game's winner is old news beside the new deal's question (issue 40)
                return
        self.started = True
        self.acted()
        self.say(text("raupe_lessons.msg.started", mode=mode_name(self.game.state.mode)))

    def toggle_pause(self) -> None:
        """Stop the clock, or start it again (only while a game runs)."""
        if not self.running:
            raise BadEventError(text("raupe_lessons.msg.nothing_to_pause"))
        self.paused = not self.paused
        self.say(text("raupe_lessons.msg.paused" if self.paused else "raupe_lessons.msg.resumed"))

    @property
    def running(self) -> bool:
        """Whether a game has started and is not over (paused or not)."""
        return self.started and not self.game.state.finished

    def advance(self, seconds: float) -> None:
        """Move the clock by ``seconds`` of real time and apply the bot events now due."""
        if not self.running or self.paused:
            return
        self.real = round(self.real + min(seconds, MAX_TICK), 3)
        self.now = round(self.now + min(seconds, MAX_TICK) * self.speed, 3)
        for _ in range(MAX_EVENTS_PER_TICK):
            due = self.pending
            if due is None or due.time > self.now:
                return
            self.submit(due)

    def shout(self, word: object) -> None:
        """Arm a shout for the learner's next card: "Aphid!" or a mode ("Shape!", "Colour!")."""
        self.acted()
        if word == "aphid":
            self.armed_aphid = not self.armed_aphid
            return
        if word not in ("shape", "colour"):
            raise BadEventError(describe("shout", word, "aphid, shape or colour"))
        mode = parse_mode(word)
        self.armed_mode = None if self.armed_mode is mode else mode

    def is_too_late(self, index: int, seen: int | None, since: float | None) -> bool:
        """Whether the learner's card ``index`` came too late: it fitted no longer, and the pile had
        changed since the page drew it (``seen``) or under :data:`TOO_LATE` seconds before.

        >>> from caterpillar_learn.lessons import get_table
        >>> table = RaupeTable(get_table("15-raupe-race"), seed=3)
        >>> table.start()
        >>> table.is_too_late(0, seen=5, since=None), table.is_too_late(0, seen=1, since=9.0)
        (False, False)
        """
        assert self.human is not None
        state = self.game.state
        fitting = {(o.card, o.side) for o in self.game.legal_plays(self.human)}
        if (index, self.faces[index] if state.hands[self.human][index].sides else 0) in fitting:
            return False
        if state.last is None and state.penalty is None:
            return False  # the pile has not changed since the deal
        return self.pile_moved(seen, since)

    def pile_moved(self, seen: int | None, since: float | None) -> bool:
        """Whether someone else changed the pile after the page drew it (``seen``), or under :data:`TOO_LATE` s
        ago.  The learner's own cards and calls do not count: a tap just after one's own card is not late.

        >>> from caterpillar_learn.lessons import get_table
        >>> table = RaupeTable(get_table("15-raupe-race"), seed=3)
        >>> table.start()
        >>> table.pile_sizes.append((2, True))  # as if the learner's own card had just made the pile 2 cards high
        >>> [table.pile_moved(seen, since) for seen, since in ((1, 3.0), (2, 0.1), (7, 3.0))]
        [False, False, True]
        """
        if self.real - self.others_changed < TOO_LATE:
            return True
        sizes = self.pile_sizes
        newest = reversed(range(len(sizes)))
        drawn = len(sizes) - 1 if seen is None else next((i for i in newest if sizes[i][0] == seen), None)
        if drawn is None:
            return True  # a pile this game never had: the page's is not the one on the table
        if not all(own for _, own in sizes[drawn + 1 :]):
            return True
        # ``since`` counts from the page's newest pile; where the learner made that one, it is no reason.
        return since is not None and since < TOO_LATE and not sizes[drawn][1]

    def play(self, index: int, seen: int | None = None, since: float | None = None) -> None:
        assert self.human is not None
        if not self.started:
            self.start()
        self.advance(0.0)
        self.acted()
        state = self.game.state
        if state.finished:
            raise BadEventError(text("raupe_lessons.msg.over"))
        # The table's rules in the learner's words (the engine would refuse the card in its own).
        empty = next((seat for seat, hand in enumerate(state.hands) if not hand), None)
        if empty is not None:
            raise BadEventError(text("raupe_lessons.msg.hand_empty", player=empty + 1))
        if state.follow_up is not None and state.follow_up != self.human:
            raise BadEventError(text("raupe_lessons.msg.wait_follow_up", player=state.follow_up + 1))
        if self.is_too_late(index, seen, since):
            self.say(text("raupe_lessons.msg.too_late"))
            return
        card = state.hands[self.human][index]
        side = self.faces[index] if card.sides else 0
        when = max(self.now, self.game.state.clock)
        self.submit(Play(when, self.human, card, side, self.armed_aphid, self.armed_mode))
        self.armed_aphid = False
        self.armed_mode = None

    def call(self, seen: int | None = None, since: float | None = None) -> None:
        """The learner calls "Mistake!" on the newest card (too late if a fine card just covered the pile)."""
        assert self.human is not None
        self.acted()
        last = self.game.state.last
        if last is None or last.player == self.human:
            raise BadEventError(text("raupe_lessons.msg.nothing_to_call"))
        if not last.mistakes and self.pile_moved(seen, since):
            self.say(text("raupe_lessons.msg.too_late"))
            return
        self.submit(Call(max(self.now, self.game.state.clock), self.human, ()))

    def submit(self, event: Event, *, quiet: bool = False) -> None:
        """Apply ``event`` (the learner's or a bot's), tell what happened, re-plan the bots."""
        before = self.game.state
        last = before.last
        if last is not None and last.mistakes and isinstance(event, Play | Close):
            self.commentary.uncalled(last.player, last.mistakes)
        try:
            self.game.submit(event)
        except IllegalEventError as error:
            raise BadEventError(str(error)) from None
        state = self.game.state
        if len(state.pile) != len(before.pile) or state.pile[-1] != before.pile[-1]:
            self.pile_changed = self.real
            by = event.player if isinstance(event, Play) else event.caller if isinstance(event, Call) else None
            own = by == self.human
            self.pile_sizes.append((len(state.pile), own))
            if not own:
                self.others_changed = self.real
        if isinstance(event, Play):
            self.commentary.played(event, state, before)
        elif isinstance(event, Call):
            penalty = state.penalty
            assert penalty is not None
            self.tally["caught"] += penalty.right and penalty.accused == self.human
            if penalty.caller == self.human:
                self.tally["right" if penalty.right else "wrong"] += 1
            if not quiet:
                self.say(self.commentary.call(penalty, before), bot=self.human not in (penalty.caller, penalty.accused))
        else:
            result = outcome(state)
            assert result is not None
            self.say(winner_text(result.winners, stalemate=result.stalemate))
        self.reconcile(before)
        could, self.could_play = self.could_play, self.can_play()
        if self.could_play and not could:  # something to do again, after a spell of watching: the wait starts now
            self.acted()
        self.plan()

    def reconcile(self, before: Any) -> None:
        """Keep each hand card's face-up side when cards leave or arrive."""
        if self.human is None:
            return
        old = list(zip(before.hands[self.human], self.faces))
        faces = []
        for card in self.game.state.hands[self.human]:
            match = next((k for k, (c, _) in enumerate(old) if c == card), None)
            faces.append(old.pop(match)[1] if match is not None else 0)
        self.faces = faces

    @property
    def waited(self) -> float:
        """Real seconds since the learner last acted (a card, a call, a flip, Start) or again had a card that
        fits after none did (:func:`~.seat.to_do`'s hint pause); the bots' cards do not restart it."""
        return round(self.real - self.idle_since, 3)

    def record(self) -> dict[str, Any]:
        """The game as the engine saves it (seed, deck, events): ``Game.from_json`` replays it."""
        return self.game.to_json()

    def views(self) -> dict[str, Any]:
        """Every view trait's JSON, by trait name."""
        table = table_view(self)
        slip = self.shown_slip
        if slip is not None and self.running:
            table["slip"] = slip_view(*slip)
        table["quiet"] = self.bot_said and not self.setup.speak_bots
        return {
            "table": table,
            "hand": hand_view(self),
            "log": list(self.log),
            "question": self.questions.view(),
            "lesson_text": lesson_view(self.name) if self.words is None else dict(self.words()),
            "record": self.quiz.record(self.name) if self.quiz.answers else {},
        }
