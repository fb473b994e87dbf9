// A long word in a narrow caption broke at its last letter (German "Filmprojektor"
// under a picture on a phone: "Filmprojekto" / "r"). After each draw the page shrinks
// such a text's letters until each of its words keeps to one line (down to FLOOR of its
// size; below that it breaks as before), and remembers that size for that text at that
// window width, so the next draw carries it: morph keeps a style the fresh element also
// has, so the text neither flickers nor is measured again.

const LONG = /[^\s-]{10,}/g;  // a break after a hyphen is a fine break
const FLOOR = 0.65;
const sizes = new Map();

/** The attributes a text's element takes: none for short words, else the mark the
 * fitter looks for (`where` tells a caption's kind) and the size found before. */
export function fitting(text, where) {
  if (!String(text).match(LONG)) return {};
  const px = sizes.get(`${where}|${window.innerWidth}|${text}`);
  return { "data-fit": where, style: px ? `font-size: ${px}px` : null };
}

/** Whether a long word of `el`'s text runs over two lines. */
function broken(el) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (const m of node.textContent.matchAll(LONG)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) return true;
    }
  }
  return false;
}

/** Shrink every marked text under `root` whose long word broke, and remember its size. */
export function fitWords(root) {
  for (const el of root.querySelectorAll("[data-fit]")) {
    if (!el.isConnected || !broken(el)) continue;
    const base = parseFloat(getComputedStyle(el).fontSize);
    let px = base;
    while (px > base * FLOOR && broken(el)) {
      px = Math.round(px * 9) / 10;
      el.style.fontSize = `${px}px`;
    }
    sizes.set(`${el.dataset.fit}|${window.innerWidth}|${el.textContent}`, px);
  }
}
