// The browser seat: join the room this page came from, take a seat, play, chat.
// Screens: join (name and colour), the room (seats, ready, the owner's start), the
// game (status line, the public table compact, your own part large, what you may do
// from `may`, the log and chat, the clock), the end (result and what the page checked).

import { Connection } from "./wire.js";
import { h, clear, ink, morph, region } from "./dom.js";
import { _, ngettext, render, content, load, chooseLanguage, lang, LANGUAGES } from "./words.js";
import { check as fairCheck } from "./fair.js";
import { Keeper, forgetNotes, keepNotes, keptNotes } from "./keeper.js";
import { Tabs } from "./tabs.js";
import { TABLES, genericActions, actionWord } from "./tables/index.js";
import { Tour, loadTours } from "./teach.js";
import { rulesPanel, scrollToMode } from "./rules.js";
import { markScrolls } from "./scrollcue.js";

const COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"];
export const GAME_NAMES = { "alles-klar": "Alles klar?", ranking: "Ranking", "s-tier": "S-tier",
  "ranking-top": "Ranking Top", ranagedon: "Ranagedon" };
const MODE_NAMES = { standard: "Standard", cooperative: "Cooperative", competitive: "Competitive",
  team: "Team" };
const LANGUAGE_NAMES = { en: "English", de: "Deutsch", es: "Español" };
/** A game's modes in the order its rules help explains them (S-tier's: one section each). */
const MODES = { "s-tier": ["cooperative", "competitive", "team"] };

// Nothing the address says acts by itself (a link from any site can open it): only
// `lang`, `record` (tests keep the frames) and, on the watch screen, the TV's `name`
// are read; joining, a password and taking a seat are a person's taps.
const params = new URLSearchParams(location.search);
const WATCH = document.body.hasAttribute("data-watch");
/** The watch screen (/watch): the public table full-screen for a television, as a spectator. */
const AUTOPLAY = document.body.hasAttribute("data-autoplay");
/** The page plays its seat by itself, choosing from `may`: only a test host serves it so
 * (lanplay.tools.webbench: HostConfig.page_autoplay), never an address. */
const store = {
  prefix: `lanplay:${location.host}:`,
  get(key) { try { return JSON.parse(localStorage.getItem(this.prefix + key)); } catch { return null; } },
  set(key, value) {
    try {
      if (value === null || value === undefined) localStorage.removeItem(this.prefix + key);
      else localStorage.setItem(this.prefix + key, JSON.stringify(value));
    } catch { /* private mode: kept for this tab only */ }
  },
};

const app = document.getElementById("app");
const page = {
  conn: null, keeper: null, notice: null, noticeTimer: null, sideTab: "log", sideOpen: false,
  scratch: {}, lastGame: null, problem: null, timings: [], snapshots: [], splits: [], drawn: 0,
  seenOver: false, asking: false, lost: false, password: null,
  tour: new Tour(), rulesOpen: false, about: null,
};
window.__lanplay = page;  // for tests and the curious: the connection, the timings

function gameName(id) { return content("game", id, GAME_NAMES[id] || id); }
function modeName(game, mode) { return content("mode", `${game}:${mode}`, MODE_NAMES[mode] || mode); }

export function names() {
  const seats = page.conn && page.conn.lobby ? page.conn.lobby.seats : [];
  return seats.map((s) => String(s.name));
}

const FALLBACK = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#FFFFFF"];

/** Each seat's colour as the window's badges have it (lanplay/badges.py): the seat's own,
 * else the palette's by seat number. */
function colours() {
  const seats = page.conn && page.conn.lobby ? page.conn.lobby.seats : [];
  return seats.map((s, i) => (typeof s.colour === "string" && /^#[0-9a-f]{6}$/i.test(s.colour)
    ? s.colour.toUpperCase() : FALLBACK[i % FALLBACK.length]));
}

const alnum = (name) => [...String(name).trim()].filter((c) => /[\p{L}\p{N}]/u.test(c));

/** Every seat's badge text, as lanplay/badges.py makes it, so the page and the window mark
 * a seat alike: the initial; where initials collide, the number the name ends with ("Bot 2"
 * is B2 whatever its seat), else its next letter, else the place among them (A1, A2). */
export function badgeTexts(all = names()) {
  const firsts = all.map((n) => (alnum(n)[0] || "?").toUpperCase());
  const texts = [...firsts];
  const groups = new Map();
  firsts.forEach((f, i) => { if (!groups.has(f)) groups.set(f, []); groups.get(f).push(i); });
  for (const [first, members] of groups) {
    if (members.length < 2) continue;
    const tried = members.map((i) => {
      const words = String(all[i]).split(/\s+/).filter(Boolean);
      const last = words.length > 1 && /^[0-9]+$/.test(words[words.length - 1]) ? words[words.length - 1].slice(0, 2) : "";
      return first + (last || (alnum(all[i])[1] || "").toLowerCase());
    });
    const chosen = new Set(tried).size === tried.length && tried.every((t) => t.length > 1)
      ? tried : members.map((_m, k) => `${first}${k + 1}`);
    members.forEach((i, k) => { texts[i] = chosen[k]; });
  }
  return texts;
}

