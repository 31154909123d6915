// Räuber Raupe front end.  Draws the view traits (`table`, `hand`, `message`,
// `strings`, `lang`); every learner action (and every clock tick)
// is one event.  No rules here: Python judges every card and draws it
// (caterpillar_learn/raupe/svg.py).
// Drawn with draw.js: the whole table is described again on every change and
// preact changes in the page only what differs, so a card keeps its node (its
// focus, a press half done) while the pile and the clock move on.

import { drawQuestion, keepNickname, saveLink } from "./question.js";
import { drawResumeNote, keepSave } from "./resume.js";
import { h, icon, languageSwitch, mount, picture, speaker } from "./draw.js";
import { moved } from "./raupe-motion.js";
import { isShortcut, sender, watch } from "./shared.js";
import { sound } from "./sound.js";

// The trait payloads, one @typedef each; their Python twins are the TypedDicts
// of caterpillar_learn/ui/raupe/views.py (a test keeps the two alike).

/**
 * @typedef {Object} TableView
 * @property {string} mode
 * @property {string} mode_text
 * @property {{svg: string, key: string, size: number, label: string, below: string, below_key: string, show_below: boolean, by: number}} pile
 *   key: the top's face and language; below: the card under the top ("" if none, if the lesson does not show it, or if
 *   it is the top this page was sent last: below_key names it); by: who put the top card down (-1: dealt)
 * @property {Array<{seat: number, name: string, cards: number}>} opponents
 * @property {boolean} referee
 * @property {{aphid: boolean, mode: string|null}} armed
 * @property {boolean} can_call
 * @property {boolean} follow_up
 * @property {boolean} started
 * @property {boolean} running
 * @property {boolean} paused
 * @property {boolean} [ticks]  false where the server's clock moves the table (a lesson room)
 * @property {boolean} finished
 * @property {string} winner
 * @property {boolean} you_won
 * @property {string} hint
 * @property {string} score
 * @property {Object<string, number>} [tally]  the learner's counts: fits, slips, caught, right, wrong, missed
 * @property {{show: boolean, speed: number, speed_text: string, level: string, levels: Array<{value: string, label: string}>}} controls
 *   show: the bot level too (the speed slider is always there)
 * @property {Object} [record]  the game as the engine saves it (none in a lesson room: the room's log is the record)
 * @property {string[]} calls  the calls the lesson has taught (only these are shown)
 * @property {string} todo  the one thing to do now: "question", "check", "start", "pause", "hand", "pile", "card:i", "flip:i", "call:word"
 * @property {string} now  what to do now, in one short line
 * @property {{step: number, count: number, label: string}} progress
 * @property {string} hand_title
 * @property {number} stars  at the end of a game: the stars it earned (0 while it runs)
 * @property {string} stars_text
 * @property {SlipView} [slip]  the learner's newest card that did not fit, beside the leaf it went on (absent if none)
 * @property {boolean} [quiet]  the message tells a bot's move: shown, not read aloud (lessons 10 and 11)
 */
/**
 * @typedef {Object} SlipView
 * @property {string} card  the card's picture
 * @property {string} leaf  the picture of the card it went on
 * @property {string} card_text  the caterpillar's shape and colour in words
 * @property {string} leaf_text  the leaf's shape and colour in words
 * @property {string} said  both in one sentence, for the ear (the page's voice and a screen reader)
 */
