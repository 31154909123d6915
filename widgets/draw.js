// The one way every widget draws: describe the whole view, and preact (vendored from npm, widgets/preact.js)
// changes in the page only what differs from the last description.  A node whose data did not change is not
// touched; a list keyed by a stable identity (`key`: pupil, card, box, option) keeps each row's node, its
// focus and a half-done press when other rows come and go.  See docs/WIDGETS.md for why preact.
//
//   const paint = mount(root);            // once, when the widget renders
//   paint(h("div", {class: "x"}, ...));   // on every change of a view trait
//
// h(tag, attrs, ...children) keeps the signature the widgets always used: `text` is the element's text,
// `onclick` (any `on*` function) a listener, `key` an identity, `ref` a callback given the element.

import { h as element, cloneElement, render as preactRender, Fragment as PreactFragment } from "./preact.js";
import { useEffect, useMemo, useState } from "./preact-hooks.js";
import { forEar, hush, listen, remember, sayNow, voiceOn, voicesReady, voices, watch, ROOTS, ICONS } from "./shared.js";
import { rememberSound, sound, soundOn } from "./sound.js";

/**
 * @typedef {Object<string, any>} Attrs  an element's attributes, listeners (`on*`), `text`, `key` and `ref`
 * @typedef {any} Child  a description (from h), a string or number, or null/false/undefined for nothing
 */

export const Fragment = PreactFragment;

/**
 * A view trait's value inside a component, redrawn when it changes: `const table = useTrait(model, "table")`
 * (what Panel's own components call `model.useState`).  The component draws again with the new value and
 * preact changes only what differs.
 * @param {{get: (name: string) => any, on: (event: string, callback: () => void) => void,
 *   off: (event: string, callback: () => void) => void}} model
 * @param {string} name
 * @returns {any}
 */
export function useTrait(model, name) {
  const [value, setValue] = useState(() => model.get(name));
  useEffect(() => {
    const changed = () => setValue(model.get(name));
    model.on(`change:${name}`, changed);
    changed(); // a change between the first draw and this effect
    return () => model.off(`change:${name}`, changed);
  }, [model, name]);
  return value;
}

/**
 * Draw the component again whenever one of the widget's view traits changes (at most once per task, as
 * `watch` in shared.js): for a component that reads many traits with `model.get`, where `useTrait` one by one
 * would be many hooks.  The list of view traits comes from Python (`view_names`).  Returns how many times the
 * traits changed (a draw for another reason, a component's own state, returns the same number).
 * @param {any} model
 * @returns {number}
 */
export function useView(model) {
  const [version, redraw] = useState(0);
  useEffect(() => {
    const stop = watch(model, () => redraw((n) => n + 1));
    redraw((n) => n + 1); // a change between the first draw and this effect
    return stop;
  }, [model]);
  return version;
}

/**
 * An element's description: `h("button", {class: "go", onclick: f, text: "Go"}, child, ...)`.
 * SVG elements are described the same way; inside an <svg> they are made in SVG's namespace.
 * @param {string|((props: any) => any)} tag  an element's name, or a component (given its props as they are)
 * @param {Attrs|null} [attrs]
 * @param {...(Child|Child[])} children
 * @returns {any}
 */
export function h(tag, attrs, ...children) {
  if (typeof tag !== "string") return element(/** @type {any} */ (tag), attrs || {}, ...children);  // a component: its props as given
  /** @type {Attrs} */
  const props = {};
  let text = null;
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") text = value;
    else if (value === null || value === undefined || value === false) continue;
    else props[key] = value === true && !key.startsWith("on") && key !== "ref" ? (key in PROPERTIES ? true : "") : value;
  }
  const kids = children.flat(2).filter((child) => child !== null && child !== undefined && child !== false && child !== true);
  if (text !== null && text !== undefined && text !== false) kids.unshift(String(text));
  return element(tag, props, ...kids);
}

/**
 * The description `node` with the first element of `data-testid` `testid` (and of `data-option` `option`, when
 * given) marked as the one thing to do now: `data-todo="true"` and the class `cls` (theme.css's pulse).  Marked in
 * the description, so that no code edits a node after the paint and the next description takes the mark away.
 * Only the path down to that element is described anew: every other part is the same object as before, which
 * preact skips, and nothing inside an <svg> or a component is looked into.
 * @param {any} node
 * @param {string|null|undefined} testid
 * @param {string|number|null} [option]
 * @param {string} [cls]
 * @returns {any}
 */
