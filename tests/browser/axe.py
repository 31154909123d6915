"""axe-core, the accessibility checker, fetched from the npm registry for the browser tests.

No Node here: the pinned tarball is read with :mod:`urllib`, its sha512 is
checked against the registry's ``dist.integrity`` pinned below, and
``package/axe.min.js`` is kept in a git-ignored cache folder (``.cache/``)
for the next run.  The tests inject the script into the page themselves, so
the page never loads anything from a CDN.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VERSION = "4.14.1"
#: ``dist.integrity`` of axe-core 4.14.1 on registry.npmjs.org.
INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
CACHE = ROOT / ".cache" / f"axe-core-{VERSION}" / "axe.min.js"
MEMBER = "package/axe.min.js"
#: The impacts axe gives a violation, worst last; the tests refuse the last two.
IMPACTS = ("minor", "moderate", "serious", "critical")
REFUSED = ("serious", "critical")


class AxeUnavailableError(RuntimeError):
    """axe-core could not be fetched or did not match its pinned checksum."""


def integrity(data: bytes) -> str:
    """The Subresource-Integrity string of ``data``, as npm writes it.

    >>> integrity(b"")[:20]
    'sha512-z4PhNX7vuL3xV'
    """
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def axe_source(cache: Path = CACHE, timeout: float = 60.0) -> str:
    """The text of ``axe.min.js``: from the cache, else downloaded, checked and cached."""
    if cache.exists():
        return cache.read_text(encoding="utf-8")
    try:
        with urllib.request.urlopen(TARBALL, timeout=timeout) as response:
            data = response.read()
    except OSError as error:
        raise AxeUnavailableError(f"axe-core {VERSION}: could not download {TARBALL}: {error}") from error
    if integrity(data) != INTEGRITY:
        got = integrity(data)
        raise AxeUnavailableError(f"axe-core {VERSION}: {TARBALL} has integrity {got}, expected {INTEGRITY}")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        member = archive.extractfile(MEMBER)
        if member is None:
            raise AxeUnavailableError(f"axe-core {VERSION}: {MEMBER} missing from {TARBALL}")
        source = member.read().decode("utf-8")
    cache.parent.mkdir(parents=True, exist_ok=True)
    partial = cache.with_suffix(f".{os.getpid()}.part")  # parallel workers may fetch it at once
    partial.write_text(source, encoding="utf-8")
    partial.replace(cache)  # never a half-written cache file
    return source


#: The tallest viewport :func:`reveal` makes (px).
MAX_HEIGHT = 12_000
#: How far down the page's scroll areas reach (Voila scrolls its cells inside ``#rendered_cells``).
_REACH = """() => Math.max(document.documentElement.scrollHeight, ...[...document.querySelectorAll("*")]
  .filter((node) => ["auto", "scroll"].includes(getComputedStyle(node).overflowY))
  .map((node) => node.getBoundingClientRect().top + window.scrollY + node.scrollHeight))"""


def reveal(page: Any) -> None:
    """Make the viewport tall enough to show the whole page.

    axe-core skips what a scroll area hides (as it skips hidden elements), and
    Voila's cells scroll inside one: below the fold, contrast and names would
    go unchecked.
    """
    size = page.viewport_size or {"width": 1280, "height": 1000}
    reach = int(page.evaluate(_REACH)) + 40
    if reach > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": min(reach, MAX_HEIGHT)})


def run_axe(page: Any, script: str) -> list[dict[str, Any]]:
    """axe-core's violations on ``page`` (a Playwright page), the whole document: Voila's markup too."""
    reveal(page)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=script)
    violations: list[dict[str, Any]] = page.evaluate(
        "async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    return violations


def count_by_impact(violations: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many elements fail, by impact (one violation lists every failing node).

    >>> count_by_impact([{"impact": "serious", "nodes": [1, 2]}, {"impact": "minor", "nodes": [3]}])
    {'minor': 1, 'moderate': 0, 'serious': 2, 'critical': 0}
    """
    counts = dict.fromkeys(IMPACTS, 0)
    for violation in violations:
        counts[str(violation.get("impact") or "minor")] += len(violation.get("nodes") or [None])
    return counts


def describe_violations(violations: Sequence[Mapping[str, Any]], impacts: tuple[str, ...] = REFUSED) -> list[str]:
    """One line per failing node of the given impacts: rule, impact, target and axe's summary."""
    lines = []
    for violation in violations:
        if violation.get("impact") not in impacts:
            continue
        for node in violation.get("nodes") or []:
            summary = " ".join(str(node.get("failureSummary", "")).split())[:300]
            html = " ".join(str(node.get("html", "")).split())[:200]
            lines.append(f"{violation['id']} ({violation['impact']}) at {node.get('target')}: {summary} [{html}]")
    return lines
