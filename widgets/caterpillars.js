// Caterpillars front end: a board (and a lesson's stepper around it).  It
// draws the view traits and turns every learner action into one event; the
// scoresheet itself is drawn by Python (caterpillar_learn/caterpillars/svg.py)
// with data attributes that this module wires to clicks and keys.  No rules here.

import { drawFinal, drawHint, drawMenu, drawStepper, drawTalk, drawWhatIf } from "./caterpillars-panels.js";
import { drawQuestion, keepNickname, saveLink } from "./question.js";
import { drawResumeNote, keepSave } from "./resume.js";
import { drawTray } from "./caterpillars-tray.js";
import { h, picture, sender, watch, isShortcut } from "./shared.js";

// The trait payloads, one @typedef each; their Python twins are the TypedDicts
// of caterpillar_learn/ui/caterpillars/views.py (a test keeps the two alike).

/**
 * @typedef {Object} SheetView
 * @property {string} level
 * @property {Object<string, Array<number|null>>} labels
 * @property {Object<string, Array<number|null>>} scores
 * @property {Object<string, number|null>} [bonus]
 * @property {string} phase  "setup", "play" or "over"
 * @property {number} round  1 to 12
 * @property {Object<string, number>} totals
 * @property {Array<[string, number]>} pending  boxes whose setup label was placed this roll
 * @property {string} svg  the scoresheet drawn by Python
 */
/**
 * @typedef {Object} DiceView
 * @property {boolean} rolled
 * @property {string} kind  the phase
 * @property {number} count  rolls shown so far (a new one starts the tumble)
 * @property {number[]} [values]
 * @property {string|null} [action]
 * @property {number[]} [used]
 * @property {number|null} [selected]
 */
/**
 * @typedef {Object} LegalEntry
 * @property {string} caterpillar
 * @property {number} box
 * @property {number} index
 * @property {number} [score]
 * @property {boolean} [zero]
 * @property {string|null} [bonus]
 * @property {string[]} [how]
 * @property {string} [text]
 * @property {boolean} [setup]
 * @property {{score: number[], label: number[]}} [dice]  which dice give the score and which the label
 */
/**
 * @typedef {Object} MenuView
 * @property {string} [caterpillar]
 * @property {number} [box]
 * @property {string} [title]
 * @property {LegalEntry[]} [options]
 */
/**
 * @typedef {Object} HintView
 * @property {string} [status]  "thinking", "ready" or "unavailable"
 * @property {string} [title]
 * @property {string[]} [lines]
 * @property {Array<{text: string, how: string[], value: number|null, value_text?: string, best: boolean}>} [options]
 * @property {string} [child]  the best move in a child's words
 * @property {{caterpillar: string, box: number}} [best]  the best move's box, marked on the sheet
 */
/**
 * @typedef {Object} FinalView
 * @property {string} [flying]
 * @property {number} [final]
 * @property {string[]} [struck]
 * @property {string[]} [explanation]
 * @property {string} [text]
 */
/**
 * @typedef {Object} ReviewView
 * @property {string} [title]
 * @property {string[]} [rounds]
 * @property {string[]} [advice]
 * @property {boolean} [reviewed]
 * @property {string} [thinking]
 */
/**
 * @typedef {Object} LessonView
 * @property {string} [name]
 * @property {string} [heading]
 * @property {string} [title]
 * @property {string} [body]
 * @property {number} [index]
 * @property {number} [count]
 * @property {string} [progress]
 * @property {boolean} [can_back]
 * @property {boolean} [can_next]
 * @property {string} [todo]
 * @property {string} [target]  the one thing to do now, marked with data-todo (see markTodo)
 * @property {boolean} [new_game]  the stepper offers New game itself (lesson 0's end)
 * @property {string} [guide]  why only one box has a star (a round the lesson leads)
 * @property {boolean} [numbers]  whether the numbers for grown-ups show
 * @property {{help: string[], teacher: string[]}} [grown_ups]  the grown-ups' notes (while numbers show)
 */
/**
 * @typedef {Object} OutcomeView
 * @property {string} [text]
 * @property {number} [value]
 * @property {string} [value_text]
 * @property {boolean} [exact]
 * @property {string} [svg]  the sheet after that move, drawn by Python
 */
/**
 * @typedef {Object} WhatIfView
 * @property {string} [title]
 * @property {OutcomeView} [yours]
 * @property {OutcomeView} [other]
 * @property {number} [index]
 * @property {string[]} [options]  the other moves of the last round, in words
 */
