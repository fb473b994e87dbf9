// Alles klar?: your hand large at the bottom (keys 1-5), the ranking cards with what
// they mean now, the trick (each card over its player's badge) and each seat's count
// above; a card that may turn down either of two ranking cards is marked and asks which.

import { h, region } from "../dom.js";
import { players, templates } from "./index.js";

const ROMAN = ["", "I", "II", "III", "IV", "V"];

function card(c, { small = false, legal = false, quiet = false, chosen = false, onclick = null, key = null } = {}) {
  const cls = `pcard${small ? " small" : ""}${c.up === false ? " down" : ""}${legal ? " legal" : ""}`
    + `${quiet ? " quiet" : ""}${chosen ? " chosen" : ""}`;
  const body = [key ? h("span", { class: "key" }, key) : null,
    h("span", { class: "value" }, String(c.value)),
    h("span", { class: "numerals" }, (c.numerals || []).map((n) => ROMAN[n]).join(" "))];
  const label = `${c.value} ${(c.numerals || []).map((n) => ROMAN[n]).join(" ")}`.trim();
  return onclick ? h("button", { class: cls, onclick, "data-card": c.id, "aria-label": label }, body)
    : h("div", { class: cls, "data-card": c.id, title: label }, body);
}

/** What the ranking cards say now: the one left up decides, or how many are up. */
function rankingMeaning(ctx, view) {
  const { _ } = ctx;
  const up = (view.ranking || []).map((u, i) => (u ? i + 1 : 0)).filter(Boolean);
  if (up.length === 1) {
    return _("Only {n} is up: once {count} cards lie open, number {count} from the highest takes the trick.",
      { n: ROMAN[up[0]], count: up[0] });
  }
  if (!up.length) return _("No ranking card is up: the trick is blind.");
  return _("A card's numeral turns that ranking card down; when one is left, it decides the trick.");
}

export const SPOTS = { hand: "hand", ranking: "ranking" };

/** The trick, each card over its player's badge; when one has just been decided, its
 * cards stay on the table, flying to the one who takes them (or leaving, a blind trick),
 * with a line saying so, until the next card is played. */
function trickZone(ctx, view) {
  const { _, scratch } = ctx;
  const table = view.table || [];
  const open = table.some((row) => row.length);
  const last = view.last;
  let shown = table.map((row, seat) => row.map((c) => [seat, c])).flat();
  let taken = null;
  if (open) {
    scratch.trick = { n: view.trick, cards: shown };
  } else if (last && ["won", "blind"].includes(last.result) && scratch.trick && scratch.trick.n < view.trick) {
    const decisive = last.card ? [[last.seat, { ...last.card, up: true }]] : [];
    shown = [...scratch.trick.cards.filter(([, c]) => !last.card || c.id !== last.card.id), ...decisive];
    taken = last.result === "won"
      ? _("{name} takes the trick.", { name: ctx.who([last.winner]) })
      : _("A blind trick: its cards leave the game.");
  }
  return h("div", { class: "zone" }, h("div", { class: "label" },
    _("Trick {n} · draw pile {pile}", { n: taken ? scratch.trick.n : view.trick, pile: view.pile })),
  h("div", { class: "trick" + (taken ? (last.result === "won" ? " taken" : " blind") : ""), id: "trick",
    "data-n": taken ? scratch.trick.n : view.trick, "data-anim": taken ? `taken-${scratch.trick.n}` : null },
  shown.map(([seat, c]) => h("div", { class: "played", "data-seat": seat }, card(c, { small: true }),
    h("span", { class: "who" }, ctx.badge(seat))))),
  taken ? h("p", { class: "meaning", id: "trick-taken" }, taken) : null);
}

export function draw(ctx) {
  const { view, _ } = ctx;
  const me = ctx.me;
  const scratch = ctx.scratch;
  const handCounts = view.hand_counts || [];
  const won = view.won || [];
  const turn = Number.isInteger(view.turn) ? [view.turn] : [];
  const pub = [
    players(ctx, { turn, key: JSON.stringify([handCounts, won]),
      extra: (i) => h("span", { class: "muted" }, _("{cards} cards · {won} won", { cards: handCounts[i] ?? 0, won: won[i] ?? 0 })) }),
    region("ranking", JSON.stringify(view.ranking || []), () => h("div", { class: "zone" }, h("div", { class: "label" }, _("Ranking cards")),
      h("div", { class: "ranking-cards" }, (view.ranking || []).map((up, i) =>
        h("span", { class: "rcard" + (up ? "" : " off"), title: up ? _("face up") : _("face down") }, ROMAN[i + 1]))),
      h("p", { class: "meaning", id: "ranking-meaning" }, rankingMeaning(ctx, view)))),
    trickZone(ctx, view),
  ];
  scratch.keys = {};
  const hand = view.hand || [];
  let popup = scratch.popup;
  if (popup !== null && popup !== undefined && !templates(ctx, "play", { card: popup }).length) {
    scratch.popup = null;
    popup = null;
  }
  const cards = hand.map((c, i) => {
    const choices = templates(ctx, "play", { card: c.id });
    const legal = choices.length > 0;
    const play = () => {
      if (choices.length === 1) { scratch.popup = null; ctx.act({ ...choices[0] }); return; }
      scratch.popup = scratch.popup === c.id ? null : c.id;
      ctx.redraw();
    };
    if (legal) scratch.keys[String(i + 1)] = play;
    return card(c, { legal, quiet: ctx.may.length > 0 && !legal, chosen: popup === c.id,
                     onclick: legal ? play : null, key: legal ? String(i + 1) : null });
  });
  const priv = me === null ? null : h("div", { class: "zone" },
    h("div", { class: "label" }, _("Your hand")), h("div", { class: "hand", id: "hand" }, cards));
  const actions = [];
  let status = null;
  if (popup !== null && popup !== undefined) {
    const chosen = hand.find((c) => c.id === popup);
    for (const t of templates(ctx, "play", { card: popup })) {
      actions.push(h("button", { class: "primary", "data-numeral": t.numeral ?? "none",
        onclick: () => { scratch.popup = null; ctx.act({ ...t }); } },
      Number.isInteger(t.numeral) ? _("Turn down {numeral}", { numeral: ROMAN[t.numeral] })
        : _("Leave the ranking cards up")));
    }
    actions.push(h("button", { "data-cancel": "", onclick: () => { scratch.popup = null; ctx.redraw(); } }, _("Another card")));
    status = _("Your {card}: which ranking card does it turn down?", { card: chosen ? String(chosen.value) : "?" });
  } else if (ctx.may.length) {
    status = _("Your turn: play a lit card.");
  }
  const waiting = turn.length ? _("Waiting for {name} to play a card.", { name: ctx.who(turn) }) : null;
  return { public: pub, private: priv, actions, handled: new Set(["play"]), status, waiting, spots: SPOTS };
}

export function why(ctx, piece) {
  if (piece.closest("#hand")) return ctx._("That card cannot be played now: the lit ones can.");
  return null;
}
