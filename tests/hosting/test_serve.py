"""``caterpillar-learn serve`` for a class: the token and the Host check off loopback, no
configuration file from the working directory, no traceback on a page, the kernel cap, culling.

Each test starts a real server in a process of its own (about 3 s) and talks
HTTP to it; kernels are counted as the server's ``ipykernel_launcher``
child processes.
"""

from __future__ import annotations

import time
import urllib.parse
from pathlib import Path

import pytest

from caterpillar_learn.i18n import text

from .conftest import fetch, kernel_count, network_address, start_serve, wait_for_kernels, write_notebook

pytestmark = pytest.mark.slow

#: Seconds of idleness before a test server culls a kernel, and the slack allowed on top.
CULL_AFTER = 3
CULL_SLACK = 30.0


def plant_configuration(folder: Path) -> list[Path]:
    """Configuration files that would each leave a marker file behind if anything executed them."""
    markers = []
    for name in ("voila.py", "jupyter_server_config.py", "jupyter_config.py", "jupyter_notebook_config.py"):
        marker = folder / f"{name}.executed"
        (folder / name).write_text(f"open({str(marker)!r}, 'w').write('executed')\n", encoding="utf-8")
        markers.append(marker)
    # JSON is not executed, but it would switch tracebacks back on if it were read.
    (folder / "voila.json").write_text('{"VoilaConfiguration": {"show_tracebacks": true}}', encoding="utf-8")
    return markers


def test_a_network_address_needs_the_token_and_a_name_of_this_computer(tmp_path: Path, served: list) -> None:
    cwd, lessons = tmp_path / "cwd", tmp_path / "lessons"
    cwd.mkdir()
    lessons.mkdir()
    markers = plant_configuration(cwd)
    write_notebook(lessons / "broken.ipynb", "print('before')", "raise RuntimeError('secret-detail-7f3a')")
    args = ["--host", network_address(), "--port", "0", "--lessons", str(lessons)]
    server, url = start_serve(args, cwd, tmp_path / "serve.log")
    served.append(server)

    parts = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    assert len(token) == 12 and parts.path == "/"
    base = f"{parts.scheme}://{parts.netloc}"

    assert fetch(url).status == 200
    for bad in (f"{base}/", f"{base}/?token=wrong-token", f"{base}/voila/render/broken.ipynb"):
        refused = fetch(bad)
        assert refused.status == 302 and refused.headers["location"].startswith("/login"), bad
    assert fetch(f"{base}/voila/api/contents/").status == 403
    assert kernel_count(server) == 0, "a page refused for its token must not start a kernel"

    for path in (f"/?token={token}", "/voila/static/voila.js", f"/voila/render/broken.ipynb?token={token}"):
        foreign = fetch(base + path, host="lessons.evil.example")
        assert foreign.status == 403, path
        assert text("serve.host_refused") in foreign.body
    assert fetch(url, host=f"localhost:{parts.port}").status == 200

    page = fetch(f"{base}/voila/render/broken.ipynb?token={token}")
    assert page.status == 200 and "before" in page.body
    assert "secret-detail-7f3a" not in page.body and "Traceback" not in page.body

    assert not [m.name for m in markers if m.exists()], "a configuration file in the working directory was executed"
    assert not list(cwd.glob("*.executed"))


def test_the_cap_refuses_a_page_and_idle_kernels_are_culled(tmp_path: Path, served: list) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    write_notebook(lessons / "tiny.ipynb", "answer = 6 * 7", "answer")
    args = ["--port", "0", "--lessons", str(lessons), "--max-kernels", "1", "--cull-after", str(CULL_AFTER)]
    server, url = start_serve(args, tmp_path, tmp_path / "serve.log")
    served.append(server)
    page = f"{url}voila/render/tiny.ipynb"

    assert "token=" not in url, "loopback needs no token"
    first = fetch(page)
    assert first.status == 200 and "42" in first.body
    assert kernel_count(server) == 1

    full = fetch(page)
    assert full.status == 503
    assert text("serve.full_title") in full.body and text("serve.full", limit=1) in full.body
    assert full.headers["retry-after"] == "60"
    assert kernel_count(server) == 1

    # Nobody ever connected to the first page's kernel: the culler stops it once it is idle.
    assert wait_for_kernels(server, 0, CULL_AFTER + CULL_SLACK) == 0, server.log_tail()
    assert "Culling 'idle' kernel" in server.log.read_text()
    # The process is gone a moment before the manager has finished its shutdown and freed the place.
    deadline = time.monotonic() + 15
    again = fetch(page)
    while again.status == 503 and time.monotonic() < deadline:
        time.sleep(0.5)  # poll: the next ask, bounded by the deadline
        again = fetch(page)
    assert again.status == 200 and "42" in again.body, "the culled kernel's place is free again"


def test_a_closed_page_gives_its_place_when_the_class_is_full(tmp_path: Path, served: list, browser: object) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    write_notebook(lessons / "widget.ipynb", "import ipywidgets", "ipywidgets.Label('forty-two')")
    args = ["--port", "0", "--lessons", str(lessons), "--max-kernels", "1"]
    server, url = start_serve(args, tmp_path, tmp_path / "serve.log")
    served.append(server)
    page_url = f"{url}voila/render/widget.ipynb"

    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(page_url)
    page.get_by_text("forty-two").wait_for(timeout=60_000)  # a widget draws once the page's kernel is connected
    assert fetch(page_url).status == 503, "the open page holds the only place"
    context.close()
    closed = time.monotonic()

    # Just closed (or a tablet that slept): the kernel keeps its place for a while.
    assert fetch(page_url).status == 503
    again = fetch(page_url)
    while again.status == 503 and time.monotonic() < closed + 60:
        time.sleep(1.0)  # poll: the next ask (how long the place was kept is measured), bounded by 60 s
        again = fetch(page_url)
    waited = time.monotonic() - closed
    assert again.status == 200, server.log_tail()
    assert waited >= 10, f"the closed page's kernel gave its place after {waited:.1f} s, before its 15 s"
    assert "gives its place to a new page" in server.log.read_text()
    assert wait_for_kernels(server, 1, 30) == 1, "the closed page's kernel stopped, the new page's runs"
