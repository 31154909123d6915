// Caterpillars front end, part 1 of 4: the scoresheet as hand-written SVG.
// The parts are joined into one ES module by caterpillar_learn/ui/widgets.py;
// only the last part (caterpillars.js) exports.  No rules here: the sheet
// draws the JSON in the `sheet`, `legal` and `final` traits and reports clicks.

const SVG_NS = "http://www.w3.org/2000/svg";
const NAMES = ["Alex", "Bobby", "Charlie"];
const BONUS = ["A", "B", "C"];
const GEOMETRY = { width: 780, name: 58, row: 130, top: 16, head: 140, segments: [230, 320, 410, 500], r: 42, total: 590, bonus: 690 };

function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

function label(x, y, content, size, cls = "cl-ink") {
  const node = svg("text", { x, y, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central", class: cls });
  node.textContent = String(content);
  return node;
}

function fill(strings, template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => (key in values ? String(values[key]) : `{${key}}`));
}

// Patterns give each caterpillar a second cue besides its colour.
function patternDefs(uid) {
  const defs = svg("defs");
  const kinds = { Alex: null, Bobby: "stripes", Charlie: "dots" };
  for (const name of NAMES) {
    const pattern = svg("pattern", { id: `${uid}-${name}`, width: 12, height: 12, patternUnits: "userSpaceOnUse" });
    pattern.appendChild(svg("rect", { width: 12, height: 12, class: `cl-body-${name}` }));
    if (kinds[name] === "stripes") {
      pattern.appendChild(svg("path", { d: "M-3,3 l6,-6 M0,12 l12,-12 M9,15 l6,-6", class: "cl-pattern-line" }));
    } else if (kinds[name] === "dots") {
      pattern.appendChild(svg("circle", { cx: 6, cy: 6, r: 2.4, class: "cl-pattern-dot" }));
    }
    defs.appendChild(pattern);
  }
  return defs;
}

function drawHead(cx, cy, paint) {
  return svg("g", { "aria-hidden": "true" }, [
    svg("path", { d: `M${cx - 12},${cy - 34} q-8,-22 -20,-26 M${cx + 12},${cy - 34} q8,-22 20,-26`, class: "cl-line" }),
    svg("circle", { cx, cy, r: GEOMETRY.r - 4, fill: paint, class: "cl-outline" }),
    svg("circle", { cx: cx - 12, cy: cy - 8, r: 7, class: "cl-paper" }),
    svg("circle", { cx: cx + 12, cy: cy - 8, r: 7, class: "cl-paper" }),
    svg("circle", { cx: cx - 11, cy: cy - 7, r: 3, class: "cl-pupil" }),
    svg("circle", { cx: cx + 13, cy: cy - 7, r: 3, class: "cl-pupil" }),
    svg("path", { d: `M${cx - 12},${cy + 12} q12,10 24,0`, class: "cl-line" }),
  ]);
}

function drawWings(cx, cy) {
  return svg("g", { "aria-hidden": "true" }, [[-30, -40], [30, 40]].map(([dx, angle]) =>
    svg("ellipse", { cx: cx + dx, cy: cy - 30, rx: 20, ry: 34, transform: `rotate(${angle} ${cx + dx} ${cy - 30})`, class: "cl-wings" })));
}

// One box: an outer <g> (focusable, box-<name>-<i>) around the drawing; a legal
// box wraps its drawing in an inner <g data-testid="legal-move">.
function drawBox(view, name, box, cy, paint, isLegal, isPending, onActivate) {
  const { strings } = view;
  const cx = GEOMETRY.segments[box];
  const r = GEOMETRY.r;
  const labelValue = view.sheet.labels[name][box];
  const score = view.sheet.scores[name][box];
  const content = score === null ? strings.empty : String(score);
  const aria = fill(strings, strings.aria_box, {
    caterpillar: name, number: box + 1, label: labelValue === null ? "…" : labelValue, content,
  });
  const outer = svg("g", {
    "data-testid": `box-${name}-${box}`, class: "cl-box" + (isLegal ? " cl-legal" : ""), tabindex: "0",
    role: "button", "aria-label": aria + (isLegal ? `, ${strings.legal_word}` : ""),
    "data-caterpillar": name, "data-box": box,
  });
  const inner = svg("g", isLegal ? { "data-testid": "legal-move" } : {});
  inner.appendChild(svg("circle", { cx, cy, r: r + 7, class: "cl-focus-ring" }));
  inner.appendChild(svg("circle", { cx, cy, r, fill: paint, class: "cl-outline cl-seg" }));
  inner.appendChild(svg("circle", { cx, cy: cy + 6, r: r - 14, class: score === null ? "cl-hole cl-empty" : "cl-hole" }));
  if (isLegal) inner.appendChild(svg("circle", { cx, cy, r: r + 3, class: "cl-legal-ring" }));
  inner.appendChild(svg("rect", { x: cx - 17, y: cy - r - 8, width: 34, height: 24, rx: 6, class: isPending ? "cl-tag cl-pending" : "cl-tag" }));
  inner.appendChild(label(cx, cy - r + 4, labelValue === null ? "…" : labelValue, 16, "cl-ink cl-bold"));
  if (score !== null) {
    if (score === 0) inner.appendChild(svg("path", { d: `M${cx - 16},${cy - 10} l32,32 M${cx + 16},${cy - 10} l-32,32`, class: "cl-cross" }));
    inner.appendChild(label(cx, cy + 6, score, 28, "cl-ink cl-bold"));
  }
  if (isLegal) inner.appendChild(label(cx + r - 6, cy + r - 8, "★", 22, "cl-star"));
  outer.appendChild(inner);
  outer.addEventListener("click", () => onActivate(name, box));
  outer.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onActivate(name, box);
    }
  });
  return outer;
}

