// A part of the page that scrolls in itself (the table's public part, your own part,
// the log, the rules) shows where more of it lies: its content fades out at that edge.
// Without it, a line cut by the part's edge read as cut off, not as "scroll for more"
// (S-tier's "Your team: Red (Bot 2 and" under an open guide on a 360x640 phone).

const PARTS = ".public, .private, .log, .chat, .rules-text, .end-box";
const FADE = 24;  // px at most; less when less is hidden

/** Marks each scrolling part under `root` by what it hides (call after each drawing). */
export function markScrolls(root = document) {
  for (const el of root.querySelectorAll(PARTS)) mark(el);
}

function mark(el) {
  const hidden = el.scrollHeight - el.clientHeight;
  const above = hidden > 1 ? Math.min(FADE, el.scrollTop) : 0;
  const below = hidden > 1 ? Math.min(FADE, hidden - el.scrollTop) : 0;
  el.classList.toggle("more-above", above > 1);
  el.classList.toggle("more-below", below > 1);
  el.style.setProperty("--above", `${Math.max(0, above)}px`);
  el.style.setProperty("--below", `${Math.max(0, below)}px`);
}

document.addEventListener("scroll", (e) => {
  if (e.target instanceof Element && e.target.matches(PARTS)) mark(e.target);
}, { capture: true, passive: true });
