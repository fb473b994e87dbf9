// Ranagedon: the pond drawn to scale; tap one of your free frogs, then press and
// pull on the pond to aim (the frog leaves the other way, farther the farther you
// pull), or use the sliders and the arrow keys; Jump! sends it. The host simulates
// the jump; the page never predicts a landing.

import { h, ink, region } from "../dom.js";
import { players, templates } from "./index.js";

const NS = "http://www.w3.org/2000/svg";
const FILL = { green: "#2e9b57", red: "#c8453a" };
const RING = { blue: "#0072B2", magenta: "#CC79A7", yellow: "#F0E442" };
const ABILITY = { double: "double jump", dive: "diving (slides first)", poison: "poisonous" };

/** One line per look that carries an ability, read off the frogs (as the window's legend). */
function legendRows(ctx, frogs) {
  const { _ } = ctx;
  const words = { double: _("double jump"), dive: _("diving (slides first)"), poison: _("poisonous") };
  const by = (key) => {
    const out = new Map();
    for (const f of frogs) {
      if (!out.has(f[key])) out.set(f[key], new Set());
      out.get(f[key]).add(f.ability ?? null);
    }
    return out;
  };
  const single = (m) => [...m.values()].every((a) => a.size === 1) && [...m.values()].some((a) => !a.has(null));
  const borders = by("border");
  const colours = by("colour");
  const looks = { magenta: _("Magenta border"), blue: _("Blue border"), yellow: _("Yellow border"),
    red: _("Red frogs"), green: _("Green frogs") };
  const rows = [];
  const pick = single(borders) ? ["border", ["magenta", "blue", "yellow"], borders]
    : single(colours) ? ["colour", ["red", "green"], colours] : null;
  if (pick) {
    for (const look of pick[1]) {
      const ability = [...(pick[2].get(look) || new Set([null]))][0];
      if (!ability || !ABILITY[ability]) continue;
      const icon = svg("svg", { viewBox: "-10 -10 20 20", class: "legend-frog" },
        svg("circle", { r: 9, fill: pick[0] === "border" ? RING[look] : "#ccc" }),
        svg("circle", { r: 6, fill: pick[0] === "colour" ? FILL[look] : "#777" }));
      rows.push(h("li", {}, icon, _("{look}: {ability}", { look: looks[look], ability: words[ability] })));
    }
  }
  if (!rows.length) rows.push(h("li", {}, _("No abilities in this game")));
  return h("ul", { class: "legend", id: "legend", "aria-label": _("Abilities") }, rows);
}

/** The owner of a one-player side: its seat (its badge goes on the frog), else null. */
function ownerOf(view, frog) {
  const side = (view.sides || [])[frog.side];
  return Array.isArray(side) && side.length === 1 ? side[0] : null;
}

/** The last jump as the page draws it: the arc from where the frog left to where it came
 * down (bulging up the screen, as the window's frog grows with its height), then the
 * slide to where it rests. Null when the view holds no jump to show. */
function flightOf(view) {
  const last = view.last;
  if (!last || !Array.isArray(last.start) || !["jump", "dive"].includes(last.kind)) return null;
  const [sx, sy] = last.start;
  if (!Number.isFinite(sx) || !Number.isFinite(sy)) return null;
  const moved = (view.frogs || []).find((f) => f.id === last.frog);
  const end = moved && Number.isFinite(moved.x) && Number.isFinite(moved.y) ? [moved.x, moved.y] : null;
  const tr = last.trajectory && typeof last.trajectory === "object" ? last.trajectory : {};
  const to = Array.isArray(tr.to) && Number.isFinite(tr.to[0]) && Number.isFinite(tr.to[1])
    ? [tr.to[0] / 100, tr.to[1] / 100] : end;
  if (!to) return null;
  const ctrl = [(sx + to[0]) / 2, (sy + to[1]) / 2 - Math.hypot(to[0] - sx, to[1] - sy) * 0.35];
  const height = Number.isFinite(tr.height) ? tr.height / 100 : 0;
  return { n: last.n, frog: last.frog, start: [sx, sy], ctrl, to, end, height };
}

