// "Rules": the game's rules help, as F1 shows it in the window (the same help files,
// lanplay/teaching.py rules_text, served as /rules/<game>.<lang>.md), opened at the
// mode's own section. The markdown is a few plain forms (headings, lists, paragraphs,
// **bold** and *italic*), drawn as elements and text: nothing in it becomes markup.

import { h } from "./dom.js";
import { _, lang } from "./words.js";

const texts = new Map();

/** The help of `game` in the page's language (null until it has arrived). */
export function rulesText(game, redraw) {
  const id = `${game}.${lang}`;
  if (!texts.has(id)) {
    texts.set(id, null);
    fetch(`/rules/${encodeURIComponent(game)}.${lang}.md`)
      .then((r) => (r.ok ? r.text() : ""))
      .catch(() => "")
      .then((text) => { texts.set(id, text); redraw(); scrollToMode(); });
  }
  return texts.get(id);
}

function inline(text) {
  const out = [];
  const mark = /\*\*(.+?)\*\*|\*(.+?)\*/g;
  let at = 0;
  for (const m of text.matchAll(mark)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(m[1] !== undefined ? h("b", {}, m[1]) : h("i", {}, m[2]));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** The open rules at the mode's section (S-tier's modes). */
export function scrollToMode() {
  requestAnimationFrame(() => {
    const at = document.getElementById("rules-mode");
    const box = document.getElementById("rules-text");
    if (at && box) box.scrollTop += at.getBoundingClientRect().top - box.getBoundingClientRect().top;
  });
}

/** The markdown as elements: `#`..`###` headings, `-`/`1.` lists, paragraphs. */
export function markdown(text) {
  const blocks = [];
  let para = [];
  let list = null;
  const flush = () => {
    if (para.length) blocks.push(h("p", {}, inline(para.join(" "))));
    para = [];
  };
  const endList = () => { if (list) blocks.push(list); list = null; };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const head = /^(#{1,3})\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (!line.trim()) { flush(); endList(); continue; }
    if (head) { flush(); endList(); blocks.push(h(`h${head[1].length + 1}`, {}, inline(head[2]))); continue; }
    if (item) {
      flush();
      if (!list) list = h(/^\s*\d+\./.test(line) ? "ol" : "ul", {});
      list.append(h("li", {}, inline(item[1])));
      continue;
    }
    if (list && /^\s+/.test(raw)) { list.lastChild.append(" ", ...inline(line.trim())); continue; }
    endList();
    para.push(line.trim());
  }
  flush();
  endList();
  return blocks;
}

/** The rules over the table: the help, scrolled to `mode`'s section (S-tier's modes are
 * its second, third and fourth sections, in every language), and Close. */
export function rulesPanel(game, modes, mode, close, redraw) {
  const text = rulesText(game, redraw);
  const body = text === null ? [h("p", {}, _("Loading…"))]
    : text ? markdown(text) : [h("p", {}, _("The rules could not be loaded."))];
  const index = modes && modes.length > 1 ? modes.indexOf(mode) : -1;
  let sections = 0;
  for (const el of body) {
    if (el.tagName === "H3") {
      sections += 1;
      if (index >= 0 && sections === index + 2) el.id = "rules-mode";
    }
  }
  return h("div", { class: "banner rules-banner", id: "rules" },
    h("div", { class: "card-box rules-box", role: "dialog", "aria-label": _("Rules") },
      h("div", { class: "rules-text", id: "rules-text" }, body),
      h("div", { class: "row" }, h("button", { class: "primary", id: "rules-close", onclick: close }, _("Close")))));
}
