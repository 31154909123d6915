// Strategy lab front end: a level select, one checkbox per strategy, the
// number of games and a Run button; then the histogram (drawn by Python) and
// the table of mean totals.  Pressing Run (or Enter in the form) is the only
// event of the lab's own; the language switch sends "language" (handled by the
// widget base) and a speaker reads the status and the findings aloud.
// No rules and no simulation here: Python plays the games.
// Drawn with draw.js, as components: one description of the whole lab per change; the parts
// whose data did not change (the lesson's words, the result) are the same
// description as last time (useMemo), so preact does not even look at them.
// After a run asked for here the chart is scrolled into view ("nearest": the
// page moves only as far as needed; smoothly unless the learner asked for
// reduced motion).  Its numbers come rounded from Python (one_decimal), so
// `decimal(value, 1)` only writes them: chart, table and sentences agree.

import { h, languageSwitch, mount, picture, speaker, useView } from "./draw.js";
import { useLayoutEffect, useMemo, useRef } from "./preact-hooks.js";
import { decimal, sender } from "./shared.js";
import { moving } from "./page.js";

// The trait payload, one @typedef each; their Python twins are the TypedDicts
// of caterpillar_learn/ui/lab/views.py (a test keeps the two alike).

/**
 * @typedef {Object} LabLevel
 * @property {string} value
 * @property {string} label
 */
/**
 * @typedef {Object} LabChoice
 * @property {string} name
 * @property {string} label
 * @property {boolean} checked
 */
/**
 * @typedef {Object} LabControls
 * @property {string} level
 * @property {LabLevel[]} levels
 * @property {LabChoice[]} strategies
 * @property {number} games  per strategy
 * @property {number} min_games
 * @property {number} max_games
 */
/**
 * @typedef {Object} LabRow
 * @property {string} strategy
 * @property {string} name  the strategy's name in the page's language
 * @property {number} games
 * @property {number} mean  mean final score (every number here rounded to one decimal by Python: one_decimal)
 * @property {number} lowest  mean total of each game's lowest caterpillar
 * @property {number} middle
 * @property {number} highest
 * @property {number} spread  highest minus lowest
 */
/**
 * @typedef {Object} LabPage
 * @property {string} heading
 * @property {string[]} intro  what the learner reads first, and how to read the picture
 * @property {string} shows_title
 * @property {string[]} shows  what the numbers show (the lesson's two insights)
 * @property {string[]} tips  what to try
 */
/**
 * @typedef {Object} LabView
 * @property {LabPage} page  the lesson's words around the lab
 * @property {string} status  "idle", "running" or "ready"
 * @property {string} status_text
 * @property {LabControls} controls  the settings of the last run (or the starting ones)
 * @property {string} svg  the histograms drawn by Python ("" before a run)
 * @property {LabRow[]} rows
 * @property {string[]} insights  what this run shows, computed from its numbers
 * @property {string[]} notes
 */

const NUMBERS = ["games", "mean", "lowest", "middle", "highest", "spread"];
let labs = 0; // ids unique on the page, so each label names its own control

/**
 * The lesson's words: paragraphs, each with its own read-aloud button.
 * @param {string} where
 * @param {string[]} lines
 * @param {string} lang
 * @param {Object<string, any>} words
 */
const said = (where, lines, lang, words) => lines.map((line, index) =>
  h("div", { class: "lab-said", key: `${where}${index}` }, h("p", { text: line }), speaker(line, lang, words)));

/**
 * The lesson's words around the lab: what the learner reads first, and what the numbers show with what to try.
 * @param {LabPage|undefined} page
 * @param {string} lang
 * @param {Object<string, any>} words
 */
