// Räuber Raupe front end.  Draws the view traits (`table`, `hand`, `log`,
// `message`, `strings`, `lang`); every learner action (and every clock tick)
// is one event.  No rules here: Python judges every card and draws it
// (caterpillar_learn/raupe/svg.py).

import { drawQuestion, saveLink } from "./question.js";
import { h, isShortcut, languageSwitch, picture, sender, speaker, watch } from "./shared.js";

// The trait payloads, one @typedef each; their Python twins are the TypedDicts
// of caterpillar_learn/ui/raupe/views.py (a test keeps the two alike).

/**
 * @typedef {Object} TableView
 * @property {string} mode
 * @property {string} mode_text
 * @property {{svg: string, size: number, label: string}} pile
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
 * @property {{show: boolean, speed: number, level: string, levels: string[]}} controls
 * @property {Object} record  the game as the engine saves it
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
// Each button's key, shown on the button (so the keys line need not list them).
const KEY_OF = { shape: "s", colour: "c", aphid: "a", mistake: "m", pause: "p" };
const keyed = (button, name, key) => button.replaceChildren(name, h("kbd", { class: "rr-key", "aria-hidden": "true" }, key));

const art = (markup) => picture(markup, "rr-art");
let widgets = 0;  // numbers the ids of each table's headings (a page may show several tables)

// One short text with its read-aloud button, in `tag` (a paragraph of the intro, an item of "try this").
const spoken = (tag, item, lang, words) => h(tag, { class: "rr-said-item" }, speaker(item, lang, words), h("span", {}, item));

/** The intro panel and the "try this" list of a lesson, each a region named by its heading. @param {LessonText} lesson */
function drawLesson(lesson, intro, tries, lang, words) {
  intro.hidden = !(lesson.intro && lesson.intro.length);
  tries.hidden = !(lesson.try_items && lesson.try_items.length);
  intro.replaceChildren(h("h2", { class: "rr-intro-title", id: intro.getAttribute("aria-labelledby") }, lesson.title || ""),
    ...(lesson.intro || []).map((item) => spoken("p", item, lang, words)));
  tries.replaceChildren(h("h3", { class: "rr-heading", id: tries.getAttribute("aria-labelledby") }, lesson.try_title || ""),
    h("ul", { class: "rr-try-items" }, ...(lesson.try_items || []).map((item) => spoken("li", item, lang, words))));
}

