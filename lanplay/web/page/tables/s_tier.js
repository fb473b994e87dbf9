// S-tier, all three modes: the tier list, the pictures, and the leader's note
// written here and kept in this browser (keeper.js). Tap a picture, then a tier.

import { h } from "../dom.js";
import { players, templates } from "./index.js";

const TIERS = ["S", "A", "B", "C", "D"];
const TIER_COLOURS = ["#FF7F7F", "#FFBF7F", "#FFDF7F", "#FFFF7F", "#BFFF7F"];

function nameOf(view, id) {
  for (const p of view.pictures || []) if (p && p.id === id) return p.name;
  for (const c of view.cards || []) {
    if (c[0] === id) return c[1];
    if (c[2] === id) return c[3];
  }
  return id;
}

function tierRows(ctx, place, { onTier = null, drop = () => false, id = "tiers" } = {}) {
  return h("div", { class: "tiers", id }, TIERS.map((letter, t) => h("div", {
    class: "tier" + (drop(t) ? " drop" : ""), "data-tier": t,
    onclick: drop(t) && onTier ? () => onTier(t) : null },
  h("span", { class: "letter", style: { background: TIER_COLOURS[t] } }, letter),
  h("div", { class: "slot" }, place(t)))));
}

/** The note editor of a `commit` template (`choose.commitment.note` says the form). */
function noteEditor(ctx, template) {
  const { view, _, scratch } = ctx;
  const form = template.choose.commitment.note;
  const hinted = Boolean(template.choose.hint);
  const note = scratch.note || (scratch.note = { tiers: form.form === "tiering"
    ? form.pictures.map(() => null) : [null, null, null, null, null], pick: null, hint: null });
  const send = () => {
    const action = { type: "note", tiers: note.tiers.slice() };
    if (hinted) action.hint = note.hint;
    scratch.note = null;
    ctx.act(action);
  };
  if (form.form === "tiering") {
    const counts = TIERS.map((_t, t) => note.tiers.filter((x) => x === t).length);
    const ok = note.tiers.every((x) => x !== null)
      && counts.every((n) => n >= form.min_per_tier && n <= form.max_per_tier);
    return [h("div", { class: "zone", id: "note" },
      h("div", { class: "label" }, _("Your note: a tier for each picture (each tier {low} to {high} times)",
        { low: form.min_per_tier, high: form.max_per_tier })),
      form.pictures.map((id, i) => h("div", { class: "row", "data-picture": id }, ctx.pic(id, nameOf(view, id), { size: "small" }),
        TIERS.map((letter, t) => h("button", { "aria-pressed": String(note.tiers[i] === t), "data-tier": t,
          class: note.tiers[i] === t ? "primary" : "",
          onclick: () => { note.tiers[i] = t; ctx.redraw(); } }, letter))))),
    h("button", { class: "primary big", id: "write-note", disabled: !ok, onclick: send }, _("Write the note"))];
  }
  const placed = new Set(note.tiers.filter(Boolean));
  const used = (faces) => faces.some((f) => placed.has(f));
  const pool = form.choices.flatMap((faces) => used(faces) ? [] : faces);
  const empty = note.tiers.filter((x) => x === null).length;
  const ok = empty === form.empty && (!hinted || (Number.isInteger(note.hint) && note.tiers[note.hint]));
  const place = (t) => {
    const id = note.tiers[t];
    if (!id) return null;
    return [ctx.pic(id, nameOf(view, id), { size: "small", chosen: note.pick === id,
      onclick: () => { note.tiers[t] = null; if (note.hint === t) note.hint = null; ctx.redraw(); } }),
    hinted ? h("button", { class: note.hint === t ? "primary" : "", "aria-pressed": String(note.hint === t), "data-hint": t,
      onclick: (e) => { e.stopPropagation(); note.hint = t; ctx.redraw(); } }, _("Show this one")) : null];
  };
  return [h("div", { class: "zone", id: "note" },
    h("div", { class: "label" }, form.empty ? _("Your note: tap a picture, then its tier; leave one tier empty.")
      : _("Your note: tap a picture, then its tier.")),
    tierRows(ctx, place, { id: "note-tiers", drop: () => note.pick !== null,
      onTier: (t) => { note.tiers[t] = note.pick; note.pick = null; ctx.redraw(); } }),
    h("div", { class: "pics", id: "note-pool" }, pool.map((id) => ctx.pic(id, nameOf(view, id), {
      size: "small", legal: true, chosen: note.pick === id,
      onclick: () => { note.pick = note.pick === id ? null : id; ctx.redraw(); } })))),
  h("button", { class: "primary big", id: "write-note", disabled: !ok, onclick: send }, _("Write the note"))];
}

function trackText(ctx, view) {
  const track = view.track || {};
  if (track.star === undefined) return "";
  return view.mode === "cooperative"
    ? ctx._("Green token {green}, red token {red}, star at {star}", track)
    : ctx._("Green {green}, Red {red}: the star at {star}", track);
}

