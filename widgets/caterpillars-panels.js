// Caterpillars front end, part 3 of 4: the per-box menu, the explanation,
// the hint panel, the final score with the review, and the lesson stepper.

function drawMenu(view, send) {
  const { menu, strings } = view;
  if (!menu || !menu.options) return null;
  const box = html("div", { class: "cl-menu", role: "dialog", "aria-label": menu.title, "data-testid": "move-menu" });
  box.appendChild(html("div", { class: "cl-menu-title", text: menu.title }));
  box.appendChild(html("div", { class: "cl-note", text: strings.menu_hint }));
  const list = html("div", { class: "cl-menu-options", role: "list" });
  for (const option of menu.options) {
    const button = html("button", { class: "cl-button cl-option", type: "button", "data-testid": "move-option", role: "listitem" }, [
      html("span", { class: "cl-option-main", text: option.text }),
      html("span", { class: "cl-option-how", text: (option.how || []).join(" ") }),
    ]);
    button.addEventListener("click", () => send({ type: "option", index: option.index }));
    list.appendChild(button);
  }
  box.appendChild(list);
  const close = html("button", { class: "cl-button", type: "button", "data-testid": "menu-close", text: strings.close });
  close.addEventListener("click", () => send({ type: "close" }));
  box.appendChild(close);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") send({ type: "close" });
  });
  return box;
}

function drawTalk(view) {
  const wrap = html("div", { class: "cl-talk" });
  wrap.appendChild(html("p", { class: "cl-explanation", "data-testid": "explanation", "aria-live": "polite", text: view.explanation || "" }));
  if (view.message) wrap.appendChild(html("p", { class: "cl-message", role: "alert", "data-testid": "message", text: view.message }));
  return wrap;
}

function drawHint(view, send) {
  const { hint, strings, dice } = view;
  const wrap = html("div", { class: "cl-hint-wrap" });
  const button = html("button", {
    class: "cl-button", type: "button", "data-testid": "hint-button", text: strings.hint,
    disabled: !dice.rolled || dice.kind !== "play",
  });
  button.addEventListener("click", () => send({ type: "hint" }));
  wrap.appendChild(button);
  if (!hint || !hint.status) return wrap;
  const panel = html("section", { class: "cl-hint", "data-testid": "hint", "aria-live": "polite", "aria-label": strings.hint_title });
  panel.appendChild(html("p", { class: "cl-hint-title", text: hint.title || "" }));
  for (const line of hint.lines || []) panel.appendChild(html("p", { class: "cl-note", text: line }));
  // The best few options first; the rest (dozens at Advanced) fold away.
  const shown = 5;
  const options = hint.options || [];
  const list = html("ol", { class: "cl-hint-options" });
  options.forEach((option, index) => {
    const item = html("li", { class: option.best ? "cl-best" : "", value: index + 1 });
    item.appendChild(html("span", { text: (option.best ? "★ " : "") + option.text }));
    if (option.value_text) item.appendChild(html("span", { class: "cl-value", text: " — " + option.value_text }));
    else if (option.how && option.how.length) item.appendChild(html("span", { class: "cl-note", text: " — " + option.how.join(" ") }));
    if (index === shown && options.length > shown + 1) {
      const more = html("details", { class: "cl-more" }, [html("summary", { text: fill(strings, strings.more, { count: options.length - shown }) })]);
      more.appendChild(html("ol", { class: "cl-hint-options", start: shown + 1 }));
      panel.appendChild(list);
      panel.appendChild(more);
    }
    const target = panel.querySelector(".cl-more ol") || list;
    target.appendChild(item);
  });
  if (!panel.contains(list)) panel.appendChild(list);
  wrap.appendChild(panel);
  return wrap;
}

function drawFinal(view, send) {
  const { final, review, strings } = view;
  if (!final || !final.text) return null;
  const wrap = html("section", { class: "cl-final", "aria-label": strings.final_title });
  wrap.appendChild(html("h3", { class: "cl-final-title", text: strings.final_title }));
  wrap.appendChild(html("p", { class: "cl-final-score", "data-testid": "final-score", text: final.text }));
  const lines = html("ul", { class: "cl-lines" });
  for (const line of final.explanation || []) lines.appendChild(html("li", { text: line }));
  wrap.appendChild(lines);
  const again = html("button", { class: "cl-button cl-primary", type: "button", "data-testid": "new-game", text: strings.new_game });
  again.addEventListener("click", () => send({ type: "new_game" }));
  wrap.appendChild(again);
  if (review && review.rounds) {
    if (!review.reviewed) {
      const ask = html("button", { class: "cl-button", type: "button", "data-testid": "review-button", text: strings.review, disabled: !!review.thinking });
      ask.addEventListener("click", () => send({ type: "review" }));
      wrap.appendChild(ask);
      if (review.thinking) wrap.appendChild(html("p", { class: "cl-note", text: review.thinking }));
    }
    const details = html("details", { class: "cl-review", "data-testid": "review", open: review.reviewed });
    details.appendChild(html("summary", { text: review.title }));
    for (const line of review.advice || []) details.appendChild(html("p", { class: "cl-note", text: line }));
    const list = html("ol", {});
    for (const line of review.rounds) list.appendChild(html("li", { text: line }));
    details.appendChild(list);
    wrap.appendChild(details);
  }
  return wrap;
}

function drawStepper(view, send) {
  const { lesson, strings } = view;
  if (!lesson || lesson.count === undefined) return null;
  const wrap = html("section", { class: "cl-stepper", "aria-label": lesson.heading });
  wrap.appendChild(html("div", { class: "cl-heading", text: lesson.heading }));
  const bar = html("div", {
    class: "cl-progress", role: "progressbar", "aria-valuemin": 1, "aria-valuemax": lesson.count,
    "aria-valuenow": lesson.index + 1, "aria-label": lesson.progress,
  });
  for (let i = 0; i < lesson.count; i += 1) {
    bar.appendChild(html("span", { class: "cl-pip-step" + (i < lesson.index ? " cl-done" : i === lesson.index ? " cl-now" : "") }));
  }
  wrap.appendChild(bar);
  wrap.appendChild(html("h2", { class: "cl-step-title", "data-testid": "lesson-step", tabindex: "-1", text: lesson.title }));
  wrap.appendChild(html("p", { class: "cl-step-body", text: lesson.body }));
  if (lesson.todo) wrap.appendChild(html("p", { class: "cl-todo", "data-testid": "lesson-todo", text: "→ " + lesson.todo }));
  const nav = html("div", { class: "cl-nav" });
  const back = html("button", { class: "cl-button", type: "button", "data-testid": "back-step", disabled: !lesson.can_back, text: "← " + strings.back });
  back.addEventListener("click", () => send({ type: "step", delta: -1 }));
  const next = html("button", { class: "cl-button cl-primary", type: "button", "data-testid": "next-step", disabled: !lesson.can_next, text: strings.next + " →" });
  next.addEventListener("click", () => send({ type: "step", delta: 1 }));
  nav.appendChild(back);
  nav.appendChild(html("span", { class: "cl-note", text: lesson.progress }));
  nav.appendChild(next);
  wrap.appendChild(nav);
  return wrap;
}
