"""The child's walk (issue 15): lessons 00–04 on a 1024 × 768 touch screen, tapping only what is marked.

The child taps only ``[data-todo="true"]`` (inside it: a random starred box or menu option) and
answers every question at random until the lesson shows the answer; no hover, no keyboard.  Each
lesson reaches its last step (the progress bar's ``aria-valuenow`` equals ``aria-valuemax``), a
level lesson with its final score in view.  At every wait exactly one thing is marked, inside the
screen, every tappable thing is at least 44 px (:mod:`tests.browser.walk`), and what was spoken since
the last wait came by itself, no speaker pressed, without a symbol (:mod:`tests.browser.speech`), and
lessons 00–01 show at most 40 words (:mod:`tests.browser.words`, issue 29).  Lesson 03's child is the
careless one: it taps 40 random things first (it may press a speaker, or switch the voice off) and still
gets to the end, every wait checked as the others' (issue 15: "a second walk taps 40 random tappable
things first").  Lesson 01's own walk by touch is the first part of the practice walk
(``test_practice_walk.py``: the same seed, on past the lesson's end into the practice), so it is walked
there, in English on a tablet and in German on a big screen (1920 × 1080), and not twice.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.caterpillars import BONUS_BOXES, score
from caterpillar_learn.caterpillars.sheet import describe_slot
from caterpillar_learn.lessons import LESSONS, get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game
from caterpillar_learn.ui.caterpillars import LessonSession
from caterpillar_learn.ui.resume import storage_key
from caterpillar_learn.ui.voice import speaks_by_default

from .conftest import SCREENSHOTS, Server
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, open_lesson
from .speech import PRESS_WINDOW_MS, Heard, record_speech
from .walk import TABLET, ChildWalk, child_context, open_touch_lesson
from .words import FEW_WORDS, assert_few_words

pytestmark = pytest.mark.browser

#: The lessons walked here (lesson 01's walk is the practice walk's first part: see the module's text).
WALKED = [name for name, lesson in LESSONS.items() if "board" in lesson.widgets and name != "01-beginner"]


def shoot(prefix: str, *, each_step: bool = False) -> object:
    """Screenshots of the walk's waits (``each_step``: only the first wait of each lesson step; a shot of a
    1920 × 1080 page takes about 0.4 s, and a step's waits look alike)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot_steps: set[str] = set()

    def take(walk: ChildWalk, wait: int) -> None:
        step = str(walk.seen.get("now"))
        if each_step and step in shot_steps:
            return
        shot_steps.add(step)
        walk.page.screenshot(path=str(SCREENSHOTS / f"{prefix}-{wait:02d}.png"))

    return take


