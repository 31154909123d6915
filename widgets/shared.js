// What every widget's front end shares besides drawing (that is draw.js): the one way to send an event, the
// redraw wiring, the words a page writes itself, and the page's voice.  Each widget imports what it uses
// (caterpillar_learn/ui/assets.py links the files into one module).
// No rules here and no network: the browser only draws traits and sends events.

import { keep, recall } from "./page.js";

// Fill a catalogue template's {placeholders}; unknown ones stay as they are.
export function fill(template, values) {
  return String(template || "").replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

// decimal(24.5, 1, strings): a number the page writes itself, with the language's decimal mark ("24,5" in German;
// the mark is Babel's, sent by Python as `strings.decimal_mark`).
export function decimal(value, digits, words = {}) {
  const written = Number(value).toFixed(digits);
  return words.decimal_mark && words.decimal_mark !== "." ? written.replace(".", words.decimal_mark) : written;
}

// send("roll", {...}): one write of the `event` trait.  model.send does not
// reach Python on Panel, so events travel as trait changes; `seq` makes each
// event differ from the one before, so a repeated action still counts.
// One event is on its way at a time.  While a message is on its way,
// ipywidgets keeps only the newest write of a trait, so a second write would
// replace the first: on a slow kernel, three quick taps became two.  So the
// sender writes an event only once Python has answered the one before
// (`handled`, the seq of the last event Python played, refused ones too, has
// caught up), and keeps the learner's later events in order until then.  The
// clock's `tick`s, sent by the page itself, are never kept: `send` gives
// false for a tick it did not write, and the time goes with a later tick.  An
// answer that has not come in PATIENCE_MS is given up, so a page whose kernel
// is gone still sends.  Given the widget's `root`, the page says while it
// waits: from an event the learner caused until its answer, `root` carries
// aria-busy="true", so a screen reader waits for the answer (and a test knows
// when to look); a tick never makes it busy.  `send.stop()` is the clean-up.
const QUIET_EVENTS = new Set(["tick"]);
/** How long the page waits for an answer before it sends the next event anyway (ms). */
export const PATIENCE_MS = 3000;

export function sender(model, root = null) {
  let seq = 0;
  let sent = 0; // the seq of the last event written
  let loud = 0; // the seq of the last event the learner caused that was written
  let since = 0; // when that write happened (performance.now())
  const kept = []; // the learner's events waiting for their turn, oldest first
  let timer = null;
  const handled = () => Number(model.get("handled") || 0);
  const answered = () => sent <= handled() || performance.now() - since >= PATIENCE_MS;
  const mark = () => {
    if (!root) return;
    // ours: aria-busy on a widget's own root (never one preact drew)
    if (kept.length || loud > handled()) root.setAttribute("aria-busy", "true");
    else root.removeAttribute("aria-busy");
  };
  const write = (event) => {
    sent = event.seq;
    since = performance.now();
    if (!QUIET_EVENTS.has(event.type)) loud = event.seq;
    model.set("event", event);
    model.save_changes();
  };
  const next = () => {
    clearTimeout(timer);
    timer = null;
    if (kept.length && answered()) write(/** @type {any} */ (kept.shift()));
    if (kept.length) timer = setTimeout(next, PATIENCE_MS);
    mark();
  };
  model.on("change:handled", next);
  const send = (type, fields = {}) => {
    seq += 1;
    const event = { ...fields, type, seq: Date.now() * 1000 + seq };
    if (QUIET_EVENTS.has(type)) {
      if (kept.length || !answered()) return false;
      write(event);
      return true;
    }
    kept.push(event);
    next();
    return true;
  };
  send.stop = () => {
    clearTimeout(timer);
    model.off("change:handled", next);
  };
  send.busy = () => kept.length > 0 || loud > handled();
  return send;
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
// How long the page stays still before its voice reads what is new (a redraw comes in bursts).
const VOICE_SETTLE_MS = 250;

export function voicesReady(synth) {
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

// -- Icons: inline SVG (no emoji font, no network), drawn in the text's colour -------------------------------

export const ICONS = {
  speaker: '<path d="M3 9h4l5-4v14l-5-4H3z"/>'
    + '<path d="M15.5 8.8a4.5 4.5 0 0 1 0 6.4M18.2 6.2a8.2 8.2 0 0 1 0 11.6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  mute: '<path d="M3 9h4l5-4v14l-5-4H3z"/>'
    + '<path d="M16 9l5 6M21 9l-5 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  note: '<path d="M9 17.5V5l11-2v12.5" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>'
    + '<circle cx="6.5" cy="17.5" r="2.8"/><circle cx="17.5" cy="15.5" r="2.8"/>',
  "note-off": '<path d="M9 17.5V5l11-2v12.5" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>'
    + '<circle cx="6.5" cy="17.5" r="2.8"/><circle cx="17.5" cy="15.5" r="2.8"/>'
    + '<path d="M3 3l18 18" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
  // A raised open hand: "wait" (four fingers, a thumb, the palm).
  wait: '<rect x="6" y="4" width="2.6" height="10" rx="1.3"/><rect x="9.4" y="2.5" width="2.6" height="11" rx="1.3"/>'
    + '<rect x="12.8" y="3" width="2.6" height="11" rx="1.3"/><rect x="16.2" y="5" width="2.6" height="9" rx="1.3"/>'
    + '<path d="M6 12h12.8v3.5a6.4 6.4 0 0 1-6.4 6.4h0A6.4 6.4 0 0 1 6 15.5z"/>'
    + '<path d="M6.5 15.5L3.6 11.8a1.5 1.5 0 0 1 2.3-1.9L8 12.4" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
  tick: '<path d="M4 12.5l5 5L20 6.5" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>',
  cross: '<path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round"/>',
  turn: '<path d="M19 12a7 7 0 1 1-2.1-5" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>'
    + '<path d="M20 3v6h-6z"/>',
  butterfly: '<path d="M12 7c-2-4-9-5-9 0 0 3 3 5 8 5-5 0-7 3-6 6s5 1 7-4c2 5 6 7 7 4s-1-6-6-6c5 0 8-2 8-5 0-5-7-4-9 0z"/>'
    + '<path d="M12 6v13" stroke="currentColor" stroke-width="1.5"/>',
  palette: '<path d="M12 3a9 9 0 1 0 0 18c1.4 0 2-1 1.6-2.1-.5-1.3.4-2.4 1.8-2.4H18a3 3 0 0 0 3-3c0-5.5-4-10.5-9-10.5z"/>'
    + '<circle cx="7.5" cy="11" r="1.6" fill="#fff"/><circle cx="10.5" cy="7" r="1.6" fill="#fff"/>'
    + '<circle cx="15" cy="7.5" r="1.6" fill="#fff"/>',
  warning: '<path d="M12 2.5L1.5 21h21z"/><path d="M12 9v6M12 17.5v1" stroke="#fff" stroke-width="2.2" stroke-linecap="round"/>',
};

// -- Speech written for the ear ------------------------------------------------------------------------------
// Python sends, in `strings.speech`, the catalogue's spoken twins (shown template, spoken template) and the
// symbols said as words (caterpillar_learn/ui/voice.py); forEar applies them to what the page shows.

const heard = new Map();

function escapeRegExp(literal) {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compileTwin([shown, said]) {
  const names = [];
  const parts = String(shown).split(/\{(\w+)(?:[:!][^}]*)?\}/);
  let literal = 0;
  const source = parts.map((part, i) => {
    if (i % 2 === 0) { literal += part.trim().length; return escapeRegExp(part); }
    names.push(part);
    return i === parts.length - 2 && parts[parts.length - 1] === "" ? "(.+)" : "(.+?)";
  }).join("");
  if (literal < 6) return null; // a template of placeholders alone would match anything
  return { re: new RegExp(source, "g"), names, said: String(said) };
}

function speechTable(words) {
  const key = (words && words.speech) || "";
  if (!heard.has(key)) {
    let table = {};
    try { table = key ? JSON.parse(key) : {}; } catch (error) { table = {}; }
    const twins = (table.twins || []).map(compileTwin).filter(Boolean)
      .sort((a, b) => b.re.source.length - a.re.source.length);
    heard.set(key, { twins, ear: table.ear || [], decimal: table.decimal || "." });
  }
  return heard.get(key);
}

// forEar(shown, words): `shown` as the voice says it (the spoken twin of a message, symbols as words).
export function forEar(shown, words = {}) {
  const table = speechTable(words);
  let said = String(shown || "");
  for (const twin of table.twins) {
    said = said.replace(twin.re, (...match) => {
      const values = {};
      twin.names.forEach((name, i) => { if (!(name in values)) values[name] = match[i + 1]; });
      return fill(twin.said, values);
    });
  }
  if (table.decimal !== ".") said = said.replace(/(?<![\d.,])(\d+)\.(\d+)(?![\d.,])/g, `$1${table.decimal}$2`);
  for (const [symbol, word] of table.ear) said = said.split(symbol).join(word ? ` ${word} ` : " ");
  said = said.replace(/\(\s*\)/g, " ");
  return said.split("\n").map((line) => line.replace(/\s+/g, " ").replace(/\s+([.,:;!?)])/g, "$1").trim())
    .filter(Boolean).join("\n");
}

// -- The voice: reads each new text aloud by itself (PhET's Voicing) ------------------------------------------
// Every speaker button (and every element marked data-speak, such as the line saying what to do now) registers
// its text; a voice per widget root watches the root and, once a redraw settles, speaks the lines that were not
// on the page before.  On by default where Python says so (`strings.voice_default`), and the learner's switch
// wins; the page remembers the choice in localStorage.

export const ROOTS = ".cl-root, .rr-root, .lab-root";
export const voices = new WeakMap();
function voiceKey() {
  return "caterpillar-learn.voice:" + (window.location ? window.location.pathname : "");
}

function remembered() {
  return recall(voiceKey());
}

export function remember(on) {
  keep(voiceKey(), on ? "on" : "off");
}

// Whether the page reads aloud by itself now: the learner's choice, or this widget's default.
export function voiceOn(words = {}) {
  const chosen = remembered();
  return chosen ? chosen === "on" : words.voice_default === "on";
}

export function utter(synth, spoken, lang) {
  const utterance = new window.SpeechSynthesisUtterance(spoken);
  utterance.lang = lang || "en";  // ours: an utterance, not a node
  synth.speak(utterance);
  return utterance;
}

// -- One utterance at a time ----------------------------------------------------------------------------------
// The page's voice reads one utterance at a time (issue 40: each new text used to cut off the last mid-word).
// A new text waits for the one being read to end; a text still waiting when it is no longer on the page is
// stale and is dropped, so a fast game (bots) never leaves a backlog of old news.  A speaker press is the
// learner's own request: it stops the line and is read at once.

/** How long an utterance may take before the line moves on without its `end` (some engines drop it): ms. */
const LONGEST_MS = (text) => 2500 + 450 * String(text).split(/\s+/).length;

const line = {
  /** @type {any} */ current: null,
  /** @type {{text: string, lang: string, fresh: () => boolean}[]} */ waiting: [],
  /** @type {any} */ timer: null,
};

function nextInLine() {
  clearTimeout(line.timer);
  line.current = null;
  const synth = window.speechSynthesis;
  let item = line.waiting.shift();
  while (item && !item.fresh()) item = line.waiting.shift(); // stale: no longer on the page
  if (!item || !synth) return;
  const utterance = utter(synth, item.text, item.lang);
  line.current = utterance;
  const ended = () => { if (line.current === utterance) nextInLine(); };
  utterance.onend = ended;
  utterance.onerror = ended;
  line.timer = setTimeout(ended, LONGEST_MS(item.text));
}

/**
 * Read these texts after whatever is being read now, in order; each is read only if `fresh()` still holds when
 * its turn comes.
 * @param {{text: string, lang: string, fresh: () => boolean}[]} items
 */
export function sayInTurn(items) {
  line.waiting.push(...items);
  if (!line.current) nextInLine();
}

/** Stop the voice and forget what was waiting (the switch turned off, or a speaker pressed). */
export function hush() {
  line.waiting = [];
  line.current = null;
  clearTimeout(line.timer);
  window.speechSynthesis?.cancel?.();
}

/** Read this now, whatever was being read (a speaker press). */
export function sayNow(text, lang) {
  hush();
  sayInTurn([{ text, lang, fresh: () => true }]);
}

// Whether a node is on the page for the eye: laid out, visible, and not inside a closed <details> (its summary aside).
function shown(node) {
  const folded = node.closest("details:not([open])");
  if (folded && !node.closest("summary")) return false;
  if (typeof node.checkVisibility === "function") return node.checkVisibility({ visibilityProperty: true });
  return node.getClientRects().length > 0;
}

function textsOf(root) {
  const found = [];
  for (const node of root.querySelectorAll(".learn-speak, [data-speak]")) {
    if (!shown(node)) continue; // folded away or hidden: not on the page for the eye either
    const speech = node.learnSpeech;
    const raw = speech ? speech.text() : node.textContent;
    const lang = speech ? speech.lang() : root.getAttribute("lang");
    const lines = String(raw || "").split("\n").map((line) => line.trim()).filter(Boolean);
    if (lines.length) found.push({ lines, lang: lang || root.getAttribute("lang") || "en", words: speech ? speech.words : null });
  }
  return found;
}

// A line gone from the page and back within this time is the same line drawn again (a slow page shows an
// older view for a moment between two of Python's answers: a game's end lines after New game), not news: ms.
const RETURN_MS = 3000;

class Voice {
  constructor(root, words) {
    this.root = root;
    this.words = words;
    this.before = new Set();
    /** @type {Map<string, number>} lines no longer on the page, and when the voice last found them gone */
    this.gone = new Map();
    this.timer = null;
    this.observer = new MutationObserver(() => this.soon());
    this.observer.observe(root, { childList: true, subtree: true, characterData: true, attributes: true,
      attributeFilter: ["open", "hidden", "class"] });
    this.soon();
  }

  soon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.read(), VOICE_SETTLE_MS);
  }

  // Forget what was read (the switch was turned on: read the page as it is now).
  restart() {
    this.before = new Set();
    this.gone = new Map();
    this.soon();
  }

  async read() {
    if (!this.root.isConnected) { this.observer.disconnect(); return; }
    const texts = textsOf(this.root);
    const now = performance.now();
    const present = new Set(texts.flatMap((item) => item.lines));
    for (const line of this.before) if (!present.has(line)) this.gone.set(line, now);
    for (const [line, at] of this.gone) if (now - at > RETURN_MS) this.gone.delete(line);
    const fresh = [];
    for (const item of texts) {
      const lines = item.lines.filter((line) => !this.before.has(line) && !this.gone.has(line));
      if (lines.length) fresh.push({ ...item, lines });
    }
    for (const line of present) this.gone.delete(line);
    this.before = present;
    const synth = window.speechSynthesis;
    if (!fresh.length || !voiceOn(this.words) || !synth || typeof window.SpeechSynthesisUtterance !== "function") return;
    if (!(await voicesReady(synth))) return; // no voice: the speaker buttons say so when pressed
    const root = this.root;
    const items = [];
    for (const item of fresh) {
      const spoken = forEar(item.lines.join("\n"), item.words || this.words);
      const onPage = () => {
        const now = new Set(textsOf(root).flatMap((shownNow) => shownNow.lines));
        return item.lines.some((text) => now.has(text));
      };
      if (spoken) items.push({ text: spoken, lang: item.lang, fresh: () => root.isConnected && voiceOn(this.words) && onPage() });
    }
    sayInTurn(items);
  }
}

export function listen(node, words, tries = 2) {
  const root = node.isConnected && node.closest ? node.closest(ROOTS) : null;
  if (!root) {
    if (tries > 0) requestAnimationFrame(() => listen(node, words, tries - 1));
    return;
  }
  const voice = voices.get(root);
  if (voice) { voice.words = words; voice.soon(); } else voices.set(root, new Voice(root, words));
}
