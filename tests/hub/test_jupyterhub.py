"""A school's JupyterHub (issue 31): the classroom server as its service, the lessons as every user's page.

One real JupyterHub from PyPI with configurable-http-proxy from npm, on
loopback, started with the example configuration
(``deploy/jupyterhub/jupyterhub_config.py``) in its trial mode (the dummy
login, the simple spawner): :mod:`tests.hub.hub`.  Through the hub's proxy:

* a teacher (in the group ``teachers``) logs in at the hub's own login page
  and reaches the console under ``/services/classroom/`` with no token in
  any address; a browser with no hub login is sent to that login page;
* a hub user who is not a teacher is refused in one line, the score sheets too;
* three pupils, with no hub login, join a room under the prefix (Bokeh's
  protocol, :class:`~tests.classroom.probe.PageClient`); the teacher's roll
  reaches them and they play the round;
* the service is killed (SIGKILL), the hub starts it again, and the room
  has lost nothing;
* a user's own server, spawned by the hub with the example's settings,
  opens the lesson gallery.
"""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import psutil
import pytest
import requests
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.driver import CLICK_TIMEOUT, RENDER_TIMEOUT, lesson_card
from tests.classroom.probe import PageClient
from tests.hub.hub import PASSWORD, PREFIX, TEACHERS, Hub, start_hub

pytestmark = [pytest.mark.slow, pytest.mark.browser]