export function markTodo(node, testid, option = null, cls = "todo") {
  if (!testid) return node;
  let found = false;
  /** @param {any} n @returns {any} */
  const walk = (n) => {
    if (found) return n;
    if (Array.isArray(n)) {
      const out = n.map(walk);
      return out.some((child, i) => child !== n[i]) ? out : n;
    }
    if (!n || typeof n !== "object" || !n.props || typeof n.type !== "string" || n.type === "svg") return n;
    const props = n.props;
    if (props["data-testid"] === testid && (option === null || String(props["data-option"]) === String(option))) {
      found = true;
      return cloneElement(n, { class: `${props.class || ""} ${cls}`.trim(), "data-todo": "true" });
    }
    const kids = props.children;
    if (kids === undefined || kids === null) return n;
    const marked = walk(kids);
    return marked === kids ? n : cloneElement(n, null, ...(Array.isArray(marked) ? marked : [marked]));
  };
  return walk(node);
}

// Attributes whose `true` is a DOM property (preact sets these as properties): the rest are written as "".
const PROPERTIES = { checked: 1, disabled: 1, selected: 1, hidden: 1, open: 1, multiple: 1, readOnly: 1, required: 1, autofocus: 1 };

/** `h` for SVG elements (the same function: the namespace comes from the enclosing <svg>). */
export const s = h;

/**
 * The drawing function of one widget root: `paint(description)` makes the root's children match it.
 * @param {Element} root
 * @returns {(description: any) => void}
 */
export function mount(root) {
  return (description) => preactRender(description, root);
}

// -- Pictures drawn by Python --------------------------------------------------------------------------------

/** @type {Map<string, any>} */
const parsed = new Map();
// The sheets a page has shown lately, kept by last use (parsing is the costly part of a new sheet).
const PARSED_KEEP = 24;
// The parts of those sheets by their markup: a part that a new sheet repeats (a caterpillar whose boxes did
// not change) is the same description as before, which preact then skips without comparing it.
/** @type {Map<string, any>} */
const parts = new Map();
const PARTS_KEEP = 4000;

/**
 * @param {Node} node
 * @returns {any}
 */
function describe(node) {
  if (node.nodeType === 3) return node.nodeValue;
  if (node.nodeType !== 1) return null;
  const el = /** @type {Element} */ (node);
  const whole = el.childElementCount ? el.outerHTML : null;
  const known = whole === null ? undefined : parts.get(whole);
  if (known) return known;
  /** @type {Attrs} */
  const attrs = {};
  for (const attr of Array.from(el.attributes)) {
    if (attr.name !== "xmlns" && !attr.name.startsWith("xmlns:")) attrs[attr.name] = attr.value;
  }
  const made = element(el.localName, attrs, ...Array.from(el.childNodes).map(describe).filter((child) => child !== null));
  if (whole !== null) {
    if (parts.size >= PARTS_KEEP) parts.clear();
    parts.set(whole, made);
  }
  return made;
}

/**
 * Python's SVG markup (the scoresheet; every text in it escaped by Python) as a description, so that
 * a new sheet changes only the boxes that differ and each box keeps its node (a press, the focus, a motion).
 * The markup is parsed once per distinct text.
 * @param {string} svgText
 * @returns {any[]}
 */
export function markup(svgText) {
  const text = String(svgText || "");
  let found = parsed.get(text);
  if (found) {
    parsed.delete(text); // used again: the newest, the last to be forgotten
    parsed.set(text, found);
  } else {
    const template = document.createElement("template");
    // ours: a <template> that parses the markup, never on the page
    template.innerHTML = text;
    found = Array.from(template.content.childNodes).map(describe).filter((child) => child !== null);
    if (parsed.size >= PARSED_KEEP) parsed.delete(/** @type {string} */ (parsed.keys().next().value));
    parsed.set(text, found);
  }
  return found;
}