export function draw(ctx) {
  const { view, _, scratch } = ctx;
  const mode = view.mode;
  const topic = view.topic ? ctx.content("topic", view.topic.id, view.topic.text) : null;
  const handled = new Set(["commit", "move", "take", "place"]);
  const pub = [players(ctx, { turn: view.actors || [] }),
    h("div", { class: "zone" }, h("div", { class: "label" }, _("Round {n}", { n: view.round }), " · ",
      trackText(ctx, view)),
    h("b", { id: "topic" }, topic || _("The topic is hidden while the note is written.")))];
  const actions = [];
  let priv = null;
  let status = null;
  const commit = templates(ctx, "commit")[0];
  if (commit) {
    const [editor, button] = noteEditor(ctx, commit);
    priv = editor;
    actions.push(button);
    status = _("You lead: write your note.");
  } else {
    scratch.note = null;
  }
  const moves = templates(ctx, "move");
  const takes = templates(ctx, "take");
  const pick = scratch.pick;
  const pickable = new Set([...moves, ...takes].map((t) => t.picture));
  if (pick && !pickable.has(pick)) scratch.pick = null;
  const choose = (id) => () => { scratch.pick = scratch.pick === id ? null : id; ctx.redraw(); };
  const toTier = (t) => {
    const found = [...moves, ...takes].find((x) => x.picture === scratch.pick && x.tier === t);
    scratch.pick = null;
    if (found) ctx.act({ ...found });
  };
  const droppable = (t) => Boolean(scratch.pick) && [...moves, ...takes].some((x) => x.picture === scratch.pick && x.tier === t);
  if (mode === "cooperative") {
    const board = view.board || [];
    const onBoard = new Set(board.filter(Boolean));
    const pics = view.pictures || [];
    const place = (t) => board[t] ? ctx.pic(board[t], nameOf(view, board[t]), { size: "small",
      legal: pickable.has(board[t]), chosen: scratch.pick === board[t],
      onclick: pickable.has(board[t]) ? choose(board[t]) : null }) : null;
    if (!commit) {
      if (view.note) {
        pub.push(h("div", { class: "zone" }, h("div", { class: "label" }, _("Your note")),
          tierRows(ctx, (t) => view.note[t] ? ctx.pic(view.note[t], nameOf(view, view.note[t]), { size: "small" }) : null, { id: "my-note" })));
      }
      priv = h("div", { class: "stack" }, h("div", { class: "label" }, _("The board (attempt {n})", { n: view.attempt })),
        tierRows(ctx, place, { id: "board", drop: droppable, onTier: toTier }),
        h("div", { class: "pics", id: "pool" }, pics.filter((p) => !onBoard.has(p.id)).map((p) => ctx.pic(p.id, p.name, {
          legal: pickable.has(p.id), chosen: scratch.pick === p.id, onclick: pickable.has(p.id) ? choose(p.id) : null }))),
        scratch.pick && moves.some((x) => x.picture === scratch.pick && x.tier === null)
          ? h("button", { id: "back-to-pool", onclick: () => toTier(null) }, _("Back to the pool")) : null,
        h("p", { class: "muted" }, ngLocked(ctx, view)));
      if (moves.length) status = scratch.pick ? _("Now tap a tier.") : _("Arrange the board together, then lock in.");
    }
  } else if (mode === "competitive") {
    const pics = view.pictures || [];
    const dealt = ctx.me !== null ? (view.dealt || [])[ctx.me] : null;
    if (!commit) {
      pub.push(h("div", { class: "pics" }, pics.map((p) => ctx.pic(p.id, p.name, { size: "small", chosen: p.id === dealt }))));
      const places = templates(ctx, "place");
      priv = h("div", { class: "zone", id: "mine" },
        dealt ? ctx.pic(dealt, nameOf(view, dealt), { size: "big" }) : null,
        view.note ? h("p", {}, _("Your note: {note}", { note: pics.map((p, i) => `${ctx.content("picture", p.id, p.name)} ${TIERS[view.note[i]] || "?"}`).join(", ") })) : null,
        Number.isInteger(view.placed) ? h("p", {}, _("You placed it on {tier}.", { tier: TIERS[view.placed] })) : null);
      for (const t of places) {
        actions.push(h("button", { class: "primary big", "data-tier": t.tier, onclick: () => ctx.act({ ...t }) }, TIERS[t.tier]));
      }
      if (places.length) status = _("On which tier does the leader put your picture?");
    }
  } else if (mode === "team") {
    const pics = view.pictures || [];
    const myTeam = (view.teams || []).findIndex((team) => team.includes(ctx.me));
    const side = (team) => tierRows(ctx, (t) => pics.filter((p) => p.taken === team && p.tier === t).map((p) =>
      ctx.pic(p.id, p.name, { size: "small", legal: pickable.has(p.id), chosen: scratch.pick === p.id,
        onclick: pickable.has(p.id) ? choose(p.id) : null })),
    { id: `side-${team}`, drop: (t) => team === myTeam && droppable(t), onTier: toTier });
    if (!commit) {
      pub.push(h("div", { class: "zone" }, h("div", { class: "label" }, _("Green")), side(0)),
        h("div", { class: "zone" }, h("div", { class: "label" }, _("Red")), side(1)));
      priv = h("div", { class: "stack" },
        view.note ? h("p", {}, _("Your note: {note}", { note: view.note.map((id, t) => `${TIERS[t]} ${ctx.content("picture", id, nameOf(view, id))}`).join(", ") })) : null,
        h("div", { class: "pics", id: "untaken" }, pics.filter((p) => p.taken === null).map((p) => ctx.pic(p.id, p.name, {
          legal: pickable.has(p.id), chosen: scratch.pick === p.id, onclick: pickable.has(p.id) ? choose(p.id) : null }))));
      if (takes.length || moves.length) status = scratch.pick ? _("Now tap a tier on your side.") : _("Your team's turn: take a picture onto a tier.");
    }
  }
  if (ctx.may.some((t) => t.type === "wrong")) status = _("Is that picture on the wrong tier? Say Wrong or stay silent.");
  return { public: pub, private: priv, actions, handled, status };
}

function ngLocked(ctx, view) {
  const locked = (view.locked || []).length;
  const all = (view.guessers || []).length;
  return ctx._("{locked} of {all} locked in", { locked, all });
}
