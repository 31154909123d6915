// Classroom: the teacher's console.  The desk (the server's rooms and the
// form of a new room) and the projector (room code, QR code of the join
// address, round, big dice, who has placed, the class ranking, the tables).
// Every action is one event; the rooms and the rules are Python's
// (caterpillar_learn/classroom/).  Drawn with draw.js: each push changes only
// what differs, and the rows (pupils, rooms, requests, tables) are keyed by
// their identity, so a row keeps its node, its focus and a press in progress.

import { h, mount, picture, s, useView } from "./draw.js";
import { useLayoutEffect, useRef, useState } from "./preact-hooks.js";
import { fill, sender } from "./shared.js";
import { PIPS } from "./page.js";

// The trait payloads; their Python twins are the TypedDicts of
// caterpillar_learn/classroom/screens.py.

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
 * @property {boolean} [reviewing]  the review is on its way from the server's workers
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
 * @property {ClassSheet} [sheet]  the class's dice and how the class chose, once the teacher has rolled
 * @property {string} [dice_source]  "server" or "typed"
 * @property {string} [dice_help]
 * @property {boolean} [can_roll]
 * @property {boolean} [hints]
 * @property {boolean} [auto]
 * @property {Object} [placed]  {count, total, text}
 * @property {PupilLine[]} [pupils]
 * @property {boolean} [archivable]  finished (or stopped at a damaged event): the teacher may archive it
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
 * @property {string} [round]  "round 4": the round of the pupil's game ("": a card lesson)
 * @property {Object<string, string>} [ideas]  the ideas the pupil's practice met: idea → practising or mastered, in words
 * @property {number|null} [final]  the final score of the pupil's last game (null: none finished; the progress file's)
 * @property {number} [minutes]  minutes since the pupil joined (the progress file's)
 */
/**
 * @typedef {Object} LessonView
 * @property {string} lesson
 * @property {string} mode  "own" or "together"
 * @property {ProgressRow[]} rows
 * @property {Array<{idea: string, text: string}>} [ideas]  the grid's idea columns (ideas some pupil met)
 * @property {string} [class_line]  the idea most pupils still miss, in words
 * @property {Array<{value: number, text: string}>} steps
 * @property {number|null} hold  the step (1-based) the class is held at
 * @property {boolean} paused
 * @property {boolean} anonymous
 * @property {boolean} can_roll
 * @property {string} roll_text
 * @property {number} released
 * @property {ClassSheet|null} [sheet]  where the teacher rolls for a Caterpillars lesson: the class's latest dice
 * @property {string} [print_url]  the lesson's printed page for this room's seed and language (the plan, the answers)
 */
/**
 * @typedef {Object} ClassBox  one box of the class's sheet
 * @property {number} slot
 * @property {string} label  "" while the box has no label yet
 * @property {number} count  the pupils who wrote this roll there
 * @property {string} text  the box and its count in words (its accessible name)
 */
/**
 * @typedef {Object} ClassCaterpillar  one caterpillar of the class's sheet
 * @property {string} name
 * @property {ClassBox[]} boxes
 */
/**
 * @typedef {Object} ClassSheet  the class's dice on the projector, on the room's sheet, with a count on each box
 * @property {DiceFaces} dice
 * @property {ClassCaterpillar[]} caterpillars
 * @property {string} caption  "How the class chose"
 * @property {string} placed  "2 of 3 placed"
 */
/**
 * @typedef {Object} DeskView
 * @property {Array<Object>} rooms  {code, title, pupils}
 * @property {string} current
 * @property {string} [notice]  good news for the teacher (a room archived, and where its file is): not an error
 * @property {Array<{value: string, text: string}>} games
 * @property {Array<{value: string, text: string}>} levels
 * @property {Array<{value: string, text: string}>} layouts
 * @property {Array<{value: string, text: string}>} dice
 * @property {Array<{value: string, text: string}>} bots
 * @property {Object<string, string>} standards  each level's own sheet (its lesson's labels), as typed labels
 * @property {Array<{value: string, text: string}>} lessons
 * @property {Array<{value: string, text: string}>} modes
 * @property {Array<{value: string, text: string}>} [hint_choices]  a lesson room's hints: the lesson's own, on, off
 * @property {Array<{value: string, text: string}>} [languages]  a lesson room's first language ("": the server's)
 */

/** @param {number} value */
function bigDie(value) {
  return s("svg", { viewBox: "0 0 64 64", class: "cr-die", role: "img", "aria-label": String(value), "data-testid": "room-die" },
    s("rect", { x: 3, y: 3, width: 58, height: 58, rx: 12, class: "cr-die-body" }),
    (PIPS[value] || []).map(([col, row]) => s("circle", { cx: 16 * col, cy: 16 * row, r: 6, class: "cr-pip" })));
}

/**
 * A menu.  With `onChange` it follows the view (`value` each render); without, it is the form's own field
 * (`name`), `value` only its first choice, and Create reads it.
 * @param {string} testId
 * @param {string} label
 * @param {Array<{value: string, text: string}>} options
 * @param {string} value
 * @param {((value: string) => void)|null} [onChange]
 * @param {string} [name]
 */
function choice(testId, label, options, value, onChange = null, name = undefined) {
  const select = h("select", { "data-testid": testId, name,
    onchange: onChange ? (/** @type {Event} */ event) => onChange(/** @type {HTMLSelectElement} */ (event.target).value) : null },
  options.map((option) => h("option", { key: option.value, value: option.value, selected: option.value === value, text: option.text })));
  return h("label", { key: testId, class: "cr-field" }, h("span", { text: label }), select);
}

/**
 * A tick box: with `onChange`, the server's switch (`checked` each render); without, a field of the form.
 * @param {string} testId
 * @param {string} label
 * @param {boolean} checked
 * @param {((value: boolean) => void)|null} [onChange]
 * @param {string} [name]
 */
function tick(testId, label, checked, onChange = null, name = undefined) {
  const box = onChange
    ? { checked, onchange: (/** @type {Event} */ event) => onChange(/** @type {HTMLInputElement} */ (event.target).checked) }
    : { name, defaultChecked: checked ? "checked" : null };  // the first state only: then the box keeps the teacher's
  return h("label", { key: testId, class: "cr-check" }, h("input", { type: "checkbox", "data-testid": testId, ...box }), h("span", { text: label }));
}

/**
 * The QR code of the join address: one picture with a name (its SVG's squares say nothing aloud).
 * @param {string} svg
 * @param {string} name
 */
function qrCode(svg, name) {
  return picture(svg, "cr-qr", false, { role: "img", "aria-label": name || "", "data-testid": "join-qr" });
}

/**
 * "Print score sheets": the room's paper sheets in a new tab.  The link carries this page's token once; the
 * server swaps it for a cookie and an address without it (caterpillar_learn/classroom/scoresheets.py).
 * @param {RoomView} room
 * @param {Object<string, string>} strings
 */
function sheetsLink(room, strings) {
  return room.sheets_url ? teacherLink(room.sheets_url, strings.print_sheets, "print-sheets") : null;
}

/**
 * A page for the teacher alone, in a new tab (score sheets, a lesson's printed page): the console's token goes
 * with it once, and that page takes it out of its address.
 * @param {string} url  relative to the console, with its own arguments
 * @param {string} words
 * @param {string} testid
 */
function teacherLink(url, words, testid) {
  const token = new URLSearchParams(window.location.search).get("token");
  const href = url + (token ? "&token=" + encodeURIComponent(token) : "");
  return h("a", { key: testid, class: "cr-button cr-link", href, target: "_blank", rel: "noopener", "data-testid": testid, text: words });
}

/**
 * Damaged data (lobby.Damage): where the room's replay stopped, and the later events kept in the file unapplied.
 * @param {Array<Object<string, any>>} reports
 */
function drawDamage(reports) {
  if (!reports || !reports.length) return null;
  return h("section", { key: "damage", class: "cr-damage", role: "status", "data-testid": "damage-report" },
    reports.map((report) => h("div", { key: `${report.room}/${report.event}`, "data-room": report.room, "data-event": String(report.event) },
      h("h2", { class: "cr-message", text: report.title }), h("p", { text: report.report }),
      report.later ? h("p", { text: report.later }) : null, h("p", { text: report.advice }))));
}

// -- The console, made of components ----------------------------------------------------------------------------
// `Console` reads the view traits and draws the desk and the room.  What the page alone knows between two of the
// server's views is the state of the component it belongs to: the "New room" form's choices and whether it is
// open (NewRoomForm), a pupil being renamed or asked about and where the focus goes in that row (Pupil), the
// dice typed at the front (RollControls), the archive's question (Archive).

/** @typedef {(type: string, fields?: Object<string, any>) => boolean} Send */
/** @typedef {Object<string, string>} Strings */

/**
 * The new room's fields: the game's, each a menu or a tick box the form reads when Create is pressed, except the
 * choices that decide which fields show (`shows`).
 * @param {DeskView} desk
 * @param {Strings} strings
 * @param {{game: string, level: string, layout: string}} form
 * @param {(key: "game"|"level"|"layout") => (value: string) => void} shows
 */
function roomFields(desk, strings, form, shows) {
  const fields = [choice("room-game", strings.game, desk.games || [], form.game, shows("game"))];
  if (form.game === "lesson") {
    fields.push(
      choice("room-lesson", strings.lesson, desk.lessons || [], "01-beginner", null, "lesson"),
      choice("room-mode", strings.mode, desk.modes || [], "own", null, "mode"),
      // Set up like a lesson's notebook (issue 42): the seed, the hints and the pages' first language.
      h("label", { key: "room-seed", class: "cr-field" }, h("span", { text: strings.seed }),
        h("input", { type: "number", name: "seed", min: "0", max: "999999999", inputmode: "numeric", "data-testid": "room-seed",
          placeholder: strings.seed })),
      choice("room-lesson-hints", strings.lesson_hints, desk.hint_choices || [], "lesson", null, "lesson_hints"),
      choice("room-lesson-lang", strings.lesson_lang, desk.languages || [], "", null, "lesson_lang"));
  } else if (form.game === "raupe") {
    fields.push(
      choice("room-seats", strings.seats, [2, 3, 4].map((n) => ({ value: String(n), text: String(n) })), "2", null, "seats"),
      choice("room-bots", strings.bots, desk.bots || [], "beginner", null, "bots"));
  } else {
    fields.push(
      choice("room-level", strings.level, desk.levels || [], form.level, shows("level")),
      choice("room-layout", strings.layout, desk.layouts || [], form.layout, shows("layout")));
    if (form.layout === "typed") {
      fields.push(h("label", { key: "room-labels", class: "cr-field cr-wide" }, h("span", { text: strings.labels }),
        h("input", { type: "text", name: "labels", "data-testid": "room-labels", defaultValue: (desk.standards || {})[form.level] || "" })));
    }
    if (form.layout === "setup" && form.level !== "beginner") fields.push(tick("room-variation", strings.variation, false, null, "variation"));
    fields.push(choice("room-dice-source", strings.dice, desk.dice || [], "server", null, "dice"));
  }
  if (form.game !== "lesson") fields.push(tick("room-hints", strings.hints, true, null, "hints"));
  return fields;
}

/**
 * What Create sends: the form's fields as the chosen game needs them.
 * @param {DeskView} desk
 * @param {{game: string, level: string, layout: string}} form
 * @param {(name: string, fallback: any) => any} field  the value of a field of the form (one not shown: `fallback`)
 */
function roomAsked(desk, form, field) {
  if (form.game === "lesson") {
    const hints = { on: true, off: false }[String(field("lesson_hints", "lesson"))];
    return { game: "lesson", lesson: field("lesson", "01-beginner"), mode: field("mode", "own"),
      seed: field("seed", ""), hints: hints === undefined ? "" : hints, lang: field("lesson_lang", "") };
  }
  if (form.game === "raupe") return { game: "raupe", seats: Number(field("seats", "2")), bots: field("bots", "beginner"), hints: field("hints", true) };
  const variation = form.layout === "setup" && form.level !== "beginner" && Boolean(field("variation", false));
  return { game: "caterpillars", level: form.level, layout: form.layout,
    labels: field("labels", "") || (desk.standards || {})[form.level] || "", dice: field("dice", "server"), hints: field("hints", true), variation };
}

/**
 * "New room": open while there is no room, folded away when a room opens (the server's view says so); in
 * between it stays as the teacher left it.
 * @param {{desk: DeskView, strings: Strings, send: Send}} props
 */
function NewRoomForm({ desk, strings, send }) {
  const [form, setForm] = useState({ game: "caterpillars", level: "beginner", layout: "standard" });
  const fieldsNode = useRef(/** @type {HTMLElement|null} */ (null));
  const current = desk.current || "";
  const state = useRef({ current: /** @type {string|undefined} */ (undefined), open: false });
  if (current !== state.current.current) state.current = { current, open: !current };
  const [, redraw] = useState(0);
  /** @param {Event} event */
  const toggled = (event) => {
    const open = /** @type {HTMLDetailsElement} */ (event.currentTarget).open;
    if (open !== state.current.open) { state.current.open = open; redraw((n) => n + 1); }  // ours: the form's state, not a node
  };
  /** @param {"game"|"level"|"layout"} key */
  const shows = (key) => (/** @type {string} */ value) => setForm((was) => ({ ...was, [key]: value }));
  /** @param {string} name @param {any} fallback */
  const field = (name, fallback) => {
    const found = fieldsNode.current ? /** @type {HTMLInputElement|null} */ (fieldsNode.current.querySelector(`[name="${name}"]`)) : null;
    if (!found) return fallback;
    return found.type === "checkbox" ? found.checked : found.value;
  };
  return h("details", { key: "form", class: "cr-new", open: state.current.open, ontoggle: toggled },
    h("summary", { text: strings.new_room }),
    h("div", { class: "cr-form", ref: fieldsNode }, roomFields(desk, strings, form, shows),
      h("button", { class: "cr-button cr-primary", type: "button", "data-testid": "create-room", text: strings.create,
        onclick: () => send("create", roomAsked(desk, form, field)) })));
}

/**
 * The rooms of the server, one button each.  One room open needs no list; with none open (after a restart the
 * rooms sleep) the list is the way in.
 * @param {DeskView} desk
 * @param {Strings} strings
 * @param {Send} send
 */
function drawRooms(desk, strings, send) {
  if (!desk.rooms || !desk.rooms.length || (desk.rooms.length < 2 && desk.current)) return null;
  return h("nav", { class: "cr-rooms", "aria-label": strings.rooms },
    desk.rooms.map((room) => h("button", {
      key: room.code, class: "cr-button" + (room.code === desk.current ? " cr-current" : ""), type: "button",
      "data-testid": "open-room", "data-code": room.code, "aria-pressed": String(room.code === desk.current),
      text: `${room.code} · ${room.title} · ${room.pupils}`, onclick: () => send("open", { code: room.code }),
    })));
}

/**
 * A game room's controls: Roll (with the dice typed at the front, where the class rolls real dice), the hints,
 * the server's own rolls, the score sheets; a card room's Start.  New dice on the projector empty the typed field
 * once (the server read what was typed).
 * @param {{room: RoomView, strings: Strings, send: Send}} props
 */
function RollControls({ room, strings, send }) {
  const [typed, setTyped] = useState({ key: /** @type {string|null} */ (null), text: "" });
  if (room.game === "raupe") {
    return h("div", { key: "controls", class: "cr-controls" }, h("button", { class: "cr-button cr-primary cr-roll", type: "button",
      "data-testid": "start-tables", text: strings.start_tables, onclick: () => send("start") }));
  }
  const byHand = room.dice_source === "typed";
  const diceKey = room.sheet ? room.sheet.dice.label + "/" + room.round_text : null;
  const text = typed.key === diceKey ? typed.text : "";
  const roll = () => send("roll", byHand ? { dice: text } : {});
  return h("div", { key: "controls", class: "cr-controls" },
    byHand ? h("label", { key: "dice-input", class: "cr-field" }, h("span", { text: strings.dice_input }),
      h("input", { type: "text", "data-testid": "dice-input", placeholder: room.dice_help, "aria-describedby": "cr-dice-help",
        disabled: !room.can_roll, value: text,
        oninput: (/** @type {Event} */ event) => setTyped({ key: diceKey, text: /** @type {HTMLInputElement} */ (event.target).value }),
        onkeydown: (/** @type {KeyboardEvent} */ event) => { if (event.key === "Enter") { event.preventDefault(); roll(); } } })) : null,
    h("button", { key: "roll", class: "cr-button cr-primary cr-roll", type: "button", "data-testid": "teacher-roll",
      disabled: !room.can_roll, text: byHand ? strings.roll_typed : strings.roll, onclick: roll }),
    tick("hints-toggle", strings.hints, Boolean(room.hints), (value) => send("hints", { on: value })),
    room.dice_source === "server" ? tick("auto-roll", strings.auto, Boolean(room.auto), (value) => send("auto", { on: value })) : null,
    sheetsLink(room, strings),
    byHand ? h("p", { class: "cr-note", id: "cr-dice-help", text: room.dice_help }) : null);
}

/**
 * Pages asking to be a pupil who is on another tablet already: Let in or Refuse, each.
 * @param {RoomView} room
 * @param {Strings} strings
 * @param {Send} send
 */
function drawRequests(room, strings, send) {
  const requests = room.requests || [];
  if (!requests.length) return null;
  return h("section", { key: "requests", class: "cr-requests", role: "alert", "aria-label": strings.requests },
    requests.map((request) => h("div", { key: request.id, class: "cr-request", "data-testid": "rejoin-request", "data-nickname": request.nickname },
      h("span", { text: request.text }),
      h("button", { class: "cr-button cr-primary", type: "button", "data-testid": "rejoin-allow", text: strings.let_in,
        onclick: () => send("let_in", { request: request.id }) }),
      h("button", { class: "cr-button", type: "button", "data-testid": "rejoin-refuse", text: strings.refuse,
        onclick: () => send("refuse", { request: request.id }) }))));
}

/**
 * A pupil's row while it is renamed: the name in a field, Save (Enter) or Escape.
 * @param {PupilLine} pupil
 * @param {Strings} strings
 * @param {(part: string|null, then?: () => void) => void} settle  back to the plain row, the focus on `part`
 * @param {(part: string) => (node: HTMLElement|null) => void} keep
 * @param {Send} send
 */
function renamingRow(pupil, strings, settle, keep, send) {
  /** @type {{current: HTMLInputElement|null}} */
  const typed = { current: null };
  const save = () => settle("rename", () => send("rename", { pupil: pupil.id, nickname: typed.current ? typed.current.value : pupil.nickname }));
  return [
    h("input", { key: "field", type: "text", "data-testid": "rename-nickname", defaultValue: pupil.nickname, maxlength: 20,
      "aria-label": `${strings.rename}: ${pupil.nickname}`,
      ref: (/** @type {HTMLInputElement|null} */ node) => { typed.current = node; keep("field")(node); },
      onkeydown: (/** @type {KeyboardEvent} */ event) => {
        if (event.key === "Enter") { event.preventDefault(); save(); }
        if (event.key === "Escape") { event.preventDefault(); settle("rename"); }
      } }),
    h("button", { key: "save", class: "cr-button cr-small", type: "button", "data-testid": "rename-save", text: strings.rename_save, onclick: save }),
  ];
}

/**
 * A pupil's row asking before Remove: the question, yes and no (Escape: no).
 * @param {PupilLine} pupil
 * @param {Strings} strings
 * @param {(part: string|null, then?: () => void) => void} settle
 * @param {(part: string) => (node: HTMLElement|null) => void} keep
 * @param {Send} send
 */
function removingRow(pupil, strings, settle, keep, send) {
  const question = `cr-remove-ask-${pupil.id}`;
  const no = () => settle("remove");
  return h("span", { key: "ask", class: "cr-ask", role: "group", "aria-labelledby": question,
    onkeydown: (/** @type {KeyboardEvent} */ event) => { if (event.key === "Escape") { event.preventDefault(); no(); } } },
  h("span", { class: "cr-pupil-name", id: question, "data-testid": "remove-ask", text: fill(strings.remove_ask, { nickname: pupil.nickname }) }),
  h("button", { class: "cr-button cr-small cr-danger", type: "button", "data-testid": "remove-yes", text: strings.remove_yes,
    onclick: () => settle(null, () => send("remove", { pupil: pupil.id })) }),
  h("button", { class: "cr-button cr-small", type: "button", "data-testid": "remove-no", text: strings.remove_no,
    ref: keep("no"), onclick: no }));
}

/**
 * One pupil on the projector with Rename and Remove; Remove asks in the row before the server is told.  The row
 * keeps its node (keyed by the pupil), and the focus goes where the teacher's last choice leads in it.
 * @param {{pupil: PupilLine, strings: Strings, marked: boolean, send: Send}} props
 */
function Pupil({ pupil, strings, marked, send }) {
  const [mode, setMode] = useState(/** @type {"plain"|"renaming"|"removing"} */ ("plain"));
  const focus = useRef(/** @type {string|null} */ (null));
  const nodes = useRef(/** @type {Object<string, HTMLElement>} */ ({}));
  useLayoutEffect(() => {
    const node = focus.current ? nodes.current[focus.current] : null;
    if (!node) return;
    focus.current = null;
    node.focus({ preventScroll: true });
    if (node instanceof HTMLInputElement) node.select();
  });
  /** @param {string} part */
  const keep = (part) => (/** @type {HTMLElement|null} */ node) => { if (node) nodes.current[part] = node; else delete nodes.current[part]; };
  /** @param {"plain"|"renaming"|"removing"} next @param {string|null} part */
  const go = (next, part) => { focus.current = part; setMode(next); };
  /** @param {string|null} part @param {() => void} [then] */
  const settle = (part, then) => { go("plain", part); if (then) then(); };
  const attributes = { key: pupil.id, class: "cr-pupil" + (pupil.placed ? " cr-done" : "") + (mode === "removing" ? " cr-asking" : ""),
    "data-testid": "pupil", "data-nickname": pupil.nickname, "data-placed": String(pupil.placed) };
  if (mode === "renaming") return h("li", attributes, renamingRow(pupil, strings, settle, keep, send));
  if (mode === "removing") return h("li", attributes, removingRow(pupil, strings, settle, keep, send));
  return h("li", attributes,
    h("span", { key: "name", class: "cr-pupil-name", text: (marked ? (pupil.placed ? "✓ " : "… ") : "") + pupil.nickname }),
    h("button", { key: "rename", class: "cr-button cr-small", type: "button", "data-testid": "rename-pupil", text: strings.rename,
      "aria-label": `${strings.rename}: ${pupil.nickname}`, ref: keep("rename"), onclick: () => go("renaming", "field") }),
    h("button", { key: "remove", class: "cr-button cr-small", type: "button", "data-testid": "remove-pupil", text: strings.remove,
      "aria-label": `${strings.remove}: ${pupil.nickname}`, ref: keep("remove"), onclick: () => go("removing", "no") }));
}

/**
 * The pupils of the room, each row keyed by the pupil's id (a row keeps its node, its focus and a press).
 * @param {PupilLine[]} pupils
 * @param {Strings} strings
 * @param {boolean} marked  whether each name says if the pupil has placed
 * @param {Send} send
 */
function drawPupils(pupils, strings, marked, send) {
  return h("ul", { key: "pupils", class: "cr-pupils", "aria-label": strings.pupils },
    pupils.length ? pupils.map((pupil) => h(Pupil, { key: pupil.id, pupil, strings, marked, send }))
      : h("li", { key: "none", class: "cr-note", text: strings.waiting_pupils }));
}

/**
 * One row of the class ranking, with the pupil's review (asked for, on its way, or shown).
 * @param {LeaderRow} row
 * @param {Strings} strings
 * @param {Send} send
 */
const leaderRow = (row, strings, send) => h("tr", {
  key: row.nickname, "data-testid": "leaderboard-row", "data-nickname": row.nickname, "data-final": String(row.final),
  "data-place": String(row.place), "data-all-boxes": String(row.all_boxes), class: row.complete ? "" : "cr-unfinished",
},
h("td", { text: String(row.place) }), h("th", { scope: "row", text: row.nickname }),
h("td", { class: "cr-final", text: String(row.final) }), h("td", { text: String(row.all_boxes) }),
h("td", { class: `cr-flyer cr-${(row.flying || "").toLowerCase()}`, text: row.flying_text }),
h("td", {}, row.review
  ? h("details", { key: "review", "data-testid": "pupil-review" }, h("summary", { text: strings.review }),
    h("ul", {}, row.review.map((line, index) => h("li", { key: index, text: line }))))
  : h("button", { key: "ask", class: "cr-button", type: "button", "data-testid": "review-button",
    disabled: !row.complete || Boolean(row.reviewing), "aria-busy": String(Boolean(row.reviewing)),
    text: row.reviewing ? strings.reviewing : strings.review,
    onclick: () => send("review", { nickname: row.nickname }) })));

/**
 * The class ranking at a game's end.
 * @param {RoomView} room
 * @param {Strings} strings
 * @param {Send} send
 */
function drawLeaderboard(room, strings, send) {
  if (!room.leaderboard) return null;
  const head = h("tr", {}, [strings.place, strings.nickname, strings.final, strings.all_boxes, strings.flies, strings.review]
    .map((name) => h("th", { scope: "col", text: name })));
  return h("section", { key: "leaderboard", class: "cr-leaderboard", "aria-label": strings.leaderboard },
    h("h2", { text: strings.leaderboard }),
    h("table", { "data-testid": "leaderboard" }, h("thead", {}, head),
      h("tbody", {}, room.leaderboard.map((row) => leaderRow(row, strings, send)))));
}

/**
 * A card room's tables: who plays at each, how it stands, the cards in each hand.
 * @param {RoomView} room
 * @param {Strings} strings
 */
function drawTables(room, strings) {
  if (!room.tables) return null;
  return h("section", { key: "tables", class: "cr-tables", "aria-label": strings.tables },
    h("h2", { text: strings.tables }),
    room.tables.map((table) => h("div", { key: table.table, class: "cr-table", "data-testid": "raupe-table", "data-table": String(table.table) },
      h("h3", { text: table.title }),
      h("p", { class: "cr-note", "data-testid": "raupe-table-status", text: table.status }),
      h("ul", {}, table.players.map((name, seat) => h("li", { key: seat, text: `${name}: ${table.cards[seat]}` }))))));
}

/**
 * A lesson room: the teacher's roll (together), hold, pause, names, the progress file, the printed page.
 * @param {LessonView} lesson
 * @param {Strings} strings
 * @param {Send} send
 */
function drawLessonControls(lesson, strings, send) {
  const steps = [{ value: "", text: strings.hold_none }, ...(lesson.steps || []).map((step) => ({ value: String(step.value), text: step.text }))];
  const held = lesson.hold === null || lesson.hold === undefined ? "" : String(lesson.hold);
  return h("div", { key: "controls", class: "cr-controls" },
    lesson.mode === "together" ? h("button", { class: "cr-button cr-primary cr-roll", type: "button", "data-testid": "teacher-roll",
      disabled: !lesson.can_roll, text: lesson.roll_text, onclick: () => send("roll") }) : null,
    steps.length > 1 ? choice("hold-step", strings.hold, steps, held, (value) => send("hold", { step: value === "" ? null : Number(value) })) : null,
    h("button", { class: "cr-button" + (lesson.paused ? " cr-primary" : ""), type: "button", "data-testid": "pause-class",
      "aria-pressed": String(Boolean(lesson.paused)), text: lesson.paused ? strings.resume : strings.pause,
      onclick: () => send("pause", { on: !lesson.paused }) }),
    tick("anonymize", strings.anonymize, Boolean(lesson.anonymous), (value) => send("anonymize", { on: value })),
    h("button", { class: "cr-button", type: "button", "data-testid": "export-csv", text: strings.export, onclick: () => send("export") }),
    lesson.print_url ? teacherLink(lesson.print_url, strings.print_lesson, "print-lesson") : null,
    lesson.paused ? h("p", { class: "cr-note", role: "status", "data-testid": "paused-note", text: strings.paused_note }) : null);
}

/**
 * One pupil's row of the lesson room's grid: the name (a tap looks at the pupil's screen), the step, the answers,
 * stuck or not, and each idea the pupil's practice met.
 * @param {RoomView} room
 * @param {ProgressRow} row
 * @param {Array<{idea: string, text: string}>} ideas
 * @param {Send} send
 */
function progressRow(room, row, ideas, send) {
  const look = () => send("watch", { pupil: room.watching === row.id ? null : row.id });
  return h("tr", {
    key: row.id, class: "cr-progress-row" + (row.stuck ? " cr-stuck" : "") + (room.watching === row.id ? " cr-watching" : ""),
    "data-testid": "progress-row", "data-pupil": String(row.id), "data-nickname": row.nickname,
    "data-step": String(row.step), "data-steps": String(row.steps), "data-asked": String(row.asked),
    "data-right-first": String(row.right_first), "data-stuck": String(row.stuck), onclick: look,
  },
  h("th", { scope: "row" }, h("button", { class: "cr-button cr-row-name", type: "button", "data-testid": "watch-pupil",
    "aria-pressed": String(room.watching === row.id), text: row.name,
    onclick: (/** @type {Event} */ event) => { event.stopPropagation(); look(); } })),
  h("td", {}, h("span", { class: "cr-step", text: `${row.step} / ${row.steps}` }),
    row.round ? h("span", { class: "cr-pupil-round", "data-testid": "pupil-round", text: row.round }) : null,
    h("span", { class: "cr-step-title", text: row.title }),
    h("span", { class: "cr-step-bar", "aria-hidden": "true" },
      h("span", { class: "cr-step-fill", style: `width: ${Math.round((100 * row.step) / Math.max(1, row.steps))}%` }))),
  h("td", { class: "cr-number", text: String(row.asked) }),
  h("td", { class: "cr-number", text: String(row.right_first) }),
  h("td", { class: "cr-stuck-cell" }, row.stuck ? h("span", { class: "cr-stuck-tag", text: `⚠ ${row.why_stuck}` }) : null),
  ideas.map((idea) => h("td", { key: idea.idea, class: "cr-idea", "data-testid": "pupil-idea", "data-idea": idea.idea,
    text: (row.ideas || {})[idea.idea] || "–" })));
}

/**
 * The lesson room's grid: the class line (the idea most still miss), then a row a pupil.
 * @param {RoomView} room
 * @param {LessonView} lesson
 * @param {Strings} strings
 * @param {Send} send
 */
function drawProgress(room, lesson, strings, send) {
  const ideas = lesson.ideas || [];  // one column per idea some pupil's practice met (issue 33)
  const head = h("tr", {}, [strings.nickname, strings.step, strings.asked, strings.right_first, strings.stuck,
    ...ideas.map((idea) => idea.text)].map((name) => h("th", { scope: "col", text: name })));
  const rows = (lesson.rows || []).map((row) => progressRow(room, row, ideas, send));
  return h("section", { class: "cr-progress", "aria-label": strings.progress },
    h("h2", { text: strings.progress }),
    lesson.class_line ? h("p", { class: "cr-class-line", role: "status", "data-testid": "class-line", text: lesson.class_line }) : null,
    h("table", { "data-testid": "progress" }, h("thead", {}, head),
      h("tbody", {}, rows.length ? rows : h("tr", { key: "none" }, h("td", { colspan: String(5 + ideas.length), class: "cr-note",
        text: strings.waiting_pupils })))));
}

/**
 * The join address, which may wrap anywhere but inside the room's code (issue 42: "T / WWU3R" misread).
 * @param {RoomView} room
 */
function joinAddress(room) {
  const url = room.join_url || "";
  const at = room.code ? url.lastIndexOf(room.code) : -1;
  const parts = at < 0 ? [url]
    : [url.slice(0, at), h("span", { key: "code", class: "cr-url-code", text: room.code }), url.slice(at + (room.code || "").length)];
  return h("div", { class: "cr-url", "data-testid": "join-url" }, ...parts);
}

/**
 * The door of a room: its code, the join address and its QR code.
 * @param {RoomView} room
 * @param {Strings} strings
 */
function drawDoor(room, strings) {
  return h("div", { class: "cr-door" },
    h("div", { class: "cr-label", text: strings.code }),
    h("div", { class: "cr-code", "data-testid": "room-code", text: room.code }),
    h("div", { class: "cr-label", text: strings.join_at }),
    joinAddress(room),
    qrCode(room.qr || "", strings.qr));
}

/**
 * One caterpillar of the class's sheet: each box its label and, once pupils have placed, how many wrote this
 * roll there.
 * @param {ClassCaterpillar} caterpillar
 */
const classCaterpillar = (caterpillar) => h("div", { key: caterpillar.name, class: `cr-caterpillar cr-${caterpillar.name.toLowerCase()}` },
  h("span", { class: "cr-caterpillar-name", text: caterpillar.name }),
  caterpillar.boxes.map((box) => h("div", { key: String(box.slot), class: box.count ? "cr-box cr-chosen" : "cr-box",
    role: "img", "aria-label": box.text, "data-testid": "class-box", "data-slot": String(box.slot),
    "data-label": box.label, "data-count": String(box.count) },
  h("span", { class: "cr-box-label", "aria-hidden": "true", text: box.label || "·" }),
  box.count ? h("span", { class: "cr-box-count", "aria-hidden": "true", text: String(box.count) }) : null)));

/**
 * The class's dice, big, above the room's sheet: three caterpillars of four boxes (one view for a Caterpillars
 * room and a lesson room).
 * @param {ClassSheet} sheet
 * @param {Strings} strings
 * @param {boolean} counted  whether to say how many have placed under it (a Caterpillars room has its own line)
 */
function drawClassSheet(sheet, strings, counted) {
  const dice = sheet.dice;
  return h("div", { key: "class-sheet", class: "cr-class-sheet", role: "group", "aria-label": strings.sheet, "data-testid": "class-sheet" },
    h("div", { key: "dice", class: "cr-dice", "data-testid": "room-dice", "aria-label": dice.label },
      (dice.values || []).map(bigDie), dice.action ? h("span", { key: "action", class: "cr-action", text: dice.action }) : null),
    h("p", { key: "caption", class: "cr-sheet-caption", text: sheet.caption }),
    h("div", { key: "caterpillars", class: "cr-sheet" }, sheet.caterpillars.map(classCaterpillar)),
    counted ? h("p", { key: "placed", class: "cr-placed", "data-testid": "class-sheet-placed", text: sheet.placed }) : null);
}

/**
 * A lesson room on the projector: the door, the teacher's controls, the class's sheet, the pupils, the grid.
 * @param {RoomView} room
 * @param {Strings} strings
 * @param {Send} send
 */
function drawLessonRoom(room, strings, send) {
  const lesson = /** @type {LessonView} */ (room.lesson || {});
  const pupils = room.pupils || [];
  return h("section", { key: `lesson/${room.code}`, class: "cr-projector cr-lesson-room", "aria-label": room.title,
    "data-paused": String(Boolean(lesson.paused)) },
  drawDoor(room, strings),
  h("div", { class: "cr-play" },
    h("h2", { class: "cr-title", text: room.title }),
    drawLessonControls(lesson, strings, send),
    lesson.sheet ? drawClassSheet(lesson.sheet, strings, true) : null,
    drawRequests(room, strings, send),
    lesson.anonymous || !pupils.length ? null : drawPupils(pupils, strings, false, send)),
  drawProgress(room, lesson, strings, send));
}

/**
 * The room on the projector (a game room, a card room or a lesson room), or a line saying there is none.
 * @param {RoomView} room
 * @param {Strings} strings
 * @param {boolean} listed  whether the server has rooms to pick from
 * @param {Send} send
 */
function drawRoom(room, strings, listed, send) {
  if (!room.code) return h("p", { key: "none", class: "cr-empty", text: listed ? strings.pick_room : strings.no_room });
  if (room.game === "lesson") return drawLessonRoom(room, strings, send);
  return h("section", { key: `game/${room.code}`, class: "cr-projector", "aria-label": room.title },
    drawDoor(room, strings),
    h("div", { class: "cr-play" },
      h("h2", { class: "cr-title", text: room.title }),
      room.game === "raupe" ? null : h("div", { key: "round", class: "cr-round", "data-testid": "room-round", text: room.round_text }),
      room.sheet ? drawClassSheet(room.sheet, strings, false) : null,
      room.placed ? h("div", { key: "placed", class: "cr-placed", "data-testid": "placed-count", "data-count": String(room.placed.count),
        "data-total": String(room.placed.total), text: room.placed.text }) : null,
      h(RollControls, { key: "controls", room, strings, send }),
      drawRequests(room, strings, send),
      drawPupils(room.pupils || [], strings, true, send)),
    drawLeaderboard(room, strings, send), drawTables(room, strings));
}

/**
 * "Archive this room", asked twice: the button, then the question with yes and no (for this room only).
 * @param {{room: RoomView, strings: Strings, send: Send}} props
 */
function Archive({ room, strings, send }) {
  const [asking, setAsking] = useState(/** @type {string|null} */ (null));
  if (!room.code || !room.archivable) return null;
  const code = room.code;
  if (asking !== code) {
    return h("div", { key: "archive", class: "cr-controls cr-archive" },
      h("button", { class: "cr-button", type: "button", "data-testid": "archive-room", text: strings.archive, onclick: () => setAsking(code) }));
  }
  const no = () => setAsking(null);
  return h("div", { key: "archive-ask", class: "cr-controls cr-archive cr-asking", role: "group", "aria-labelledby": "cr-archive-ask",
    onkeydown: (/** @type {KeyboardEvent} */ event) => { if (event.key === "Escape") { event.preventDefault(); no(); } } },
  h("span", { id: "cr-archive-ask", "data-testid": "archive-ask", text: fill(strings.archive_ask, { code }) }),
  h("button", { class: "cr-button cr-danger", type: "button", "data-testid": "archive-yes", text: strings.archive_yes,
    onclick: () => { setAsking(null); send("archive", { code }); } }),
  h("button", { class: "cr-button", type: "button", "data-testid": "archive-no", text: strings.archive_no, onclick: no }));
}

/** @param {{model: any, root: HTMLElement, send: Send}} props */
function Console({ model, root, send }) {
  useView(model);
  /** @type {DeskView} */
  const desk = model.get("desk") || {};
  /** @type {RoomView} */
  const room = model.get("room") || {};
  /** @type {Strings} */
  const strings = model.get("strings") || {};
  const message = model.get("message") || "";
  const lang = model.get("lang") || "en";
  useLayoutEffect(() => root.setAttribute("lang", lang), [lang]);  // ours: the root
  return [
    h("header", { key: "header", class: "cr-header" }, h("h1", { text: strings.title }), drawRooms(desk, strings, send)),
    h(NewRoomForm, { key: "form", desk, strings, send }),
    message ? h("p", { key: "message", class: "cr-message", role: "alert", "data-testid": "message", text: message }) : null,
    desk.notice ? h("p", { key: "notice", class: "cr-notice", role: "status", "data-testid": "notice", text: desk.notice }) : null,
    drawDamage(model.get("damage")),
    drawRoom(room, strings, Boolean(desk.rooms && desk.rooms.length), send),
    h(Archive, { key: "archive", room, strings, send })];
}

/**
 * The progress file: downloaded once for each new `download.seq` (the one asked for before this page opened is
 * not).  Returns the clean-up.
 * @param {any} model
 */
function keepDownloads(model) {
  let downloaded = (model.get("download") || {}).seq || 0;
  const download = () => {
    const file = model.get("download") || {};
    if (!file.seq || file.seq === downloaded) return;
    downloaded = file.seq;
    const url = URL.createObjectURL(new Blob([file.text || ""], { type: "text/csv;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = file.name || "progress.csv";
    // ours: a hidden link on the page's body for the download, gone at once
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();  // ours: the download's link
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  };
  model.on("change:download", download);
  return () => model.off("change:download", download);
}

/** @param {{model: any, el: HTMLElement}} widget */
function render({ model, el }) {
  const root = document.createElement("div");
  // ours: the widget's root
  root.className = "cl-root cr-root";
  el.appendChild(root);
  const paint = mount(root);
  const send = sender(model);
  const unload = keepDownloads(model);
  paint(h(Console, { model, root, send }));
  return () => { unload(); send.stop(); paint(null); };
}

export default { render };
