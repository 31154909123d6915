// Caterpillars: the per-box menu, the explanation, the hint panel, the final
// score with the review, and the lesson stepper.  Each returns a description
// (draw.js); an element that comes and goes has a `key`, so its neighbours keep their nodes.

import { fill } from "./shared.js";
import { h, icon, languageSwitch, picture, speaker } from "./draw.js";
import { dieFace } from "./caterpillars-tray.js";

/**
 * @typedef {import("./caterpillars.js").BoardView} BoardView
 * @typedef {(type: string, fields?: Object<string, any>) => void} Send
 */

/** The menu of one box's moves, each option keyed by its index. @param {BoardView} view @param {Send} send */
export function drawMenu(view, send) {
  const { menu, strings } = view;
  if (!menu || !menu.options) return null;
  const values = (view.dice && view.dice.values) || [];
  const worded = !view.lesson || Boolean(view.lesson.numbers); // a lesson's child sees the pictures; grown-ups the words too
  const options = menu.options.map((option) => h("button", {
    key: `option-${option.index}`, class: "cl-button cl-option", type: "button", "data-testid": "move-option",
    "aria-label": option.text, onclick: () => send("option", { index: option.index }),
  }, optionPicture(option, values), worded ? h("span", { class: "cl-option-main", "aria-hidden": "true", text: option.text }) : null));
  return h("div", {
    key: `menu-${menu.caterpillar}-${menu.box}`, class: "cl-menu", role: "dialog", "aria-label": menu.title, "data-testid": "move-menu",
    /** @param {KeyboardEvent} event */
    onkeydown: (event) => { if (event.key === "Escape") send("close"); },
  },
  h("div", { class: "cl-menu-title", text: menu.title }),
  h("div", { class: "cl-note", text: strings.menu_hint }),
  h("div", { class: "cl-menu-options", role: "group" }, options),
  h("button", { class: "cl-button", type: "button", "data-testid": "menu-close", text: strings.close, onclick: () => send("close") }));
}

// A move in pictures, for a child who does not read: the dice that give the score, then the score the box gets;
// a die put into a bonus box too, beside its letter.
/**
 * @param {any} option  a LegalEntry (its `bonus` as {value, box} when it fills a bonus box)
 * @param {number[]} values
 */
function optionPicture(option, values) {
  /** @param {number} value */
  const mini = (value) => h("span", { class: "cl-mini-die" }, dieFace(value));
  const scoring = ((option.dice || {}).score || []).map((index) => values[index]).filter((value) => value !== undefined);
  const parts = [...scoring.map(mini), h("span", { key: "score", class: "cl-option-score" + (option.zero ? " cl-zero" : ""),
    text: String(option.zero ? 0 : option.score) })];
  if (option.bonus) {
    parts.push(h("span", { key: "bonus", class: "cl-option-bonus" }, mini(option.bonus.value),
      h("span", { class: "cl-option-letter", text: option.bonus.box })));
  }
  return h("span", { class: "cl-option-picture", "aria-hidden": "true" }, ...parts);
}

/** What the game says: the explanation (read aloud) and a message. @param {BoardView} view */
export function drawTalk(view) {
  return h("div", { key: "talk", class: "cl-talk" },
    h("div", { key: "said", class: "cl-said" },
      h("p", { key: "explanation", class: "cl-explanation", "data-testid": "explanation", "aria-live": "polite", text: view.explanation || "" }),
      view.explanation ? speaker(view.explanation, view.lang, view.strings, { key: "speaker" },
        view.lesson && view.lesson.quiet_talk ? "" : undefined) : null),  // a lesson's long run: the board says it
    view.message ? h("p", { key: "message", class: "cl-message", role: "alert", "data-testid": "message", "data-speak": true, text: view.message }) : null);
}

// The best few options first; the rest (dozens at Advanced) fold away.
const SHOWN = 5;

/**
 * @param {{text: string, how: string[], value: number|null, value_text?: string, best: boolean}} option
 * @param {number} number
 */
function hintOption(option, number) {
  const after = option.value_text
    ? h("span", { key: "value", class: "cl-value", text: " — " + option.value_text })
    : option.how && option.how.length ? h("span", { key: "how", class: "cl-note", text: " — " + option.how.join(" ") }) : null;
  return h("li", { key: `hint-${number}`, class: option.best ? "cl-best" : "", value: number },
    h("span", { key: "text", text: (option.best ? "★ " : "") + option.text }), after);
}

