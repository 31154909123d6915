"""The package's layout says where each thing is (issue 43): every module opens with a sentence of its own, and
one package is named ``hosting``; no function of a widget is longer than 80 lines.  (The classroom's layers:
``tests/classroom/test_layers.py``; the handler tables of methods, not names: ``tests/ui/test_handlers.py``.)"""

from __future__ import annotations

import ast
import json
import re
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


#: What edits a node of the page by hand: attributes, classes, text, children, style, properties a description sets.
NODE_EDIT = re.compile(
    r"\.(setAttribute|removeAttribute|append|appendChild|insertBefore|remove)\(|classList\.(add|remove|toggle)\("
    r"|\.(textContent|innerHTML|data|className|lang|hidden|value|open|checked)\s*=(?!=)|\.style\.\w+\s*=(?!=)"
)


def unmarked_node_edits(source: str) -> list[int]:
    """The lines of ``source`` that edit a node without saying it is not preact's: an edit is allowed only on a node
    the widget made itself (its root, a moving copy, a download's link), and says so with ``ours:`` in a comment on
    its line or on the line just above its block of edits."""
    lines = source.splitlines()
    found = []
    for number, line in enumerate(lines):
        if not NODE_EDIT.search(line) or "ours:" in line:
            continue
        above = number - 1
        while above >= 0 and NODE_EDIT.search(lines[above]) and "ours:" not in lines[above]:
            above -= 1
        if above < 0 or "ours:" not in lines[above]:
            found.append(number + 1)
    return found


def test_no_code_edits_a_node_preact_drew() -> None:
    """After a paint, what the page shows is what the last description said: no code edits preact's nodes (a mark,
    a class, a text written by hand is what preact then overwrites or leaves standing wrongly)."""
    edits = {
        path.name: lines
        for path in sorted(WIDGETS.glob("*.js"))
        if not path.name.startswith("preact") and (lines := unmarked_node_edits(path.read_text(encoding="utf-8")))
    }
    assert edits == {}, "node edits not marked `ours:` (describe them instead, or say whose node it is)"


def test_the_edit_check_finds_an_unmarked_edit() -> None:
    source = "\n".join(
        [
            "const a = 1;",
            'node.setAttribute("data-todo", "true");',  # 2: unmarked
            "// ours: the root this widget made",
            'root.setAttribute("lang", lang);',
            "root.append(view);",  # the same block as the line above: marked by its comment
            "",
            'other.classList.add("learn-todo");',  # 7: unmarked
            "const same = a === b;",
            "text.textContent = words; // ours: a notice on the page's body",
        ]
    )
    assert unmarked_node_edits(source) == [2, 7]
