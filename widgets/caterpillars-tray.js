// Caterpillars: the dice tray and the roll button.  Dice are drawn as SVG
// pips; a short tumble plays when a new roll arrives (none when the learner
// asks for reduced motion, see caterpillars.css).

import { fill } from "./shared.js";
import { h, s } from "./draw.js";
import { PIPS } from "./page.js";

const FACE_SYMBOLS = { A: "A", B: "B", C: "C", "2x": "2×", "10": "10" };

// Drawn, not an emoji: classroom machines often lack colour-emoji fonts.
function butterfly() {
  return s("g", { class: "cl-butterfly" },
    s("ellipse", { cx: 22, cy: 26, rx: 10, ry: 13, transform: "rotate(-25 22 26)" }),
    s("ellipse", { cx: 42, cy: 26, rx: 10, ry: 13, transform: "rotate(25 42 26)" }),
    s("ellipse", { cx: 24, cy: 43, rx: 7, ry: 9, transform: "rotate(25 24 43)" }),
    s("ellipse", { cx: 40, cy: 43, rx: 7, ry: 9, transform: "rotate(-25 40 43)" }),
    s("rect", { x: 30, y: 18, width: 4, height: 32, rx: 2, class: "cl-butterfly-body" }));
}

/**
 * @param {string} bodyClass
 * @param {...any} inside
 */
function face(bodyClass, ...inside) {
  return s("svg", { viewBox: "0 0 64 64", class: "cl-die-face", "aria-hidden": "true" },
    s("rect", { x: 3, y: 3, width: 58, height: 58, rx: 12, class: bodyClass }), ...inside);
}

/** @param {number} value */
export function dieFace(value) {
  return face("cl-die-body", (PIPS[value] || []).map(([col, row]) => s("circle", { cx: 16 * col, cy: 16 * row, r: 6, class: "cl-pip" })));
}

/** @param {string} name */
function actionFace(name) {
  const symbol = s("text", { x: 32, y: 34, "font-size": 26, "text-anchor": "middle", "dominant-baseline": "central",
    class: "cl-on-paper cl-bold", text: FACE_SYMBOLS[name] || name });
  return face("cl-die-body cl-action-body", name === "butterfly" ? butterfly() : symbol);
}

/**
 * The tray: the round, the dice (keyed by their index), the action die's words and Roll.
 * @param {import("./caterpillars.js").BoardView} view
 * @param {string} tumble  "" or the classes of a tumbling die (only while the roll that tumbles is shown)
 * @param {(type: string, fields?: Object<string, any>) => void} send
 * @param {Object<number, string>} [roles]  the rule's picture: the die that gives the score ("score") and the label's ("label")
 */
export function drawTray(view, tumble, send, roles = {}) {
  const { dice, strings, sheet } = view;
  const setup = dice.kind === "setup";
  const over = dice.kind === "over";
  const rolling = tumble ? " " + tumble : "";
  const row = [];
  let faceText = null;
  if (dice.rolled && dice.values) {
    dice.values.forEach((value, index) => {
      const used = (dice.used || []).includes(index);
      row.push(setup
        ? h("button", {
          key: `die-${index}`, class: "cl-die cl-pick" + (dice.selected === index ? " cl-selected" : "") + rolling, type: "button",
          "data-testid": `die-${index}`, "aria-pressed": String(dice.selected === index), "data-role": roles[index] || null,
          "aria-label": fill(strings.pick_die, { value }), disabled: used, onclick: () => send("die", { index }),
        }, dieFace(value))
        : h("div", { key: `die-${index}`, class: "cl-die" + rolling, role: "img", "aria-label": fill(strings.die, { value }),
          "data-testid": `die-${index}`, "data-role": roles[index] || null }, dieFace(value)));
    });
    if (dice.action) {
      const words = strings["face_" + dice.action] || dice.action;
      row.push(h("div", { key: "action", class: "cl-die cl-action" + rolling, role: "img", "data-testid": "action-die",
        "aria-label": fill(strings.action, { face: words }) }, actionFace(dice.action)));
      faceText = h("div", { key: "face-text", class: "cl-face-text", text: words });
    }
  } else if (view.lesson && view.lesson.count !== undefined && !over) {
    // In a lesson with steps, two dice waiting to be rolled say it without words (the words are their label);
    // in a classroom the words say whose dice the pupil waits for.
    row.push(h("div", { key: "blank", class: "cl-blank-dice", role: "img", "aria-label": strings.no_dice },
      [0, 1].map((index) => h("span", { key: index, class: "cl-die" }, face("cl-die-body cl-die-blank")))));
  } else {
    row.push(h("div", { key: "none", class: "cl-no-dice", text: over ? "" : strings.no_dice }));
  }
  const roll = h("button", {
    key: "roll", class: "cl-button cl-primary", type: "button", "data-testid": "roll-button",
    // The dice wait for the teacher (a hold, or the teacher rolls for the class: issue 42): Roll waits too.
    disabled: dice.rolled || over || Boolean(view.lesson && view.lesson.waits), "aria-keyshortcuts": "r", text: strings.roll,
    onclick: () => send("roll"),
  });
  return h("div", { key: "tray", class: "cl-tray", "data-testid": "dice", role: "group", "aria-label": strings.dice },
    h("div", { key: "round", class: "cl-round", text: setup ? strings.setup_dice : fill(strings.round, { round: sheet.round }) }),
    h("div", { key: "row", class: "cl-dice-row" }, row), faceText, roll);
}
