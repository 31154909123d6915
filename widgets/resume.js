// A lesson's save in the page: keep the `saved` trait (and the practice book, `book`) in localStorage, hand
// them back to Python when the page opens (the events "book", then "resume"), and show the note that says
// what came of the resume.  Python decides
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

/**
 * @typedef {Object} BookView  the practice book (caterpillar_learn/ui/caterpillars/practice.py)
 * @property {string} [key]  its localStorage key (one per lesson)
 * @property {Object} [data]  the book's JSON
 */

// Once per rendered widget: send what the page kept under the trait's key (as the event `type`, in its field
// `field`), and keep every new value.  Returns the clean-up.
/**
 * @param {any} model
 * @param {(type: string, fields?: Object<string, any>) => void} send
 * @param {string} trait  "saved" (the lesson's place) or "book" (its practice)
 * @param {string} type  the event that hands it back
 * @param {string} field
 */
function keep(model, send, trait, type, field) {
  /** @type {{key?: string, data?: Object}} */
  const first = model.get(trait) || {};
  const store = storage();
  if (!first.key || !store) return () => {};
  let kept = null;
  try {
    kept = store.getItem(first.key);
  } catch (error) {
    kept = null;
  }
  if (kept !== null) {
    let value = kept;
    try {
      value = JSON.parse(kept);
    } catch (error) {
      value = kept; // not even JSON: Python refuses it and says so
    }
    send(type, { [field]: value });
  }
  const write = () => {
    /** @type {{key?: string, data?: Object}} */
    const now = model.get(trait) || {};
    if (!now.key) return;
    try {
      store.setItem(now.key, JSON.stringify(now.data));
    } catch (error) {
      // storage full or refused: the lesson goes on, unsaved
    }
  };
  model.on(`change:${trait}`, write);
  return () => model.off(`change:${trait}`, write);
}

/** The lesson's place: handed back as the event "resume". */
export function keepSave(model, send) {
  return keep(model, send, "saved", "resume", "save");
}

/** The lesson's practice book: handed back as the event "book" (before the place, so a resumed practice waits). */
export function keepBook(model, send) {
  return keep(model, send, "book", "book", "book");
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
