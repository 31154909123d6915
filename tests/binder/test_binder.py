"""Binder imitation: the README's Binder files applied, a plain ``jupyter server``, Chromium.

What a Binder session does, step by step, with every folder it writes in this
test's temporary folders:

* The repository is cloned (the checkout's files, copied to a temporary
  folder: :func:`tests.virtualenvs.clone`).
* ``binder/requirements.txt`` is installed into a fresh virtualenv
  (:mod:`tests.virtualenvs`): the clone, editable, with its ``[lessons]``
  extra.  The install puts the lessons' Jupyter data under the virtualenv's
  ``share/jupyter`` and ``etc/jupyter``, where Jupyter looks.
* ``binder/postBuild`` runs with ``NB_PYTHON_PREFIX`` pointing at that
  virtualenv, and writes its server configuration there.
* ``jupyter server`` from the virtualenv (no token, loopback, a free port)
  runs in the clone, as a session runs in the repository.  Jupyter's
  per-user folders are empty ones of the test's own.

Then Chromium, recording every request and every console message: the
default URL shows the gallery's cards; lesson 01 opened from its card plays
three rounds; lesson 10 plays a card; with each of the two widget races
forced (``tests/browser/test_voila_widgets_restored.py``), the board draws.
A request to another host, or a console error, fails the test.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from caterpillar_learn.lessons import get_lesson
from caterpillar_learn.lessons.caterpillars import guided_game
from caterpillar_learn.ui.hosting.gallery_server import ROUTES
from caterpillar_learn.ui.hosting.jupyter_data import VOILA_EXTENSIONS, VOILA_TEMPLATE
from tests import virtualenvs
from tests.browser.conftest import Server, free_port
from tests.browser.driver import CLICK_TIMEOUT, LIST_TIMEOUT, RENDER_TIMEOUT, Player, lesson_card
from tests.browser.test_lessons import play_the_lesson
from tests.browser.test_raupe import answer_which_cards_fit, choose, expect_sizes_match, my_plays
from tests.browser.test_voila_widgets_restored import ANYWIDGET_OUT_OF_TIME, LATE_RECHECK

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
NOTEBOOKS = sorted(p.stem for p in (ROOT / "lessons").glob("*.ipynb"))
START_TIMEOUT = 90
ROUNDS = 3


def _get(url: str, timeout: float = 60) -> tuple[int, str, str]:
    """Status, final URL (after redirects) and body of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.geturl(), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, url, error.read().decode("utf-8", "replace")


@dataclass
class Session:
    """The imitated Binder session: its server and its address."""

    server: Server
    url: str

    @property
    def host(self) -> str:
        return urlsplit(self.url).netloc


