// Caterpillars front end: a board (and a lesson's stepper around it).  It
// draws the view traits and turns every learner action into one event; the
// scoresheet itself is drawn by Python (caterpillar_learn/caterpillars/svg.py)
// with data attributes that this module wires to clicks and keys.  No rules here.
// Drawn with draw.js: each change describes the whole view and only what differs changes in the page.

import { drawFinal, drawHint, drawMenu, drawPractice, drawStepper, drawTalk, drawWhatIf } from "./caterpillars-panels.js";
import { drawQuestion, keepNickname, saveLink } from "./question.js";
import { drawResumeNote, keepBook, keepSave } from "./resume.js";
import { drawTray } from "./caterpillars-tray.js";
import { h, markTodo, markup, mount, useView } from "./draw.js";
import { useLayoutEffect, useRef, useState } from "./preact-hooks.js";
import { sender, isShortcut } from "./shared.js";
import { sound } from "./sound.js";
import { moving } from "./page.js";

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
 * @property {number} [stars]  1 to 3, against the level's yardstick (caterpillar_learn/lessons/stars.py)
 * @property {string} [stars_text]
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
 * @property {boolean} [no_hint]  the room switched the helper's Hint off (after the guided game)
 * @property {boolean} [waits]  the learner waits for the teacher (a hold, the class's roll): nothing is theirs to do
 * @property {string} [guide]  why only one box has a star (a round the lesson leads)
 * @property {boolean} [numbers]  whether the numbers for grown-ups show
 * @property {boolean} [quiet_talk]  the move's words are shown but not read aloud by themselves
 * @property {number} [rights]  the questions answered right so far (one more sounds "Right!")
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
 * @typedef {Object} PracticeView  practise your own moves (caterpillar_learn/ui/caterpillars/practice.py)
 * @property {string} [status]  "offered" (beside the game's end), "active", "thinking", "done" or "none"
 * @property {string} [title]
 * @property {string} [count]  "Move 1 of 3"
 * @property {string} [prompt]
 * @property {string} [idea]  the idea the move missed, in words
 * @property {string} [said]  what came of the last try (or the end's line)
 * @property {boolean} [answered]
 * @property {boolean} [right]  answered right at the first try
 * @property {string} [next]
 * @property {string} [stop]
 * @property {string} [start]  the button that begins an offered practice
 * @property {string} [joy]  the game had no costly move (the practice brings back older ones)
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
 * @property {PracticeView} practice  practise your own moves ({} when there is nothing to show)
 * @property {import("./resume.js").BookView} book  the practice book, kept by the page ({} for a board)
 * @property {Object<string, string>} strings
 * @property {string} lang
 * @property {Array<{code: string, name: string}>} languages  the language switch's choices
 */

const NAMES = ["Alex", "Bobby", "Charlie"];

/**
 * @typedef {{caterpillar: string, box: number}} BoxRef
 * @typedef {(type: string, fields?: Object<string, any>) => void} Send
 */

/** @returns {BoardView} */
function readView(model) {
  const view = /** @type {BoardView} */ ({});
  for (const name of model.get("view_names") || []) view[name] = model.get(name);
  view.legal = view.legal || [];
  view.strings = view.strings || {};
  return view;
}

// Arrow keys move between boxes like a grid: left/right along a caterpillar,
// up/down between caterpillars.
/**
 * @param {Element} root
 * @param {Element} from
 * @param {string} key
 */
function moveFocus(root, from, key) {
  let row = NAMES.indexOf(from.getAttribute("data-caterpillar"));
  let box = Number(from.getAttribute("data-box"));
  if (key === "ArrowLeft") box = Math.max(0, box - 1);
  else if (key === "ArrowRight") box = Math.min(3, box + 1);
  else if (key === "ArrowUp") row = Math.max(0, row - 1);
  else if (key === "ArrowDown") row = Math.min(2, row + 1);
  const target = /** @type {HTMLElement|null} */ (root.querySelector(`[data-testid="box-${NAMES[row]}-${box}"]`));
  if (target) target.focus();
}

// -- The sheet: Python's markup, each box keyed by its caterpillar and number, with the page's marks -----------

// The box Python drew with a star (legal-move) inside it.
const STARRED = /<g data-testid="(box-[\w-]+)"[^>]*><g data-testid="legal-move">/g;

/**
 * The marks the page puts on the sheet's boxes: the hint's best box, a wrong try's boxes, the one thing to do,
 * the pale score of a finger's first tap.
 * @param {BoardView} view
 * @param {LegalEntry|null} [ghost]  the move whose score shows pale in its box
 * @returns {Map<string, {classes: string[], todo: boolean, ghost?: string}>}  by the box's data-testid
 */
function boxMarks(view, ghost = null) {
  /** @type {Map<string, {classes: string[], todo: boolean, ghost?: string}>} */
  const marks = new Map();
  /** @param {string} id */
  const of = (id) => {
    if (!marks.has(id)) marks.set(id, { classes: [], todo: false });
    return /** @type {{classes: string[], todo: boolean, ghost?: string}} */ (marks.get(id));
  };
  // The score a finger's first tap would write, pale in its box: a second tap (on it, or the box) writes it.
  if (ghost && ghost.dice) of(`box-${ghost.caterpillar}-${ghost.box}`).ghost = String(ghost.zero ? 0 : ghost.score ?? "");
  if (view.hint && view.hint.best) of(`box-${view.hint.best.caterpillar}-${view.hint.best.box}`).classes.push("cl-hinted");
  // After a wrong try the board shows it: the boxes missed glow, a wrong one shakes; while the
  // answer is shown, its boxes glow.
  const question = view.question;
  if (question && question.on_board) {
    /** @param {string[]|undefined} ids @param {string} cls */
    const mark = (ids, cls) => (ids || []).forEach((id) => of(`box-${id}`).classes.push(cls));
    mark(question.marks && question.marks.missed, "cl-missed");
    mark(question.marks && question.marks.wrong, "cl-wrong");
    mark(question.show, "cl-missed");
  }
  const box = todoBox(view);
  if (box) of(box).todo = true;
  return marks;
}

/**
 * The box that is the one thing to do now (the lesson's `target`), or "" when it is not a box.
 * @param {BoardView} view
 */
function todoBox(view) {
  const target = (view.lesson && view.lesson.target) || "";
  if (target.startsWith("answer:")) {
    const id = target.slice(7);
    const options = (view.question && !view.question.on_board && view.question.options) || [];
    return options.some((option) => option.id === id) ? "" : `box-${id}`;
  }
  if (target === "sheet") {
    const starred = Array.from(String(view.sheet.svg).matchAll(STARRED), (found) => found[1]);
    return starred.length === 1 ? starred[0] : "";
  }
  return "";
}

/** Whether the sheet as a whole is the one thing to do (several starred boxes). @param {BoardView} view */
function todoSheet(view) {
  return Boolean(view.lesson && view.lesson.target === "sheet" && !todoBox(view));
}

/**
 * The centre of a box in the sheet's description (its focus ring's), for the pale score.
 * @param {any} node
 * @returns {{cx: any, cy: any}|null}
 */
function boxCentre(node) {
  if (!node || typeof node !== "object" || !node.props) return null;
  if (node.type === "circle" && node.props.cx !== undefined) return { cx: node.props.cx, cy: node.props.cy };
  const kids = node.props.children;
  for (const kid of Array.isArray(kids) ? kids : [kids]) {
    const found = boxCentre(kid);
    if (found) return found;
  }
  return null;
}

/**
 * A description's copy whose boxes carry a key (their data-testid) and the page's marks, and whose totals count
 * up when they grow (CountUp); whatever holds neither is the very description markup gave (preact skips what
 * did not change).
 * @param {any} node
 * @param {Map<string, {classes: string[], todo: boolean, ghost?: string}>} marks
 * @returns {any}
 */
function withBoxes(node, marks) {
  if (!node || typeof node !== "object" || !node.props) return node;
  const { children, ...props } = node.props;
  const id = props["data-testid"];
  if (node.type === "g" && props["data-caterpillar"] && typeof id === "string" && id.startsWith("box-")) {
    const mark = marks.get(id);
    const cls = mark && mark.classes.length ? `${props.class || ""} ${mark.classes.join(" ")}` : props.class;
    const todo = Boolean(mark && mark.todo);
    const at = mark && mark.ghost !== undefined ? boxCentre(node) : null;
    const ghost = at ? h("text", { key: "ghost", class: "cl-ghost", "data-testid": "ghost-score", x: at.cx, y: at.cy,
      "text-anchor": "middle", "dominant-baseline": "central", text: mark && mark.ghost }) : null;
    return h(node.type, { ...props, key: id, class: todo ? `${cls} learn-todo` : cls, "data-todo": todo ? "true" : null }, children, ghost);
  }
  const words = Array.isArray(children) && children.length === 1 ? children[0] : children;
  if (node.type === "text" && String(props.class || "").includes("cl-total") && typeof words === "string") {
    return h("text", props, h(CountUp, { drawn: words }));
  }
  if (children === undefined || children === null || typeof children !== "object") return node;
  const kids = Array.isArray(children) ? children : [children];
  const changed = kids.map((kid) => withBoxes(kid, marks));
  if (changed.every((kid, index) => kid === kids[index])) return node;
  return h(node.type, props, changed);
}

/**
 * A caterpillar's total, "= 12", which counts up to a new total that is larger (the caterpillar eats) and always
 * ends on the text Python drew.
 * @param {{drawn: string}} props
 */
function CountUp({ drawn }) {
  const total = (/** @type {string} */ text) => Number((/(\d+)/.exec(text) || [])[1]);
  const [shown, setShown] = useState(drawn);
  const was = useRef(drawn);
  useLayoutEffect(() => {
    const from = total(was.current);
    const to = total(drawn);
    was.current = drawn;
    if (!(to > from) || !moving()) { setShown(drawn); return undefined; }
    const started = performance.now();
    let frame = 0;
    /** @param {number} at */
    const step = (at) => {
      const part = Math.min(1, (at - started) / 450);
      setShown(part < 1 ? drawn.replace(String(to), String(Math.round(from + (to - from) * part))) : drawn);
      if (part < 1) frame = requestAnimationFrame(step);
    };
    setShown(drawn.replace(String(to), String(from)));
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [drawn]);
  return shown;
}

let sheetKey = "";
/** @type {any[]} */
let sheetDescription = [];

/**
 * The sheet: Python's markup, parsed once per distinct text (draw.js), each box keyed and marked.  The same
 * sheet with the same marks is the same description, so preact does not even compare it.
 * @param {BoardView} view
 * @param {LegalEntry|null} [ghost]  the move whose score shows pale in its box
 */
function drawSheet(view, ghost = null) {
  const marks = boxMarks(view, ghost);
  const key = view.sheet.svg + "\n" + JSON.stringify(Array.from(marks));
  if (key !== sheetKey) {
    sheetKey = key;
    sheetDescription = markup(view.sheet.svg).map((node) => withBoxes(node, marks));
  }
  const todo = todoSheet(view);
  // The sheet's own proportions, for the stylesheet's "as big as the window allows" (caterpillars.css).
  const [, width, height] = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(view.sheet.svg) || [];
  return h("span", { key: "sheet", class: "cl-sheet-host" + (todo ? " learn-todo" : ""), "data-todo": todo ? "true" : null,
    style: width ? `--cl-w: ${width}; --cl-h: ${height}` : null }, sheetDescription);
}

// -- The rule as a picture ---------------------------------------------------------------------------------
// The die that gives the label points at its box (an arrow), the die that gives the score is marked, and on
// a move the score die flies into the box.  Drawn for the box under the pointer or the focus, and for the
// only starred box when there is one.  All of it is in the board's description (the dice's data-role, the pale
// score in its box, the arrow placed from where the die and the box were laid out); only the flying die is a
// copy in the root's own layer, which preact does not manage.

/**
 * @param {BoardView} view
 * @param {BoxRef} box
 * @returns {LegalEntry|undefined}
 */
function entryAt(view, box) {
  return view.legal.find((e) => !e.setup && e.caterpillar === box.caterpillar && e.box === box.box && e.dice);
}

/** @param {Element} node @param {DOMRect} origin */
function centre(node, origin) {
  const r = node.getBoundingClientRect();
  return { x: r.left - origin.left + r.width / 2, y: r.top - origin.top + r.height / 2, r };
}

/**
 * The dice's roles in the rule's picture: which gives the score, which the label.
 * @param {LegalEntry|null|undefined} entry
 * @returns {Object<number, string>}
 */
function rolesOf(entry) {
  /** @type {Object<number, string>} */
  const roles = {};
  if (!entry || !entry.dice) return roles;
  entry.dice.score.forEach((i) => { roles[i] = "score"; });
  entry.dice.label.forEach((i) => { roles[i] = "label"; });
  return roles;
}

/**
 * Where the rule's arrow goes, measured once the dice and the box are laid out (null: no arrow).
 * @param {HTMLElement} root
 * @param {LegalEntry|null|undefined} entry
 * @returns {{x1: number, y1: number, x2: number, y2: number, width: number, height: number}|null}
 */
function arrowOf(root, entry) {
  if (!entry || !entry.dice || !entry.dice.label.length) return null;
  const from = root.querySelector(`[data-testid="die-${entry.dice.label[0]}"]`);
  const box = root.querySelector(`[data-testid="box-${entry.caterpillar}-${entry.box}"]`);
  if (!from || !box) return null;
  const origin = root.getBoundingClientRect();
  const a = centre(from, origin);
  const b = centre(box, origin);
  const round = (/** @type {number} */ n) => Math.round(n);
  return { x1: round(a.x), y1: round(a.y), x2: round(b.x), y2: round(b.y), width: round(origin.width), height: round(origin.height) };
}

/**
 * The rule's arrow, from the label's die to its box.
 * @param {{x1: number, y1: number, x2: number, y2: number, width: number, height: number}} at
 */
const drawArrow = (at) => h("svg", { key: "rule-arrow", class: "cl-rule-arrow", "data-testid": "rule-arrow", "aria-hidden": "true",
  width: at.width, height: at.height },
h("defs", {}, h("marker", { id: "cl-arrow-head", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
  orient: "auto-start-reverse" }, h("path", { d: "M0 0 L10 5 L0 10 z" }))),
h("line", { x1: at.x1, y1: at.y1, x2: at.x2, y2: at.y2, "marker-end": "url(#cl-arrow-head)" }));

/** How many boxes of the sheet hold a score. @param {SheetView} sheet */
function filled(sheet) {
  return Object.values(sheet.scores || {}).flat().filter((value) => value !== null && value !== undefined).length;
}

/** Whether the board is a lesson's (with its stepper), not a plain board or a classroom's. @param {BoardView} view */
function inLesson(view) {
  return Boolean(view.lesson && view.lesson.count !== undefined);
}

/**
 * The score die travels to its box: a copy of the die flies from the tray into the box and shrinks into it.
 * @param {HTMLElement} root
 * @param {HTMLElement} layer
 * @param {LegalEntry|null|undefined} entry
 */
function flyScore(root, layer, entry) {
  if (!entry || !entry.dice || !entry.dice.score.length || !moving()) return;
  const die = root.querySelector(`[data-testid="die-${entry.dice.score[0]}"]`);
  const target = root.querySelector(`[data-testid="box-${entry.caterpillar}-${entry.box}"]`);
  if (!die || !target) return;
  const origin = root.getBoundingClientRect();
  const a = centre(die, origin);
  const b = centre(target, origin);
  const ghost = /** @type {HTMLElement} */ (die.cloneNode(true));
  // ours: the flying die is a copy of the die, in the root's own layer (preact never sees it)
  ghost.removeAttribute("data-testid");
  ghost.setAttribute("aria-hidden", "true");
  ghost.classList.add("cl-flying");
  ghost.style.left = `${a.x - a.r.width / 2}px`;
  ghost.style.top = `${a.y - a.r.height / 2}px`;
  ghost.style.width = `${a.r.width}px`;
  ghost.style.height = `${a.r.height}px`;
  layer.append(ghost);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const flight = ghost.animate([
    { transform: "translate(0, 0) rotate(0deg) scale(1)", opacity: 1 },
    { transform: `translate(${dx * 0.5}px, ${dy * 0.5 - 60}px) rotate(180deg) scale(0.9)`, opacity: 1, offset: 0.5 },
    { transform: `translate(${dx}px, ${dy}px) rotate(360deg) scale(0.45)`, opacity: 0.2 },
  ], { duration: 600, easing: "ease-in-out" });
  // ours: the copy goes when its flight ends
  flight.onfinish = () => ghost.remove();
  flight.oncancel = () => ghost.remove();
}

/**
 * What changed on the sheet since the last view, shown as motion: a caterpillar whose total grew eats (its
 * total swells; CountUp counts it up), and when the game ends the one that flies flies up and back.
 * @param {HTMLElement} root
 * @param {SheetView|null} before
 * @param {SheetView} now
 */
function showChange(root, before, now) {
  if (!before || !moving()) return;
  const totals = root.querySelectorAll(".cl-sheet .cl-total");
  NAMES.forEach((name, index) => {
    const from = before.totals ? before.totals[name] : undefined;
    const to = now.totals ? now.totals[name] : undefined;
    const text = /** @type {SVGTextElement|undefined} */ (totals[index]);
    if (typeof from !== "number" || typeof to !== "number" || to <= from || !text) return;
    text.animate([{ transform: "scale(1)" }, { transform: "scale(1.4)" }, { transform: "scale(1)" }],
      { duration: 500, easing: "ease-out" });
  });
  if (before.phase !== "over" && now.phase === "over") {
    const flier = root.querySelector(".cl-sheet .cl-flies");
    if (flier) {
      flier.animate([{ transform: "translate(0, 0)" }, { transform: "translate(24px, -34px) rotate(-4deg)" },
        { transform: "translate(0, 0)" }], { duration: 900, easing: "ease-in-out", iterations: 2 });
    }
  }
}

// -- The one thing to do now (the lesson's `target`), marked data-todo="true" with the pulse -----------------
// A box or the sheet is marked in its description (drawSheet); a control by `markTodo`, in the description too.
/** @type {Object<string, string>} */
const TODO_IDS = { roll: "roll-button", next: "next-step", hint: "hint-button", question: "question",
  check: "check-answer", new_game: "new-game", menu: "move-menu", practice_next: "practice-next",
  practice_start: "practice-start" };

/**
 * The description with the lesson's target control marked (a box or the sheet is marked by drawSheet).
 * @param {any} described
 * @param {string|undefined} target
 */
function withTodo(described, target) {
  if (target && TODO_IDS[target]) return markTodo(described, TODO_IDS[target], null, "learn-todo");
  if (target && target.startsWith("answer:")) return markTodo(described, "answer", target.slice(7), "learn-todo");
  return described;
}

/**
 * Whether a finger's tap is on the box its first tap armed (the second tap writes the score).
 * @param {{caterpillar?: string|null, box?: number}|null} a
 * @param {{caterpillar?: string|null, box?: number}|null} b
 */
function sameBox(a, b) {
  return Boolean(a && b && a.caterpillar === b.caterpillar && a.box === b.box);
}

/**
 * Whether a question or a practice's try has just been answered right (it was not right in the view before).
 * @param {BoardView} before
 * @param {BoardView} view
 */
function rightNow(before, view) {
  const rights = (/** @type {BoardView} */ v) => (v.lesson && v.lesson.rights) || 0;
  const practised = (/** @type {BoardView} */ v) => Boolean(v.practice && v.practice.right);
  return rights(view) > rights(before) || (practised(view) && !practised(before));
}

/** @param {EventTarget|null} node @returns {BoxRef|null} */
function boxOf(node) {
  const el = /** @type {Element|null} */ (node);
  const box = el && el.closest ? el.closest(".cl-box[data-caterpillar]") : null;
  return box ? { caterpillar: box.getAttribute("data-caterpillar"), box: Number(box.getAttribute("data-box")) } : null;
}

/**
 * What the board, its effects and its listeners share (one per widget).
 * @typedef {Object} BoardContext
 * @property {any} model
 * @property {HTMLElement} root  the widget's root: ours, not preact's (sender marks it aria-busy)
 * @property {HTMLElement} layer  the flying die: not preact's
 * @property {(type: string, fields?: Object<string, any>) => boolean} send
 * @property {BoardView|null} shown  the view last drawn
 * @property {BoxRef|null} armed  touch first: the box a finger's first tap armed (a second tap writes it)
 * @property {string} pointer  the last press's pointer: "mouse", "touch" or "pen"
 * @property {(box: BoxRef|null, ghost?: boolean) => void} showRule  the rule's picture for a box (set by Board)
 */

/**
 * The whole view described.  A lesson puts its steps and question beside the game (dice, caterpillars, what the
 * game says) on a wide enough widget (a tablet held sideways), so that all of it is on one screen; narrower,
 * they stack.  The lesson's title and its settings (voice, language) run across the top, over both columns.
 * @param {BoardView} view
 * @param {string} tumble  the dice's tumble class ("" when they do not tumble)
 * @param {BoardContext["send"]} send
 * @param {() => void} redraw
 * @param {{entry: LegalEntry|null|undefined, ghost: boolean}} rule  the rule's picture: its move, and whether its
 *   score shows pale in its box
 */
function describeBoard(view, tumble, send, redraw, rule) {
  const steps = drawStepper(view, send);
  const sheet = h("div", { key: "board", class: "cl-board" }, drawSheet(view, rule.ghost ? rule.entry : null), drawMenu(view, send));
  const tray = drawTray(view, tumble, send, rolesOf(rule.entry));
  // A lesson's grown-ups' controls (Try another move, Save my answers) show with For grown-ups only.
  const grown = !inLesson(view) || Boolean(view.lesson && view.lesson.numbers);
  const practising = Boolean(view.practice && view.practice.status === "active");  // no hint: the child finds it
  // A lesson's end scene (the flight's reward, the score, what to do next) stands beside the board, in the
  // steps' column, so that the board and the end are in view together (issue 40); a board keeps it below.
  const final = drawFinal(view, send);
  const hinted = view.dice.kind === "play" && !practising && !(view.lesson && view.lesson.no_hint);
  const after = [drawTalk(view), hinted ? drawHint(view, send) : null, grown ? drawWhatIf(view, send) : null,
    steps ? null : final, practising ? null : drawPractice(view, send), grown ? saveLink(view.record, view.strings, send, redraw) : null];
  const question = drawQuestion(view.question, send, view.lang, view.strings);
  return steps
    ? h("div", { key: "split", class: "cl-split" }, steps.heading,
      h("div", { key: "teach", class: "cl-teach" }, drawResumeNote(view.saved, view.strings, send),
        practising ? drawPractice(view, send) : null, steps.stepper, question, final, steps.grownUps),
      h("div", { key: "play", class: "cl-play" }, tray, sheet, ...after))
    : [question, h("div", { key: "main", class: "cl-main" }, sheet, h("div", { key: "side", class: "cl-side" }, tray, ...after))];
}

/**
 * What changed is heard: a roll rattles, the end celebrates, a right answer, a placed score, a new step.
 * @param {BoardView|null} shown  the view drawn before
 * @param {BoardView} view
 */
function soundOf(shown, view) {
  const before = shown ? shown.sheet : null;
  if (shown && view.dice.rolled && view.dice.count !== shown.dice.count) sound("roll");
  if (before && before.phase !== "over" && view.sheet.phase === "over") sound("end");
  else if (shown && rightNow(shown, view)) sound("right");  // "Right!" is heard, not only read (issue 40)
  else if (before && filled(view.sheet) > filled(before)) sound("place");
  else if (shown && shown.lesson && view.lesson && (view.lesson.index || 0) > (shown.lesson.index || 0)) sound("step");
}

/**
 * What follows each new view: sound and motion, the focus, the thing to do brought into view, the rule's
 * picture for the held, the focused or the only starred box.
 * @param {BoardContext} ctx
 * @param {BoardView} view
 * @param {number} version  how many times the view traits changed (useView)
 * @param {{current: {menu: string, target: string|null, active: HTMLElement|null, version: number}}} memory
 */
function useBoardEffects(ctx, view, version, memory) {
  useLayoutEffect(() => {
    const m = memory.current;
    if (!view.sheet || !view.sheet.svg || version === m.version) return;
    m.version = version;
    const { root } = ctx;
    root.setAttribute("lang", view.lang || "en");  // ours: the root
    soundOf(ctx.shown, view);
    const before = ctx.shown ? ctx.shown.sheet : null;
    requestAnimationFrame(() => showChange(root, before, view.sheet));
    ctx.shown = view;
    // A new menu takes the focus to its first option; a button that just disabled itself (Roll, Check) hands
    // the focus to the sheet, so that Tab then reaches the boxes.  Nothing else moves the focus: no node is replaced.
    const menuKey = view.menu && view.menu.options ? view.menu.title : "";
    const active = m.active;
    let target = null;
    if (menuKey && menuKey !== m.menu) target = root.querySelector('[data-testid="move-option"]');
    else if (active && active.isConnected && /** @type {HTMLButtonElement} */ (active).disabled) target = root.querySelector('[data-testid="sheet"]');
    if (target) /** @type {HTMLElement} */ (target).focus({ preventScroll: true });
    m.menu = menuKey;
    // A new thing to do is brought into view, and so is one that grew out of it (a question's feedback).
    const todoKey = view.lesson ? `${view.lesson.index}:${view.lesson.target}:${view.dice.count}` : null;
    const scroll = todoKey !== m.target;
    m.target = todoKey;
    const node = root.querySelector('[data-todo="true"]');
    if (node) {
      requestAnimationFrame(() => {
        const box = node.getBoundingClientRect();
        const out = box.top < 0 || box.bottom > window.innerHeight || box.left < 0 || box.right > window.innerWidth;
        if (scroll || out) node.scrollIntoView({ block: "nearest", inline: "nearest" });
      });
    }
    const starred = view.legal.filter((e) => !e.setup);
    const only = new Set(starred.map((e) => `${e.caterpillar}-${e.box}`)).size === 1 ? starred[0] : null;
    const focused = boxOf(root.querySelector(":focus"));
    if (ctx.armed && !entryAt(view, ctx.armed)) ctx.armed = null;
    if (ctx.armed) ctx.showRule(ctx.armed, true);
    else ctx.showRule(focused && entryAt(view, focused) ? focused : only ? { caterpillar: only.caterpillar, box: only.box } : null);
  });
}

/**
 * The rule's picture as the board's own state: the box it is drawn for (and whether its score shows pale), and
 * where its arrow goes, measured after layout.
 * @param {BoardContext} ctx
 * @param {BoardView} view
 */
function useRule(ctx, view) {
  const [rule, setRule] = useState(/** @type {{box: BoxRef, ghost: boolean}|null} */ (null));
  ctx.showRule = (box, ghost = false) => setRule((was) => (box === null ? null
    : was && sameBox(was.box, box) && was.ghost === ghost ? was : { box, ghost }));
  const entry = rule && view.legal ? entryAt(view, rule.box) : null;
  const [arrow, setArrow] = useState(/** @type {ReturnType<typeof arrowOf>} */ (null));
  useLayoutEffect(() => {
    const at = arrowOf(ctx.root, entry);
    setArrow((was) => (JSON.stringify(was) === JSON.stringify(at) ? was : at));
  });
  return { entry, ghost: Boolean(rule && rule.ghost), arrow };
}

/** @param {{ctx: BoardContext}} props */
function Board({ ctx }) {
  const version = useView(ctx.model);
  const [, redraw] = useState(0);  // the save's form opened
  const memory = useRef({ menu: "", target: /** @type {string|null} */ (null), active: /** @type {HTMLElement|null} */ (null),
    count: /** @type {number|null} */ (null), tumbling: /** @type {number|null} */ (null), version: -1 });
  const view = readView(ctx.model);
  const rule = useRule(ctx, view);
  useBoardEffects(ctx, view, version, memory);
  if (!view.sheet || !view.sheet.svg) return null;
  const m = memory.current;
  // A new roll tumbles (two names of one tumble: the class differs from the last roll's, so it plays again).
  if (m.count !== null && view.dice.count !== m.count && view.dice.rolled) m.tumbling = view.dice.count;
  m.count = view.dice.count;
  const tumble = view.dice.rolled && m.tumbling === view.dice.count ? "cl-rolling" + (m.tumbling % 2 ? " cl-rolling-odd" : "") : "";
  m.active = /** @type {HTMLElement|null} */ (ctx.root.querySelector(":focus"));  // before the paint
  const described = withTodo(describeBoard(view, tumble, ctx.send, () => redraw((n) => n + 1), rule), view.lesson && view.lesson.target);
  // The rule's arrow, placed against the root (the view's node is display: contents).
  return [described, h("div", { key: "rule", class: "cl-layer", "aria-hidden": "true" }, rule.arrow ? drawArrow(rule.arrow) : null)];
}

/**
 * The root's listeners: a box pointed at or focused shows its rule; a tap (a finger's second) or Enter plays it;
 * the arrows move between boxes; R rolls.  A box keeps its node through every redraw, so a press held while
 * Python answers is still released on it and its click comes as any other.
 * @param {BoardContext} ctx
 */
function listenOnBoard(ctx) {
  const { root, layer, send } = ctx;
  /** @param {Event} event */
  const pointAt = (event) => {
    const box = boxOf(event.target);
    if (box && ctx.shown && entryAt(ctx.shown, box)) ctx.showRule(box);
  };
  /** @param {BoxRef} box */
  const play = (box) => {
    const entry = ctx.shown ? entryAt(ctx.shown, box) : undefined;
    if (entry) flyScore(root, layer, entry);
    send("box", box);
  };
  /** @param {BoxRef} box  touch first: a finger's first tap shows the rule and the score, pale; a second writes it */
  const tap = (box) => {
    const entry = ctx.shown ? entryAt(ctx.shown, box) : null;
    if (ctx.pointer !== "mouse" && entry && !sameBox(ctx.armed, box)) {
      ctx.armed = box;
      ctx.showRule(box, true);
      return;
    }
    ctx.armed = null;
    play(box);
  };
  root.addEventListener("pointerover", pointAt);
  root.addEventListener("focusin", pointAt);
  // The pointer's kind only tells a finger's first tap from a mouse's.
  root.addEventListener("pointerdown", (event) => { ctx.pointer = event.pointerType || "mouse"; }, true);
  root.addEventListener("click", (event) => {
    const box = boxOf(event.target);
    if (box) tap(box);
  });
  root.addEventListener("keydown", (event) => {
    const node = /** @type {Element} */ (event.target);
    const box = boxOf(node);
    if (box && node.classList.contains("cl-box") && event.key.startsWith("Arrow")) {
      event.preventDefault();
      moveFocus(root, node, event.key);
    } else if (box && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      play(box);
    } else if ((event.key === "r" || event.key === "R") && isShortcut(event)) {
      const roll = /** @type {HTMLButtonElement|null} */ (root.querySelector('[data-testid="roll-button"]'));
      if (roll && !roll.disabled) {
        event.preventDefault();
        send("roll");
      }
    }
  });
}

/** @param {{model: any, el: HTMLElement}} widget */
function render({ model, el }) {
  // The widget's root, its view (what preact draws; display: contents: the layout is the root's) and its layer
  // (the flying die).
  const root = document.createElement("div");
  const board = document.createElement("div");
  const layer = document.createElement("div");
  // ours: the three made just above
  root.className = "cl-root";
  board.className = "cl-view";
  layer.className = "cl-layer";
  layer.setAttribute("aria-hidden", "true");
  root.append(board, layer);
  el.appendChild(root);
  const send = sender(model, root); // aria-busy on root while Python answers
  /** @type {BoardContext} */
  const ctx = { model, root, layer, send, shown: null, armed: null, pointer: "mouse", showRule: () => undefined };
  const touch = Boolean((window.matchMedia && window.matchMedia("(pointer: coarse)").matches) || navigator.maxTouchPoints > 0);
  if (!touch && (model.get("view_names") || []).includes("lesson")) send("device", { touch: false });
  listenOnBoard(ctx);
  const unbook = keepBook(model, send);  // the book first: a resumed lesson finds its practice waiting
  const unkeep = keepSave(model, send);
  const unname = keepNickname(model);
  const paint = mount(board);
  paint(h(Board, { ctx }));
  return () => {
    unbook();
    unkeep();
    unname();
    send.stop();
    paint(null);
  };
}

export default { render };
