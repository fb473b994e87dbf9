// The protocol in the browser: msgpack messages over the host's WebSocket, the
// handshake (password by challenge and response), views kept from snapshots and
// deltas, heartbeats, and reconnecting by itself with the token kept here.
// docs/PROTOCOL.md is the reference; this is one more client written from it.

import { encode, decode } from "./vendor/msgpack/index.mjs";
import { pbkdf2Async } from "./vendor/noble-hashes/pbkdf2.js";
import { hmac } from "./vendor/noble-hashes/hmac.js";
import { sha256 } from "./vendor/noble-hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "./vendor/noble-hashes/utils.js";

export const PROTOCOL_VERSION = 3;
const LIMITS = { maxStrLength: 65536, maxBinLength: 262144, maxArrayLength: 2048,
                 maxMapLength: 1024, maxExtLength: 0, useBigInt64: true };
const GIVE_UP = new Set(["bad_token", "removed", "password", "locked_out", "version", "flood"]);
const RETRY_FOR = 10 * 60 * 1000;
const SILENCE = 10000;
// After this long without its host the page goes to the room's deputy, if it has one
// (docs/PROTOCOL.md "Hand-over and deputy"): the deputy's page waits there for it.
const TO_DEPUTY_AFTER = 2500;
const ADDRESS = /^[A-Za-z0-9.:-]{1,255}$/;

export { bytesToHex, hexToBytes, sha256 };

export function pack(message) {
  return encode(message, { ignoreUndefined: true });
}

export function unpack(bytes) {
  const value = decode(bytes, LIMITS);
  if (value === null || typeof value !== "object" || Array.isArray(value)
      || typeof value.type !== "string") {
    throw new Error("a message must be a map with a type");
  }
  return value;
}

export function randomHex(bytes) {
  const out = new Uint8Array(bytes);
  crypto.getRandomValues(out);
  return bytesToHex(out);
}

// --- deltas (docs/PROTOCOL.md "Deltas") ---------------------------------------------

export class DeltaError extends Error {}

function isMap(v) { return v !== null && typeof v === "object" && !Array.isArray(v)
                           && !(v instanceof Uint8Array); }

function child(node, step) {
  if (typeof step === "string") {
    if (!isMap(node) || !Object.hasOwn(node, step)) throw new DeltaError(`no key ${step}`);
    return node[step];
  }
  if (Number.isInteger(step)) {
    if (!Array.isArray(node) || step < 0 || step >= node.length) {
      throw new DeltaError(`no index ${step}`);
    }
    return node[step];
  }
  throw new DeltaError("a path step must be a str or an int");
}

/**
 * The view changed by ops; the old view is left as it was. Only the maps and arrays on an
 * op's path are copied (once a delta), the rest is shared with the old view: a delta
 * costs its paths, not the whole view (the log of a long game grows with every move, and
 * a copy of it all was most of a delta's apply).
 */
export function applyDelta(view, ops) {
  if (!Array.isArray(ops)) throw new DeltaError("ops must be an array");
  const copied = new Set();
  const own = (value) => {
    if (copied.has(value) || value === null || typeof value !== "object" || value instanceof Uint8Array) {
      return value;
    }
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    copied.add(copy);
    return copy;
  };
  let root = own(view);
  /** The node at `steps` from the root, each map and array on the way this delta's own. */
  const ownedAt = (steps) => {
    let node = root;
    for (const step of steps) {
      const next = child(node, step);
      const mine = own(next);
      if (mine !== next) node[step] = mine;
      node = mine;
    }
    return node;
  };
  for (const op of ops) {
    if (!Array.isArray(op) || op.length < 2 || !Array.isArray(op[1])) {
      throw new DeltaError("bad op");
    }
    const [code, path] = op;
    if (code === 0) {
      if (op.length !== 3) throw new DeltaError("set takes a value");
      if (path.length === 0) { root = op[2]; continue; }
      const parent = ownedAt(path.slice(0, -1));
      const last = path[path.length - 1];
      if (typeof last === "string" && isMap(parent)) {
        if (last === "__proto__") throw new DeltaError("bad key");
        parent[last] = op[2];
      } else if (Number.isInteger(last) && Array.isArray(parent) && last >= 0
                 && last < parent.length) {
        parent[last] = op[2];
      } else {
        throw new DeltaError("set does not fit");
      }
    } else if (code === 1) {
      if (op.length !== 2 || path.length === 0) throw new DeltaError("bad delete");
      const parent = ownedAt(path.slice(0, -1));
      const last = path[path.length - 1];
      if (typeof last !== "string" || !isMap(parent) || !Object.hasOwn(parent, last)) {
        throw new DeltaError("delete does not fit");
      }
      delete parent[last];
    } else if (code === 2) {
      const node = ownedAt(path);
      const n = op[2];
      if (!Array.isArray(node) || !Number.isInteger(n) || n < 0 || n > node.length) {
        throw new DeltaError("truncate does not fit");
      }
      node.length = n;
    } else if (code === 3) {
      const node = ownedAt(path);
      if (!Array.isArray(node) || !Array.isArray(op[2])) throw new DeltaError("bad extend");
      node.push(...op[2]);
    } else {
      throw new DeltaError(`unknown op ${code}`);
    }
  }
  return root;
}

