// Issue 32 (tests/browserhelpers.py play(strict=True)): at every view the "what now" line
// is on screen, and it is the player's (lit) exactly when the view offers something to do.
() => {
  const p = window.__lanplay;
  if (p.shownState !== p.conn.stateId) return null;  // the next view is on its way to the screen
  const s = document.getElementById('status');
  if (!s || !s.innerText.trim()) return 'no what-now line';
  const r = s.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight + 1 || r.height < 4) return 'the what-now line is off screen';
  const view = p.keeper.shown();
  const may = (view.may || []).filter((t) => !['count', 'reveal', 'void', 'timeout'].includes(t.type));
  if (may.length && !s.classList.contains('mine')) return `may ${may.map((t) => t.type)} but the line says: ${s.innerText}`;
  if (!may.length && s.classList.contains('mine')) return `nothing to do but the line says: ${s.innerText}`;
  return null;
}
