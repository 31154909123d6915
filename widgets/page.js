// What every widget asks of the page it sits on, written once (STYLE.md, "Components"): whether things may move,
// what the page remembers between visits, and where a die's pips go.  Nothing here draws or imports: every other
// module may use it, and it uses none.

/** Whether the page may move things (nothing moves under prefers-reduced-motion). */
export function moving() {
  return !(typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// Where localStorage is refused (a sandboxed page, a private window's full store): kept for this page only.
/** @type {Map<string, string>} */
const memory = new Map();

/**
 * What the page remembered under `key` (this visit's value where the browser refuses to keep it), or null.
 * @param {string} key
 * @returns {string|null}
 */
export function recall(key) {
  try {
    const kept = window.localStorage.getItem(key);
    return kept === null ? memory.get(key) ?? null : kept;
  } catch (error) {
    return memory.get(key) ?? null;
  }
}

/**
 * Remember `value` under `key` (null: forget it), in the browser if it lets the page, else for this visit.
 * @param {string} key
 * @param {string|null} value
 */
export function keep(key, value) {
  if (value === null) memory.delete(key); else memory.set(key, value);
  try {
    if (value === null) window.localStorage.removeItem(key); else window.localStorage.setItem(key, value);
  } catch (error) {
    // refused: kept in memory for this page
  }
}

/** Where a die's pips go, column and row (1-3) on its face, by the face's value. */
export const PIPS = {
  1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};