def walk_lesson(
    browser: Browser,
    server: Server,
    name: str,
    *,
    seed: int,
    careless: int = 0,
    shots: str | None = None,
    shots_each_step: bool = False,
    viewport: dict[str, int] = TABLET,
    after: Callable[[Page], None] = lambda page: None,
    practice: bool = False,
    init_script: str = "",
) -> ChildWalk:
    with child_context(browser, viewport) as context:
        record_speech(context)
        if init_script:  # e.g. a stand-in for the page's sounds
            context.add_init_script(init_script)
        errors: list[str] = []
        context.on("weberror", lambda error: errors.append(str(error.error)))
        page = open_touch_lesson(context, server.url, name, open_lesson)
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        try:
            expect(page.locator(".cl-root").first).to_be_visible(timeout=RENDER_TIMEOUT)
        except AssertionError:
            page.screenshot(path=str(SCREENSHOTS / f"walk-{name}-failed.png"))
            raise AssertionError(f"the lesson did not render: {errors}") from None
        expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
        heard = Heard(page, listen=1.0 if speaks_by_default(name) and not careless else 0.0)
        shooter = shoot(shots, each_step=shots_each_step) if shots else None
        few = name in FEW_WORDS and not careless  # a careless child may open For grown-ups

        def at_wait(walk: ChildWalk) -> None:
            heard.at_wait(walk)
            if few:
                assert_few_words(walk.page, f"at wait {walk.waits} of {name} (step {walk.seen.get('now')})")

        walk = ChildWalk(page, random.Random(seed), on_wait=at_wait, shots=shooter)  # type: ignore[arg-type]
        if careless:
            walk.careless(careless)  # it may press a speaker, or switch the voice off
            # A speaker press speaks within this window (speech.py): what the last one says is that press's.
            page.wait_for_timeout(PRESS_WINDOW_MS)  # time itself: the press's window, not the walk's speech
            heard.forget()
        walk.walk()
        if speaks_by_default(name) and not careless:  # read-aloud is on here: it spoke by itself at every step
            assert heard.spoken_steps == heard.steps, f"silent at steps {sorted(heard.steps - heard.spoken_steps)}"
        bar = page.locator('[role="progressbar"]').first
        assert bar.get_attribute("aria-valuenow") == bar.get_attribute("aria-valuemax")
        if get_lesson(name).scenario is not None:  # a level lesson ends with the flight and its score
            expect(page.get_by_test_id("final-score")).to_contain_text(re.compile(r"\d"), timeout=CLICK_TIMEOUT)
            expect(page.get_by_test_id("final-score")).to_be_in_viewport()
            the_engines_twin(page, name)
        walk.lesson_said = list(heard.said)  # the lesson's own walk
        if practice:  # on past the end: a free game, then the practice of its costliest moves (issue 33)
            walk_on_into_the_practice(walk)
            heard.at_wait(walk)  # what the last tap made the page say
        walk.said = list(heard.said)
        after(page)  # while the page is open
        return walk


def the_engines_twin(page: Page, name: str) -> None:
    """The walked game beside the engine's twin: the page's own save (its ``localStorage``), replayed by a fresh
    lesson, reaches the engine's save it holds (``LessonSession.restore`` checks that); that game played the
    lesson's own dice, and the page shows its sheet (every box's label and score, each bonus box) and the
    engine's final score of it.  Back and Next stay at the last step, for a grown-up.  (It was a seeded game of
    its own, clicked beside an engine, in ``test_lessons.py``: the same lesson played twice.)"""
    lesson = get_lesson(name)
    key = storage_key(LessonSession.save_kind, name, lesson.seed)
    saved = page.evaluate("(key) => window.localStorage.getItem(key)", key)
    assert saved, f"no save under {key}"
    twin = LessonSession.restore(json.loads(saved), lesson=name, seed=lesson.seed)
    game = twin.game
    assert game.phase == "over"
    scripted = guided_game(lesson).rolls  # the lesson's own dice, the same for every child
    assert game.rolls[: len(scripted)] == scripted
    state = game.state
    for slot, (label, value) in enumerate(zip(state.labels, state.scores, strict=True)):
        caterpillar, box = describe_slot(slot)
        expect(page.get_by_test_id(f"box-{caterpillar}-{box}")).to_have_attribute(
            "aria-label", re.compile(rf"(?<!\d){label}, {value}(,|$)")
        )
    if state.level.rules.bonus_boxes:
        for letter, value in zip(BONUS_BOXES, state.bonus, strict=True):
            shown = "…" if value is None else str(value)
            expect(page.get_by_test_id(f"bonus-{letter}")).to_have_attribute("aria-label", re.compile(rf": {shown}$"))
    final = score(state).final
    expect(page.get_by_test_id("final-score")).to_contain_text(re.compile(rf"(?<!\d){final}(?!\d)"))
    last = page.get_by_test_id("lesson-step").inner_text()
    expect(page.get_by_test_id("next-step")).to_be_disabled()
    page.get_by_test_id("back-step").tap()
    expect(page.get_by_test_id("lesson-step")).not_to_have_text(last)
    page.get_by_test_id("next-step").tap()
    expect(page.get_by_test_id("lesson-step")).to_have_text(last)


#: The practice's end on the page: its last line (done, or nothing to practise).
PRACTICE_ENDED = '[data-testid="practice"][data-status="done"], [data-testid="practice"][data-status="none"]'


