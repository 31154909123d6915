// Caterpillars front end, part 4 of 4: wiring.  Reads the traits, redraws on
// change, and turns every learner action into one write of the `event` trait
// (model.set + model.save_changes; model.send does not reach Python on Panel).

const TRAITS = ["sheet", "dice", "legal", "menu", "hint", "explanation", "message", "final", "review", "strings", "lesson"];
let instances = 0;

function readView(model) {
  const view = {};
  for (const name of TRAITS) view[name] = model.get(name);
  view.legal = view.legal || [];
  view.strings = view.strings || {};
  return view;
}

// Arrow keys move between boxes like a grid: left/right along a caterpillar,
// up/down between caterpillars.
function moveFocus(root, from, key) {
  const name = from.getAttribute("data-caterpillar");
  let row = NAMES.indexOf(name);
  let box = Number(from.getAttribute("data-box"));
  if (key === "ArrowLeft") box = Math.max(0, box - 1);
  else if (key === "ArrowRight") box = Math.min(3, box + 1);
  else if (key === "ArrowUp") row = Math.max(0, row - 1);
  else if (key === "ArrowDown") row = Math.min(2, row + 1);
  const target = root.querySelector(`[data-testid="box-${NAMES[row]}-${box}"]`);
  if (target) target.focus();
}

function render({ model, el }) {
  instances += 1;
  const uid = `cl${instances}-${Math.random().toString(36).slice(2, 7)}`;
  const root = document.createElement("div");
  root.className = "cl-root";
  el.appendChild(root);
  let seq = 0;
  let lastCount = null;
  let lastMenu = "";
  let lastStep = null;
  let scheduled = false;

  function send(event) {
    seq += 1;
    model.set("event", { ...event, seq: Date.now() * 1000 + seq });
    model.save_changes();
  }

  function activate(caterpillar, box) {
    send({ type: "box", caterpillar, box });
  }

  function draw() {
    scheduled = false;
    const view = readView(model);
    if (!view.sheet || !view.sheet.labels) return;
    const active = root.querySelector(":focus");
    const focusId = active ? active.getAttribute("data-testid") : null;
    const animate = lastCount !== null && view.dice.count !== lastCount && view.dice.rolled;
    lastCount = view.dice.count;
    root.replaceChildren();
    const stepper = drawStepper(view, send);
    if (stepper) root.appendChild(stepper);
    const main = html("div", { class: "cl-main" });
    const board = html("div", { class: "cl-board" });
    board.appendChild(drawSheet(view, uid, activate));
    const menu = drawMenu(view, send);
    if (menu) board.appendChild(menu);
    main.appendChild(board);
    const side = html("div", { class: "cl-side" });
    side.appendChild(drawTray(view, animate, send));
    side.appendChild(drawTalk(view));
    if (view.dice.kind === "play") side.appendChild(drawHint(view, send));
    const final = drawFinal(view, send);
    if (final) side.appendChild(final);
    main.appendChild(side);
    root.appendChild(main);
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
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(draw);
  }

  root.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target && target.classList && target.classList.contains("cl-box") && event.key.startsWith("Arrow")) {
      event.preventDefault();
      moveFocus(root, target, event.key);
    } else if ((event.key === "r" || event.key === "R") && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const roll = root.querySelector('[data-testid="roll-button"]');
      if (roll && !roll.disabled) {
        event.preventDefault();
        send({ type: "roll" });
      }
    }
  });
  for (const name of TRAITS) model.on(`change:${name}`, schedule);
  draw();
  return () => {
    for (const name of TRAITS) model.off(`change:${name}`, schedule);
  };
}

export default { render };
