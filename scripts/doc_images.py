"""The pictures of docs/TEACHERS.md, made from the real pages: the guides show what a teacher will see.

    .venv/bin/python scripts/doc_images.py [--only gallery,lesson,...] [--out docs/images]

Each picture is a screenshot taken by Playwright in Debian's Chromium
(``/usr/bin/chromium``) of a page of a server this script starts on a free
port (``caterpillar-learn serve`` for the lessons, ``caterpillar-learn
classroom`` with a fresh data folder for the classroom), then made small
for the docs: at most :data:`WIDTH` pixels wide, 256 colours, an optimized
PNG.  The pictures (:data:`SHOTS`):

* ``gallery``: the lesson gallery, the first page of ``serve``;
* ``lesson``: lesson 01 on a tablet held sideways (1024 × 768), ready to roll;
* ``raupe``: the first Räuber Raupe lesson at the same size;
* ``print``: lesson 01's printed page for the teacher (``/print/01-beginner``);
* ``console``: the teacher's console with a lesson room of lesson 01 and one pupil in its progress grid;
* ``pupil``: that pupil's page.

The servers are stopped at the end, whatever happened.  Run it again after a
change the pictures show, and commit the pictures with the change.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402
from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from tests.browser.conftest import (  # noqa: E402
    Server,
    cli_command,
    free_port,
    printed_address,
    start_server,
)

CHROMIUM = Path("/usr/bin/chromium")
#: The widest picture, in pixels: sharp on a guide's page, small on disk.
WIDTH = 800
#: The tablet a child holds sideways.
TABLET = {"width": 1024, "height": 768}
DESKTOP = {"width": 1280, "height": 800}
#: How long a page may take to be ready (ms): a lesson starts a kernel, which a busy machine slows.
READY_MS = 120_000
TEACHER_LABEL = "Teacher (keep this address to yourself):"
NICKNAME = "Ada"


@dataclass
class Servers:
    """The servers the pictures need, each started at its first use."""

    folder: Path
    stack: contextlib.ExitStack
    _lessons: Server | None = None
    _classroom: Server | None = None
    _room: dict[str, Any] | None = None

    def lessons(self) -> str:
        if self._lessons is None:
            port = free_port()
            command = [*cli_command(), "serve", "--no-browser", "--port", str(port)]
            self._lessons = start_server(command, f"http://localhost:{port}/", self.folder / "serve.log")
            self.stack.callback(self._lessons.stop)
        return self._lessons.url

    def classroom(self) -> Server:
        if self._classroom is None:
            port = free_port()
            data = self.folder / "classroom"
            command = [*cli_command(), "classroom", "--port", str(port), "--data", str(data)]
            url = f"http://127.0.0.1:{port}/join"
            self._classroom = start_server(command, url, self.folder / "classroom.log")
            self.stack.callback(self._classroom.stop)
        return self._classroom


def shrink(png: bytes, out: Path) -> Path:
    """``png`` at most :data:`WIDTH` wide, in 256 colours, written to ``out`` as an optimized PNG."""
    with Image.open(io.BytesIO(png)) as picture:
        shown = picture.convert("RGB")
    if shown.width > WIDTH:
        shown = shown.resize((WIDTH, round(shown.height * WIDTH / shown.width)), Image.Resampling.LANCZOS)
    shown.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(out, format="PNG", optimize=True)
    return out


def gallery(page: Page, servers: Servers) -> bytes:
    page.set_viewport_size(DESKTOP)
    page.goto(servers.lessons(), timeout=READY_MS)
    expect(page.get_by_test_id("lesson-card").first).to_be_visible(timeout=READY_MS)
    return page.screenshot()


def lesson(page: Page, servers: Servers) -> bytes:
    page.set_viewport_size(TABLET)
    page.goto(f"{servers.lessons()}voila/render/01-beginner.ipynb", timeout=READY_MS)
    expect(page.get_by_test_id("sheet")).to_be_visible(timeout=READY_MS)
    expect(page.get_by_test_id("roll-button")).to_be_visible(timeout=READY_MS)
    return page.screenshot()


def raupe(page: Page, servers: Servers) -> bytes:
    page.set_viewport_size(TABLET)
    page.goto(f"{servers.lessons()}voila/render/10-raupe-shape.ipynb", timeout=READY_MS)
    expect(page.get_by_test_id("raupe-start")).to_be_visible(timeout=READY_MS)
    return page.screenshot()


def printed(page: Page, servers: Servers) -> bytes:
    page.set_viewport_size(DESKTOP)
    page.goto(f"{servers.lessons()}print/01-beginner?seed=1&lang=en", timeout=READY_MS)
    expect(page.get_by_test_id("print-dice")).to_be_visible(timeout=READY_MS)
    return page.screenshot()


def room(page: Page, servers: Servers) -> dict[str, Any]:
    """A lesson room of lesson 01 made on the teacher's console, and one pupil joined (kept for both pictures)."""
    if servers._room is None:
        server = servers.classroom()
        page.set_viewport_size(DESKTOP)
        page.set_default_timeout(READY_MS)
        page.goto(printed_address(server, TEACHER_LABEL))
        page.get_by_test_id("room-game").select_option("lesson")
        page.get_by_test_id("room-lesson").select_option("01-beginner")
        page.get_by_test_id("create-room").click()
        code = page.get_by_test_id("room-code").inner_text().strip()
        pupil = page.context.browser.new_context(viewport=TABLET).new_page()  # type: ignore[union-attr]
        pupil.set_default_timeout(READY_MS)
        pupil.goto(f"{server.url}?room={code}")
        expect(pupil.get_by_test_id("join-code")).to_have_value(code)
        pupil.get_by_test_id("nickname").fill(NICKNAME)
        pupil.get_by_test_id("join-button").click()
        expect(pupil.get_by_test_id("sheet")).to_be_visible()
        expect(page.get_by_test_id("progress-row")).to_have_count(1)
        servers._room = {"teacher": page, "pupil": pupil}
    return servers._room


