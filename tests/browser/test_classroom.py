"""The classroom server in Chromium: a teacher and pupils in separate browser contexts.

``caterpillar-learn classroom`` runs as its own process on a free port with a
fresh ``--data`` folder.  Beside the pages, every pupil's game runs in the
engine (the room's dice are read from the projector), so each sheet on a
page, each final score and the class ranking are checked against the
engine.  Halfway through, the server is killed with SIGKILL between two
pupils' moves and started again on the same data: every placed move must
be back and the game goes on.  A Räuber Raupe table of two pupils is played
in two pages.
"""

from __future__ import annotations

import os
import random
import re
import signal
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from caterpillar_learn.caterpillars import Game, Level, Move, Roll, rank
from caterpillar_learn.caterpillars.sheet import describe_slot
from caterpillar_learn.classroom.identity import new_secret
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import RoomSettings, standard_labels

from .conftest import SCREENSHOTS, Server, cli_command, free_port, screenshot, start_server
from .driver import CLICK_TIMEOUT, RENDER_TIMEOUT, box_id, choose

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Each pupil's way of choosing (so the class does not tie): the highest score, the lowest, the engine's first move.
POLICIES: dict[str, Callable[[list[Move]], Move]] = {
    "Ada": choose,
    "Ben": lambda moves: min(moves, key=lambda move: (move.score, move.slot)),
    "Cleo": lambda moves: moves[0],
}
NICKNAMES = tuple(POLICIES)
#: The round at whose middle the server is killed (two pupils have placed, one has not).
KILL_ROUND = 7


@dataclass
class Classroom:
    """The server process, its data folder and port, and the teacher's address."""

    data: Path
    port: int
    logs: Path
    server: Server
    starts: int = 1

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def teacher_url(self) -> str:
        found = re.search(r"(http://\S+/teacher\?token=\S+)", self.server.log.read_text())
        assert found, self.server.log_tail()
        return found.group(1)

    def kill(self) -> None:
        """SIGKILL: nothing is flushed or closed."""
        os.kill(self.server.process.pid, signal.SIGKILL)
        self.server.process.wait(timeout=20)

    def restart(self) -> None:
        """The same command on the same data and port."""
        self.starts += 1
        self.server = _start(self.data, self.port, self.logs / f"classroom-{self.starts}.log")


def _start(data: Path, port: int, log: Path) -> Server:
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(data)]
    return start_server(cmd, f"http://127.0.0.1:{port}/join", log)


@pytest.fixture
def classroom(tmp_path: Path) -> Iterator[Classroom]:
    port = free_port()
    room = Classroom(tmp_path / "data", port, tmp_path, _start(tmp_path / "data", port, tmp_path / "classroom-1.log"))
    try:
        yield room
    finally:
        room.server.stop()


def _page(browser: Browser) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(CLICK_TIMEOUT)
    return context, context.new_page()


