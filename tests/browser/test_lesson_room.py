"""A lesson room in Chromium: a teacher and three pupils in a lesson room of ``01-beginner``.

``caterpillar-learn classroom`` runs on a free port with a fresh ``--data``
folder.  The teacher (1920x1080) creates a lesson room; three pupils join
in their own browser contexts (one a 1024x768 touch tablet, tapping only).
The progress grid follows each pupil step by step (``data-step`` against the
step the pupil's page shows), a reload keeps the place, pause covers every
screen and lifts, a hold keeps a pupil at the step until the teacher lets
go, a tap on a row shows that pupil's screen read-only, the names hide on
the projector, and the downloaded CSV holds every pupil.  Screenshots go
to ``artifacts/shots/lessonroom/``.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from caterpillar_learn.classroom.rooms.lesson.room import CLOCK_WRITE
from caterpillar_learn.classroom.store import FILE_NAME
from caterpillar_learn.lessons import get_table
from caterpillar_learn.ui.caterpillars import LessonSession
from caterpillar_learn.ui.raupe.controller import RaupeTable

from .axe import describe_violations, run_axe
from .conftest import ROOT, Server, printed_address
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, follow_the_show_me

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ROOT / "artifacts" / "shots" / "lessonroom"
NICKNAMES = ("Ada", "Ben", "Cem")
#: Ben's tablet: 1024x768, touch; the others a desktop's window.
TABLET = {"viewport": {"width": 1024, "height": 768}, "has_touch": True}
DESKTOP = {"viewport": {"width": 1920, "height": 1080}}


def wrong_box() -> str:
    """A box the first question's dice cannot fill (the lesson's dice are the same for every pupil)."""
    lesson = LessonSession("01-beginner", 1)
    lesson.handle({"type": "step", "delta": 1})
    lesson.handle({"type": "roll"})
    question = lesson.quiz.question
    assert question is not None and question.kind == "boxes"
    return next(option.id for option in question.options if option.id not in question.correct)


def shot(page: Page, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


@pytest.fixture
def contexts(browser: Browser) -> Iterator[dict[str, BrowserContext]]:
    opened: dict[str, BrowserContext] = {}
    try:
        for name in ("teacher", *NICKNAMES):
            options = TABLET if name == "Ben" else DESKTOP
            opened[name] = browser.new_context(**options, accept_downloads=name == "teacher")  # type: ignore[arg-type]
            opened[name].set_default_timeout(CLICK_TIMEOUT)
        yield opened
    finally:
        for context in opened.values():
            context.close()


def tap(page: Page, target: Locator) -> None:
    """A tap on a touch page, a click elsewhere."""
    if page.context.browser is not None and page.viewport_size and page.viewport_size["width"] == 1024:
        target.tap()
    else:
        target.click()


def step_shown(page: Page) -> int:
    """The step the pupil's page shows (its progress bar, 1-based)."""
    value = page.locator('[role="progressbar"]').first.get_attribute("aria-valuenow")
    assert value is not None
    return int(value)


def row(teacher: Page, nickname: str) -> Locator:
    return teacher.locator(f'[data-testid="progress-row"][data-nickname="{nickname}"]')


def expect_at(teacher: Page, pupil: Page, nickname: str, step: int) -> None:
    """The pupil's page shows step ``step``, and so does the teacher's row of ``nickname``."""
    expect(pupil.locator('[role="progressbar"]').first).to_have_attribute("aria-valuenow", str(step))
    expect(row(teacher, nickname)).to_have_attribute("data-step", str(step), timeout=RENDER_TIMEOUT)