/**
 * @typedef {Object} HandCard
 * @property {number} index
 * @property {number} side
 * @property {string} kind  "caterpillar", "change" or "butterfly"
 * @property {string} svg
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
/** @type {Object<string, [string, string|null]>} */
const KEYS = {
  s: ["shout", "shape"], c: ["shout", "colour"], a: ["shout", "aphid"], m: ["mistake", null], p: ["pause", null],
};
// Each button's key, shown on the button on an English page with a keyboard (none on a touch screen, none in German).
/** @type {Object<string, string>} */
const KEY_OF = { shape: "s", colour: "c", aphid: "a", mistake: "m", pause: "p" };
// The calls' buttons: id, event, word.
/** @type {Array<[string, string, string|null]>} */
const CALLS = [["shape", "shout", "shape"], ["colour", "shout", "colour"], ["aphid", "shout", "aphid"], ["mistake", "mistake", null]];
const touch = () => Boolean(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
/**
 * A button's name and its key.
 * @param {string} name
 * @param {string} key
 * @param {string} lang
 */
const keyed = (name, key, lang) => [name,
  key && lang === "en" && !touch() ? h("kbd", { class: "rr-key", "aria-hidden": "true", text: key }) : null];

/** @param {string} svg */
const art = (svg) => picture(svg, "rr-art");
let widgets = 0;  // numbers the ids of each table's headings (a page may show several tables)
// A card's height per width (the picture is 100 × 150) plus its border and padding, and the flip row below it.
const CARD_RATIO = 1.5;
const CARD_EXTRA = 12;
const FLIP_ROW = 50;

/**
 * One short text with its read-aloud button, in `tag` (a paragraph of the intro, an item of "try this").
 * @param {string} tag
 * @param {string} item
 * @param {string} key
 * @param {string} lang
 * @param {Object<string, any>} words
 */
const spoken = (tag, item, key, lang, words) => h(tag, { class: "rr-said-item", key },
  speaker(item, lang, words), h("span", { text: item }));

/**
 * The largest card width (px) with which `count` cards fit `width` × `height`, wrapping into rows.
 * @param {number} count
 * @param {number} width
 * @param {number} height
 * @param {number} gap
 * @param {number} most
 * @param {number} least
 * @param {number} [flipRow]  the flip buttons' row (none while the cards answer a question)
 */
function cardWidth(count, width, height, gap, most, least, flipRow = FLIP_ROW) {
  let best = least;
  for (let columns = 1; columns <= Math.max(count, 1); columns += 1) {
    const rows = Math.ceil(Math.max(count, 1) / columns);
    const across = Math.floor((width - gap * (columns - 1)) / columns);
    const down = Math.floor(((height - gap * (rows - 1)) / rows - CARD_EXTRA - flipRow) / CARD_RATIO);
    best = Math.max(best, Math.min(across, down, most));
  }
  return best;
}

/**
 * The description `node` (from drawQuestion) with its element of `data-testid` `testid` marked as the one thing
 * to do now (data-todo="true" and theme.css's pulse), the rest as it was.
 * @param {any} node
 * @param {string} testid
 * @returns {any}
 */
function marked(node, testid, option = null) {
  if (!node || typeof node !== "object" || !node.props) return node;
  const { children, ...props } = node.props;
  const own = { ...props, key: node.key, ref: node.ref };
  if (props["data-testid"] === testid && (option === null || props["data-option"] === option)) {
    return h(node.type, { ...own, class: `${props.class || ""} todo`, "data-todo": "true" }, children);
  }
  if (children === undefined || children === null) return node;
  return h(node.type, own, Array.isArray(children) ? children.map((child) => marked(child, testid, option))
    : marked(children, testid, option));
}

/** @param {{model: any, el: HTMLElement}} widget */
function render({ model, el }) {
  widgets += 1;
  const number = widgets;
  const paint = mount(el);
  paint(h("div", { class: "rr-root" }));
  // The table's root: the same node for the widget's life (sender marks it aria-busy; the voice watches it).
  const root = /** @type {HTMLElement} */ (el.querySelector(".rr-root"));
  const send = sender(model, root); // aria-busy on root while Python answers
  /** @returns {Object<string, any>} */
  const strings = () => model.get("strings") || {};
  /** @param {string} key */
  const str = (key) => strings()[key] || key;
  /** @returns {TableView} */
  const table = () => model.get("table") || {};

  // What the learner saw: the pile's size and when it last changed (sent with each card and call).
  let pileSize = -1;
  let pileSeenAt = performance.now();
  const seen = () => ({ seen: Math.max(pileSize, 0), since: Math.round((performance.now() - pileSeenAt)) / 1000 });

  // The pile's last tops as this page was sent them (key -> picture): the card under the top comes by its key
  // alone when it is the top this page holds (issue 46), and is drawn from here under its own names.
  /** @type {Map<string, string>} */
  const tops = new Map();
  const keepTop = () => {
    const pile = table().pile;
    if (!pile || !pile.key || !pile.svg) return;
    tops.delete(pile.key);
    tops.set(pile.key, pile.svg);
    if (tops.size > 4) tops.delete(String(tops.keys().next().value));
  };
  model.on("change:table", keepTop);
  keepTop();
  /** @param {TableView["pile"]} pile */
  const belowPicture = (pile) => pile.below || (pile.below_key && tops.has(pile.below_key)
    ? String(tops.get(pile.below_key)).replaceAll('id="pile-', 'id="below-').replaceAll("url(#pile-", "url(#below-") : "");

  // A part's description is made again only when its data changed; otherwise the same object goes to preact,
  // which leaves its nodes alone (a speaker's or a switch's ref would otherwise run, and wake the voice, on
  // every clock tick).
  /** @type {Map<string, {json: string, made: any}>} */
  const parts = new Map();
  /**
   * @param {string} name
   * @param {any} data
   * @param {() => any} make
   */
  const part = (name, data, make) => {
    const json = JSON.stringify(data);
    const was = parts.get(name);
    if (was && was.json === json) return was.made;
    const made = make();
    parts.set(name, { json, made });
    return made;
  };

  // The parts measured for the hand's fit, and the fit itself (drawn as the hand's --rr-card).
  /** @type {Object<string, HTMLElement>} */
  const nodes = {};
  /** @param {string} name */
  const keep = (name) => (/** @type {HTMLElement|null} */ node) => { if (node) nodes[name] = node; };
  const refs = { head: keep("head"), bar: keep("bar"), question: keep("question"), cards: keep("cards") };
  /** The card size kept through the game under way (``game``: its window and question state; null between games). */
  let kept = { game: /** @type {string|null} */ (null), size: 0 };
  let fit = { size: 124, small: false, top: /** @type {number|null} */ (null), width: /** @type {number|null} */ (null), count: -1,
    answering: false };

  // "How to play" is open while the learner keeps it open; play starts: the rules fold away.
  let rulesOpen = false;
  // "For grown-ups" (bot speed and level, New game during a game, the tally, the record, Save my answers).
  let grownOpen = false;
  // A panel the learner opens or folds is drawn so at once (`draw`): the next description must say what the
  // page shows, or a redraw that comes between a tap and the next one puts the panel back as the last
  // description had it (seen: "For grown-ups", closed during a game, opened again by a bot's move).
  /** @param {Event} event */
  const grownToggled = (event) => {
    const open = /** @type {HTMLDetailsElement} */ (event.currentTarget).open;
    if (open !== grownOpen) { grownOpen = open; draw(); }
  };
  // The card the learner last tapped (where a played card flies from) and what the last draw showed.
  /** @type {{box: DOMRect, at: number}|null} */
  let tapped = null;
  /** @type {{size: number, hand: number, opponents: Object<string, number>}|null} */
  let before = null;
  let started = false;
  /** @param {Event} event */
  const toggled = (event) => {
    const open = /** @type {HTMLDetailsElement} */ (event.currentTarget).open;
    if (open !== rulesOpen) { rulesOpen = open; draw(); }
  };

  /**
   * "How to play": the lesson's rules and its "try this", folded in one panel.
   * @param {LessonText} lesson
   * @param {string} lang
   * @param {Object<string, any>} words
   */
  const rulesBody = (lesson, lang, words) => h("div", { class: "rr-rules-body", "data-testid": "lesson-intro", role: "region",
    "aria-labelledby": `rr-rules-${number}` },
  (lesson.intro || []).map((item, i) => spoken("p", item, `intro${i}`, lang, words)),
  lesson.try_items && lesson.try_items.length ? h("h3", { class: "rr-heading", key: "try", text: lesson.try_title || "" }) : null,
  h("ul", { class: "rr-try-items", key: "try-items" }, (lesson.try_items || []).map((item, i) => spoken("li", item, `try${i}`, lang, words))));

  /** @param {TableView["controls"]} c */
  const controls = (c) => {
    const speedId = `rr-speed-${number}`;
    return h("div", { class: "rr-controls" },
      h("label", { class: "rr-speed", for: speedId, key: "speed" }, h("span", { text: `${str("speed")} ${c.speed_text || ""}` }),
        h("span", { class: "rr-speed-scale" }, h("span", { "aria-hidden": "true", text: str("slow") }),
          h("input", { type: "range", min: 0.25, max: 2.5, step: 0.05, value: c.speed, "data-testid": "raupe-speed",
            id: speedId, "aria-valuetext": c.speed_text,
            onchange: (/** @type {Event} */ e) => send("speed", { value: Number(/** @type {HTMLInputElement} */ (e.target).value) }) }),
          h("span", { "aria-hidden": "true", text: str("fast") }))),
      c.show ? h("label", { class: "rr-level", key: "level" }, `${str("level")} `,
        h("select", { "data-testid": "raupe-level", id: `rr-level-${number}`, value: c.level,
          onchange: (/** @type {Event} */ e) => send("level", { value: /** @type {HTMLSelectElement} */ (e.target).value }) },
        (c.levels || []).map((item) => h("option", { key: item.value, value: item.value, text: item.label })))) : null);
  };

  /**
   * One card of the hand and its flip button, in a slot keyed by the card's index.
   * @param {HandCard} card
   * @param {boolean} todoCard  the card is the one thing to do now
   * @param {boolean} todoFlip  its flip button is
   */
  const slot = (card, todoCard, todoFlip) => {
    // No mark says which card fits: the child matches.  Only a hint after a pause marks one (todoCard).
    const button = h("button", { class: `rr-card rr-${card.kind}${todoCard ? " todo" : ""}`,
      "data-testid": "raupe-card", "data-index": card.index, "data-side": card.side, "aria-label": card.label,
      "aria-pressed": card.answer ? String(Boolean(card.chosen)) : null,  // an answer's toggle: on the button itself
      "data-todo": todoCard ? "true" : null,
      onclick: (/** @type {MouseEvent} */ event) => {
        tapped = { box: /** @type {HTMLElement} */ (event.currentTarget).getBoundingClientRect(), at: performance.now() };
        send("play", { index: card.index, ...seen() });
      } }, art(card.svg));
    const flip = h("button", { class: `rr-flip${todoFlip ? " todo" : ""}`, "data-testid": "raupe-flip", "data-index": card.index,
      tabindex: -1, disabled: card.kind === "butterfly", "aria-label": `${str("flip")} ${card.index + 1}`,
      "data-todo": todoFlip ? "true" : null,
      onclick: () => send("flip", { index: card.index }) }, "↻", h("span", { class: "learn-sr", text: str("flip") }));
    return card.answer  // a card that answers the question is not flipped meanwhile: no flip under it
      ? h("div", { class: `rr-slot rr-answer${card.chosen ? " learn-chosen" : ""}`, "data-testid": "answer",
        "data-option": card.index, key: card.index }, button)
      : h("div", { class: "rr-slot", key: card.index }, button, flip);
  };

  /** @param {KeyboardEvent} event */
  const keydown = (event) => {
    if (!isShortcut(event)) return;
    const target = /** @type {HTMLElement} */ (event.target);
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
      const card = /** @type {HTMLElement|null} */ (root.querySelector(`.rr-card[data-index="${next}"]`));
      if (card) card.focus();
    }
  };

  /** @type {Object<string, number>|null} */
  let heard = null; // the learner's counts at the last draw (null before the first)
  let heardEnd = false;
  function draw() {
    const t = table();
    if (!t.pile) return;
    const lang = model.get("lang") || "en";
    const words = strings();
    /** @type {HandCard[]} */
    const cards = model.get("hand") || [];
    const question = model.get("question") || {};
    const lesson = /** @type {LessonText} */ (model.get("lesson_text") || {});
    if (t.pile.size !== pileSize) {
      pileSize = t.pile.size;
      pileSeenAt = performance.now();
    }
    // What the learner did is heard: a card that fits, a slip (or a mistake caught), the end of the game.
    const tally = t.tally || {};
    if (heard) {
      if ((tally.fits || 0) > (heard.fits || 0)) sound("fit");
      if ((tally.slips || 0) + (tally.caught || 0) > (heard.slips || 0) + (heard.caught || 0)) sound("slip");
      if (t.finished && !heardEnd) sound("end");
    }
    heard = tally;
    heardEnd = Boolean(t.finished);
    if (Boolean(t.started) !== started) {
      started = Boolean(t.started);
      if (started) rulesOpen = false;  // play starts: the rules fold away
    }
    const [kind, detail] = String(t.todo || "").split(":");
    /** @param {string} what @param {string} [which] */
    const todo = (what, which) => kind === what && (which === undefined || which === detail);
    /** @param {string} what @param {string} [which] */
    const mark = (what, which) => (todo(what, which) ? { "data-todo": "true" } : {});
    /** @param {string} what @param {string} [which] */
    const pulse = (what, which) => (todo(what, which) ? " todo" : "");
    /** @type {TableView["progress"]} */
    const p = t.progress || { step: 1, count: 1, label: "" };
    /** @type {TableView["controls"]} */
    const c = t.controls || { show: false, speed: 1, speed_text: "", level: "", levels: [] };
    const taught = new Set(t.calls || []);
    const pause = str("pause");
    const [messageVoice, nowVoice] = part("voices", [lang, words], () => [
      speaker(() => model.get("message") || "", lang, words), speaker(() => table().now || "", lang, words)]);

    const head = h("div", { class: "rr-head", ref: refs.head },
      h("h2", { class: "rr-title", id: `rr-title-${number}`, text: lesson.title || "" }),
      h("div", { class: "rr-progress", role: "progressbar", "data-testid": "lesson-progress", "aria-valuemin": 1,
        "aria-valuemax": p.count || 1, "aria-valuenow": p.step || 1, "aria-label": p.label || "" },
      Array.from({ length: p.count || 0 }, (_, i) => h("span", { key: i,
        class: `rr-pip${i < p.step ? " rr-pip-done" : ""}${i + 1 === p.step ? " rr-pip-now" : ""}` }))),
      h("div", { class: "rr-said rr-now-box" },
        h("p", { class: "rr-now", "data-testid": "raupe-now", "aria-live": "polite", text: t.now || "" }),
        h("span", { class: "rr-voice" }, nowVoice)));

    // What happened, once: at the end the winner's line says it (no second copy in the message).
    const message = model.get("message") || "";
    const said = t.finished && message === t.winner ? "" : message;
    const keys = h("p", { class: "rr-keys", text: touch() ? "" : str("keys") });
    const withRules = Boolean(lesson.intro && lesson.intro.length);
    const rules = h("details", { class: "rr-rules", open: rulesOpen, ontoggle: toggled, hidden: !(lesson.intro && lesson.intro.length) },
      h("summary", { class: "rr-button rr-rules-summary", "data-testid": "raupe-how-to-play", id: `rr-rules-${number}`,
        text: str("how_to_play") }),
      part("lesson", [lesson, lang, words], () => rulesBody(lesson, lang, words)),
      // The keys, for a keyboard: with the rules, not on the child's table (a table without rules shows them below).
      withRules ? keys : null);

    // Start (Play again at the end) is the child's; New game during a game is a grown-up's.
    const playing = Boolean(t.started) && !t.finished;
    const start = h("button", { key: "start", class: `rr-button rr-start${pulse("start")}`, "data-testid": "raupe-start", ...mark("start"),
      text: t.finished ? str("play_again") : t.started ? str("new_game") : str("start"),
      onclick: () => {
        send("start");
        root.scrollIntoView({ block: "start" });
      } });
    const bar = h("div", { class: "rr-bar", ref: refs.bar },
      h("div", { class: "rr-banner", role: "status" },
        h("span", { class: "rr-mode", "data-testid": "raupe-mode", "data-mode": t.mode, text: t.mode_text })),
      playing ? null : start,
      // A toggle button: its name stays "Pause" and aria-pressed says whether the game is paused.
      h("button", { class: `rr-button rr-pause${pulse("pause")}`, "data-testid": "raupe-pause", ...mark("pause"),
        "aria-pressed": String(Boolean(t.paused)), "aria-keyshortcuts": KEY_OF.pause, disabled: !t.running, hidden: !t.running,
        onclick: () => send("pause") }, keyed(pause, KEY_OF.pause, lang)),
      rules,
      h("span", { class: "rr-language" },
        part("language", [model.get("languages"), lang, words], () => languageSwitch(model.get("languages"), lang, words, send))));

    const calls = h("div", { class: "rr-calls", role: "group", "data-testid": "raupe-calls", hidden: !taught.size },
      CALLS.map(([id, type, word]) => h("button", { key: id, class: `rr-button rr-call rr-call-${id}${pulse("call", id)}`,
        "data-testid": `raupe-call-${id}`, "aria-keyshortcuts": KEY_OF[id], ...mark("call", id),
        "aria-pressed": id === "mistake" ? null : String(id === "aphid" ? Boolean(t.armed.aphid) : t.armed.mode === id),
        hidden: !taught.has(id), disabled: t.finished,
        onclick: () => { sound("call"); send(type, word ? { word } : { ...seen() }); } }, keyed(str(id), KEY_OF[id], lang))));

    // Nothing fits: the pile is the thing to watch, marked but never glowing (there is nothing to tap).
    const below = belowPicture(t.pile);
    const pile = part("pile", [t.pile, str("pile_size"), todo("pile")], () => [
      h("div", { class: `rr-below${t.pile.show_below ? " rr-below-kept" : ""}`, "data-testid": "raupe-below", "aria-hidden": "true",
        hidden: !below }, below ? art(below) : null),
      h("div", { class: "rr-pile", "data-testid": "raupe-pile", role: "img", "aria-label": t.pile.label, "data-size": t.pile.size,
        ...mark("pile") },
        art(t.pile.svg), h("span", { class: "rr-pile-size" },
          h("span", { class: "learn-sr", text: str("pile_size").replace("{size}", "").trim() }), ` ${t.pile.size}`))]);

    // A card that did not fit, beside the leaf it went on (now covered on the pile): both in sight at once, each
    // with its shape and colour; one sentence for the ear says both (read aloud once as it appears, data-speak),
    // the line then says which one differs.  As wide as the pile: nothing moves when it comes.
    const slip = part("slip", [t.slip || null], () => (t.slip ? h("div", { class: "rr-slip", "data-testid": "raupe-slip" },
    h("span", { class: "learn-sr", "data-speak": true, text: t.slip.said }),
    h("div", { class: "rr-slip-pair" },
      h("div", { class: "rr-slip-side", "data-testid": "raupe-slip-card" }, art(t.slip.card)),
      h("span", { class: "rr-slip-not", "aria-hidden": "true", text: "≠" }),
      h("div", { class: "rr-slip-side", "data-testid": "raupe-slip-leaf" }, art(t.slip.leaf))),
    h("p", { class: "rr-slip-words", "aria-hidden": "true", text: t.slip.card_text }),
    h("p", { class: "rr-slip-words", "aria-hidden": "true", text: t.slip.leaf_text })) : null));

    const hand = h("div", { class: `rr-hand${pulse("hand")}`, "data-testid": "raupe-hand", role: "group",
      "aria-label": t.hand_title, ...mark("hand") },
    h("h3", { class: "rr-heading rr-hand-title", text: t.hand_title }),
    h("div", { class: `rr-cards${fit.small ? " rr-small" : ""}`, style: { "--rr-card": `${fit.size}px` }, ref: refs.cards },
      cards.map((card) => {
        const onCard = todo("card", String(card.index));
        const onFlip = todo("flip", String(card.index));
        return part(`card${card.index}`, [card, onCard, onFlip, str("flip")], () => slot(card, onCard, onFlip));
      })));

    const record = !t.record ? null : part("record", [t.record, str("record")], () => h("details", { class: "rr-record" },
      h("summary", { text: str("record") }), h("pre", { "data-testid": "raupe-record", text: JSON.stringify(t.record) })));
    const grownUps = h("details", { class: "rr-grown-ups", open: grownOpen, ontoggle: grownToggled },
      h("summary", { class: "rr-button rr-grown-ups-summary", "data-testid": "raupe-grown-ups", text: str("grown_ups") }),
      h("div", { class: "rr-grown-ups-body" },
        playing ? start : null,
        part("controls", [c, words], () => controls(c)),
        h("p", { class: "rr-score", text: t.score }),
        record,
        h("div", { class: "rr-save" }, saveLink(model.get("record"), words, send, draw))));
    const earned = t.stars || 0;
    const celebration = t.finished ? h("div", { class: "rr-celebration", "data-testid": "celebration" },
      icon("butterfly", "rr-celebration-butterfly"),
      earned ? h("span", { class: "rr-stars", role: "img", "data-testid": "stars", "data-stars": earned, "aria-label": t.stars_text },
        [1, 2, 3].map((n) => h("span", { key: n, class: `rr-star${n <= earned ? " rr-on" : ""}`, "aria-hidden": "true", text: "★" })))
        : null) : null;

    const asking = Boolean(question.text) && !t.started;
    const kept = model.get("saved") || {};
    paint(h("div", { class: `rr-root${touch() ? " rr-touch" : ""}${t.paused ? " rr-paused" : ""}${asking ? " rr-asking" : ""}`,
      lang, onkeydown: keydown },
    head,
    h("div", { class: "rr-resume" }, drawResumeNote(kept, words, send)),
    h("div", { class: "rr-question", hidden: Boolean(t.started), ref: refs.question },
      part("question", [question, lang, words, kind], () => {
        const drawn = drawQuestion(question, send, lang, words);
        if (kind === "answer") return marked(drawn, "answer", detail);  // a yes-or-no answer, shown
        return kind === "question" ? marked(drawn, "question") : kind === "check" ? marked(drawn, "check-answer") : drawn;
      })),
    bar,
    // Left: the pile (and the card below it) over the calls; right: what happens, then the whole hand.
    h("div", { class: "rr-table" },
      // The calls (things to tap) before the slip's picture: on a small screen they stay in view.
      h("div", { class: "rr-left" }, h("div", { class: "rr-pile-box" }, pile), calls, slip),
      h("div", { class: "rr-right" },
        h("div", { class: "rr-talk" },
          // The others' cards are the game's: a question between games leaves them out (issue 40: few words).
          h("ul", { class: "rr-opponents", "data-testid": "raupe-opponents", hidden: asking },
            h("li", { class: "rr-heading", key: "heading", text: str("opponents") }),
            t.opponents.map((o) => h("li", { class: "rr-opponent-row", key: o.seat }, `${o.name}: `,
              h("b", { "data-testid": "raupe-opponent", "data-seat": o.seat, text: String(o.cards) })))),
          h("div", { class: "rr-said" },
            h("p", { class: "rr-message", "data-testid": "raupe-message", "aria-live": "polite", text: said }),
            // A bot's move where the lesson keeps the voice for the child (quiet): shown, not read aloud.
            h("span", { class: "rr-voice", hidden: !said || Boolean(t.quiet) }, messageVoice)),
          // The strategy hint waits for the pause too (the child matches first): it shows with a marked card.
          h("p", { class: "rr-hint", text: t.follow_up ? str("follow_up") : ["card", "flip", "call"].includes(kind) ? t.hint : "" })),
        // The end above the hand, in sight: the butterfly, the stars, who won.
        h("div", { class: "rr-end" }, celebration, t.winner ? h("p", { class: `rr-winner${t.you_won ? " rr-you-won" : ""}`,
          "data-testid": "raupe-winner", role: "alert", text: t.winner }) : null),
        hand)),
    withRules ? null : keys,
    grownUps));
    running = Boolean(t.running) && !t.paused && t.ticks !== false;  // a lesson room's table: the server's clock
    const now = { size: t.pile.size, hand: cards.length,
      opponents: Object.fromEntries(t.opponents.map((o) => [String(o.seat), o.cards])) };
    const was = before;
    before = now;
    const from = tapped && performance.now() - tapped.at < 3000 ? tapped.box : null;
    if (was && t.started) requestAnimationFrame(() => moved(root, was, now, t.pile.by, from));
    if (was && now.size > was.size) tapped = null;
    if (observer && !observed && nodes.cards) {
      observed = true;
      for (const name of ["head", "bar", "question", "cards"]) observer.observe(nodes[name]);
    }
    refit();
  }

  // The hand's card size: measured after layout, so the whole hand fits below the table; a new size draws again.
  function refit() {
    const box = nodes.cards;
    if (!box) return;
    const top = Math.round(box.getBoundingClientRect().top - root.getBoundingClientRect().top);
    const count = (model.get("hand") || []).length;
    if (top !== fit.top || box.clientWidth !== fit.width || count !== fit.count || answering() !== fit.answering) fitHand();
  }
  /** Whether the hand's cards answer the question now (no flip row under them meanwhile). */
  const answering = () => (model.get("hand") || []).some((/** @type {HandCard} */ card) => card.answer);
  function fitHand() {
    const box = nodes.cards;
    if (!box) return;
    const count = (model.get("hand") || []).length;
    // The whole hand in view: the space left below the table, as if the table's top were the screen's.
    const rootTop = root.getBoundingClientRect().top;
    const top = box.getBoundingClientRect().top - rootTop + Math.max(rootTop, 0);
    const height = window.innerHeight - top - 24;
    const width = box.clientWidth || root.clientWidth;
    const most = Math.max(124, Math.round(window.innerHeight * 0.24)); // a projector's cards as big as its room
    let size = cardWidth(count, width, height, 8, most, 50, answering() ? 0 : FLIP_ROW);
    // Through a game the cards never grow, so that none moves under a finger as the hand empties (issue 40); they
    // shrink only when they must (more cards, less room), and a new game or a new window size fits them anew.
    const t = /** @type {TableView} */ (model.get("table") || {});
    const game = t.started && !t.finished ? `${window.innerWidth}x${window.innerHeight}:${answering()}` : null;
    if (game !== null && kept.game === game) size = Math.min(size, kept.size);
    kept = { game, size };
    const was = fit;
    fit = { size, small: size < 96, top: Math.round(box.getBoundingClientRect().top - rootTop), width: box.clientWidth, count,
      answering: answering() };
    if (size !== was.size || fit.small !== was.small) draw();
  }

  // The clock: while a game runs, tell Python how much real time has passed.
  let running = false;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const counting = running && document.visibilityState !== "hidden";
    // While an event is on its way the sender keeps a tick back (see sender): its time goes with a later one.
    if (!counting || send("tick", { dt: Math.round(now - last) / 1000 })) last = now;
  }, TICK_MS);
  const resized = () => fitHand();
  window.addEventListener("resize", resized);
  // The parts above the hand may change height without a redraw (a setting drawn late, a font): fit again.
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(refit);
  let observed = false;

  const stop = watch(model, draw);
  const unname = keepNickname(model);
  const unkeep = keepSave(model, send);
  draw();
  return () => {
    model.off("change:table", keepTop);
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
