// Ranking Top: your hand (every card whole, with its effect) and your chart at the
// bottom, the others' charts, the chain and the discard pile compact above; TOP! and
// Pass big during a window (keys t and p); a card with two places asks which, saying
// what each does.

import { h, region } from "../dom.js";
import { players, templates } from "./index.js";

function effectOf(ctx, c) {
  const kind = c.kind || "song";
  return ctx.content("ranking-top", kind === "song" ? `effect:${c.song}` : `effect:${kind}`, c.effect || "");
}

function songCard(ctx, c, { legal = false, onclick = null, key = null, chosen = false, effect = false } = {}) {
  const kind = c.kind || "song";
  const label = c.kind === "song" ? String(c.number) : c.kind === "top" ? "TOP" : "★";
  const words = effectOf(ctx, c);
  const body = [h("b", { class: kind === "top" ? "word" : "" }, label), key ? h("span", { class: "key" }, key) : null, h("span", { class: "title" }, c.title || ""),
    c.artist ? h("span", { class: "muted" }, ` · ${c.artist}`) : null,
    effect && words ? h("span", { class: "effect" }, words) : null];
  const attrs = { class: `song ${kind}${legal ? " legal" : ""}${chosen ? " chosen" : ""}${effect ? " full" : ""}`,
                  title: words, "data-card": c.id };
  return onclick ? h("button", { ...attrs, onclick }, body) : h("div", attrs, body);
}

export const SPOTS = { hand: "hand", chart: "my-chart", stage: "stage" };

export function draw(ctx) {
  const { view, _, scratch } = ctx;
  scratch.keys = {};
  const needed = view.needed || [];
  const counts = view.hand_counts || [];
  const chain = view.chain || [];
  const pub = [
    players(ctx, { turn: view.actors || [], key: JSON.stringify([needed, counts]), extra: (i) => h("span", { class: "muted" },
      needed[i] ? _("next {n} · {cards} in hand", { n: needed[i], cards: counts[i] ?? 0 })
        : _("complete · {cards} in hand", { cards: counts[i] ?? 0 })) }),
    h("div", { class: "zone", id: "stage" },
      chain.length ? [h("div", { class: "label" }, view.standing ? _("The play stands so far") : _("The play is cancelled so far")),
        h("div", { class: "chart", id: "chain" }, chain.map((link) => h("div", { class: "row link" }, ctx.badge(link.seat),
          songCard(ctx, link.card, { effect: true }))))]
        : [h("div", { class: "label" }, _("Discard pile ({n})", { n: view.discard_count ?? 0 })),
          h("div", { class: "chart", id: "discard" }, (view.discard || []).slice(-1).map((c) => songCard(ctx, c, { effect: true })))]),
    region("charts", JSON.stringify([ctx.me, ctx.names, ctx.colours, (view.ranking || []).map((chart) => chart.map((c) => c.id))]),
      () => h("div", { class: "zone" }, h("div", { class: "label" }, _("Charts: each fills 5, 4, 3, 2, 1")),
        (view.ranking || []).map((chart, seat) => seat === ctx.me ? null : h("div", { class: "row" }, ctx.badge(seat),
          h("div", { class: "chart" }, chart.length ? chart.map((c) => songCard(ctx, c)) : h("span", { class: "muted" }, _("empty"))))))),
  ];
  const plays = templates(ctx, "play");
  const keeps = templates(ctx, "keep");
  const tops = templates(ctx, "top");
  const popup = scratch.popup !== undefined && scratch.popup !== null && plays.some((t) => t.card === scratch.popup)
    ? scratch.popup : null;
  if (popup === null) scratch.popup = null;
  const hand = (view.hand || []).map((c, i) => {
    const mine = [...plays.filter((t) => t.card === c.id), ...keeps.filter((t) => t.card === c.id)];
    // A card to play is chosen first: its places come up with what each does (the
    // window's box says it too); a card to keep goes at once.
    const onclick = mine.length ? () => {
      if (mine[0].type === "keep") { scratch.popup = null; ctx.act({ ...mine[0] }); } else { scratch.popup = scratch.popup === c.id ? null : c.id; ctx.redraw(); }
    } : null;
    if (onclick) scratch.keys[String(i + 1)] = onclick;
    return songCard(ctx, c, { legal: Boolean(onclick), onclick, key: onclick ? String(i + 1) : null,
                              chosen: popup === c.id, effect: true });
  });
  const own = ctx.me !== null ? (view.ranking || [])[ctx.me] || [] : [];
  // Your chart at the head of the table (under the players), your hand whole at its foot.
  if (ctx.me !== null) {
    pub.splice(1, 0, h("div", { class: "zone" }, h("div", { class: "label" }, needed[ctx.me]
      ? _("Your chart: next a {n}", { n: needed[ctx.me] }) : _("Your chart is complete")),
    h("div", { class: "chart", id: "my-chart" }, own.length ? own.map((c) => songCard(ctx, c)) : h("span", { class: "muted" }, _("empty")))));
  }
  const priv = ctx.me === null ? null : h("div", { class: "zone" }, h("div", { class: "label" }, _("Your hand")),
    h("div", { class: "hand-list" + (hand.length > 5 ? " many" : ""), id: "hand" }, hand));
  const actions = [];
  let status = null;
  if (popup !== null) {
    const card = (view.hand || []).find((c) => c.id === popup);
    for (const t of plays.filter((x) => x.card === popup)) {
      actions.push(h("button", { class: "primary choice", "data-to": t.to, onclick: () => { scratch.popup = null; ctx.act({ ...t }); } },
        t.to === "top" ? _("Into my chart (as its {n})", { n: needed[ctx.me] || "?" })
          : _("Onto the discard pile: {effect}", { effect: card ? effectOf(ctx, card) : "" })));
    }
    actions.push(h("button", { "data-cancel": "", onclick: () => { scratch.popup = null; ctx.redraw(); } }, _("Another card")));
    status = _("Where does {card} go?", { card: card ? card.title : "?" });
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
  const last = chain.length ? chain[chain.length - 1] : null;
  if (status) { /* the choice's own line */ } else if (tops.length || pass) {
    status = tops.length ? _("Top {card} with the same number or a Top card, or pass!", { card: last ? last.card.title : "?" })
      : _("You have nothing to top it with: pass.");
  } else if (keeps.length) status = _("Keep one card; the rest go to the discard pile.");
  else if (plays.length) {
    status = (view.can_rank || []).length
      ? _("Your turn: a card into your chart (it needs a {n}) or onto the discard pile.", { n: needed[ctx.me] || "?" })
      : _("Your turn: no card fits your chart (it needs a {n}): play one onto the discard pile.", { n: needed[ctx.me] || "?" });
  }
  let waiting = null;
  if (view.phase === "window") waiting = _("Waiting for the others to top or pass.");
  else if (Number.isInteger(view.current)) waiting = _("Waiting for {name} to play a card.", { name: ctx.who([view.current]) });
  return { public: pub, private: priv, actions, handled: new Set(["play", "keep", "top", "pass"]), status, waiting,
           spots: SPOTS };
}

export function why(ctx, piece) {
  const { view, _ } = ctx;
  if (!piece.closest("#hand")) return null;
  if (view.phase === "window") return _("Only a card of the same number, or a Top card, can top it.");
  return null;
}