def test_a_teacher_and_three_pupils_in_a_lesson_room(
    classroom_server: Server, contexts: dict[str, BrowserContext], axe_script: str
) -> None:
    teacher = contexts["teacher"].new_page()
    teacher.goto(printed_address(classroom_server, "Teacher (keep this address to yourself):"), timeout=RENDER_TIMEOUT)
    teacher.get_by_test_id("room-game").select_option("lesson", timeout=RENDER_TIMEOUT)  # the form redraws
    teacher.get_by_test_id("room-lesson").select_option("01-beginner")
    teacher.get_by_test_id("room-mode").select_option("own")
    teacher.get_by_test_id("create-room").click()
    code = teacher.get_by_test_id("room-code").inner_text(timeout=RENDER_TIMEOUT)
    expect(teacher.get_by_test_id("progress")).to_be_visible()
    base = printed_address(classroom_server, "Pupils join at:")

    pupils: dict[str, Page] = {}
    for name in NICKNAMES:
        page = contexts[name].new_page()
        page.goto(f"{base}?room={code}", timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("join-code")).to_have_value(code, timeout=RENDER_TIMEOUT)
        page.get_by_test_id("nickname").fill(name)
        tap(page, page.get_by_test_id("join-button"))
        expect(page.get_by_test_id("lesson-step")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("you")).to_contain_text(f"{code} · {name}")
        pupils[name] = page
    expect(teacher.get_by_test_id("progress-row")).to_have_count(3, timeout=RENDER_TIMEOUT)
    for name in pupils:
        expect(row(teacher, name)).to_have_attribute("data-step", "1")
        expect(row(teacher, name)).to_have_attribute("data-steps", "13")

    # The grid follows each pupil step by step: Ada goes furthest, Ben a step, Cem stays.
    ada, ben, cem = (pupils[name] for name in NICKNAMES)
    tap(ada, ada.get_by_test_id("next-step"))
    expect_at(teacher, ada, "Ada", 2)
    ada.get_by_test_id("roll-button").click()
    expect(ada.get_by_test_id("question")).to_be_visible()
    expect_at(teacher, ada, "Ada", 3)
    expect(row(teacher, "Ada")).to_have_attribute("data-asked", "0")
    tap(ben, ben.get_by_test_id("next-step"))
    expect_at(teacher, ben, "Ben", 2)
    expect(row(teacher, "Cem")).to_have_attribute("data-step", "1")
    shot(ben, "pupil-tablet-1024x768")
    shot(teacher, "teacher-1920x1080")

    # Hold the class at step 3: Ada answers the question, and stays at step 3 until the teacher lets go.
    teacher.get_by_test_id("hold-step").select_option("3")
    expect(teacher.get_by_test_id("hold-step")).to_have_value("3")
    follow_the_show_me(ada)
    expect(row(teacher, "Ada")).to_have_attribute("data-asked", "1", timeout=RENDER_TIMEOUT)
    expect(ada.get_by_test_id("feedback")).to_be_visible()
    expect_at(teacher, ada, "Ada", 3)
    expect(ada.get_by_test_id("next-step")).to_be_disabled()
    right_first = row(teacher, "Ada").get_attribute("data-right-first")
    assert right_first in ("0", "1")
    teacher.get_by_test_id("hold-step").select_option("")
    expect_at(teacher, ada, "Ada", 4)

    # A reload keeps the place (the page shows its secret again; the room has the pupil's lesson as it was).
    title = ada.get_by_test_id("lesson-step").inner_text()
    ada.reload()
    expect(ada.get_by_test_id("lesson-step")).to_have_text(title, timeout=RENDER_TIMEOUT)
    assert step_shown(ada) == 4
    ben.reload()
    expect(ben.get_by_test_id("lesson-step")).to_be_visible(timeout=RENDER_TIMEOUT)
    assert step_shown(ben) == 2
    expect_at(teacher, ben, "Ben", 2)
    # Another tablet with Ada's secret (her address, whose fragment holds it): Ada, at the same step.
    other = contexts["Cem"].browser.new_context(**TABLET)  # type: ignore[union-attr,arg-type]
    try:
        again = other.new_page()
        again.goto(ada.url, timeout=RENDER_TIMEOUT)
        expect(again.get_by_test_id("you")).to_contain_text(f"{code} · Ada", timeout=RENDER_TIMEOUT)
        expect(again.get_by_test_id("lesson-step")).to_have_text(title)
        assert step_shown(again) == 4
    finally:
        other.close()

    # Pause covers every pupil's screen, and lifts.
    teacher.get_by_test_id("pause-class").click()
    for page in pupils.values():
        expect(page.get_by_test_id("class-paused")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("class-paused")).to_contain_text("Eyes on your teacher")
    shot(ben, "pupil-tablet-paused-1024x768", full=False)  # the cover holds the screen, as the child sees it
    expect(teacher.get_by_test_id("pause-class")).to_have_attribute("aria-pressed", "true")
    teacher.get_by_test_id("pause-class").click()
    for page in pupils.values():
        expect(page.get_by_test_id("class-paused")).to_have_count(0, timeout=RENDER_TIMEOUT)
    tap(cem, cem.get_by_test_id("next-step"))  # the lesson goes on
    expect_at(teacher, cem, "Cem", 2)

    # Three wrong answers in a row: Cem's row says stuck.
    cem.get_by_test_id("roll-button").click()
    expect_at(teacher, cem, "Cem", 3)
    wrong = f"box-{wrong_box()}"
    check = cem.get_by_test_id("check-answer")
    for taps in ([wrong], [], [wrong]):  # the second check keeps the first try's box; then the answer is shown
        for test_id in taps:
            cem.get_by_test_id(test_id).click()
        expect(check).to_be_enabled()
        check.click()
        expect(cem.get_by_test_id("feedback")).to_be_visible()
        expect(cem.locator(".cl-root[aria-busy='true']")).to_have_count(0, timeout=CLICK_TIMEOUT)  # Python answered
    expect(row(teacher, "Cem")).to_have_attribute("data-stuck", "true", timeout=RENDER_TIMEOUT)
    expect(row(teacher, "Cem")).to_have_class(re.compile("cr-stuck"))
    expect(row(teacher, "Ada")).to_have_attribute("data-stuck", "false")
    shot(teacher, "teacher-stuck-1920x1080")
    for page in (teacher, cem):  # the console with a stuck row, a pupil's lesson: no serious axe-core violation
        refused = describe_violations(run_axe(page, axe_script))
        assert not refused, "\n".join(refused)

    # A tap on a row shows that pupil's screen, read-only.
    row(teacher, "Ben").get_by_test_id("watch-pupil").click()
    expect(teacher.get_by_test_id("watch-title")).to_contain_text("Ben", timeout=RENDER_TIMEOUT)
    mirror = teacher.get_by_test_id("lesson-step").last
    expect(mirror).to_have_text(ben.get_by_test_id("lesson-step").inner_text())
    tap(ben, ben.get_by_test_id("roll-button"))
    expect(teacher.locator('[role="progressbar"]').last).to_have_attribute("aria-valuenow", "3", timeout=RENDER_TIMEOUT)
    teacher.get_by_test_id("next-step").last.click(force=True)  # the teacher's tap changes nothing
    # Answered (if the read-only screen sent it at all): a step it made would show on that screen by now.
    expect(teacher.locator(".cl-root[aria-busy='true']")).to_have_count(0, timeout=CLICK_TIMEOUT)
    expect(teacher.locator('[role="progressbar"]').last).to_have_attribute("aria-valuenow", "3")
    assert step_shown(ben) == 3
    shot(teacher, "teacher-watching-1920x1080")

    # The names hide on the projector.
    teacher.get_by_test_id("anonymize").check()
    expect(teacher.get_by_test_id("watch-title")).not_to_contain_text("Ben", timeout=RENDER_TIMEOUT)
    grid = teacher.get_by_test_id("progress")
    for name in NICKNAMES:
        expect(grid).not_to_contain_text(name)
    expect(grid).to_contain_text("Pupil 1")
    shot(teacher, "teacher-anonymous-1920x1080")
    teacher.get_by_test_id("anonymize").uncheck()
    expect(row(teacher, "Ada")).to_have_count(1, timeout=RENDER_TIMEOUT)

    # The progress file holds every pupil.
    with teacher.expect_download(timeout=RENDER_TIMEOUT) as downloading:
        teacher.get_by_test_id("export-csv").click()
    download = downloading.value
    assert download.suggested_filename.startswith(f"01-beginner-{code}-")
    lines = list(csv.DictReader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    assert [line["nickname"] for line in lines] == list(NICKNAMES)
    assert [line["step_reached"] for line in lines] == ["4", "3", "3"]
    assert lines[2]["questions_asked"] == "1" and lines[2]["right_first_try"] == "0"
    assert {line["lesson"] for line in lines} == {"01-beginner"} and {line["steps"] for line in lines} == {"13"}
    assert lines[0]["questions_asked"] == "1" and lines[0]["right_first_try"] == right_first

    # The teacher's console on a 1024x768 tablet, and a pupil on a wide screen.
    small = contexts["Ben"].new_page()
    small.goto(teacher.url, timeout=RENDER_TIMEOUT)
    expect(small.get_by_test_id("progress-row")).to_have_count(3, timeout=RENDER_TIMEOUT)
    shot(small, "teacher-tablet-1024x768")
    shot(ada, "pupil-1920x1080")
    small.close()


def test_a_raupe_lesson_together_the_teacher_starts_every_table(
    classroom_server: Server, contexts: dict[str, BrowserContext]
) -> None:
    """``10-raupe-shape``, together: the pupil answers the lesson's question, waits, and the teacher's start deals."""
    teacher = contexts["teacher"].new_page()
    teacher.goto(printed_address(classroom_server, "Teacher (keep this address to yourself):"), timeout=RENDER_TIMEOUT)
    teacher.get_by_test_id("room-game").select_option("lesson", timeout=RENDER_TIMEOUT)
    teacher.get_by_test_id("room-lesson").select_option("10-raupe-shape")
    teacher.get_by_test_id("room-mode").select_option("together")
    teacher.get_by_test_id("create-room").click()
    code = teacher.get_by_test_id("room-code").inner_text(timeout=RENDER_TIMEOUT)
    pupil = contexts["Ben"].new_page()  # the touch tablet
    pupil.goto(f"{printed_address(classroom_server, 'Pupils join at:')}?room={code}", timeout=RENDER_TIMEOUT)
    pupil.get_by_test_id("nickname").fill("Ben")
    pupil.get_by_test_id("join-button").tap()
    expect(pupil.get_by_test_id("raupe-hand")).to_be_visible(timeout=RENDER_TIMEOUT)
    expect(row(teacher, "Ben")).to_have_attribute("data-steps", "4", timeout=RENDER_TIMEOUT)
    expect(row(teacher, "Ben")).to_have_attribute("data-step", "1")

    # The pupil's language menu is the lesson's own: German on this page only.
    pupil.get_by_test_id("language").select_option("de")
    expect(pupil.get_by_test_id("question")).to_contain_text("Welche deiner Karten passen?")
    table = RaupeTable(get_table("10-raupe-shape"), 10, "10-raupe-shape")  # the room deals what Voila deals
    question = table.quiz.question
    assert question is not None
    for option in sorted(question.correct):
        pupil.locator(f'[data-testid="raupe-card"][data-index="{option}"]').tap()
    pupil.get_by_test_id("check-answer").tap()
    expect(row(teacher, "Ben")).to_have_attribute("data-step", "2", timeout=RENDER_TIMEOUT)
    expect(row(teacher, "Ben")).to_have_attribute("data-right-first", "1")
    pupil.get_by_test_id("raupe-start").tap()  # together: the teacher starts
    expect(pupil.get_by_test_id("raupe-message")).to_contain_text("Lehrkraft", timeout=RENDER_TIMEOUT)
    expect(row(teacher, "Ben")).to_have_attribute("data-step", "2")
    start = teacher.get_by_test_id("teacher-roll")
    expect(start).to_have_text("Start the game for the class")
    start.click()
    expect(row(teacher, "Ben")).to_have_attribute("data-step", "3", timeout=RENDER_TIMEOUT)
    expect(start).to_be_disabled()
    pile = pupil.get_by_test_id("raupe-pile")
    expect(pile).to_be_visible()
    expect(pupil.locator("body")).not_to_contain_text("The game is played")  # the teacher's start in the page's words
    shot(pupil, "pupil-raupe-german-1024x768")

    # The bots play on the server's clock: the pile grows while the page sends no tick, and the log holds
    # the time only where the bots moved, a row every few seconds (issue 32: a lesson room's tables write no ticks).
    expect(pile).not_to_have_attribute("data-size", "1", timeout=RENDER_TIMEOUT)
    deadline = time.monotonic() + CLOCK_WRITE + 10
    while True:
        with sqlite3.connect(classroom_server.log.parent / "data" / FILE_NAME) as log:
            written = log.execute("SELECT data FROM events WHERE kind = 'lesson_event'").fetchall()
            rows = [json.loads(data) for (data,) in written]
            clocks = log.execute("SELECT COUNT(*) FROM events WHERE kind = 'tables_clock'").fetchone()[0]
        if clocks or time.monotonic() > deadline:
            break
        time.sleep(0.5)  # poll: the next look at the log, bounded by the deadline
    assert clocks >= 1 and not [row for row in rows if row["event"]["type"] == "tick"], rows
