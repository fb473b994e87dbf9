// The table teaches its first round: the window's tour (lanplay/teaching.py, served as
// /teaching.json), a few steps each pointing at a piece of the table by its spot key
// (a table's `spots`: key -> element id). A step goes by "Got it" or by any move the
// player makes; "Skip the tour" ends it. Remembered per browser (whatever host served
// the page), so a game is taught once.

import { h } from "./dom.js";
import { _, render } from "./words.js";

const SEEN = "lanplay:taught";
let tours = {};

export async function loadTours() {
  try {
    const got = await fetch("/teaching.json");
    if (got.ok) tours = await got.json();
  } catch (err) {
    console.warn("no tours", err);
  }
}

/** The tour for a game in a mode: the mode's own where it has one (as tour_key does). */
export function tourKey(game, mode) {
  const key = `${game}/${mode}`;
  return Object.hasOwn(tours, key) ? key : game;
}

function seen() {
  try {
    const list = JSON.parse(localStorage.getItem(SEEN));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function remember(key) {
  try {
    const list = seen();
    if (!list.includes(key)) localStorage.setItem(SEEN, JSON.stringify([...list, key]));
  } catch { /* private mode: taught again next time */ }
}

/** One tour's progress over a table: `begin` at a seated player's view, `acted` at a move. */
export class Tour {
  constructor() {
    this.key = null;
    this.step = 0;
    this.steps = [];
  }

  get active() { return this.key !== null && this.step < this.steps.length; }

  /** A view of `game` for a seated player: its tour begins if this browser has not read it. */
  begin(view, seated) {
    if (!seated) return;
    if (view.over) {  // a game over before its tour was: taught, and no bubble on the end screen
      if (this.active) this.finish();
      return;
    }
    const key = tourKey(view.game, view.mode);
    if (key === this.key) return;
    this.key = key;
    this.step = 0;
    this.steps = Array.isArray(tours[key]) && !seen().includes(key) ? tours[key] : [];
  }

  next() {
    this.step += 1;
    if (this.step >= this.steps.length) this.finish();
  }

  finish() {
    if (this.key !== null) remember(this.key);
    this.step = this.steps.length;
  }

  acted() { if (this.active) this.next(); }

  /** Where the step points (a spot key), or null. */
  spot() { return this.active ? this.steps[this.step][0] : null; }

  /** The bubble: the step's words and its two buttons. */
  bubble(redraw) {
    if (!this.active) return null;
    const [, words] = this.steps[this.step];
    return h("div", { class: "tour", id: "tour", role: "note", "aria-live": "polite" },
      h("p", { id: "tour-text" }, render({ key: words })),
      h("div", { class: "row" },
        // "2/3" (its words for a screen reader only): "Schritt 2 von 3" beside German buttons
        // pushed "Verstanden" onto a row of its own, and the table below off a phone.
        h("span", { class: "count" },
          h("span", { "aria-hidden": "true" }, `${this.step + 1}/${this.steps.length}`),
          h("span", { class: "unseen" }, _("Step {n} of {total}", { n: this.step + 1, total: this.steps.length }))),
        h("button", { id: "tour-skip", onclick: () => { this.finish(); redraw(); } }, _("Skip the tour")),
        h("button", { class: "primary", id: "tour-next", onclick: () => { this.next(); redraw(); } }, _("Got it"))));
  }
}