function render({ model, el }) {
  const root = h("div", { class: "rr-root" });
  el.appendChild(root);
  const drawn = {};
  const send = sender(model);
  const str = (key) => (model.get("strings") || {})[key] || key;
  widgets += 1;
  const intro = h("section", { class: "rr-intro", "data-testid": "lesson-intro", role: "region",
    "aria-labelledby": `rr-intro-${widgets}`, hidden: true });
  const tries = h("section", { class: "rr-try", "data-testid": "lesson-try", role: "region",
    "aria-labelledby": `rr-try-${widgets}`, hidden: true });

  const modeText = h("span", { class: "rr-mode", "data-testid": "raupe-mode" });
  const start = h("button", { class: "rr-button rr-start", "data-testid": "raupe-start", onclick: () => send("start") });
  // A toggle button: its name stays "Pause" and aria-pressed says whether the game is paused.
  const pause = h("button", { class: "rr-button rr-pause", "data-testid": "raupe-pause", "aria-pressed": "false",
    "aria-keyshortcuts": KEY_OF.pause,
    onclick: () => send("pause") });
  const controls = h("div", { class: "rr-controls" });
  const languageBox = h("span", { class: "rr-language" });
  const bar = h("div", { class: "rr-bar" }, h("div", { class: "rr-banner", role: "status" }, modeText), start, pause,
    controls, languageBox);
  const opponents = h("ul", { class: "rr-opponents", "data-testid": "raupe-opponents" });
  const pile = h("div", { class: "rr-pile", "data-testid": "raupe-pile", role: "img" });
  const message = h("p", { class: "rr-message", "data-testid": "raupe-message", "aria-live": "polite" });
  const messageVoice = h("span", { class: "rr-voice" });
  const log = h("ul", { class: "rr-log" });
  const score = h("p", { class: "rr-score" });
  const calls = h("div", { class: "rr-calls", role: "group" });
  const callButtons = {};
  for (const [id, type, word] of [["shape", "shout", "shape"], ["colour", "shout", "colour"],
    ["aphid", "shout", "aphid"], ["mistake", "mistake", null]]) {
    callButtons[id] = h("button", { class: `rr-button rr-call rr-call-${id}`, "data-testid": `raupe-call-${id}`,
      "aria-keyshortcuts": KEY_OF[id], onclick: () => send(type, word ? { word } : {}) });
    calls.append(callButtons[id]);
  }
  const hint = h("p", { class: "rr-hint" });
  const question = h("div", { class: "rr-question" });
  const save = h("div", { class: "rr-save" });
  const hand = h("div", { class: "rr-hand", "data-testid": "raupe-hand", role: "group" });
  const end = h("div", { class: "rr-end" });
  const keys = h("p", { class: "rr-keys" });
  const record = h("pre", { "data-testid": "raupe-record" });
  const recordBox = h("details", { class: "rr-record" }, h("summary", {}), record);
  root.append(intro, question, bar, h("div", { class: "rr-table" }, h("div", { class: "rr-centre" }, pile, opponents),
    h("div", { class: "rr-talk" }, h("div", { class: "rr-said" }, message, messageVoice), log, score)), calls, hint, hand, end, tries, keys, recordBox, save);

  function changed(name, value) {
    const json = JSON.stringify(value);
    if (drawn[name] === json) return false;
    drawn[name] = json;
    return true;
  }

  function drawControls(t) {
    const c = t.controls || {};
    if (!changed("controls", c)) return;
    controls.replaceChildren();
    if (!c.show) return;
    const speed = h("input", { type: "range", min: 0.25, max: 2.5, step: 0.25, value: c.speed, "data-testid": "raupe-speed",
      id: "rr-speed", onchange: (e) => send("speed", { value: Number(e.target.value) }) });
    const level = h("select", { "data-testid": "raupe-level", id: "rr-level", onchange: (e) => send("level", { value: e.target.value }) },
      ...c.levels.map((name) => h("option", { value: name, selected: name === c.level }, name)));
    controls.append(h("label", {}, `${str("speed")} ×${c.speed} `, speed), h("label", {}, `${str("level")} `, level));
  }

  function drawHand(cards, t) {
    if (!changed("hand", [cards, t.referee, t.follow_up])) return;
    const focused = root.querySelector(".rr-card:focus");
    const at = focused ? Number(focused.dataset.index) : null;
    hand.replaceChildren(h("h3", { class: "rr-heading" }, t.referee ? str("referee_hand") : str("hand")));
    hand.setAttribute("aria-label", str("hand"));
    for (const card of cards) {
      const badge = card.fits ? "✓" : card.other_fits ? "↻" : null;
      const button = h("button", { class: `rr-card rr-${card.kind}${card.fits ? " rr-fits" : ""}`, "data-testid": "raupe-card",
        "data-index": card.index, "data-side": card.side, "aria-label": card.label,
        "aria-pressed": card.answer ? String(Boolean(card.chosen)) : null,  // an answer's toggle: on the button itself
        onclick: () => send("play", { index: card.index }) }, art(card.svg),
        badge ? h("span", { class: "rr-badge", "aria-hidden": "true" }, badge) : null);
      const flip = h("button", { class: "rr-flip", "data-testid": "raupe-flip", "data-index": card.index, tabindex: -1,
        disabled: card.kind === "butterfly", "aria-label": `${str("flip")} ${card.index + 1}`,
        onclick: () => send("flip", { index: card.index }) }, `↻ ${str("flip")}`);
      const slot = card.answer
        ? h("div", { class: `rr-slot rr-answer${card.chosen ? " learn-chosen" : ""}`, "data-testid": "answer",
          "data-option": card.index }, button, flip)
        : h("div", { class: "rr-slot" }, button, flip);
      hand.append(slot);
    }
    if (at !== null && cards.length) {
      const target = hand.querySelector(`.rr-card[data-index="${Math.min(at, cards.length - 1)}"]`);
      if (target) target.focus({ preventScroll: true });
    }
  }

  function draw() {
    /** @type {TableView} */
    const t = model.get("table") || {};
    if (!t.pile) return;
    const lang = model.get("lang") || "en";
    const words = model.get("strings") || {};
    root.setAttribute("lang", lang);
    if (changed("lang", [lang, words])) {  // a new language: every part is drawn again in it
      for (const name of Object.keys(drawn)) if (name !== "lang") delete drawn[name];
      messageVoice.replaceChildren(speaker(() => message.textContent, lang, words));
    }
    if (changed("languages", model.get("languages"))) {
      const focused = languageBox.contains(document.activeElement);
      languageBox.replaceChildren(languageSwitch(model.get("languages"), lang, words, send) || "");
      if (focused && languageBox.querySelector("select")) languageBox.querySelector("select").focus();
    }
    if (changed("lesson_text", model.get("lesson_text"))) drawLesson(model.get("lesson_text") || {}, intro, tries, lang, words);
    modeText.textContent = t.mode_text;
    modeText.dataset.mode = t.mode;
    start.textContent = t.started ? str("new_game") : str("start");
    keyed(pause, str("pause"), KEY_OF.pause);
    pause.setAttribute("aria-pressed", String(Boolean(t.paused)));
    pause.disabled = !t.running;
    root.classList.toggle("rr-paused", Boolean(t.paused));
    drawControls(t);
    if (changed("opponents", t.opponents)) {
      opponents.replaceChildren(h("li", { class: "rr-heading" }, str("opponents")),
        ...t.opponents.map((o) => h("li", { class: "rr-opponent-row" }, `${o.name}: `,
          h("b", { "data-testid": "raupe-opponent", "data-seat": o.seat }, String(o.cards)))));
    }
    if (changed("pile", t.pile)) {
      pile.replaceChildren(art(t.pile.svg), h("span", { class: "rr-pile-size" }, str("pile_size").replace("{size}", t.pile.size)));
      pile.setAttribute("aria-label", t.pile.label);
      pile.dataset.size = t.pile.size;
    }
    message.textContent = model.get("message") || "";
    log.replaceChildren(...(model.get("log") || []).slice(1).map((line) => h("li", {}, line)));
    score.textContent = t.score;
    for (const [id, button] of Object.entries(callButtons)) {
      keyed(button, str(id), KEY_OF[id]);
      const armed = id === "aphid" ? t.armed.aphid : t.armed.mode === id;
      if (id !== "mistake") button.setAttribute("aria-pressed", String(armed));
      button.hidden = t.referee && id !== "mistake";
      button.disabled = t.finished;
    }
    hint.textContent = t.follow_up ? str("follow_up") : t.hint;
    drawHand(model.get("hand") || [], t);
    if (changed("question", model.get("question"))) {
      question.replaceChildren(drawQuestion(model.get("question"), send, lang, words) || "");
    }
    if (changed("save", model.get("record"))) save.replaceChildren(saveLink(model.get("record"), str("save_answers")) || "");
    if (changed("end", [t.winner, t.you_won])) {
      end.replaceChildren(...(t.winner ? [h("p", { class: `rr-winner${t.you_won ? " rr-you-won" : ""}`,
        "data-testid": "raupe-winner", role: "alert" }, `${t.you_won ? "🦋 " : ""}${t.winner}`)] : []));
    }
    keys.textContent = t.referee ? "" : str("keys");
    recordBox.firstChild.textContent = str("record");
    record.textContent = JSON.stringify(t.record);
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
      send(type, word ? { word } : {});
    } else if ((key === "arrowright" || key === "arrowleft") && target.classList.contains("rr-card")) {
      event.preventDefault();
      const next = Number(target.dataset.index) + (key === "arrowright" ? 1 : -1);
      const card = hand.querySelector(`.rr-card[data-index="${next}"]`);
      if (card) card.focus();
    }
  });
  const stop = watch(model, draw);
  draw();
  return () => {
    clearInterval(timer);
    stop();
  };
}

export default { render };