/** The last move on the pond: its path from where the frog was to where it came down, and
 * where it rests now, with the outcome beside it (a jump that flipped a frog shows it). */
function lastMove(flight, R) {
  if (!flight) return null;
  const { start: [sx, sy], ctrl: [mx, my], to, end } = flight;
  return svg("g", { class: "last-move", id: "last-move", "data-n": flight.n, "data-anim": flight.n },
    svg("path", { d: `M ${sx} ${sy} Q ${mx} ${my} ${to[0]} ${to[1]}${end ? ` L ${end[0]} ${end[1]}` : ""}`,
      fill: "none", stroke: "#FFD866", "stroke-width": 3, "stroke-dasharray": "8 6", class: "flight" }),
    svg("circle", { cx: sx, cy: sy, r: R * 0.5, fill: "none", stroke: "#FFD866", "stroke-width": 2, "stroke-dasharray": "3 3" }),
    end ? svg("circle", { cx: end[0], cy: end[1], r: R + 5, fill: "none", stroke: "#FFD866", "stroke-width": 4, class: "landed" }) : null);
}

const ARC_SAMPLES = 12;

/** The jumper's flight as Web Animation frames: along the drawn arc, growing at its
 * height, then sliding to where it rests, as the window's frog does
 * (ui/tables/ranagedon/flight.py: the same pace, 320 to 900 ms by the length of the
 * flight). The frames are offsets from where the frog rests. Null when there is nothing
 * to fly (no landing on the table). */
export function flightFrames(flight) {
  if (!flight.end) return null;
  const [sx, sy] = flight.start;
  const [cx, cy] = flight.ctrl;
  const [tx, ty] = flight.to;
  const [ex, ey] = flight.end;
  const arc = Math.hypot(tx - sx, ty - sy);
  const slide = Math.hypot(ex - tx, ey - ty);
  const total = arc + slide;
  // The arc's share of the time; a frog that jumps straight up (and comes down flipped
  // where it was, or is pushed from there) still hops where all can see it.
  const along = total < 0.5 ? 1 : Math.max(0.35, arc / total);
  const grow = Math.min(0.6, 0.15 + flight.height / 40);
  const frames = [];
  for (let i = 0; i < ARC_SAMPLES; i++) {
    const t = i / (ARC_SAMPLES - 1);
    const u = 1 - t;
    const x = u * u * sx + 2 * u * t * cx + t * t * tx;
    const y = u * u * sy + 2 * u * t * cy + t * t * ty;
    frames.push({ transform: `translate(${x - ex}px, ${y - ey}px) scale(${1 + grow * Math.sin(Math.PI * t)})`,
                  offset: along * t });
  }
  const rest = { transform: "translate(0px, 0px) scale(1)", offset: 1 };
  if (along < 1) frames.push(rest);
  else frames[frames.length - 1] = rest;
  return { frames, duration: Math.round(Math.min(900, Math.max(320, 300 + total * 1.3))) };
}

/** The jumper flies: `frog` is the new element the page puts in (its `data-anim` names
 * the jump), drawn where it rests. */
function hop(frog, flight) {
  if (typeof frog.animate !== "function") return;
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const flying = flightFrames(flight);
  if (flying) frog.animate(flying.frames, { duration: flying.duration, easing: "linear" });
}

/** The frog's element, flying in when it is the jumper of a jump the page just saw. */
function frogAt(f, flight, flies, el) {
  if (flies && f.id === flight.frog) hop(el, flight);
  return el;
}

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

