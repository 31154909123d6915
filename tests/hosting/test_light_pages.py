"""Light pages (issues 19 and 40): both servers compress what they send, keep their static files in the
browser's cache, and a lesson page loads neither Voila's JupyterLab application nor a front-end extension
(its own ``lesson-page.js`` runs the lesson), with nothing in the console.

Requests go through :mod:`http.client` with and without ``Accept-Encoding:
gzip``, so a test sees the bytes on the wire: a compressed answer must
unpack to exactly the uncompressed one.  The browser test counts the bytes
Chromium fetched from the network (the DevTools protocol's
``encodedDataLength``) on a lesson's first visit and on its reload.
"""

from __future__ import annotations

import gzip
import http.client
import json
import re
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from caterpillar_learn.network import ASK, DAY, YEAR
from caterpillar_learn.ui.hosting.jupyter_data import VOILA_TEMPLATE
from caterpillar_learn.ui.hosting.serve import VOILA_EXTENSIONS
from tests.browser.conftest import Server, start_classroom
from tests.browser.driver import RENDER_TIMEOUT, lesson_card

from .conftest import start_serve, write_notebook

pytestmark = pytest.mark.slow

LESSON = "voila/render/01-beginner.ipynb"
#: The page's JupyterLab configuration, where Voila lists the extensions the page will load.
PAGE_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.DOTALL)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    wire: bytes  # the body as sent

    def text(self) -> str:
        body = gzip.decompress(self.wire) if self.headers.get("content-encoding") == "gzip" else self.wire
        return body.decode("utf-8")