export function badgeText(seat) {
  return badgeTexts()[seat] || String(seat + 1);
}

export function badge(seat) {
  const colour = colours()[seat] || "#888888";
  return h("span", { class: "badge", style: { background: colour, color: ink(colour) },
                     title: names()[seat] || "" }, badgeText(seat));
}

function say(text) {
  page.notice = text;
  clearTimeout(page.noticeTimer);
  page.noticeTimer = setTimeout(() => { page.notice = null; draw(); }, 4000);
  draw();
}

// --- joining ------------------------------------------------------------------------

// Drawing at a phone's speed: a view is drawn when it comes, at most once a frame (views
// that arrive within one frame are drawn together when it comes); each draw's cost is
// kept (a delta's in `timings`, from its frame's arrival; a snapshot's in `snapshots`,
// which build the whole table), split into apply, draw and layout (`splits`).
let frameBusy = false;
let framePending = null;

function drawView(receivedAt, snapshot) {
  if (frameBusy) { framePending = framePending || { receivedAt, snapshot }; return; }
  measuredDraw(receivedAt, snapshot);
  frameBusy = true;
  requestAnimationFrame(() => {
    frameBusy = false;
    const next = framePending;
    framePending = null;
    if (next) measuredDraw(performance.now(), next.snapshot);  // the frame's own work
  });
}

function measuredDraw(since, snapshot) {
  const t1 = performance.now();
  draw();
  const t2 = performance.now();
  void app.offsetHeight;  // style and layout now: "applied and drawn" includes them
  const t3 = performance.now();
  (snapshot ? page.snapshots : page.timings).push(t3 - since);
  page.splits.push([t1 - since, t2 - t1, t3 - t2, snapshot ? 1 : 0]);
  if (page.splits.length > 5000) page.splits.shift();
  if (page.timings.length > 5000) page.timings.shift();
}

function startConnection({ name, colour, spectate, password }, carried = null) {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  store.set("name", name);
  store.set("colour", colour);
  page.asking = false;
  page.lost = false;
  page.password = password;
  if (page.conn) page.conn.leave("replaced");
  const conn = new Connection(url, { name, colour, spectate, password, store,
                                     listener: onEvent, record: params.has("record") });
  if (carried) arrive(conn, carried);
  page.conn = conn;
  page.keeper = new Keeper(conn, store);
  page.problem = null;
  conn.connect();
  draw();
}

// --- the room moves to another laptop (docs/PROTOCOL.md "Hand-over and deputy") --------

/** Go to the page of the laptop that referees the room now, taking along what this
 * page keeps (its seat's token, its notes, what it noted of the shuffle) in the
 * address's fragment, which never leaves the browser. */
function moveTo(where) {
  const conn = page.conn;
  const notes = keptNotes();
  const carried = { name: conn.name, colour: conn.colour, token: conn.token,
    spectate: conn.spectate && !conn.token, password: conn.password, room: conn.room,
    term: conn.term, notes, fair: { commits: [...conn.fair.commits], mine: [...conn.fair.mine],
      contributions: [...conn.fair.contributions] }, accepted: conn.accepted };
  const text = JSON.stringify(carried, (k, v) => (typeof v === "bigint" ? Number(v) : v));
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  const host = where.address.includes(":") ? `[${where.address}]` : where.address;
  const path = WATCH ? "/watch" : "/";
  location.replace(`http://${host}:${where.web_port}${path}${location.search}#move=${encodeURIComponent(btoa(binary))}`);
}

/** What the page that sent us here took along (see ``moveTo``), once. */
function carriedHere() {
  if (!location.hash.startsWith("#move=")) return null;
  const raw = decodeURIComponent(location.hash.slice(6));
  history.replaceState(null, "", location.pathname + location.search);
  try {
    const bytes = Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
    const carried = JSON.parse(new TextDecoder().decode(bytes));
    return carried && typeof carried === "object" && typeof carried.name === "string" ? carried : null;
  } catch {
    return null;
  }
}

function arrive(conn, carried) {
  conn.room = typeof carried.room === "string" ? carried.room : "";
  conn.term = Number.isInteger(carried.term) ? carried.term : 0;
  const fair = carried.fair || {};
  for (const key of ["commits", "mine", "contributions"]) {
    if (Array.isArray(fair[key])) conn.fair[key] = new Map(fair[key]);
  }
  if (Array.isArray(carried.accepted)) conn.accepted = carried.accepted;
}