#: The hub looks at its services every 30 s (JupyterHub's poll interval) and starts a stopped one again.
RESTART_TIMEOUT = 120.0
#: A user's server: a Jupyter server started by the hub, then the gallery's pictures drawn.
SPAWN_TIMEOUT = 120_000


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    running = start_hub(tmp_path_factory.mktemp("hub"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def teacher(hub: Hub, browser: Browser) -> Iterator[Page]:
    """The teacher's console in Chromium, after the hub's login (one page for the module's tests)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(CLICK_TIMEOUT)
        page.goto(f"{hub.classroom}/teacher")  # no hub login yet: the hub's login page, then back here
        expect(page).to_have_url(re.compile(r"/hub/login"), timeout=RENDER_TIMEOUT)
        _log_in(page, TEACHERS[0])
        expect(page).to_have_url(f"{hub.classroom}/teacher", timeout=RENDER_TIMEOUT)
        expect(page.get_by_test_id("create-room")).to_be_visible(timeout=RENDER_TIMEOUT)
        yield page
    finally:
        context.close()


def _log_in(page: Page, name: str) -> None:
    """The hub's own login form (the trial's dummy login: any name, the trial's password)."""
    page.locator("#username_input").fill(name)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()


def _hub_session(hub: Hub, name: str) -> requests.Session:
    """A browser-like HTTP session logged in at the hub as ``name`` (its form, with the hub's XSRF field)."""
    session = requests.Session()
    form = session.get(f"{hub.url}/hub/login", timeout=30)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.text)
    assert xsrf, form.text[:500]
    answer = session.post(
        f"{hub.url}/hub/login",
        data={"username": name, "password": PASSWORD, "_xsrf": xsrf.group(1)},
        allow_redirects=False,
        timeout=30,
    )
    assert answer.status_code == 302, answer.text[:500]
    return session


def test_a_teacher_logs_in_at_the_hub_and_reaches_the_console_without_a_token(hub: Hub, teacher: Page) -> None:
    assert "token" not in teacher.url
    # A browser with no hub login is sent to the hub's login (through the service's own OAuth start).
    answer = requests.get(f"{hub.classroom}/teacher", allow_redirects=False, timeout=30)
    assert answer.status_code == 302 and "hub-login" in answer.headers["Location"], answer.headers
    followed = requests.get(f"{hub.classroom}/teacher", timeout=30)
    assert urlsplit(followed.url).path == "/hub/login", followed.url
    # The hub's login made no token for the classroom's own door: the teacher's address stays the plain one.
    assert re.search(r"token=", hub.server.log.read_text(errors="replace")) is None


def test_a_hub_user_who_is_no_teacher_is_refused_in_one_line(hub: Hub) -> None:
    pupil = _hub_session(hub, "pip")
    for address in (f"{hub.classroom}/teacher", f"{hub.classroom}/sheets?room=KX47PQ"):
        answer = pupil.get(address, timeout=60)
        assert answer.status_code == 403, (address, answer.status_code)
        notice = re.search(r'data-testid="notice">([^<]*)<', answer.text)
        assert notice and "teachers" in notice.group(1) and "\n" not in notice.group(1), answer.text[-500:]
        assert "TeacherWidget" not in answer.text


def test_pupils_join_under_the_prefix_play_a_round_and_a_restart_loses_nothing(hub: Hub, teacher: Page) -> None:
    teacher.get_by_test_id("room-dice-source").select_option("typed", timeout=RENDER_TIMEOUT)
    teacher.get_by_test_id("create-room").click()  # Beginner, the standard layout, real dice typed in
    code = teacher.get_by_test_id("room-code").inner_text()
    # The join address the console shows (and its QR code) is the hub's, under the prefix.
    expect(teacher.get_by_test_id("join-url")).to_contain_text(f"{hub.url}{PREFIX}/join")

    pupils: list[PageClient] = []
    try:
        for nickname in ("Ada", "Ben", "Cleo"):  # no hub login: the pupils' door is open to anyone with the code
            page = PageClient(f"{hub.classroom}/join", {"room": code})
            page.send("JoinWidget", "join", code=code, nickname=nickname)
            assert page.wait(lambda page=page: page.model("ClassroomBoard") is not None), nickname
            pupils.append(page)
        expect(teacher.get_by_test_id("pupil")).to_have_count(3, timeout=RENDER_TIMEOUT)

        teacher.get_by_test_id("dice-input").fill("3, 5")
        teacher.get_by_test_id("teacher-roll").click()
        for page in pupils:  # the teacher's roll reaches every pupil, through the hub's proxy
            assert page.wait(lambda page=page: page.trait("ClassroomBoard", "dice").get("values") == [3, 5])
            assert page.wait(lambda page=page: page.trait("ClassroomBoard", "legal"))
            entry = page.trait("ClassroomBoard", "legal")[0]
            page.send("ClassroomBoard", "box", caterpillar=entry["caterpillar"], box=entry["box"])
        expect(teacher.get_by_test_id("placed-count")).to_have_text("3 of 3 placed", timeout=RENDER_TIMEOUT)
    finally:
        for page in pupils:
            page.close()

    # The service dies; the hub starts it again; the room, its pupils and their boxes are all there.
    service = _service(hub)
    service.send_signal(signal.SIGKILL)
    deadline = time.monotonic() + RESTART_TIMEOUT
    while (again := _service(hub, missing_ok=True)) is None or again.pid == service.pid:
        assert time.monotonic() < deadline, "the hub did not start its service again"
        time.sleep(1.0)  # poll: the next look for the new service, bounded by the deadline
    while requests.get(f"{hub.classroom}/join", timeout=30).status_code != 200:
        assert time.monotonic() < deadline, "the restarted service did not answer"
        time.sleep(0.5)  # poll: the next ask, bounded by the deadline
    assert "Service classroom exited" in hub.server.log.read_text(errors="replace")
    teacher.reload()
    expect(teacher.get_by_test_id("room-code")).to_have_text(code, timeout=RENDER_TIMEOUT)
    expect(teacher.get_by_test_id("pupil")).to_have_count(3)
    expect(teacher.get_by_test_id("placed-count")).to_have_text("3 of 3 placed")


def _service(hub: Hub, missing_ok: bool = False) -> psutil.Process | None:
    """The classroom service's process, a child of the hub's."""
    for child in psutil.Process(hub.server.process.pid).children(recursive=True):
        try:
            if "classroom" in child.cmdline() and child.is_running():
                return child
        except psutil.NoSuchProcess:
            continue
    assert missing_ok, "no classroom service under the hub"
    return None


def test_a_users_own_server_opens_the_lesson_gallery(hub: Hub, browser: Browser) -> None:
    context: BrowserContext = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{hub.url}/hub/login")
        _log_in(page, "ben")  # a pupil: the hub spawns Ben's server, which opens on the gallery
        expect(page).to_have_url(re.compile(r"/user/ben/caterpillar-learn/gallery/lessons\??$"), timeout=SPAWN_TIMEOUT)
        for lesson in ("01-beginner", "10-raupe-shape"):
            expect(lesson_card(page, lesson)).to_be_visible(timeout=RENDER_TIMEOUT)
        href = lesson_card(page, "01-beginner").get_attribute("href") or ""
        assert href.startswith("/user/ben/voila/render/lessons/01-beginner.ipynb"), href
    finally:
        context.close()
