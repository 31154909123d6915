"""Play Caterpillars through the widgets' front end, the way a learner does.

Everything goes through the ``data-testid`` contract of ``widgets/``: the
test never reads a trait.  Beside the page, the same game runs in the engine
(:class:`~caterpillar_learn.caterpillars.Game`, same level, labels and seed),
so every roll shown and the final score can be checked against it.  Locators
are Playwright's, which pierce Panel's shadow root.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from caterpillar_learn.caterpillars import DEFAULT_LABELS, Game, Move, SetupChoice
from caterpillar_learn.caterpillars.sheet import describe_slot
from caterpillar_learn.lessons import get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game
from caterpillar_learn.lessons.scenarios import Scenario, best_move, is_led

CLICK_TIMEOUT = 15_000  # ms: one kernel round trip, with a loaded CI machine's margin
RENDER_TIMEOUT = 60_000  # ms: first render starts a kernel (and may warm the solver) on a busy CI machine
LIST_TIMEOUT = 20_000  # ms: the lesson list, drawn by the server


def box_id(slot: int) -> str:
    name, box = describe_slot(slot)
    return f"box-{name}-{box}"


def choose(moves: list[Move]) -> Move:
    """The test player's policy: the highest score, filling a bonus box when it can.

    Deterministic, so the engine replays it; with three dice it often picks a
    box with several moves (splits, bonus boxes, 2x), which exercises the menu.
    """
    return max(moves, key=lambda move: (move.score, move.bonus is not None))


@dataclass
class Player:
    """One game on a page beside the same game in the engine."""

    page: Page
    level: str
    seed: int
    auto_setup: bool = True
    variation: bool = False
    #: The engine's twin of the page's game (a lesson's guided game); by default seeded dice.
    game: Game | None = None
    #: The guided game's scenario: in the rounds it leads the page offers the helper's move alone.
    scenario: Scenario | None = None
    menus: int = 0

    def __post_init__(self) -> None:
        if self.game is None:
            self.game = Game(self.level, DEFAULT_LABELS, variation=self.variation, seed=self.seed)
        if self.auto_setup:  # the lesson fills the labels with the first setup choice of each roll
            while self.game.phase == "setup":
                self.game.play(self.game.legal_moves()[0])  # type: ignore[arg-type]

    @classmethod
    def for_lesson(cls, page: Page, name: str) -> Player:
        """The player of the Caterpillars lesson ``name`` on ``page``: its level, seed and guided game."""
        lesson = get_lesson(name)
        return cls(
            page,
            lesson.level,
            lesson.seed,
            lesson.auto_setup,
            lesson.variation,
            game=guided_game(lesson),
            scenario=lesson.scenario,
        )

    def by_id(self, test_id: str) -> Locator:
        return self.page.get_by_test_id(test_id)

    # -- one step each ---------------------------------------------------------
    def roll(self) -> None:
        self.by_id("roll-button").click()
        expect(self.by_id("roll-button")).to_be_disabled(timeout=CLICK_TIMEOUT)
        self.check_dice()

    def check_dice(self) -> None:
        """The dice on the page are the engine's dice for this turn (same seed)."""
        dice = self.game.roll().dice
        for index, value in enumerate(dice):
            expect(self.by_id(f"die-{index}")).to_have_attribute(
                "aria-label", re.compile(rf"(?<!\d){value}(?!\d)"), timeout=CLICK_TIMEOUT
            )

    def setup_round(self) -> None:
        """One setup roll: the blank labels take the dice in order, as placed by clicks."""
        self.roll()
        dice = self.game.roll().dice
        per_roll = 2 if self.variation else 3
        blanks = self.game.state.blank_label_slots()[:per_roll]
        assert not self.variation, "the variation's sum label is not driven by this player"
        for slot in blanks:
            self.by_id(box_id(slot)).click()
        choice = SetupChoice(tuple(sorted(zip(blanks, dice))))
        self.game.play(choice)
        for slot, value in choice.assignments:
            expect(self.by_id(box_id(slot))).to_have_attribute(
                "aria-label", re.compile(rf"label {value},"), timeout=CLICK_TIMEOUT
            )

    def offered(self) -> list[Move]:
        """The moves the page offers now: the rules' moves, or in a led round the helper's move alone."""
        if self.scenario is not None and is_led(self.scenario, self.game):
            return [best_move(self.game.state, self.game.roll())]
        return [m for m in self.game.legal_moves() if isinstance(m, Move)]

    def play_round(self) -> Move:
        """Roll, check the highlighted boxes, click the chosen box (and option)."""
        self.roll()
        moves = self.offered()
        legal_slots = {m.slot for m in moves}
        expect(self.by_id("legal-move")).to_have_count(len(legal_slots), timeout=CLICK_TIMEOUT)
        move = choose(moves)
        self.click(move)
        return move

    def click(self, move: Move) -> None:
        """Click ``move``'s box, and its option when the box offers several moves."""
        in_box = [m for m in self.offered() if m.slot == move.slot]
        self.by_id(box_id(move.slot)).click()
        if len(in_box) > 1:
            self.menus += 1
            options = self.by_id("move-option")
            expect(options).to_have_count(len(in_box), timeout=CLICK_TIMEOUT)
            options.nth(in_box.index(move)).click()
        self.game.play(move)
        self.expect_filled(move)

    def expect_filled(self, move: Move) -> None:
        expect(self.by_id(box_id(move.slot))).to_have_attribute(
            "aria-label", re.compile(rf", {move.score}$"), timeout=CLICK_TIMEOUT
        )

    def play_to_the_end(self) -> int:
        """Finish the game by clicks; return the engine's final score."""
        while self.game.phase == "setup":
            self.setup_round()
        while self.game.phase == "play":
            self.play_round()
        return self.game.score().final


