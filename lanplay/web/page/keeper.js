// The S-tier leader's note kept in this browser, never on the host, as the Python
// keeper does (lanplay/peer/keeper.py, lanplay/games/s_tier/secret.py, and
// docs/PROTOCOL.md "The S-tier note"): the note becomes a salted commitment, kept in
// localStorage before the commitment is sent; the count and the reveal are sent by
// the page itself when the host asks this seat for them.
//
// What that protects, honestly: the note is kept under its own commitment (the room's
// game names it in its view), not under the host's address, and it is deleted as soon
// as the game's result is in (one of a game that never ended, after a day). It is out
// of the other players' reach, but the host serves this very code: a modified host can
// serve a page that reads the note. A laptop with lanplay is the safe place for a
// leader's note.

import { sha256, bytesToHex, randomHex, hexToBytes } from "./wire.js";

const TAG = new TextEncoder().encode("lanplay s-tier note\u0000");
const ASKING = ["count", "reveal"];
const WRITING = ["note", "notes"];
const PREFIX = "lanplay-note:";
const KEEP_FOR = 86400 * 1000;
/** A note of a game whose result never came (its host gone) is deleted after a day. */

function noteKey(commitment) { return PREFIX + commitment; }

function readNote(commitment) {
  try { return JSON.parse(localStorage.getItem(noteKey(commitment))); } catch { return null; }
}

function writeNote(commitment, note) {
  try { localStorage.setItem(noteKey(commitment), JSON.stringify(note)); } catch { /* private mode */ }
}

/** Delete the notes kept here: all of them (the game's result is in), or those older
 * than a day, and any an earlier version kept under the host's address. */
export function forgetNotes(all = false) {
  try {
    const limit = Date.now() - KEEP_FOR;
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const k = localStorage.key(i);
      if (!k) continue;
      if (k.startsWith("lanplay:") && k.includes(":note:")) {
        localStorage.removeItem(k);
      } else if (k.startsWith(PREFIX)) {
        let v = null;
        try { v = JSON.parse(localStorage.getItem(k)); } catch { v = null; }
        if (all || !v || !v.saved || v.saved < limit) localStorage.removeItem(k);
      }
    }
  } catch { /* nothing kept */ }
}

/** The notes kept here, to carry to the page of the room's new laptop (in its address's
 * fragment, which never leaves the browser): key -> what is stored. */
export function keptNotes() {
  const out = {};
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(PREFIX)) out[k] = localStorage.getItem(k);
    }
  } catch { /* nothing kept */ }
  return out;
}

/** Notes carried from the room's old laptop's page: kept here as they were there (only
 * notes, each of a note's size). */
export function keepNotes(notes) {
  if (!notes || typeof notes !== "object") return;
  for (const [k, v] of Object.entries(notes)) {
    if (k.startsWith(PREFIX) && k.length < 200 && typeof v === "string" && v.length < 8192) {
      try { localStorage.setItem(k, v); } catch { /* private mode */ }
    }
  }
}

