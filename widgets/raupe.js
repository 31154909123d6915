// Räuber Raupe front end.  Draws the view traits (`table`, `hand`, `message`,
// `strings`, `lang`); every learner action (and every clock tick)
// is one event.  No rules here: Python judges every card and draws it
// (caterpillar_learn/raupe/svg.py).
// Drawn with draw.js: the whole table is described again on every change and
// preact changes in the page only what differs, so a card keeps its node (its
// focus, a press half done) while the pile and the clock move on.

import { drawQuestion, keepNickname, saveLink } from "./question.js";
import { drawResumeNote, keepSave } from "./resume.js";
import { h, icon, languageSwitch, markTodo, mount, picture, speaker, useView } from "./draw.js";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "./preact-hooks.js";
import { moved } from "./raupe-motion.js";
import { isShortcut, sender } from "./shared.js";
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

// -- The table, made of components -----------------------------------------------------------------------------
//
// `Table` reads the view traits and draws the parts; each part that holds state of its own is a component
// (the folding panels' open state, the hand's fitted card size), and motion, sound and the clock are effects.
// Parts whose description would wake the voice if made again (a speaker's ref listens to its node) are kept
// by `useMemo` until what they show changes.

/**
 * What every part of one table shares.
 * @typedef {Object} TableContext
 * @property {any} model
 * @property {number} number  numbers the ids of the table's headings (a page may show several tables)
 * @property {(type: string, fields?: Object<string, any>) => boolean} send  set once the root is drawn
 * @property {Map<string, string>} tops  the pile's last tops as this page was sent them (key -> picture)
 * @property {{size: number, at: number}} pileSeen  the pile's size the learner saw, and since when
 * @property {{box: DOMRect, at: number}|null} tapped  the card the learner last tapped (where a played card flies from)
 * @property {HTMLElement} root  the table's root: ours, not preact's
 */

/**
 * What the learner saw, sent with each card and call: the pile's size and how long it has shown.
 * @param {TableContext} ctx
 */
const seenBy = (ctx) => ({ seen: Math.max(ctx.pileSeen.size, 0), since: Math.round(performance.now() - ctx.pileSeen.at) / 1000 });

/**
 * The card under the top: sent as a picture, or by its key when it is a top this page holds (issue 46), drawn
 * from there under its own ids.
 * @param {TableContext} ctx
 * @param {TableView["pile"]} pile
 */
const belowPicture = (ctx, pile) => pile.below || (pile.below_key && ctx.tops.has(pile.below_key)
  ? String(ctx.tops.get(pile.below_key)).replaceAll('id="pile-', 'id="below-').replaceAll("url(#pile-", "url(#below-") : "");

/**
 * The one thing to do now (`t.todo`, "kind:detail"), as a test and as the marks of a node.
 * @param {TableView} t
 */
function todoOf(t) {
  const [kind, detail] = String(t.todo || "").split(":");
  /** @param {string} what @param {string} [which] */
  const todo = (what, which) => kind === what && (which === undefined || which === detail);
  return {
    kind, detail, todo,
    /** @param {string} what @param {string} [which] */
    mark: (what, which) => (todo(what, which) ? { "data-todo": "true" } : {}),
    /** @param {string} what @param {string} [which] */
    pulse: (what, which) => (todo(what, which) ? " todo" : ""),
  };
}

/**
 * "How to play": the lesson's rules and its "try this", folded in one panel.
 * @param {{number: number, lesson: LessonText, lang: string, words: Object<string, any>}} props
 */
const rulesBody = ({ number, lesson, lang, words }) => h("div", { class: "rr-rules-body", "data-testid": "lesson-intro",
  role: "region", "aria-labelledby": `rr-rules-${number}` },
(lesson.intro || []).map((item, i) => spoken("p", item, `intro${i}`, lang, words)),
lesson.try_items && lesson.try_items.length ? h("h3", { class: "rr-heading", key: "try", text: lesson.try_title || "" }) : null,
h("ul", { class: "rr-try-items", key: "try-items" }, (lesson.try_items || []).map((item, i) => spoken("li", item, `try${i}`, lang, words))));

