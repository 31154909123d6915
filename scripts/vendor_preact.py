"""Refresh the vendored preact (``widgets/preact.js`` and ``widgets/LICENSE-preact``) from npm.

The version is the one ``widgets/package.json`` pins and ``widgets/package-lock.json`` records with its
hash; ``npm ci`` checks that hash as it installs.  To move to another release: change the pin in
package.json, run ``npm install`` in ``widgets/`` (it rewrites the lock), then this script, and commit all
four files.  The lessons' servers serve the copy inside the package; no page ever loads preact from a CDN.

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
LICENCE = WIDGETS / "LICENSE-preact"


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


def main(argv: list[str]) -> int:
    package = installed()
    text = vendored_text(package)
    licence = (package / "LICENSE").read_text(encoding="utf-8")
    if "--check" in argv:
        same = TARGET.read_text(encoding="utf-8") == text and LICENCE.read_text(encoding="utf-8") == licence
        print("vendored preact matches npm's" if same else "widgets/preact.js differs: run scripts/vendor_preact.py")
        return 0 if same else 1
    TARGET.write_text(text, encoding="utf-8")
    LICENCE.write_text(licence, encoding="utf-8")
    print(f"wrote {TARGET.name} and {LICENCE.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