/**
 * @typedef {Object} BoardView  every view trait, read at once
 * @property {SheetView} sheet
 * @property {DiceView} dice
 * @property {LegalEntry[]} legal
 * @property {MenuView} menu
 * @property {HintView} hint
 * @property {string} explanation
 * @property {string} message
 * @property {FinalView} final
 * @property {ReviewView} review
 * @property {LessonView} lesson
 * @property {WhatIfView} whatif
 * @property {import("./question.js").QuestionView} question
 * @property {import("./question.js").RecordView} record
 * @property {import("./resume.js").SaveView} saved  a lesson's save, kept by the page ({} for a board)
 * @property {Object<string, string>} strings
 * @property {string} lang
 * @property {Array<{code: string, name: string}>} languages  the language switch's choices
 */

const NAMES = ["Alex", "Bobby", "Charlie"];

/** @returns {BoardView} */
function readView(model) {
  const view = {};
  for (const name of model.get("view_names") || []) view[name] = model.get(name);
  view.legal = view.legal || [];
  view.strings = view.strings || {};
  return view;
}

// Arrow keys move between boxes like a grid: left/right along a caterpillar,
// up/down between caterpillars.
function moveFocus(root, from, key) {
  let row = NAMES.indexOf(from.getAttribute("data-caterpillar"));
  let box = Number(from.getAttribute("data-box"));
  if (key === "ArrowLeft") box = Math.max(0, box - 1);
  else if (key === "ArrowRight") box = Math.min(3, box + 1);
  else if (key === "ArrowUp") row = Math.max(0, row - 1);
  else if (key === "ArrowDown") row = Math.min(2, row + 1);
  const target = root.querySelector(`[data-testid="box-${NAMES[row]}-${box}"]`);
  if (target) target.focus();
}

// The rule as a picture: the die that gives the label points at its box (an
// arrow), the die that gives the score is marked, and on a move the score
// die flies into the box.  Drawn for the box under the pointer or the focus,
// and for the only starred box when there is one.
const SVG_NS = "http://www.w3.org/2000/svg";

function entryAt(view, box) {
  return view.legal.find((e) => !e.setup && e.caterpillar === box.caterpillar && e.box === box.box && e.dice);
}

function centre(node, origin) {
  const r = node.getBoundingClientRect();
  return { x: r.left - origin.left + r.width / 2, y: r.top - origin.top + r.height / 2, r };
}

function showRule(root, entry, ghost = false) {
  clearRule(root);
  if (!entry || !entry.dice) return;
  const box = root.querySelector(`[data-testid="box-${entry.caterpillar}-${entry.box}"]`);
  if (ghost && box && typeof box.getBBox === "function") {
    // The score the tap would write, pale in its box: a second tap (on it, or the box) writes it.
    const r = box.getBBox();
    const text = document.createElementNS(SVG_NS, "text");
    text.setAttribute("class", "cl-ghost");
    text.setAttribute("data-testid", "ghost-score");
    text.setAttribute("x", String(r.x + r.width / 2));
    text.setAttribute("y", String(r.y + r.height / 2));
    text.setAttribute("text-anchor", "middle");
    text.setAttribute("dominant-baseline", "central");
    text.textContent = String(entry.zero ? 0 : entry.score ?? "");
    box.append(text);
  }
  const dieNode = (i) => root.querySelector(`[data-testid="die-${i}"]`);
  entry.dice.score.forEach((i) => dieNode(i)?.setAttribute("data-role", "score"));
  entry.dice.label.forEach((i) => dieNode(i)?.setAttribute("data-role", "label"));
  const target = root.querySelector(`[data-testid="box-${entry.caterpillar}-${entry.box}"]`);
  const from = entry.dice.label.length ? dieNode(entry.dice.label[0]) : null;
  if (!target || !from) return;
  const origin = root.getBoundingClientRect();
  const a = centre(from, origin);
  const b = centre(target, origin);
  const arrow = document.createElementNS(SVG_NS, "svg");
  arrow.setAttribute("class", "cl-rule-arrow");
  arrow.setAttribute("data-testid", "rule-arrow");
  arrow.setAttribute("aria-hidden", "true");
  arrow.setAttribute("width", String(origin.width));
  arrow.setAttribute("height", String(origin.height));
  arrow.innerHTML = '<defs><marker id="cl-arrow-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z"/></marker></defs>'
    + `<line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}" marker-end="url(#cl-arrow-head)"/>`;
  root.append(arrow);
}

function clearRule(root) {
  root.querySelectorAll(".cl-rule-arrow, .cl-ghost").forEach((node) => node.remove());
  root.querySelectorAll("[data-role]").forEach((node) => node.removeAttribute("data-role"));
}