def console(page: Page, servers: Servers) -> bytes:
    teacher: Page = room(page, servers)["teacher"]
    return teacher.screenshot(full_page=True)  # the progress grid is below the room's code


def pupil(page: Page, servers: Servers) -> bytes:
    shown: Page = room(page, servers)["pupil"]
    return shown.screenshot()


#: Every picture: its name (the file ``<name>.png``) and how it is taken.
SHOTS: dict[str, Callable[[Page, Servers], bytes]] = {
    "gallery": gallery,
    "lesson": lesson,
    "raupe": raupe,
    "print": printed,
    "console": console,
    "pupil": pupil,
}


def chosen(words: str) -> list[str]:
    """The pictures named in ``--only`` (comma-separated), in :data:`SHOTS`' order.

    >>> chosen("pupil,gallery")
    ['gallery', 'pupil']
    """
    names = [name.strip() for name in words.split(",") if name.strip()]
    unknown = [name for name in names if name not in SHOTS]
    if unknown:
        raise SystemExit(f"--only: got {', '.join(unknown)}, expected some of {', '.join(SHOTS)}")
    return [name for name in SHOTS if name in names]


@contextlib.contextmanager
def browser_page() -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        try:
            context = browser.new_context(reduced_motion="reduce", device_scale_factor=1)
            yield context.new_page()
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", default=",".join(SHOTS), help="pictures to make, among " + ", ".join(SHOTS))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="the folder the PNG files go to")
    args = parser.parse_args(argv)
    names = chosen(args.only)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="doc-images-") as folder, contextlib.ExitStack() as stack:
        servers = Servers(Path(folder), stack)
        with browser_page() as page:
            for name in names:
                written = shrink(SHOTS[name](page, servers), args.out / f"{name}.png")
                print(f"{written}: {written.stat().st_size // 1024} kB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
