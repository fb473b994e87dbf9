// Alles klar?: your hand large at the bottom (keys 1-5), the ranking cards, the
// trick and each seat's count above; a card that may turn down either of two
// ranking cards asks which.

import { h } from "../dom.js";
import { players, templates } from "./index.js";

const ROMAN = ["", "I", "II", "III", "IV", "V"];

function card(c, { small = false, legal = false, quiet = false, onclick = null, key = null } = {}) {
  const cls = `pcard${small ? " small" : ""}${c.up === false ? " down" : ""}${legal ? " legal" : ""}${quiet ? " quiet" : ""}`;
  const body = [key ? h("span", { class: "key" }, key) : null,
    h("span", { class: "value" }, String(c.value)),
    h("span", { class: "numerals" }, (c.numerals || []).map((n) => ROMAN[n]).join(" "))];
  const label = `${c.value} ${(c.numerals || []).map((n) => ROMAN[n]).join(" ")}`.trim();
  return onclick ? h("button", { class: cls, onclick, "data-card": c.id, "aria-label": label }, body)
    : h("div", { class: cls, "data-card": c.id, title: label }, body);
}

export function draw(ctx) {
  const { view, _ } = ctx;
  const me = ctx.me;
  const scratch = ctx.scratch;
  const handCounts = view.hand_counts || [];
  const won = view.won || [];
  const pub = [
    players(ctx, { turn: Number.isInteger(view.turn) ? [view.turn] : [],
      extra: (i) => h("span", { class: "muted" }, _("{cards} cards · {won} won", { cards: handCounts[i] ?? 0, won: won[i] ?? 0 })) }),
    h("div", { class: "zone" }, h("div", { class: "label" }, _("Ranking cards")),
      h("div", { class: "ranking-cards" }, (view.ranking || []).map((up, i) =>
        h("span", { class: "rcard" + (up ? "" : " off") }, ROMAN[i + 1])))),
    h("div", { class: "zone" }, h("div", { class: "label" },
      _("Trick {n} · draw pile {pile}", { n: view.trick, pile: view.pile })),
    h("div", { class: "trick", id: "trick" }, (view.table || []).flatMap((row, seat) =>
      row.map((c) => h("div", { class: "played" }, card(c, { small: true }),
        h("span", { class: "who" }, ctx.badge(seat))))))),
  ];
  scratch.keys = {};
  const hand = view.hand || [];
  const popup = scratch.popup;
  const cards = hand.map((c, i) => {
    const choices = templates(ctx, "play", { card: c.id });
    const legal = choices.length > 0;
    const play = () => {
      if (choices.length === 1) { scratch.popup = null; ctx.act({ ...choices[0] }); return; }
      scratch.popup = c.id;
      ctx.redraw();
    };
    if (legal) scratch.keys[String(i + 1)] = play;
    return card(c, { legal, quiet: ctx.may.length > 0 && !legal, onclick: legal ? play : null,
                     key: legal ? String(i + 1) : null });
  });
  const priv = me === null ? null : h("div", { class: "zone" },
    h("div", { class: "label" }, _("Your hand")), h("div", { class: "hand", id: "hand" }, cards));
  const actions = [];
  if (popup !== null && popup !== undefined) {
    const choices = templates(ctx, "play", { card: popup });
    if (!choices.length) scratch.popup = null;
    for (const t of choices) {
      actions.push(h("button", { class: "primary", "data-numeral": t.numeral ?? "none",
        onclick: () => { scratch.popup = null; ctx.act({ ...t }); } },
      Number.isInteger(t.numeral) ? _("Turn down {numeral}", { numeral: ROMAN[t.numeral] })
        : _("Leave the ranking cards up")));
    }
  }
  let status = null;
  if (view.over) status = _("The game is over.");
  else if (ctx.may.length) status = _("Your turn: play a card.");
  return { public: pub, private: priv, actions, handled: new Set(["play"]), status };
}