function onEvent(kind, data) {
  const conn = page.conn;
  if (kind === "moved") {
    moveTo(data);
    return;
  }
  if (kind === "referee") {
    say(_("{name} referees the game now: the room moved to {name}'s laptop.", { name: data }));
    return;
  }
  if (kind === "view") {
    page.keeper.onView();
    if (conn.view && conn.view.game !== page.lastGame) {
      page.scratch = {};
      page.lastGame = conn.view.game;
    }
    drawView(conn.receivedAt, data && data.snapshot === true);
    page.drawn += 1;
    if (AUTOPLAY) setTimeout(autoplay, 0);
    return;
  }
  if (kind === "rejected") {
    page.keeper.onRejected(data);
    if (data.code === "rate" && data.id < 0) return;
    say(render(data.message || data.reason, names()));
    return;
  }
  if (kind === "accepted") page.keeper.onAccepted(data);
  if (kind === "refused") {
    page.problem = render(data.message || data.reason, names());
  }
  if (kind === "bye") {
    page.problem = render(data.message || data.reason, names()) || _("The host closed the room.");
    if (data.resume === true) say(page.problem);
    if (data.message && data.message.key === ELSEWHERE) page.lost = true;
  }
  if (kind === "password") {
    page.problem = _("This room has a password: type it and join again.");
    page.needPassword = true;
  }
  if (kind === "over") page.seenOver = false;
  if (kind === "welcome") {
    page.keeper.reset();
    if (conn.seat !== null) tabs.take(conn.token);  // a tab that had this seat hears so
  }
  if (kind === "lobby") page.keeper.onView();
  draw();
}

// --- one seat, one tab ------------------------------------------------------------------

const ELSEWHERE = "You connected again from elsewhere.";
/** The host's goodbye to a seat's old connection when its token came back on a new one. */

const tabs = new Tabs({
  holding: () => {
    const conn = page.conn;
    return conn && !conn.spectate && conn.seat !== null && conn.status !== "gone" ? conn.token : null;
  },
  onTaken: () => {
    if (page.conn) page.conn.leave("taken");
    page.lost = true;
    draw();
  },
});

function resume({ spectate = false } = {}) {
  startConnection({ name: store.get("name") || "Player", colour: store.get("colour") || COLOURS[0],
                    spectate, password: page.password });
}

function askScreen() {
  return h("div", { class: "screen" }, h("div", { class: "narrow stack", id: "ask-seat" },
    h("h1", {}, _("This seat is open in another tab: play here?")),
    h("p", { class: "muted" }, _("The other tab stops playing it.")),
    h("div", { class: "row" },
      h("button", { class: "primary grow", id: "play-here", onclick: () => resume() }, _("Play here")),
      h("button", { class: "grow", id: "watch-here", onclick: () => resume({ spectate: true }) }, _("Watch")))));
}

function lostScreen() {
  return h("div", { class: "screen" }, h("div", { class: "narrow stack", id: "lost-seat" },
    h("h1", {}, _("Your seat is now played in another tab or on another device.")),
    h("div", { class: "row" },
      h("button", { class: "primary grow", id: "take-back", onclick: () => resume() }, _("Play here again")))));
}


// A new size (a phone turned, a window resized): drawn again once the frame comes, so
// what depends on the width (the log a laptop shows beside the table) follows.
let resizing = false;
window.addEventListener("resize", () => {
  if (resizing) return;
  resizing = true;
  requestAnimationFrame(() => { resizing = false; draw(); });
});

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && page.conn) page.conn.wake();
});
window.addEventListener("online", () => page.conn && page.conn.wake());

function joinScreen() {
  const name = h("input", { id: "name", maxlength: 24, autocomplete: "nickname",
    value: store.get("name") || "", "aria-label": _("Your name") });
  if (!page.colour) page.colour = store.get("colour") || COLOURS[Math.floor(Math.random() * COLOURS.length)];
  const colour = page.colour;
  const swatches = h("div", { class: "colours", role: "group", "aria-label": _("Your colour") },
    COLOURS.map((c) => h("button", {
      style: { background: c }, "aria-pressed": String(c === colour), title: c,
      "aria-label": c, onclick: () => { page.colour = c; draw(); } })));
  const password = h("input", { id: "password", type: "password", autocomplete: "off",
                                "aria-label": _("Password") });
  const go = (spectate) => {  // the live inputs (a redraw keeps them, with what was typed)
    const typed = document.getElementById("name").value.trim() || "Player";
    const secret = document.getElementById("password").value;
    page.needPassword = page.needPassword && !secret;
    startConnection({ name: typed, colour: page.colour, spectate, password: secret || null });
  };
  name.onkeydown = (e) => { if (e.key === "Enter") go(false); };
  password.onkeydown = (e) => { if (e.key === "Enter") go(false); };
  return h("div", { class: "screen" }, h("div", { class: "narrow stack" },
    page.about && typeof page.about.game === "string"
      ? h("h1", { id: "join-title" }, _("Join {game} on {host}", {
        game: `${gameName(page.about.game)} · ${modeName(page.about.game, page.about.mode)}`,
        host: String(page.about.host || "") }))
      : h("h1", { id: "join-title" }, _("Join the game on this host")),
    page.problem ? h("p", { class: "error", role: "alert" }, page.problem) : null,
    h("label", { class: "stack" }, h("span", {}, _("Your name")), name),
    h("div", { class: "stack" }, h("span", {}, _("Your colour")), swatches),
    h("label", { class: "stack" }, h("span", {}, page.needPassword
      ? _("Password (this room has one)") : _("Password, if the room has one")), password),
    h("div", { class: "row" },
      h("button", { class: "primary grow", id: "join", onclick: () => go(false) }, _("Take a seat")),
      h("button", { class: "grow", id: "watch", onclick: () => go(true) }, _("Watch"))),
    languagePicker()));
}

