// Issue 32 (tests/browserhelpers.py tap): a control a move needs lies whole inside the
// viewport and uncovered, without scrolling: null, or what is wrong.
(sel) => {
  const el = document.querySelector(sel);
  if (!el) return 'missing';
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return 'not drawn';
  if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
    return `outside the viewport: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`;
  }
  // whole inside every part that scrolls or clips it (a part scrolled by a thumb, or by
  // a click that had to scroll first, would hide it from the next view)
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    const style = getComputedStyle(box);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const b = box.getBoundingClientRect();
    if (r.left < b.left - 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1) {
      return `cut by ${box.id || box.className || box.tagName}: ${Math.round(r.top)}-${Math.round(r.bottom)} in ${Math.round(b.top)}-${Math.round(b.bottom)}`;
    }
  }
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  const top = document.elementFromPoint(x, y);
  if (!top || !(top === el || el.contains(top))) return `covered by ${top ? top.id || top.getAttribute('class') || top.tagName : 'nothing'}${top && top.dataset && top.dataset.frog !== undefined ? ` (frog ${top.dataset.frog})` : ''}`;
  return null;
}