/** The Hint button and the hint ("thinking", then its lines and options). @param {BoardView} view @param {Send} send */
export function drawHint(view, send) {
  const { hint, strings, dice } = view;
  const button = h("button", {
    key: "button", class: "cl-button", type: "button", "data-testid": "hint-button", text: strings.hint,
    disabled: !dice.rolled || dice.kind !== "play", onclick: () => send("hint"),
  });
  if (!hint || !hint.status) return h("div", { key: "hint", class: "cl-hint-wrap" }, button);
  const options = (hint.options || []).map((option, index) => hintOption(option, index + 1));
  const folded = options.length > SHOWN + 1 ? options.splice(SHOWN) : [];
  return h("div", { key: "hint", class: "cl-hint-wrap" }, button,
    h("section", { key: "panel", class: "cl-hint", "data-testid": "hint", "aria-live": "polite", "aria-label": strings.hint_title },
      h("div", { key: "said", class: "cl-said" }, h("p", { class: "cl-hint-title", text: hint.title || "" }),
        // While the helper thinks the wait is shown, not read: the voice reads the hint once it is there.
        speaker([hint.title, ...(hint.lines || [])].filter(Boolean).join("\n"), view.lang, strings, {},
          hint.status === "thinking" ? "" : undefined)),
      (hint.lines || []).map((line, index) => h("p", { key: `line-${index}`, class: "cl-note", text: line })),
      h("ol", { key: "options", class: "cl-hint-options" }, options),
      folded.length ? h("details", { key: "more", class: "cl-more" },
        h("summary", { text: fill(strings.more, { count: folded.length }) }),
        h("ol", { class: "cl-hint-options", start: SHOWN + 1 }, folded)) : null));
}

/**
 * @param {import("./caterpillars.js").ReviewView} review
 * @param {Send} send
 * @param {Object<string, string>} strings
 */
function drawReview(review, send, strings) {
  if (!review || !review.rounds) return [];
  const ask = review.reviewed ? [] : [
    h("button", { key: "review-button", class: "cl-button", type: "button", "data-testid": "review-button", text: strings.review,
      disabled: Boolean(review.thinking), onclick: () => send("review") }),
    review.thinking ? h("p", { key: "review-thinking", class: "cl-note", text: review.thinking }) : null,
  ];
  return [...ask, h("details", { key: "review", class: "cl-review", "data-testid": "review", open: Boolean(review.reviewed) },
    h("summary", { key: "summary", text: review.title }),
    (review.advice || []).map((line, index) => h("p", { key: `advice-${index}`, class: "cl-note", text: line })),
    h("ol", { key: "rounds" }, review.rounds.map((line, index) => h("li", { key: index, text: line }))))];
}

/** The final score, its scoring in words (for grown-ups in a lesson), New game and the review. @param {BoardView} view @param {Send} send */
export function drawFinal(view, send) {
  const { final, review, strings } = view;
  if (!final || !final.text) return null;
  // In a lesson the sheet shows who flies and who is struck out; the scoring in words is for grown-ups.
  const lines = view.lesson && !view.lesson.numbers ? [] : final.explanation || [];
  // The reward: the butterfly and the stars the game earned (filled, then empty), with the score in words.
  const earned = final.stars || 0;
  // A practice of the game's costliest moves is offered here, after the reward (issue 40): one tap begins it.
  const practice = view.practice || {};
  const offered = practice.status === "offered";
  const inLesson = Boolean(view.lesson && view.lesson.count !== undefined);  // (few words on a child's screen)
  const stars = [1, 2, 3].map((n) => h("span", { key: n, class: "cl-star-earned" + (n <= earned ? " cl-on" : ""),
    "aria-hidden": "true", text: "★" }));  // earned: filled; not earned: pale (caterpillars.css)
  return h("section", { key: "final", class: "cl-final", "aria-label": strings.final_title },
    h("div", { key: "celebration", class: "cl-celebration", "data-testid": "celebration" },
      icon("butterfly", "cl-celebration-butterfly"),
      earned ? h("span", { key: "stars", class: "cl-stars", role: "img", "data-testid": "stars", "data-stars": earned,
        "aria-label": final.stars_text }, stars) : null),
    inLesson ? null : h("h3", { key: "title", class: "cl-final-title", text: strings.final_title }),  // a lesson: the butterfly says it
    h("p", { key: "score", class: "cl-final-score", "data-testid": "final-score", "data-speak": true, text: final.text }),
    lines.length ? h("ul", { key: "lines", class: "cl-lines", "data-testid": "final-lines" }, lines.map((line) => h("li", { text: line }))) : null,
    offered ? h("p", { key: "offer", class: "cl-practice-offer", "data-testid": "practice-offer", "data-speak": true, text: practice.said }) : null,
    h("div", { key: "buttons", class: "cl-nav" },
      offered ? h("button", { key: "practise", class: "cl-button cl-primary", type: "button", "data-testid": "practice-start",
        text: practice.start, onclick: () => send("practice_start") }) : null,
      h("button", { key: "new-game", class: "cl-button" + (offered ? "" : " cl-primary"), type: "button", "data-testid": "new-game",
        text: strings.new_game, onclick: () => send("new_game") })),
    view.lesson && view.lesson.count !== undefined && !view.lesson.numbers ? null  // the review: for grown-ups in a lesson
      : drawReview(review, send, strings));
}

