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
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  const top = document.elementFromPoint(x, y);
  if (!top || !(top === el || el.contains(top))) return `covered by ${top ? top.id || top.className || top.tagName : 'nothing'}`;
  return null;
}