function drawSheet(view, uid, onActivate) {
  const { sheet, legal, final, strings } = view;
  const bonus = "bonus" in sheet;
  const over = final && final.flying;
  const height = GEOMETRY.top + GEOMETRY.row * 3 + (over ? 70 : 10);
  const root = svg("svg", {
    viewBox: `0 0 ${GEOMETRY.width} ${height}`, class: "cl-sheet", "data-testid": "sheet",
    role: "group", "aria-label": strings.sheet_label, tabindex: "-1",
  });
  root.appendChild(patternDefs(uid));
  const legalKeys = new Set(legal.map((m) => `${m.caterpillar}-${m.box}`));
  const pendingKeys = new Set((sheet.pending || []).map(([n, b]) => `${n}-${b}`));
  NAMES.forEach((name, index) => {
    const cy = GEOMETRY.top + GEOMETRY.row * index + GEOMETRY.row / 2 + 10;
    const paint = `url(#${uid}-${name})`;
    const struck = over && final.flying !== name;
    const row = svg("g", { class: struck ? "cl-row cl-struck" : "cl-row", "data-caterpillar": name });
    if (over && final.flying === name) row.appendChild(drawWings(GEOMETRY.head, cy));
    row.appendChild(label(GEOMETRY.name, cy - 12, name, 20, "cl-ink cl-bold"));
    row.appendChild(label(GEOMETRY.name, cy + 14, `(${strings["colour_" + name]})`, 12));
    // Boxes in slot order, so the first legal-move in the page is the engine's first move.
    for (let box = 0; box < 4; box += 1) {
      const key = `${name}-${box}`;
      row.appendChild(drawBox(view, name, box, cy, paint, legalKeys.has(key), pendingKeys.has(key), onActivate));
    }
    row.appendChild(drawHead(GEOMETRY.head, cy, paint));
    row.appendChild(svg("rect", { x: GEOMETRY.total - 34, y: cy - 26, width: 68, height: 52, rx: 8, class: "cl-tag" }));
    row.appendChild(label(GEOMETRY.total, cy, `= ${sheet.totals[name]}`, 24, "cl-on-paper cl-bold"));
    if (bonus) {
      const value = sheet.bonus[BONUS[index]];
      const group = svg("g", { role: "img", "aria-label": `${fill(strings, strings.bonus_box, { box: BONUS[index] })}: ${value === null ? strings.empty : value}`, "data-testid": `bonus-${BONUS[index]}` });
      group.appendChild(svg("rect", { x: GEOMETRY.bonus - 34, y: cy - 26, width: 68, height: 52, rx: 8, class: "cl-bonus" }));
      group.appendChild(label(GEOMETRY.bonus - 18, cy, BONUS[index], 16, "cl-on-paper"));
      group.appendChild(label(GEOMETRY.bonus + 10, cy, value === null ? "…" : value, 24, "cl-on-paper cl-bold"));
      row.appendChild(group);
    }
    if (over) {
      if (final.flying === name) {
        row.appendChild(label(GEOMETRY.head, cy + GEOMETRY.r + 4, `${name} ${strings.flies}`, 15, "cl-ink cl-bold"));
      } else {
        row.appendChild(svg("line", { x1: GEOMETRY.head - 45, y1: cy, x2: GEOMETRY.segments[3] + 45, y2: cy, class: "cl-strike" }));
        row.appendChild(label(GEOMETRY.head, cy + GEOMETRY.r + 4, `${name}: ${strings.struck}`, 15, "cl-ink cl-bold"));
      }
    }
    root.appendChild(row);
  });
  if (over) root.appendChild(label(GEOMETRY.width / 2, height - 34, final.text, 24, "cl-ink cl-bold"));
  return root;
}