def lesson_card(list_page: Page, name: str) -> Locator:
    """The card of lesson ``name`` in the gallery (``caterpillar-learn serve``'s first page)."""
    return list_page.locator(f'[data-testid="lesson-card"][data-lesson="{name}"]')


def expect_no_error(page: Page) -> None:
    """No cell failed: Voila shows an error box (tracebacks are off) or stderr output."""
    expect(page.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.stderr']")).to_have_count(0)
    expect(page.get_by_text("There was an error when executing cell")).to_have_count(0)


def open_lesson(list_page: Page, name: str) -> Page:
    """Open a lesson as a learner does: find its card in the gallery, tap it (it opens in a tab of its own)."""
    entry = lesson_card(list_page, name)
    expect(entry).to_be_visible(timeout=LIST_TIMEOUT)
    with list_page.context.expect_page() as opened:
        entry.click()  # one tap opens a lesson card, in a new tab
    lesson = opened.value
    lesson.set_default_timeout(CLICK_TIMEOUT)
    expect(lesson).to_have_url(re.compile(rf"/voila/render/{re.escape(name)}\.ipynb"))
    return lesson


def follow_the_show_me(page: Page) -> None:
    """Answer the open question with its first option until the lesson shows the answer, then do what it marks.

    After each tap it waits for Python's answer (the widget's root is ``aria-busy`` until then): under load an
    answer can come seconds late, and a tap aimed at the question as it was then finds it gone (seen: the
    Check marked, then removed as the lesson went on, and the click waiting for it until its timeout).
    """
    check = page.get_by_test_id("check-answer")
    for _ in range(20):
        if not check.count() or not check.is_enabled():
            return
        marked = page.locator('[data-testid="question"] [data-todo="true"], [data-testid="sheet"] [data-todo="true"]')
        try:
            if marked.count():
                marked.first.click(timeout=SHOW_ME_TAP)
            elif page.locator('[data-todo="true"][data-testid="check-answer"]').count():
                check.click(timeout=SHOW_ME_TAP)
            else:
                page.locator('[data-testid="answer"]').first.click(timeout=SHOW_ME_TAP)
                check.click(timeout=SHOW_ME_TAP)
        except PlaywrightTimeoutError:
            pass  # what the tap aimed at went as Python answered an earlier tap: look again
        wait_answered(page)
        # time itself: a child's pace between taps (a lesson room refuses a page's taps past 10 a second)
        page.wait_for_timeout(SHOW_ME_PACE)
    raise AssertionError("the show-me never led to the answer")


#: How long one tap of :func:`follow_the_show_me` waits for what it aims at (ms) before it looks again.
SHOW_ME_TAP = 5_000
#: The least time between two of :func:`follow_the_show_me`'s looks (ms): a child's pace, not a wait for Python.
SHOW_ME_PACE = 200


def wait_answered(page: Page) -> None:
    """Wait until no widget root is ``aria-busy`` (Python has answered the page's taps), then until the page has
    drawn the answer (:func:`wait_painted`)."""
    page.wait_for_function(
        """() => !document.querySelector('.cl-root[aria-busy="true"], .rr-root[aria-busy="true"]')""",
        timeout=CLICK_TIMEOUT,
    )
    wait_painted(page)


#: Two animation frames from now: what a drawing put off to its next frame (a count, a marked box) has run.
PAINTED_JS = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"""


def wait_painted(page: Page) -> None:
    """Wait until the page has drawn two frames since now: every redraw already under way has been painted, and
    whatever it put off to the next frame has run (the page's own clock, not a guess of time)."""
    page.wait_for_function(PAINTED_JS, timeout=CLICK_TIMEOUT, polling=100)
