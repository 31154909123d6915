"""What the classroom server lets out: its headers, the names it answers to, and its log.

``caterpillar-learn classroom`` runs in its own process, its printed lines
(stdout: the teacher's address with the token, on purpose) apart from its
log (stderr).  Every answer carries the network policy's headers
(:mod:`caterpillar_learn.network`), a request for a foreign host
is refused, the teacher's token never reaches the log, and a page's
malformed message makes one log line, no traceback.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from caterpillar_learn.i18n import text
from tests import waiting
from tests.browser.conftest import Server, cli_command, free_port
from tests.classroom.probe import PageClient
from tests.hosting.conftest import fetch

pytestmark = pytest.mark.slow

START_TIMEOUT = 120.0
#: A school's other name for the server (``--allow-host``).
ALIAS = "classroom.school.example"


@dataclass
class Classroom:
    server: Server
    base: str
    token: str
    log: Path  # stderr: the log

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Classroom]:
    folder = tmp_path_factory.mktemp("exposure")
    port = free_port()
    printed, log = folder / "stdout.txt", folder / "stderr.txt"
    cmd = [*cli_command(), "classroom", "--port", str(port), "--data", str(folder / "data"), "--allow-host", ALIAS]
    with printed.open("wb") as out, log.open("wb") as err:
        process = subprocess.Popen(cmd, stdout=out, stderr=err, start_new_session=True)
    server = Server(process, f"http://127.0.0.1:{port}/join", log)
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            assert process.poll() is None, log.read_text()
            token = re.search(r"token=(\S+)", printed.read_text())
            if token:
                try:
                    if fetch(server.url, timeout=5).status == 200:
                        break
                except OSError:
                    pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.3)  # poll: the next look for the token and the door, bounded by the deadline
        yield Classroom(server, f"http://127.0.0.1:{port}", token.group(1), log)
    finally:
        server.stop()


def test_every_answer_carries_the_security_headers(classroom: Classroom) -> None:
    for path in ("/join", f"/teacher?token={classroom.token}", "/", "/static/js/bokeh.min.js", "/no-such-page"):
        answer = fetch(classroom.base + path)
        assert answer.status in (200, 404), (path, answer.status)
        headers = answer.headers
        assert headers.get("referrer-policy") == "no-referrer", path
        assert headers.get("x-content-type-options") == "nosniff", path
        policy = headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy, (path, policy)
        assert "'unsafe-eval'" not in policy, path


def test_a_request_for_a_foreign_host_is_refused(classroom: Classroom) -> None:
    for path in ("/join", f"/teacher?token={classroom.token}", "/static/js/bokeh.min.js"):
        answer = fetch(classroom.base + path, host="evil.example:5006")
        assert answer.status == 403, (path, answer.status)
        assert text("classroom.connection.host_refused") in answer.body.replace("&#x27;", "'")
        assert answer.headers.get("content-security-policy", "").endswith("frame-ancestors 'none'")
    port = classroom.base.rsplit(":", 1)[1]
    assert fetch(classroom.base + "/join", host=f"localhost:{port}").status == 200
    assert fetch(classroom.base + "/join", host=f"{ALIAS}:{port}").status == 200
    assert "refused requests for the host 'evil.example'" in classroom.log_text()


def test_the_teacher_token_never_reaches_the_log(classroom: Classroom) -> None:
    teacher = PageClient(f"{classroom.base}/teacher", {"token": classroom.token})
    try:
        assert teacher.model("TeacherWidget") is not None
        assert fetch(f"{classroom.base}/teacher?token={classroom.token}&lang=de").status == 200
        fetch(f"{classroom.base}/teacher?token={classroom.token}", host="evil.example")  # refused, and logged
    finally:
        teacher.close()
    log = waiting.until(
        lambda: written if "403 GET /teacher?token=[hidden]" in (written := classroom.log_text()) else "",
        30,
        "the refused request for the teacher's page was never logged",
    )
    assert "GET /teacher?token=[hidden]" in log, log[-2000:]
    assert classroom.token not in log


def test_a_malformed_message_is_one_line_of_the_log(classroom: Classroom) -> None:
    page = PageClient(f"{classroom.base}/join", {})
    try:
        before = len(classroom.log_text().splitlines())
        for bad in ["join", [1, 2], None]:  # not even an object: Bokeh's own checks refuse it
            page.write("JoinWidget", "event", bad)
        # The page's messages are handled in order: once the door answers an event sent after them, all three
        # bad ones have been refused.
        page.send("JoinWidget", "no-such-action")
        assert page.wait(lambda: page.trait("JoinWidget", "message"), timeout=60), classroom.log_text()[-2000:]
    finally:
        page.close()
    lines = classroom.log_text().splitlines()[before:]
    refused = [line for line in lines if "expected a dict" in line]
    assert len(refused) == 1, "\n".join(lines[-40:])  # the others are counted in the next (classroom/refusals.py)
    assert not any("Traceback" in line or line.startswith("  File ") for line in lines), "\n".join(lines[-40:])
    stamped = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ")
    assert all(stamped.match(line) for line in lines if line.strip()), "\n".join(lines[-40:])
