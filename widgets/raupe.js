// Räuber Raupe front end.  Draws the view traits (`table`, `hand`, `log`,
// `message`, `strings`, `lang`); every learner action (and every clock tick)
// is one event.  No rules here: Python judges every card and draws it
// (caterpillar_learn/raupe/svg.py).

import { drawQuestion, keepNickname, saveLink } from "./question.js";
import { drawResumeNote, keepSave } from "./resume.js";
import { h, icon, isShortcut, languageSwitch, picture, sender, speaker, watch } from "./shared.js";

// The trait payloads, one @typedef each; their Python twins are the TypedDicts
// of caterpillar_learn/ui/raupe/views.py (a test keeps the two alike).

/**
 * @typedef {Object} TableView
 * @property {string} mode
 * @property {string} mode_text
 * @property {{svg: string, size: number, label: string, below: string, show_below: boolean}} pile  below: the card
 *   under the top ("" if none or the lesson does not show it)
 * @property {Array<{seat: number, name: string, cards: number}>} opponents
 * @property {boolean} referee
 * @property {{aphid: boolean, mode: string|null}} armed
 * @property {boolean} can_call
 * @property {boolean} follow_up
 * @property {boolean} started
 * @property {boolean} running
 * @property {boolean} paused
 * @property {boolean} finished
 * @property {string} winner
 * @property {boolean} you_won
 * @property {string} hint
 * @property {string} score
 * @property {{show: boolean, speed: number, speed_text: string, level: string, levels: Array<{value: string, label: string}>}} controls
 *   show: the bot level too (the speed slider is always there)
 * @property {Object} record  the game as the engine saves it
 * @property {string[]} calls  the calls the lesson has taught (only these are shown)
 * @property {string} todo  the one thing to do now: "question", "check", "start", "pause", "card:i", "flip:i", "call:word", "hand"
 * @property {string} now  what to do now, in one short line
 * @property {{step: number, count: number, label: string}} progress
 * @property {string} hand_title
 */
/**
 * @typedef {Object} HandCard
 * @property {number} index
 * @property {number} side
 * @property {string} kind  "caterpillar", "change" or "butterfly"
 * @property {string} svg
 * @property {boolean} [fits]
 * @property {boolean} [other_fits]
 * @property {string} label
 * @property {boolean} [answer]  an option of "Which of your cards fit?" while it waits for its check
 * @property {boolean} [chosen]
 */
/**
 * @typedef {Object} LessonText  the lesson's words around the table ({} for a table that is no lesson)
 * @property {string} [title]
 * @property {string[]} [intro]  short items above the table, each read aloud on its own
 * @property {string} [try_title]
 * @property {string[]} [try_items]  "try this", below the table
 */


const TICK_MS = 250;
const KEYS = {
  s: ["shout", "shape"], c: ["shout", "colour"], a: ["shout", "aphid"], m: ["mistake", null], p: ["pause", null],
};
// Each button's key, shown on the button on an English page with a keyboard (none on a touch screen, none in German).
const KEY_OF = { shape: "s", colour: "c", aphid: "a", mistake: "m", pause: "p" };
const touch = () => window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
const keyed = (button, name, key, lang) => button.replaceChildren(name,
  key && lang === "en" && !touch() ? h("kbd", { class: "rr-key", "aria-hidden": "true" }, key) : "");

const art = (markup) => picture(markup, "rr-art");
let widgets = 0;  // numbers the ids of each table's headings (a page may show several tables)
// A card's height per width (the picture is 100 × 150) plus its border and padding, and the flip row below it.
const CARD_RATIO = 1.5;
const CARD_EXTRA = 12;
const FLIP_ROW = 50;

// One short text with its read-aloud button, in `tag` (a paragraph of the intro, an item of "try this").
const spoken = (tag, item, lang, words) => h(tag, { class: "rr-said-item" }, speaker(item, lang, words), h("span", {}, item));

/** "How to play": the lesson's rules and its "try this", folded in one panel. @param {LessonText} lesson */
function drawLesson(lesson, title, rules, lang, words) {
  title.textContent = lesson.title || "";
  rules.hidden = !(lesson.intro && lesson.intro.length);
  rules.body.replaceChildren(...(lesson.intro || []).map((item) => spoken("p", item, lang, words)),
    lesson.try_items && lesson.try_items.length ? h("h3", { class: "rr-heading" }, lesson.try_title || "") : "",
    h("ul", { class: "rr-try-items" }, ...(lesson.try_items || []).map((item) => spoken("li", item, lang, words))));
}

