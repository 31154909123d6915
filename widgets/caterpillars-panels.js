// Caterpillars: the per-box menu, the explanation, the hint panel, the final
// score with the review, and the lesson stepper.

import { fill, h, languageSwitch, picture, speaker } from "./shared.js";
import { dieFace } from "./caterpillars-tray.js";

export function drawMenu(view, send) {
  const { menu, strings } = view;
  if (!menu || !menu.options) return null;
  const values = (view.dice && view.dice.values) || [];
  const worded = !view.lesson || Boolean(view.lesson.numbers); // a lesson's child sees the pictures; grown-ups the words too
  const options = menu.options.map((option) => h("button", {
    class: "cl-button cl-option", type: "button", "data-testid": "move-option", "aria-label": option.text,
    onclick: () => send("option", { index: option.index }),
  }, optionPicture(option, values), worded ? h("span", { class: "cl-option-main", "aria-hidden": "true", text: option.text }) : null));
  return h("div", {
    class: "cl-menu", role: "dialog", "aria-label": menu.title, "data-testid": "move-menu",
    onkeydown: (event) => { if (event.key === "Escape") send("close"); },
  },
  h("div", { class: "cl-menu-title", text: menu.title }),
  h("div", { class: "cl-note", text: strings.menu_hint }),
  h("div", { class: "cl-menu-options", role: "group" }, options),
  h("button", { class: "cl-button", type: "button", "data-testid": "menu-close", text: strings.close, onclick: () => send("close") }));
}

// A move in pictures, for a child who does not read: the dice that give the score, then the score the box gets;
// a die put into a bonus box too, beside its letter.
function optionPicture(option, values) {
  const mini = (value) => h("span", { class: "cl-mini-die" }, dieFace(value));
  const scoring = ((option.dice || {}).score || []).map((index) => values[index]).filter((value) => value !== undefined);
  const parts = [...scoring.map(mini), h("span", { class: "cl-option-score" + (option.zero ? " cl-zero" : ""),
    text: String(option.zero ? 0 : option.score) })];
  if (option.bonus) {
    parts.push(h("span", { class: "cl-option-bonus" }, mini(option.bonus.value),
      h("span", { class: "cl-option-letter", text: option.bonus.box })));
  }
  return h("span", { class: "cl-option-picture", "aria-hidden": "true" }, ...parts);
}

export function drawTalk(view) {
  return h("div", { class: "cl-talk" },
    h("div", { class: "cl-said" },
      h("p", { class: "cl-explanation", "data-testid": "explanation", "aria-live": "polite", text: view.explanation || "" }),
      view.explanation ? speaker(view.explanation, view.lang, view.strings) : null),
    view.message ? h("p", { class: "cl-message", role: "alert", "data-testid": "message", "data-speak": true, text: view.message }) : null);
}

// The best few options first; the rest (dozens at Advanced) fold away.
const SHOWN = 5;

function hintOption(option, number) {
  const after = option.value_text
    ? h("span", { class: "cl-value", text: " — " + option.value_text })
    : option.how && option.how.length ? h("span", { class: "cl-note", text: " — " + option.how.join(" ") }) : null;
  return h("li", { class: option.best ? "cl-best" : "", value: number },
    h("span", { text: (option.best ? "★ " : "") + option.text }), after);
}

export function drawHint(view, send) {
  const { hint, strings, dice } = view;
  const button = h("button", {
    class: "cl-button", type: "button", "data-testid": "hint-button", text: strings.hint,
    disabled: !dice.rolled || dice.kind !== "play", onclick: () => send("hint"),
  });
  if (!hint || !hint.status) return h("div", { class: "cl-hint-wrap" }, button);
  const options = (hint.options || []).map((option, index) => hintOption(option, index + 1));
  const folded = options.length > SHOWN + 1 ? options.splice(SHOWN) : [];
  return h("div", { class: "cl-hint-wrap" }, button,
    h("section", { class: "cl-hint", "data-testid": "hint", "aria-live": "polite", "aria-label": strings.hint_title },
      h("div", { class: "cl-said" }, h("p", { class: "cl-hint-title", text: hint.title || "" }),
        speaker([hint.title, ...(hint.lines || [])].filter(Boolean).join("\n"), view.lang, strings)),
      (hint.lines || []).map((line) => h("p", { class: "cl-note", text: line })),
      h("ol", { class: "cl-hint-options" }, options),
      folded.length ? h("details", { class: "cl-more" },
        h("summary", { text: fill(strings.more, { count: folded.length }) }),
        h("ol", { class: "cl-hint-options", start: SHOWN + 1 }, folded)) : null));
}

function drawReview(review, send, strings) {
  if (!review || !review.rounds) return [];
  const ask = review.reviewed ? [] : [
    h("button", { class: "cl-button", type: "button", "data-testid": "review-button", text: strings.review,
      disabled: Boolean(review.thinking), onclick: () => send("review") }),
    review.thinking ? h("p", { class: "cl-note", text: review.thinking }) : null,
  ];
  return [...ask, h("details", { class: "cl-review", "data-testid": "review", open: Boolean(review.reviewed) },
    h("summary", { text: review.title }),
    (review.advice || []).map((line) => h("p", { class: "cl-note", text: line })),
    h("ol", {}, review.rounds.map((line) => h("li", { text: line }))))];
}