// --- the room key (a password room) ---------------------------------------------------

const keys = new Map();

async function roomKey(password, salt) {
  const id = `${salt}\u0000${password}`;
  if (!keys.has(id)) {
    keys.set(id, await pbkdf2Async(sha256, utf8ToBytes(password), utf8ToBytes(salt),
                                   { c: 200000, dkLen: 32, asyncTick: 20 }));
  }
  return keys.get(id);
}

export async function answerFor(password, salt, nonce) {
  return bytesToHex(hmac(sha256, await roomKey(password, salt), utf8ToBytes(nonce)));
}

// --- one seat (or a spectator) at the host --------------------------------------------

/**
 * A connection to the host that keeps itself alive. Events go to `listener(kind, data)`:
 * "status" (connecting, challenge, welcomed, reconnecting, gone), "welcome", "lobby",
 * "view", "chat", "clock", "rejected", "over", "audit", "refused", "bye", "moved" (the
 * room is refereed elsewhere now: go to that page with the seat's token), "referee" (a
 * laptop referees the room at a higher term; data: its name).
 */
export class Connection {
  constructor(url, { name, colour = "", spectate = false, password = null, store = null,
                     listener = () => {}, record = false } = {}) {
    this.url = url;
    this.name = name;
    this.colour = colour;
    this.spectate = spectate;
    this.password = password;
    this.store = store;
    this.listener = listener;
    this.frames = record ? [] : null;
    this.ws = null;
    this.seat = null;
    this.owner = false;
    // A spectator (the watch screen, "Watch") never presents, nor forgets, the seat's token
    // a tab of this browser keeps.
    this.token = store && !spectate ? store.get("token") : null;
    this.lobby = null;
    this.view = null;
    this.stateId = -1;
    this.waiting = false;
    this.result = null;
    this.chat = [];
    this.chatTotal = 0;
    this.clock = null;
    this.nextId = 1;
    this.sent = new Map();
    this.accepted = [];
    this.fair = { commits: new Map(), mine: new Map(), contributions: new Map(),
                  audit: null, parts: [] };
    this.status = "idle";
    this.paused = null;
    this.gone = null;
    this.started = 0;
    this.lastHeard = 0;
    this.retryDelay = 100;
    this.timer = null;
    this.silence = null;
    this.sentAt = new Map();
    this.room = "";
    this.term = 0;
    this.deputy = null;
    this.lostAt = 0;
  }

  emit(kind, data) {
    try { this.listener(kind, data); } catch (err) { console.error(err); }
  }

  setStatus(status) {
    this.status = status;
    this.emit("status", status);
  }

  connect() {
    if (this.gone) return;
    if (!this.started) this.started = Date.now();
    clearTimeout(this.timer);
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    this.setStatus(this.status === "welcomed" || this.status === "reconnecting"
                   ? "reconnecting" : "connecting");
    ws.onopen = () => {
      this.lastHeard = Date.now();
      this.raw({ type: "hello", version: PROTOCOL_VERSION, name: this.name,
                 colour: this.colour, token: this.token || null, spectate: this.spectate,
                 bot: false, client: "lanplay-web" });
      this.watchSilence();
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.receivedAt = performance.now();
      let msg;
      try {
        const bytes = new Uint8Array(event.data);
        if (this.frames) this.frames.push(bytes);
        msg = unpack(bytes);
      } catch (err) {
        ws.close();  // a frame that breaks the protocol: the stream cannot be trusted
        return;
      }
      this.handle(msg).catch((err) => console.error(err));
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      clearInterval(this.silence);
      if (this.status === "welcomed" && !this.lostAt) this.lostAt = Date.now();
      this.retry();
    };
  }