/**
 * A picture drawn by Python (SVG markup: a card, a chart, a QR code) in a <span>.  The span keeps its node
 * (a card can move), and its picture is set again only when the text changed: a picture whose parts nobody
 * presses is parsed by the browser itself, which costs less script than describing it (the scoresheet, whose
 * boxes are pressed, is drawn by `markup` instead).
 * @param {string} svgText
 * @param {string} cls
 * @param {boolean} [hidden]  hidden from screen readers (the words beside it say the same)
 * @param {Attrs} [attrs]
 */
export function picture(svgText, cls, hidden = true, attrs = {}) {
  return h("span", { class: cls, "aria-hidden": hidden ? "true" : null, ...attrs,
    dangerouslySetInnerHTML: { __html: String(svgText || "") } });
}

// -- Icons, the voice's buttons, the settings ---------------------------------------------------------------

/**
 * A small picture for a button or a mark, hidden from screen readers (the button has the name).
 * @param {string} name  one of shared.js's ICONS
 * @param {string} [cls]
 */
export function icon(name, cls = "learn-icon") {
  return h("svg", { class: cls, viewBox: "0 0 24 24", width: 24, height: 24, fill: "currentColor",
    "aria-hidden": "true", focusable: "false", "data-icon": name,
    dangerouslySetInnerHTML: { __html: ICONS[name] || "" } });
}

/**
 * A "read aloud" button that speaks `text` (or what a function returns at the tap) with the browser's own
 * speech, in `lang`; where the browser has no voice, a short notice instead.  While the page's voice is on,
 * the same text is read by itself when it appears.
 * @param {string|(() => string)} textOrFn
 * @param {string|(() => string)} lang
 * @param {Object<string, any>} [words]
 * @param {Attrs} [attrs]  more attributes for the outer <span> (a `key`)
 * @param {string} [heard]  what the voice reads by itself, when that is less than the button reads ("": nothing)
 */
export function speaker(textOrFn, lang, words = {}, attrs = {}, heard = undefined) {
  const { key, ...outer } = attrs;
  return element(Speaker, { key, textOrFn, lang, words, outer, heard });
}

/**
 * The read-aloud button (see `speaker`), with its notice as its own state.  Its node registers its text with
 * the root's voice once for the text it was given: a parent that keeps the same description keeps it quiet.
 * @param {{textOrFn: string|(() => string), lang: string|(() => string), words: Object<string, any>, outer: Attrs,
 *   heard: string|undefined}} props
 */
function Speaker({ textOrFn, lang, words, outer, heard }) {
  const [notice, setNotice] = useState("");
  const read = () => String((typeof textOrFn === "function" ? textOrFn() : textOrFn) || "").trim();
  const language = () => (typeof lang === "function" ? lang() : lang) || "en";
  const wire = useMemo(() => (/** @type {any} */ node) => {
    if (!node) return;
    node.learnSpeech = { text: heard === undefined ? read : () => heard.trim(), lang: language, words };
    queueMicrotask(() => listen(node, words));
  }, [textOrFn, lang, words, heard]);
  const say = async () => {
    const spoken = forEar(read(), words);
    const synth = window.speechSynthesis;
    setNotice("");
    if (!spoken) return;
    if (!synth || typeof window.SpeechSynthesisUtterance !== "function" || !(await voicesReady(synth))) {
      setNotice(words.no_voice || "This browser has no voice to read aloud.");
      return;
    }
    sayNow(spoken, language());
  };
  return h("span", { class: "learn-speaker", ...outer },
    h("button", { class: "learn-speak", type: "button", "data-testid": "read-aloud",
      "aria-label": words.read_aloud || "Read aloud", title: words.read_aloud || "Read aloud", onclick: say, ref: wire },
    icon("speaker")),
    h("span", { class: "learn-no-voice", role: "status", "data-testid": "no-voice", text: notice }));
}

// Every switch of the page (each widget's, whichever bundle drew it) draws again when one of them is pressed.
const SETTINGS_EVENT = "caterpillar-learn:settings";

/** Draw the component again whenever a switch of the page changes a setting. */
function useSettings() {
  const [, redraw] = useState(0);
  useEffect(() => {
    const changed = () => redraw((n) => n + 1);
    window.addEventListener(SETTINGS_EVENT, changed);
    return () => window.removeEventListener(SETTINGS_EVENT, changed);
  }, []);
}

/**
 * The page's voice switch (role="switch"): on, each new text is read aloud by itself.  The choice holds for
 * the page and survives a reload.  Both icons are drawn; the CSS shows the one that fits aria-checked.
 * @param {{words: Object<string, any>}} props
 */
