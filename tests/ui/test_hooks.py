"""Components with hooks (issue 43): the vendored preact hooks, linked into a widget's module, and
``useTrait`` (``widgets/draw.js``), a view trait read inside a component that draws again when the trait
changes, run in Debian's Chromium against a stand-in for anywidget's model."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from caterpillar_learn.ui.assets import es_module

pytestmark = pytest.mark.browser

PAGE = """
const traits = { count: 1, name: "Ada" };
const listeners = {};
window.listening = () => Object.values(listeners).reduce((sum, list) => sum + list.length, 0);
const model = {
  get: (name) => traits[name],
  on: (name, callback) => { (listeners[name] = listeners[name] || []).push(callback); },
  off: (name, callback) => { listeners[name] = (listeners[name] || []).filter((kept) => kept !== callback); },
};
window.setTrait = (name, value) => {
  traits[name] = value;
  for (const callback of listeners["change:" + name] || []) callback();
};
const url = URL.createObjectURL(new Blob([%s], { type: "text/javascript" }));
const { h, mount, useTrait } = await import(url);
window.draws = 0;
function Count() {
  const count = useTrait(model, "count");
  window.draws += 1;
  return h("span", { "data-testid": "count", text: `${count} cards` });
}
const paint = mount(document.getElementById("host"));
paint(h("div", {}, h(Count, {})));
window.unmount = () => paint(null);
"""


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    opened = context.new_page()
    opened.set_content('<!doctype html><html><body><div id="host"></div></body></html>')
    opened.evaluate("async () => {" + PAGE % json.dumps(es_module("draw.js")) + "}")
    yield opened
    context.close()


def test_a_component_draws_a_trait_again_when_it_changes_and_lets_go_when_it_goes(page: Page) -> None:
    count = page.get_by_test_id("count")
    expect(count).to_have_text("1 cards")
    drawn = page.evaluate("() => window.draws")
    page.evaluate("() => window.setTrait('count', 7)")
    expect(count).to_have_text("7 cards")  # drawn again by the hook, without a paint from outside
    page.evaluate("() => window.setTrait('name', 'Ben')")  # a trait the component does not read
    assert page.evaluate("() => window.draws") == drawn + 1
    assert page.evaluate("() => window.listening()") == 1
    page.evaluate("() => window.unmount()")
    assert page.evaluate("() => window.listening()") == 0  # its effect's clean-up stopped listening


def test_the_linker_links_the_hooks_beside_preact_once() -> None:
    module = es_module("draw.js")
    assert module.count("const __preact = (() => {") == 1 and module.count("const __preact_hooks = (() => {") == 1
    scope = module.split("const __preact_hooks = (() => {", 1)[1].split("})();", 1)[0]
    assert "const { options: n } = __preact;" in scope  # the one preact the widget draws with
    names = set(re.findall(r"(use\w+):", scope.rsplit("return {", 1)[1]))
    assert {"useState", "useEffect", "useRef", "useMemo", "useId"} <= names