/**
 * A folding panel the learner opens and folds: open while the learner keeps it open.  Drawn so at once, and
 * kept so by every later draw (a redraw between a tap and the next must not put the panel back: seen, "For
 * grown-ups" closed during a game and opened again by a bot's move).  `closeOn`: it folds when this turns true.
 * @param {boolean} closeOn
 * @returns {[boolean, (event: Event) => void]}
 */
function useFolding(closeOn) {
  const open = useRef(false);
  const was = useRef(closeOn);
  const [, redraw] = useState(0);
  if (closeOn !== was.current) {
    was.current = closeOn;
    if (closeOn) open.current = false;
  }
  /** @param {Event} event */
  const toggled = (event) => {
    const now = /** @type {HTMLDetailsElement} */ (event.currentTarget).open;
    if (now !== open.current) { open.current = now; redraw((n) => n + 1); }
  };
  return [open.current, toggled];
}

/**
 * "How to play", open while the learner keeps it open; play starts: the rules fold away.
 * @param {{number: number, started: boolean, shown: boolean, body: any, keys: any, str: (key: string) => string}} props
 */
function Rules({ number, started, shown, body, keys, str }) {
  const [open, toggled] = useFolding(started);
  return h("details", { class: "rr-rules", open, ontoggle: toggled, hidden: !shown },
    h("summary", { class: "rr-button rr-rules-summary", "data-testid": "raupe-how-to-play", id: `rr-rules-${number}`,
      text: str("how_to_play") }),
    body,
    // The keys, for a keyboard: with the rules, not on the child's table (a table without rules shows them below).
    shown ? keys : null);
}

/**
 * The bots' speed and level, for grown-ups.
 * @param {TableView["controls"]} c
 * @param {number} number
 * @param {(key: string) => string} str
 * @param {TableContext["send"]} send
 */
function controls(c, number, str, send) {
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
}

/**
 * "For grown-ups": the bots' speed and level, New game during a game, the tally, the record, Save my answers.
 * @param {{ctx: TableContext, t: TableView, start: any, playing: boolean, str: (key: string) => string,
 *   words: Object<string, any>}} props
 */
function GrownUps({ ctx, t, start, playing, str, words }) {
  const [open, toggled] = useFolding(false);
  const [, redraw] = useState(0);  // the save's form opened
  const { model, send, number } = ctx;
  const c = t.controls || { show: false, speed: 1, speed_text: "", level: "", levels: [] };
  const levels = (c.levels || []).map((item) => item.value).join(" ");
  const panel = useMemo(() => controls(c, number, str, send), [c.show, c.speed, c.speed_text, c.level, levels, words]);
  const record = useMemo(() => (t.record ? JSON.stringify(t.record) : ""), [t.record]);
  return h("details", { class: "rr-grown-ups", open, ontoggle: toggled },
    h("summary", { class: "rr-button rr-grown-ups-summary", "data-testid": "raupe-grown-ups", text: str("grown_ups") }),
    h("div", { class: "rr-grown-ups-body" },
      playing ? start : null,
      panel,
      h("p", { class: "rr-score", text: t.score }),
      record ? h("details", { class: "rr-record" },
        h("summary", { text: str("record") }), h("pre", { "data-testid": "raupe-record", text: record })) : null,
      h("div", { class: "rr-save" }, saveLink(model.get("record"), words, send, () => redraw((n) => n + 1)))));
}

/**
 * One card of the hand and its flip button, in a slot keyed by the card's index.
 * @param {TableContext} ctx
 * @param {HandCard} card
 * @param {boolean} todoCard  the card is the one thing to do now
 * @param {boolean} todoFlip  its flip button is
 * @param {string} flipWord
 */
