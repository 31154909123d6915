// Strategy lab front end: a level select, one checkbox per strategy, the
// number of games and a Run button; then the histogram (drawn by Python) and
// the table of mean totals.  Pressing Run (or Enter in the form) is the only
// event of the lab's own; the language switch sends "language" (handled by the
// widget base) and a speaker reads the status and the findings aloud.
// No rules and no simulation here: Python plays the games.
// Drawn with draw.js: one description of the whole lab per change; the parts
// whose data did not change (the lesson's words, the result) are the same
// description as last time, so preact does not even look at them.
// After a run asked for here the chart is scrolled into view ("nearest": the
// page moves only as far as needed; smoothly unless the learner asked for
// reduced motion).  Its numbers come rounded from Python (one_decimal), so
// `decimal(value, 1)` only writes them: chart, table and sentences agree.

import { h, languageSwitch, mount, picture, speaker } from "./draw.js";
import { decimal, sender, watch } from "./shared.js";
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

function render({ model, el }) {
  labs += 1;
  /** @param {string} name */
  const id = (name) => `lab${labs}-${name}`;
  const send = sender(model);
  /** @returns {Object<string, any>} */
  const strings = () => model.get("strings") || {};
  /** @param {string} key */
  const str = (key) => strings()[key] || key;

  // A part's description is made again only when its data changed; otherwise the same object is given to
  // preact, which then leaves its nodes alone.
  /** @type {Object<string, {json: string, made: any}>} */
  const parts = {};
  /**
   * @param {string} name
   * @param {any} data
   * @param {() => any} make
   */
  const part = (name, data, make) => {
    const json = JSON.stringify(data);
    if (!parts[name] || parts[name].json !== json) parts[name] = { json, made: make() };
    return parts[name].made;
  };

  // The learner's choices not sent yet: the form shows them, and only a run's new controls replace them.
  /** @type {{level: string, checked: Object<string, boolean>, games: string}} */
  let chosen = { level: "", checked: {}, games: "" };
  let chosenFrom = "";
  /** @type {LabView} */
  let view = /** @type {any} */ ({});
  // The lab view shown when Run was pressed, until the run's result arrives (then the chart is scrolled to).
  /** @type {LabView|null} */
  let asked = null;
  let askedMessage = "";

  // What the speaker beside the status reads: the status, then the findings of the run on the page.
  const spoken = () => [view.status_text, ...(view.rows && view.rows.length ? [...view.insights, ...view.notes] : [])]
    .filter(Boolean).join("\n");

  // The lesson's words: paragraphs, each with its own read-aloud button.
  /**
   * @param {string} where
   * @param {string[]} lines
   * @param {string} lang
   * @param {Object<string, any>} words
   */
  const said = (where, lines, lang, words) => lines.map((line, index) =>
    h("div", { class: "lab-said", key: `${where}${index}` }, h("p", { text: line }), speaker(line, lang, words)));

  /**
   * @param {LabPage} page
   * @param {string} lang
   */
  const pageParts = (page, lang) => part("page", [lang, page, strings()], () => {
    const words = strings();
    return [
      h("section", { class: "lab-page", "data-testid": "lab-intro", "aria-label": page.heading, key: "intro" },
        h("h2", { class: "lab-heading", text: page.heading }), said("intro", page.intro, lang, words)),
      h("section", { class: "lab-page", "data-testid": "lab-shows", "aria-label": page.shows_title, key: "shows" },
        h("h3", { text: page.shows_title }), said("shows", page.shows, lang, words), said("tips", page.tips, lang, words)),
    ];
  });

  /** @param {LabRow[]} rows */
  const table = (rows) => h("table", { class: "lab-table", "data-testid": "lab-table", key: "table" },
    h("caption", { text: str("caption") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: str("col_strategy") }),
      NUMBERS.map((key) => h("th", { scope: "col", key, text: str(`col_${key}`) })))),
    h("tbody", {}, rows.map((row) => h("tr", { key: row.strategy, "data-strategy": row.strategy },
      h("th", { scope: "row", text: row.name }),
      NUMBERS.map((key) => h("td", { key, text: key === "games" ? String(row[key]) : decimal(row[key], 1, strings()) }))))));

  /** @param {string} lang */
  const result = (lang) => part("result", [lang, view.svg, view.rows, view.insights, view.notes, strings()], () =>
    h("div", { class: "lab-result", "data-testid": "lab-result" }, view.rows.length ? [
      picture(view.svg, "lab-picture", false, { key: "picture" }),
      table(view.rows),
      h("ul", { class: "lab-insights", key: "insights" }, view.insights.map((line, index) => h("li", { key: index, text: line }))),
      view.notes.map((line, index) => h("p", { class: "lab-note", key: `note${index}`, text: line })),
    ] : null));

  /**
   * @param {LabControls} c
   * @param {boolean} running
   */
  const form = (c, running) => {
    const from = JSON.stringify(c);
    if (from !== chosenFrom) { // a run (or the start) gives new controls: the learner's unsent choices give way
      chosenFrom = from;
      chosen = { level: c.level, checked: Object.fromEntries(c.strategies.map((s) => [s.name, s.checked])), games: String(c.games) };
    }
    /** @param {Event} event */
    const submit = (event) => {
      event.preventDefault();
      if (!/** @type {HTMLFormElement} */ (event.currentTarget).reportValidity()) return;
      const names = c.strategies.map((s) => s.name).filter((name) => chosen.checked[name]);
      asked = view;
      askedMessage = model.get("message") || "";
      send("run", { level: chosen.level, strategies: names, games: Number(chosen.games) });
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
  };

  const paint = mount(el);

  // Once the asked run's result is drawn: bring the chart into view (a refused run brings nothing).
  const showResult = () => {
    if (!asked) return;
    const message = model.get("message") || "";
    if (view === asked && message && message !== askedMessage) { asked = null; return; } // refused
    if (view === asked || view.status === "running") return;
    asked = null;
    const chart = el.querySelector(".lab-picture");
    if (!chart || !view.rows.length) return;
    chart.scrollIntoView({ block: "nearest", inline: "nearest", behavior: moving() ? "smooth" : "auto" });
  };

  function draw() {
    view = model.get("lab") || {};
    if (!view.controls) return;
    const lang = model.get("lang") || "en";
    const words = strings();
    const running = view.status === "running";
    const [intro, shows] = view.page ? pageParts(view.page, lang) : [
      h("section", { class: "lab-page", "data-testid": "lab-intro", key: "intro" }),
      h("section", { class: "lab-page", "data-testid": "lab-shows", key: "shows" })];
    paint(h("div", { class: "cl-root lab-root", lang, "aria-busy": String(running) },
      h("div", { class: "lab-language", key: "language" },
        part("language", [lang, words, model.get("languages")], () => languageSwitch(model.get("languages"), lang, words, send))),
      intro,
      form(view.controls, running),
      h("div", { class: "lab-said", key: "status" },
        h("p", { class: "lab-status", role: "status", "aria-live": "polite", "data-testid": "lab-status", text: view.status_text }),
        h("span", { class: "lab-voice" }, part("voice", [lang, words], () => speaker(spoken, lang, words)))),
      h("p", { class: "lab-message", role: "alert", "data-testid": "lab-message", key: "message", text: model.get("message") || "" }),
      result(lang),
      shows));
    showResult();
  }

  const stop = watch(model, draw);
  draw();
  return stop;
}

export default { render };
