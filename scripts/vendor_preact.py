"""Refresh the vendored preact (``widgets/preact.js``, its hooks ``widgets/preact-hooks.js`` and
``widgets/LICENSE-preact``) from npm.

The version is the one ``widgets/package.json`` pins and ``widgets/package-lock.json`` records with its
hash; ``npm ci`` checks that hash as it installs.  The hooks come from the same package (``preact/hooks``).
To move to another release: change the pin in
package.json, run ``npm install`` in ``widgets/`` (it rewrites the lock), then this script, and commit all
five files.  The lessons' servers serve the copy inside the package; no page ever loads preact from a CDN.

    python3 scripts/vendor_preact.py          # npm ci, then copy
    python3 scripts/vendor_preact.py --check  # exit 1 when the vendored copy differs from npm's
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

WIDGETS = Path(__file__).resolve().parent.parent / "widgets"
TARGET = WIDGETS / "preact.js"
HOOKS = WIDGETS / "preact-hooks.js"
LICENCE = WIDGETS / "LICENSE-preact"
#: How npm's hooks build imports preact (a bare name no page resolves), and how the widgets' linker reads it.
HOOKS_IMPORT = 'import{options as n}from"preact";'
LINKED_IMPORT = 'import { options as n } from "./preact.js";\n'


def installed() -> Path:
    """preact's package folder under ``widgets/node_modules``, installed from the lock file when missing."""
    package = WIDGETS / "node_modules" / "preact"
    if not (package / "package.json").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=WIDGETS, check=True)
    return package


def vendored_text(package: Path) -> str:
    """The module as it is vendored: npm's ES module build, with a header saying what it is and without its
    source-map line (the map is not shipped)."""
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    body = (package / "dist" / "preact.module.js").read_text(encoding="utf-8")
    body = "\n".join(line for line in body.splitlines() if not line.startswith("//# sourceMappingURL="))
    header = (
        f"// preact {version} (MIT licence, widgets/LICENSE-preact), npm's dist/preact.module.js as it is.\n"
        "// Vendored by scripts/vendor_preact.py from the version widgets/package-lock.json pins; do not edit.\n"
    )
    return header + body.rstrip("\n") + "\n"


def vendored_hooks(package: Path) -> str:
    """preact's hooks as they are vendored: npm's ES module build, its one import of preact on a line of its own
    and pointed at the vendored copy (``./preact.js``), with a header and without its source-map line."""
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    body = (package / "hooks" / "dist" / "hooks.module.js").read_text(encoding="utf-8")
    body = "\n".join(line for line in body.splitlines() if not line.startswith("//# sourceMappingURL="))
    if not body.startswith(HOOKS_IMPORT):
        raise SystemExit(
            f"preact {version}: hooks.module.js no longer starts with {HOOKS_IMPORT!r}; look before vendoring"
        )
    header = (
        f"// preact/hooks {version} (MIT licence, widgets/LICENSE-preact), npm's hooks/dist/hooks.module.js with its\n"
        "// import of preact pointed at widgets/preact.js. Vendored by scripts/vendor_preact.py; do not edit.\n"
    )
    return header + LINKED_IMPORT + body.removeprefix(HOOKS_IMPORT).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    package = installed()
    files = {
        TARGET: vendored_text(package),
        HOOKS: vendored_hooks(package),
        LICENCE: (package / "LICENSE").read_text(encoding="utf-8"),
    }
    if "--check" in argv:
        differ = [
            path.name for path, text in files.items() if not path.exists() or path.read_text(encoding="utf-8") != text
        ]
        print(
            f"widgets/{', '.join(differ)} differ: run scripts/vendor_preact.py"
            if differ
            else "vendored preact matches npm's"
        )
        return 1 if differ else 0
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    print("wrote " + ", ".join(path.name for path in files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