const pageParts = (page, lang, words) => (page ? [
  h("section", { class: "lab-page", "data-testid": "lab-intro", "aria-label": page.heading, key: "intro" },
    h("h2", { class: "lab-heading", text: page.heading }), said("intro", page.intro, lang, words)),
  h("section", { class: "lab-page", "data-testid": "lab-shows", "aria-label": page.shows_title, key: "shows" },
    h("h3", { text: page.shows_title }), said("shows", page.shows, lang, words), said("tips", page.tips, lang, words)),
] : [h("section", { class: "lab-page", "data-testid": "lab-intro", key: "intro" }),
  h("section", { class: "lab-page", "data-testid": "lab-shows", key: "shows" })]);

/**
 * The table of mean totals, one row a strategy.
 * @param {LabRow[]} rows
 * @param {Object<string, any>} words
 */
function table(rows, words) {
  /** @param {string} key */
  const str = (key) => words[key] || key;
  return h("table", { class: "lab-table", "data-testid": "lab-table", key: "table" },
    h("caption", { text: str("caption") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: str("col_strategy") }),
      NUMBERS.map((key) => h("th", { scope: "col", key, text: str(`col_${key}`) })))),
    h("tbody", {}, rows.map((row) => h("tr", { key: row.strategy, "data-strategy": row.strategy },
      h("th", { scope: "row", text: row.name }),
      NUMBERS.map((key) => h("td", { key, text: key === "games" ? String(row[key]) : decimal(row[key], 1, words) }))))));
}

/**
 * The run's result: the histograms drawn by Python, the table, what the run shows.
 * @param {LabView} view
 * @param {Object<string, any>} words
 */
const result = (view, words) => h("div", { class: "lab-result", "data-testid": "lab-result" }, view.rows.length ? [
  picture(view.svg, "lab-picture", false, { key: "picture" }),
  table(view.rows, words),
  h("ul", { class: "lab-insights", key: "insights" }, view.insights.map((line, index) => h("li", { key: index, text: line }))),
  view.notes.map((line, index) => h("p", { class: "lab-note", key: `note${index}`, text: line })),
] : null);

/**
 * The lab's settings: level, strategies, games, Run.  The learner's choices not sent yet are the form's own
 * state: the form shows them, and only a run's new controls replace them.
 * @param {{controls: LabControls, running: boolean, id: (name: string) => string, words: Object<string, any>,
 *   run: (fields: {level: string, strategies: string[], games: number}) => void}} props
 */
function Form({ controls: c, running, id, words, run }) {
  /** @param {string} key */
  const str = (key) => words[key] || key;
  const from = JSON.stringify(c);
  const chosen = useMemo(() => ({ level: c.level, games: String(c.games),
    checked: /** @type {Object<string, boolean>} */ (Object.fromEntries(c.strategies.map((s) => [s.name, s.checked]))) }), [from]);
  /** @param {Event} event */
  const submit = (event) => {
    event.preventDefault();
    if (!/** @type {HTMLFormElement} */ (event.currentTarget).reportValidity()) return;
    run({ level: chosen.level, strategies: c.strategies.map((s) => s.name).filter((name) => chosen.checked[name]),
      games: Number(chosen.games) });
  };
  return h("form", { class: "lab-controls", key: "form", onsubmit: submit },
    h("label", { for: id("level"), class: "lab-label", text: str("level") }),
    h("select", { id: id("level"), "data-testid": "lab-level", value: chosen.level,
      onchange: (/** @type {Event} */ event) => { chosen.level = /** @type {HTMLSelectElement} */ (event.target).value; } },
    c.levels.map((lv) => h("option", { key: lv.value, value: lv.value, text: lv.label }))),
    h("fieldset", { class: "lab-strategies" }, h("legend", { text: str("strategies") }),
      c.strategies.map((s) => h("label", { class: "lab-choice", key: s.name },
        h("input", { type: "checkbox", name: id("strategy"), value: s.name, checked: Boolean(chosen.checked[s.name]),
          "data-testid": "lab-strategy",
          onchange: (/** @type {Event} */ event) => { chosen.checked[s.name] = /** @type {HTMLInputElement} */ (event.target).checked; } }),
        ` ${s.label}`))),
    h("label", { for: id("games"), class: "lab-label", text: str("games") }),
    h("input", { id: id("games"), type: "number", step: 1, required: true, "data-testid": "lab-games",
      min: c.min_games, max: c.max_games, value: chosen.games,
      oninput: (/** @type {Event} */ event) => { chosen.games = /** @type {HTMLInputElement} */ (event.target).value; } }),
    h("button", { type: "submit", class: "lab-run", "data-testid": "lab-run", disabled: running, text: str("run") }));
}