function slot(ctx, card, todoCard, todoFlip, flipWord) {
  // No mark says which card fits: the child matches.  Only a hint after a pause marks one (todoCard).
  const button = h("button", { class: `rr-card rr-${card.kind}${todoCard ? " todo" : ""}`,
    "data-testid": "raupe-card", "data-index": card.index, "data-side": card.side, "aria-label": card.label,
    "aria-pressed": card.answer ? String(Boolean(card.chosen)) : null,  // an answer's toggle: on the button itself
    "data-todo": todoCard ? "true" : null,
    onclick: (/** @type {MouseEvent} */ event) => {
      ctx.tapped = { box: /** @type {HTMLElement} */ (event.currentTarget).getBoundingClientRect(), at: performance.now() };
      ctx.send("play", { index: card.index, ...seenBy(ctx) });
    } }, art(card.svg));
  const flip = h("button", { class: `rr-flip${todoFlip ? " todo" : ""}`, "data-testid": "raupe-flip", "data-index": card.index,
    tabindex: -1, disabled: card.kind === "butterfly", "aria-label": `${flipWord} ${card.index + 1}`,
    "data-todo": todoFlip ? "true" : null,
    onclick: () => ctx.send("flip", { index: card.index }) }, "↻", h("span", { class: "learn-sr", text: flipWord }));
  return card.answer  // a card that answers the question is not flipped meanwhile: no flip under it
    ? h("div", { class: `rr-slot rr-answer${card.chosen ? " learn-chosen" : ""}`, "data-testid": "answer",
      "data-option": card.index, key: card.index }, button)
    : h("div", { class: "rr-slot", key: card.index }, button, flip);
}

/**
 * The hand's card size, fitted after layout so that the whole hand shows below the table.  Through a game the
 * cards never grow, so that none moves under a finger as the hand empties (issue 40); they shrink only when
 * they must (more cards, less room), and a new game or a new window size fits them anew.
 * @param {{root: {current: HTMLElement|null}, cards: {current: HTMLElement|null}, watched: Array<{current: HTMLElement|null}>}} nodes
 * @param {HandCard[]} hand
 * @param {TableView} t
 */
function useFit(nodes, hand, t) {
  const [fit, setFit] = useState({ size: 124, small: false });
  const state = useRef({ top: /** @type {number|null} */ (null), width: /** @type {number|null} */ (null), count: -1,
    answering: false, kept: { game: /** @type {string|null} */ (null), size: 0 } });
  const now = useRef({ hand, t });
  now.current = { hand, t };
  const answering = () => now.current.hand.some((card) => card.answer);
  const fitHand = () => {
    const box = nodes.cards.current;
    const root = nodes.root.current;
    if (!box || !root) return;
    const count = now.current.hand.length;
    // The whole hand in view: the space left below the table, as if the table's top were the screen's.
    const rootTop = root.getBoundingClientRect().top;
    const top = box.getBoundingClientRect().top - rootTop + Math.max(rootTop, 0);
    const height = window.innerHeight - top - 24;
    const width = box.clientWidth || root.clientWidth;
    const most = Math.max(124, Math.round(window.innerHeight * 0.24)); // a projector's cards as big as its room
    let size = cardWidth(count, width, height, 8, most, 50, answering() ? 0 : FLIP_ROW);
    const table = now.current.t;
    const game = table.started && !table.finished ? `${window.innerWidth}x${window.innerHeight}:${answering()}` : null;
    const s = state.current;
    if (game !== null && s.kept.game === game) size = Math.min(size, s.kept.size);
    state.current = { top: Math.round(box.getBoundingClientRect().top - rootTop), width: box.clientWidth, count,
      answering: answering(), kept: { game, size } };
    setFit((was) => (was.size === size ? was : { size, small: size < 96 }));
  };
  const refit = () => {
    const box = nodes.cards.current;
    const root = nodes.root.current;
    if (!box || !root) return;
    const s = state.current;
    const top = Math.round(box.getBoundingClientRect().top - root.getBoundingClientRect().top);
    if (top !== s.top || box.clientWidth !== s.width || now.current.hand.length !== s.count || answering() !== s.answering) fitHand();
  };
  useLayoutEffect(refit);
  useEffect(() => {
    window.addEventListener("resize", fitHand);
    // The parts above the hand may change height without a redraw (a setting drawn late, a font): fit again.
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(refit);
    if (observer) for (const node of [...nodes.watched, nodes.cards]) if (node.current) observer.observe(node.current);
    return () => {
      window.removeEventListener("resize", fitHand);
      if (observer) observer.disconnect();
    };
  }, []);
  return fit;
}

