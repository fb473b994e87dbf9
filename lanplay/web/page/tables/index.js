// Each game's table for the page, and the plain buttons every `may` template gets
// when a table does not offer it in its own way (an outside client written from
// docs/GAMES.md plays every game like this: choosing from `may`).

import { h, region } from "../dom.js";
import * as allesKlar from "./alles_klar.js";
import * as ranking from "./ranking.js";
import * as sTier from "./s_tier.js";
import * as rankingTop from "./ranking_top.js";
import * as ranagedon from "./ranagedon.js";

export const TABLES = { "alles-klar": allesKlar, ranking, "s-tier": sTier,
  "ranking-top": rankingTop, ranagedon };

export function actionWord(ctx, type) {
  const { _ } = ctx;
  const words = { play: _("Play"), place: _("Place"), compare: _("Compare"), guess: _("Guess"),
    pass: _("Pass"), move: _("Move"), lock: _("Lock in"), unlock: _("Unlock"), take: _("Take"),
    wrong: _("Wrong!"), silent: _("Stay silent"), top: _("TOP!"), keep: _("Keep"),
    deploy: _("Deploy"), jump: _("Jump"), dive: _("Dive"), stop: _("Stop"), void: _("Give the round up"),
    commit: _("Write the note") };
  return words[type] || type;
}

function fieldText(ctx, key, value) {
  if (typeof value === "string" && ["picture", "tile"].includes(key)) {
    const pictures = [...(ctx.view.pictures || []), ...(ctx.view.hand || [])];
    const found = pictures.find((p) => p && p.id === value);
    return ctx.content("picture", value, found ? found.name : value);
  }
  if (key === "tier" && Number.isInteger(value)) return "SABCD"[value] || String(value);
  if (key === "window" || key === "step") return null;
  if (typeof value === "object") return null;
  return String(value);
}

/** A button (or a few inputs and a button) for each template no table took. */
export function genericActions(ctx, handled) {
  const out = [];
  // what the page answers by itself (the S-tier note's count and reveal) gets no button
  const answered = ctx.may.some((t) => ["count", "reveal"].includes(t.type));
  for (const template of ctx.may) {
    if (answered && ["count", "reveal", "void"].includes(template.type)) continue;
    if (handled.has(template.type)) continue;
    const choose = template.choose || {};
    const fixed = Object.entries(template).filter(([k]) => k !== "type" && k !== "choose");
    const label = [actionWord(ctx, template.type), ...fixed.map(([k, v]) => fieldText(ctx, k, v)).filter(Boolean)].join(" ");
    const kinds = Object.values(choose).map((c) => c.kind);
    if (!kinds.length) {
      out.push(h("button", { class: "may", "data-type": template.type, onclick: () => ctx.act({ ...template }) }, label));
    } else if (kinds.every((k) => k === "number")) {
      const inputs = Object.entries(choose).map(([name, c]) => {
        const low = c.min ?? -Math.PI;
        const high = c.max ?? Math.PI;
        const input = h("input", { type: "range", min: low, max: high, step: (high - low) / 100,
                                   value: (low + high) / 2, name });
        return [name, input, h("label", { class: "field" }, h("span", {}, name), input)];
      });
      out.push(h("div", { class: "row" }, inputs.map((i) => i[2]),
        h("button", { class: "may", "data-type": template.type, onclick: (e) => {
          const action = Object.fromEntries(fixed);
          action.type = template.type;
          const row = e.currentTarget.closest(".row");  // the live inputs, not this draw's
          for (const [name] of inputs) action[name] = Number(row.querySelector(`input[name="${name}"]`).value);
          ctx.act(action);
        } }, label)));
    }
  }
  return out;
}

/** The templates of `may` of one type whose fields match `fields`. */
export function templates(ctx, type, fields = {}) {
  return ctx.may.filter((t) => t.type === type
    && Object.entries(fields).every(([k, v]) => t[k] === v));
}

/** The players in seat order (badge, name, what the table says of each); drawn again only
 * when the names, colours, turns or `key` (what `extra` shows, as a string) change. */
export function players(ctx, { turn = [], extra = () => null, key = "" } = {}) {
  const lobby = ctx.names;
  return region("players", JSON.stringify([lobby, ctx.colours, turn, key]),
    () => h("div", { class: "players" }, lobby.map((name, i) => h("span", {
      class: "player" + (turn.includes(i) ? " turn" : "") }, ctx.badge(i), h("span", { class: "name" }, name),
    extra(i)))));
}