def get(url: str, *, gzipped: bool = True, headers: dict[str, str] | None = None) -> Answer:
    """One GET of ``url``, saying whether the client takes gzip, the body left as it came."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    asked = {"Accept-Encoding": "gzip" if gzipped else "identity", **(headers or {})}
    try:
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=asked)
        answer = connection.getresponse()
        return Answer(answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read())
    finally:
        connection.close()


def compressed(url: str, *, made_each_time: bool = False) -> Answer:
    """``url`` fetched twice: compressed, and not; both must say the same (a page ``made_each_time``
    has the same head, its body names the kernel and the widgets made for each visit)."""
    packed, plain = get(url), get(url, gzipped=False)
    assert packed.status == plain.status == 200, (url, packed.status, plain.status)
    assert packed.headers.get("content-encoding") == "gzip", (url, packed.headers)
    assert "content-encoding" not in plain.headers, (url, plain.headers)
    # Text shrinks to a third or less; a file of a few hundred words less so.
    assert len(packed.wire) < len(plain.wire) / (2 if len(plain.wire) > 10_000 else 1), (url, len(packed.wire))
    if made_each_time:
        assert packed.text().split("<body")[0] == plain.text().split("<body")[0], url  # the head: the same
    else:
        assert packed.text() == plain.text(), url
    return packed


@pytest.fixture(scope="module")
def lessons(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("light")
    server, url = start_serve(["--port", "0"], folder, folder / "serve.log")
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_classroom(tmp_path_factory.mktemp("light-classroom"))
    try:
        yield server
    finally:
        server.stop()


def _page_extensions(page: str) -> list[dict[str, str]]:
    found = PAGE_CONFIG.search(page)
    assert found, page[:2000]
    extensions: list[dict[str, str]] = json.loads(found.group(1))["federated_extensions"]
    return extensions


def test_a_lesson_page_is_compressed_and_names_only_the_lessons_extensions(lessons: str) -> None:
    page = compressed(f"{lessons}{LESSON}", made_each_time=True)
    assert page.headers.get("cache-control", "").startswith("no-cache")  # the page itself is made for each visit
    assert sorted(extension["name"] for extension in _page_extensions(page.text())) == sorted(VOILA_EXTENSIONS)
    assert "cdn.jsdelivr.net" not in page.text() and "cdn.jsdelivr.net" not in page.headers["content-security-policy"]


def test_voilas_static_files_are_compressed_and_kept(lessons: str) -> None:
    answer = compressed(f"{lessons}voila/static/voila.js")
    assert answer.headers["cache-control"] == DAY
    for extension in _page_extensions(get(f"{lessons}{LESSON}").text()):
        entry = f"{lessons}voila/labextensions/{extension['name']}/{extension['load']}"
        named_by_hash = re.search(r"\.[0-9a-f]{8,}\.js$", extension["load"])
        assert get(entry).headers["cache-control"] == (YEAR if named_by_hash else ASK), entry
    named = r'<script src="/(voila/templates/[^/"]+/static/lesson-page\.js\?v=[0-9a-f]+)"'
    runner = re.search(named, get(f"{lessons}{LESSON}").text())
    assert runner, "the lesson page names no lesson-page.js"
    assert compressed(f"{lessons}{runner.group(1)}").headers["cache-control"] == YEAR  # named by its version
    ours = f"{lessons}voila/labextensions/caterpillar_learn_voila/static/remoteEntry.js"
    first = get(ours)
    again = get(ours, headers={"If-Modified-Since": first.headers["last-modified"]})  # a reload asks so
    assert (first.headers["cache-control"], again.status, again.headers["cache-control"]) == (ASK, 304, ASK)


def test_the_classroom_compresses_its_pages_and_keeps_its_bundles(classroom: Server) -> None:
    door = compressed(classroom.url, made_each_time=True)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in door.text()  # a phone's width
    scripts = re.findall(r'<script type="text/javascript" src="([^"]+)"', door.text())
    assert any("bokeh.min.js" in script for script in scripts), door.text()[:2000]
    assert not any("bokeh-gl" in script for script in scripts), scripts  # no page draws a plot
    base = classroom.url.removesuffix("join")
    lifetimes = {script: compressed(base + script).headers["cache-control"] for script in scripts}
    assert all(lifetimes[script] == YEAR for script in scripts if "?v=" in script), lifetimes
    assert lifetimes["caterpillar-learn/connection-lost.js"] == ASK, lifetimes
    assert {lifetimes[script] for script in scripts if "?v=" not in script} == {ASK, DAY}, lifetimes


@pytest.mark.browser
def test_a_lesson_logs_no_error_and_its_second_visit_fetches_almost_nothing(browser: Browser, lessons: str) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        problems: list[str] = []
        page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
        fetched: list[str] = []
        page.on("request", lambda request: fetched.append(request.url))
        page.on(
            "response",
            lambda answer: problems.append(f"{answer.status} {answer.url}") if answer.status >= 400 else None,
        )
        devtools = context.new_cdp_session(page)
        devtools.send("Network.enable")
        received: list[int] = []
        devtools.on("Network.loadingFinished", lambda event: received.append(int(event["encodedDataLength"])))

        def visit() -> int:
            received.clear()
            if page.url.endswith(LESSON):
                page.reload()
            else:
                page.goto(f"{lessons}{LESSON}")
            expect(page.get_by_test_id("roll-button")).to_be_enabled(timeout=RENDER_TIMEOUT)
            page.wait_for_load_state("networkidle")
            return sum(received)

        first = visit()
        assert problems == []
        assert all(url.startswith((lessons, "blob:", "data:")) for url in fetched), fetched  # nothing from elsewhere
        # Issue 40: the light page runs the lesson with its own few KiB (lesson-page.js), without Voila's
        # JupyterLab application (/voila/static/) or any front-end extension.
        scripts = [url for url in fetched if url.endswith(".js") or ".js?" in url]
        assert [url for url in scripts if "/voila/static/" in url or "/voila/labextensions/" in url] == [], scripts
        assert any("/static/lesson-page.js" in url for url in scripts), scripts
        second = visit()
        assert problems == []
        # The first visit: the page, the theme's colours and lesson-page.js (the widget's module comes through
        # the kernel's websocket, which this does not count); it was 1,451 KiB with Voila's application.
        assert first < 40_000, first
        assert second < first / 2, (first, second)  # the page, made for each visit; the rest from the cache
        page.get_by_test_id("roll-button").click()
        expect(page.get_by_test_id("die-0")).to_be_visible()
        page.goto(lessons)  # the lesson list, where a child starts
        expect(lesson_card(page, "01-beginner")).to_be_visible(timeout=RENDER_TIMEOUT)
        page.wait_for_load_state("networkidle")
        assert problems == []
    finally:
        context.close()


@pytest.mark.browser
def test_a_lesson_whose_websocket_closes_opens_it_again_and_still_answers(browser: Browser, lessons: str) -> None:
    """A tablet that slept loses the kernel's websocket: the light page opens it again, asks the widget's whole
    state again, and the next tap reaches the kernel (lesson-page.js, Kernel)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        sockets: list[WebSocketRoute] = []

        def relay(socket: WebSocketRoute) -> None:
            socket.connect_to_server()
            sockets.append(socket)

        page.route_web_socket(re.compile(r"/api/kernels/[^/]+/channels"), relay)
        page.goto(f"{lessons}{LESSON}")
        expect(page.get_by_test_id("roll-button")).to_be_enabled(timeout=RENDER_TIMEOUT)
        sockets[0].close()  # as a network that went away closes it
        page.wait_for_function("() => window.__caterpillarLearnPage.reconnected >= 1", timeout=30_000)
        assert len(sockets) == 2
        page.get_by_test_id("roll-button").click()
        expect(page.get_by_test_id("die-0")).to_be_visible()
        assert page.evaluate("window.__caterpillarLearnPage.errors") == []
    finally:
        context.close()


@pytest.mark.browser
def test_a_notebook_of_ipywidgets_opens_on_voilas_whole_page(browser: Browser, tmp_path: Path) -> None:
    """The light page runs anywidgets only: a teacher's notebook with ipywidgets' own controls opens again with
    Voila's whole page (``?template=caterpillar-learn``), its first kernel stopped before the second starts."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    write_notebook(lessons / "label.ipynb", "import ipywidgets", "ipywidgets.Label('forty-two')")
    server, url = start_serve(
        ["--port", "0", "--lessons", str(lessons), "--max-kernels", "1"], tmp_path, tmp_path / "log"
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{url}voila/render/label.ipynb")
        expect(page.get_by_text("forty-two")).to_be_visible(timeout=RENDER_TIMEOUT)
        assert page.url.endswith(f"label.ipynb?template={VOILA_TEMPLATE}"), page.url
    finally:
        context.close()
        server.stop()
