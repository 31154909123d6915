"""What ``caterpillar-learn serve`` lets out: the network policy's headers on every answer, and a log
without the token.

The server runs on the classroom network's address (so it has a token); its
printed lines give the address with the token, on purpose, and no other line
may hold it.  Chromium then opens a lesson under the Content-Security-Policy:
the board must work, and the page must see no violation.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.driver import RENDER_TIMEOUT

from .conftest import fetch, network_address, start_serve

#: Every Content-Security-Policy violation the page sees, kept where the test can read it.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});
"""


def _check_headers(url: str) -> None:
    answer = fetch(url)
    assert answer.status in (200, 302, 404), (url, answer.status)
    assert answer.headers.get("referrer-policy") == "no-referrer", url
    assert answer.headers.get("x-content-type-options") == "nosniff", url
    policy = answer.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy, (url, policy)
    assert "'unsafe-eval'" not in policy, url


@pytest.mark.slow
def test_every_answer_carries_the_headers_and_the_log_never_the_token(tmp_path: Path, served: list) -> None:
    host = network_address()
    server, url = start_serve(["--port", "0", "--host", host], tmp_path, tmp_path / "serve.log")
    served.append(server)
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["token"][0]
    root = url.split("?")[0]
    for path in ("", "voila/render/01-beginner.ipynb", "voila/static/voila.js", "no-such-page"):
        _check_headers(f"{root}{path}?token={token}")
    assert fetch(f"{root}?token={token}", host="evil.example").status == 403
    log = server.log.read_text(errors="replace")
    told = [line for line in log.splitlines() if token in line]
    assert told and all(line.startswith(("Lessons (", "  also at ")) for line in told), "\n".join(told)
    assert "token=[hidden]" in log, log[-3000:]


@pytest.mark.browser
def test_a_lesson_works_under_the_content_security_policy(browser: Browser, tmp_path: Path, served: list) -> None:
    server, url = start_serve(["--port", "0"], tmp_path, tmp_path / "serve.log")
    served.append(server)
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        page = context.new_page()
        page.goto(f"{url}voila/render/01-beginner.ipynb")
        expect(page.get_by_test_id("roll-button")).to_be_enabled(timeout=RENDER_TIMEOUT)
        page.get_by_test_id("roll-button").click()
        expect(page.get_by_test_id("die-0")).to_be_visible()
        assert page.evaluate("window.__violations") == []
    finally:
        context.close()