/**
 * The learner's hand, fitted to the screen.
 * @param {{ctx: TableContext, t: TableView, hand: HandCard[], root: {current: HTMLElement|null},
 *   watched: Array<{current: HTMLElement|null}>, marks: ReturnType<typeof todoOf>, flipWord: string}} props
 */
function Hand({ ctx, t, hand, root, watched, marks, flipWord }) {
  const cards = useRef(/** @type {HTMLElement|null} */ (null));
  const fit = useFit({ root, cards, watched }, hand, t);
  return h("div", { class: `rr-hand${marks.pulse("hand")}`, "data-testid": "raupe-hand", role: "group",
    "aria-label": t.hand_title, ...marks.mark("hand") },
  h("h3", { class: "rr-heading rr-hand-title", text: t.hand_title }),
  h("div", { class: `rr-cards${fit.small ? " rr-small" : ""}`, style: { "--rr-card": `${fit.size}px` }, ref: cards },
    hand.map((card) => slot(ctx, card, marks.todo("card", String(card.index)), marks.todo("flip", String(card.index)), flipWord))));
}

/**
 * The title, the lesson's progress and what to do now (with its read-aloud button).
 * @param {TableContext} ctx
 * @param {TableView} t
 * @param {LessonText} lesson
 * @param {any} nowVoice
 * @param {{current: HTMLElement|null}} ref
 */
function head(ctx, t, lesson, nowVoice, ref) {
  const p = t.progress || { step: 1, count: 1, label: "" };
  return h("div", { key: "head", class: "rr-head", ref },
    h("h2", { class: "rr-title", id: `rr-title-${ctx.number}`, text: lesson.title || "" }),
    h("div", { class: "rr-progress", role: "progressbar", "data-testid": "lesson-progress", "aria-valuemin": 1,
      "aria-valuemax": p.count || 1, "aria-valuenow": p.step || 1, "aria-label": p.label || "" },
    Array.from({ length: p.count || 0 }, (_, i) => h("span", { key: i,
      class: `rr-pip${i < p.step ? " rr-pip-done" : ""}${i + 1 === p.step ? " rr-pip-now" : ""}` }))),
    h("div", { class: "rr-said rr-now-box" },
      h("p", { class: "rr-now", "data-testid": "raupe-now", "aria-live": "polite", text: t.now || "" }),
      h("span", { class: "rr-voice" }, nowVoice)));
}

/**
 * Start (Play again at the end): the child's; New game during a game is a grown-up's.
 * @param {TableContext} ctx
 * @param {TableView} t
 * @param {ReturnType<typeof todoOf>} marks
 * @param {(key: string) => string} str
 * @param {{current: HTMLElement|null}} root
 */
const startButton = (ctx, t, marks, str, root) => h("button", { key: "start", class: `rr-button rr-start${marks.pulse("start")}`,
  "data-testid": "raupe-start", ...marks.mark("start"),
  text: t.finished ? str("play_again") : t.started ? str("new_game") : str("start"),
  onclick: () => {
    ctx.send("start");
    if (root.current) root.current.scrollIntoView({ block: "start" });
  } });

/**
 * The bar above the table: the mode, Start, Pause, "How to play" and the page's settings.
 * @param {{ctx: TableContext, t: TableView, marks: ReturnType<typeof todoOf>, str: (key: string) => string,
 *   lang: string, start: any, rules: any, settings: any, ref: {current: HTMLElement|null}}} parts
 */
