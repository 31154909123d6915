"""Where the widgets' front-end sources are, and how one widget's module is put together.

They live in the top-level ``widgets/`` folder of the repository and ship
inside an installed package as ``caterpillar_learn.widgets`` (see setup.py).
A checkout (editable install, Binder, CI) reads them from the folder.

Each file in ``widgets/`` is a real ES module: it imports what it uses from
its neighbours (``import { h, fill } from "./shared.js";``) and exports what
they may use.  anywidget and Panel load one module text per widget, so
:func:`es_module` links a widget's entry file and the files it imports into
one text, with no build step and no network: every imported file becomes a
function scope that returns its exports, and each ``import`` line becomes a
read of those exports.  A file sees only what it imports; a name used
without an import is a ``ReferenceError`` in the browser, not a hidden
global shared by two files.

>>> module = es_module("raupe.js")
>>> module.count("export default"), 'from "./' in module
(1, False)
"""

from __future__ import annotations

import re
from contextlib import suppress
from functools import cache
from importlib import resources
from pathlib import Path

import caterpillar_learn

__all__ = ["THEME_FILE", "es_module", "widget_file", "widget_styles"]

_CHECKOUT = Path(caterpillar_learn.__file__).resolve().parent.parent / "widgets"
THEME_FILE = "theme.css"

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w.-]+\.js)";\s*$', re.MULTILINE)
_ANY_IMPORT = re.compile(r"^\s*import\b", re.MULTILINE)
_EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)", re.MULTILINE)
# A vendored module's one export list at its end (``export{k as h,R as render};``, as npm's builds write it).
_EXPORT_LIST = re.compile(r"export\s*\{([^}]*)\};?\s*$")


def widget_styles(name: str) -> str:
    """The shared theme followed by the stylesheet ``widgets/<name>``, as one text.

    >>> ".cl-root" in widget_styles("caterpillars.css") and "--learn-bg" in widget_styles("raupe.css")
    True
    """
    return "\n".join(widget_file(n).read_text(encoding="utf-8") for n in (THEME_FILE, name))


def widget_file(name: str) -> Path:
    """The path of ``widgets/<name>`` (an ES module, CSS or SVG file).

    >>> widget_file("nothing.js")
    Traceback (most recent call last):
    ...
    FileNotFoundError: widgets/nothing.js: no such front-end file
    """
    candidate = _CHECKOUT / name
    if not candidate.exists():
        with suppress(ModuleNotFoundError):  # not installed as a wheel
            candidate = Path(str(resources.files("caterpillar_learn.widgets").joinpath(name)))
    if not candidate.exists():
        raise FileNotFoundError(f"widgets/{name}: no such front-end file")
    return candidate


def _scope_name(file: str) -> str:
    return "__" + re.sub(r"\W", "_", file.removesuffix(".js"))


def _imports_as_reads(source: str, file: str) -> tuple[str, list[str]]:
    """``source`` with each ``import {a, b as c} from "./x.js";`` turned into ``const {a, b: c} = __x;``."""
    wanted: list[str] = []

    def read(match: re.Match[str]) -> str:
        names = [part.strip() for part in match.group(1).split(",") if part.strip()]
        wanted.append(match.group(2))
        pairs = [": ".join(n.split(" as ")) if " as " in n else n for n in names]
        return f"const {{ {', '.join(pairs)} }} = {_scope_name(match.group(2))};"

    linked = _IMPORT.sub(read, source)
    if _ANY_IMPORT.search(linked):
        raise ValueError(f'widgets/{file}: only `import {{ ... }} from "./file.js";` lines can be linked')
    return linked, wanted


@cache
def es_module(entry: str) -> str:
    """The widget module ``widgets/<entry>`` with every file it imports linked in (dependencies first)."""
    order: list[str] = []
    bodies: dict[str, str] = {}

    def visit(file: str, path: tuple[str, ...]) -> None:
        if file in path:
            raise ValueError("widgets: import circle " + " → ".join((*path, file)))
        if file in bodies:
            return
        source = widget_file(file).read_text(encoding="utf-8")
        linked, wanted = _imports_as_reads(source, file)
        for dependency in wanted:
            visit(dependency, (*path, file))
        bodies[file] = linked
        order.append(file)

    visit(entry, ())
    parts = []
    for file in order:
        body = bodies[file]
        if file == entry:
            parts.append(f"// ---- {file}\n{body}")
            continue
        if "export default" in body:
            raise ValueError(f"widgets/{file}: only the widget's entry file may `export default`")
        names = _EXPORT.findall(body)
        body = re.sub(r"^export\s+", "", body, flags=re.MULTILINE)
        listed = _EXPORT_LIST.search(body)
        if listed:
            body = body[: listed.start()]
            for part in filter(None, (p.strip() for p in listed.group(1).split(","))):
                local, _, public = part.partition(" as ")
                names.append(f"{public.strip()}: {local.strip()}" if public else local)
        parts.append(
            f"// ---- {file}\nconst {_scope_name(file)} = (() => {{\n{body}\nreturn {{ {', '.join(names)} }};\n}})();"
        )
    return "\n".join(parts)