function languagePicker() {
  const select = h("select", { "aria-label": _("Language"), id: "language",
    onchange: (e) => { const url = new URL(location.href); url.searchParams.set("lang", e.target.value);
                       location.href = url.toString(); } },
  LANGUAGES.map((l) => h("option", { value: l, selected: l === lang }, LANGUAGE_NAMES[l])));
  return h("label", { class: "row" }, h("span", {}, _("Language")), select);
}

/** The room this page joins (its game, mode and host), named on the join form. */
async function aboutRoom() {
  try {
    const got = await fetch("/room.json");
    if (got.ok) page.about = await got.json();
  } catch { /* an older host: the form names no game */ }
}

// --- the room -----------------------------------------------------------------------

function watchRoom() {
  const conn = page.conn;
  const lobby = conn.lobby;
  const address = `${location.protocol}//${location.host}/`;
  return h("div", { class: "screen" }, h("div", { class: "row", style: { justifyContent: "center", gap: "2rem" } },
    h("div", { class: "stack", style: { alignItems: "center" } },
      h("div", { class: "qr" }, h("img", { src: "/qr.svg", alt: address, id: "qr" })),
      h("span", { class: "address", id: "address" }, address),
      h("p", {}, _("Scan to join with a phone, or open the address in any browser."))),
    h("div", { class: "stack", style: { minWidth: "18rem" } },
      h("h1", {}, gameName(lobby.game), " · ", modeName(lobby.game, lobby.mode)),
      h("ul", { class: "seats", "aria-label": _("Seats") }, lobby.seats.map((s, i) => h("li", {},
        badge(i), h("span", { class: "name" }, s.name),
        s.ready ? h("span", { class: "tag ok" }, _("ready")) : null))),
      lobby.problem_message ? h("p", { class: "muted" }, render(lobby.problem_message, names())) : null)));
}

function roomScreen() {
  const conn = page.conn;
  const lobby = conn.lobby;
  if (!lobby) return h("div", { class: "screen" }, h("p", {}, _("Joining…")));
  if (WATCH) return watchRoom();
  const me = conn.seat;
  const seats = lobby.seats.map((s, i) => h("li", { class: i === me ? "me" : "" },
    badge(i), h("span", { class: "name" }, s.name),
    s.owner ? h("span", { class: "tag" }, _("owner")) : null,
    s.bot ? h("span", { class: "tag" }, _("bot")) : null,
    s.ready ? h("span", { class: "tag ok" }, _("ready")) : h("span", { class: "tag" }, _("not ready")),
    !s.connected ? h("span", { class: "tag warn" }, _("away")) : null,
    conn.owner && i !== me && lobby.phase !== "playing"
      ? h("button", { onclick: () => conn.control("remove_seat", { seat: i }) }, _("Remove")) : null));
  const mine = me !== null ? lobby.seats[me] : null;
  const problem = lobby.problem_message ? render(lobby.problem_message, names()) : lobby.problem;
  const controls = [];
  if (mine) {
    controls.push(h("button", { class: mine.ready ? "" : "primary", id: "ready",
      onclick: () => conn.control("ready", { ready: !mine.ready }) },
    mine.ready ? _("Not ready") : _("Ready")));
  } else if (lobby.phase !== "playing") {
    controls.push(h("button", { class: "primary", id: "sit", onclick: () => conn.control("sit") }, _("Take a seat")));
  }
  if (conn.owner) {
    controls.push(h("button", { id: "add-bot", onclick: () => conn.control("add_bot") }, _("Add a bot")));
    controls.push(h("button", { id: "start", class: "primary", disabled: Boolean(lobby.problem),
                                onclick: () => conn.control("start") }, _("Start")));
  }
  return h("div", { class: "screen" }, h("div", { class: "narrow stack" },
    h("h1", {}, gameName(lobby.game), " · ", modeName(lobby.game, lobby.mode)),
    h("p", { class: "muted" }, _("Hosted by {host}", { host: lobby.host_name })),
    me === null ? h("p", { class: "tag" }, _("You are watching.")) : null,
    h("ul", { class: "seats", "aria-label": _("Seats") }, seats),
    lobby.spectators ? h("p", { class: "muted" }, ngettext("{n} watching", "{n} watching", lobby.spectators)) : null,
    problem ? h("p", { class: "muted" }, problem) : h("p", { class: "muted" },
      conn.owner ? _("Everyone is here: start when you like.") : _("Waiting for the owner to start.")),
    h("div", { class: "row" }, controls),
    sidePanel(true)));
}

// --- the game -----------------------------------------------------------------------

function clockText() {
  const clock = page.conn.clock;
  if (!clock) return null;
  const left = Math.max(0, Math.ceil((clock.until - Date.now()) / 1000));
  return `${left} s`;
}

