// Sounds that answer what the child does: a roll, a placement, a card that fits, a slip, a call, the end.
// Each is made here, a few notes of WebAudio synthesis (no file, nothing downloaded).  One switch turns them
// all off, and the page remembers it (localStorage, beside the voice switch's choice).  While the read-aloud
// voice speaks, a sound plays at a fifth of its volume, so it never covers the words.  The teacher's console
// never calls these.
//
//   sound("roll");                      // on the learner's action, after the page shows it
//
// A widget imports sound; draw.js draws the switch (SoundSwitch) beside the voice's, with soundOn and
// rememberSound from here.  Nothing here draws.

import { keep, recall } from "./page.js";

/** @typedef {"roll"|"place"|"fit"|"slip"|"call"|"end"|"fly"|"right"|"step"} SoundName */

/**
 * Each sound: notes of [start (s), frequency (Hz), length (s)], a wave shape and a peak volume (0-1).
 * Rising notes for what went well, a soft low pair for a slip (never a buzzer), a short run for the dice.
 * @type {Record<SoundName, {wave: OscillatorType, peak: number, notes: Array<[number, number, number]>}>}
 */
export const SOUNDS = {
  roll: { wave: "triangle", peak: 0.18, notes: [[0, 330, 0.05], [0.06, 392, 0.05], [0.12, 349, 0.05], [0.18, 440, 0.06]] },
  place: { wave: "sine", peak: 0.25, notes: [[0, 523, 0.09], [0.08, 784, 0.14]] },
  fit: { wave: "sine", peak: 0.25, notes: [[0, 659, 0.08], [0.07, 880, 0.16]] },
  slip: { wave: "sine", peak: 0.16, notes: [[0, 311, 0.12], [0.13, 262, 0.18]] },
  call: { wave: "square", peak: 0.08, notes: [[0, 587, 0.07], [0.09, 587, 0.07]] },
  right: { wave: "sine", peak: 0.22, notes: [[0, 784, 0.08], [0.08, 988, 0.08], [0.16, 1175, 0.2]] },  // "Right!"
  step: { wave: "sine", peak: 0.14, notes: [[0, 880, 0.16]] },  // a step of the lesson done: one soft bell
  fly: { wave: "sine", peak: 0.2, notes: [[0, 523, 0.1], [0.1, 659, 0.1], [0.2, 784, 0.1], [0.3, 1047, 0.22]] },
  end: { wave: "triangle", peak: 0.22,
    notes: [[0, 523, 0.12], [0.12, 659, 0.12], [0.24, 784, 0.12], [0.36, 1047, 0.3], [0.36, 784, 0.3]] },
};
/** How much softer a sound plays while the voice speaks. */
export const DUCKED = 0.2;

const KEY = "caterpillar-learn.sound";
/** Whether sounds play: on unless the learner turned them off on this page's site. */
export function soundOn() {
  return recall(KEY) !== "off";
}

/** @param {boolean} on */
export function rememberSound(on) {
  keep(KEY, on ? "on" : "off");
}

/** @type {AudioContext|null} */
let context = null;

/** The page's one AudioContext, made on first use (a browser allows sound only after the child's tap). */
function audio() {
  if (context) return context;
  const Maker = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Maker) return null;
  try { context = new Maker(); } catch (error) { return null; }
  return context;
}

/**
 * Play one of the SOUNDS now, unless the switch is off.  Never throws: a page without sound stays a page.
 * @param {SoundName} name
 */
export function sound(name) {
  const tune = SOUNDS[name];
  if (!tune || !soundOn()) return;
  const ctx = audio();
  if (!ctx) return;
  try {
    if (ctx.state === "suspended") ctx.resume();
    const speaking = Boolean(window.speechSynthesis && window.speechSynthesis.speaking);
    const peak = tune.peak * (speaking ? DUCKED : 1);
    const start = ctx.currentTime + 0.01;
    const out = ctx.createGain(); // one gain per sound: a stand-in AudioContext counts sounds by it
    out.gain.value = 1;  // ours: a sound's gain, not a node
    out.connect(ctx.destination);
    for (const [at, frequency, length] of tune.notes) {
      const note = ctx.createOscillator();
      const envelope = ctx.createGain();
      note.type = tune.wave;
      note.frequency.value = frequency;  // ours: a note's frequency, not a node
      envelope.gain.setValueAtTime(0.0001, start + at);
      envelope.gain.exponentialRampToValueAtTime(peak, start + at + 0.015);
      envelope.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      note.connect(envelope);
      envelope.connect(out);
      note.start(start + at);
      note.stop(start + at + length + 0.02);
    }
  } catch (error) { /* a sound that cannot play is skipped */ }
}

