"""scripts/doc_images.py makes the guides' pictures from the real pages: run here on the gallery, into a
temporary folder, it writes one PNG of the docs' width and a plausible size (a blank or broken page is a
few kilobytes at most; a picture kept small stays under 300 kB)."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "doc_images.py"

pytestmark = [pytest.mark.browser]


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_script_writes_the_gallery_picture(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--only", "gallery", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    written = sorted(tmp_path.iterdir())
    assert [path.name for path in written] == ["gallery.png"], written
    width, height = png_size(written[0])
    assert width == 800 and 300 <= height <= 1000, (width, height)
    assert 20_000 <= written[0].stat().st_size <= 300_000, written[0].stat().st_size


def test_an_unknown_picture_is_one_line() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--only", "gallery,nothing"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert done.stderr.strip() == "--only: got nothing, expected some of gallery, lesson, raupe, print, console, pupil"


def test_the_committed_pictures_are_small() -> None:
    """docs/images holds every picture the script makes, together under 1 MB, and TEACHERS.md shows each."""
    images = ROOT / "docs" / "images"
    names = {path.stem for path in images.glob("*.png")}
    assert names == {"gallery", "lesson", "raupe", "print", "console", "pupil"}, names
    assert sum(path.stat().st_size for path in images.glob("*.png")) < 1_000_000
    guide = (ROOT / "docs" / "TEACHERS.md").read_text(encoding="utf-8")
    for name in names:
        assert f"](images/{name}.png)" in guide, name
