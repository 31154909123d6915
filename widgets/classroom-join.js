// Classroom: the pupils' door.  A room code and a nickname, then Join; the
// server answers with the pupil's own sheet (or one line saying what is
// wrong).  Nothing is decided here.
//
// Joining hands the page a secret.  The page keeps it in the browser's
// storage and in the address fragment (#room=CODE&secret=…, which is never
// sent to a server, so never in a log), and shows it again (`resume`) when it
// is opened again: a reload, or the same tablet, gets its sheet back at once.
// Below the form: what the class can play, the lesson gallery's cards (`lessons`).

import { h, lessonCard, mount, useView } from "./draw.js";
import { useLayoutEffect, useRef } from "./preact-hooks.js";
import { sender } from "./shared.js";
import { keep, recall } from "./page.js";

/**
 * @typedef {Object} JoinView
 * @property {string} code  the room code to fill in (from the QR code's address)
 * @property {string} nickname
 * @property {string} state  "door", "waiting", "refused", "removed" or "joined"
 * @property {string} note  what the page says while waiting, refused or removed
 * @property {string} secret  the page's secret once joined ("" before)
 */

const STORE = "caterpillar-classroom";

function kept() {
  try { return JSON.parse(recall(STORE) || "{}") || {}; } catch (error) { return {}; }
}

function keepSecret(code, secret) {
  const all = kept();
  if (secret) all[code] = secret; else delete all[code];
  all.last = secret ? code : (all.last === code ? undefined : all.last);
  keep(STORE, JSON.stringify(all)); // refused (private mode): the address's fragment still holds it
}

function fragment() {
  const found = new URLSearchParams((window.location.hash || "").replace(/^#/, ""));
  return { code: found.get("room") || "", secret: found.get("secret") || "" };
}

// The address of this sheet: the room code, and the secret after the # (browsers never send it).
function showInAddress(code, secret) {
  const url = new URL(window.location.href);
  url.search = code ? `?room=${encodeURIComponent(code)}` : "";
  url.hash = secret ? `room=${encodeURIComponent(code)}&secret=${encodeURIComponent(secret)}` : "";
  window.history.replaceState(window.history.state, "", url.toString());
}

/**
 * The gallery's cards, to look at: the teacher opens a lesson for the class and gives its code.
 * @param {Array<any>} cards
 * @param {Object<string, string>} strings
 */
function lessons(cards, strings) {
  if (!cards.length) return null;
  return h("section", { key: "lessons", class: "cr-lessons", "aria-labelledby": "cr-lessons-title", "data-testid": "door-lessons" },
    h("h2", { id: "cr-lessons-title", text: strings.lessons_title }),
    h("p", { class: "cr-note", text: strings.lessons_note }),
    h("ul", { class: "cr-lesson-list" }, cards.map((card) => h("li", { key: card.name }, lessonCard(card)))));
}

/**
 * The door's form: the room's code and a nickname, Join; a note while the page waits for the teacher, or after a
 * refusal; the lessons a pupil may open meanwhile.  The fields keep what is typed (they are not drawn again);
 * Join reads them.  While the page waits for the teacher, the form is hidden, not dropped: what was typed is
 * still there after.
 * @param {{view: JoinView, strings: Object<string, string>, message: string, cards: any[], send: any}} props
 */
function DoorForm({ view, strings, message, cards, send }) {
  const code = useRef(/** @type {HTMLInputElement|null} */ (null));
  const nickname = useRef(/** @type {HTMLInputElement|null} */ (null));
  const state = view.state || "door";
  const join = () => send("join", { code: code.current ? code.current.value : "", nickname: nickname.current ? nickname.current.value : "" });
  /** @param {KeyboardEvent} event */
  const enter = (event) => { if (event.key === "Enter") { event.preventDefault(); join(); } };
  const noteId = { waiting: "rejoin-waiting", refused: "rejoin-refused", removed: "removed" }[state];
  const note = view.note ? h("p", { key: `note/${state}`, class: "cr-note cr-door-note", role: "status", "data-testid": noteId, text: view.note }) : null;
  const waiting = state === "waiting";
  return [
    waiting ? h("h1", { key: "title", text: strings.join_title }) : null,
    waiting ? note : null,
    h("form", { key: "form", class: "cr-door-form", hidden: waiting, onsubmit: (/** @type {Event} */ event) => { event.preventDefault(); join(); } },
      h("h1", { key: "title", text: strings.join_title }),
      waiting ? null : note,
      h("label", { key: "code", class: "cr-field" }, h("span", { text: strings.join_code }),
        h("input", { type: "text", "data-testid": "join-code", defaultValue: view.code || "", autocomplete: "off", autocapitalize: "characters",
          spellcheck: "false", maxlength: 12, class: "cr-code-input", onkeydown: enter, ref: code })),
      h("label", { key: "nickname", class: "cr-field" }, h("span", { text: strings.nickname }),
        h("input", { type: "text", "data-testid": "nickname", defaultValue: view.nickname || "", autocomplete: "off", maxlength: 20,
          "aria-describedby": "cr-nickname-help", onkeydown: enter, ref: nickname })),
      h("p", { key: "help", class: "cr-note", id: "cr-nickname-help", text: strings.nickname_help }),
      h("button", { key: "join", class: "cr-button cr-primary", type: "submit", "data-testid": "join-button", text: strings.join }),
      message ? h("p", { key: "message", class: "cr-message", role: "alert", "data-testid": "join-message", text: message }) : null),
    waiting ? null : lessons(cards, strings)];
}

/**
 * The door: the form until the pupil is in (then nothing: the pupil's game is drawn below it).  The secret the
 * server gives a pupil is kept in this browser and in the address, and taken away once the pupil is removed.
 * @param {{model: any, root: HTMLElement, send: any}} props
 */
function Door({ model, root, send }) {
  useView(model);
  /** @type {JoinView} */
  const view = model.get("door") || {};
  const state = view.state || "door";
  const lang = model.get("lang") || "en";
  const stored = useRef("");
  useLayoutEffect(() => {
    if (state === "joined" && view.secret && view.secret !== stored.current) {
      stored.current = view.secret;
      keepSecret(view.code, view.secret);
      showInAddress(view.code, view.secret);
    }
    if (state === "removed" && stored.current !== "removed") {
      stored.current = "removed";
      keepSecret(view.code, "");
      showInAddress(view.code, "");
    }
    // ours: the widget's root
    root.style.display = state === "joined" ? "none" : "";
    root.lang = lang;  // ours: the widget's root
  });
  if (state === "joined") return null;
  return h(DoorForm, { view, strings: model.get("strings") || {}, message: model.get("message") || "", cards: model.get("lessons") || [], send });
}

/**
 * Opened again: the secret in the address, else the one this browser keeps for the room.
 * @param {any} model
 * @param {any} send
 */
function resume(model, send) {
  /** @type {JoinView} */
  const view = model.get("door") || {};
  if (view.state && view.state !== "door") return;
  const inAddress = fragment();
  const all = kept();
  const code = inAddress.code || view.code || all.last || "";
  const secret = inAddress.secret || (code ? all[code] : "") || "";
  if (code && secret) send("resume", { code, secret });
}

/** @param {{model: any, el: HTMLElement}} widget */
function render({ model, el }) {
  const root = document.createElement("div");
  // ours: the widget's root
  root.className = "cl-root cr-root cr-join";
  el.appendChild(root);
  const paint = mount(root);
  const send = sender(model);
  paint(h(Door, { model, root, send }));
  resume(model, send);
  return () => { send.stop(); paint(null); };
}

export default { render };
