"""The words a child sees (issue 29, point 6): at most :data:`MOST_WORDS` on screen, outside For grown-ups.

:data:`WORDS_JS` reads the page as a child sees it: every text node in the viewport that is drawn (not
``hidden``, not in a closed ``details`` but its summary, not clipped to a pixel for screen readers only,
not transparent), SVG text included.  A word is a run of characters with a letter in it, so a number
(a score, a die) is no word.  The selected option of a menu counts as what the menu shows.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

#: The most words on screen in lessons 00–01 and 10–11 (issue 29).
MOST_WORDS = 40
#: The lessons the limit holds for.
FEW_WORDS = ("00-setup", "01-beginner", "10-raupe-shape", "11-raupe-colour")

WORDS_JS = """() => {
  const shownText = [];
  const inView = (b) => b.width > 2 && b.height > 2 && b.bottom > 0 && b.top < innerHeight && b.right > 0
    && b.left < innerWidth;
  // Clipped to a pixel (a screen reader's words): an ancestor that hides what overflows it, a pixel wide.
  const forTheEarOnly = (el) => {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      const box = node.getBoundingClientRect();
      const overflow = getComputedStyle(node).overflow;
      if ((overflow === "hidden" || overflow === "clip") && (box.width <= 2 || box.height <= 2)) return true;
    }
    return false;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.data.trim()) continue;
    if (el.closest("script, style, title, option, [hidden], details:not([open]) > :not(summary)")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (!inView(range.getBoundingClientRect())) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.opacity === "0" || forTheEarOnly(el)) continue;
    shownText.push(node.data);
  }
  for (const select of document.querySelectorAll("select")) {
    const box = select.getBoundingClientRect();
    if (inView(box) && select.selectedOptions[0]) shownText.push(select.selectedOptions[0].text);
  }
  const words = shownText.join(" ").split(/\\s+/).filter((word) => /\\p{L}/u.test(word));
  return { count: words.length, text: shownText.map((t) => t.trim()).join(" | ") };
}"""


def words_on_screen(page: Page) -> dict[str, Any]:
    """``{"count": words on screen, "text": what they are}``."""
    seen: dict[str, Any] = page.evaluate(WORDS_JS)
    return seen


def assert_few_words(page: Page, where: str = "") -> int:
    """At most :data:`MOST_WORDS` words on screen; the count."""
    seen = words_on_screen(page)
    assert seen["count"] <= MOST_WORDS, f"{seen['count']} words on screen {where}: {seen['text'][:600]}"
    count: int = seen["count"]
    return count
