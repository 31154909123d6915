"""A child at a tablet: walk a lesson by touch, tapping only what the lesson marks.

The child of issue 15 reads nothing: at every wait it taps the one thing marked
``data-todo="true"`` (inside it: a random starred box, a random menu option), and
answers a question at random until the lesson shows the answer.  No hover, no
keyboard: only :meth:`Locator.tap` in a context with ``has_touch``.  At every wait
:meth:`ChildWalk.look` checks what the issue asks of each screen: exactly one
visible ``data-todo``, inside the viewport, and every tappable thing at least
44 × 44 CSS px; then it calls :attr:`ChildWalk.on_wait`, the hook another check
plugs into (the speech heard since the last wait, for instance: see
:class:`tests.browser.speech.Heard`).

A wait ends when the page is not waiting for Python (no widget root carries
``aria-busy="true"``: ``widgets/shared.js`` sets it from a tap's event until
Python's ``handled`` has caught up), the tap's click has reached the page, and
what the screen shows has not changed for :data:`QUIET_MS`; the condition is
polled inside the page (one :meth:`Page.wait_for_function`), and
:meth:`ChildWalk.look` reads all it checks in one :meth:`Page.evaluate`.

Nothing here knows Caterpillars' rules: the walk reads only the page, so the
Räuber Raupe lessons can reuse it with their own :attr:`ChildWalk.inside`
(which element inside a marked one to tap) and :attr:`ChildWalk.done` (when the
lesson has reached its end).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import SCREENSHOTS

#: The tablet of the issue: 1024 × 768 CSS px, by touch.
TABLET = {"width": 1024, "height": 768}
DESKTOP = {"width": 1920, "height": 1080}
MIN_TARGET = 44  # CSS px, both ways
#: A screen is settled when Python has answered and nothing it shows has changed for this long (ms).
QUIET_MS = 120
#: How long a wait for the tap's click to reach the page lasts before it looks anyway (ms): a tap that
#: makes no click (a careless child's tap on a label) must not hold the walk up.
CLICK_GRACE_MS = 1500
WAIT_TIMEOUT = 30.0  # s: one kernel round trip on a loaded machine, with margin
#: The widget roots that say ``aria-busy`` while Python has an event of theirs to answer.
ROOTS = ".cl-root, .rr-root"

#: Everything a child can tap, in any widget.
TAPPABLE = (
    "button:not([disabled]), a[href], select, summary, input, [role='button'], "
    ".cl-box[data-caterpillar], [data-testid^='card-']"
)


@contextmanager
def child_context(browser: Browser, viewport: dict[str, int] = TABLET) -> Iterator[BrowserContext]:
    """A touch context (``has_touch``, no mouse hover is ever used) with the given viewport."""
    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=False)  # type: ignore[arg-type]
    context.set_default_timeout(30_000)
    try:
        yield context
    finally:
        context.close()


#: Every node matching a selector, in the page and in every shadow root (a JavaScript function): a classroom's
#: page (Panel) draws its widgets in a shadow root, a lesson page (Voila) in the page itself.
DEEP_JS = """(selector) => {
  const now = performance.now();
  if (!window.__walkRoots || now - window.__walkRootsAt > 1000) {  // the shadow roots, looked for once a second
    const roots = [document];
    for (let i = 0; i < roots.length; i++)
      for (const host of roots[i].querySelectorAll("*")) if (host.shadowRoot) roots.push(host.shadowRoot);
    window.__walkRoots = roots;
    window.__walkRootsAt = now;
  }
  return window.__walkRoots.flatMap((root) => [...root.querySelectorAll(selector)]);
}"""

#: What a screen shows, in short (a JavaScript expression): the marked thing, the step, the dice, the words.
SIGNATURE_JS = (
    """(() => {
      const all = """
    + DEEP_JS
    + """;
      const todo = all('[data-todo="true"]').map((n) =>
        (n.getAttribute("data-testid") || n.className.baseVal || n.className) + ":" + n.textContent.length);
      const bar = all('[role="progressbar"]')[0];
      const said = all('[data-testid="explanation"], [data-testid="feedback"],'
        + ' [data-testid="lesson-step"], [data-testid="dice"], [data-testid="message"]').map((n) => n.textContent);
      return JSON.stringify([todo, bar && bar.getAttribute("aria-valuenow"), said]);
    })()"""
)

#: Counts the clicks the page receives (installed once per page, before the first tap is waited for).
CLICKS_JS = """() => {
  if (window.__walkClicks === undefined) {
    window.__walkClicks = 0;
    document.addEventListener("click", () => { window.__walkClicks += 1; }, true);
  }
  return window.__walkClicks;
}"""

#: True once the screen is settled: the tap's click arrived (or the grace ran out), no root is busy, the
#: signature has not changed for ``quiet`` ms and (if ``marked``) something is marked.  Polled in the page.
SETTLED_JS = (
    """([token, clicks, grace, quiet, marked, roots]) => {
  const now = performance.now();
  let w = window.__walkSettle;
  if (!w || w.token !== token) w = window.__walkSettle = { token, start: now, last: null, since: now };
  if ((window.__walkClicks || 0) < clicks && now - w.start < grace) return false;
  const busy = ("""
    + DEEP_JS
    + """)(roots.split(",").map((r) => r.trim() + '[aria-busy="true"]').join(","))[0];
  const seen = (busy ? "busy:" : "") + """
    + SIGNATURE_JS
    + """;
  if (seen !== w.last) { w.last = seen; w.since = now; return false; }
  if (busy || now - w.since < quiet) return false;
  return !marked || !seen.startsWith("[[]");
}"""
)

#: Everything one wait checks, read at once: the visible marked things (with the first one's box and what it
#: holds), the progress bar, and the tappable things under 44 px.
LOOK_JS = (
    """([roots, selector, least]) => {
  const all = """
    + DEEP_JS
    + """;
  const shown = (n) => {
    const r = n.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(n).visibility !== "hidden";
  };
  const marked = all('[data-todo="true"]').filter(shown);
  const first = marked[0];
  const r = first ? first.getBoundingClientRect() : null;
  const bar = all('[role="progressbar"]')[0];
  const place = (testid) => {
    const node = all(`[data-testid="${testid}"]`).find(shown);
    const b = node && node.getBoundingClientRect();
    return b ? { x: b.x, y: b.y, width: b.width, height: b.height } : null;
  };
  const small = [];
  for (const root of all(roots)) {
    for (const node of root.querySelectorAll(selector)) {
      const b = node.getBoundingClientRect();
      if (!b.width || !b.height || getComputedStyle(node).visibility === "hidden") continue;
      if (b.width + 0.5 < least || b.height + 0.5 < least)
        small.push(`${node.tagName.toLowerCase()}[${node.getAttribute("data-testid") || node.className.baseVal
          || node.className}] ${Math.round(b.width)}x${Math.round(b.height)}`);
    }
  }
  return {
    marked: marked.length,
    box: r && { x: r.x, y: r.y, width: r.width, height: r.height },
    testid: first ? first.getAttribute("data-testid") || "" : "",
    now: bar && bar.getAttribute("aria-valuenow"),
    max: bar && bar.getAttribute("aria-valuemax"),
    step: place("lesson-step"),
    grownUps: all('[data-testid="grown-ups"][aria-pressed="true"]').length > 0,
    end: place("final-score"),
    small,
  };
}"""
)

#: The careless child's choice: every visible, enabled tappable thing but the language menu, links and
#: selects, each tagged ``data-walk-candidate`` (its index) so that one round trip finds them all.
CANDIDATES_JS = (
    """(selector) => {
  const all = """
    + DEEP_JS
    + """;
  for (const node of all("[data-walk-candidate]")) node.removeAttribute("data-walk-candidate");
  const found = [];
  for (const node of all(selector)) {
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(node).visibility === "hidden") continue;
    if (node.disabled || node.closest("fieldset[disabled]") || node.getAttribute("aria-disabled") === "true") continue;
    if (node.getAttribute("data-testid") === "language" || node.tagName === "A" || node.tagName === "SELECT") continue;
    node.setAttribute("data-walk-candidate", String(found.length));
    found.push(node.getAttribute("data-testid") || "?");
  }
  return found;
}"""
)


def _signature(page: Page) -> str:
    """What a screen shows, in short: the marked thing, the step, the dice, the words."""
    result: str = page.evaluate("() => " + SIGNATURE_JS)
    return result


def small_targets(page: Page, root: str = ROOTS) -> list[str]:
    """The visible tappable things under ``root`` (every widget's root by default) smaller than 44 × 44 CSS px,
    described."""
    found: list[str] = page.evaluate(
        """([roots, selector, least]) => {
      const all = """
        + DEEP_JS
        + """;
      const out = [];
      for (const root of all(roots)) {
        for (const node of root.querySelectorAll(selector)) {
          const r = node.getBoundingClientRect();
          const style = getComputedStyle(node);
          if (!r.width || !r.height || style.visibility === "hidden") continue;
          if (r.width + 0.5 < least || r.height + 0.5 < least)
            out.push(`${node.tagName.toLowerCase()}[${node.getAttribute("data-testid") || node.className.baseVal
              || node.className}] ${Math.round(r.width)}x${Math.round(r.height)}`);
        }
      }
      return out;
    }""",
        [root, TAPPABLE, MIN_TARGET],
    )
    return found


@dataclass
class ChildWalk:
    """One child's walk through one lesson on ``page``."""

    page: Page
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    #: Called at every wait, after the walk's own checks (the speech check plugs in here).
    on_wait: Callable[[ChildWalk], None] = lambda walk: None
    #: Whether the lesson has reached its end (by default: the progress bar at its last step and the
    #: marked thing is the end's offer, New game).
    done: Callable[[ChildWalk], bool] = field(default=lambda walk: walk.at_the_end())
    #: Where screenshots of each wait go (``None``: none).
    shots: Callable[[ChildWalk, int], None] | None = None
    waits: int = 0
    taps: list[str] = field(default_factory=list)
    #: What the last :meth:`look` read (see ``LOOK_JS``).
    seen: dict[str, Any] = field(default_factory=dict)
    #: The page's click count that the last tap should have reached (0: no tap to wait for).
    clicks: int = 0
    settles: int = 0
    #: What the page said by itself (:class:`tests.browser.speech.Heard`'s utterances): up to the lesson's end,
    #: and in the whole walk (on past the end too).
    lesson_said: list[Any] = field(default_factory=list)
    said: list[Any] = field(default_factory=list)

    # -- looking ---------------------------------------------------------------------
    def todo(self) -> Locator:
        return self.page.locator('[data-todo="true"]')

    def _wait_settled(self, marked: bool, timeout: float) -> bool:
        self.settles += 1
        try:
            self.page.wait_for_function(
                SETTLED_JS,
                arg=[self.settles, self.clicks, CLICK_GRACE_MS, QUIET_MS, marked, ROOTS],
                polling=40,
                timeout=timeout * 1000,
            )
        except PlaywrightTimeoutError:
            return False
        finally:
            self.clicks = 0
        return True

    def settle(self, timeout: float = WAIT_TIMEOUT) -> None:
        """Wait until Python has answered, the screen has stopped changing and one thing is marked."""
        if not self._wait_settled(True, timeout):
            last = self.page.evaluate("() => (window.__walkSettle || {}).last || ''")
            raise AssertionError(f"the screen never settled with something marked: {str(last)[:300]}")

    def look(self) -> None:
        """The issue's checks of one wait: one mark, in view, every target big enough."""
        self.waits += 1
        seen: dict[str, Any] = self.page.evaluate(LOOK_JS, [ROOTS, TAPPABLE, MIN_TARGET])
        self.seen = seen
        where = f"step {seen['now']} of {seen['max']}"
        assert seen["marked"] == 1, f"wait {self.waits}: {seen['marked']} things marked to do ({where})"
        box = seen["box"]
        size = self.page.viewport_size or TABLET
        fits = box["height"] <= size["height"]
        top_ok = (
            box["y"] >= -1 and box["y"] + box["height"] <= size["height"] + 1 if fits else box["y"] < size["height"]
        )
        assert top_ok and box["x"] >= -1 and box["x"] + min(box["width"], size["width"]) <= size["width"] + 1, (
            f"wait {self.waits}: the marked thing lies outside the screen: {box} ({where})"
        )
        # The page never scrolled itself so far that the step's line went out of view (issue 40), and a game's
        # end, once shown, is in view at every wait after it.  Not with For grown-ups on (a careless child's tap):
        # the grown-ups' notes and the moves' words are theirs, and may take the screen.
        for name in ("step", "end"):
            part = seen[name]
            if name == "step" and seen["grownUps"]:
                continue
            if part is None or (part["y"] >= -1 and part["y"] + part["height"] <= size["height"] + 1):
                continue
            shot = SCREENSHOTS / f"walk-{name}-out-of-view.png"
            shot.parent.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(shot))
            raise AssertionError(
                f"wait {self.waits}: the {name} line lies outside the screen: {part} ({where}; marked: "
                f"{seen['testid']} at {box}; {shot.name})"
            )
        small = seen["small"]
        assert not small, f"wait {self.waits}: tappable things under {MIN_TARGET} px: {small}"
        if self.shots is not None:
            self.shots(self, self.waits)
        self.on_wait(self)

    def progress(self) -> str:
        bar = self.page.locator('[role="progressbar"]').first
        return f"step {bar.get_attribute('aria-valuenow')} of {bar.get_attribute('aria-valuemax')}"

    def at_the_end(self) -> bool:
        """The progress bar at its last step and the marked thing is New game (as the last :meth:`look` saw)."""
        seen = self.seen
        return bool(seen) and seen["now"] == seen["max"] and seen["testid"] == "new-game"

    # -- tapping ----------------------------------------------------------------------
    def tap(self, target: Locator, what: str, timeout: float | None = None) -> None:
        self.taps.append(what)
        before: int = self.page.evaluate(CLICKS_JS)
        target.tap(timeout=timeout)
        self.clicks = before + 1  # the next wait first waits for this tap's click (or the grace)

    def inside(self, marked: Locator) -> None:
        """Tap the marked thing as a child would: what it holds, or itself."""
        test_id = marked.get_attribute("data-testid") or ""
        classes = marked.get_attribute("class") or ""
        if test_id == "question":
            self.answer_at_random(marked)
        elif test_id == "move-menu":
            options = marked.locator('[data-testid="move-option"]')
            self.tap(options.nth(self.rng.randrange(options.count())), "menu option")
        elif "cl-sheet-host" in classes:
            # In a classroom's led round the stars come once the server's worker has worked the helper's move out
            # (the lesson says it is thinking meanwhile): a child waits for them, as the walk does here.
            starred = marked.locator('[data-testid="legal-move"]')
            starred.first.wait_for(state="attached", timeout=WAIT_TIMEOUT * 1000)
            self.tap_box(starred.nth(self.rng.randrange(starred.count())))
        elif "cl-box" in classes and marked.locator('[data-testid="legal-move"]').count():
            self.tap_box(marked)
        else:
            self.tap(marked, test_id or classes)

    def tap_box(self, box: Locator) -> None:
        """A starred box: the first tap shows the rule and the score, pale; a second one writes it."""
        self.tap(box, "box")
        # Once the tap's click has reached the page, an armed box shows its ghost score (drawn at once, in the
        # click's handler); otherwise the click sent its event.
        self.settles += 1
        armed = self.page.wait_for_function(
            """([token, clicks, grace]) => {
              const now = performance.now();
              let w = window.__walkBox;
              if (!w || w.token !== token) w = window.__walkBox = { token, start: now };
              if ((window.__walkClicks || 0) < clicks && now - w.start < grace) return false;
              return document.querySelector('[data-testid="ghost-score"]')
                || [...document.querySelectorAll("*")].some((n) => n.shadowRoot
                  && n.shadowRoot.querySelector('[data-testid="ghost-score"]')) ? "ghost" : "none";
            }""",
            arg=[self.settles, self.clicks, CLICK_GRACE_MS],
            polling=20,
            timeout=WAIT_TIMEOUT * 1000,
        ).json_value()
        if armed != "ghost":  # a setup label, or a box whose tap opened its menu: one tap was all
            return
        self.tap(box, "box again")

    def answer_at_random(self, panel: Locator) -> None:
        """Choose one or more answers at random, then Check."""
        buttons = panel.locator('[data-testid="answer"]')
        if buttons.count():
            chosen = [self.rng.randrange(buttons.count())]
        else:  # the answers are the board's boxes
            buttons = self.page.locator('svg [data-testid="answer"]')
            count = buttons.count()
            chosen = self.rng.sample(range(count), k=self.rng.randint(1, min(count, 3))) if count else []
        for index in chosen:
            self.tap(buttons.nth(index), "answer")
        self.tap(panel.get_by_test_id("check-answer"), "check")

    def careless(self, taps: int) -> None:
        """Tap ``taps`` random tappable things, marked or not (a child trying everything)."""
        for _ in range(taps):
            self.settle_any()
            candidates: list[str] = self.page.evaluate(CANDIDATES_JS, TAPPABLE)
            if not candidates:
                continue
            index = self.rng.randrange(len(candidates))
            target = self.page.locator(f'[data-walk-candidate="{index}"]')
            try:
                self.tap(target, "careless " + candidates[index], timeout=5000)
            except Exception:  # redrawn under the finger: a real child just taps again
                self.clicks = 0
                continue

    def settle_any(self, timeout: float = 10.0) -> None:
        """Wait until Python has answered and the screen is quiet (nothing need be marked); a screen that
        keeps changing is tapped anyway after ``timeout`` s, as a child would."""
        self._wait_settled(False, timeout)

    def walk(self, max_taps: int = 400) -> None:
        """Follow the marks until :attr:`done`."""
        for _ in range(max_taps):
            self.settle()
            self.look()
            if self.done(self):
                return
            self.inside(self.page.locator('[data-todo="true"] >> visible=true').first)
        raise AssertionError(f"the lesson never ended: {self.progress()} after {len(self.taps)} taps")


def open_touch_lesson(context: BrowserContext, url: str, name: str, opener: Callable[[Page, str], Page]) -> Page:
    """Open lesson ``name`` from the lesson list at ``url`` in the touch ``context`` (``opener``: the
    suite's way of opening a lesson from its list, e.g. ``tests.browser.driver.open_lesson``)."""
    listing = context.new_page()
    listing.goto(url)
    page = opener(listing, name)
    listing.close()
    return page


def description(page: Page) -> dict[str, Any]:
    """What the lesson shows now, for a person's notes: the step, its words, the marked thing."""
    result: dict[str, Any] = page.evaluate(
        """() => {
      const text = (id) => (document.querySelector(`[data-testid="${id}"]`) || {}).textContent || "";
      const todo = document.querySelector('[data-todo="true"]');
      return { step: text("lesson-step"), body: text("lesson-body"), todo: todo
        ? (todo.getAttribute("data-testid") || todo.getAttribute("class")) : null,
        said: text("explanation"), question: text("question-text"), feedback: text("feedback"),
        final: text("final-score") };
    }"""
    )
    return result
