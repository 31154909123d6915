"""A lesson's time to interactive, this checkout against another, interleaved in one run (docs/PERFORMANCE.md).

    git worktree add /tmp/older <commit>
    .venv/bin/python benchmarks/browser_lessons_against.py /tmp/older [--runs 6] [--lesson 01-beginner]

On a shared machine the time to interactive moves with the load, so an
older figure in PERFORMANCE.md says little about a change.  This serves both
checkouts at once (two ``caterpillar-learn serve`` processes, the older one
importing its own package through ``PYTHONPATH``) and loads, turn about, each
one's heading-only baseline notebook and the lesson on fresh pages, so drift
hits both alike.  Medians and ranges; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks.browser_lessons import BASELINE, CHROMIUM, CHROMIUM_ARGS, time_to_interactive, write_baseline  # noqa: E402
from tests.browser.conftest import Server, cli_command, free_port, start_server  # noqa: E402


def serve(checkout: Path, tmp: Path, tag: str) -> tuple[Server, str]:
    """``checkout``'s lessons (and the baseline notebook) served by ``checkout``'s own package."""
    folder = tmp / tag
    folder.mkdir()
    for notebook in (checkout / "lessons").glob("*.ipynb"):
        (folder / notebook.name).symlink_to(notebook)
    write_baseline(folder)
    port = free_port()
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(checkout)
    try:
        cmd = [*cli_command(), "serve", "--no-browser", "--port", str(port), "--lessons", str(folder)]
        server = start_server(cmd, f"http://localhost:{port}/", tmp / f"{tag}.log", cwd=checkout)
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before
    return server, f"http://localhost:{port}/voila/render"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout (e.g. a git worktree of an older commit)")
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--lesson", default="01-beginner")
    args = parser.parse_args(argv)
    results: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        servers = {tag: serve(root, Path(tmp), tag) for tag, root in (("other", args.other.resolve()), ("this", ROOT))}
        try:
            with sync_playwright() as playwright:
                browser: Any = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                for _ in range(args.runs):
                    for tag, (_, base) in servers.items():
                        for key, url, lesson in (
                            (f"{tag}: baseline", f"{base}/{BASELINE}.ipynb", False),
                            (f"{tag}: lesson", f"{base}/{args.lesson}.ipynb", True),
                        ):
                            page = browser.new_page()
                            results.setdefault(key, []).append(time_to_interactive(page, url, lesson))
                            page.close()
                browser.close()
        finally:
            for server, _ in servers.values():
                server.stop()
    print(f"## {args.lesson}: this checkout against {args.other}, {args.runs} loads each")
    for key, values in results.items():
        print(f"- {key}: {statistics.median(values):.0f} ms (min {min(values):.0f}, max {max(values):.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
