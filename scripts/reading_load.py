"""How much each lesson asks a learner to read, per language: the table in docs/ENGINEERS.md.

    .venv/bin/python scripts/reading_load.py [--root CHECKOUT]

A lesson's reading load is what its page shows before any game happens: the
prose of its notebook (Markdown cells), its steps' titles and texts
(Caterpillars), the strategy lab's page and the intro and "try this" panel
(Räuber Raupe), counted
with tests/reading.py (sentences end at . ! ?; words are what lies between
spaces); "longest" is the longest sentence's words.  Step texts are counted
in their touch form ("Tap Roll."), which a tablet shows.  Questions,
feedback and hints depend on the dice and come on top;
tests/lessons/test_reading.py holds those of the picture-first lessons to
their limits.  ``--root`` counts another checkout of the project (for
example an older commit, made with ``git worktree add``), with this
checkout's way of counting.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def _counting() -> object:
    spec = importlib.util.spec_from_file_location("reading", HERE / "tests" / "reading.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def markdown(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"]


def panel_texts(catalogue: dict[str, str], name: str) -> list[str]:
    """A Räuber Raupe lesson's intro and "try this" texts (numbered catalogue keys)."""
    prefixes = (f"raupe_lessons.intro.{name}.", f"raupe_lessons.try.{name}.")
    return [value for key, value in catalogue.items() if key.startswith(prefixes)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to count (default: this one)")
    args = parser.parse_args()
    reading = _counting()
    sys.path.insert(0, str(args.root.resolve()))
    from caterpillar_learn import i18n
    from caterpillar_learn.lessons import LESSONS
    from caterpillar_learn.lessons.raupe import SETUPS

    load = reading.load  # type: ignore[attr-defined]
    print(
        "| lesson | " + " | ".join(f"{lang}: sentences / words / longest" for lang in i18n.available_languages()) + " |"
    )
    print("|---|" + "---|" * len(i18n.available_languages()))
    for name in [*LESSONS, *SETUPS]:
        row = []
        prose = markdown(args.root / "lessons" / f"{name}.ipynb")
        for lang in i18n.available_languages():
            with i18n.language(lang):
                texts = list(prose)
                if name in LESSONS and "lab" in LESSONS[name].widgets:  # the strategy lab's own page
                    lab = {k: v for k, v in i18n.catalogue(lang).items() if k.startswith("lessons.lab.page.")}
                    texts += [v for k, v in lab.items() if not k.endswith(".shows")]
                elif name in LESSONS:
                    for step in LESSONS[name].steps:
                        texts += [i18n.text(f"lessons.{step.key}.title"), i18n.text(f"lessons.{step.key}.body")]
                else:
                    texts += panel_texts(i18n.catalogue(lang), name)
            sentences, words = load(texts)
            longest = max((reading.words(s) for t in texts for s in reading.sentences(t)), default=0)  # type: ignore[attr-defined]
            row.append(f"{sentences} / {words} / {longest}")
        print(f"| `{name}` | " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