/**
 * After a run asked for here, once its result is drawn, the chart is brought into view (a refused run brings
 * nothing).  Returns what Run calls before it sends.
 * @param {any} model
 * @param {LabView} view
 * @param {{current: HTMLElement|null}} root
 */
function useShowResult(model, view, root) {
  const asked = useRef(/** @type {{view: LabView, message: string}|null} */ (null));
  useLayoutEffect(() => {
    const was = asked.current;
    if (!was) return;
    const message = model.get("message") || "";
    if (view === was.view && message && message !== was.message) { asked.current = null; return; } // refused
    if (view === was.view || view.status === "running") return;
    asked.current = null;
    const chart = root.current ? root.current.querySelector(".lab-picture") : null;
    if (!chart || !view.rows.length) return;
    chart.scrollIntoView({ block: "nearest", inline: "nearest", behavior: moving() ? "smooth" : "auto" });
  });
  return () => { asked.current = { view, message: model.get("message") || "" }; };
}

/** @param {{model: any, send: (type: string, fields?: Object<string, any>) => boolean, number: number}} props */
function Lab({ model, send, number }) {
  useView(model);
  const root = useRef(/** @type {HTMLElement|null} */ (null));
  const view = /** @type {LabView} */ (model.get("lab") || {});
  const lang = model.get("lang") || "en";
  const words = model.get("strings") || {};
  const languages = model.get("languages");
  const asking = useShowResult(model, view, root);
  const [intro, shows] = useMemo(() => pageParts(view.page, lang, words), [view.page, lang, words]);
  const settings = useMemo(() => languageSwitch(languages, lang, words, send), [lang, words, languages]);
  // What the speaker beside the status reads: the status, then the findings of the run on the page.
  const voice = useMemo(() => speaker(() => {
    const now = /** @type {LabView} */ (model.get("lab") || {});
    return [now.status_text, ...(now.rows && now.rows.length ? [...now.insights, ...now.notes] : [])].filter(Boolean).join("\n");
  }, lang, words), [lang, words]);
  const drawn = useMemo(() => (view.rows ? result(view, words) : null), [view.svg, view.rows, view.insights, view.notes, words]);
  if (!view.controls) return null;
  const running = view.status === "running";
  /** @param {string} name */
  const id = (name) => `lab${number}-${name}`;
  /** @param {{level: string, strategies: string[], games: number}} fields */
  const run = (fields) => { asking(); send("run", fields); };
  return h("div", { class: "cl-root lab-root", lang, "aria-busy": String(running), ref: root },
    h("div", { class: "lab-language", key: "language" }, settings),
    intro,
    h(Form, { controls: view.controls, running, id, words, run }),
    h("div", { class: "lab-said", key: "status" },
      h("p", { class: "lab-status", role: "status", "aria-live": "polite", "data-testid": "lab-status", text: view.status_text }),
      h("span", { class: "lab-voice" }, voice)),
    h("p", { class: "lab-message", role: "alert", "data-testid": "lab-message", key: "message", text: model.get("message") || "" }),
    drawn,
    shows);
}

/** @param {{model: any, el: HTMLElement}} widget */
function render({ model, el }) {
  labs += 1;
  const send = sender(model);
  const paint = mount(el);
  paint(h(Lab, { model, send, number: labs }));
  return () => {
    send.stop();
    paint(null);
  };
}

export default { render };