export function drawFinal(view, send) {
  const { final, review, strings } = view;
  if (!final || !final.text) return null;
  // In a lesson the sheet shows who flies and who is struck out; the scoring in words is for grown-ups.
  const lines = view.lesson && !view.lesson.numbers ? [] : final.explanation || [];
  return h("section", { class: "cl-final", "aria-label": strings.final_title },
    h("h3", { class: "cl-final-title", text: strings.final_title }),
    h("p", { class: "cl-final-score", "data-testid": "final-score", "data-speak": true, text: final.text }),
    lines.length ? h("ul", { class: "cl-lines", "data-testid": "final-lines" }, lines.map((line) => h("li", { text: line }))) : null,
    h("button", { class: "cl-button cl-primary", type: "button", "data-testid": "new-game", text: strings.new_game,
      onclick: () => send("new_game") }),
    drawReview(review, send, strings));
}

export function drawStepper(view, send) {
  const { lesson, strings } = view;
  if (!lesson || lesson.count === undefined) return null;
  const pips = Array.from({ length: lesson.count }, (_, i) =>
    h("span", { class: "cl-pip-step" + (i < lesson.index ? " cl-done" : i === lesson.index ? " cl-now" : "") }));
  return h("section", { class: "cl-stepper", "aria-label": lesson.heading },
    h("div", { class: "cl-heading" }, h("span", { text: lesson.heading }),
      languageSwitch(view.languages, view.lang, strings, send)),
    h("div", { class: "cl-progress", role: "progressbar", "aria-valuemin": 1, "aria-valuemax": lesson.count,
      "aria-valuenow": lesson.index + 1, "aria-label": lesson.progress }, pips),
    h("div", { class: "cl-step-head" },
      h("h2", { class: "cl-step-title", "data-testid": "lesson-step", tabindex: "-1", text: lesson.title }),
      speaker([lesson.title, lesson.body].filter(Boolean).join("\n"), view.lang, strings)),
    h("p", { class: "cl-step-body", "data-testid": "lesson-body", text: lesson.body }),
    lesson.todo ? h("p", { class: "cl-todo", "data-testid": "lesson-todo", "data-speak": true, text: lesson.todo }) : null,
    lesson.new_game ? h("button", { class: "cl-button cl-primary", type: "button", "data-testid": "new-game",
      text: strings.new_game, onclick: () => send("new_game") }) : null,
    lesson.guide ? h("p", { class: "cl-guide", "data-testid": "lesson-guide" }, h("span", { class: "cl-star-mark", "aria-hidden": "true", text: "★ " }),
      lesson.guide, speaker(lesson.guide, view.lang, strings)) : null,
    h("div", { class: "cl-nav" },
      h("button", { class: "cl-button", type: "button", "data-testid": "back-step", disabled: !lesson.can_back,
        text: "← " + strings.back, onclick: () => send("step", { delta: -1 }) }),
      h("span", { class: "cl-note", text: lesson.progress }),
      h("button", { class: "cl-button cl-primary", type: "button", "data-testid": "next-step", disabled: !lesson.can_next,
        text: strings.next + " →", onclick: () => send("step", { delta: 1 }) })),
    drawGrownUps(lesson, strings, send));
}

// The numbers for grown-ups (values, chances, the review) and their notes: one switch.
function drawGrownUps(lesson, strings, send) {
  const toggle = h("button", { class: "cl-button cl-grown-ups", type: "button", "data-testid": "grown-ups",
    "aria-pressed": String(Boolean(lesson.numbers)), text: strings.grown_ups,
    onclick: () => send("numbers", { value: !lesson.numbers }) });
  const notes = lesson.numbers && lesson.grown_ups ? h("details", { class: "cl-grown-ups-notes", "data-testid": "grown-ups-notes" },
    h("summary", { text: strings.grown_ups_notes }),
    h("ul", { class: "cl-lines" }, (lesson.grown_ups.help || []).map((line) => h("li", { text: line }))),
    (lesson.grown_ups.teacher || []).length ? h("pre", { class: "cl-teacher", text: lesson.grown_ups.teacher.join("\n") }) : null) : null;
  return h("div", { class: "cl-grown-ups-wrap" }, toggle, notes);
}

// "Try another move": the last round's other moves, and both outcomes side by side.
export function drawWhatIf(view, send) {
  const { whatif, strings } = view;
  if (!whatif || !whatif.options || !whatif.options.length) return null;
  const choices = whatif.options.map((words, index) => h("option", { value: index, selected: index === whatif.index }, words));
  const select = h("select", { id: "cl-whatif-move", "data-testid": "whatif-option", "aria-label": strings.try_other }, choices);
  const outcome = (side) => side ? h("figure", { class: "cl-outcome" },
    picture(side.svg, "cl-outcome-sheet"),
    h("figcaption", {}, h("strong", { text: side.text }), h("br"), side.value_text)) : null;
  return h("section", { class: "cl-whatif", "aria-label": strings.try_other },
    h("label", { for: "cl-whatif-move", text: strings.try_other + ": " }), select,
    h("button", { class: "cl-button", type: "button", "data-testid": "try-other", text: strings.try_other,
      onclick: () => send("whatif", { index: Number(select.value) }) }),
    whatif.yours ? h("div", { class: "cl-outcomes", "data-testid": "whatif", role: "group", "aria-label": whatif.title },
      outcome(whatif.yours), outcome(whatif.other)) : null);
}
