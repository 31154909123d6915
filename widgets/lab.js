// Strategy lab front end: a level select, one checkbox per strategy, the
// number of games and a Run button; then the histogram (drawn by Python) and
// the table of mean totals.  Pressing Run (or Enter in the form) is the only
// event of the lab's own; the language switch sends "language" (handled by the
// widget base) and a speaker reads the status and the findings aloud.
// No rules and no simulation here: Python plays the games.

import { decimal, h, languageSwitch, picture, sender, speaker, watch } from "./shared.js";

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
 * @property {number} mean  mean final score
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
  const id = (name) => `lab${labs}-${name}`;
  const send = sender(model);
  const str = (key) => (model.get("strings") || {})[key] || key;
  const drawn = {};
  const changed = (name, value) => {
    const json = JSON.stringify(value);
    if (drawn[name] === json) return false;
    drawn[name] = json;
    return true;
  };

  const root = h("div", { class: "cl-root lab-root" });
  el.appendChild(root);
  const level = h("select", { id: id("level"), "data-testid": "lab-level" });
  const strategies = h("fieldset", { class: "lab-strategies" });
  const games = h("input", { id: id("games"), type: "number", step: 1, required: true, "data-testid": "lab-games" });
  const run = h("button", { type: "submit", class: "lab-run", "data-testid": "lab-run" });
  const form = h("form", { class: "lab-controls", onsubmit: (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const chosen = [...strategies.querySelectorAll("input:checked")].map((box) => box.value);
    send("run", { level: level.value, strategies: chosen, games: Number(games.value) });
  } },
  h("label", { for: id("level"), class: "lab-label" }), level, strategies,
  h("label", { for: id("games"), class: "lab-label" }), games, run);
  const status = h("p", { class: "lab-status", role: "status", "aria-live": "polite", "data-testid": "lab-status" });
  const message = h("p", { class: "lab-message", role: "alert", "data-testid": "lab-message" });
  const result = h("div", { class: "lab-result", "data-testid": "lab-result" });
  const languageBox = h("div", { class: "lab-language" });
  const voice = h("span", { class: "lab-voice" });
  const spoken = () => [status.textContent, ...[...result.querySelectorAll(".lab-insights li, .lab-note")]
    .map((node) => node.textContent)].filter(Boolean).join("\n");
  const intro = h("section", { class: "lab-page", "data-testid": "lab-intro" });
  const after = h("section", { class: "lab-page", "data-testid": "lab-shows" });
  root.append(languageBox, intro, form, h("div", { class: "lab-said" }, status, voice), message, result, after);

  // The lesson's words: a heading, paragraphs, each with its own read-aloud button.
  function said(lines, lang, words) {
    return lines.map((line) => h("div", { class: "lab-said" }, h("p", {}, line), speaker(line, lang, words)));
  }

  function drawPage(page, lang) {
    if (!page || !changed("page", [lang, page])) return;
    const words = model.get("strings") || {};
    intro.setAttribute("aria-label", page.heading);
    intro.replaceChildren(h("h2", { class: "lab-heading", text: page.heading }), ...said(page.intro, lang, words));
    after.setAttribute("aria-label", page.shows_title);
    after.replaceChildren(h("h3", { text: page.shows_title }), ...said(page.shows, lang, words), ...said(page.tips, lang, words));
  }

  function drawLanguage(lang) {
    if (!changed("lang", [lang, model.get("strings"), model.get("languages")])) return;
    const focused = languageBox.contains(document.activeElement);
    const words = model.get("strings") || {};
    languageBox.replaceChildren(languageSwitch(model.get("languages"), lang, words, send) || "");
    if (focused && languageBox.querySelector("select")) languageBox.querySelector("select").focus();
    voice.replaceChildren(speaker(spoken, lang, words));
  }

  function drawControls(c) {
    if (!changed("controls", c)) return; // keep the learner's unsent choices until a run changes them
    const [levelLabel, gamesLabel] = form.querySelectorAll("label.lab-label");
    levelLabel.textContent = str("level");
    gamesLabel.textContent = str("games");
    level.replaceChildren(...c.levels.map((lv) => h("option", { value: lv.value, selected: lv.value === c.level }, lv.label)));
    level.value = c.level;
    strategies.replaceChildren(h("legend", {}, str("strategies")), ...c.strategies.map((s) => h("label", { class: "lab-choice" },
      h("input", { type: "checkbox", name: id("strategy"), value: s.name, checked: s.checked, "data-testid": "lab-strategy" }),
      ` ${s.label}`)));
    Object.assign(games, { min: c.min_games, max: c.max_games, value: c.games });
    run.textContent = str("run");
  }

  function drawTable(rows) {
    const head = h("tr", {}, h("th", { scope: "col" }, str("col_strategy")),
      ...NUMBERS.map((key) => h("th", { scope: "col" }, str(`col_${key}`))));
    const body = rows.map((row) => h("tr", { "data-strategy": row.strategy }, h("th", { scope: "row" }, row.name),
      ...NUMBERS.map((key) => h("td", {}, key === "games" ? String(row[key]) : decimal(row[key], 1, model.get("strings") || {})))));
    return h("table", { class: "lab-table", "data-testid": "lab-table" }, h("caption", {}, str("caption")),
      h("thead", {}, head), h("tbody", {}, ...body));
  }

  function draw() {
    /** @type {LabView} */
    const view = model.get("lab") || {};
    if (!view.controls) return;
    const lang = model.get("lang") || "en";
    root.setAttribute("lang", lang);
    drawLanguage(lang);
    drawPage(view.page, lang);
    drawControls(view.controls);
    const running = view.status === "running";
    run.disabled = running;
    root.setAttribute("aria-busy", String(running));
    status.textContent = view.status_text;
    message.textContent = model.get("message") || "";
    if (!changed("result", [lang, view.svg, view.rows, view.insights, view.notes])) return;
    result.replaceChildren();
    if (!view.rows.length) return;
    result.append(picture(view.svg, "lab-picture", false), drawTable(view.rows),
      h("ul", { class: "lab-insights" }, ...view.insights.map((line) => h("li", {}, line))),
      ...view.notes.map((line) => h("p", { class: "lab-note" }, line)));
  }

  const stop = watch(model, draw);
  draw();
  return stop;
}

export default { render };
