// Classroom: the pupils' door.  A room code and a nickname, then Join; the
// server answers with the pupil's own sheet (or one line saying what is
// wrong).  Nothing is decided here.

import { h, sender, watch } from "./shared.js";

/**
 * @typedef {Object} JoinView
 * @property {string} code  the room code to fill in (from the QR code's address)
 * @property {string} nickname
 */

function render({ model, el }) {
  const root = h("div", { class: "cl-root cr-root cr-join" });
  el.appendChild(root);
  const send = sender(model);
  const door = model.get("door") || {};
  const typed = { code: door.code || "", nickname: door.nickname || "" };

  function draw() {
    const strings = model.get("strings") || {};
    const message = model.get("message") || "";
    const active = root.querySelector(":focus");
    const focusId = active ? active.getAttribute("data-testid") : null;
    const join = () => send("join", { code: typed.code, nickname: typed.nickname });
    const enter = (event) => { if (event.key === "Enter") { event.preventDefault(); join(); } };
    root.setAttribute("lang", model.get("lang") || "en");
    root.replaceChildren(h("form", { class: "cr-door-form", onsubmit: (event) => { event.preventDefault(); join(); } },
      h("h1", { text: strings.join_title }),
      h("label", { class: "cr-field" }, h("span", { text: strings.join_code }),
        h("input", { type: "text", "data-testid": "join-code", value: typed.code, autocomplete: "off", autocapitalize: "characters",
          spellcheck: "false", maxlength: 12, class: "cr-code-input", oninput: (event) => { typed.code = event.target.value; }, onkeydown: enter })),
      h("label", { class: "cr-field" }, h("span", { text: strings.nickname }),
        h("input", { type: "text", "data-testid": "nickname", value: typed.nickname, autocomplete: "off", maxlength: 20,
          "aria-describedby": "cr-nickname-help", oninput: (event) => { typed.nickname = event.target.value; }, onkeydown: enter })),
      h("p", { class: "cr-note", id: "cr-nickname-help", text: strings.nickname_help }),
      h("button", { class: "cr-button cr-primary", type: "submit", "data-testid": "join-button", text: strings.join }),
      message ? h("p", { class: "cr-message", role: "alert", "data-testid": "join-message", text: message }) : null));
    const again = focusId ? root.querySelector(`[data-testid="${focusId}"]`) : null;
    if (again) again.focus({ preventScroll: true });
  }

  const stop = watch(model, draw);
  draw();
  return stop;
}

export default { render };