  watchSilence() {
    clearInterval(this.silence);
    this.silence = setInterval(() => {
      if (this.ws && Date.now() - this.lastHeard > SILENCE) this.drop();
    }, 1000);
  }

  /** Cut the WebSocket as a lost network would; the page comes back by itself. */
  drop() {
    if (!this.lostAt) this.lostAt = Date.now();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
      clearInterval(this.silence);
      this.retry();
    }
  }

  /** Try again at once (the phone's screen came back on). */
  wake() {
    if (!this.gone && !this.ws) {
      this.retryDelay = 100;
      this.connect();
    } else if (this.ws && Date.now() - this.lastHeard > 4000) {
      this.drop();
    }
  }

  retry() {
    if (this.gone) return;
    if (Date.now() - this.started > RETRY_FOR) {
      this.leave("retry");
      return;
    }
    const deputy = this.deputy;
    if (deputy && deputy.web_port && this.lostAt && Date.now() - this.lostAt > TO_DEPUTY_AFTER) {
      this.emit("moved", { ...deputy, term: this.term });  // its page waits for the take-over
      this.leave("moved");
      return;
    }
    this.setStatus("reconnecting");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.retryDelay);
    this.retryDelay = Math.min(1500, this.retryDelay * 2);
  }

  leave(why) {
    this.gone = why;
    clearTimeout(this.timer);
    clearInterval(this.silence);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
    }
    this.setStatus("gone");
  }

  raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(pack(message));
      return true;
    }
    return false;
  }

  send(message) {
    return this.raw(message);
  }

  intent(action) {
    const id = this.nextId++;
    this.sent.set(id, action);
    this.sentAt.set(id, performance.now());
    this.raw({ type: "intent", id, state_id: this.stateId, action });
    return id;
  }

  control(command, args = {}) {
    const id = this.nextId++;
    this.raw({ type: "control", command, args, id });
    return id;
  }

  say(text) {
    this.raw({ type: "chat", text });
  }

  resync(reason) {
    this.waiting = true;
    this.raw({ type: "resync", reason });
  }

  async handle(msg) {
    switch (msg.type) {
      case "challenge": {
        this.setStatus("challenge");
        if (this.password === null) {
          this.emit("password", null);
          this.leave("password");
          return;
        }
        const ws = this.ws;
        const hmacHex = await answerFor(this.password, String(msg.salt || ""),
                                        String(msg.nonce));
        if (ws === this.ws) this.raw({ type: "answer", hmac: hmacHex });
        return;
      }
      case "welcome": {
        const room = typeof msg.room === "string" ? msg.room : "";
        const term = Number.isInteger(msg.term) ? msg.term : 0;
        if (this.room && room === this.room && term < this.term) {
          this.drop();  // a host the room has moved on from: never its table again
          return;
        }
        const newer = Boolean(this.room) && room === this.room && term > this.term;
        if (room !== this.room || newer) this.deputy = null;
        this.room = room;
        this.term = term;
        this.lostAt = 0;
        this.paused = null;
        this.seat = Number.isInteger(msg.seat) ? msg.seat : null;
        this.owner = msg.owner === true;
        this.token = typeof msg.token === "string" && msg.token ? msg.token : null;
        if (this.store && (this.token || !this.spectate)) this.store.set("token", this.token);
        this.retryDelay = 100;
        this.started = Date.now();
        this.setStatus("welcomed");
        this.emit("welcome", msg);
        if (newer) this.emit("referee", String(msg.host_name || "?").slice(0, 60));
        return;
      }
      case "deputy":
        if (msg.room === this.room && msg.term === this.term) {
          this.deputy = msg.name && Number.isInteger(msg.port) && msg.port > 0
            && typeof msg.address === "string" && ADDRESS.test(msg.address) ? msg : null;
        }
        return;
      case "moved": {
        // Only this room, only a higher term (or, before a welcome, a deputy sending an
        // early page back to the host); a page that knows no room yet takes it as told.
        const early = this.status !== "welcomed";
        const follows = (!this.room && early) || (msg.room === this.room
          && Number.isInteger(msg.term) && (msg.term > this.term || (early && msg.term === this.term)));
        if (follows && typeof msg.address === "string" && ADDRESS.test(msg.address)
            && Number.isInteger(msg.web_port) && msg.web_port > 0 && msg.web_port < 65536) {
          this.emit("moved", msg);
          this.leave("moved");
        }
        return;
      }
      case "refused":
        if (msg.code === "bad_token" && this.token) {
          this.token = null;  // another room now: join it as a newcomer
          if (this.store) this.store.set("token", null);
          return;
        }
        this.emit("refused", msg);
        if (GIVE_UP.has(msg.code)) this.leave(msg.code);
        return;
      case "bye":
        this.emit("bye", msg);
        if (msg.resume === true) {  // paused and saved: keep the token, come back when resumed
          this.paused = msg;
          return;  // the host closes; onclose retries as after a dropped connection
        }
        this.leave("bye");
        return;
      case "ping":
        this.raw({ type: "pong", nonce: msg.nonce });
        if (Number.isInteger(msg.state_id) && msg.state_id > this.stateId && !this.waiting
            && this.view !== null) {
          this.resync("behind the host's ping");
        }
        return;
      case "lobby":
        this.lobby = msg;
        this.emit("lobby", msg);
        return;
      case "snapshot":
        if (!isMap(msg.view)) return;
        this.view = msg.view;
        this.stateId = msg.state_id;
        this.waiting = false;
        if (!msg.view.over) this.result = null;
        this.emit("view", { snapshot: true });
        return;
      case "delta": {
        if (this.waiting) return;
        if (msg.base !== this.stateId || this.view === null) {
          this.resync("a gap in state ids");
          return;
        }
        let view;
        try {
          view = applyDelta(this.view, msg.ops);
        } catch (err) {
          this.resync("a delta that did not fit");
          return;
        }
        this.view = view;
        this.stateId = msg.state_id;
        this.emit("view", { snapshot: false });
        return;
      }
      case "accepted": {
        const action = this.sent.get(msg.id);
        if (action !== undefined) {
          this.accepted.push({ state_id: msg.state_id, action });
          this.sent.delete(msg.id);
        }
        this.emit("accepted", { id: msg.id, ms: performance.now() - (this.sentAt.get(msg.id) || 0) });
        this.sentAt.delete(msg.id);
        return;
      }
      case "rejected":
        this.sent.delete(msg.id);
        this.emit("rejected", msg);
        return;
      case "chat":
        this.chat.push(msg);
        this.chatTotal += 1;
        if (this.chat.length > 200) this.chat.shift();
        this.emit("chat", msg);
        return;
      case "clock":
        this.clock = msg.key ? { key: msg.key, seconds: msg.seconds,
                                 until: Date.now() + 1000 * Math.min(3600, Math.max(0, msg.remaining)) }
                             : null;
        this.emit("clock", this.clock);
        return;
      case "seed_commit":
        this.fair.commits.set(msg.game, msg.commitment);
        this.fair.audit = null;
        this.fair.parts = [];
        this.accepted = [];
        if (this.seat !== null) {
          const value = randomHex(32);
          this.fair.mine.set(msg.game, { value, seat: this.seat });
          this.raw({ type: "contribution", game: msg.game, value });
        }
        return;
      case "contributions":
        this.fair.contributions.set(msg.game, msg);
        return;
      case "game_over":
        this.result = msg;
        this.emit("over", msg);
        return;
      case "audit": {
        const parts = this.fair.parts;
        if (!parts.length || parts[0].game !== msg.game) parts.length = 0;
        parts.push(msg);
        const got = parts.reduce((n, p) => n + (Array.isArray(p.log) ? p.log.length : 0), 0);
        if (got >= (msg.moves || 0)) {
          const log = parts.flatMap((p) => (Array.isArray(p.log) ? p.log : []));
          this.fair.audit = { ...parts[0], log };
          this.emit("audit", this.fair.audit);
        }
        return;
      }
      default:
        this.emit(msg.type, msg);
    }
  }
}