@dataclass
class PupilPage:
    """One pupil's page beside their game in the engine (same layout, the room's dice)."""

    nickname: str
    page: Page
    game: Game = field(default_factory=lambda: Game("beginner", standard_labels(Level.BEGINNER)))

    def join(self, base: str, code: str) -> None:
        self.page.goto(f"{base}/join?room={code}")
        expect(self.page.get_by_test_id("join-code")).to_have_value(code, timeout=RENDER_TIMEOUT)
        self.page.get_by_test_id("nickname").fill(self.nickname)
        self.page.get_by_test_id("join-button").click()
        expect(self.page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(self.page.get_by_test_id("you")).to_contain_text(f"{code} · {self.nickname}")
        # The page keeps its secret after the # (never sent to the server) and in the browser's storage.
        expect(self.page).to_have_url(re.compile(rf"\?room={code}#room={code}&secret=[\w-]{{20,}}$"))
        assert self.nickname not in self.page.url

    def reload(self) -> None:
        """After a restart: a reload shows the page's secret again and brings the sheet back."""
        self.page.reload()
        expect(self.page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)

    def see_dice(self, roll: Roll) -> None:
        for index, value in enumerate(roll.dice):
            expect(self.page.get_by_test_id(f"die-{index}")).to_have_attribute(
                "aria-label", re.compile(rf"(?<!\d){value}(?!\d)"), timeout=CLICK_TIMEOUT
            )

    def place(self) -> Move:
        """The engine's legal moves are the highlighted boxes; click the test policy's choice."""
        moves = [m for m in self.game.legal_moves() if isinstance(m, Move)]
        expect(self.page.get_by_test_id("legal-move")).to_have_count(len({m.slot for m in moves}))
        move = POLICIES[self.nickname](moves)
        in_box = [m for m in moves if m.slot == move.slot]
        self.page.get_by_test_id(box_id(move.slot)).click()
        if len(in_box) > 1:
            self.page.get_by_test_id("move-option").nth(in_box.index(move)).click()
        self.game.play(move)
        expect(self.page.get_by_test_id(box_id(move.slot))).to_have_attribute(
            "aria-label", re.compile(rf", {move.score}$")
        )
        return move

    def check_sheet(self) -> None:
        """Every box on the page shows the engine's score (or is empty where the engine's is)."""
        state = self.game.state
        for slot, value in enumerate(state.scores):
            name, box = describe_slot(slot)
            label = self.page.get_by_test_id(f"box-{name}-{box}")
            ending = rf", {value}$" if value is not None else r", empty(, [a-z ]+)?$"
            expect(label).to_have_attribute("aria-label", re.compile(ending))


def _expect_the_class_sheet(teacher: Page, chosen: list[object]) -> None:
    """The projector's sheet (issue 42): lesson 01's labels, and on each box how many pupils wrote the roll there."""
    boxes = teacher.get_by_test_id("class-box")
    expect(boxes).to_have_count(12)
    slots = [move.slot for move in chosen if isinstance(move, Move)]
    for slot, label in enumerate(standard_labels(Level.BEGINNER)):
        expect(boxes.nth(slot)).to_have_attribute("data-label", str(label))
        expect(boxes.nth(slot)).to_have_attribute("data-count", str(slots.count(slot)))
    expect(teacher.get_by_test_id("class-sheet")).to_contain_text("How the class chose")
    screenshot(teacher, "classroom-class-sheet")


def _teacher_roll(teacher: Page, round_number: int, rng: random.Random) -> Roll:
    """Real dice rolled at the front: the teacher types them in, the projector shows them."""
    roll = Roll(tuple(sorted(rng.randint(1, 6) for _ in range(2))))
    teacher.get_by_test_id("dice-input").fill(f"{roll.dice[1]}, {roll.dice[0]}")
    teacher.get_by_test_id("teacher-roll").click()
    expect(teacher.get_by_test_id("room-round")).to_have_text(f"Round {round_number} of 12")
    expect(teacher.get_by_test_id("room-dice")).to_have_attribute("aria-label", str(roll))
    expect(teacher.get_by_test_id("dice-input")).to_have_value("")
    return roll


def test_a_class_plays_a_beginner_game_to_the_ranking_through_a_sigkill(browser: Browser, classroom: Classroom) -> None:
    contexts: list[BrowserContext] = []
    try:
        context, teacher = _page(browser)
        contexts.append(context)
        teacher.goto(classroom.teacher_url)
        teacher.get_by_test_id("room-dice-source").select_option("typed", timeout=RENDER_TIMEOUT)
        teacher.get_by_test_id("create-room").click()  # Beginner, the standard layout, real dice typed in
        code = teacher.get_by_test_id("room-code").inner_text()
        assert re.fullmatch(r"[A-Z0-9]{6}", code)
        pupils = []
        for nickname in NICKNAMES:
            context, page = _page(browser)
            contexts.append(context)
            pupil = PupilPage(nickname, page)
            pupil.join(classroom.base, code)
            pupils.append(pupil)
        expect(teacher.get_by_test_id("pupil")).to_have_count(len(NICKNAMES))
        expect(teacher.get_by_test_id("placed-count")).to_have_text("3 of 3 placed")

        rng = random.Random(7)
        for round_number in range(1, 13):
            roll = _teacher_roll(teacher, round_number, rng)
            for count, pupil in enumerate(pupils):
                pupil.game.add_roll(roll)
                pupil.see_dice(roll)
                if round_number == KILL_ROUND and count == 2:
                    expect(teacher.get_by_test_id("placed-count")).to_have_text("2 of 3 placed")
                    screenshot(teacher, "classroom-before-kill")
                    classroom.kill()
                    pages = [teacher, *(again.page for again in pupils)]
                    for lost in pages:  # every page says so, then reloads itself once the server is back
                        expect(lost.get_by_test_id("connection-lost")).to_be_visible(timeout=CLICK_TIMEOUT)
                    classroom.restart()
                    for lost in pages:
                        expect(lost.get_by_test_id("connection-lost")).to_have_count(0, timeout=RENDER_TIMEOUT)
                    expect(teacher.get_by_test_id("placed-count")).to_have_text("2 of 3 placed", timeout=RENDER_TIMEOUT)
                    expect(teacher.get_by_test_id("room-round")).to_have_text(f"Round {KILL_ROUND} of 12")
                    for again in pupils:
                        expect(again.page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
                        again.check_sheet()  # every move placed before the kill is back
                    pupil.see_dice(roll)
                pupil.place()
            expect(teacher.get_by_test_id("placed-count")).to_have_text("3 of 3 placed")
            if round_number == 1:  # the projector: the dice on the room's sheet (lesson 01's), how the class chose
                _expect_the_class_sheet(teacher, [pupil.game.history[0].choice for pupil in pupils])

        expected = rank({pupil.nickname: pupil.game.state for pupil in pupils})
        assert len({standing.final for standing in expected}) > 1, "the policies should not tie"
        rows = teacher.get_by_test_id("leaderboard-row")
        expect(rows).to_have_count(len(pupils), timeout=CLICK_TIMEOUT)
        shown = [
            (
                int(rows.nth(i).get_attribute("data-place") or 0),
                rows.nth(i).get_attribute("data-nickname"),
                int(rows.nth(i).get_attribute("data-final") or -1),
            )
            for i in range(len(pupils))
        ]
        assert shown == [(s.place, s.player, s.final) for s in expected]
        for pupil in pupils:
            pupil.check_sheet()
            final = pupil.game.score().final
            expect(pupil.page.get_by_test_id("final-score")).to_have_text(f"Final score: {final}")
            row = teacher.locator(f'[data-testid="leaderboard-row"][data-nickname="{pupil.nickname}"]')
            expect(row).to_contain_text(f"{pupil.game.score().flying} (")  # the flying caterpillar
        # Per pupil, the hint generator's review: the loss of each round against best play (exact at Beginner).
        first = teacher.locator(f'[data-testid="leaderboard-row"][data-nickname="{expected[0].player}"]')
        first.get_by_test_id("review-button").click()
        review = first.get_by_test_id("pupil-review")
        expect(review).to_be_attached(timeout=RENDER_TIMEOUT)
        assert review.locator("li").count() >= 12
        screenshot(teacher, "classroom-ranking")
        screenshot(pupils[0].page, "classroom-pupil-final")

        # The log on disk gives the same ranking (the room as a restart would rebuild it).
        classroom.server.stop()
        room = Lobby.open(classroom.data).rooms[code]
        assert [(s.player, s.final, s.all_boxes) for s in room.ranking()] == [
            (s.player, s.final, s.all_boxes) for s in expected
        ]
    finally:
        for context in contexts:
            context.close()


def test_a_raupe_table_of_two_pupils_plays_in_two_pages(browser: Browser, classroom: Classroom) -> None:
    contexts: list[BrowserContext] = []
    try:
        context, teacher = _page(browser)
        contexts.append(context)
        teacher.goto(classroom.teacher_url)
        teacher.get_by_test_id("room-game").select_option("raupe", timeout=RENDER_TIMEOUT)
        teacher.get_by_test_id("room-seats").select_option("2")
        teacher.get_by_test_id("create-room").click()
        code = teacher.get_by_test_id("room-code").inner_text()
        pages = []
        for nickname in ("Ada", "Ben"):
            context, page = _page(browser)
            contexts.append(context)
            page.goto(f"{classroom.base}/join?room={code}")
            page.get_by_test_id("nickname").fill(nickname, timeout=RENDER_TIMEOUT)
            page.get_by_test_id("join-button").click()
            expect(page.get_by_test_id("raupe-pile")).to_be_visible(timeout=RENDER_TIMEOUT)
            pages.append(page)
        ada, ben = pages
        table = teacher.get_by_test_id("raupe-table")
        expect(table).to_have_count(1)
        expect(table).to_contain_text("Ada")
        expect(table).to_contain_text("Ben")
        expect(ben.get_by_test_id("raupe-opponents")).to_contain_text("Ada")  # a person, not a bot

        ada.get_by_test_id("raupe-start").click()
        expect(teacher.get_by_test_id("raupe-table-status")).to_contain_text("Playing")
        for player, other in [(ada, ben), (ben, ada), (ada, ben)]:
            size = int(player.get_by_test_id("raupe-pile").get_attribute("data-size") or 0)
            cards = player.get_by_test_id("raupe-card")
            before = cards.count()
            fitting = player.locator('[data-testid="raupe-card"].rr-fits')
            (fitting.first if fitting.count() else cards.first).click()
            expect(cards).to_have_count(before - 1)
            # The other page sees the same pile, pushed by the server.
            expect(other.get_by_test_id("raupe-pile")).to_have_attribute("data-size", str(size + 1))
            pile = player.get_by_test_id("raupe-pile").get_attribute("aria-label")
            expect(other.get_by_test_id("raupe-pile")).to_have_attribute("aria-label", pile or "")
        expect(ada.get_by_test_id("raupe-opponent")).to_have_text(str(ben.get_by_test_id("raupe-card").count()))
        screenshot(ben, "classroom-raupe-table")
    finally:
        for context in contexts:
            context.close()


def test_an_address_without_the_secret_gives_no_sheet_and_leaves_no_ghost(
    browser: Browser, classroom: Classroom
) -> None:
    """Page loads with a room code and a nickname: no sheet for anyone, nobody made a pupil."""
    classroom.server.stop()
    lobby = Lobby.open(classroom.data)
    room = lobby.create(RoomSettings.build("beginner", dice="typed"))
    _, ada = lobby.join(room.code, "Ada", client="127.0.0.1", secret=new_secret())
    lobby.store.close()
    classroom.server = _start(classroom.data, classroom.port, classroom.logs / "classroom-2.log")
    for nickname in ("Ada", "ada", "Kid1", "Kid2", "Kid3"):
        with urllib.request.urlopen(f"{classroom.base}/join?room={room.code}&nickname={nickname}", timeout=60) as reply:
            page = reply.read().decode()
        assert "<html" in page  # a page that never opens its websocket
    context, page = _page(browser)
    try:  # the old address of Ada's sheet, in a browser: the door, with the nickname filled in, and no sheet
        page.goto(f"{classroom.base}/join?room={room.code}&nickname=Ada")
        expect(page.get_by_test_id("nickname")).to_have_value("Ada", timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("sheet")).to_have_count(0)
        expect(page.get_by_test_id("you")).to_have_count(0)
    finally:
        context.close()
    classroom.server.stop()
    again = Lobby.open(classroom.data).rooms[room.code]
    assert list(again.pupils) == [ada.id]  # no pupil was made by a page that never connected


def test_the_teacher_lets_a_second_tablet_in_refuses_a_third_and_removes_a_pupil(
    browser: Browser, classroom: Classroom
) -> None:
    contexts: list[BrowserContext] = []
    try:
        context, teacher = _page(browser)
        contexts.append(context)
        teacher.goto(classroom.teacher_url)
        teacher.get_by_test_id("room-dice-source").select_option("typed", timeout=RENDER_TIMEOUT)
        teacher.get_by_test_id("create-room").click()
        code = teacher.get_by_test_id("room-code").inner_text()
        pages: dict[str, Page] = {}
        for name in ("Ada", "Ben"):
            context, page = _page(browser)
            contexts.append(context)
            PupilPage(name, page).join(classroom.base, code)
            pages[name] = page
        expect(teacher.get_by_test_id("pupil")).to_have_count(2)

        # The same tablet (a new tab, the same browser storage): the sheet at once, without typing.
        again = pages["Ada"].context.new_page()
        again.goto(f"{classroom.base}/join?room={code}")
        expect(again.get_by_test_id("you")).to_contain_text(f"{code} · Ada", timeout=RENDER_TIMEOUT)
        again.close()

        # Another tablet types "ADA": it waits, the teacher lets it in.
        context, second = _page(browser)
        contexts.append(context)
        second.goto(f"{classroom.base}/join?room={code}")
        second.get_by_test_id("nickname").fill("ADA", timeout=RENDER_TIMEOUT)
        second.get_by_test_id("join-button").click()
        expect(second.get_by_test_id("rejoin-waiting")).to_contain_text("Ask your teacher")
        expect(second.get_by_test_id("sheet")).to_have_count(0)
        request = teacher.get_by_test_id("rejoin-request")
        expect(request).to_have_text(re.compile("Ada wants to join on another tablet"))
        screenshot(teacher, "classroom-rejoin-request")
        request.get_by_test_id("rejoin-allow").click()
        expect(second.get_by_test_id("you")).to_contain_text(f"{code} · Ada", timeout=RENDER_TIMEOUT)
        expect(teacher.get_by_test_id("rejoin-request")).to_have_count(0)
        expect(teacher.get_by_test_id("pupil")).to_have_count(2)

        # A third one types "Ａｄａ" (fullwidth): the teacher refuses.
        context, third = _page(browser)
        contexts.append(context)
        third.goto(f"{classroom.base}/join?room={code}")
        third.get_by_test_id("nickname").fill("Ａｄａ", timeout=RENDER_TIMEOUT)
        third.get_by_test_id("join-button").click()
        teacher.get_by_test_id("rejoin-refuse").click()
        expect(third.get_by_test_id("rejoin-refused")).to_contain_text("Your teacher said no")
        expect(third.get_by_test_id("sheet")).to_have_count(0)

        # Rename Ben, then remove him: his page is told so.
        ben_row = teacher.locator('[data-testid="pupil"][data-nickname="Ben"]')
        for target in ("rename-pupil", "remove-pupil"):  # a teacher taps them on a tablet too: 44 px or more
            box = ben_row.get_by_test_id(target).bounding_box()
            assert box and box["width"] >= 44 and box["height"] >= 44, (target, box)
        ben_row.get_by_test_id("rename-pupil").click()
        box = teacher.get_by_test_id("rename-save").bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, ("rename-save", box)
        teacher.get_by_test_id("rename-nickname").fill("Benno")
        teacher.get_by_test_id("rename-save").click()
        expect(pages["Ben"].get_by_test_id("you")).to_contain_text(f"{code} · Benno")
        benno = teacher.locator('[data-testid="pupil"][data-nickname="Benno"]')
        benno.get_by_test_id("remove-pupil").click()  # Remove asks first, in the row: No keeps Benno
        expect(benno.get_by_test_id("remove-ask")).to_have_text("Remove Benno?")
        expect(benno.get_by_test_id("remove-no")).to_be_focused()
        for target in ("remove-yes", "remove-no"):
            box = benno.get_by_test_id(target).bounding_box()
            assert box and box["width"] >= 44 and box["height"] >= 44, (target, box)
        benno.get_by_test_id("remove-no").click()
        expect(benno.get_by_test_id("remove-pupil")).to_be_focused()
        expect(teacher.get_by_test_id("pupil")).to_have_count(2)
        benno.get_by_test_id("remove-pupil").click()
        benno.get_by_test_id("remove-yes").click()
        expect(teacher.get_by_test_id("pupil")).to_have_count(1)
        expect(pages["Ben"].get_by_test_id("removed")).to_contain_text("taken you out of this room")
        expect(pages["Ben"].get_by_test_id("sheet")).to_have_count(0)
        pages["Ben"].reload()  # the page forgot the secret: the door, not the sheet
        expect(pages["Ben"].get_by_test_id("join-button")).to_be_visible(timeout=RENDER_TIMEOUT)
        expect(pages["Ben"].get_by_test_id("sheet")).to_have_count(0)
    finally:
        for context in contexts:
            context.close()


def test_the_teacher_archives_a_finished_room_by_two_taps(browser: Browser, classroom: Classroom) -> None:
    """A room nobody joined is finished: "Archive this room", then "Yes, archive"; the console names the file,
    the file holds the room's record, and the room leaves the desk's list (issue 32)."""
    context, teacher = _page(browser)
    try:
        teacher.goto(classroom.teacher_url)
        teacher.get_by_test_id("room-dice-source").select_option("typed", timeout=RENDER_TIMEOUT)
        teacher.get_by_test_id("create-room").click()
        code = teacher.get_by_test_id("room-code").inner_text()
        # It stands apart from the room (issue 42: just under the grid, a tap meant for a row could land on it).
        button = teacher.get_by_test_id("archive-room").bounding_box()
        room = teacher.locator(".cr-projector").bounding_box()
        assert button and room and button["y"] - (room["y"] + room["height"]) >= 48, (button, room)
        teacher.get_by_test_id("archive-room").click()
        expect(teacher.get_by_test_id("archive-ask")).to_contain_text(code)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        teacher.screenshot(path=str(SCREENSHOTS / "classroom-archive-ask.png"))
        teacher.get_by_test_id("archive-yes").click()
        expect(teacher.get_by_test_id("notice")).to_contain_text(code, timeout=CLICK_TIMEOUT)
        expect(teacher.get_by_test_id("message")).to_have_count(0)  # good news, not an error
        files = list((classroom.data / "archive").glob(f"{code}-*.jsonl"))
        assert len(files) == 1, files
        assert files[0].name in teacher.get_by_test_id("notice").inner_text()
        assert '"room_created"' in files[0].read_text(encoding="utf-8")
        expect(teacher.locator(f'[data-testid="open-room"][data-code="{code}"]')).to_have_count(0)
        teacher.screenshot(path=str(SCREENSHOTS / "classroom-archived.png"))
    finally:
        context.close()
