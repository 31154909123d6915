"""Printing from the classroom server: the score sheets on paper, and the console and a pupil's sheet printed.

``caterpillar-learn classroom`` runs on a free port for the module.  A teacher
(Chromium) creates an Expert room whose labels come from the class's setup
rolls; three pupils join over Bokeh's protocol (:class:`~tests.classroom.probe.PageClient`),
two of them place the setup rolls on different blanks, one places nothing.
"Print score sheets" opens the printable page, which Chromium prints to PDF
on A4 and on Letter; ``pdftotext`` (poppler-utils) reads it back: one page
per pupil, each with the pupil's nickname, the level, the room and the
pupil's own labels, in the boxes and in the labels line.  The page is the
teacher's alone, its address and the log never hold the token, and it
carries the server's security headers.

Then a pupil (Chromium) plays a Beginner game to the end, with the dice
rolled by the server, and both pages are looked at under print media: the
buttons, menus, fields and settings are gone, the sheet, the scoring and the
review are there (the teacher's folded review too).
"""

from __future__ import annotations

import http.client
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from caterpillar_learn.caterpillars import DEFAULT_LABELS
from caterpillar_learn.caterpillars.sheet import describe_slot
from caterpillar_learn.classroom.codes import new_code
from caterpillar_learn.classroom.screens import format_labels
from caterpillar_learn.i18n import text
from tests.classroom.probe import PageClient

