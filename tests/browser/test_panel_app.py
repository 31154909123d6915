"""The Panel app (``panel serve caterpillar_learn/ui/hosting/panel_app.py``) in a real browser.

Same ES module as the lessons, run by Panel's AnyWidgetComponent inside a
shadow root: Playwright's test-id locators pierce it.  A few rounds are played
by clicks against the engine's game with the app's seed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from caterpillar_learn.caterpillars import Move, why_not
from caterpillar_learn.ui.hosting import panel_app

from .conftest import ROOT, Server, free_port, screenshot, start_server
from .driver import CLICK_TIMEOUT, Player, box_id

pytestmark = pytest.mark.browser

ROUNDS = 3


@pytest.fixture(scope="module")
def panel_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = free_port()
    panel = Path(sys.executable).with_name("panel")
    cmd = [
        str(panel) if panel.exists() else sys.executable,
        *([] if panel.exists() else ["-m", "panel"]),
        "serve",
        str(ROOT / "caterpillar_learn" / "ui" / "hosting" / "panel_app.py"),
        "--address",
        "127.0.0.1",
        "--port",
        str(port),
        f"--allow-websocket-origin=127.0.0.1:{port}",
    ]
    log = tmp_path_factory.mktemp("panel") / "panel.log"
    server = start_server(cmd, f"http://127.0.0.1:{port}/panel_app", log)
    try:
        yield server
    finally:
        server.stop()


def test_panel_app_plays_rounds_by_clicks(page: Page, panel_server: Server) -> None:
    page.goto(panel_server.url)
    expect(page.get_by_test_id("sheet")).to_be_visible(timeout=60_000)
    player = Player(page, panel_app.APP_LEVEL, panel_app.APP_SEED)
    try:
        for _ in range(ROUNDS):
            player.play_round()
        player.roll()
        state, roll = player.game.state, player.game.roll()
        legal = {m.slot for m in player.game.legal_moves() if isinstance(m, Move)}
        illegal = next(slot for slot in state.empty_slots() if slot not in legal)
        page.get_by_test_id(box_id(illegal)).click()
        expect(page.get_by_test_id("explanation")).to_have_text(why_not(state, roll, illegal), timeout=CLICK_TIMEOUT)
        expect(page.get_by_test_id("sheet")).to_contain_text(re.compile(r"="))
    finally:
        screenshot(page, "panel-app")
