// Classroom: the teacher's console.  The desk (the server's rooms and the
// form of a new room) and the projector (room code, QR code of the join
// address, round, big dice, who has placed, the class ranking, the tables).
// Every action is one event; the rooms and the rules are Python's
// (caterpillar_learn/classroom/).

import { h, picture, s, sender, watch } from "./shared.js";

// The trait payloads; their Python twins are the TypedDicts of
// caterpillar_learn/classroom/views.py.

/**
 * @typedef {Object} DiceFaces
 * @property {number[]} [values]
 * @property {string|null} [action]
 * @property {string} [label]
 */
/**
 * @typedef {Object} PupilLine
 * @property {number} id
 * @property {string} nickname
 * @property {boolean} placed
 * @property {number} filled
 */
/**
 * @typedef {Object} RequestLine  a page asking to be a pupil who is on another tablet already
 * @property {number} id
 * @property {string} nickname
 * @property {string} text
 */
/**
 * @typedef {Object} LeaderRow
 * @property {number} [place]
 * @property {string} [nickname]
 * @property {number} [final]
 * @property {number} [all_boxes]
 * @property {string} [flying]
 * @property {string} [flying_text]
 * @property {boolean} [complete]
 * @property {string[]} [review]
 */
/**
 * @typedef {Object} TableLine
 * @property {number} table
 * @property {string} title
 * @property {string[]} players
 * @property {string} status
 * @property {number} pile
 * @property {number[]} cards
 */
/**
 * @typedef {Object} RoomView
 * @property {string} [code]
 * @property {string} [game]  "caterpillars" or "raupe"
 * @property {string} [title]
 * @property {string} [join_url]
 * @property {string} [qr]  SVG markup drawn by Python
 * @property {string} [phase]  "waiting", "setup", "play" or "over"
 * @property {string} [round_text]
 * @property {DiceFaces} [dice]
 * @property {string} [dice_source]  "server" or "typed"
 * @property {string} [dice_help]
 * @property {boolean} [can_roll]
 * @property {boolean} [hints]
 * @property {boolean} [auto]
 * @property {Object} [placed]  {count, total, text}
 * @property {PupilLine[]} [pupils]
 * @property {RequestLine[]} [requests]
 * @property {LeaderRow[]} [leaderboard]
 * @property {TableLine[]} [tables]
 * @property {string} [sheets_url]  the room's printable score sheets, relative to this page
 * @property {LessonView} [lesson]  a lesson room's grid and switches
 * @property {number} [watching]  the pupil whose screen the teacher looks at
 */
/**
 * @typedef {Object} ProgressRow  one pupil in a lesson room's progress grid
 * @property {number} id
 * @property {string} name  the name the projector shows ("Pupil 3" while the names are hidden)
 * @property {string} nickname  "" while the names are hidden
 * @property {number} step
 * @property {number} steps
 * @property {string} title
 * @property {number} asked
 * @property {number} right_first
 * @property {boolean} stuck
 * @property {string} why_stuck
 * @property {boolean} held
 */
/**
 * @typedef {Object} LessonView
 * @property {string} lesson
 * @property {string} mode  "own" or "together"
 * @property {ProgressRow[]} rows
 * @property {Array<{value: number, text: string}>} steps
 * @property {number|null} hold  the step (1-based) the class is held at
 * @property {boolean} paused
 * @property {boolean} anonymous
 * @property {boolean} can_roll
 * @property {string} roll_text
 * @property {number} released
 */
/**
 * @typedef {Object} DeskView
 * @property {Array<Object>} rooms  {code, title, pupils}
 * @property {string} current
 * @property {Array<{value: string, text: string}>} games
 * @property {Array<{value: string, text: string}>} levels
 * @property {Array<{value: string, text: string}>} layouts
 * @property {Array<{value: string, text: string}>} dice
 * @property {Array<{value: string, text: string}>} bots
 * @property {string} standard
 * @property {Array<{value: string, text: string}>} lessons
 * @property {Array<{value: string, text: string}>} modes
 */