function VoiceSwitch({ words }) {
  useSettings();
  const label = words.voice_switch || "Read aloud by itself";
  /** @param {MouseEvent} event */
  const flip = (event) => {
    const now = !voiceOn(words);
    remember(now);
    window.dispatchEvent(new Event(SETTINGS_EVENT));
    const root = /** @type {HTMLElement} */ (event.currentTarget).closest(ROOTS);
    const voice = root ? voices.get(root) : null;
    if (!now) hush();
    else if (voice) voice.restart();
  };
  const wire = useMemo(() => (/** @type {any} */ node) => { if (node) queueMicrotask(() => listen(node, words)); }, [words]);
  return h("button", { class: "learn-voice-switch", type: "button", role: "switch", "data-testid": "voice-switch",
    "aria-checked": String(voiceOn(words)), title: label, onclick: flip, ref: wire },
  icon("speaker", "learn-icon learn-icon-on"), icon("mute", "learn-icon learn-icon-off"),
  h("span", { class: "learn-voice-label", text: label }));
}

/**
 * The sound switch (role switch, aria-checked), beside the voice switch; every sound switch on the page follows
 * the one pressed.
 * @param {{words: Object<string, any>}} props
 */
function SoundSwitch({ words }) {
  useSettings();
  const label = words.sound_switch || "Sounds";
  const flip = () => {
    const now = !soundOn();
    rememberSound(now);
    window.dispatchEvent(new Event(SETTINGS_EVENT));
    if (now) sound("place");
  };
  return h("button", { class: "learn-voice-switch learn-sound-switch", type: "button", role: "switch",
    "data-testid": "sound-switch", "aria-checked": String(soundOn()), title: label, onclick: flip },
  icon("note", "learn-icon learn-icon-on"), icon("note-off", "learn-icon learn-icon-off"),
  h("span", { class: "learn-voice-label", text: label }));
}

/**
 * The learner's page settings: the voice switch, the sound switch (sound.js), and the choice of language (`languages` from Python, each
 * named in itself; no menu while the catalogue has only one).
 * @param {Array<{code: string, name: string}>|null|undefined} languages
 * @param {string} lang
 * @param {Object<string, any>} words
 * @param {(type: string, fields?: Object<string, any>) => void} send
 */
export function languageSwitch(languages, lang, words, send) {
  const voice = [element(VoiceSwitch, { key: "voice-switch", words }), words.sound_switch ? element(SoundSwitch, { key: "sound-switch", words }) : null];
  if (!languages || languages.length < 2) return h("div", { class: "learn-settings" }, voice);
  /** @param {Event} event */
  const choose = (event) => send("language", { value: /** @type {HTMLSelectElement} */ (event.target).value });
  const select = h("select", { "data-testid": "language", value: lang, onchange: choose },
    languages.map((choice) => h("option", { key: choice.code, value: choice.code, lang: choice.code, text: choice.name })));
  return h("div", { class: "learn-settings" }, voice, h("label", { class: "learn-language" },
    h("span", { class: "learn-sr", text: words.language || "Language" }), select));
}

/**
 * A lesson's card from the gallery (caterpillar_learn/lessons/gallery.py, Card.to_json): the title, the age,
 * the one line and the picture.  A card to look at, not a link: the page that knows the address draws that.
 * @param {{name: string, game: string, language: string, title: string, age_text: string, learns: string,
 *   picture: string, picture_url?: string, picture_label: string}} card
 */
export function lessonCard(card) {
  const id = `lesson-${card.name}`;
  return h("div", { class: `lesson-card lesson-${card.game}`, role: "group", "aria-labelledby": `${id}-title`,
    "data-testid": "lesson-card", "data-lesson": card.name, "data-game": card.game, lang: card.language },
  h("span", { class: "lesson-title", id: `${id}-title`, text: card.title }), " ",
  h("span", { class: "lesson-about" }, h("span", { class: "lesson-age", text: card.age_text }), " ",
    h("span", { class: "lesson-learns", text: card.learns })), " ",
  card.picture_url
    ? h("span", { class: "lesson-picture" }, h("img", { src: card.picture_url, alt: card.picture_label }))
    : picture(card.picture, "lesson-picture", false));
}