function bar({ ctx, t, marks, str, lang, start, rules, settings, ref }) {
  const playing = Boolean(t.started) && !t.finished;
  const pause = str("pause");
  return h("div", { key: "bar", class: "rr-bar", ref },
    h("div", { class: "rr-banner", role: "status" },
      h("span", { class: "rr-mode", "data-testid": "raupe-mode", "data-mode": t.mode, text: t.mode_text })),
    playing ? null : start,
    // A toggle button: its name stays "Pause" and aria-pressed says whether the game is paused.
    h("button", { class: `rr-button rr-pause${marks.pulse("pause")}`, "data-testid": "raupe-pause", ...marks.mark("pause"),
      "aria-pressed": String(Boolean(t.paused)), "aria-keyshortcuts": KEY_OF.pause, disabled: !t.running, hidden: !t.running,
      onclick: () => ctx.send("pause") }, keyed(pause, KEY_OF.pause, lang)),
    rules,
    h("span", { class: "rr-language" }, settings));
}

/**
 * The calls the lesson has taught, each a button (the others hidden).
 * @param {TableContext} ctx
 * @param {TableView} t
 * @param {ReturnType<typeof todoOf>} marks
 * @param {(key: string) => string} str
 * @param {string} lang
 */
function calls(ctx, t, marks, str, lang) {
  const taught = new Set(t.calls || []);
  return h("div", { class: "rr-calls", role: "group", "data-testid": "raupe-calls", hidden: !taught.size },
    CALLS.map(([id, type, word]) => h("button", { key: id, class: `rr-button rr-call rr-call-${id}${marks.pulse("call", id)}`,
      "data-testid": `raupe-call-${id}`, "aria-keyshortcuts": KEY_OF[id], ...marks.mark("call", id),
      "aria-pressed": id === "mistake" ? null : String(id === "aphid" ? Boolean(t.armed.aphid) : t.armed.mode === id),
      hidden: !taught.has(id), disabled: t.finished,
      onclick: () => { sound("call"); ctx.send(type, word ? { word } : { ...seenBy(ctx) }); } }, keyed(str(id), KEY_OF[id], lang))));
}

/**
 * The pile and the card below it.  Nothing fits: the pile is the thing to watch, marked but never glowing
 * (there is nothing to tap).
 * @param {TableView["pile"]} pile
 * @param {string} below  the picture of the card below the top ("" if none is shown)
 * @param {string} sizeWord
 * @param {boolean} watch  the pile is the thing to do now
 */
const pileParts = (pile, below, sizeWord, watch) => [
  h("div", { class: `rr-below${pile.show_below ? " rr-below-kept" : ""}`, "data-testid": "raupe-below", "aria-hidden": "true",
    hidden: !below }, below ? art(below) : null),
  h("div", { class: "rr-pile", "data-testid": "raupe-pile", role: "img", "aria-label": pile.label, "data-size": pile.size,
    ...(watch ? { "data-todo": "true" } : {}) },
  art(pile.svg), h("span", { class: "rr-pile-size" },
    h("span", { class: "learn-sr", text: sizeWord.replace("{size}", "").trim() }), ` ${pile.size}`))];

/**
 * A card that did not fit, beside the leaf it went on (now covered on the pile): both in sight at once, each
 * with its shape and colour; one sentence for the ear says both (read aloud once as it appears, data-speak),
 * the line then says which one differs.  As wide as the pile: nothing moves when it comes.
 * @param {SlipView|undefined} slip
 */
const slipPart = (slip) => (slip ? h("div", { class: "rr-slip", "data-testid": "raupe-slip" },
  h("span", { class: "learn-sr", "data-speak": true, text: slip.said }),
  h("div", { class: "rr-slip-pair" },
    h("div", { class: "rr-slip-side", "data-testid": "raupe-slip-card" }, art(slip.card)),
    h("span", { class: "rr-slip-not", "aria-hidden": "true", text: "≠" }),
    h("div", { class: "rr-slip-side", "data-testid": "raupe-slip-leaf" }, art(slip.leaf))),
  h("p", { class: "rr-slip-words", "aria-hidden": "true", text: slip.card_text }),
  h("p", { class: "rr-slip-words", "aria-hidden": "true", text: slip.leaf_text })) : null);

