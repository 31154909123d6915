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

Nothing here knows Caterpillars' rules: the walk reads only the page, so the
Räuber Raupe lessons can reuse it with their own :attr:`ChildWalk.inside`
(which element inside a marked one to tap) and :attr:`ChildWalk.done` (when the
lesson has reached its end).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page

#: The tablet of the issue: 1024 × 768 CSS px, by touch.
TABLET = {"width": 1024, "height": 768}
DESKTOP = {"width": 1920, "height": 1080}
MIN_TARGET = 44  # CSS px, both ways
SETTLE_MS = 350  # a screen is settled when nothing it shows has changed for this long
WAIT_TIMEOUT = 30.0  # s: one kernel round trip on a loaded machine, with margin

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


def _signature(page: Page) -> str:
    """What a screen shows, in short: the marked thing, the step, the dice, the words."""
    result: str = page.evaluate(
        """() => {
      const todo = [...document.querySelectorAll('[data-todo="true"]')].map((n) =>
        (n.getAttribute("data-testid") || n.className.baseVal || n.className) + ":" + n.textContent.length);
      const bar = document.querySelector('[role="progressbar"]');
      const said = [...document.querySelectorAll('[data-testid="explanation"], [data-testid="feedback"],'
        + ' [data-testid="lesson-step"], [data-testid="dice"], [data-testid="message"]')].map((n) => n.textContent);
      return JSON.stringify([todo, bar && bar.getAttribute("aria-valuenow"), said]);
    }"""
    )
    return result


def small_targets(page: Page, root: str = ".cl-root, .raupe-root") -> list[str]:
    """The visible tappable things under ``root`` smaller than 44 × 44 CSS px, described."""
    found: list[str] = page.evaluate(
        """([roots, selector, least]) => {
      const out = [];
      for (const root of document.querySelectorAll(roots)) {
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

    # -- looking ---------------------------------------------------------------------
    def todo(self) -> Locator:
        return self.page.locator('[data-todo="true"]')

    def settle(self, timeout: float = WAIT_TIMEOUT) -> None:
        """Wait until the screen has stopped changing and one thing is marked."""
        deadline = time.monotonic() + timeout
        last, since = "", time.monotonic()
        while time.monotonic() < deadline:
            now = _signature(self.page)
            if now != last:
                last, since = now, time.monotonic()
            elif (time.monotonic() - since) * 1000 >= SETTLE_MS and not now.startswith("[[]"):
                return
            self.page.wait_for_timeout(60)
        raise AssertionError(f"the screen never settled with something marked: {last[:300]}")

    def look(self) -> None:
        """The issue's checks of one wait: one mark, in view, every target big enough."""
        self.waits += 1
        marked = [n for n in self.todo().all() if n.is_visible()]
        assert len(marked) == 1, f"wait {self.waits}: {len(marked)} things marked to do ({self.progress()})"
        box = marked[0].bounding_box()
        assert box is not None
        size = self.page.viewport_size or TABLET
        fits = box["height"] <= size["height"]
        top_ok = (
            box["y"] >= -1 and box["y"] + box["height"] <= size["height"] + 1 if fits else box["y"] < size["height"]
        )
        assert top_ok and box["x"] >= -1 and box["x"] + min(box["width"], size["width"]) <= size["width"] + 1, (
            f"wait {self.waits}: the marked thing lies outside the screen: {box} ({self.progress()})"
        )
        small = small_targets(self.page)
        assert not small, f"wait {self.waits}: tappable things under {MIN_TARGET} px: {small}"
        if self.shots is not None:
            self.shots(self, self.waits)
        self.on_wait(self)

    def progress(self) -> str:
        bar = self.page.locator('[role="progressbar"]').first
        return f"step {bar.get_attribute('aria-valuenow')} of {bar.get_attribute('aria-valuemax')}"

    def at_the_end(self) -> bool:
        bar = self.page.locator('[role="progressbar"]').first
        last = bar.get_attribute("aria-valuenow") == bar.get_attribute("aria-valuemax")
        return last and self.todo().first.get_attribute("data-testid") == "new-game"

    # -- tapping ----------------------------------------------------------------------
    def tap(self, target: Locator, what: str) -> None:
        self.taps.append(what)
        target.tap()

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
            starred = marked.locator('[data-testid="legal-move"]')
            self.tap_box(starred.nth(self.rng.randrange(starred.count())))
        elif "cl-box" in classes and marked.locator('[data-testid="legal-move"]').count():
            self.tap_box(marked)
        else:
            self.tap(marked, test_id or classes)

    def tap_box(self, box: Locator) -> None:
        """A starred box: the first tap shows the rule and the score, pale; a second one writes it."""
        self.tap(box, "box")
        ghost = self.page.get_by_test_id("ghost-score")
        try:
            ghost.wait_for(state="attached", timeout=1500)
        except Exception:  # a setup label, or a box whose tap opened its menu: one tap was all
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
            candidates = [n for n in self.page.locator(TAPPABLE).all() if n.is_visible() and n.is_enabled()]
            candidates = [n for n in candidates if (n.get_attribute("data-testid") or "") not in ("language",)]
            candidates = [n for n in candidates if n.evaluate("(n) => n.tagName") not in ("A", "SELECT")]
            if not candidates:
                continue
            target = self.rng.choice(candidates)
            try:
                self.tap(target, "careless " + (target.get_attribute("data-testid") or "?"))
            except Exception:  # redrawn under the finger: a real child just taps again
                continue

    def settle_any(self) -> None:
        """Wait for a short quiet moment (nothing need be marked)."""
        last = ""
        for _ in range(40):
            now = _signature(self.page)
            if now == last:
                return
            last = now
            self.page.wait_for_timeout(150)

    def walk(self, max_taps: int = 400) -> None:
        """Follow the marks until :attr:`done`."""
        for _ in range(max_taps):
            self.settle()
            self.look()
            if self.done(self):
                return
            self.inside(self.todo().first)
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
