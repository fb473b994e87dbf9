// Ranking Top: your hand and your chart large, the others' charts, the discard and
// the chain compact; TOP! and Pass big during a window (keys t and p).

import { h } from "../dom.js";
import { players, templates } from "./index.js";

function songCard(ctx, c, { legal = false, onclick = null, key = null } = {}) {
  const kind = c.kind || "song";
  const label = c.kind === "song" ? String(c.number) : c.kind === "top" ? "TOP" : "★";
  const effect = ctx.content("ranking-top", kind === "song" ? `effect:${c.song}` : `effect:${kind}`, c.effect || "");
  const body = [h("b", {}, key ? `${label}  (${key})` : label), h("span", {}, c.title || ""),
    c.artist ? h("span", { class: "muted" }, ` · ${c.artist}`) : null];
  const attrs = { class: `song ${kind}${legal ? " legal" : ""}`, title: effect, "data-card": c.id };
  return onclick ? h("button", { ...attrs, onclick }, body) : h("div", attrs, body);
}

export function draw(ctx) {
  const { view, _, scratch } = ctx;
  scratch.keys = {};
  const needed = view.needed || [];
  const pub = [
    players(ctx, { turn: view.actors || [], extra: (i) => h("span", { class: "muted" },
      ` ${needed[i] ? _("needs {n}", { n: needed[i] }) : "✓"} · ${(view.hand_counts || [])[i] ?? 0}`) }),
    h("div", { class: "zone" }, h("div", { class: "label" }, _("Charts")),
      (view.ranking || []).map((chart, seat) => seat === ctx.me ? null : h("div", { class: "row" }, ctx.badge(seat),
        h("div", { class: "chart" }, chart.map((c) => songCard(ctx, c)))))),
    view.chain && view.chain.length ? h("div", { class: "zone", id: "chain" },
      h("div", { class: "label" }, view.standing ? _("The play stands so far") : _("The play is cancelled so far")),
      h("div", { class: "chart" }, view.chain.map((link) => h("div", { class: "row" }, ctx.badge(link.seat), songCard(ctx, link.card))))) : null,
    h("div", { class: "zone" }, h("div", { class: "label" }, _("Discard pile ({n})", { n: view.discard_count ?? 0 })),
      h("div", { class: "chart" }, (view.discard || []).slice(-2).map((c) => songCard(ctx, c)))),
  ];
  const plays = templates(ctx, "play");
  const keeps = templates(ctx, "keep");
  const tops = templates(ctx, "top");
  const hand = (view.hand || []).map((c, i) => {
    const mine = [...plays.filter((t) => t.card === c.id), ...keeps.filter((t) => t.card === c.id)];
    const onclick = mine.length ? () => {
      if (mine.length === 1) { scratch.popup = null; ctx.act({ ...mine[0] }); } else { scratch.popup = c.id; ctx.redraw(); }
    } : null;
    if (onclick) scratch.keys[String(i + 1)] = onclick;
    return songCard(ctx, c, { legal: Boolean(onclick), onclick, key: onclick ? String(i + 1) : null });
  });
  const own = ctx.me !== null ? (view.ranking || [])[ctx.me] || [] : [];
  const priv = ctx.me === null ? null : h("div", { class: "stack" },
    h("div", { class: "zone" }, h("div", { class: "label" }, _("Your chart (next: {n})", { n: needed[ctx.me] || "✓" })),
      h("div", { class: "chart", id: "my-chart" }, own.map((c) => songCard(ctx, c)))),
    h("div", { class: "zone" }, h("div", { class: "label" }, _("Your hand")), h("div", { class: "chart", id: "hand" }, hand)));
  const actions = [];
  if (scratch.popup !== undefined && scratch.popup !== null) {
    const mine = plays.filter((t) => t.card === scratch.popup);
    if (!mine.length) scratch.popup = null;
    for (const t of mine) {
      actions.push(h("button", { class: "primary", "data-to": t.to, onclick: () => { scratch.popup = null; ctx.act({ ...t }); } },
        t.to === "top" ? _("Into my chart") : _("Onto the discard pile")));
    }
  }
  tops.forEach((t, i) => {
    const c = (view.hand || []).find((x) => x.id === t.card);
    const go = () => ctx.act({ ...t });
    if (i === 0) scratch.keys.t = go;
    actions.push(h("button", { class: "primary big", "data-type": "top", "data-card": t.card, onclick: go },
      _("TOP! with {card}", { card: c ? c.title : String(t.card) })));
  });
  const pass = templates(ctx, "pass")[0];
  if (pass) {
    scratch.keys.p = () => ctx.act({ ...pass });
    actions.push(h("button", { class: "big", "data-type": "pass", onclick: () => ctx.act({ ...pass }) }, _("Pass")));
  }
  let status = null;
  if (tops.length || pass) status = _("Top it or pass!");
  else if (keeps.length) status = _("Keep one card; the rest go to the discard pile.");
  else if (plays.length) status = _("Your turn: play a card into your chart or onto the discard pile.");
  return { public: pub, private: priv, actions, handled: new Set(["play", "keep", "top", "pass"]), status };
}
