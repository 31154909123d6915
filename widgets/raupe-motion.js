// Räuber Raupe's motion: what changed on the table moves (issue 29, PEDAGOGY 17).  A card put on the pile
// travels there from whoever played it (the learner's tapped card, or a bot's row); the cards a penalty hands
// over travel from the pile to the hand that takes them.  Web Animations only, short, never blocking a tap,
// and nothing moves under prefers-reduced-motion.  No rules here: the page compares two views.

import { moving } from "./page.js";

/**
 * `node` seen arriving from `box`: drawn where it is, it starts at `box` (scaled to it) and glides home.
 * @param {Element} node
 * @param {DOMRect} box
 * @param {number} duration
 * @param {number} [delay]
 */
function arrive(node, box, duration, delay = 0) {
  const home = node.getBoundingClientRect();
  if (!home.width || !box.width) return;
  const dx = box.left + box.width / 2 - (home.left + home.width / 2);
  const dy = box.top + box.height / 2 - (home.top + home.height / 2);
  const scale = Math.max(0.3, Math.min(2, box.width / home.width));
  node.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.7 },
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
  ], { duration, delay, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)", fill: "backwards" });
}

/**
 * A card back flies from `from` to `to` and is gone (a bot's hand has no cards on screen, only a count).
 * @param {HTMLElement} root
 * @param {DOMRect} from
 * @param {DOMRect} to
 * @param {number} delay
 */
function flyBack(root, from, to, delay) {
  const ghost = document.createElement("div");
  // ours: a flying copy of a card, on the page's body (preact never sees it)
  ghost.className = "rr-flying-card";
  ghost.setAttribute("aria-hidden", "true");
  const width = Math.min(from.width, 90);
  Object.assign(ghost.style, { left: `${from.left + from.width / 2 - width / 2}px`, top: `${from.top + from.height / 2 - width * 0.75}px`,
    width: `${width}px`, height: `${width * 1.5}px` });
  (root.ownerDocument.body || root).append(ghost);  // ours: the flying copy
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const flight = ghost.animate([
    { transform: "translate(0, 0) scale(1)", opacity: 0.95 },
    { transform: `translate(${dx}px, ${dy}px) scale(0.35)`, opacity: 0.4 },
  ], { duration: 520, delay, easing: "ease-in-out", fill: "backwards" });
  const gone = () => ghost.remove();  // ours: the flying copy
  flight.onfinish = gone;
  flight.oncancel = gone;
}

/**
 * Where a card leaves or reaches a bot's row: just under its count, never over it, so the number the child
 * watches stays readable while the card moves (issue 40).
 * @param {Element} row
 * @returns {DOMRect}
 */
function underCount(row) {
  const box = row.getBoundingClientRect();
  return new DOMRect(box.left, box.bottom + 6, box.width, box.height);
}

/**
 * Move what changed between two looks at the table.
 * @param {HTMLElement} root  the table's root
 * @param {{size: number, hand: number, opponents: Object<string, number>}} was
 * @param {{size: number, hand: number, opponents: Object<string, number>}} now
 * @param {number} by  who put the top card down (-1: dealt)
 * @param {DOMRect|null} tapped  where the learner's last tapped card was, if it was just now
 */
export function moved(root, was, now, by, tapped) {
  if (!moving()) return;
  const pile = root.querySelector('[data-testid="raupe-pile"] .rr-art') || root.querySelector('[data-testid="raupe-pile"]');
  if (!pile) return;
  const pileBox = pile.getBoundingClientRect();
  /** @param {string} seat */
  const row = (seat) => root.querySelector(`[data-testid="raupe-opponent"][data-seat="${seat}"]`);
  const hand = root.querySelector('[data-testid="raupe-hand"]');
  if (now.size > was.size) {  // a card went on the pile: from the learner's hand, or from a bot's row
    const bot = by >= 0 ? row(String(by)) : null;
    const from = bot ? underCount(bot) : tapped || (hand ? hand.getBoundingClientRect() : null);
    if (from) arrive(pile, from, 420);
  }
  // A penalty: the cards it hands over travel from whoever gives them (the caller, or the one who called
  // wrongly) to whoever takes them.
  const givers = Object.entries(now.opponents).filter(([seat, count]) => count < (was.opponents[seat] ?? count))
    .map(([seat]) => row(seat)).filter(Boolean);
  const giver = givers.length ? underCount(/** @type {Element} */ (givers[0]))
    : now.hand < was.hand && hand ? hand.getBoundingClientRect() : pileBox;
  if (now.hand > was.hand) {
    const slots = [...root.querySelectorAll('[data-testid="raupe-card"]')].slice(was.hand);
    slots.forEach((card, i) => arrive(card, giver, 480, i * 90));
  }
  let delay = 0;
  for (const [seat, count] of Object.entries(now.opponents)) {
    const before = was.opponents[seat];
    const target = row(seat);
    if (before === undefined || count <= before || !target) continue;
    for (let i = 0; i < Math.min(count - before, 4); i += 1) {
      flyBack(root, giver, underCount(target), delay);
      delay += 90;
    }
  }
}
