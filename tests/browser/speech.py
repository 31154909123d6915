"""What the page says aloud, recorded: for any browser test that wants to hear the lesson.

Chromium has ``speechSynthesis`` but no voice when headless, so the page's
own ``speechSynthesis`` is replaced (before any script of the page runs, by
``add_init_script``) with a recorder that keeps every utterance's text and
language, and whether a read-aloud button (🔊, ``data-testid="read-aloud"``)
was pressed just before it.  Use it in three lines::

    record_speech(context)               # before the page opens
    ...
    said = heard_by_itself(page)         # at a wait: what was said since, with no 🔊 press and no symbol

:func:`heard_by_itself` fails with the utterance that broke the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, TypedDict

from playwright.sync_api import BrowserContext, Page

#: Symbols a voice must never be given (PEDAGOGY 12): they are read out as "check mark", "times" ... or not at all.
SYMBOLS = "✓✔✗✘↻⇄→←×=+/★🔊…·"
#: How long after a 🔊 press an utterance counts as that press's (ms).
PRESS_WINDOW_MS = 1500
#: How long :func:`heard_by_itself` waits for the page's voice (it reads once a redraw settles, 0.25 s) (ms).
SPEECH_TIMEOUT_MS = 10_000
#: widgets/shared.js's ``VOICE_SETTLE_MS``: a voice reads once its widget's root has been still this long (ms).
VOICE_SETTLE_MS = 250
#: Resolves when a timer of a voice's own length, set now, fires.  The page runs its timers in the order they
#: fall due, so every voice already waiting to read has read by then (and a voice with a voice ready speaks
#: at once), whatever the machine's load: a condition on the page's own clock, not a guessed time.
VOICES_READ_JS = f"() => new Promise((done) => setTimeout(() => done(true), {VOICE_SETTLE_MS}))"

RECORDER = (
    """(() => {
  const PRESS_WINDOW_MS = """
    + str(PRESS_WINDOW_MS)
    + """;
  const said = [];
  let pressed = -1e9;
  const press = (event) => {
    const path = event.composedPath ? event.composedPath() : [event.target];
    if (path.some((node) => node && node.getAttribute && node.getAttribute("data-testid") === "read-aloud")) {
      pressed = performance.now();
    }
  };
  for (const kind of ["pointerdown", "click", "keydown"]) window.addEventListener(kind, press, true);
  class Utterance { constructor(text) { this.text = text; this.lang = ""; this.onend = null; } }
  // An utterance ends at once (the next task), unless a test holds the voice (window.__speechHold = true):
  // then it ends when the test calls window.__speechEnd(), and window.__speechCancels counts cancel().
  const ending = [];
  const end = (utterance) => {
    synth.speaking = ending.length > 0;
    if (typeof utterance.onend === "function") utterance.onend({ type: "end" });
  };
  window.__speechCancels = 0;
  window.__speechEnd = () => {
    const utterance = ending.shift();
    if (utterance) end(utterance);
    return Boolean(utterance);
  };
  const synth = {
    speaking: false, pending: false, paused: false,
    getVoices: () => [{ name: "recorder", lang: "en", default: true }, { name: "recorder", lang: "de" }],
    speak: (utterance) => {
      said.push({ text: String(utterance.text), lang: String(utterance.lang),
        pressed: performance.now() - pressed < PRESS_WINDOW_MS });
      synth.speaking = true;
      if (window.__speechHold) ending.push(utterance);
      else setTimeout(() => end(utterance), 0);
    },
    cancel: () => { window.__speechCancels += 1; ending.splice(0); synth.speaking = false; },
    pause: () => {}, resume: () => {},
    addEventListener: () => {}, removeEventListener: () => {},
  };
  Object.defineProperty(window, "speechSynthesis", { configurable: true, get: () => synth });
  Object.defineProperty(window, "SpeechSynthesisUtterance", { configurable: true, value: Utterance });
  window.__spoken = said;
})();"""
)


class Utterance(TypedDict):
    text: str
    lang: str
    pressed: bool


def record_speech(target: BrowserContext | Page) -> None:
    """Record what every page of ``target`` says, from its next navigation on."""
    target.add_init_script(RECORDER)


def take_speech(page: Page) -> list[Utterance]:
    """The utterances said since the last call (and forget them)."""
    said: list[Utterance] = page.evaluate("() => (window.__spoken || []).splice(0)")
    return said


def symbols_in(said: str) -> list[str]:
    """The symbols of :data:`SYMBOLS` in ``said`` (a "/" between two numbers too)."""
    return sorted({char for char in said if char in SYMBOLS})


def check_speech(said: list[Utterance]) -> None:
    """Each utterance came by itself (no 🔊 press just before it) and holds no symbol."""
    for utterance in said:
        assert not utterance["pressed"], f"spoken only after a read-aloud press: {utterance['text']!r}"
        found = symbols_in(utterance["text"])
        assert not found, f"spoken with symbols {found}: {utterance['text']!r}"
        assert not re.search(r"\(\s*key \w\)|\(Taste \w\)", utterance["text"]), utterance["text"]


def heard_by_itself(page: Page, timeout_ms: int = SPEECH_TIMEOUT_MS) -> list[Utterance]:
    """Wait until the page has said something new by itself; check it (:func:`check_speech`) and return it.

    Fails when nothing is said within ``timeout_ms``: call it at a wait where something new appeared.
    """
    page.wait_for_function("() => (window.__spoken || []).length > 0", timeout=timeout_ms)
    voices_read(page)  # the rest of this redraw's texts: the other voices of the page read with it
    said = take_speech(page)
    check_speech(said)
    return said


def voices_read(page: Page) -> None:
    """Wait until every voice of the page that was waiting to read has read (:data:`VOICES_READ_JS`)."""
    page.wait_for_function(VOICES_READ_JS, timeout=SPEECH_TIMEOUT_MS, polling=100)


def spoken_text(said: list[Utterance]) -> str:
    """All the utterances' texts, one a line."""
    return "\n".join(utterance["text"] for utterance in said)