/**
 * The lesson's heading (with the page's settings) and its stepper; null outside a lesson.
 * @param {BoardView} view
 * @param {Send} send
 * @returns {{heading: any, stepper: any, grownUps: any}|null}
 */
export function drawStepper(view, send) {
  const { lesson, strings } = view;
  if (!lesson || lesson.count === undefined) return null;
  const pips = Array.from({ length: lesson.count }, (_, i) =>
    h("span", { key: i, class: "cl-pip-step" + (i < lesson.index ? " cl-done" : i === lesson.index ? " cl-now" : "") }));
  const heading = h("div", { key: "heading", class: "cl-heading" }, h("span", { text: lesson.heading }),
    languageSwitch(view.languages, view.lang, strings, send));
  const stepper = h("section", { key: "stepper", class: "cl-stepper", "aria-label": lesson.heading },
    h("div", { key: "progress", class: "cl-progress", role: "progressbar", "aria-valuemin": 1, "aria-valuemax": lesson.count,
      "aria-valuenow": lesson.index + 1, "aria-label": lesson.progress }, pips),
    h("div", { key: "head", class: "cl-step-head" },
      h("h2", { class: "cl-step-title", "data-testid": "lesson-step", tabindex: "-1", text: lesson.title }),
      // The button reads the title and the words; by itself the voice reads the words (the title is for the eye;
      // a step whose question is asked has none: the question reads itself).
      speaker([lesson.title, lesson.body].filter(Boolean).join("\n"), view.lang, strings, {}, lesson.body || "")),
    h("p", { key: "body", class: "cl-step-body", "data-testid": "lesson-body", text: lesson.body }),
    lesson.todo ? h("p", { key: "todo", class: "cl-todo" + (lesson.waits ? " cl-held" : ""), "data-testid": "lesson-todo",
      "data-waits": lesson.waits ? "true" : null, "data-speak": true },
    // Waiting for the teacher (a hold, the class's roll): a raised hand says "wait" to a child who does not read.
    lesson.waits ? icon("wait", "learn-icon cl-held-icon") : null, h("span", { text: lesson.todo })) : null,
    lesson.new_game ? h("button", { key: "new-game", class: "cl-button cl-primary", type: "button", "data-testid": "new-game",
      text: strings.new_game, onclick: () => send("new_game") }) : null,
    lesson.guide ? h("p", { key: "guide", class: "cl-guide", "data-testid": "lesson-guide" },
      h("span", { class: "cl-star-mark", "aria-hidden": "true", text: "★ " }),
      lesson.guide, speaker(lesson.guide, view.lang, strings)) : null,
    h("div", { key: "nav", class: "cl-nav" },
      h("button", { class: "cl-button", type: "button", "data-testid": "back-step", disabled: !lesson.can_back,
        text: "← " + strings.back, onclick: () => send("step", { delta: -1 }) }),
      h("button", { class: "cl-button cl-primary", type: "button", "data-testid": "next-step", disabled: !lesson.can_next,
        text: strings.next + " →", onclick: () => send("step", { delta: 1 }) })));
  // For grown-ups closes the steps' column (after the question and the end): a grown-up's button does not push
  // the child's question below the screen's edge (issue 40).
  return { heading, stepper, grownUps: drawGrownUps(lesson, strings, send) };
}

// The numbers for grown-ups (values, chances, the review) and their notes: one switch.
/**
 * @param {import("./caterpillars.js").LessonView} lesson
 * @param {Object<string, string>} strings
 * @param {Send} send
 */
