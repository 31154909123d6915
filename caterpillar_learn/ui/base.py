"""The skeleton every widget shares: events in, views out, nothing else.

A widget is two halves.  Its **controller** (:class:`Controller`) holds one
game and what the screen shows around it; it knows nothing about Jupyter.
It takes one event (a JSON object ``{"type": ..., ...}``) and afterwards
gives its *views*: one plain JSON value per trait the front end draws.  The
**widget** (:class:`LearnWidget`, an :class:`anywidget.AnyWidget`) owns what
is the same for every game:

* the ``event`` trait, the only one the browser may write.  Anything else a
  page sends (a tampered ``step``, ``final`` or ``_esm``) is dropped and
  logged, and the page gets the true values back (:meth:`LearnWidget.set_state`);
* dispatch: the event's type is checked against :attr:`Controller.events`
  and the event handed to the controller, inside the widget's own language;
* the error guard: a bad event becomes a one-line ``message``; any other
  exception is logged through :mod:`logging` and the learner reads one line,
  never a traceback, and the game goes on;
* refresh: the controller's views copied into the traits in one message;
* ``strings``, the interface words the front end shows on its own, and
  ``view_names``, the list of traits it draws (so it is written once, here:
  every trait tagged ``view=True``);
* the language switch: the event ``{"type": "language", "value": code}``
  (any widget; the controller never sees it) changes ``lang``, rebuilds
  ``strings`` and every view in that language; ``languages`` lists the
  choices, each named in its own language;
* resuming (:mod:`caterpillar_learn.ui.resume`), for a controller that can
  be saved: the view ``saved`` is the lesson's save (``{}`` otherwise), which
  the page keeps in its ``localStorage``; the page's event
  ``{"type": "resume", "save": ...}`` (the first of a page, sent as the page
  opens) replays it on a fresh controller, or refuses it and says so in one
  line; ``{"type": "start_over"}`` starts the lesson again.

>>> from caterpillar_learn.ui.caterpillars import CaterpillarsBoard
>>> board = CaterpillarsBoard("beginner", seed=3)
>>> board.set_state({"final": {"final": 99}, "event": {"type": "roll", "seq": 1}})
>>> board.final, board.dice["rolled"]
({}, True)
>>> board.act("fly away")
>>> board.message
"event type: got 'fly away', expected one of roll, box, option, close, die, hint, review, new_game, whatif, device"
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import anywidget
import traitlets

from caterpillar_learn.errors import CaterpillarLearnError, describe, one_line
from caterpillar_learn.i18n import available_languages, current_language, language, language_choices, text
from caterpillar_learn.ui.events import (
    MAX_EVENT_FIELDS,
    MAX_SEQ,
    BadEventError,
    Handler,
    event_type,
    handler,
    number,
    whole,
)
from caterpillar_learn.ui.resume import Resumable, SaveError, storage_key
from caterpillar_learn.ui.voice import speaks_by_default, voice_strings

log = logging.getLogger("caterpillar_learn.ui")

__all__ = [  # the event helpers too, from ui/events.py, where they live
    "BadEventError",
    "Controller",
    "LearnWidget",
    "event_type",
    "handler",
    "number",
    "template",
    "whole",
]

#: The event every widget handles itself: the learner's choice of language.
LANGUAGE_EVENT = "language"
#: The events a widget with a resumable controller handles itself (:mod:`caterpillar_learn.ui.resume`).
RESUME_EVENT, START_OVER_EVENT = "resume", "start_over"
#: The words of the note a resumed (or refused) lesson shows: ``strings`` keys, catalogue ``ui.resume.<key>``.
RESUME_WORDS = ("resumed", "refused", "start_over")
#: Events the page sends by itself, not the learner's actions (a clock's tick, what kind of screen it is).
UNSEEN_EVENTS = ("tick", "device")


class Controller(Protocol):
    """One game behind a widget: it takes an event and gives the views."""

    #: The newest line for the learner, or why an event was refused.
    message: str

    @property
    def events(self) -> tuple[str, ...]:
        """The event types it understands (``{"type": ...}``): its :meth:`handlers`' keys."""

    def handlers(self) -> Mapping[str, Handler]:
        """Each event type it understands, and its bound method that applies it (:func:`handler` looks there)."""

    def handle(self, event: Mapping[str, Any]) -> None:
        """Apply one event whose type is in :attr:`events`; raise :class:`CaterpillarLearnError` if it is bad."""

    def views(self) -> dict[str, Any]:
        """Every view trait's JSON, by trait name; it changes nothing.

        A controller that learns of things from outside (dice rolled by a
        teacher, answers from worker processes) takes them in a method
        ``catch_up()``, which the widget calls before it asks for the views.
        """

    def interim(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """Views to show at once before a slow event is handled (``{}`` for none)."""


def template(key: str) -> str:
    """A catalogue message with its placeholders left in, for the front end to fill.

    >>> template("lessons.ui.round")
    'Round {round} of 12'
    """
    values: dict[str, str] = {}
    while True:  # learn the placeholder names of whichever language is current
        try:
            return text(key, **values)
        except KeyError as missing:
            name = str(missing.args[0])
            if name in values:
                raise
            values[name] = "{" + name + "}"


C = TypeVar("C", bound=Controller)


def refuse_keywords(given: Mapping[str, Any], allowed: tuple[str, ...] = ("lang",)) -> None:
    """Refuse, in one line, a keyword a widget would ignore (a typo such as ``langg``, or a lesson's ``level``):
    only ``allowed`` and the options every ipywidget takes (``layout``, ``tooltip``...) pass.

    >>> refuse_keywords({"layout": None})
    >>> try:
    ...     refuse_keywords({"langg": "de"})
    ... except CaterpillarLearnError as error:
    ...     print(error)
    keyword: got 'langg', expected one of lang, layout, tabbable, tooltip
    """
    options = sorted(name for name in anywidget.AnyWidget.class_trait_names() if not name.startswith("_"))
    known = {*allowed, *options} - {"comm", "keys", "log"}
    for name in given:
        if name not in known:
            choices = sorted({*allowed, *(o for o in ("layout", "tabbable", "tooltip") if o in known)})
            raise CaterpillarLearnError(describe("keyword", name, "one of " + ", ".join(choices)))


class LearnWidget(anywidget.AnyWidget, Generic[C]):
    """The base of every widget: one controller, the event trait, the guard and the refresh.

    A subclass sets ``_esm`` (:func:`~caterpillar_learn.ui.assets.es_module`)
    and ``_css`` (:func:`~caterpillar_learn.ui.assets.widget_styles`), declares its view traits with
    ``.tag(sync=True, view=True)``, names its front-end words in
    :attr:`STRING_KEYS` (catalogue keys; a value with ``{placeholders}`` stays
    a template) and builds its controller in ``__init__`` before calling
    ``super().__init__(controller, lang=...)``.
    """

    #: ``strings`` key → catalogue key of the words the front end shows on its own.
    STRING_KEYS: ClassVar[Mapping[str, str]] = {}
    #: Whether the widget answers the learner's actions with sounds (``widgets/sound.js``), and so shows the
    #: sound switch beside the voice switch.  The games do; a widget that makes no sound says False.
    SOUNDS: ClassVar[bool] = True

    event = traitlets.Dict().tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True, view=True)
    strings = traitlets.Dict().tag(sync=True, view=True)
    #: The language of this widget's words (``lang`` on the page too).
    lang = traitlets.Unicode("en").tag(sync=True, view=True)
    #: The languages the learner can switch to: ``[{"code": "en", "name": "English"}, ...]``.
    languages = traitlets.List(traitlets.Dict()).tag(sync=True, view=True)
    #: The traits the front end draws: every trait tagged ``view=True``.
    view_names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: The lesson's save for the page's ``localStorage`` (``SaveView`` of :mod:`.resume`), ``{}`` if it has none.
    #: (Not ``save``: Panel's components have a ``save`` method of their own.)
    saved = traitlets.Dict().tag(sync=True, view=True)
    #: The ``seq`` of the last page event played (or refused): the page shows it is waiting (``aria-busy``)
    #: until this catches up with what it sent (``widgets/shared.js``, ``sender``).  Not a view: no redraw.
    handled = traitlets.Int(0).tag(sync=True)
    #: anywidget's name of the widget's class (``module.Class``), which its front end keeps the style sheet by.
    #: Declared here once: anywidget adds it to each instance otherwise, and traitlets then makes every instance
    #: a class of its own (a millisecond of each page of the classroom server, where a class joins at once).
    _anywidget_id = traitlets.Unicode().tag(sync=True)

    @traitlets.default("_anywidget_id")
    def _class_name(self) -> str:
        return f"{type(self).__module__}.{type(self).__name__}"

    def add_traits(self, **traits: Any) -> None:
        """Add the traits this class does not declare (anywidget asks for ``_anywidget_id``, declared above)."""
        fresh = {name: trait for name, trait in traits.items() if not self.has_trait(name)}
        if fresh:
            super().add_traits(**fresh)

    #: Whether the page starts reading aloud by itself: ``None`` is the lesson's own choice
    #: (:func:`~caterpillar_learn.ui.voice.speaks_by_default`); a notebook's ``voice=`` says otherwise.
    voice: bool | None = None

    def __init__(self, controller: C, *, lang: str | None = None, voice: bool | None = None, **kwargs: Any) -> None:
        refuse_keywords(kwargs)
        if voice is not None and not isinstance(voice, bool):
            raise CaterpillarLearnError(describe("voice", voice, "True, False or None (the lesson's own choice)"))
        super().__init__(**kwargs)
        self.voice = voice
        self.session: C = controller  # named for what it holds: this learner's game and screen
        #: ``"resumed"`` or ``"refused"`` after the page's resume, until the learner's next action.
        self.resume_status = ""
        chosen = lang or current_language()
        if chosen not in available_languages():
            raise BadEventError(describe("lang", chosen, "one of " + ", ".join(available_languages())))
        self.lang = chosen
        self.view_names = self.view_trait_names()
        self.languages = language_choices()
        with language(self.lang):
            self.strings = self.front_end_strings()
        self.observe(self._on_event, names="event")
        self.refresh()

    # -- what the front end reads ----------------------------------------------
    @classmethod
    def esm(cls) -> str:
        """The widget's ES module, linked (what ``_esm`` holds; Panel runs the same text)."""
        return str(cls.class_traits()["_esm"].default())

    @classmethod
    def css(cls) -> str:
        """The widget's stylesheet, after the shared theme (what ``_css`` holds)."""
        return str(cls.class_traits()["_css"].default())

    @classmethod
    def view_trait_names(cls) -> list[str]:
        """The traits the front end draws, sorted (Panel builds its parameters from these too)."""
        return sorted(cls.class_trait_names(view=True))

    def front_end_strings(self) -> dict[str, str]:
        """The words the front end shows on its own, in this widget's language (and the voice's: :mod:`.voice`)."""
        lesson = getattr(self.session, "lesson", None)  # a Caterpillars lesson's Lesson, or a Räuber Raupe table's name
        named = getattr(lesson, "name", None) or getattr(self.session, "name", None)
        words = {name: template(key) for name, key in self.STRING_KEYS.items()}
        if self.resumable():  # the note after a reload (see resume)
            words.update({name: text(f"ui.resume.{name}") for name in RESUME_WORDS})
        if self.SOUNDS:
            words["sound_switch"] = text("ui.sound.switch")
        age = getattr(lesson, "age", 0)  # a teacher's lesson: the youngest age it is for
        spoken = speaks_by_default(named if isinstance(named, str) else None, age if isinstance(age, int) else 0)
        speaks = spoken if self.voice is None else self.voice
        return {**words, **voice_strings(speaks)}

    def refresh(self) -> None:
        """Copy the controller's views into the traits (one sync message)."""
        with language(self.lang), self.hold_sync():
            catch_up = getattr(self.session, "catch_up", None)  # what came from outside: dice, answers
            if catch_up is not None:
                catch_up()
            for name, value in self.session.views().items():
                setattr(self, name, value)
            self.message = self.session.message
            self.saved = self.saved_view()

    def saved_view(self) -> dict[str, Any]:
        """The ``saved`` trait: the controller's save, its ``localStorage`` key and the resume's status."""
        if not isinstance(self.session, Resumable):
            return {}
        data = {**self.session.save(), "lang": self.lang}
        key = storage_key(data["kind"], data["lesson"], data["seed"])
        return {"key": key, "data": data, "status": self.resume_status}

    # -- what the front end writes ---------------------------------------------
    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Accept ``event`` from the page; drop (and log) every other trait it tries to write."""
        ignored = sorted(name for name in sync_data if name != "event")
        if ignored:
            log.warning("%s: ignored a front-end write to %s", type(self).__name__, ", ".join(ignored[:8]))
            known = [name for name in ignored if name in self.keys]
            if known:
                self.send_state(known)  # the page gets the true values back
        if "event" in sync_data:
            event = sync_data["event"]
            if isinstance(event, dict):
                super().set_state({"event": event})
            else:  # not even an object: refused in one line, the trait keeps its last event
                self.receive(event)

    def _on_event(self, change: dict[str, Any]) -> None:
        self.receive(change["new"])

    def receive(self, event: object) -> None:
        """Play one event from the page (:meth:`handle`), then say it was played: ``handled`` takes its ``seq``.

        Set even when the event changed no view (or was refused), so that the page stops waiting.

        >>> from caterpillar_learn.ui.caterpillars import CaterpillarsBoard
        >>> board = CaterpillarsBoard("beginner", 5)
        >>> board.receive({"type": "roll", "seq": 41}); board.receive({"type": "moon", "seq": 42})
        >>> board.handled, board.dice["rolled"], board.message[:10]
        (42, True, 'event type')
        """
        try:
            self.handle(event)
        finally:
            seq = event.get("seq") if isinstance(event, Mapping) and len(event) <= MAX_EVENT_FIELDS else None
            if isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq <= MAX_SEQ:
                self.handled = seq

    def for_page(self, name: str, held: Any, value: Any) -> Any:
        """View trait ``name``'s ``value`` as sent to a page that holds ``held`` (what it was sent last): the
        value itself, or a smaller one from which that page draws the same (a Panel page's component asks; a
        notebook's page is sent every value whole).  A widget whose views repeat what the page holds says so
        here (:class:`~caterpillar_learn.ui.raupe.widget.RaupeWidget`: the card under the pile's top)."""
        return value

    def drops(self, event: object) -> bool:
        """Whether ``event`` is dropped at the door, before anything reads it (not played, not answered): a page
        that was told why it may send nothing more and sends anyway (a classroom's, :class:`~caterpillar_learn.
        classroom.rooms.lesson.page.InRoom`).  A lesson's own widget drops nothing."""
        return False

    def handle(self, event: object) -> None:
        """Dispatch one event to the controller, never letting an error escape to the page."""
        kind = event.get("type") if isinstance(event, Mapping) and len(event) <= MAX_EVENT_FIELDS else None
        if kind == LANGUAGE_EVENT:
            assert isinstance(event, Mapping)
            self.switch_language(event.get("value"))
            return
        if kind in (RESUME_EVENT, START_OVER_EVENT) and self.resumable():
            assert isinstance(event, Mapping)
            try:
                if kind == RESUME_EVENT:
                    self.resume(event.get("save"))
                else:
                    self.start_over()
            except Exception:  # the lesson on the page stays as it was
                log.exception("%s: %s failed", type(self).__name__, kind)
                with language(self.lang):
                    self.session.message = text("ui.internal")
                self.refresh()
            return
        if kind not in UNSEEN_EVENTS:
            self.resume_status = ""  # "Welcome back" stays until the learner's next action
        with language(self.lang):
            try:
                event_type(event, self.session.events)
                assert isinstance(event, Mapping)
                early = self.session.interim(event)
                if early:
                    with self.hold_sync():  # sent now: the learner sees "Thinking…" during a slow answer
                        for name, value in early.items():
                            setattr(self, name, value)
                self.session.handle(event)
            except CaterpillarLearnError as error:
                self.session.message = one_line(str(error))
            except Exception:  # never lose the game in progress to a surprise
                log.exception("%s: event %.200r failed", type(self).__name__, event)
                self.session.message = text("ui.internal")
        self.refresh()

    def resumable(self) -> bool:
        """Whether the controller can be saved and resumed (:class:`~caterpillar_learn.ui.resume.Resumable`)."""
        return isinstance(self.session, Resumable)

    def resume(self, save: object) -> None:
        """Replay the page's ``save`` on a fresh controller; a bad save is refused and the lesson starts fresh.

        Only the page's first action may resume: once the learner has played
        here, a late resume (a second view of the same widget) is ignored.
        """
        session = self.session
        assert isinstance(session, Resumable)
        if session.accepted:
            log.info("%s: a resume after the learner's first action was ignored", type(self).__name__)
            return
        with language(self.lang):  # a fresh lesson asks its first question in the page's language
            candidate = session.fresh()
            try:
                candidate.replay(save)
            except SaveError as error:
                candidate.close()
                log.warning("%s: a saved lesson was refused: %s", type(self).__name__, error)
                self.resume_status = "refused"  # the page's note says so (strings["refused"])
                self.refresh()
                return
        session.close()
        self.session = candidate  # the same class as before
        self.resume_status = "resumed" if candidate.accepted else ""
        lang = save.get("lang") if isinstance(save, Mapping) else None
        if isinstance(lang, str) and lang in available_languages() and lang != self.lang:
            self.switch_language(lang)  # refreshes
        else:
            self.refresh()

    def start_over(self) -> None:
        """The learner's "Start again": the lesson from its first step, and the page's save with it."""
        session = self.session
        assert isinstance(session, Resumable)
        with language(self.lang):
            fresh = session.fresh()
        session.close()
        self.session = fresh
        self.resume_status = ""
        self.refresh()

    def switch_language(self, value: object) -> None:
        """Speak ``value`` from now on: ``lang``, ``strings`` and every view (or one line in ``message``)."""
        codes = available_languages()
        if not isinstance(value, str) or value not in codes:
            with language(self.lang):
                self.session.message = one_line(describe("language", value, "one of " + ", ".join(codes)))
            self.refresh()
            return
        with self.hold_sync():
            self.lang = value
            with language(value):
                self.strings = self.front_end_strings()
            self.session.message = ""
            self.refresh()

    def act(self, kind: str, **fields: Any) -> None:
        """Do what the front end does for one action: write a new ``event``."""
        seq = int(self.event.get("seq", 0)) + 1 if isinstance(self.event.get("seq"), int) else 1
        self.event = {"type": kind, "seq": seq, **fields}