export function draw(ctx) {
  const { view, _, scratch } = ctx;
  const W = (view.table && view.table.width) || 800;
  const H = (view.table && view.table.height) || 800;
  const R = (view.sizes && view.sizes.R) || 16;
  const ring = (view.sizes && view.sizes.ring) || [11, 16];
  const shots = [...templates(ctx, "jump"), ...templates(ctx, "dive")];
  const byFrog = new Map();
  for (const t of shots) if (!byFrog.has(t.frog)) byFrog.set(t.frog, t);
  if (scratch.frog !== undefined && !byFrog.has(scratch.frog)) scratch.frog = undefined;
  if (scratch.frog === undefined && byFrog.size === 1) scratch.frog = [...byFrog.keys()][0];
  const frogs = (view.frogs || []).slice().sort((a, b) => a.level - b.level);
  // A jump the page saw happen flies (not the one a page opened on, nor one drawn again).
  const flight = flightOf(view);
  const flies = flight !== null && scratch.hopped !== undefined && scratch.hopped !== flight.n;
  scratch.hopped = flight ? flight.n : null;
  const chosen = frogs.find((f) => f.id === scratch.frog);
  const pad = view.pad || { x: W / 2, y: H / 2, r: 60 };
  if (chosen && scratch.theta === undefined) {
    scratch.theta = Math.atan2(chosen.y - pad.y, chosen.x - pad.x);  // press the far side: it leaves for the pad
    scratch.s = 0.5;
    scratch.r = (ring[0] + ring[1]) / 2;
  }
  // Zoomed to where the frogs and the pad are (the table is large, the frogs small).
  const placed = frogs.filter((f) => Number.isFinite(f.x) && Number.isFinite(f.y));
  const xs = [pad.x - pad.r, pad.x + pad.r, ...placed.map((f) => f.x)];
  const ys = [pad.y - pad.r, pad.y + pad.r, ...placed.map((f) => f.y)];
  const margin = 4 * R;
  let x0 = Math.max(0, Math.min(...xs) - margin);
  let y0 = Math.max(0, Math.min(...ys) - margin);
  let x1 = Math.min(W, Math.max(...xs) + margin);
  let y1 = Math.min(H, Math.max(...ys) + margin);
  const side = Math.max(x1 - x0, y1 - y0);
  x0 = Math.max(0, Math.min(W - side, (x0 + x1 - side) / 2));
  y0 = Math.max(0, Math.min(H - side, (y0 + y1 - side) / 2));
  x1 = x0 + side;
  y1 = y0 + side;
  const pond = svg("svg", { viewBox: `${x0} ${y0} ${x1 - x0} ${y1 - y0}`, class: "pond", id: "pond", role: "img",
                            "aria-label": _("The pond") },
  svg("rect", { x: 0, y: 0, width: W, height: H, rx: 24, fill: "#1d4e63" }),
  svg("circle", { cx: pad.x, cy: pad.y, r: pad.r, fill: "#d9b84a", stroke: "#8a6d1c", "stroke-width": 3 }),
  lastMove(flight, R),
  frogs.filter((f) => f.x !== null && f.x !== undefined).map((f) => frogAt(f, flight, flies, svg("g", {
    class: "frog", "data-frog": f.id, opacity: f.covered ? 0.55 : 1,
    "data-anim": flight && f.id === flight.frog ? `hop-${flight.n}` : null },
  svg("circle", { cx: f.x, cy: f.y, r: R, fill: RING[f.border] || "#ccc",
                  stroke: byFrog.has(f.id) ? "#fff" : "#000", "stroke-width": byFrog.has(f.id) ? 3 : 1 }),
  svg("circle", { cx: f.x, cy: f.y, r: R * (ring[0] / ring[1]), fill: FILL[f.colour] || "#777" }),
  badgeOn(ctx, view, f, R),
  f.id === scratch.frog ? svg("circle", { cx: f.x, cy: f.y, r: R + 6, fill: "none", stroke: "#8fd0f5", "stroke-width": 4 }) : null))),
  chosen ? aim(chosen, scratch, R) : null);
  pond.onclick = (e) => e.stopPropagation();  // the pond answers presses itself (below)
  pond.onpointerdown = (e) => {
    const pond = e.currentTarget;  // the live pond (the page morphs each redraw into it)
    const p = toPond(pond, e);
    const hit = frogs.find((f) => byFrog.has(f.id) && Math.hypot(f.x - p.x, f.y - p.y) <= R + 4);
    if (hit && hit.id !== scratch.frog) {
      scratch.frog = hit.id;
      scratch.theta = undefined;
      ctx.redraw();
      return;
    }
    if (!chosen) {
      const other = frogs.find((f) => Math.hypot(f.x - p.x, f.y - p.y) <= R + 4);
      if (other) ctx.say(why(ctx, null, other));
      return;
    }
    pond.setPointerCapture(e.pointerId);
    const move = (ev) => {
      const q = toPond(pond, ev);
      const dx = q.x - chosen.x;
      const dy = q.y - chosen.y;
      scratch.theta = Math.atan2(dy, dx);
      scratch.s = Math.max(0, Math.min(1, (Math.hypot(dx, dy) - R) / (5 * R)));
      const arrow = pond.querySelector(".aim");
      if (arrow) arrow.replaceWith(aim(chosen, scratch, R));
      const label = document.getElementById("aim-text");
      if (label) label.textContent = aimText(ctx, scratch);
    };
    move(e);
    pond.addEventListener("pointermove", move);
    pond.addEventListener("pointerup", () => { pond.removeEventListener("pointermove", move); ctx.redraw(); }, { once: true });
  };
  const scores = view.scores || [];
  const pub = [players(ctx, { turn: Number.isInteger(view.turn) ? [view.turn] : view.actors || [], key: JSON.stringify(scores),
    extra: (i) => h("span", { class: "muted" }, ` ${scores[i] ?? 0}`) }),
  region("legend-zone", JSON.stringify((view.frogs || []).map((f) => [f.colour, f.border, f.ability ?? null])),
    () => h("div", { class: "zone legend-zone" }, legendRows(ctx, view.frogs || [])))];
  const actions = [];
  const shot = chosen ? byFrog.get(chosen.id) : null;
  if (shot) {
    const send = () => {
      const action = { type: shot.type, frog: shot.frog, theta: scratch.theta, s: scratch.s };
      if (shot.choose.r) action.r = Math.max(shot.choose.r.min, Math.min(shot.choose.r.max, scratch.r));
      scratch.theta = undefined;
      ctx.act(action);
    };
    const strength = h("input", { type: "range", min: 0, max: 1, step: 0.01, value: scratch.s, id: "strength",
      "aria-label": _("Strength"), oninput: (e) => { scratch.s = Number(e.target.value); ctx.redraw(); } });
    const angle = h("input", { type: "range", min: -Math.PI, max: Math.PI, step: 0.01, value: scratch.theta, id: "angle",
      "aria-label": _("Direction"), oninput: (e) => { scratch.theta = Number(e.target.value); ctx.redraw(); } });
    actions.push(h("label", { class: "field" }, h("span", {}, _("Direction")), angle),
      h("label", { class: "field" }, h("span", {}, _("Strength")), strength),
      h("span", { id: "aim-text", class: "muted" }, aimText(ctx, scratch)),
      h("button", { class: "primary big", id: "jump", "data-type": shot.type, onclick: send },
        shot.type === "dive" ? _("Dive!") : _("Jump!")));
    scratch.keys = { " ": send,
      ArrowLeft: () => { scratch.theta -= 0.05; ctx.redraw(); }, ArrowRight: () => { scratch.theta += 0.05; ctx.redraw(); },
      ArrowUp: () => { scratch.s = Math.min(1, scratch.s + 0.05); ctx.redraw(); },
      ArrowDown: () => { scratch.s = Math.max(0, scratch.s - 0.05); ctx.redraw(); } };
  } else {
    scratch.keys = {};
  }
  const clusters = view.your_side !== null && view.clusters ? view.clusters[view.your_side] || [] : [];
  for (const t of templates(ctx, "deploy")) {
    if (!Number.isInteger(t.cluster)) continue;
    const name = clusters[t.cluster] ? clusters[t.cluster].name : String(t.cluster);
    const word = { Block: _("Block"), Line: _("Line"), Wedge: _("Wedge") }[name] || name;
    actions.push(h("button", { class: "primary", "data-cluster": t.cluster, onclick: () => ctx.act({ ...t }) },
      _("Deploy: {cluster}", { cluster: word })));
  }
  let status = null;
  const stop = templates(ctx, "stop")[0];
  if (templates(ctx, "deploy").length) status = _("Deploy your frogs: choose a formation.");
  else if (stop && shots.length) status = _("This frog may jump once more: aim and Jump!, or Stop.");
  else if (shots.length) {
    status = chosen ? _("Aim: press and pull back on the pond (the frog jumps the other way), then Jump!")
      : _("Tap one of your lit frogs.");
  }
  let waiting = null;
  if (view.phase === "deploy") waiting = _("Waiting for {names} to deploy.", { names: ctx.who(view.actors) });
  else if (Number.isInteger(view.turn)) waiting = _("Waiting for {name} to jump.", { name: ctx.who([view.turn]) });
  return { public: pub, private: h("div", { class: "zone pond-box", id: "board" }, pond), actions,
           handled: new Set(["jump", "dive", "deploy"]), status, waiting, spots: SPOTS, layout: "board" };
}

