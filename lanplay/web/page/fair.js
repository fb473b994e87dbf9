// Fair play as a browser can check it (docs/PROTOCOL.md "Fair play"): the host's
// secret matches the commitment it sent before anyone contributed; the
// contributions are the ones announced, this page's own among them; the seed
// they make; and the audit's log holds exactly the moves this page made, each
// where the host accepted it. The full rules replay runs on laptops with lanplay.

import { sha256, hexToBytes, bytesToHex } from "./wire.js";
import { _ } from "./words.js";

function isHex64(value) {
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
}

/** The seed of docs/PROTOCOL.md: the first 8 bytes of SHA-256(secret ‖ values) as an unsigned int. */
export function seedOf(secret, values) {
  const parts = [hexToBytes(secret), ...values.map((v) => hexToBytes(v))];
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { all.set(p, at); at += p.length; }
  const digest = sha256(all);
  let seed = 0n;
  for (let i = 0; i < 8; i++) seed = (seed << 8n) | BigInt(digest[i]);
  return seed;
}

function same(a, b) {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    const out = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical(value[key]);
    return out;
  }
  if (typeof value === "bigint") return `${value}n`;
  return value;
}

/**
 * What this page found: { shuffle: "ok" | "unseen" | problem, moves: "ok" | problem,
 * seed, mine, standin } where a problem is a short English fact (the end screen words it).
 */
export function check(conn) {
  const audit = conn.fair.audit;
  if (!audit) return null;
  const out = { shuffle: "ok", moves: "ok", seed: null, mine: 0, standin: 0, problems: [] };
  const game = audit.game;
  const commitment = conn.fair.commits.get(game);
  const told = conn.fair.contributions.get(game);
  const values = Array.isArray(audit.values) ? audit.values : [];
  if (!isHex64(audit.secret) || !values.every(isHex64)) {
    out.shuffle = "bad";
    out.problems.push(_("the audit's secret or contributions are not 64 hex digits"));
  } else {
    if (commitment === undefined) {
      out.shuffle = "unseen";
    } else if (bytesToHex(sha256(hexToBytes(audit.secret))) !== commitment) {
      out.shuffle = "bad";
      out.problems.push(_("the host's secret does not match the commitment it sent first"));
    }
    if (told && !same(told.values, values)) {
      out.shuffle = "bad";
      out.problems.push(_("the audit's contributions are not the ones announced before the deal"));
    }
    const mine = conn.fair.mine.get(game);
    if (mine) {
      const drawn = Array.isArray(audit.drawn) ? audit.drawn : [];
      if (values[mine.seat] !== mine.value || drawn.includes(mine.seat)) {
        out.shuffle = "bad";
        out.problems.push(_("this page's own contribution is not in the shuffle"));
      }
    } else if (out.shuffle === "ok" && conn.seat !== null) {
      out.shuffle = "unseen";
    }
    out.seed = seedOf(audit.secret, values);
    const shown = conn.view && conn.view.seed;
    if ((typeof shown === "bigint" || typeof shown === "number")
        && BigInt(shown) !== out.seed) {
      out.shuffle = "bad";
      out.problems.push(_("the seed the game shows is not the one the shuffle makes"));
    }
  }
  const log = Array.isArray(audit.log) ? audit.log : [];
  for (const { state_id: at, action } of conn.accepted) {
    const entry = log[at - 1];
    out.mine += 1;
    if (!Array.isArray(entry) || entry[0] !== conn.seat || !same(entry[1], action)) {
      out.moves = "bad";
      out.problems.push(_("move {n} is not the one this page made", { n: at }));
      break;
    }
  }
  if (conn.seat !== null) {
    const ours = log.filter((e) => Array.isArray(e) && e[0] === conn.seat).length;
    out.standin = Math.max(0, ours - out.mine);
  }
  return out;
}
