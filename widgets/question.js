// Predict, then check: the question panel both games' lessons show, and the
// link that saves a learner's answers.  Options drawn on the board itself
// (boxes, cards) are answered there; the others are buttons here.

import { h, speaker } from "./shared.js";

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
 */
/**
 * @typedef {Object} QuestionView
 * @property {string} [kind]  "boxes", "zero", "split", "bonus", "fly" or "cards"
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
    "data-testid": "answer", "data-option": option.id, "aria-pressed": String(option.selected), disabled: done,
    onclick: () => send("answer", { option: option.id }),
  }, (done && option.selected ? "✓ " : "") + option.label));
  const feedback = question.feedback ? h("p", {
    class: "learn-feedback " + (question.feedback.correct ? "learn-right" : "learn-wrong"), "data-testid": "feedback",
    "data-correct": String(question.feedback.correct), role: "status", text: question.feedback.text,
  }) : null;
  return h("section", { class: "learn-question", "aria-labelledby": "learn-question-text", "data-testid": "question" },
    h("div", { class: "learn-question-head" },
      h("p", { class: "learn-question-text", id: "learn-question-text", "data-testid": "question-text", text: question.text }),
      speaker([question.text, question.feedback ? question.feedback.text : ""].filter(Boolean).join("\n"), lang, words)),
    options.length ? h("div", { class: "learn-options", role: question.multiple ? "group" : "radiogroup" }, options) : null,
    h("button", { class: "cl-button cl-primary", type: "button", "data-testid": "check-answer", disabled: done,
      text: question.check, onclick: () => send("check") }),
    feedback);
}

/** @param {RecordView} record */
export function saveLink(record, words) {
  if (!record || !record.answers || !record.answers.length) return null;
  const href = "data:application/json;charset=utf-8," + encodeURIComponent(JSON.stringify(record, null, 1));
  return h("a", { class: "learn-save", href, download: `${record.lesson}-answers.json`, "data-testid": "save-answers",
    text: words });
}
