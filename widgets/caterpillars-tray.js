// Caterpillars front end, part 2 of 4: the dice tray and the roll button.
// Dice are drawn as SVG pips; a short tumble plays when a new roll arrives
// (none when the learner asks for reduced motion, see caterpillars.css).

const PIPS = {
  1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};
const FACE_SYMBOLS = { A: "A", B: "B", C: "C", "2x": "2×", "10": "10" };

// Drawn, not an emoji: classroom machines often lack colour-emoji fonts.
function butterfly() {
  return svg("g", { class: "cl-butterfly" }, [
    svg("ellipse", { cx: 22, cy: 26, rx: 10, ry: 13, transform: "rotate(-25 22 26)" }),
    svg("ellipse", { cx: 42, cy: 26, rx: 10, ry: 13, transform: "rotate(25 42 26)" }),
    svg("ellipse", { cx: 24, cy: 43, rx: 7, ry: 9, transform: "rotate(25 24 43)" }),
    svg("ellipse", { cx: 40, cy: 43, rx: 7, ry: 9, transform: "rotate(-25 40 43)" }),
    svg("rect", { x: 30, y: 18, width: 4, height: 32, rx: 2, class: "cl-butterfly-body" }),
  ]);
}

function html(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

function dieFace(value) {
  const face = svg("svg", { viewBox: "0 0 64 64", class: "cl-die-face", "aria-hidden": "true" });
  face.appendChild(svg("rect", { x: 3, y: 3, width: 58, height: 58, rx: 12, class: "cl-die-body" }));
  for (const [col, row] of PIPS[value] || []) {
    face.appendChild(svg("circle", { cx: 16 * col, cy: 16 * row, r: 6, class: "cl-pip" }));
  }
  return face;
}

function actionFace(face) {
  const node = svg("svg", { viewBox: "0 0 64 64", class: "cl-die-face", "aria-hidden": "true" });
  node.appendChild(svg("rect", { x: 3, y: 3, width: 58, height: 58, rx: 12, class: "cl-die-body cl-action-body" }));
  if (face === "butterfly") node.appendChild(butterfly());
  else node.appendChild(label(32, 34, FACE_SYMBOLS[face] || face, 26, "cl-on-paper cl-bold"));
  return node;
}

// `animate` is true only for the render that first shows a new roll.
function drawTray(view, animate, send) {
  const { dice, strings, sheet } = view;
  const tray = html("div", { class: "cl-tray", "data-testid": "dice", role: "group", "aria-label": strings.dice });
  const setup = dice.kind === "setup";
  const over = dice.kind === "over";
  tray.appendChild(html("div", {
    class: "cl-round",
    text: setup ? strings.setup_dice : fill(strings, strings.round, { round: sheet.round }),
  }));
  const row = html("div", { class: "cl-dice-row" });
  if (dice.rolled && dice.values) {
    dice.values.forEach((value, index) => {
      const used = (dice.used || []).includes(index);
      const name = fill(strings, strings.die, { value });
      let die;
      if (setup) {
        die = html("button", {
          class: "cl-die cl-pick" + (dice.selected === index ? " cl-selected" : ""), type: "button",
          "data-testid": `die-${index}`, "aria-pressed": dice.selected === index ? "true" : "false",
          "aria-label": fill(strings, strings.pick_die, { value }), disabled: used,
        }, [dieFace(value)]);
        die.addEventListener("click", () => send({ type: "die", index }));
      } else {
        die = html("div", { class: "cl-die", role: "img", "aria-label": name, "data-testid": `die-${index}` }, [dieFace(value)]);
      }
      if (animate) die.classList.add("cl-rolling");
      row.appendChild(die);
    });
    if (dice.action) {
      const die = html("div", {
        class: "cl-die cl-action", role: "img", "data-testid": "action-die",
        "aria-label": fill(strings, strings.action, { face: strings["face_" + dice.action] || dice.action }),
      }, [actionFace(dice.action)]);
      if (animate) die.classList.add("cl-rolling");
      row.appendChild(die);
      tray.appendChild(row);
      tray.appendChild(html("div", { class: "cl-face-text", text: strings["face_" + dice.action] || dice.action }));
    } else {
      tray.appendChild(row);
    }
  } else {
    row.appendChild(html("div", { class: "cl-no-dice", text: over ? "" : strings.no_dice }));
    tray.appendChild(row);
  }
  const roll = html("button", {
    class: "cl-button cl-primary", type: "button", "data-testid": "roll-button",
    disabled: dice.rolled || over, "aria-keyshortcuts": "r", text: strings.roll,
  });
  roll.addEventListener("click", () => send({ type: "roll" }));
  tray.appendChild(roll);
  return tray;
}