/**
 * The others' cards, what happened (once: at the end the winner's line says it), the hint, and the end's
 * reward above the hand.
 * @param {TableView} t
 * @param {{said: string, asking: boolean, messageVoice: any, hint: string, str: (key: string) => string}} words
 */
function talk(t, { said, asking, messageVoice, hint, str }) {
  const earned = t.stars || 0;
  const celebration = t.finished ? h("div", { class: "rr-celebration", "data-testid": "celebration" },
    icon("butterfly", "rr-celebration-butterfly"),
    earned ? h("span", { class: "rr-stars", role: "img", "data-testid": "stars", "data-stars": earned, "aria-label": t.stars_text },
      [1, 2, 3].map((n) => h("span", { key: n, class: `rr-star${n <= earned ? " rr-on" : ""}`, "aria-hidden": "true", text: "★" })))
      : null) : null;
  return [
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
      h("p", { class: "rr-hint", text: hint })),
    // The end above the hand, in sight: the butterfly, the stars, who won.
    h("div", { class: "rr-end" }, celebration, t.winner ? h("p", { class: `rr-winner${t.you_won ? " rr-you-won" : ""}`,
      "data-testid": "raupe-winner", role: "alert", text: t.winner }) : null),
  ];
}

/**
 * A key press on the table: a call's or Pause's letter, F to flip the focused card, the arrows between cards.
 * @param {TableContext} ctx
 */
const keydown = (ctx) => (/** @type {KeyboardEvent} */ event) => {
  if (!isShortcut(event)) return;
  const target = /** @type {HTMLElement} */ (event.target);
  const key = event.key.toLowerCase();
  if (key === "f" && target.classList.contains("rr-card")) {
    event.preventDefault();
    ctx.send("flip", { index: Number(target.dataset.index) });
  } else if (KEYS[key]) {
    event.preventDefault();
    const [type, word] = KEYS[key];
    ctx.send(type, word ? { word } : { ...seenBy(ctx) });
  } else if ((key === "arrowright" || key === "arrowleft") && target.classList.contains("rr-card")) {
    event.preventDefault();
    const next = Number(target.dataset.index) + (key === "arrowright" ? 1 : -1);
    const root = /** @type {HTMLElement} */ (event.currentTarget);
    const card = /** @type {HTMLElement|null} */ (root.querySelector(`.rr-card[data-index="${next}"]`));
    if (card) card.focus();
  }
};

/**
 * What follows a draw of the table: the pile the learner sees (and since when), the sounds of what the learner
 * did (a card that fits, a slip or a mistake caught, the end), the motion of what moved, and the clock.
 * @param {TableContext} ctx
 * @param {{current: HTMLElement|null}} root
 * @param {TableView} t
 * @param {HandCard[]} hand
 */
function useTableEffects(ctx, root, t, hand) {
  const last = useRef({ before: /** @type {{size: number, hand: number, opponents: Object<string, number>}|null} */ (null),
    heard: /** @type {Object<string, number>|null} */ (null), heardEnd: false, running: false });
  last.current.running = Boolean(t.running) && !t.paused && t.ticks !== false;  // a lesson room's table: the server's clock
  useLayoutEffect(() => {
    if (!t.pile) return;
    const s = last.current;
    if (t.pile.size !== ctx.pileSeen.size) ctx.pileSeen = { size: t.pile.size, at: performance.now() };
    const tally = t.tally || {};
    if (s.heard) {
      if ((tally.fits || 0) > (s.heard.fits || 0)) sound("fit");
      if ((tally.slips || 0) + (tally.caught || 0) > (s.heard.slips || 0) + (s.heard.caught || 0)) sound("slip");
      if (t.finished && !s.heardEnd) sound("end");
    }
    s.heard = tally;
    s.heardEnd = Boolean(t.finished);
    const now = { size: t.pile.size, hand: hand.length,
      opponents: Object.fromEntries(t.opponents.map((o) => [String(o.seat), o.cards])) };
    const was = s.before;
    s.before = now;
    const from = ctx.tapped && performance.now() - ctx.tapped.at < 3000 ? ctx.tapped.box : null;
    const node = root.current;
    if (was && t.started && node) requestAnimationFrame(() => moved(node, was, now, t.pile.by, from));
    if (was && now.size > was.size) ctx.tapped = null;
  });
  // The clock: while a game runs, tell Python how much real time has passed.
  useEffect(() => {
    let then = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      const counting = last.current.running && document.visibilityState !== "hidden";
      // While an event is on its way the sender keeps a tick back (see sender): its time goes with a later one.
      if (!counting || ctx.send("tick", { dt: Math.round(now - then) / 1000 })) then = now;
    }, TICK_MS);
    return () => clearInterval(timer);
  }, []);
}