setInterval(() => {
  const el = document.querySelector(".bar .clock");
  if (el && page.conn && page.conn.clock) el.textContent = clockText();
}, 250);

/** Whose move the table waits for, by name ("Ann and Bot 1"); "" when nobody's. */
function actorNames(view) {
  const actors = Array.isArray(view.actors) ? view.actors
    : Number.isInteger(view.turn) ? [view.turn] : [];
  const seats = actors.filter((s) => Number.isInteger(s));
  return seats.length ? render({ key: "{x}", args: { x: { seats } } }, names()) : "";
}

function waitingFor(view) {
  const who = actorNames(view);
  return who ? _("Waiting for {names}", { names: who }) : _("Waiting for the host…");
}

/** What `may` asks of the person: not what this page answers by itself (the S-tier
 * leader's laptop counts and reveals, and gives the round up if it lost the note). */
export function acting(may) {
  return may.some((t) => ANSWERED.has(t.type)) ? may.filter((t) => !ANSWERED.has(t.type) && t.type !== "void") : may;
}
const ANSWERED = new Set(["count", "reveal"]);

/** The "what now" line: the table's own words, else the actions `may` offers, else whom
 * the table waits for (and, where the table says it, for what). */
function whatNow(ctx, drawn) {
  const view = ctx.view;
  if (view.over) {  // who won, lost or drew, as the end screen (and the window) says it
    const result = page.conn.result && page.conn.result.result;
    return result ? outcome(page.conn, Array.isArray(result.winners) ? result.winners : []).headline
      : _("The game is over.");
  }
  if (drawn.status) return drawn.status;
  if (acting(ctx.may).length) {
    const words = [...new Set(acting(ctx.may).map((t) => actionWord(ctx, t.type)))];
    return _("Your turn: {actions}", { actions: words.join(" · ") });
  }
  if (ctx.me === null) return _("You are watching. {waiting}", { waiting: drawn.waiting || waitingFor(view) });
  return drawn.waiting || waitingFor(view);
}

const PIECES = "[data-card], [data-picture], [data-frog], .tier, .rcard, .song";

/** Why a tap on a piece did nothing (it reached the table: no piece took it). */
function whyNot(ctx, table, piece) {
  const view = ctx.view;
  if (view.over) return _("The game is over.");
  if (ctx.me === null) return _("You are watching: the players make the moves.");
  const own = table && table.why ? table.why(ctx, piece) : null;
  if (own) return own;
  if (!ctx.may.length) return _("Not your turn. {waiting}", { waiting: waitingFor(view) });
  return _("That cannot be used now: the lit pieces can.");
}

function gameScreen() {
  const conn = page.conn;
  const view = page.keeper.shown();
  const table = TABLES[view.game];
  const ctx = makeContext(view);
  let drawn;
  try {
    drawn = table ? table.draw(ctx) : { public: h("p", {}, view.game), private: null, handled: new Set() };
  } catch (err) {
    console.error(err);
    drawn = { public: h("p", { class: "error" }, _("This table could not be drawn; the actions below still work.")),
              private: null, handled: new Set() };
  }
  const mine = acting(ctx.may).length > 0;
  page.tour.begin(view, conn.seat !== null && !WATCH);
  const actions = [...(drawn.actions || []), ...genericActions(ctx, drawn.handled || new Set())];
  const tableEl = h("div", { class: "table" + (drawn.layout === "board" ? " board-first" : ""), id: "table", onclick: (e) => {
    const piece = e.target.closest && e.target.closest(PIECES);
    if (piece) say(whyNot(makeContext(page.keeper.shown()), table, piece));
  } },
  h("div", { class: "public" }, drawn.public),
  drawn.private ? h("div", { class: "private" }, drawn.private) : null);
  const actionsEl = h("div", { class: "actions", id: "actions" }, actions);
  const spot = page.tour.spot();
  page.spotId = spot && drawn.spots ? drawn.spots[spot] : null;  // framed once drawn (draw)
  const log = Array.isArray(view.log) ? view.log : [];
  const last = log.length ? logTexts(log)[log.length - 1] : "";
  return h("div", { class: "game" + (conn.status !== "welcomed" ? " dim" : "") + (WATCH ? " watching" : "") },
    h("div", { class: "now" },
      h("div", { class: "status" + (mine ? " mine" : ""), id: "status", role: "status" }, whatNow(ctx, drawn)),
      last && !page.tour.active ? h("div", { class: "happened", id: "happened", "aria-live": "polite" }, last) : null,
      page.tour.bubble(draw)),
    // a notice floats over the head of the table (the public part), never over your own
    // part or the actions below
    h("div", { class: "main" }, tableEl, actionsEl,
      page.notice ? h("div", { class: "notice", role: "alert", id: "notice" }, page.notice) : null),
    sidePanel(false),
    conn.status === "reconnecting" ? h("div", { class: "banner" }, conn.paused
      ? render(conn.paused.message || conn.paused.reason, names()) : _("Reconnecting…")) : null,
    conn.status === "gone" && page.problem && !(view.over && conn.result) ? h("div", { class: "banner" }, page.problem) : null,
    view.over && conn.result && !page.seenOver && !(WATCH && page.conn.lobby.phase === "lobby") ? endScreen(view) : null,
    page.rulesOpen ? rulesPanel(view.game, MODES[view.game], view.mode, closeRules, draw) : null);
}