from .axe import describe_violations, run_axe
from .conftest import ROOT, Server, printed_address, start_classroom
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ROOT / "artifacts" / "shots" / "print"
#: The two setup rolls the teacher types in (three dice each: the six blanks of the printed layout).
SETUP_ROLLS = ("2 4 6", "1 3 5")
#: Where each pupil writes the setup dice, in the dice's order (the blanks: slots 1, 3, 4, 6, 9, 11).
SETUP_SLOTS = {"Ben": ((1, 3, 4), (6, 9, 11)), "Ada": ((11, 9, 6), (4, 3, 1))}


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_classroom(tmp_path_factory.mktemp("print"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    opened = browser.new_context(viewport={"width": 1280, "height": 1000})
    opened.set_default_timeout(CLICK_TIMEOUT)
    try:
        yield opened
    finally:
        opened.close()


def teacher_address(classroom: Server) -> str:
    return printed_address(classroom, "Teacher (keep this address to yourself):")


def open_console(context: BrowserContext, classroom: Server) -> Page:
    page = context.new_page()
    page.goto(teacher_address(classroom), timeout=RENDER_TIMEOUT)
    expect(page.get_by_test_id("create-room")).to_be_attached(timeout=RENDER_TIMEOUT)
    return page


def create_room(teacher: Page, **fields: str) -> str:
    """A new room from the console's form (``level``, ``layout``, ``dice-source``); its code."""
    form = teacher.locator("details.cr-new")
    if form.get_attribute("open") is None:
        form.locator("summary").click()
    before = teacher.get_by_test_id("room-code").inner_text() if teacher.get_by_test_id("room-code").count() else ""
    for name, value in fields.items():
        teacher.get_by_test_id(f"room-{name}").select_option(value)
    teacher.get_by_test_id("create-room").click()
    expect(teacher.get_by_test_id("room-code")).not_to_have_text(before or "-")
    code = teacher.get_by_test_id("room-code").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{6}", code), code
    return code


def setup_labels(placed: tuple[tuple[int, ...], ...]) -> tuple[int | None, ...]:
    """The printed layout with each setup roll's dice written on ``placed``'s blanks, in order."""
    labels = list(DEFAULT_LABELS)
    for dice, slots in zip(SETUP_ROLLS, placed, strict=True):
        for value, slot in zip(sorted(int(d) for d in dice.split()), slots, strict=True):
            assert labels[slot] is None
            labels[slot] = value
    return tuple(labels)


def join(base: str, code: str, nickname: str) -> PageClient:
    page = PageClient(f"{base}/join", {"room": code})
    page.send("JoinWidget", "join", code=code, nickname=nickname)
    assert page.wait(lambda: page.model("ClassroomBoard") is not None, timeout=30)
    return page


def label_shown(pupil: PageClient, caterpillar: str, box: int) -> str:
    """The label a pupil's page shows on a box (from its aria-label: "Alex, box 2, label 4, empty")."""
    svg = pupil.trait("ClassroomBoard", "sheet")["svg"]
    found = re.search(rf'aria-label="{caterpillar}, box {box + 1}, label ([^,"]+),', svg)
    return found.group(1) if found else "…"


def pdf_pages(pdf: Path) -> list[str]:
    """The text of each page of ``pdf``, read by poppler's ``pdftotext`` (``-layout``: a line as printed)."""
    if shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None:
        pytest.fail("pdftotext and pdfinfo are missing: install Debian's poppler-utils (python3 dev.py test does)")
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)$", info, re.MULTILINE).group(1))  # type: ignore[union-attr]
    read = ["pdftotext", "-layout", "-f", "{n}", "-l", "{n}", str(pdf), "-"]
    return [
        subprocess.run([part.format(n=n) for part in read], capture_output=True, text=True, check=True).stdout
        for n in range(1, count + 1)
    ]


def page_size(pdf: Path) -> str:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    found = re.search(r"^Page size:\s+(.+)$", info, re.MULTILINE)
    assert found, info
    return found.group(1)


def label_rows(page_text: str) -> list[list[str]]:
    """The labels printed on the boxes, caterpillar by caterpillar: the line above each name's line."""
    lines = page_text.splitlines()
    rows = []
    for name in ("Alex", "Bobby", "Charlie"):
        at = next(i for i, line in enumerate(lines) if re.match(rf"\s*{name}\s*$", line))
        above = next(line for line in reversed(lines[:at]) if line.strip())
        rows.append(above.split())
    return rows


def test_score_sheets_print_one_page_per_pupil_with_their_own_labels(
    context: BrowserContext, classroom: Server, tmp_path: Path, axe_script: str
) -> None:
    teacher = open_console(context, classroom)
    code = create_room(teacher, level="expert", layout="setup", **{"dice-source": "typed"})
    base = f"http://127.0.0.1:{urlsplit(classroom.url).port}"
    pupils = {name: join(base, code, name) for name in ("Ben", "Ada", "Cleo")}
    try:
        for turn, dice in enumerate(SETUP_ROLLS):
            teacher.get_by_test_id("dice-input").fill(dice)
            teacher.get_by_test_id("teacher-roll").click()
            for name, slots in SETUP_SLOTS.items():
                pupil = pupils[name]
                assert pupil.wait(lambda pupil=pupil: pupil.trait("ClassroomBoard", "dice").get("values"), timeout=30)
                for slot in slots[turn]:
                    name_of, box = describe_slot(slot)
                    pupil.send("ClassroomBoard", "box", caterpillar=name_of, box=box)
                    # Each tap's answer before the next (Panel merges writes of one trait that arrive together).
                    assert pupil.wait(
                        lambda pupil=pupil, name_of=name_of, box=box: label_shown(pupil, name_of, box) != "…",
                        timeout=30,
                    ), (name, slot)
        expect(teacher.get_by_test_id("pupil")).to_have_count(3)
        expected = {name: setup_labels(slots) for name, slots in SETUP_SLOTS.items()}
        expected["Cleo"] = DEFAULT_LABELS  # placed nothing: the blanks stay blank, to be written by hand
        assert expected["Ada"] != expected["Ben"]

        link = teacher.get_by_test_id("print-sheets")
        expect(link).to_have_text(text("classroom.ui.print_sheets"))
        with context.expect_page() as opened:
            link.click()
        sheets = opened.value
        expect(sheets.get_by_test_id("score-sheet")).to_have_count(3, timeout=RENDER_TIMEOUT)
        assert "token" not in sheets.url and sheets.url.endswith(f"/sheets?room={code}")  # the token became a cookie
        expect(sheets.get_by_test_id("paper-a4")).to_have_attribute("aria-current", "true")
        SHOTS.mkdir(parents=True, exist_ok=True)
        sheets.screenshot(path=str(SHOTS / "sheets-screen.png"), full_page=True)
        refused = describe_violations(run_axe(sheets, axe_script))
        assert not refused, "\n".join(refused)

        for paper, size in (("A4", "(A4)"), ("Letter", "(letter)")):
            if paper == "Letter":  # the teacher's choice: the page's @page size, the print dialog's paper
                sheets.get_by_test_id("paper-letter").click()
                expect(sheets.get_by_test_id("paper-letter")).to_have_attribute("aria-current", "true")
            pdf = tmp_path / f"sheets-{paper}.pdf"
            sheets.pdf(path=str(pdf), format=paper, prefer_css_page_size=False)
            (SHOTS / pdf.name).write_bytes(pdf.read_bytes())
            assert size in page_size(pdf), page_size(pdf)
            pages = pdf_pages(pdf)
            assert len(pages) == 3, [p[:200] for p in pages]  # one pupil a page, on either paper
            for name, printed in zip(("Ada", "Ben", "Cleo"), pages, strict=True):  # in the order of their names
                assert re.search(rf"Name:\s+{name}\b", printed), printed
                assert "Caterpillars scoresheet, Expert level" in printed and f"Room {code}" in printed
                assert text("classroom.sheets.labels", labels=format_labels(expected[name])) in printed
                boxes = [[label for label in row] for row in label_rows(printed)]
                wanted = [[str(v) for v in expected[name][i : i + 4] if v is not None] for i in (0, 4, 8)]
                assert boxes == wanted, (name, boxes)
                assert text("lessons.ui.face_butterfly") in printed  # the action die's faces, at Expert
                assert printed.count("=") >= 4 and "final score" in printed
                for word in ("Print", "Paper", text("classroom.sheets.help")):  # the screen's controls
                    assert word not in printed.split("Name:")[0], printed
            assert ("Write the setup rolls" in pages[2]) and "Write the setup rolls" not in pages[0]
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", str(tmp_path / "sheets-A4.pdf"), str(SHOTS / "sheets-a4")], check=True
        )
    finally:
        for pupil in pupils.values():
            pupil.close()