function flyScore(root, entry) {
  if (!entry || !entry.dice || !entry.dice.score.length) return;
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const die = root.querySelector(`[data-testid="die-${entry.dice.score[0]}"]`);
  const target = root.querySelector(`[data-testid="box-${entry.caterpillar}-${entry.box}"]`);
  if (!die || !target) return;
  const origin = root.getBoundingClientRect();
  const a = centre(die, origin);
  const b = centre(target, origin);
  const ghost = die.cloneNode(true);
  ghost.removeAttribute("data-testid");
  ghost.setAttribute("aria-hidden", "true");
  ghost.classList.add("cl-flying");
  ghost.style.left = `${a.x - a.r.width / 2}px`;
  ghost.style.top = `${a.y - a.r.height / 2}px`;
  root.append(ghost);
  requestAnimationFrame(() => { ghost.style.transform = `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.6)`; });
  setTimeout(() => ghost.remove(), 700);
}

// The one thing to do now (the lesson's `target`): marked data-todo="true" with the pulse.
function todoNode(root, target) {
  const by = (id) => root.querySelector(`[data-testid="${id}"]`);
  const simple = { roll: "roll-button", next: "next-step", hint: "hint-button", question: "question",
    check: "check-answer", new_game: "new-game", menu: "move-menu" };
  if (simple[target]) return by(simple[target]);
  if (target && target.startsWith("answer:")) {
    const id = target.slice(7);
    return root.querySelector(`[data-testid="answer"][data-option="${CSS.escape(id)}"]`) || by(`box-${id}`);
  }
  if (target === "sheet") {
    const starred = root.querySelectorAll('[data-testid="legal-move"]');
    if (starred.length === 1) return starred[0].closest(".cl-box");
    return root.querySelector(".cl-sheet-host");
  }
  return null;
}

function markTodo(root, view, scroll) {
  const node = todoNode(root, view.lesson && view.lesson.target);
  if (!node) return;
  node.setAttribute("data-todo", "true");
  node.classList.add("learn-todo");
  // A new thing to do is brought into view, and so is one that grew out of it (a question's feedback).
  requestAnimationFrame(() => {
    const box = node.getBoundingClientRect();
    const out = box.top < 0 || box.bottom > window.innerHeight || box.left < 0 || box.right > window.innerWidth;
    if (scroll || out) node.scrollIntoView({ block: "nearest", inline: "nearest" });
  });
}

// After a wrong try the board shows it: the boxes missed glow, a wrong one shakes; while the
// answer is shown, its boxes glow.
function markAnswers(root, question) {
  if (!question || !question.on_board) return;
  const mark = (ids, cls) => (ids || []).forEach((id) => root.querySelector(`[data-testid="box-${CSS.escape(id)}"]`)?.classList.add(cls));
  mark(question.marks && question.marks.missed, "cl-missed");
  mark(question.marks && question.marks.wrong, "cl-wrong");
  mark(question.show, "cl-missed");
}

function boxOf(node) {
  const box = node && node.closest ? node.closest(".cl-box[data-caterpillar]") : null;
  return box ? { caterpillar: box.getAttribute("data-caterpillar"), box: Number(box.getAttribute("data-box")) } : null;
}

/** Whether two boxes (``boxOf``'s answers, or null) are the same caterpillar's same box. */
function sameBox(one, other) {
  return Boolean(one && other && one.caterpillar === other.caterpillar && one.box === other.box);
}