function openRules() {
  page.rulesOpen = true;
  draw();
  scrollToMode();
}

function closeRules() { page.rulesOpen = false; draw(); }

export function makeContext(view) {
  const conn = page.conn;
  return {
    view, me: conn.seat, names: names(), colours: colours(), badge, badgeText, _, ngettext, render, content,
    scratch: page.scratch, redraw: draw, say,
    who: (seats) => actorNames({ actors: Array.isArray(seats) ? seats : [] }),
    may: Array.isArray(view.may) ? view.may : [],
    act: (action) => { page.tour.acted(); return page.keeper.intent(action); },
    pic: picture,
  };
}

export function picture(id, name, { size = "", onclick = null, legal = false, chosen = false, key = null } = {}) {
  const label = content("picture", id, name || id);
  const img = h("img", { src: `/pictures/${id}`, alt: label, loading: "lazy", draggable: "false" });
  const attrs = { class: `pic ${size}${legal ? " legal" : ""}${chosen ? " chosen" : ""}`,
                  title: label, "data-picture": id };
  const body = [img, h("span", { class: "caption" }, key ? `${key} · ${label}` : label)];
  return onclick ? h("button", { ...attrs, onclick }, body) : h("div", attrs, body);
}

/** The log and chat panel (morph keeps its input and its scroll; texts rendered once);
 * drawn again only when what it shows changes (a region: not on every delta). */
function sidePanel(inRoom) {
  const conn = page.conn;
  const view = conn.view;
  const log = !inRoom && view && Array.isArray(view.log) ? view.log : [];
  const showLog = !inRoom && page.sideTab === "log";
  const count = showLog ? log.length : conn.chatTotal;
  // The newest lines only (a phone shows a few, a laptop a screenful); none while the
  // phone's panel is closed: every line is one more node to compare on each delta.
  const shown = page.sideOpen || inRoom || window.innerWidth >= 900 ? 40 : 0;
  if (page.sideCount !== count) {
    page.sideCount = count;
    requestAnimationFrame(() => {
      const live = document.getElementById(showLog ? "log" : "chat");
      if (live) live.scrollTop = live.scrollHeight;
    });
  }
  const key = JSON.stringify([inRoom, page.sideOpen, page.sideTab, count, shown, names(),
    showLog && log.length ? JSON.stringify(log[0]) : ""]);
  return region(inRoom ? "side-room" : "side", key, () => {
    const panel = h("div", { class: "side" + (page.sideOpen || inRoom ? "" : " closed") });
    const tab = (id, label) => h("button", { role: "tab", "aria-selected": String(page.sideTab === id),
      id: `tab-${id}`, onclick: () => { page.sideOpen = page.sideTab !== id || !page.sideOpen; page.sideTab = id; draw(); } }, label);
    const tabs = [];
    if (!inRoom) tabs.push(tab("log", _("Log")));
    tabs.push(tab("chat", _("Chat")));
    const input = h("input", { id: "chat-input", maxlength: 500, "aria-label": _("Chat"),
                               placeholder: _("Say something…") });
    const form = h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const typed = e.currentTarget.querySelector("input");
      if (typed.value.trim()) conn.say(typed.value.trim());
      typed.value = "";
    } }, input, h("button", { type: "submit" }, _("Send")));
    const lines = !shown ? [] : showLog ? logTexts(log).slice(-shown).map((t) => h("p", {}, t))
      : conn.chat.slice(-shown).map(chatLine);
    const box = h("div", { class: showLog ? "log" : "chat", id: showLog ? "log" : "chat", "aria-live": "polite" }, lines);
    return clear(panel, h("div", { class: "tabs", role: "tablist" }, tabs), box, showLog ? null : form);
  });
}

/** Each log line rendered once per game (the log only grows). */
function logTexts(log) {
  const cache = page.logCache;
  const first = JSON.stringify(log[0] ?? null);
  if (!cache || cache.first !== first || cache.names !== names().join("\u0000") || cache.texts.length > log.length) {
    page.logCache = { first, names: names().join("\u0000"), texts: [] };
  }
  const texts = page.logCache.texts;
  for (let i = texts.length; i < log.length; i++) texts.push(render(log[i], names()));
  return texts;
}

function logLine(line) {
  return h("p", {}, render(line, names()));
}

function chatLine(c) {
  return h("p", {}, Number.isInteger(c.seat) ? badge(c.seat) : null, " ",
    h("b", {}, c.sender || ""), ": ", c.message ? render(c.message, names()) : c.text);
}