def _get(base: str, path: str, cookie: str = "") -> http.client.HTTPResponse:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    response = connection.getresponse()
    response.read()
    return response


def test_the_sheets_are_the_teachers_alone_and_the_token_leaves_no_trace(
    context: BrowserContext, classroom: Server
) -> None:
    teacher = open_console(context, classroom)
    code = create_room(teacher, level="beginner")
    token = re.search(r"token=([^&\s]+)", teacher_address(classroom)).group(1)  # type: ignore[union-attr]
    base = f"http://127.0.0.1:{urlsplit(classroom.url).port}"
    console = _get(base, f"/teacher?token={token}")

    assert _get(base, f"/sheets?room={code}").status == 403  # no token, no cookie
    assert _get(base, f"/sheets?room={code}&token=guess{token}").status == 403
    assert _get(base, f"/sheets?room={code}", cookie=f"caterpillar_learn_sheets={token}").status == 403

    let_in = _get(base, f"/sheets?room={code}&token={token}&paper=letter")
    assert let_in.status == 303
    assert let_in.getheader("Location") == f"sheets?room={code}&paper=letter"  # the address without the token
    cookie = let_in.getheader("Set-Cookie") or ""
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/sheets" in cookie, cookie
    assert token not in cookie
    page = _get(base, f"/sheets?room={code}&paper=letter", cookie=cookie.split(";")[0])
    assert page.status == 200 and page.getheader("Cache-Control") == "no-store"
    for header in ("Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options"):
        assert page.getheader(header) == console.getheader(header), header  # the console's security headers

    # Bad input: one line naming the field and the value.
    other = next(guess for guess in iter(new_code, None) if guess != code)
    for path, status, words in (
        (f"/sheets?room={code}&paper=A3", 400, "paper: got &#x27;A3&#x27;, expected a4 or letter"),
        (f"/sheets?room={other}", 404, f"There is no room {other}"),
        ("/sheets?room=x", 400, "room code: got &#x27;x&#x27;"),
    ):
        parts = urlsplit(base)
        connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
        connection.request("GET", path, headers={"Cookie": cookie.split(";")[0]})
        answer = connection.getresponse()
        body = answer.read().decode()
        assert answer.status == status and words in body and "Traceback" not in body, (path, body)

    # The log names the requests, never the token (but for the address printed at start).
    logged = classroom.log.read_text()
    assert "/sheets?room=" in logged and "token=[hidden]" in logged
    assert logged.count(token) == 1, [line for line in logged.splitlines() if token in line]


def expect_printed(page: Page, shown: list[Locator], hidden: list[Locator]) -> None:
    """On screen the ``hidden`` are there; under print media they are not, nor any button, menu or field,
    and the ``shown`` are."""
    tapped = page.locator("button:visible, select:visible, input:visible, summary:visible")
    page.emulate_media(media="screen")
    for locator in hidden:
        expect(locator).to_be_visible()
    assert tapped.count() > 0
    page.emulate_media(media="print")
    try:
        for locator in shown:
            expect(locator).to_be_visible()
        for locator in hidden:
            expect(locator).to_be_hidden()
        expect(tapped).to_have_count(0)
    finally:
        page.emulate_media(media="screen")