// The largest card width (px) with which `count` cards fit `width` × `height`, wrapping into rows.
function cardWidth(count, width, height, gap, most, least) {
  let best = least;
  for (let columns = 1; columns <= Math.max(count, 1); columns += 1) {
    const rows = Math.ceil(Math.max(count, 1) / columns);
    const across = Math.floor((width - gap * (columns - 1)) / columns);
    const down = Math.floor(((height - gap * (rows - 1)) / rows - CARD_EXTRA - FLIP_ROW) / CARD_RATIO);
    best = Math.max(best, Math.min(across, down, most));
  }
  return best;
}

function render({ model, el }) {
  const root = h("div", { class: "rr-root" });
  el.appendChild(root);
  const drawn = {};
  const send = sender(model, root); // aria-busy on root while Python answers
  const str = (key) => (model.get("strings") || {})[key] || key;
  widgets += 1;
  // What the learner saw: the pile's size and when it last changed (sent with each card and call).
  let pileSeenAt = performance.now();
  const seen = () => ({ seen: Number(pile.dataset.size || 0),
    since: Math.round((performance.now() - pileSeenAt)) / 1000 });

  const title = h("h2", { class: "rr-title", id: `rr-title-${widgets}` });
  const progress = h("div", { class: "rr-progress", role: "progressbar", "data-testid": "lesson-progress",
    "aria-valuemin": 1 });
  const now = h("p", { class: "rr-now", "data-testid": "raupe-now", "aria-live": "polite" });
  const nowVoice = h("span", { class: "rr-voice" });
  const head = h("div", { class: "rr-head" }, title, progress, h("div", { class: "rr-said rr-now-box" }, now, nowVoice));

  const rulesSummary = h("summary", { class: "rr-button rr-rules-summary", "data-testid": "raupe-how-to-play" });
  const rulesBody = h("div", { class: "rr-rules-body", "data-testid": "lesson-intro", role: "region",
    "aria-labelledby": `rr-rules-${widgets}` });
  const rules = h("details", { class: "rr-rules" }, rulesSummary, rulesBody);
  rules.body = rulesBody;
  rulesSummary.id = `rr-rules-${widgets}`;

  const modeText = h("span", { class: "rr-mode", "data-testid": "raupe-mode" });
  const start = h("button", { class: "rr-button rr-start", "data-testid": "raupe-start", onclick: () => {
    send("start");
    root.scrollIntoView({ block: "start" });
  } });
  // A toggle button: its name stays "Pause" and aria-pressed says whether the game is paused.
  const pause = h("button", { class: "rr-button rr-pause", "data-testid": "raupe-pause", "aria-pressed": "false",
    "aria-keyshortcuts": KEY_OF.pause,
    onclick: () => send("pause") });
  const controls = h("div", { class: "rr-controls" });
  const languageBox = h("span", { class: "rr-language" });
  const bar = h("div", { class: "rr-bar" }, h("div", { class: "rr-banner", role: "status" }, modeText), start, pause,
    controls, rules, languageBox);
  const opponents = h("ul", { class: "rr-opponents", "data-testid": "raupe-opponents" });
  const pile = h("div", { class: "rr-pile", "data-testid": "raupe-pile", role: "img" });
  const below = h("div", { class: "rr-below", "data-testid": "raupe-below", "aria-hidden": "true" });
  const message = h("p", { class: "rr-message", "data-testid": "raupe-message", "aria-live": "polite" });
  const messageVoice = h("span", { class: "rr-voice" });
  const log = h("ul", { class: "rr-log" });
  const score = h("p", { class: "rr-score" });
  const calls = h("div", { class: "rr-calls", role: "group", "data-testid": "raupe-calls" });
  const callButtons = {};
  for (const [id, type, word] of [["shape", "shout", "shape"], ["colour", "shout", "colour"],
    ["aphid", "shout", "aphid"], ["mistake", "mistake", null]]) {
    callButtons[id] = h("button", { class: `rr-button rr-call rr-call-${id}`, "data-testid": `raupe-call-${id}`,
      "aria-keyshortcuts": KEY_OF[id], onclick: () => send(type, word ? { word } : { ...seen() }) });
    calls.append(callButtons[id]);
  }
  const hint = h("p", { class: "rr-hint" });
  const question = h("div", { class: "rr-question" });
  const save = h("div", { class: "rr-save" });
  const resumed = h("div", { class: "rr-resume" });
  const handTitle = h("h3", { class: "rr-heading rr-hand-title" });
  const cardsBox = h("div", { class: "rr-cards" });
  const hand = h("div", { class: "rr-hand", "data-testid": "raupe-hand", role: "group" }, handTitle, cardsBox);
  const end = h("div", { class: "rr-end" });
  const keys = h("p", { class: "rr-keys" });
  const record = h("pre", { "data-testid": "raupe-record" });
  const recordBox = h("details", { class: "rr-record" }, h("summary", {}), record);
  // Left: the pile (and the card below it) over the calls; right: what happens, then the whole hand.
  root.append(head, resumed, question, bar,
    h("div", { class: "rr-table" },
      h("div", { class: "rr-left" }, h("div", { class: "rr-pile-box" }, below, pile), calls),
      h("div", { class: "rr-right" },
        h("div", { class: "rr-talk" }, opponents, h("div", { class: "rr-said" }, message, messageVoice), log, hint),
        hand, end, score)),
    keys, recordBox, save);

  function changed(name, value) {
    const json = JSON.stringify(value);
    if (drawn[name] === json) return false;
    drawn[name] = json;
    return true;
  }

  function drawControls(t) {
    const c = t.controls || {};
    if (!changed("controls", c)) return;
    const focused = controls.contains(document.activeElement) ? document.activeElement.id : null;
    const speed = h("input", { type: "range", min: 0.25, max: 2.5, step: 0.05, value: c.speed, "data-testid": "raupe-speed",
      id: `rr-speed-${widgets}`, "aria-valuetext": c.speed_text,
      onchange: (e) => send("speed", { value: Number(e.target.value) }) });
    const parts = [h("label", { class: "rr-speed", for: speed.id }, h("span", {}, `${str("speed")} ${c.speed_text || ""}`),
      h("span", { class: "rr-speed-scale" }, h("span", { "aria-hidden": "true" }, str("slow")), speed,
        h("span", { "aria-hidden": "true" }, str("fast"))))];
    if (c.show) {
      const level = h("select", { "data-testid": "raupe-level", id: `rr-level-${widgets}`,
        onchange: (e) => send("level", { value: e.target.value }) },
        ...c.levels.map((item) => h("option", { value: item.value, selected: item.value === c.level }, item.label)));
      parts.push(h("label", { class: "rr-level" }, `${str("level")} `, level));
    }
    controls.replaceChildren(...parts);
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  }

  let fittedTop = null;
  let fittedWidth = null;
  function refit() {
    const top = Math.round(cardsBox.getBoundingClientRect().top - root.getBoundingClientRect().top);
    if (top !== fittedTop || cardsBox.clientWidth !== fittedWidth) fitHand((model.get("hand") || []).length);
  }
  function fitHand(count) {
    fittedTop = Math.round(cardsBox.getBoundingClientRect().top - root.getBoundingClientRect().top);
    // The whole hand in view: the space left below the table, as if the table's top were the screen's.
    const rootTop = root.getBoundingClientRect().top;
    const top = cardsBox.getBoundingClientRect().top - rootTop + Math.max(rootTop, 0);
    const height = window.innerHeight - top - 24;
    const width = cardsBox.clientWidth || root.clientWidth;
    fittedWidth = cardsBox.clientWidth;
    const most = window.innerWidth >= 1400 ? 150 : 124;
    const size = cardWidth(count, width, height, 8, most, 50);
    cardsBox.style.setProperty("--rr-card", `${size}px`);
    cardsBox.classList.toggle("rr-small", size < 96);
  }

  function drawHand(cards, t) {
    if (!changed("hand", [cards, t.hand_title])) return;
    const focused = root.querySelector(".rr-card:focus");
    const at = focused ? Number(focused.dataset.index) : null;
    handTitle.textContent = t.hand_title;
    hand.setAttribute("aria-label", t.hand_title);
    const slots = [];
    for (const card of cards) {
      const badge = card.fits ? "✓" : card.other_fits ? "↻" : null;
      const button = h("button", { class: `rr-card rr-${card.kind}${card.fits ? " rr-fits" : ""}`, "data-testid": "raupe-card",
        "data-index": card.index, "data-side": card.side, "aria-label": card.label,
        "aria-pressed": card.answer ? String(Boolean(card.chosen)) : null,  // an answer's toggle: on the button itself
        onclick: () => send("play", { index: card.index, ...seen() }) }, art(card.svg),
        badge ? h("span", { class: "rr-badge", "aria-hidden": "true" }, badge) : null);
      const flip = h("button", { class: "rr-flip", "data-testid": "raupe-flip", "data-index": card.index, tabindex: -1,
        disabled: card.kind === "butterfly", "aria-label": `${str("flip")} ${card.index + 1}`,
        onclick: () => send("flip", { index: card.index }) }, "↻ ", h("span", { class: "rr-flip-word" }, str("flip")));
      slots.push(card.answer
        ? h("div", { class: `rr-slot rr-answer${card.chosen ? " learn-chosen" : ""}`, "data-testid": "answer",
          "data-option": card.index }, button, flip)
        : h("div", { class: "rr-slot" }, button, flip));
    }
    cardsBox.replaceChildren(...slots);
    fitHand(cards.length);
    if (at !== null && cards.length) {
      const target = cardsBox.querySelector(`.rr-card[data-index="${Math.min(at, cards.length - 1)}"]`);
      if (target) target.focus({ preventScroll: true });
    }
  }

  // The one thing to do now: marked data-todo="true" with the shared pulse (theme.css `.todo`).
  function markTodo(todo) {
    for (const node of root.querySelectorAll("[data-todo]")) {
      node.removeAttribute("data-todo");
      node.classList.remove("todo");
    }
    const [kind, detail] = String(todo || "").split(":");
    const node = {
      question: () => question.querySelector('[data-testid="question"]'),
      check: () => question.querySelector('[data-testid="check-answer"]'),
      start: () => start,
      pause: () => pause,
      card: () => cardsBox.querySelector(`.rr-card[data-index="${detail}"]`),
      flip: () => cardsBox.querySelector(`.rr-flip[data-index="${detail}"]`),
      call: () => callButtons[detail],
      hand: () => hand,
    }[kind];
    const target = node ? node() : null;
    if (!target) return;
    target.setAttribute("data-todo", "true");
    target.classList.add("todo");
  }

  function draw() {
    /** @type {TableView} */
    const t = model.get("table") || {};
    if (!t.pile) return;
    const lang = model.get("lang") || "en";
    const words = model.get("strings") || {};
    root.setAttribute("lang", lang);
    root.classList.toggle("rr-touch", touch());
    if (changed("lang", [lang, words])) {  // a new language: every part is drawn again in it
      for (const name of Object.keys(drawn)) if (name !== "lang") delete drawn[name];
      messageVoice.replaceChildren(speaker(() => message.textContent, lang, words));
      nowVoice.replaceChildren(speaker(() => now.textContent, lang, words));
      rulesSummary.textContent = str("how_to_play");
    }
    if (changed("languages", model.get("languages"))) {
      const focused = languageBox.contains(document.activeElement);
      languageBox.replaceChildren(languageSwitch(model.get("languages"), lang, words, send) || "");
      if (focused && languageBox.querySelector("select")) languageBox.querySelector("select").focus();
    }
    if (changed("lesson_text", model.get("lesson_text"))) drawLesson(model.get("lesson_text") || {}, title, rules, lang, words);
    const p = t.progress || {};
    progress.setAttribute("aria-valuemax", p.count || 1);
    progress.setAttribute("aria-valuenow", p.step || 1);
    progress.setAttribute("aria-label", p.label || "");
    if (changed("progress", p)) {
      progress.replaceChildren(...Array.from({ length: p.count || 0 }, (_, i) =>
        h("span", { class: `rr-pip${i < p.step ? " rr-pip-done" : ""}${i + 1 === p.step ? " rr-pip-now" : ""}` })));
    }
    now.textContent = t.now || "";
    modeText.textContent = t.mode_text;
    modeText.dataset.mode = t.mode;
    start.textContent = t.finished ? str("play_again") : t.started ? str("new_game") : str("start");
    keyed(pause, str("pause"), KEY_OF.pause, lang);
    pause.setAttribute("aria-pressed", String(Boolean(t.paused)));
    pause.disabled = !t.running;
    root.classList.toggle("rr-paused", Boolean(t.paused));
    root.classList.toggle("rr-asking", Boolean((model.get("question") || {}).text) && !t.started);
    drawControls(t);
    if (changed("opponents", t.opponents)) {
      opponents.replaceChildren(h("li", { class: "rr-heading" }, str("opponents")),
        ...t.opponents.map((o) => h("li", { class: "rr-opponent-row" }, `${o.name}: `,
          h("b", { "data-testid": "raupe-opponent", "data-seat": o.seat }, String(o.cards)))));
    }
    if (changed("pile", t.pile)) {
      if (String(t.pile.size) !== pile.dataset.size) pileSeenAt = performance.now();
      pile.replaceChildren(art(t.pile.svg), h("span", { class: "rr-pile-size" }, str("pile_size").replace("{size}", t.pile.size)));
      pile.setAttribute("aria-label", t.pile.label);
      pile.dataset.size = t.pile.size;
      below.replaceChildren(t.pile.below ? art(t.pile.below) : "");
      below.hidden = !t.pile.below;
      below.classList.toggle("rr-below-kept", Boolean(t.pile.show_below));
    }
    message.textContent = model.get("message") || "";
    log.replaceChildren(...(model.get("log") || []).slice(1, 2).map((line) => h("li", {}, line)));
    score.textContent = t.score;
    const taught = new Set(t.calls || []);
    for (const [id, button] of Object.entries(callButtons)) {
      keyed(button, str(id), KEY_OF[id], lang);
      const armed = id === "aphid" ? t.armed.aphid : t.armed.mode === id;
      if (id !== "mistake") button.setAttribute("aria-pressed", String(armed));
      button.hidden = !taught.has(id);
      button.disabled = t.finished;
    }
    calls.hidden = !taught.size;
    hint.textContent = t.follow_up ? str("follow_up") : t.hint;
    if (changed("question", model.get("question"))) {
      question.replaceChildren(drawQuestion(model.get("question"), send, lang, words) || "");
    }
    question.hidden = Boolean(t.started);
    drawHand(model.get("hand") || [], t);
    const kept = model.get("saved") || {};
    if (changed("resume", [kept.status, words])) resumed.replaceChildren(drawResumeNote(kept, words, send) || "");
    if (changed("save", model.get("record"))) save.replaceChildren(saveLink(model.get("record"), model.get("strings") || {}, send) || "");
    if (changed("end", [t.winner, t.you_won])) {
      end.replaceChildren(...(t.winner ? [h("p", { class: `rr-winner${t.you_won ? " rr-you-won" : ""}`,
        "data-testid": "raupe-winner", role: "alert" }, t.you_won ? icon("butterfly", "learn-icon rr-won-icon") : null, t.winner)] : []));
    }
    keys.textContent = touch() ? "" : str("keys");
    recordBox.firstChild.textContent = str("record");
    record.textContent = JSON.stringify(t.record);
    if (changed("started", t.started) && t.started) rules.open = false;  // play starts: the rules fold away
    markTodo(t.todo);
    refit();
    running = Boolean(t.running) && !t.paused;
  }

  // The clock: while a game runs, tell Python how much real time has passed.
  let running = false;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const dt = (now - last) / 1000;
    last = now;
    if (running && document.visibilityState !== "hidden") send("tick", { dt: Math.round(dt * 1000) / 1000 });
  }, TICK_MS);
  const resized = () => fitHand((model.get("hand") || []).length);
  window.addEventListener("resize", resized);
  // The parts above the hand may change height without a redraw (a setting drawn late, a font): fit again.
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(refit);
  if (observer) for (const part of [head, bar, question, cardsBox]) observer.observe(part);

  root.addEventListener("keydown", (event) => {
    if (!isShortcut(event)) return;
    const target = event.target;
    const key = event.key.toLowerCase();
    if (key === "f" && target.classList.contains("rr-card")) {
      event.preventDefault();
      send("flip", { index: Number(target.dataset.index) });
    } else if (KEYS[key]) {
      event.preventDefault();
      const [type, word] = KEYS[key];
      send(type, word ? { word } : { ...seen() });
    } else if ((key === "arrowright" || key === "arrowleft") && target.classList.contains("rr-card")) {
      event.preventDefault();
      const next = Number(target.dataset.index) + (key === "arrowright" ? 1 : -1);
      const card = cardsBox.querySelector(`.rr-card[data-index="${next}"]`);
      if (card) card.focus();
    }
  });
  const stop = watch(model, draw);
  const unname = keepNickname(model);
  const unkeep = keepSave(model, send);
  draw();
  return () => {
    unname();
    unkeep();
    send.stop();
    clearInterval(timer);
    window.removeEventListener("resize", resized);
    if (observer) observer.disconnect();
    stop();
  };
}

export default { render };
