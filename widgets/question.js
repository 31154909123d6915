// Predict, then check: the question panel both games' lessons show, and the
// link that saves a learner's answers.  Options drawn on the board itself
// (boxes, cards) are answered there; the others are buttons here.  The
// answers are saved under the learner's nickname: asked once (the event
// "nickname"; Python checks it and names the file), then remembered by the page.

import { h, picture, speaker } from "./draw.js";
import { keep, recall } from "./page.js";

// The payloads; their Python twins are the TypedDicts of caterpillar_learn/ui/quiz.py.

/**
 * @typedef {Object} OptionView
 * @property {string} id
 * @property {string} label
 * @property {boolean} selected
 */
/**
 * @typedef {Object} FeedbackView
 * @property {boolean} correct
 * @property {string} text  what was right, what was missed and why
 * @property {boolean} [shown]  the answer is shown for the learner to tap: an instruction, with no ✗
 */
/**
 * @typedef {Object} QuestionView
 * @property {string} [kind]  "boxes", "zero", "split", "bonus", "fly", "cards" or "slip"
 * @property {string} [picture]  what the question is about, drawn by Python (a slip's leaf and card)
 * @property {string} [text]
 * @property {OptionView[]} [options]
 * @property {boolean} [on_board]  the options are the board's boxes or the hand's cards
 * @property {boolean} [multiple]
 * @property {boolean} [answered]
 * @property {FeedbackView} [feedback]
 * @property {string} [check]  the Check button's word
 * @property {{missed: string[], wrong: string[]}} [marks]  after a wrong try: what was wrong (it shakes), what was missed (it glows)
 * @property {string[]} [show]  while the answer is shown: the right options, for the learner to choose
 */
/**
 * @typedef {Object} AnswerView
 * @property {string} step
 * @property {string} kind
 * @property {string} question
 * @property {string[]} given  the chosen options' labels, sorted
 * @property {boolean} correct
 * @property {string} time  local time, YYYY-MM-DDTHH:MM:SS
 */
/**
 * @typedef {Object} RecordView
 * @property {string} lesson
 * @property {string} nickname  "" until the page has given it
 * @property {string} file  the saved file's name, <nickname>-<lesson>-<YYYY-MM-DD>-answers.json ("" without a nickname)
 * @property {AnswerView[]} answers
 */

/** @param {QuestionView} question  `lang` and `words` (the widget's strings) are for read-aloud. */
export function drawQuestion(question, send, lang = "en", words = {}) {
  if (!question || !question.text) return null;
  const done = Boolean(question.feedback && question.feedback.correct);
  const wrong = new Set((question.marks && question.marks.wrong) || []);
  const shown = new Set(question.show || []);
  // A chosen option is outlined; only a right answer, once checked, carries a tick.
  const options = question.on_board ? [] : (question.options || []).map((option) => h("button", {
    class: "cl-button learn-answer" + (option.selected ? " learn-chosen" : "") + (wrong.has(option.id) ? " learn-shake" : "")
      + (shown.has(option.id) ? " learn-shown" : ""), type: "button",
    key: option.id, "data-testid": "answer", "data-option": option.id, "aria-pressed": String(option.selected), disabled: done,
    onclick: () => send("answer", { option: option.id }),
  }, (done && option.selected ? "✓ " : "") + option.label));
  const feedback = question.feedback ? h("p", {
    key: "feedback", class: "learn-feedback " + (question.feedback.correct ? "learn-right" : question.feedback.shown ? "learn-shown" : "learn-wrong"), "data-testid": "feedback",
    "data-correct": String(question.feedback.correct), role: "status", text: question.feedback.text,
  }) : null;
  // Answered right, the question's instruction is done: the options (with their ticks) and the feedback stay,
  // the question's words and Check go, so that the screen says only the next thing to do (issue 29).
  return h("section", { key: "question", class: "learn-question" + (done ? " learn-answered" : ""),
    "aria-labelledby": "learn-question-text", "data-testid": "question" },
    h("div", { key: "head", class: "learn-question-head" },
      h("p", { class: "learn-question-text" + (done ? " learn-sr" : ""), id: "learn-question-text", "data-testid": "question-text",
        text: question.text }),
      speaker([question.text, question.feedback ? question.feedback.text : ""].filter(Boolean).join("\n"), lang, words)),
    // A picture the question is about (Räuber Raupe: a slip's leaf and card), each side named for a screen reader.
    question.picture ? picture(question.picture, "learn-question-picture", false, { key: "picture", "data-testid": "question-picture" }) : null,
    options.length ? h("div", { key: "options", class: "learn-options", role: question.multiple ? "group" : "radiogroup" }, options) : null,
    h("button", { key: "check", class: "cl-button cl-primary", type: "button", "data-testid": "check-answer", disabled: done,
      hidden: done, text: question.check, onclick: () => send("check") }),
    feedback);
}

