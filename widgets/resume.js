// A lesson's save in the page: keep the `saved` trait in localStorage, hand it back to Python when the
// page opens (the event "resume"), and show the note that says what came of it.  Python decides
// everything: whether the save is good, where it leads, what the note says.  No rules here.

import { h } from "./draw.js";

// The payloads; their Python twins are the TypedDicts of caterpillar_learn/ui/resume.py.

/**
 * @typedef {Object} SaveRecord
 * @property {number} [format]
 * @property {string} [kind]  which lesson controller wrote it
 * @property {string} [lesson]
 * @property {number} [seed]  the lesson's starting seed
 * @property {Object[]} [events]  the events the lesson accepted, in order
 * @property {Object} [engine]  the engine's own save of the game (to_json)
 * @property {string} [lang]  the page's language
 */
/**
 * @typedef {Object} SaveView
 * @property {string} key  the localStorage key (lesson and seed: two lessons never share one)
 * @property {SaveRecord} data
 * @property {string} status  "resumed" or "refused" right after the page's resume, else ""
 */

function storage() {
  try {
    return window.localStorage;
  } catch (error) {
    return null; // a sandboxed page: the lesson works, it is just not kept
  }
}

// Once per rendered widget: send what the page kept (if anything), then keep every new save.
// Returns the clean-up.
export function keepSave(model, send) {
  /** @type {SaveView} */
  const first = model.get("saved") || {};
  const store = storage();
  if (!first.key || !store) return () => {};
  let kept = null;
  try {
    kept = store.getItem(first.key);
  } catch (error) {
    kept = null;
  }
  if (kept !== null) {
    let save = kept;
    try {
      save = JSON.parse(kept);
    } catch (error) {
      save = kept; // not even JSON: Python refuses it and says so
    }
    send("resume", { save });
  }
  const write = () => {
    /** @type {SaveView} */
    const save = model.get("saved") || {};
    if (!save.key) return;
    try {
      store.setItem(save.key, JSON.stringify(save.data));
    } catch (error) {
      // storage full or refused: the lesson goes on, unsaved
    }
  };
  model.on("change:saved", write);
  return () => model.off("change:saved", write);
}

// The note after a reload: "Welcome back" with "Start again", or why the lesson starts fresh.
/** @param {SaveView} save */
export function drawResumeNote(save, words, send) {
  const status = save && save.status;
  if (status !== "resumed" && status !== "refused") return null;
  return h("div", { key: "resume", class: "learn-resume", role: "status", "data-testid": "resume-note", "data-status": status },
    h("span", { text: words[status] || "" }),
    status === "resumed" ? h("button", { class: "cl-button", type: "button", "data-testid": "start-over",
      text: words.start_over, onclick: () => send("start_over") }) : null);
}