export const SPOTS = { board: "board", plates: "legend" };

/** Why a press on a frog did nothing: whose it is, or that it has jumped. */
export function why(ctx, piece, frog = null) {
  const { view, _ } = ctx;
  const found = frog || (piece && (view.frogs || []).find((f) => String(f.id) === piece.dataset.frog));
  if (!found || !ctx.may.length) return null;
  if (found.side !== view.your_side) return _("That frog is not yours: yours are the lit ones.");
  return _("That frog cannot jump now: it is covered or has no turn left.");
}

/** The owner's badge on a frog (a disc in the player's colour with the badge's letters),
 * the rulebook's colour round it: one person, one colour, everywhere. */
function badgeOn(ctx, view, f, R) {
  const owner = ownerOf(view, f);
  if (owner === null) return f.level ? svg("text", { x: f.x, y: f.y + 5, "text-anchor": "middle", "font-size": 14, fill: "#fff" }, String(f.level)) : null;
  const colour = ctx.colours[owner] || "#888";
  return svg("g", { class: "owner", "data-seat": owner },
    svg("circle", { cx: f.x, cy: f.y, r: R * 0.45, fill: colour, stroke: "#111", "stroke-width": 1 }),
    svg("text", { x: f.x, y: f.y + R * 0.2, "text-anchor": "middle", "font-size": R * 0.6, "font-weight": "bold",
      fill: ink(colour) }, ctx.badgeText(owner)));
}

function aimText(ctx, scratch) {
  return ctx._("{pct}% strength", { pct: Math.round(100 * (scratch.s || 0)) });
}

function aim(frog, scratch, R) {
  const away = scratch.theta + Math.PI;
  const len = R + 10 + 120 * (scratch.s || 0);
  const x2 = frog.x + Math.cos(away) * len;
  const y2 = frog.y + Math.sin(away) * len;
  const px = frog.x + Math.cos(scratch.theta) * R;
  const py = frog.y + Math.sin(scratch.theta) * R;
  return svg("g", { class: "aim" },
    svg("line", { x1: frog.x, y1: frog.y, x2, y2, stroke: "#fff", "stroke-width": 5, "stroke-linecap": "round" }),
    svg("circle", { cx: x2, cy: y2, r: 7, fill: "#fff" }),
    svg("circle", { cx: px, cy: py, r: 6, fill: "#E69F00", stroke: "#000" }));
}

function toPond(pond, e) {
  const m = pond.getScreenCTM();
  const p = pond.createSVGPoint();
  p.x = e.clientX;
  p.y = e.clientY;
  const q = m ? p.matrixTransform(m.inverse()) : p;
  return { x: q.x, y: q.y };
}