def play_to_the_end(pupil: Page) -> None:
    """Place every roll the server draws on the first box offered (and its first move)."""
    for _ in range(12):
        legal = pupil.get_by_test_id("legal-move").first
        expect(legal).to_be_attached(timeout=RENDER_TIMEOUT)
        box = legal.locator("xpath=..")
        name = box.get_attribute("data-testid")
        box.click()
        option = pupil.get_by_test_id("move-option").first
        if option.count():
            option.click()
        expect(pupil.get_by_test_id(name or "")).not_to_have_attribute("aria-label", re.compile(r"empty"))


def test_printing_the_console_and_a_pupils_sheet_leaves_the_buttons_out(
    browser: Browser, context: BrowserContext, classroom: Server
) -> None:
    teacher = open_console(context, classroom)
    code = create_room(teacher, level="beginner")  # the standard layout, dice drawn by the server
    teacher.get_by_test_id("auto-roll").check()
    pupil_context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    pupil_context.set_default_timeout(CLICK_TIMEOUT)
    try:
        pupil = pupil_context.new_page()
        pupil.goto(f"{printed_address(classroom, 'Pupils join at:')}?room={code}", timeout=RENDER_TIMEOUT)
        pupil.get_by_test_id("nickname").fill("Dora")
        pupil.get_by_test_id("join-button").click()
        expect(pupil.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
        # The pupil's game takes the tablet's width (it was drawn as narrow as its content, dice stacked).
        root = pupil.locator(".cl-root:not(.cr-join)").bounding_box()
        assert root and root["width"] >= 0.9 * 1024, root
        expect(teacher.get_by_test_id("pupil")).to_have_count(1)
        teacher.get_by_test_id("teacher-roll").click()
        expect(pupil.get_by_test_id("legal-move").first).to_be_attached(timeout=RENDER_TIMEOUT)
        # Mid-game: the boxes to tap are marked on screen, the sheet and its boxes print without the marks.
        expect_printed(
            pupil,
            shown=[pupil.get_by_test_id("sheet"), pupil.get_by_test_id("box-Alex-0"), pupil.get_by_test_id("you")],
            hidden=[pupil.get_by_test_id("roll-button"), pupil.get_by_test_id("hint-button"),
                    pupil.locator(".cl-legal-ring").first],
        )  # fmt: skip
        play_to_the_end(pupil)
        expect(pupil.get_by_test_id("final-score")).to_be_visible(timeout=RENDER_TIMEOUT)
        pupil.get_by_test_id("review-button").click()
        expect(pupil.get_by_test_id("review").locator("li").first).to_be_visible(timeout=RENDER_TIMEOUT)
        expect_printed(
            pupil,
            shown=[pupil.get_by_test_id("sheet"), pupil.get_by_test_id("final-score"),
                   pupil.get_by_test_id("review").locator("li").first],
            hidden=[],
        )  # fmt: skip
        pupil.emulate_media(media="print")
        pupil.screenshot(path=str(SHOTS / "pupil-print-media.png"), full_page=True)
        pupil.pdf(path=str(SHOTS / "pupil.pdf"), format="A4")
        pupil.emulate_media(media="screen")

        row = teacher.locator('[data-testid="leaderboard-row"][data-nickname="Dora"]')
        expect(row).to_be_visible(timeout=RENDER_TIMEOUT)
        # Dora has opened her review on her page, so the console shows it folded in her row once it has come from
        # the server's worker (the row's Review button says it is on its way meanwhile); a console drawn before
        # she asked offers the button instead: either will do.
        review = row.get_by_test_id("pupil-review")
        button = row.get_by_test_id("review-button")
        expect(review.or_(button)).to_be_visible(timeout=RENDER_TIMEOUT)
        if not review.count() and button.is_enabled():
            button.click()
        expect(review).to_be_attached(timeout=RENDER_TIMEOUT)
        expect(review.locator("li").first).to_be_hidden()  # folded on the screen
        expect_printed(
            teacher,
            shown=[teacher.get_by_test_id("leaderboard"), row, review.locator("li").first],
            hidden=[teacher.get_by_test_id("print-sheets"), teacher.get_by_test_id("teacher-roll"),
                    teacher.get_by_test_id("remove-pupil"), teacher.get_by_test_id("join-qr"),
                    teacher.locator("details.cr-new summary")],
        )  # fmt: skip
        teacher.emulate_media(media="print")
        teacher.screenshot(path=str(SHOTS / "console-print-media.png"), full_page=True)
        teacher.pdf(path=str(SHOTS / "console.pdf"), format="A4")
        teacher.emulate_media(media="screen")
    finally:
        pupil_context.close()