def walk_on_into_the_practice(walk: ChildWalk) -> None:
    """From the lesson's end (New game marked): New game, a free game by the marks, and the practice that
    follows it, by the marks, to its end (its last line, and New game marked again)."""
    page = walk.page
    walk.inside(page.locator('[data-todo="true"] >> visible=true').first)  # New game
    practising: list[int] = []
    offered: list[int] = []

    def ended(w: ChildWalk) -> bool:
        if w.seen.get("testid") == "practice-start":  # the free game's end, the practice offered beside it
            if not offered:
                look_at_the_end_scene(page)
            offered.append(w.waits)
        if page.locator('[data-testid="practice"][data-status="active"]').count():
            practising.append(w.waits)
        return w.seen.get("testid") == "new-game" and page.locator(PRACTICE_ENDED).count() > 0

    walk.done = ended
    walk.walk()
    if practising:  # the game's end came first, the practice only after the child's tap (issue 40)
        assert offered and offered[0] < practising[0] and "practice-start" in walk.taps, (offered, practising)
    if page.locator('[data-testid="practice"][data-status="done"]').count():
        assert practising and "practice-next" in walk.taps, walk.taps[-20:]


def look_at_the_end_scene(page: Page) -> None:
    """The free game's end as the child meets it: no practice yet, the butterfly, the score, Practise and New game
    wholly in view (issue 40); a screenshot ``practice-offered-<width>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    width = (page.viewport_size or {"width": 0})["width"]
    page.screenshot(path=str(SCREENSHOTS / f"practice-offered-{width}.png"))
    assert not page.locator('[data-testid="practice"][data-status="active"]').count(), "the practice came first"
    expect(page.get_by_test_id("celebration")).to_be_in_viewport()
    for test_id in ("final-score", "practice-offer", "practice-start", "new-game"):
        expect(page.get_by_test_id(test_id)).to_be_in_viewport(ratio=1)
    if page.get_by_test_id("stars").count():
        expect(page.get_by_test_id("stars")).to_be_in_viewport(ratio=1)


#: The lesson whose child is careless (the module's text), and how many random taps come first.
CARELESS = ("03-advanced", 40)


@pytest.mark.parametrize("name", WALKED)
def test_a_child_walks_the_lesson_by_touch(browser: Browser, lessons_server: Server, name: str) -> None:
    careless = CARELESS[1] if name == CARELESS[0] else 0
    walk = walk_lesson(browser, lessons_server, name, seed=5 if careless else 1, careless=careless)
    assert walk.waits >= len(get_lesson(name).steps)
    if careless:
        assert sum(tap.startswith("careless") for tap in walk.taps) >= careless * 3 // 4


def test_the_page_is_busy_until_python_has_answered(browser: Browser, lessons_server: Server) -> None:
    """From a tap's event until Python has played it, the lesson's root says ``aria-busy="true"`` (issue 18:
    a screen reader waits for the answer, and the walk above waits on it); then the attribute goes."""
    with child_context(browser) as context:
        page = open_touch_lesson(context, lessons_server.url, "01-beginner", open_lesson)
        expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
        walk = ChildWalk(page, random.Random(1))
        walk.settle()
        root = page.locator(".cl-root").first
        root.evaluate(
            """(root) => { window.__busy = [];
              new MutationObserver(() => window.__busy.push(root.getAttribute("aria-busy")))
                .observe(root, { attributes: true, attributeFilter: ["aria-busy"] }); }"""
        )
        before = page.get_by_test_id("lesson-step").text_content()
        page.get_by_test_id("next-step").tap()
        expect(page.get_by_test_id("lesson-step")).not_to_have_text(before or "", timeout=CLICK_TIMEOUT)
        expect(root).not_to_have_attribute("aria-busy", re.compile(r".*"), timeout=CLICK_TIMEOUT)
        busy = page.evaluate("() => window.__busy")
        assert busy[0] == "true" and busy[-1] is None, busy
