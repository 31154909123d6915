"""The vendored preact: the copy in widgets/ is npm's build of the version the lock file pins (with its
hash), its licence ships beside it, and the module linker links it into every widget."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from caterpillar_learn.ui.assets import es_module, widget_file

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = ROOT / "widgets"


def test_the_lock_file_pins_preact_with_its_hash():
    lock = json.loads((WIDGETS / "package-lock.json").read_text(encoding="utf-8"))
    pinned = json.loads((WIDGETS / "package.json").read_text(encoding="utf-8"))["devDependencies"]["preact"]
    entry = lock["packages"]["node_modules/preact"]
    assert entry["version"] == pinned
    assert entry["integrity"].startswith("sha512-")
    header = widget_file("preact.js").read_text(encoding="utf-8").splitlines()[0]
    assert f"preact {pinned} " in header


def test_the_vendored_copy_is_npms_build():
    """scripts/vendor_preact.py --check compares the copy with the package npm installed from the lock."""
    checked = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "vendor_preact.py"), "--check"], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_licence_ships_beside_it():
    licence = widget_file("LICENSE-preact").read_text(encoding="utf-8")
    assert "MIT" in licence or "Permission is hereby granted" in licence


def test_the_linker_links_preact_into_a_widget():
    module = es_module("draw.js")
    assert "const __preact = (() => {" in module
    scope = module.split("const __preact = (() => {", 1)[1].split("})();", 1)[0]
    returned = re.findall(r"return \{ ([^}]*) \};\s*$", scope)
    assert returned, "the preact scope returns no exports"
    names = {part.split(":")[0].strip() for part in returned[-1].split(",")}
    assert {"h", "render", "Fragment"} <= names
    assert "export{" not in module and "sourceMappingURL" not in module
    assert "cdn" not in module.lower() and "https://" not in scope
