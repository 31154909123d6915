"""Render the Caterpillars widget and the static sheet to PNG files, to look at them.

    .venv/bin/python scripts/preview_widgets.py [--dark] [--out artifacts/preview]

Each picture is one stage of a seeded game (the view is taken from the real
Python side and fed to the real ES module through a stand-in model), shot with
Debian's headless Chromium.  The PNGs go under ``artifacts/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from caterpillar_learn.ui.caterpillars import CaterpillarsBoard, CaterpillarsLesson

CHROMIUM = "/usr/bin/chromium"

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="color-scheme" content="light dark"><style>{css}
body {{ margin: 0; background: {background}; }}</style></head><body><div id="host"></div>
<script type="module">
{esm_inline}
const traits = {traits};
const model = {{ get: (n) => traits[n], set: () => {{}}, save_changes: () => {{}}, on: () => {{}}, off: () => {{}} }};
widget.render({{ model, el: document.getElementById("host") }});
</script></body></html>"""


def traits_of(board: CaterpillarsBoard) -> dict[str, Any]:
    return {name: getattr(board, name) for name in [*board.view_names, "view_names"]}


def stages() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    lesson = CaterpillarsLesson("01-beginner")
    out["beginner-start"] = traits_of(lesson)
    lesson.act("roll")
    out["beginner-rolled"] = traits_of(lesson)
    lesson.act("box", caterpillar="Alex", box=0)
    out["beginner-why-not"] = traits_of(lesson)
    advanced = CaterpillarsLesson("03-advanced")
    advanced.act("roll")
    advanced.act("hint")
    out["advanced-hint"] = traits_of(advanced)
    while lesson.session.game.phase != "over":
        lesson.act("roll")
        lesson.act("option", index=0)
    while lesson.lesson["can_next"]:
        lesson.act("step", delta=1)
    lesson.act("review")
    out["beginner-over"] = traits_of(lesson)
    inter = CaterpillarsLesson("04-expert")
    for _ in range(5):
        inter.act("roll")
        inter.act("option", index=len(inter.legal) - 1)
    while True:  # a round where one box can take several moves opens the menu
        inter.act("roll")
        boxes = [(m["caterpillar"], m["box"]) for m in inter.legal]
        crowded = [b for b in boxes if boxes.count(b) > 1]
        if crowded:
            break
        inter.act("option", index=0)
    inter.act("hint")
    inter.act("box", caterpillar=crowded[0][0], box=crowded[0][1])
    out["expert-menu"] = traits_of(inter)
    setup = CaterpillarsLesson("00-setup")
    setup.act("roll")
    setup.act("die", index=2)
    setup.act("box", caterpillar="Alex", box=1)
    setup.act("step", delta=1)
    out["setup"] = traits_of(setup)
    return out


def shoot(html: str, png: Path, dark: bool) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False, encoding="utf-8") as page:
        page.write(html)
    flags = ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] if dark else []
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            *flags,
            "--hide-scrollbars",
            "--window-size=1300,1000",
            "--virtual-time-budget=3000",
            f"--screenshot={png}",
            f"file://{page.name}",
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--out", default="artifacts/preview")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    esm = CaterpillarsBoard.esm().replace("export default { render };", "const widget = { render };")
    background = "#1b1b1f" if args.dark else "#ffffff"
    for name, traits in stages().items():
        html = PAGE.format(
            css=CaterpillarsBoard.css(), background=background, esm_inline=esm, traits=json.dumps(traits)
        )
        png = out / f"{name}{'-dark' if args.dark else ''}.png"
        shoot(html, png, args.dark)
        print(png)
    board = CaterpillarsLesson("03-advanced").session
    while board.game.phase != "over":
        board.handle({"type": "roll"})
        board.handle({"type": "option", "index": 0})
    svg = board.game.state._repr_svg_()
    shoot(f"<!doctype html><body style='margin:0'>{svg}</body>", out / "static-sheet.png", False)
    print(out / "static-sheet.png")


if __name__ == "__main__":
    main()
