// Ranking: the tower of floors with the row's tiles (compact), your hand of
// pictures large below; compare by tapping the tile that rises, then the one that
// sinks; guess by tapping a tile (or Pass).

import { h } from "../dom.js";
import { players, templates } from "./index.js";

function stones(ctx, list) {
  return h("span", { class: "stones" }, (list || []).map((s) =>
    h("span", { class: "stone", style: { background: ctx.colours[s] || "#888" }, title: ctx.names[s] || "" })));
}

export function draw(ctx) {
  const { view, _, scratch } = ctx;
  const phase = view.phase;
  const scores = view.scores || [];
  const row = Array.isArray(view.row) && view.row.length ? view.row : [];
  const ups = new Set(templates(ctx, "compare").map((t) => t.up));
  const downs = new Set(templates(ctx, "compare").filter((t) => t.up === scratch.up).map((t) => t.down));
  if (scratch.up !== undefined && !ups.has(scratch.up)) scratch.up = undefined;
  const guesses = new Map(templates(ctx, "guess").map((t) => [t.slot, t]));
  scratch.keys = {};
  const tileFor = (tile) => {
    let onclick = null;
    let legal = false;
    let chosen = scratch.up === tile.slot;
    if (phase === "compare" && ctx.may.length) {
      if (scratch.up === undefined && ups.has(tile.slot)) {
        legal = true;
        onclick = () => { scratch.up = tile.slot; ctx.redraw(); };
      } else if (scratch.up === tile.slot) {
        onclick = () => { scratch.up = undefined; ctx.redraw(); };
      } else if (downs.has(tile.slot)) {
        legal = true;
        onclick = () => {
          const t = templates(ctx, "compare", { up: scratch.up, down: tile.slot })[0];
          scratch.up = undefined;
          if (t) ctx.act({ ...t });
        };
      }
    } else if (guesses.has(tile.slot)) {
      legal = true;
      onclick = () => ctx.act({ ...guesses.get(tile.slot) });
    }
    if (view.mine === tile.slot) chosen = chosen || false;
    const key = legal ? String(tile.slot + 1) : null;
    if (legal) scratch.keys[key] = onclick;
    return h("div", { class: "tile" },
      ctx.pic(tile.picture, tile.name, { size: "small", legal, chosen, onclick, key }),
      view.mine === tile.slot ? h("span", { class: "tag" }, _("yours")) : null,
      Number.isInteger(tile.owner) ? ctx.badge(tile.owner) : null,
      stones(ctx, tile.stones));
  };
  const floors = [];
  for (let f = 6; f >= 0; f--) {
    const here = row.filter((t) => t.floor === f).sort((a, b) => a.slot - b.slot);
    floors.push(h("div", { class: "floor", "data-floor": f }, h("span", { class: "n" }, String(f)),
      here.map(tileFor)));
  }
  const question = view.question ? ctx.content("question", view.question.id, view.question.text) : "";
  const pub = [
    players(ctx, { turn: view.actors || [], key: JSON.stringify(scores), extra: (i) => h("span", { class: "muted" }, ` ${scores[i] ?? 0}`) }),
  ];
  // The question heads your own part (the hand, or the tower when you compare and guess).
  const asked = h("div", { class: "topic-line" }, h("span", { class: "label" }, _("Round {n}", { n: view.round }), " · "),
    h("b", { id: "question" }, question));
  // Before the round's row is laid out the tower is named, with where the pictures start
  // (as the window's empty tower says): the guide's tower step has it to point at, and a
  // phone shows no empty band under the players.
  const tower = row.length ? h("div", { class: "floors", id: "tower" }, floors)
    : h("div", { class: "zone", id: "tower" }, h("div", { class: "label" }, _("The tower")),
      h("p", { class: "muted", id: "tower-empty" },
        _("The 7 pictures start here, on floor 3, once everyone has picked one.")));
  const places = templates(ctx, "place");
  const hand = (view.hand || []).map((tile, i) => {
    const t = places.find((p) => p.tile === tile.id);
    const onclick = t ? () => ctx.act({ ...t }) : null;
    if (t) scratch.keys[String(i + 1)] = onclick;
    return ctx.pic(tile.id, tile.name, { size: "big", legal: Boolean(t), onclick, key: t ? String(i + 1) : null,
                                         chosen: view.placed === tile.id });
  });
  // The hand while it is used (picking this round's picture), the tower (what you act
  // on) after: each whole at the foot of the page, the other above it.
  const handZone = ctx.me === null ? null : h("div", { class: "zone" },
    h("div", { class: "label" }, _("Your hand")), h("div", { class: "pics", id: "hand" }, hand));
  let priv = tower;
  if (phase === "place" || places.length) {
    pub.push(tower);
    priv = handZone;
  } else if (handZone) {
    pub.push(handZone);
  }
  let status = null;
  if (phase === "place" && places.length) status = _("Pick a picture for this round's row.");
  else if (phase === "compare" && ctx.may.length) {
    status = scratch.up === undefined ? _("Tap the picture that rises.") : _("Now tap the picture on the same floor that sinks.");
  } else if (phase === "guess" && ctx.may.length) {
    status = _("Whose picture is it? Tap the one you think is {name}'s, or pass.",
      { name: ctx.names[view.guess_for] || "?" });
  }
  const who = ctx.who(view.actors);
  const waiting = !who ? null : phase === "place" ? _("Waiting for {names} to pick a picture.", { names: who })
    : phase === "compare" ? _("Waiting for {names} to compare two pictures.", { names: who })
      : phase === "guess" ? _("Waiting for {names} to guess whose picture it is.", { names: who }) : null;
  return { public: pub, private: priv ? [asked, priv] : asked, handled: new Set(["place", "compare", "guess"]), status, waiting,
           spots: SPOTS };
}

export const SPOTS = { hand: "hand", tower: "tower", plates: "players" };

export function why(ctx, piece) {
  const { _, view } = ctx;
  if (piece.closest("#hand")) return _("Your picture for this round is in the row already.");
  if (view.phase === "compare" && ctx.may.length && ctx.scratch.up !== undefined) {
    return _("Only a picture on the same floor can sink.");
  }
  if (view.phase === "compare" && ctx.may.length) return _("Only a picture with a lit frame can rise: one with another on its floor.");
  return null;
}