// Who won, as the host's verdict says it (lanplay/verdict.py makes it; the window reads
// the same): the headline for this page's role, the game's reason, whom to mark.
function outcome(conn, winners) {
  const verdict = conn.result.verdict && typeof conn.result.verdict === "object" ? conn.result.verdict : {};
  const lines = verdict.lines && typeof verdict.lines === "object" ? verdict.lines : {};
  const role = conn.seat === null ? "watcher" : winners.includes(conn.seat) ? "winner" : "player";
  return {
    headline: lines[role] ? render(lines[role], names()) : _("The game is over."),
    reason: verdict.reason ? render(verdict.reason, names()) : "",
    marked: Array.isArray(verdict.marked) ? verdict.marked : [],
    together: verdict.together === true,
  };
}

function endScreen(view) {
  const conn = page.conn;
  const result = conn.result.result || {};
  const winners = Array.isArray(result.winners) ? result.winners : [];
  const scores = Array.isArray(result.scores) ? result.scores : [];
  const said = outcome(conn, winners);
  const rows = names().map((n, i) => ({ i, n, s: scores[i] }))
    .sort((a, b) => (typeof b.s === "number" ? b.s : 0) - (typeof a.s === "number" ? a.s : 0));
  const fair = fairCheck(conn);
  let fairText;
  if (!fair) {
    fairText = _("Waiting for the host's audit…");
  } else if (fair.problems.length) {
    fairText = _("This page found a problem: {problem}.", { problem: fair.problems[0] });
  } else if (conn.seat === null) {
    fairText = fair.shuffle === "ok" ? _("Checked here: the shuffle came from everyone's contributions; the full rules check ran on the laptops with lanplay.")
      : _("This page joined after the shuffle, so it cannot vouch for it; the full rules check ran on the laptops with lanplay.");
  } else if (fair.shuffle === "ok") {
    fairText = _("Checked here: the shuffle came from everyone and your moves are the ones played; the full rules check ran on the laptops with lanplay.");
  } else {
    fairText = _("Checked here: your moves are the ones played (this page did not see the shuffle begin); the full rules check ran on the laptops with lanplay.");
  }
  const standin = fair && fair.standin ? ngettext("A stand-in bot made {n} move for you while you were away.",
    "A stand-in bot made {n} moves for you while you were away.", fair.standin) : null;
  return h("div", { class: "banner end-banner", id: "end" }, h("div", { class: "card-box narrow stack end-box" },
    h("h2", { id: "verdict" }, said.headline),
    said.reason ? h("p", { id: "reason" }, said.reason) : null,
    h("ol", { class: "results" }, rows.map((r) => h("li", { class: said.marked.includes(r.i) ? "win" : "" },
      badge(r.i), h("span", {}, r.n), said.marked.includes(r.i) ? h("span", { class: "tag ok" }, _("winner")) : null,
      h("span", { class: "score" }, typeof r.s === "number" && !said.together ? String(Number(r.s.toFixed(2))) : "")))),
    h("p", { class: "fair" + (fair && fair.problems.length ? " bad" : ""), id: "fair" }, fairText),
    standin ? h("p", { class: "muted" }, standin) : null,
    fair && fair.seed !== null ? h("p", { class: "muted" }, _("The seed: {seed}", { seed: String(fair.seed) })) : null,
    conn.status === "gone" ? h("p", { class: "tag warn", id: "closed" }, page.problem || _("The host closed the room.")) : null,
    h("div", { class: "row" },
      h("button", { class: "primary", id: "to-room", onclick: () => { page.seenOver = true; draw(); } }, _("See the table")),
      // the room only while it is there: after the host closed it, nothing is behind it
      conn.status === "welcomed" && conn.lobby && conn.lobby.phase !== "playing"
        ? h("button", { id: "back-to-room", onclick: () => { page.seenOver = true; page.showRoom = true; draw(); } }, _("Back to the room")) : null)));
}

function autoplay() {
  const conn = page.conn;
  const view = conn && conn.view;
  if (!view || !Array.isArray(view.may) || !view.may.length || page.autoAt === conn.stateId) return;
  const simple = view.may.filter((t) => !t.choose);
  if (!simple.length) return;
  page.autoAt = conn.stateId;
  const pick = simple[Math.floor(Math.random() * simple.length)];
  page.keeper.intent({ ...pick });
}

// --- drawing ------------------------------------------------------------------------

/** A phone's Log and Chat: the bar's buttons open the panel over the table's foot. */
function sideToggle(id, label) {
  const open = page.sideOpen && page.sideTab === id;
  return h("button", { class: "side-toggle", id: `open-${id}`, "aria-pressed": String(open),
    onclick: () => { page.sideOpen = !open; page.sideTab = id; draw(); } }, label);
}