def heard(page: Page) -> list[dict[str, Any]]:
    """What was said so far without taking it (for a test's error message)."""
    result: list[dict[str, Any]] = page.evaluate("() => (window.__spoken || []).slice()")
    return result


@dataclass
class Heard:
    """What a walk heard, wait by wait: pass :meth:`at_wait` as a :class:`tests.browser.walk.ChildWalk`'s
    ``on_wait``.  Each wait's speech is checked (:func:`check_speech`) and kept."""

    page: Page
    #: Whether a wait listens for the voice when nothing new has been said yet (a true value: it waits until
    #: every voice of the page that was about to read has read, :func:`voices_read`; 0: not at all).  The
    #: page speaks once it has been still for 250 ms (widgets/shared.js, ``VOICE_SETTLE_MS``), and a walk may
    #: look sooner: a child who listens waits for the voice before the next tap.
    listen: float = 0.0
    said: list[Utterance] = field(default_factory=list)
    #: Waits after which something new was said.
    spoken_waits: int = 0
    #: The lesson steps (the progress bar's value) the walk waited at, and those at which something was said.
    steps: set[str] = field(default_factory=set)
    spoken_steps: set[str] = field(default_factory=set)

    def forget(self) -> None:
        """Drop what was said so far (before the walk proper, e.g. after a careless child's taps)."""
        take_speech(self.page)

    def at_wait(self, walk: object) -> None:
        new = take_speech(self.page)
        if not new and self.listen:  # what the page was about to say: every voice waiting to read has read
            voices_read(self.page)
            new = take_speech(self.page)
        check_speech(new)
        self.said += new
        self.spoken_waits += bool(new)
        step = str(getattr(walk, "seen", {}).get("now"))
        self.steps.add(step)
        if new:
            self.spoken_steps.add(step)
