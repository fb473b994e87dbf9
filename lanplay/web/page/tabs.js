// One seat, one tab: the tabs of this browser that share a seat's token ask each other
// before one takes the seat from another. A page opened from a link (another site's
// included) must never take the seat by itself: a second tab asks first ("This seat is
// open in another tab: play here?"), and the tab that lost the seat says so and offers
// to take it back. BroadcastChannel reaches only this origin's tabs (and works on
// http://, where navigator.locks does not); a tab that does not answer in time (frozen
// in the background) is taken for gone, and if it wakes it finds the seat taken.

const CHANNEL = "lanplay-seat";
const ASK_FOR = 400;

function fingerprint(token) {
  // The token stays out of the channel: tabs compare a short hash of it.
  let h = 2166136261;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16);
}

export class Tabs {
  /**
   * `holding()`: the token this tab plays a seat with now, or null.
   * `onTaken()`: another tab of this browser took this tab's seat.
   */
  constructor({ holding, onTaken }) {
    this.holding = holding;
    this.onTaken = onTaken;
    this.id = Math.random().toString(36).slice(2);
    this.waiting = null;
    try {
      this.channel = new BroadcastChannel(CHANNEL);
      this.channel.onmessage = (event) => this.heard(event.data || {});
    } catch {
      this.channel = null;  // an old browser: a reload then takes the seat as before
    }
  }

  heard(said) {
    const mine = this.holding();
    if (said.from === this.id) return;
    if (said.kind === "who" && mine && fingerprint(mine) === said.seat) {
      this.post({ kind: "mine", seat: said.seat, to: said.from });
    } else if (said.kind === "mine" && said.to === this.id && this.waiting) {
      this.waiting(true);
    } else if (said.kind === "taken" && mine && fingerprint(mine) === said.seat) {
      this.onTaken();
    }
  }

  post(message) {
    if (this.channel) this.channel.postMessage({ ...message, from: this.id });
  }

  /** Whether another tab of this browser plays the seat of `token` now. */
  elsewhere(token) {
    if (!this.channel || !token) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (found) => { this.waiting = null; clearTimeout(timer); resolve(found); };
      const timer = setTimeout(() => done(false), ASK_FOR);
      this.waiting = done;
      this.post({ kind: "who", seat: fingerprint(token) });
    });
  }

  /** This tab takes the seat of `token`: the one that had it hears so. */
  take(token) {
    if (token) this.post({ kind: "taken", seat: fingerprint(token) });
  }
}