/**
 * The parts kept until what they show changes: the voices of the two lines, the page's settings, the rules, the
 * question, the pile and the slip.
 * @param {TableContext} ctx
 * @param {TableView} t
 * @param {ReturnType<typeof todoOf>} marks
 */
function useKeptParts(ctx, t, marks) {
  const { model } = ctx;
  const lang = model.get("lang") || "en";
  const words = model.get("strings") || {};
  const languages = model.get("languages");
  const question = model.get("question") || {};
  const lesson = /** @type {LessonText} */ (model.get("lesson_text") || {});
  const voices = useMemo(() => [speaker(() => model.get("message") || "", lang, words),
    speaker(() => (model.get("table") || {}).now || "", lang, words)], [lang, words]);
  const settings = useMemo(() => languageSwitch(languages, lang, words, ctx.send), [languages, lang, words]);
  const rules = useMemo(() => rulesBody({ number: ctx.number, lesson, lang, words }), [lesson, lang, words]);
  const { kind, detail } = marks;
  const asked = useMemo(() => {
    const drawn = drawQuestion(question, ctx.send, lang, words);
    if (kind === "answer") return markTodo(drawn, "answer", detail);  // a yes-or-no answer, shown
    return kind === "question" ? markTodo(drawn, "question") : kind === "check" ? markTodo(drawn, "check-answer") : drawn;
  }, [question, lang, words, kind, detail]);
  const pile = t.pile || /** @type {TableView["pile"]} */ ({});
  const below = t.pile ? belowPicture(ctx, pile) : "";
  const sizeWord = words.pile_size || "pile_size";
  const watching = marks.todo("pile");
  const pileDrawn = useMemo(() => (t.pile ? pileParts(pile, below, sizeWord, watching) : null),
    [pile.svg, pile.size, pile.label, pile.show_below, below, sizeWord, watching]);
  const slip = t.slip;
  const slipDrawn = useMemo(() => slipPart(slip), [slip && slip.said, slip && slip.card, slip && slip.leaf]);
  return { lang, words, question, lesson, voices, settings, rules, asked, pileDrawn, slipDrawn };
}