function topBar() {
  const conn = page.conn;
  const lobby = conn && conn.lobby;
  const title = lobby ? [gameName(lobby.game), h("span", { class: "host" }, ` · ${lobby.host_name}`)] : "lanplay";
  const clock = conn && conn.clock ? h("span", { class: "clock", id: "clock" }, clockText()) : null;
  return h("div", { class: "bar" },
    h("span", { class: "title" }, title), clock,
    conn && conn.seat === null && conn.status === "welcomed" ? h("span", { class: "tag" }, _("Watching")) : null,
    conn && conn.view && page.inGame && !WATCH ? [sideToggle("log", _("Log")), sideToggle("chat", _("Chat"))] : null,
    conn && conn.view && !WATCH ? h("button", { id: "rules-open", "aria-pressed": String(page.rulesOpen),
      onclick: () => (page.rulesOpen ? closeRules() : openRules()) }, _("Rules")) : null,
    conn && conn.view && lobby && lobby.phase !== "playing"
      ? h("button", { id: "room-toggle", onclick: () => { page.showRoom = !page.showRoom; draw(); } },
        page.showRoom ? _("Table") : _("Room")) : null);
}

/** The guide's frame round the piece its step names (on the live page: a region the
 * redraw left as it was keeps its frame right too). */
function frameSpot(id) {
  for (const el of document.querySelectorAll(".teach-spot")) if (el.id !== id) el.classList.remove("teach-spot");
  const el = id ? document.getElementById(id) : null;
  if (el && !el.classList.contains("teach-spot")) el.classList.add("teach-spot");
}

export function draw() {
  const conn = page.conn;
  let body;
  page.spotId = null;
  // The host closed the room right after the game (a headless host's last game): the
  // result stays on screen, with the host's sentence, rather than the join screen.
  const ended = conn && conn.status === "gone" && conn.gone === "bye" && conn.view && conn.view.over && conn.result;
  if (page.asking) {
    body = askScreen();
  } else if (page.lost) {
    body = lostScreen();
  } else if (ended) {
    body = gameScreen();
  } else if (!conn || conn.status === "gone" || (conn.status !== "welcomed" && !conn.lobby && conn.status !== "reconnecting")) {
    if (conn && conn.status !== "gone" && !page.problem) {
      body = h("div", { class: "screen" }, h("p", {}, _("Joining…")));
    } else {
      body = joinScreen();
    }
  } else if (conn.view && conn.lobby && (conn.lobby.phase === "playing" || !page.showRoom)
             && !(conn.lobby.phase === "lobby" && !conn.view.over)) {
    body = gameScreen();
  } else {
    body = roomScreen();
  }
  page.inGame = body.classList.contains("game");
  if (conn && conn.lobby && conn.lobby.phase === "playing") page.showRoom = false;
  const focused = document.activeElement && document.activeElement.id;
  const fresh = h("div", { id: "app", class: "app" }, topBar(), body);
  morph(app, fresh);
  frameSpot(page.inGame ? page.spotId : null);
  markScrolls();
  page.shownState = conn ? conn.stateId : -1;  // the view on screen (a frame may hold the next)
  if (focused && document.activeElement.id !== focused) {
    const again = document.getElementById(focused);
    if (again) again.focus();
  }
}

document.addEventListener("keydown", (e) => {
  if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) {
    if (e.key === "Escape") e.target.blur();
    return;
  }
  if (e.key === "Enter") {
    const input = document.getElementById("chat-input");
    if (input) { input.focus(); e.preventDefault(); } else if (page.conn && page.conn.view) {
      page.sideOpen = true; page.sideTab = "chat"; draw();
      const again = document.getElementById("chat-input");
      if (again) again.focus();
      e.preventDefault();
    }
    return;
  }
  if (e.key === "Escape") {
    page.sideOpen = false; page.popup = null; page.scratch.popup = null; page.rulesOpen = false; draw(); return;
  }
  if (e.key === "F1" && page.conn && page.conn.view) { e.preventDefault(); openRules(); return; }
  const key = page.scratch.keys && page.scratch.keys[e.key];
  if (key) { e.preventDefault(); key(); }
});

async function boot() {
  await Promise.all([load(chooseLanguage()), loadTours(), aboutRoom()]);
  forgetNotes();  // a note of a game that never ended, kept past its day
  const carried = carriedHere();
  const held = store.get("token");
  // The room moved here from another laptop's page. An address alone never takes the
  // place of a seat this browser holds here (a link from anywhere can carry a fragment):
  // only where it holds none, or the same, does the page go on by itself.
  if (carried && (!held || !carried.token || carried.token === held)) {
    if (carried.token && !carried.spectate) store.set("token", carried.token);
    keepNotes(carried.notes);
    page.sideOpen = WATCH;
    startConnection({ name: carried.name, colour: carried.colour || COLOURS[0],
                      spectate: Boolean(carried.spectate),
                      password: typeof carried.password === "string" ? carried.password : null },
                    carried);
    return;
  }
  if (WATCH) {
    page.sideOpen = true;
    startConnection({ name: params.get("name") || "TV", colour: "", spectate: true, password: null });
    return;
  }
  // The seat this browser holds comes back by itself (a reload, a phone's browser
  // restarted), unless another tab of it plays that seat now: then this one asks.
  const token = store.get("token");
  if (token && store.get("name")) {
    if (await tabs.elsewhere(token)) page.asking = true;
    else resume();
  }
  draw();
}

boot();