function render({ model, el }) {
  const root = h("div", { class: "cl-root" });
  el.appendChild(root);
  const send = sender(model, root); // aria-busy on root while Python answers
  let lastCount = null;
  let lastMenu = "";
  let lastStep = null;
  let lastTarget = null;
  // Touch first: the first tap on a starred box shows the rule and the score, pale, in the box;
  // a second tap writes it.  A mouse plays at once (its hover has shown the rule).
  let armed = null;
  let pointer = "mouse";
  const touch = Boolean((window.matchMedia && window.matchMedia("(pointer: coarse)").matches) || navigator.maxTouchPoints > 0);
  if (!touch && (model.get("view_names") || []).includes("lesson")) send("device", { touch: false });

  function draw() {
    const view = readView(model);
    if (!view.sheet || !view.sheet.svg) return;
    root.setAttribute("lang", view.lang || "en");
    const active = root.querySelector(":focus");
    const focusId = active ? active.getAttribute("data-testid") : null;
    const animate = lastCount !== null && view.dice.count !== lastCount && view.dice.rolled;
    lastCount = view.dice.count;
    const stepper = drawStepper(view, send);
    const board = h("div", { class: "cl-board" }, picture(view.sheet.svg, "cl-sheet-host", false), drawMenu(view, send));
    const tray = drawTray(view, animate, send);
    const after = [drawTalk(view), view.dice.kind === "play" ? drawHint(view, send) : null, drawWhatIf(view, send),
      drawFinal(view, send), saveLink(view.record, view.strings, send)].filter(Boolean);
    const question = drawQuestion(view.question, send, view.lang, view.strings);
    // A lesson puts its steps and question beside the game (dice, caterpillars, what the game says) on a
    // wide enough widget (a tablet held sideways), so that all of it is on one screen; narrower, they stack.
    // The lesson's title and its settings (voice, language) run across the top, over both columns.
    const top = stepper ? stepper.querySelector(".cl-heading") : null;
    const parts = stepper
      ? [h("div", { class: "cl-split" }, top,
          h("div", { class: "cl-teach" }, drawResumeNote(view.saved, view.strings, send), stepper, question),
          h("div", { class: "cl-play" }, tray, board, ...after))]
      : [question, h("div", { class: "cl-main" }, board, h("div", { class: "cl-side" }, tray, ...after))];
    root.replaceChildren(...parts.filter(Boolean));
    // Keep the learner's place: refocus what had focus, or the menu's first option.
    const menuKey = view.menu && view.menu.options ? view.menu.title : "";
    const stepKey = view.lesson && view.lesson.title ? view.lesson.title : null;
    let target = null;
    if (menuKey && menuKey !== lastMenu) target = root.querySelector('[data-testid="move-option"]');
    else if (focusId) target = root.querySelector(`[data-testid="${focusId}"]`);
    // A button that just disabled itself (Roll) hands focus to the sheet: Tab then reaches the boxes.
    if (target && target.disabled) target = root.querySelector('[data-testid="sheet"]');
    if (!target && focusId === "next-step" && stepKey !== lastStep) target = root.querySelector('[data-testid="lesson-step"]');
    if (target) target.focus({ preventScroll: true });
    lastMenu = menuKey;
    lastStep = stepKey;
    shown = view;
    if (view.hint && view.hint.best) {
      const best = root.querySelector(`[data-testid="box-${view.hint.best.caterpillar}-${view.hint.best.box}"]`);
      if (best) best.classList.add("cl-hinted");
    }
    const starred = view.legal.filter((e) => !e.setup);
    const only = new Set(starred.map((e) => `${e.caterpillar}-${e.box}`)).size === 1 ? starred[0] : null;
    clearRule(root);
    markAnswers(root, view.question);
    const todoKey = view.lesson ? `${view.lesson.index}:${view.lesson.target}:${view.dice.count}` : null;
    markTodo(root, view, todoKey !== lastTarget);
    lastTarget = todoKey;
    const focused = boxOf(root.querySelector(":focus"));
    const held = armed && entryAt(view, armed);
    if (!held) armed = null;
    requestAnimationFrame(() => showRule(root, held || (focused && entryAt(view, focused)) || only, Boolean(held)));
  }

  let shown = null;
  const pointAt = (event) => {
    const box = boxOf(event.target);
    const entry = box && shown ? entryAt(shown, box) : null;
    if (entry) showRule(root, entry);
  };
  root.addEventListener("pointerover", pointAt);
  root.addEventListener("focusin", pointAt);
  const play = (box) => {
    if (shown) flyScore(root, entryAt(shown, box));
    send("box", box);
  };

  const tap = (box) => {
    const entry = shown ? entryAt(shown, box) : null;
    if (pointer !== "mouse" && entry && !sameBox(armed, box)) {
      armed = box;
      showRule(root, entry, true);
      return;
    }
    armed = null;
    play(box);
  };
  // Each answer from Python redraws the sheet.  When a redraw lands between press and release, the box
  // pressed is gone and a mouse's click is never sent (a finger's still is): a release on the box of the
  // same caterpillar and number that was pressed is then the tap, and the click that may follow is not
  // a second one.
  let pressed = null;
  let released = null;
  root.addEventListener("pointerdown", (event) => {
    pointer = event.pointerType || "mouse";
    pressed = event.target && event.target.closest ? event.target.closest(".cl-box[data-caterpillar]") : null;
    released = null;
  }, true);
  root.addEventListener("pointerup", (event) => {
    const gone = pressed && !pressed.isConnected ? boxOf(pressed) : null;
    pressed = null;
    const box = boxOf(event.target);
    if (gone && sameBox(gone, box)) {
      released = box;
      tap(box);
    }
  });
  root.addEventListener("click", (event) => {
    const box = boxOf(event.target);
    if (!box) return;
    if (sameBox(released, box)) {
      released = null;
      return;
    }
    tap(box);
  });
  root.addEventListener("keydown", (event) => {
    const box = boxOf(event.target);
    if (box && event.target.classList.contains("cl-box") && event.key.startsWith("Arrow")) {
      event.preventDefault();
      moveFocus(root, event.target, event.key);
    } else if (box && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      play(box);
    } else if ((event.key === "r" || event.key === "R") && isShortcut(event)) {
      const roll = root.querySelector('[data-testid="roll-button"]');
      if (roll && !roll.disabled) {
        event.preventDefault();
        send("roll");
      }
    }
  });
  const stop = watch(model, draw);
  const unkeep = keepSave(model, send);
  const unname = keepNickname(model);
  draw();
  return () => {
    stop();
    unkeep();
    unname();
    send.stop();
  };
}

export default { render };