/** @param {{ctx: TableContext}} props */
function Table({ ctx }) {
  const { model } = ctx;
  useView(model);
  const root = useRef(ctx.root);
  const watched = [useRef(null), useRef(null), useRef(null)];  // the head, the bar, the question: above the hand
  const t = /** @type {TableView} */ (model.get("table") || {});
  /** @type {HandCard[]} */
  const hand = model.get("hand") || [];
  const marks = todoOf(t);
  useTableEffects(ctx, root, t, hand);
  const kept = useKeptParts(ctx, t, marks);
  const asking = Boolean(kept.question.text) && !t.started;
  const rootClass = `rr-root${touch() ? " rr-touch" : ""}${t.paused ? " rr-paused" : ""}${asking ? " rr-asking" : ""}`;
  useLayoutEffect(() => {  // the root is ours, not preact's (sender marks it aria-busy; the voice watches it)
    // ours: the table's root (sender marks it aria-busy; the voice watches it)
    ctx.root.className = rootClass;
    ctx.root.lang = kept.lang;
  }, [rootClass, kept.lang]);
  if (!t.pile) return null;
  const { lang, words, lesson } = kept;
  /** @param {string} key */
  const str = (key) => words[key] || key;
  // What happened, once: at the end the winner's line says it (no second copy in the message).
  const message = model.get("message") || "";
  const said = t.finished && message === t.winner ? "" : message;
  const keys = h("p", { key: "keys", class: "rr-keys", text: touch() ? "" : str("keys") });
  const withRules = Boolean(lesson.intro && lesson.intro.length);
  const start = startButton(ctx, t, marks, str, root);
  const hint = t.follow_up ? str("follow_up") : ["card", "flip", "call"].includes(marks.kind) ? t.hint : "";
  const rules = h(Rules, { number: ctx.number, started: Boolean(t.started), shown: withRules, body: kept.rules, keys, str });
  return [
    head(ctx, t, lesson, kept.voices[1], watched[0]),
    h("div", { key: "resume", class: "rr-resume" }, drawResumeNote(model.get("saved") || {}, words, ctx.send)),
    h("div", { key: "question", class: "rr-question", hidden: Boolean(t.started), ref: watched[2] }, kept.asked),
    bar({ ctx, t, marks, str, lang, start, rules, settings: kept.settings, ref: watched[1] }),
    // Left: the pile (and the card below it) over the calls; right: what happens, then the whole hand.
    h("div", { key: "table", class: "rr-table" },
      // The calls (things to tap) before the slip's picture: on a small screen they stay in view.
      h("div", { class: "rr-left" }, h("div", { class: "rr-pile-box" }, kept.pileDrawn), calls(ctx, t, marks, str, lang), kept.slipDrawn),
      h("div", { class: "rr-right" }, talk(t, { said, asking, messageVoice: kept.voices[0], hint, str }),
        h(Hand, { ctx, t, hand, root, watched, marks, flipWord: str("flip") }))),
    withRules ? null : keys,
    h(GrownUps, { key: "grown-ups", ctx, t, start, playing: Boolean(t.started) && !t.finished, str, words })];
}

/** @param {{model: any, el: HTMLElement}} widget */
function render({ model, el }) {
  widgets += 1;
  /** @type {any} */
  let send = null;
  /** @type {TableContext} */
  const ctx = { model, number: widgets, send: (type, fields = {}) => (send ? send(type, fields) : false), tops: new Map(),
    pileSeen: { size: -1, at: performance.now() }, tapped: null, root: document.createElement("div") };
  ctx.root.className = "rr-root";  // ours: the table's root
  // The pile's last tops as this page was sent them: the card under the top comes by its key alone when it is a
  // top this page holds (issue 46).
  const keepTop = () => {
    const pile = (model.get("table") || {}).pile;
    if (!pile || !pile.key || !pile.svg) return;
    ctx.tops.delete(pile.key);
    ctx.tops.set(pile.key, pile.svg);
    if (ctx.tops.size > 4) ctx.tops.delete(String(ctx.tops.keys().next().value));
  };
  model.on("change:table", keepTop);
  keepTop();
  // The table's root: ours, the same node for the widget's life (sender marks it aria-busy; the voice watches
  // it); what preact draws sits in .rr-view, laid out as the root's own children.
  const view = document.createElement("div");
  // ours: the root and its view (what preact draws)
  view.className = "rr-view";
  ctx.root.append(view);
  el.appendChild(ctx.root);
  ctx.root.addEventListener("keydown", keydown(ctx));
  send = sender(model, ctx.root);
  const paint = mount(view);
  paint(h(Table, { ctx }));
  const unname = keepNickname(model);
  const unkeep = keepSave(model, ctx.send);
  return () => {
    model.off("change:table", keepTop);
    unname();
    unkeep();
    send.stop();
    paint(null);
  };
}

export default { render };