@pytest.fixture(scope="module")
def binder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    base = tmp_path_factory.mktemp("binder")
    repo = virtualenvs.clone(base / "repo")  # the repository as Binder clones it
    venv, env = virtualenvs.make(base / "venv")  # the session's environment (NB_PYTHON_PREFIX)
    virtualenvs.install(venv, env, "-r", str(repo / "binder" / "requirements.txt"), cwd=repo)
    env["NB_PYTHON_PREFIX"] = str(venv)
    # Jupyter's per-user folders: empty ones of this test's own, so nothing of the machine's user leaks in
    # and nothing is written outside this test's folders (the notebook-signing key, runtime files).
    for name, folder in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data")):
        env[name] = str(base / folder)
    env["JUPYTER_RUNTIME_DIR"] = str(base / "runtime")
    env["IPYTHONDIR"] = str(base / "ipython")
    env["MPLCONFIGDIR"] = str(base / "matplotlib")
    built = subprocess.run(
        [str(repo / "binder" / "postBuild")], cwd=repo, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert built.returncode == 0, built.stdout + built.stderr
    port = free_port()
    log = base / "server.log"
    cmd = [
        str(venv / "bin" / "jupyter"),
        "server",
        "--no-browser",
        "--allow-root",  # CI runs as root
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(cmd, cwd=repo, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    server = Server(process, url, log)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert process.poll() is None, f"jupyter server exited early:\n{server.log_tail()}"
            try:
                if _get(url + "/api/status", timeout=5)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"jupyter server did not answer in {START_TIMEOUT} s"
            time.sleep(0.5)  # poll: the next ask, bounded by the deadline
        yield Session(server, url)
    finally:
        server.stop()


@dataclass
class Watch:
    """Every request a browser context made and every console error its pages logged."""

    session: Session
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def foreign(self) -> list[str]:
        """The requests to any host but the session's (``data:`` and ``blob:`` addresses stay in the page)."""
        return [
            url
            for url in self.requests
            if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).netloc != self.session.host
        ]

    def check(self) -> None:
        assert not self.foreign(), f"requests to other hosts: {self.foreign()}"
        assert not self.errors, f"console errors: {self.errors}"


@pytest.fixture
def watched(browser: Any, binder: Session) -> Iterator[tuple[BrowserContext, Watch]]:
    context: BrowserContext = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(30_000)
    watch = Watch(binder)
    context.on("request", lambda request: watch.requests.append(request.url))
    context.on("console", lambda message: message.type == "error" and watch.errors.append(message.text))
    context.on("weberror", lambda error: watch.errors.append(f"uncaught: {error.error}"))
    try:
        yield context, watch
    finally:
        context.close()


def _gallery(context: BrowserContext, session: Session) -> Page:
    """The session's first page, as Binder opens it: the server's default URL."""
    page = context.new_page()
    page.goto(session.url + "/")
    expect(page).to_have_url(re.compile(re.escape(f"/{ROUTES.folders}/lessons") + r"\??$"))
    return page


def _open(gallery: Page, name: str) -> Page:
    """Tap a lesson's card in the gallery: the lesson opens in a tab of its own, in Voila, from ``lessons/``."""
    card = lesson_card(gallery, name)
    expect(card).to_be_visible(timeout=LIST_TIMEOUT)
    with gallery.context.expect_page() as opened:
        card.click()
    lesson = opened.value
    lesson.set_default_timeout(CLICK_TIMEOUT)
    expect(lesson).to_have_url(re.compile(rf"/voila/render/lessons/{re.escape(name)}\.ipynb"))
    return lesson


# -- what Binder is told ------------------------------------------------------------------------


def test_binder_selects_the_lessons_template_and_extensions() -> None:
    """binder/'s configuration names the same template and front-end extensions that ``serve`` gives Voila."""
    config = json.loads((BINDER / "jupyter_server_config.json").read_text(encoding="utf-8"))
    voila = config["VoilaConfiguration"]
    assert voila["template"] == VOILA_TEMPLATE
    assert sorted(voila["extension_allowlist"]) == sorted(VOILA_EXTENSIONS)
    assert voila["show_tracebacks"] is False and voila["strip_sources"] is True
    assert config["ServerApp"]["default_url"] == f"/{ROUTES.folders}/lessons"


def test_a_lesson_is_rendered_without_its_code(binder: Session) -> None:
    name = "01-beginner.ipynb"
    status, _, page = _get(f"{binder.url}/voila/render/lessons/{name}", timeout=120)
    assert status == 200, page[-2000:]
    text = html.unescape(page)
    assert "application/vnd.jupyter.widget-view+json" in text and '"model_id"' in text
    code = [
        line.strip()
        for cell in json.loads((ROOT / "lessons" / name).read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "code"
        for line in "".join(cell["source"]).splitlines()
        if len(line.strip()) > 12
    ]
    shown = [line for line in code if html.escape(line) in page or line in text]
    assert not shown, f"code shown to learners: {shown[:3]}"
    assert "Traceback" not in text


# -- what a learner sees -----------------------------------------------------------------------


def test_the_default_url_shows_the_gallery(watched: tuple[BrowserContext, Watch], binder: Session) -> None:
    context, watch = watched
    page = _gallery(context, binder)
    for name in NOTEBOOKS:
        expect(lesson_card(page, name)).to_be_visible(timeout=RENDER_TIMEOUT)
    assert "import " not in page.content()
    watch.check()


class ThreeRounds(Exception):
    """Raised by :class:`RoundCounter` once the rounds asked for are played."""


@dataclass
class RoundCounter(Player):
    """A :class:`Player` that stops the lesson's walk once it has played :data:`ROUNDS` rounds (a move each)."""

    played: int = 0

    def click(self, move: Any) -> None:
        super().click(move)  # the box on the page shows the engine's score for the move
        self.played += 1
        if self.played >= ROUNDS:
            raise ThreeRounds


def test_lesson_01_plays_three_rounds(watched: tuple[BrowserContext, Watch], binder: Session) -> None:
    context, watch = watched
    name = "01-beginner"
    lesson = get_lesson(name)
    page = _open(_gallery(context, binder), name)
    expect(page.get_by_test_id("sheet")).to_be_visible(timeout=RENDER_TIMEOUT)
    player = RoundCounter(
        page, lesson.level, lesson.seed, lesson.auto_setup, game=guided_game(lesson), scenario=lesson.scenario
    )
    with pytest.raises(ThreeRounds):
        play_the_lesson(page, player, name, wrong_first=False)
    watch.check()


def test_lesson_10_plays_a_card(watched: tuple[BrowserContext, Watch], binder: Session) -> None:
    context, watch = watched
    page = _open(_gallery(context, binder), "10-raupe-shape")
    expect(page.get_by_test_id("raupe-start")).to_be_visible(timeout=RENDER_TIMEOUT)
    expect_sizes_match(page)
    answer_which_cards_fit(page)
    page.get_by_test_id("raupe-start").click()
    index, side, shouts = choose(page)
    card = page.locator(f'[data-testid="raupe-card"][data-index="{index}"]')
    if card.get_attribute("data-side") != str(side):
        page.locator(f'[data-testid="raupe-flip"][data-index="{index}"]').click()
        expect(card).to_have_attribute("data-side", str(side))
    for word in shouts:
        page.get_by_test_id(f"raupe-call-{word}").click()
    before = my_plays(page)
    card.click()
    _wait_for(lambda: my_plays(page) == before + 1)
    expect_sizes_match(page)
    watch.check()


def _wait_for(condition: Callable[[], bool], timeout: float = CLICK_TIMEOUT / 1000) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the page did not update in time"
        time.sleep(0.1)  # poll: the next look at the condition, bounded by the deadline


# -- the two races, forced ---------------------------------------------------------------------


def _lesson_with(context: BrowserContext, session: Session, script: str) -> Page:
    page = context.new_page()
    page.add_init_script(script)
    page.goto(f"{session.url}/voila/render/lessons/01-beginner.ipynb")
    return page


def test_the_board_draws_when_get_model_rechecks_late(watched: tuple[BrowserContext, Watch], binder: Session) -> None:
    context, watch = watched
    page = _lesson_with(context, binder, LATE_RECHECK)
    expect(page.get_by_test_id("roll-button")).to_be_enabled(timeout=RENDER_TIMEOUT)
    expect(page.get_by_text("model not found")).to_have_count(0)
    assert page.evaluate("window.__caterpillarLearnVoila !== undefined")  # the mend was loaded
    watch.check()


def test_the_board_answers_when_anywidget_runs_out_of_time(
    watched: tuple[BrowserContext, Watch], binder: Session
) -> None:
    context, watch = watched
    page = _lesson_with(context, binder, ANYWIDGET_OUT_OF_TIME)
    page.get_by_test_id("roll-button").click(timeout=RENDER_TIMEOUT)
    expect(page.get_by_test_id("hint-button")).to_be_enabled(timeout=30_000)
    assert page.evaluate("window.__caterpillarLearnVoila.unfrozenMessages") >= 1
    assert not watch.foreign(), watch.foreign()