const NICKNAME_KEY = "caterpillar-learn.nickname";
// The nickname form: open or not, what is typed so far, and whether the download and the focus are still to
// come.  One lesson per page, so one form; its state is the page's, not a node's.
const form = { open: false, value: "", download: false, focus: false };

function remembered() {
  return recall(NICKNAME_KEY);
}

// Once per rendered lesson: remember the nickname Python accepted (the next lesson asks no more).
// Returns the clean-up.
export function keepNickname(model) {
  const write = () => {
    const record = model.get("record") || {};
    if (!record.nickname || record.nickname === remembered()) return;
    keep(NICKNAME_KEY, record.nickname); // refused by the browser: kept for this page, asked again next time
  };
  model.on("change:record", write);
  return () => model.off("change:record", write);
}

// "Save my answers": a download named by Python once the learner has a nickname; before that, the button
// opens a small form that asks for it (once: the page remembers it), and the download follows.
// `redraw` draws the widget again (the form opened).
/**
 * @param {RecordView} record
 * @param {Object<string, string>} words
 * @param {(type: string, fields?: Object<string, any>) => void} send
 * @param {() => void} redraw
 */
export function saveLink(record, words, send, redraw) {
  if (!record || !record.answers || !record.answers.length) return null;
  if (record.file) {
    const href = "data:application/json;charset=utf-8," + encodeURIComponent(JSON.stringify(record, null, 1));
    /** @param {HTMLAnchorElement|null} link  the learner asked for the file: it comes as soon as it has a name */
    const fetchOnce = (link) => {
      if (!link || !form.download) return;
      form.download = false;
      form.open = false;  // ours: the form's state, not a node
      queueMicrotask(() => link.click());
    };
    return h("a", { key: "save", class: "learn-save", href, download: record.file, "data-testid": "save-answers",
      text: words.save_answers, ref: fetchOnce });
  }
  if (!form.open) {
    return h("button", { key: "save", class: "cl-button learn-save", type: "button", "data-testid": "save-answers",
      text: words.save_answers, onclick: () => {
        const known = remembered();
        if (known) { // asked before: the file follows at once
          form.download = true;
          send("nickname", { value: known });
          return;
        }
        form.open = true;  // ours: the form's state, not a node
        form.focus = true;
        redraw();
      } });
  }
  /** @param {HTMLInputElement|null} input */
  const focusOnce = (input) => {
    if (!input || !form.focus) return;
    form.focus = false;
    input.focus();
  };
  /** @param {Event} event */
  const typed = (event) => { form.value = /** @type {HTMLInputElement} */ (event.target).value; };  // ours: the form's state, not a node
  const input = h("input", { id: "learn-nickname", type: "text", maxlength: "20", autocomplete: "off",
    "data-testid": "nickname", value: form.value, oninput: typed, ref: focusOnce });
  /** @param {Event} event */
  const submit = (event) => {
    event.preventDefault();
    form.download = true;
    send("nickname", { value: form.value });
  };
  return h("form", { key: "save", class: "learn-nickname", "data-testid": "nickname-form", onsubmit: submit },
    h("label", { for: "learn-nickname", text: words.nickname }),
    input,
    h("button", { class: "cl-button cl-primary", type: "submit", "data-testid": "nickname-save", text: words.nickname_save }));
}