const PIPS = {
  1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

function bigDie(value) {
  return s("svg", { viewBox: "0 0 64 64", class: "cr-die", role: "img", "aria-label": String(value), "data-testid": "room-die" },
    s("rect", { x: 3, y: 3, width: 58, height: 58, rx: 12, class: "cr-die-body" }),
    (PIPS[value] || []).map(([col, row]) => s("circle", { cx: 16 * col, cy: 16 * row, r: 6, class: "cr-pip" })));
}

function choice(testId, label, options, value, onChange) {
  const select = h("select", { "data-testid": testId, onchange: (event) => onChange(event.target.value) },
    options.map((option) => h("option", { value: option.value, selected: option.value === value, text: option.text })));
  return h("label", { class: "cr-field" }, h("span", { text: label }), select);
}

function tick(testId, label, checked, onChange) {
  return h("label", { class: "cr-check" },
    h("input", { type: "checkbox", "data-testid": testId, checked, onchange: (event) => onChange(event.target.checked) }),
    h("span", { text: label }));
}

// The QR code of the join address: one picture with a name (its SVG's squares say nothing aloud).
function qrCode(markup, name) {
  const holder = picture(markup, "cr-qr", false);
  holder.setAttribute("role", "img");
  holder.setAttribute("aria-label", name || "");
  holder.setAttribute("data-testid", "join-qr");
  return holder;
}

// "Print score sheets": the room's paper sheets in a new tab.  The link carries this page's token once; the
// server swaps it for a cookie and an address without it (caterpillar_learn/classroom/scoresheets.py).
function sheetsLink(room, strings) {
  if (!room.sheets_url) return null;
  const token = new URLSearchParams(window.location.search).get("token");
  const href = room.sheets_url + (token ? "&token=" + encodeURIComponent(token) : "");
  return h("a", { class: "cr-button cr-link", href, target: "_blank", rel: "noopener", "data-testid": "print-sheets",
    text: strings.print_sheets });
}

// Damaged data (lobby.Damage): where the room's replay stopped, and the later events kept in the file unapplied.
function drawDamage(reports) {
  if (!reports || !reports.length) return null;
  return h("section", { class: "cr-damage", role: "status", "data-testid": "damage-report" },
    reports.map((report) => h("div", { "data-room": report.room, "data-event": String(report.event) },
      h("h2", { class: "cr-message", text: report.title }), h("p", { text: report.report }),
      report.later ? h("p", { text: report.later }) : null, h("p", { text: report.advice }))));
}

function render({ model, el }) {
  const root = h("div", { class: "cl-root cr-root" });
  el.appendChild(root);
  const send = sender(model);
  const form = { game: "caterpillars", level: "beginner", layout: "standard", labels: "", dice: "server",
    hints: true, variation: false, seats: 2, bots: "beginner", lesson: "01-beginner", mode: "own" };
  let typed = "";
  let lastDice = null;
  // Whether the teacher opened or closed the "New room" form; null: open only while there is no room.
  let formOpen = null;
  // The pupil being renamed (their id) and the name typed so far.
  let renaming = null;
  let newName = "";

  function drawForm(desk, strings) {
    // A field that redraws the form is changed inside the open form: it stays open (the details' toggle event
    // is queued as a task and may not have arrived yet when a quick hand picks the other game).
    const redraw = (key) => (value) => { form[key] = value; formOpen = true; draw(); };
    const fields = [choice("room-game", strings.game, desk.games || [], form.game, redraw("game"))];
    if (form.game === "lesson") {
      fields.push(
        choice("room-lesson", strings.lesson, desk.lessons || [], form.lesson, (value) => { form.lesson = value; }),
        choice("room-mode", strings.mode, desk.modes || [], form.mode, (value) => { form.mode = value; }));
    } else if (form.game === "raupe") {
      fields.push(
        choice("room-seats", strings.seats, [2, 3, 4].map((n) => ({ value: String(n), text: String(n) })), String(form.seats),
          (value) => { form.seats = Number(value); }),
        choice("room-bots", strings.bots, desk.bots || [], form.bots, (value) => { form.bots = value; }));
    } else {
      fields.push(
        choice("room-level", strings.level, desk.levels || [], form.level, redraw("level")),
        choice("room-layout", strings.layout, desk.layouts || [], form.layout, redraw("layout")));
      if (form.layout === "typed") {
        fields.push(h("label", { class: "cr-field cr-wide" }, h("span", { text: strings.labels }),
          h("input", { type: "text", "data-testid": "room-labels", value: form.labels || desk.standard || "",
            oninput: (event) => { form.labels = event.target.value; } })));
      }
      if (form.layout === "setup" && form.level !== "beginner") {
        fields.push(tick("room-variation", strings.variation, form.variation, (value) => { form.variation = value; }));
      }
      fields.push(choice("room-dice-source", strings.dice, desk.dice || [], form.dice, (value) => { form.dice = value; }));
    }
    if (form.game !== "lesson") fields.push(tick("room-hints", strings.hints, form.hints, (value) => { form.hints = value; }));
    const create = () => {
      const fieldsSent = form.game === "lesson" ? { game: "lesson", lesson: form.lesson, mode: form.mode } : form.game === "raupe"
        ? { game: "raupe", seats: form.seats, bots: form.bots, hints: form.hints }
        : { game: "caterpillars", level: form.level, layout: form.layout, labels: form.labels || desk.standard || "",
          dice: form.dice, hints: form.hints, variation: form.layout === "setup" && form.level !== "beginner" && form.variation };
      formOpen = null;  // the new room opens and the form folds away
      send("create", fieldsSent);
    };
    const open = formOpen === null ? !desk.current : formOpen;
    return h("details", { class: "cr-new", open, ontoggle: (event) => { formOpen = event.target.open; } },
      h("summary", { text: strings.new_room }),
      h("div", { class: "cr-form" }, fields,
        h("button", { class: "cr-button cr-primary", type: "button", "data-testid": "create-room", text: strings.create, onclick: create })));
  }

  function drawRooms(desk, strings) {
    if (!desk.rooms || desk.rooms.length < 2) return null;
    return h("nav", { class: "cr-rooms", "aria-label": strings.rooms },
      desk.rooms.map((room) => h("button", {
        class: "cr-button" + (room.code === desk.current ? " cr-current" : ""), type: "button", "data-testid": "open-room",
        "data-code": room.code, "aria-pressed": String(room.code === desk.current),
        text: `${room.code} · ${room.title} · ${room.pupils}`, onclick: () => send("open", { code: room.code }),
      })));
  }

  function drawControls(room, strings) {
    const controls = [];
    if (room.game === "raupe") {
      controls.push(h("button", { class: "cr-button cr-primary cr-roll", type: "button", "data-testid": "start-tables",
        text: strings.start_tables, onclick: () => send("start") }));
      return h("div", { class: "cr-controls" }, controls);
    }
    const roll = () => send("roll", room.dice_source === "typed" ? { dice: typed } : {});
    if (room.dice_source === "typed") {
      controls.push(h("label", { class: "cr-field" }, h("span", { text: strings.dice_input }),
        h("input", { type: "text", "data-testid": "dice-input", value: typed, placeholder: room.dice_help, "aria-describedby": "cr-dice-help",
          disabled: !room.can_roll, oninput: (event) => { typed = event.target.value; },
          onkeydown: (event) => { if (event.key === "Enter") { event.preventDefault(); roll(); } } })));
    }
    controls.push(h("button", { class: "cr-button cr-primary cr-roll", type: "button", "data-testid": "teacher-roll",
      disabled: !room.can_roll, text: room.dice_source === "typed" ? strings.roll_typed : strings.roll, onclick: roll }));
    controls.push(tick("hints-toggle", strings.hints, Boolean(room.hints), (value) => send("hints", { on: value })));
    if (room.dice_source === "server") {
      controls.push(tick("auto-roll", strings.auto, Boolean(room.auto), (value) => send("auto", { on: value })));
    }
    controls.push(sheetsLink(room, strings));
    return h("div", { class: "cr-controls" }, controls,
      room.dice_source === "typed" ? h("p", { class: "cr-note", id: "cr-dice-help", text: room.dice_help }) : null);
  }

  function drawRequests(room, strings) {
    const requests = room.requests || [];
    if (!requests.length) return null;
    return h("section", { class: "cr-requests", role: "alert", "aria-label": strings.requests },
      requests.map((request) => h("div", { class: "cr-request", "data-testid": "rejoin-request", "data-nickname": request.nickname },
        h("span", { text: request.text }),
        h("button", { class: "cr-button cr-primary", type: "button", "data-testid": "rejoin-allow", text: strings.let_in,
          onclick: () => send("let_in", { request: request.id }) }),
        h("button", { class: "cr-button", type: "button", "data-testid": "rejoin-refuse", text: strings.refuse,
          onclick: () => send("refuse", { request: request.id }) }))));
  }

  function drawPupil(pupil, strings, marked = true) {
    const attributes = { class: "cr-pupil" + (pupil.placed ? " cr-done" : ""), "data-testid": "pupil",
      "data-nickname": pupil.nickname, "data-placed": String(pupil.placed) };
    if (renaming === pupil.id) {
      const save = () => { renaming = null; send("rename", { pupil: pupil.id, nickname: newName }); };
      return h("li", attributes,
        h("input", { type: "text", "data-testid": "rename-nickname", value: newName, maxlength: 20, "aria-label": strings.rename,
          oninput: (event) => { newName = event.target.value; },
          onkeydown: (event) => { if (event.key === "Enter") { event.preventDefault(); save(); } } }),
        h("button", { class: "cr-button cr-small", type: "button", "data-testid": "rename-save", text: strings.rename_save, onclick: save }));
    }
    return h("li", attributes,
      h("span", { class: "cr-pupil-name", text: (marked ? (pupil.placed ? "✓ " : "… ") : "") + pupil.nickname }),
      h("button", { class: "cr-button cr-small", type: "button", "data-testid": "rename-pupil", text: strings.rename,
        "aria-label": `${strings.rename}: ${pupil.nickname}`,
        onclick: () => { renaming = pupil.id; newName = pupil.nickname; draw(); } }),
      h("button", { class: "cr-button cr-small", type: "button", "data-testid": "remove-pupil", text: strings.remove,
        "aria-label": `${strings.remove}: ${pupil.nickname}`, onclick: () => send("remove", { pupil: pupil.id }) }));
  }

  function drawLeaderboard(room, strings) {
    if (!room.leaderboard) return null;
    const head = h("tr", {}, [strings.place, strings.nickname, strings.final, strings.all_boxes, strings.flies, strings.review]
      .map((name) => h("th", { scope: "col", text: name })));
    const rows = room.leaderboard.map((row) => h("tr", {
      "data-testid": "leaderboard-row", "data-nickname": row.nickname, "data-final": String(row.final),
      "data-place": String(row.place), "data-all-boxes": String(row.all_boxes), class: row.complete ? "" : "cr-unfinished",
    },
    h("td", { text: String(row.place) }), h("th", { scope: "row", text: row.nickname }),
    h("td", { class: "cr-final", text: String(row.final) }), h("td", { text: String(row.all_boxes) }),
    h("td", { class: `cr-flyer cr-${(row.flying || "").toLowerCase()}`, text: row.flying_text }),
    h("td", {}, row.review
      ? h("details", { "data-testid": "pupil-review" }, h("summary", { text: strings.review }),
        h("ul", {}, row.review.map((line) => h("li", { text: line }))))
      : h("button", { class: "cr-button", type: "button", "data-testid": "review-button",
        disabled: !row.complete || Boolean(row.reviewing), "aria-busy": String(Boolean(row.reviewing)),
        text: row.reviewing ? strings.reviewing : strings.review,
        onclick: () => send("review", { nickname: row.nickname }) }))));
    return h("section", { class: "cr-leaderboard", "aria-label": strings.leaderboard },
      h("h2", { text: strings.leaderboard }),
      h("table", { "data-testid": "leaderboard" }, h("thead", {}, head), h("tbody", {}, rows)));
  }

  function drawTables(room, strings) {
    if (!room.tables) return null;
    return h("section", { class: "cr-tables", "aria-label": strings.tables },
      h("h2", { text: strings.tables }),
      room.tables.map((table) => h("div", { class: "cr-table", "data-testid": "raupe-table", "data-table": String(table.table) },
        h("h3", { text: table.title }),
        h("p", { class: "cr-note", "data-testid": "raupe-table-status", text: table.status }),
        h("ul", {}, table.players.map((name, seat) => h("li", { text: `${name}: ${table.cards[seat]}` }))))));
  }

  // A lesson room: the teacher's roll (together), hold, pause, names, the progress file; then the grid.
  function drawLessonControls(room, lesson, strings) {
    const steps = [{ value: "", text: strings.hold_none }, ...(lesson.steps || []).map((step) => ({ value: String(step.value), text: step.text }))];
    const controls = [];
    if (lesson.mode === "together") {
      controls.push(h("button", { class: "cr-button cr-primary cr-roll", type: "button", "data-testid": "teacher-roll",
        disabled: !lesson.can_roll, text: lesson.roll_text, onclick: () => send("roll") }));
    }
    if (steps.length > 1) {
      controls.push(choice("hold-step", strings.hold, steps, lesson.hold === null || lesson.hold === undefined ? "" : String(lesson.hold),
        (value) => send("hold", { step: value === "" ? null : Number(value) })));
    }
    controls.push(h("button", { class: "cr-button" + (lesson.paused ? " cr-primary" : ""), type: "button", "data-testid": "pause-class",
      "aria-pressed": String(Boolean(lesson.paused)), text: lesson.paused ? strings.resume : strings.pause,
      onclick: () => send("pause", { on: !lesson.paused }) }));
    controls.push(tick("anonymize", strings.anonymize, Boolean(lesson.anonymous), (value) => send("anonymize", { on: value })));
    controls.push(h("button", { class: "cr-button", type: "button", "data-testid": "export-csv", text: strings.export,
      onclick: () => send("export") }));
    return h("div", { class: "cr-controls" }, controls,
      lesson.paused ? h("p", { class: "cr-note", role: "status", "data-testid": "paused-note", text: strings.paused_note }) : null);
  }

  function drawProgress(room, lesson, strings) {
    const head = h("tr", {}, [strings.nickname, strings.step, strings.asked, strings.right_first, strings.stuck]
      .map((name) => h("th", { scope: "col", text: name })));
    const rows = (lesson.rows || []).map((row) => {
      const look = () => send("watch", { pupil: room.watching === row.id ? null : row.id });
      return h("tr", {
        class: "cr-progress-row" + (row.stuck ? " cr-stuck" : "") + (room.watching === row.id ? " cr-watching" : ""),
        "data-testid": "progress-row", "data-pupil": String(row.id), "data-nickname": row.nickname,
        "data-step": String(row.step), "data-steps": String(row.steps), "data-asked": String(row.asked),
        "data-right-first": String(row.right_first), "data-stuck": String(row.stuck), onclick: look,
      },
      h("th", { scope: "row" }, h("button", { class: "cr-button cr-row-name", type: "button", "data-testid": "watch-pupil",
        "aria-pressed": String(room.watching === row.id), text: row.name,
        onclick: (event) => { event.stopPropagation(); look(); } })),
      h("td", {}, h("span", { class: "cr-step", text: `${row.step} / ${row.steps}` }),
        h("span", { class: "cr-step-title", text: row.title }),
        h("span", { class: "cr-step-bar", "aria-hidden": "true" },
          h("span", { class: "cr-step-fill", style: `width: ${Math.round((100 * row.step) / Math.max(1, row.steps))}%` }))),
      h("td", { class: "cr-number", text: String(row.asked) }),
      h("td", { class: "cr-number", text: String(row.right_first) }),
      h("td", { class: "cr-stuck-cell" }, row.stuck ? h("span", { class: "cr-stuck-tag", text: `⚠ ${row.why_stuck}` }) : null));
    });
    return h("section", { class: "cr-progress", "aria-label": strings.progress },
      h("h2", { text: strings.progress }),
      h("table", { "data-testid": "progress" }, h("thead", {}, head),
        h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: "5", class: "cr-note", text: strings.waiting_pupils })))));
  }

  function drawLessonRoom(room, strings) {
    const lesson = room.lesson || {};
    const pupils = room.pupils || [];
    return h("section", { class: "cr-projector cr-lesson-room", "aria-label": room.title, "data-paused": String(Boolean(lesson.paused)) },
      h("div", { class: "cr-door" },
        h("div", { class: "cr-label", text: strings.code }),
        h("div", { class: "cr-code", "data-testid": "room-code", text: room.code }),
        h("div", { class: "cr-label", text: strings.join_at }),
        h("div", { class: "cr-url", "data-testid": "join-url", text: room.join_url }),
        qrCode(room.qr || "", strings.qr)),
      h("div", { class: "cr-play" },
        h("h2", { class: "cr-title", text: room.title }),
        drawLessonControls(room, lesson, strings),
        drawRequests(room, strings),
        lesson.anonymous || !pupils.length ? null
          : h("ul", { class: "cr-pupils", "aria-label": strings.pupils }, pupils.map((pupil) => drawPupil(pupil, strings, false)))),
      drawProgress(room, lesson, strings));
  }

  function drawRoom(room, strings) {
    if (!room.code) return h("p", { class: "cr-empty", text: strings.no_room });
    if (room.game === "lesson") return drawLessonRoom(room, strings);
    const dice = room.dice && room.dice.values ? room.dice : null;
    const diceKey = dice ? dice.label + "/" + room.round_text : null;
    if (diceKey !== lastDice) {
      typed = "";
      lastDice = diceKey;
    }
    const pupils = room.pupils || [];
    return h("section", { class: "cr-projector", "aria-label": room.title },
      h("div", { class: "cr-door" },
        h("div", { class: "cr-label", text: strings.code }),
        h("div", { class: "cr-code", "data-testid": "room-code", text: room.code }),
        h("div", { class: "cr-label", text: strings.join_at }),
        h("div", { class: "cr-url", "data-testid": "join-url", text: room.join_url }),
        qrCode(room.qr || "", strings.qr)),
      h("div", { class: "cr-play" },
        h("h2", { class: "cr-title", text: room.title }),
        room.game === "raupe" ? null : h("div", { class: "cr-round", "data-testid": "room-round", text: room.round_text }),
        dice ? h("div", { class: "cr-dice", "data-testid": "room-dice", "aria-label": dice.label },
          dice.values.map(bigDie), dice.action ? h("span", { class: "cr-action", text: dice.action }) : null) : null,
        room.placed ? h("div", { class: "cr-placed", "data-testid": "placed-count", "data-count": String(room.placed.count),
          "data-total": String(room.placed.total), text: room.placed.text }) : null,
        drawControls(room, strings),
        drawRequests(room, strings),
        h("ul", { class: "cr-pupils", "aria-label": strings.pupils },
          pupils.length ? pupils.map((pupil) => drawPupil(pupil, strings))
            : h("li", { class: "cr-note", text: strings.waiting_pupils }))),
      drawLeaderboard(room, strings), drawTables(room, strings));
  }

  function draw() {
    const desk = model.get("desk") || {};
    const room = model.get("room") || {};
    const strings = model.get("strings") || {};
    const message = model.get("message") || "";
    const active = root.querySelector(":focus");
    const focusId = active ? active.getAttribute("data-testid") : null;
    const caret = active && "selectionStart" in active ? active.selectionStart : null;
    root.setAttribute("lang", model.get("lang") || "en");
    // replaceChildren would write a null as the text "null": drop the parts not shown.
    root.replaceChildren(...[
      h("header", { class: "cr-header" }, h("h1", { text: strings.title }), drawRooms(desk, strings)),
      drawForm(desk, strings),
      message ? h("p", { class: "cr-message", role: "alert", "data-testid": "message", text: message }) : null,
      drawDamage(model.get("damage")),
      drawRoom(room, strings)].filter(Boolean));
    if (focusId) {
      const again = root.querySelector(`[data-testid="${focusId}"]`);
      if (again && !again.disabled) {
        again.focus({ preventScroll: true });
        if (caret !== null && "setSelectionRange" in again && again.type === "text") again.setSelectionRange(caret, caret);
      }
    }
  }

  // The progress file: downloaded once for each new `download.seq` (the one asked for before this page opened is not).
  let downloaded = (model.get("download") || {}).seq || 0;
  function download() {
    const file = model.get("download") || {};
    if (!file.seq || file.seq === downloaded) return;
    downloaded = file.seq;
    const url = URL.createObjectURL(new Blob([file.text || ""], { type: "text/csv;charset=utf-8" }));
    const link = h("a", { href: url, download: file.name || "progress.csv", hidden: true });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }
  model.on("change:download", download);

  const stop = watch(model, draw);
  draw();
  return () => { model.off("change:download", download); stop(); };
}

export default { render };
