// What every widget's front end shares: DOM and SVG builders, the one way to
// send an event, and the redraw wiring.  Each widget imports what it uses
// (caterpillar_learn/ui/assets.py links the files into one module).
// No rules here and no network: the browser only draws traits and sends events.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

// h("button", {class: "x", onclick: f, text: "Go"}, child, ...): an HTML element.
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

// s("circle", {cx: 1, cy: 2, r: 3}): an SVG element (dice faces).
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

// A picture drawn by Python (the scoresheet, a card) as SVG markup, in a <span>.
// Python escapes every text it puts into the markup.
export function picture(markup, cls, hidden = true) {
  const holder = h("span", { class: cls, "aria-hidden": hidden ? "true" : null });
  holder.innerHTML = markup;
  return holder;
}

// Fill a catalogue template's {placeholders}; unknown ones stay as they are.
export function fill(template, values) {
  return String(template || "").replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

// send("roll", {...}): one write of the `event` trait.  model.send does not
// reach Python on Panel, so events travel as trait changes; `seq` makes each
// event differ from the one before, so a repeated action still counts.
export function sender(model) {
  let seq = 0;
  return (type, fields = {}) => {
    seq += 1;
    model.set("event", { ...fields, type, seq: Date.now() * 1000 + seq });
    model.save_changes();
  };
}

// Redraw (at most once per task) whenever a view trait changes; the list of
// view traits comes from Python (`view_names`).  Returns the clean-up.
export function watch(model, draw) {
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      draw();
    });
  };
  const names = model.get("view_names") || [];
  for (const name of names) model.on(`change:${name}`, schedule);
  return () => {
    for (const name of names) model.off(`change:${name}`, schedule);
  };
}

// Whether a key press is a plain letter shortcut (no modifier, not typing in a field).
export function isShortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target;
  return !(target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
}
