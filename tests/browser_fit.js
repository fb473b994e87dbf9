// The page's fit check (tests/test_browser_screens.py): every text on screen whole,
// inside the page and its box, and overlapping no other text that is not covered.
() => {
  const out = [];
  const W = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > W + 1) out.push(`the page is ${document.documentElement.scrollWidth}px wide in ${W}px`);
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    if (el.closest(".unseen")) continue;  // words for a screen reader only, drawn nowhere
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    // a word broken across lines ("Filmprojekto" / "r" in a narrow picture's caption)
    if (rects.length > 1) {
      const text = node.textContent;
      for (const m of text.matchAll(/[^\s-]{2,}/g)) {  // after a hyphen is a fine break
        const word = document.createRange();
        word.setStart(node, m.index);
        word.setEnd(node, m.index + m[0].length);
        const tops = new Set([...word.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(`word broken: ${m[0].slice(0, 40)}`);
      }
    }
    const box = el.getBoundingClientRect();
    if (style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1) out.push(`elided: ${node.textContent.slice(0, 40)}`);
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") {
        if (s.overflowX === "auto" || s.overflowX === "scroll" || s.overflowY === "auto" || s.overflowY === "scroll") break;
        const c = a.getBoundingClientRect();
        for (const r of rects) if (r.right > c.right + 1 || r.left < c.left - 1) out.push(`clipped: ${node.textContent.slice(0, 40)}`);
        break;
      }
    }
    // what a part that scrolls in itself shows of the text: the rest is scrolled away
    let view = null;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (["auto", "scroll"].includes(s.overflowY) || ["auto", "scroll"].includes(s.overflowX)) {
        view = a.getBoundingClientRect();
        break;
      }
    }
    for (const whole of rects) {
      if (whole.right > W + 1 || whole.left < -1) out.push(`off the page: ${node.textContent.slice(0, 40)}`);
      const r = !view ? whole : { left: Math.max(whole.left, view.left), right: Math.min(whole.right, view.right),
                                  top: Math.max(whole.top, view.top), bottom: Math.min(whole.bottom, view.bottom) };
      if (r.right - r.left < 1 || r.bottom - r.top < 1) continue;
      const x = Math.min(W - 1, Math.max(0, (r.left + r.right) / 2));
      const y = (r.top + r.bottom) / 2;
      if (y < 0 || y > innerHeight) continue;
      const top = document.elementFromPoint(x, y);
      if (!top || !(top === el || el.contains(top) || top.contains(el))) continue;
      texts.push({ r, el, t: node.textContent.trim().slice(0, 40) });
    }
  }
  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
    const a = texts[i], b = texts[j];
    if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
    // a notice floats over the table's head for a moment by design (a move that crossed
    // a change of the table, under load): whole and inside the page, but over others
    if (a.el.closest('#notice') || b.el.closest('#notice')) continue;
    const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
    const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
    if (w > 2 && h > 2) out.push(`overlap: "${a.t}" and "${b.t}"`);
  }
  return [...new Set(out)];
}
