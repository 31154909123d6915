"""Lessons in the browser: time to interactive and click latency (docs/PERFORMANCE.md).

    .venv/bin/python benchmarks/browser_lessons.py [--runs 7] [--lesson 01-beginner]

Starts ``caterpillar-learn serve`` on a free port over a temporary folder
holding the checkout's lessons and one baseline notebook (a heading only, so
the baseline is Voila's own cost: page, template, kernel start), then drives
Debian's Chromium through Playwright:

* **interactive**: from ``page.goto`` until the roll button can be clicked,
  for the lesson and for the baseline notebook's heading, on fresh pages;
* **click**: in the browser, ``performance.now()`` at the click on a legal box
  until a MutationObserver sees that box filled on the sheet; the baseline is
  the roll button's round trip (same kernel trip, no move applied).

Medians and ranges over the runs; nothing is asserted (not a timed test).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from caterpillar_learn.lessons import get_lesson  # noqa: E402
from caterpillar_learn.lessons.caterpillars import guided_game  # noqa: E402
from tests.browser.conftest import cli_command, free_port, start_server  # noqa: E402
from tests.browser.driver import Player, box_id  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

BASELINE = "baseline-empty"

# Resolves with the milliseconds from the click until `done()` holds after a DOM mutation.
TIMED_CLICK = """([clickId, doneId, mode]) => new Promise((resolve) => {
  const find = (id) => document.querySelector(`[data-testid="${id}"]`);
  const done = () => {
    const node = find(doneId);
    if (!node) return false;
    return mode === "filled" ? !/, empty/.test(node.getAttribute("aria-label") || "") : node.disabled;
  };
  const root = find(clickId).closest(".cl-root") || document.body;
  let start = 0;
  const observer = new MutationObserver(() => {
    if (done()) { observer.disconnect(); resolve(performance.now() - start); }
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true });
  start = performance.now();
  find(clickId).dispatchEvent(new MouseEvent("click", { bubbles: true }));
})"""


def write_baseline(folder: Path) -> None:
    notebook = {
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Baseline"]}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (folder / f"{BASELINE}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")


def time_to_interactive(page: Page, url: str, lesson: bool) -> float:
    start = time.perf_counter()
    page.goto(url)
    if lesson:
        expect(page.get_by_test_id("roll-button")).to_be_enabled(timeout=60_000)
    else:
        expect(page.get_by_role("heading", name="Baseline")).to_be_visible(timeout=60_000)
    return (time.perf_counter() - start) * 1000


def click_latencies(page: Page, url: str, name: str) -> tuple[list[float], list[float]]:
    """Roll and move round trips over one whole game (boxes with a single move only)."""
    lesson = get_lesson(name)
    page.goto(url)
    expect(page.get_by_test_id("roll-button")).to_be_enabled(timeout=60_000)
    game = guided_game(lesson)  # the lesson's first game: its designed dice, some rounds led
    player = Player(page, lesson.level, lesson.seed, auto_setup=lesson.auto_setup, game=game, scenario=lesson.scenario)
    rolls: list[float] = []
    moves: list[float] = []
    while player.game.phase == "setup":
        player.setup_round()
    while player.game.phase == "play":
        rolls.append(page.evaluate(TIMED_CLICK, ["roll-button", "roll-button", "disabled"]))
        player.check_dice()
        legal = player.offered()
        single = [m for m in legal if sum(o.slot == m.slot for o in legal) == 1]
        if single:
            move = max(single, key=lambda m: m.score)
            expect(page.get_by_test_id("legal-move").first).to_be_visible()
            moves.append(page.evaluate(TIMED_CLICK, [box_id(move.slot), box_id(move.slot), "filled"]))
            player.game.play(move)
            player.expect_filled(move)
        else:
            player.click(max(legal, key=lambda m: m.score))
    return rolls, moves


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):.0f} ms (min {min(values):.0f}, max {max(values):.0f}, n={len(values)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--lesson", default="01-beginner")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "lessons"
        folder.mkdir()
        for notebook in (ROOT / "lessons").glob("*.ipynb"):
            (folder / notebook.name).symlink_to(notebook)
        write_baseline(folder)
        port = free_port()
        server = start_server(
            [*cli_command(), "serve", "--no-browser", "--port", str(port), "--lessons", str(folder)],
            f"http://localhost:{port}/",
            Path(tmp) / "serve.log",
        )
        base = f"http://localhost:{port}/voila/render"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                results: dict[str, list[float]] = {"lesson": [], "baseline": [], "move": [], "roll": []}
                for _ in range(args.runs):  # interleaved, so drift hits both alike
                    for key, url, is_lesson in (
                        ("baseline", f"{base}/{BASELINE}.ipynb", False),
                        ("lesson", f"{base}/{args.lesson}.ipynb", True),
                    ):
                        page = browser.new_page()
                        results[key].append(time_to_interactive(page, url, is_lesson))
                        page.close()
                for _ in range(max(1, args.runs // 3)):
                    page = browser.new_page()
                    rolls, moves = click_latencies(page, f"{base}/{args.lesson}.ipynb", args.lesson)
                    results["roll"] += rolls
                    results["move"] += moves
                    page.close()
                browser.close()
        finally:
            server.stop()
    print(f"## {args.lesson}, {args.runs} runs")
    print(f"- baseline: Voila renders a heading-only notebook: {summary(results['baseline'])}")
    print(f"- lesson interactive (roll button enabled):     {summary(results['lesson'])}  [budget 3000 ms]")
    print(f"- baseline: roll click until the dice show:      {summary(results['roll'])}")
    print(f"- legal-move click until the sheet shows it:    {summary(results['move'])}  [budget 100 ms]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
