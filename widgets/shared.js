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

// How long a click waits for the browser's voices to load before it says there is none.
const VOICE_WAIT_MS = 600;

function voicesReady(synth) {
  if (typeof synth.getVoices !== "function" || synth.getVoices().length) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      synth.removeEventListener?.("voiceschanged", done);
      resolve(synth.getVoices().length > 0);
    };
    const timer = setTimeout(done, VOICE_WAIT_MS);
    synth.addEventListener?.("voiceschanged", done);
  });
}

// speaker(text, lang, strings): a "read aloud" button that speaks `text` (or what a
// function returns at the click) with the browser's own speech synthesis, in `lang`
// ("en", "de").  No network: where the browser has no voice, a short notice instead.
export function speaker(textOrFn, lang, words = {}) {
  const notice = h("span", { class: "learn-no-voice", role: "status", "data-testid": "no-voice" });
  const say = async () => {
    const spoken = String((typeof textOrFn === "function" ? textOrFn() : textOrFn) || "").trim();
    const synth = window.speechSynthesis;
    notice.textContent = "";
    if (!spoken) return;
    if (!synth || typeof window.SpeechSynthesisUtterance !== "function" || !(await voicesReady(synth))) {
      notice.textContent = words.no_voice || "This browser has no voice to read aloud.";
      return;
    }
    synth.cancel();
    const utterance = new window.SpeechSynthesisUtterance(spoken);
    utterance.lang = typeof lang === "function" ? lang() : lang || "en";
    synth.speak(utterance);
  };
  const button = h("button", { class: "learn-speak", type: "button", "data-testid": "read-aloud",
    "aria-label": words.read_aloud || "Read aloud", title: words.read_aloud || "Read aloud", onclick: say },
  h("span", { "aria-hidden": "true", text: "🔊" }));
  return h("span", { class: "learn-speaker" }, button, notice);
}

// The learner's choice of language (`languages` from Python, each named in itself);
// nothing while the catalogue has only one.
export function languageSwitch(languages, lang, words, send) {
  if (!languages || languages.length < 2) return null;
  const select = h("select", { "data-testid": "language", onchange: (event) => send("language", { value: event.target.value }) },
    languages.map((choice) => h("option", { value: choice.code, lang: choice.code, selected: choice.code === lang, text: choice.name })));
  return h("label", { class: "learn-language" }, (words.language || "Language") + " ", select);
}