function drawGrownUps(lesson, strings, send) {
  const toggle = h("button", { key: "toggle", class: "cl-button cl-grown-ups", type: "button", "data-testid": "grown-ups",
    "aria-pressed": String(Boolean(lesson.numbers)), text: strings.grown_ups,
    onclick: () => send("numbers", { value: !lesson.numbers }) });
  const notes = lesson.numbers && lesson.grown_ups ? h("details", { key: "notes", class: "cl-grown-ups-notes", "data-testid": "grown-ups-notes" },
    h("summary", { key: "summary", text: strings.grown_ups_notes }),
    h("ul", { key: "help", class: "cl-lines" }, (lesson.grown_ups.help || []).map((line) => h("li", { text: line }))),
    (lesson.grown_ups.teacher || []).length ? h("pre", { key: "teacher", class: "cl-teacher", text: lesson.grown_ups.teacher.join("\n") }) : null) : null;
  return h("div", { key: "grown-ups", class: "cl-grown-ups-wrap" }, toggle, notes);
}

// "Try another move": the last round's other moves, and both outcomes side by side.
/** @param {BoardView} view @param {Send} send */
export function drawWhatIf(view, send) {
  const { whatif, strings } = view;
  if (!whatif || !whatif.options || !whatif.options.length) return null;
  const choices = whatif.options.map((words, index) => h("option", { key: index, value: index, text: words }));
  /** @type {HTMLSelectElement|null} */
  let select = null;
  /** @param {HTMLSelectElement|null} node */
  const keep = (node) => { if (node) select = node; };
  /** @param {import("./caterpillars.js").OutcomeView} [side] */
  const outcome = (side) => side ? h("figure", { class: "cl-outcome" },
    picture(side.svg, "cl-outcome-sheet"),
    h("figcaption", {}, h("strong", { text: side.text }), h("br"), side.value_text)) : null;
  return h("section", { key: "whatif", class: "cl-whatif", "aria-label": strings.try_other },
    h("label", { key: "label", for: "cl-whatif-move", text: strings.try_other + ": " }),
    h("select", { key: "select", id: "cl-whatif-move", "data-testid": "whatif-option", "aria-label": strings.try_other,
      value: String(whatif.index ?? 0), ref: keep }, choices),
    h("button", { key: "try", class: "cl-button", type: "button", "data-testid": "try-other", text: strings.try_other,
      onclick: () => send("whatif", { index: Number(select ? select.value : 0) }) }),
    whatif.yours ? h("div", { key: "outcomes", class: "cl-outcomes", "data-testid": "whatif", role: "group", "aria-label": whatif.title },
      outcome(whatif.yours), outcome(whatif.other)) : null);
}

// Practise your own moves (issue 33): the position on the board is the game's; this panel says which one it is,
// what came of the last try, and offers Next once it is answered.  Python decides everything.
/** @param {BoardView} view @param {Send} send */
export function drawPractice(view, send) {
  const practice = view.practice;
  if (!practice || !practice.status || practice.status === "offered") return null;  // offered: in the end scene
  const { strings } = view;
  if (practice.status !== "active") {  // the end of a practice, or nothing to practise: a line of joy
    return h("section", { key: "practice", class: "cl-practice cl-practice-end", "data-testid": "practice",
      "data-status": practice.status, "aria-label": practice.title },
    practice.status === "thinking" ? null : icon("butterfly", "cl-practice-butterfly"),  // (thinking: the classroom's workers)
    h("p", { key: "said", class: "cl-practice-said", role: "status", "data-speak": true, text: practice.said }));
  }
  const said = practice.said ? h("p", { key: "said", class: "cl-practice-said" + (practice.right ? " cl-right" : ""),
    role: "status", "data-testid": "practice-said", "data-speak": true, text: practice.said }) : null;
  return h("section", { key: "practice", class: "cl-practice", "data-testid": "practice", "data-status": "active",
    "aria-label": practice.title },
  h("div", { key: "head", class: "cl-practice-head" },
    h("h2", { class: "cl-practice-title", text: practice.title }),
    h("span", { class: "cl-practice-count", "data-testid": "practice-count", text: practice.count })),
  practice.joy ? h("p", { key: "joy", class: "cl-practice-joy", "data-speak": true, text: practice.joy }) : null,
  practice.prompt ? h("p", { key: "prompt", class: "cl-practice-prompt", "data-speak": true, text: practice.prompt }) : null,
  practice.idea ? h("p", { key: "idea", class: "cl-note cl-practice-idea", "data-testid": "practice-idea", text: practice.idea }) : null,
  said,
  h("div", { key: "buttons", class: "cl-nav" },
    practice.answered ? h("button", { key: "next", class: "cl-button cl-primary", type: "button", "data-testid": "practice-next",
      text: practice.next + " →", onclick: () => send("practice_next") }) : null,
    practice.answered ? null : h("button", { key: "stop", class: "cl-button", type: "button", "data-testid": "practice-stop",
      text: practice.stop, onclick: () => send("practice_stop") })));
}