/** The note as Python's json.dumps(tiers, separators=(",", ":"), ensure_ascii=True). */
export function noteJson(tiers) {
  return JSON.stringify(tiers).replace(/[\u0080-\uffff]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

export function commitment(tiers, saltHex) {
  const salt = hexToBytes(saltHex);
  const note = new TextEncoder().encode(noteJson(tiers));
  const all = new Uint8Array(TAG.length + salt.length + note.length);
  all.set(TAG, 0);
  all.set(salt, TAG.length);
  all.set(note, TAG.length + salt.length);
  return bytesToHex(sha256(all));
}

function leads(view, seat) {
  if (view.mode === "team") {
    const leaders = Array.isArray(view.leaders) ? view.leaders : [];
    const i = leaders.indexOf(seat);
    return i < 0 ? null : i;
  }
  return view.leader === seat ? 0 : null;
}

export function keyOf(view, seat) {
  if (seat === null || view.game !== "s-tier") return null;
  const which = leads(view, seat);
  if (which === null) return null;
  const value = view.mode === "team" ? (view.commitments || [])[which] : view.commitment;
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value) ? value : null;
}

export function writing(view, seat) {
  return view.game === "s-tier" && !view.over && WRITING.includes(view.phase)
    && (view.actors || []).includes(seat) && leads(view, seat) !== null;
}

function correctCount(note, board) {
  let right = 0;
  for (let t = 0; t < 5; t++) if (note[t] !== null && board[t] === note[t]) right += 1;
  const empty = note.indexOf(null);
  if (empty >= 0 && board.filter((p) => p === null).length === 1 && board[empty] === null) right += 1;
  return right;
}

export class Keeper {
  constructor(conn, store) {
    this.conn = conn;
    this.store = store;
    this.answering = null;
    this.answeredAt = -1;
  }

  load(key) {
    const found = key ? readNote(key) : null;
    return found && found.commitment === key ? found : null;
  }

  /** Send `action` as this browser must: a plain note leaves as its commitment only. */
  intent(action) {
    const conn = this.conn;
    const view = conn.view;
    if (action.type === "note" && view && view.game === "s-tier") {
      const tiers = action.tiers;
      const salt = randomHex(16);
      const sealed = commitment(tiers, salt);
      const commit = { type: "commit", commitment: sealed };
      if (view.mode === "cooperative") {
        const cards = Array.isArray(view.cards) ? view.cards.filter((c) => Array.isArray(c) && c.length === 4) : [];
        if (cards.length) commit.faces = cards.map(([front, , back]) => (tiers.includes(front) ? front : back));
        if (Number.isInteger(action.hint)) commit.hint = { tier: action.hint, picture: tiers[action.hint] };
      }
      writeNote(sealed, { commitment: sealed, tiers, salt, mode: view.mode,
                          round: view.round, seat: conn.seat, saved: Date.now() });
      return conn.intent(commit);
    }
    return conn.intent(action);
  }

  /** The view with this seat's own note in it (what its table shows). */
  shown() {
    const view = this.conn.view;
    if (!view || view.game !== "s-tier" || view.note) return view;
    const secret = this.load(keyOf(view, this.conn.seat));
    return secret ? { ...view, note: secret.tiers } : view;
  }

  onAccepted(data) {
    if (data.id === this.answering) this.answering = null;
    this.onView();  // the answer's own delta may already ask for the next one (count, then reveal)
  }

  /** After a reconnect the answer in flight may have been lost: ask again. */
  reset() {
    this.answering = null;
    this.answeredAt = -1;
    this.onView();
  }

  onRejected(msg) {
    if (msg.id === this.answering) {
      this.answering = null;
      if (msg.code === "rate") {
        this.answeredAt = -1;
        setTimeout(() => this.onView(), 300);
        return;
      }
    }
    this.onView();
  }

  /** Answer the host by itself when it asks this seat's laptop: the count, the reveal. */
  onView() {
    const conn = this.conn;
    const view = conn.view;
    const seat = conn.seat;
    if (!view || seat === null || view.game !== "s-tier") return;
    if (view.over) {
      forgetNotes(true);  // the result is in: no note is needed any more
      return;
    }
    if (!ASKING.includes(view.phase) || !(view.actors || []).includes(seat)
        || leads(view, seat) === null) return;
    if (this.answering !== null || this.answeredAt === conn.stateId) return;
    const key = keyOf(view, seat);
    const secret = this.load(key);
    let action;
    if (!secret) action = { type: "void" };
    else if (view.phase === "count") {
      action = { type: "count", correct: correctCount(secret.tiers, view.board || [null, null, null, null, null]) };
    } else action = { type: "reveal", tiers: secret.tiers, salt: secret.salt };
    this.answeredAt = conn.stateId;
    this.answering = conn.intent(action);
  }
}
