"""The package's layout says where each thing is (issue 43): every module opens with a sentence of its own, and
one package is named ``hosting``; no function of a widget is longer than 80 lines.  (The classroom's layers:
``tests/classroom/test_layers.py``; the handler tables of methods, not names: ``tests/ui/test_handlers.py``.)"""

from __future__ import annotations

import ast
import json
import subprocess
from collections import defaultdict
from pathlib import Path

import caterpillar_learn

PACKAGE = Path(caterpillar_learn.__file__).parent


def first_sentence(path: Path) -> str | None:
    """A module's first docstring sentence (up to its first full stop followed by a space, or its paragraph's end)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    if not doc:
        return None
    paragraph = " ".join(doc.split("\n\n")[0].split())
    return paragraph.split(". ")[0].rstrip(".")


def test_every_module_opens_with_a_sentence_of_its_own() -> None:
    said: dict[str, list[str]] = defaultdict(list)
    silent = []
    for path in sorted(PACKAGE.rglob("*.py")):
        sentence = first_sentence(path)
        if sentence is None:
            silent.append(str(path.relative_to(PACKAGE)))
        else:
            said[sentence.lower()].append(str(path.relative_to(PACKAGE)))
    assert silent == [], "modules that do not say what they hold"
    assert {sentence: paths for sentence, paths in said.items() if len(paths) > 1} == {}


def test_one_package_is_named_hosting() -> None:
    found = sorted(str(path.parent.relative_to(PACKAGE)) for path in PACKAGE.rglob("hosting/__init__.py"))
    assert found == ["ui/hosting"]


# -- The widgets: components, not one long closure (issue 43) ---------------------------------------------------

WIDGETS = PACKAGE.parent / "widgets"

#: The longest a function in ``widgets/`` may be.
MOST_LINES = 80


def widget_functions() -> list[tuple[str, str, int, int]]:
    """Every function of the widgets' own modules (not the vendored preact): file, name, first line, lines."""
    files = sorted(str(p) for p in WIDGETS.glob("*.js") if not p.name.startswith("preact"))
    script = Path(__file__).parent / "js" / "function_lengths.cjs"
    done = subprocess.run(["node", str(script), *files], capture_output=True, text=True, check=True)
    return [tuple(row) for row in json.loads(done.stdout)]  # type: ignore[misc]


def test_no_widget_function_is_longer_than_eighty_lines() -> None:
    """Each widget is made of components and small functions, read top-down, not one long ``render`` closure."""
    functions = widget_functions()
    assert len(functions) > 100 and any(name == "render" for _, name, _, _ in functions)  # the parser read them
    too_long = [f"{file}:{first} {name}: {lines} lines" for file, name, first, lines in functions if lines > MOST_LINES]
    assert too_long == [], f"functions in widgets/ over {MOST_LINES} lines (split them into components)"


def test_the_length_check_fails_on_a_long_function(tmp_path: Path) -> None:
    long = tmp_path / "long.js"
    long.write_text("export function render() {\n" + "  let a = 1;\n" * 85 + "}\n", encoding="utf-8")
    script = Path(__file__).parent / "js" / "function_lengths.cjs"
    done = subprocess.run(["node", str(script), str(long)], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [["long.js", "render", 1, 87]]
