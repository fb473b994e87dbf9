// A part of the page that scrolls in itself (the table's public part, your own part,
// the log, the rules) shows where more of it lies: its content fades out at that edge.
// Without it, a line cut by the part's edge read as cut off, not as "scroll for more"
// (S-tier's "Your team: Red (Bot 2 and" under an open guide on a 360x640 phone).
//
// The mark is `data-more` ("above", "below" or "both"), which a redraw leaves on the
// live element (dom.js). It is read once the frame's layout is done, not in the
// drawing, so marking costs no layout of its own, and an unchanged mark is not written.

const PARTS = ".public, .private, .log, .chat, .rules-text, .end-box";
const SLACK = 6;  // px hidden that need no mark (a part's own padding)

let pending = false;

/** Marks each scrolling part by what it hides, at the next frame (call after drawing). */
export function markScrolls() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    for (const el of document.querySelectorAll(PARTS)) mark(el);
  });
}

function mark(el) {
  const hidden = el.scrollHeight - el.clientHeight;
  const above = el.scrollTop > SLACK;
  const below = hidden - el.scrollTop > SLACK;
  const more = above && below ? "both" : above ? "above" : below ? "below" : null;
  if ((el.getAttribute("data-more") || null) === more) return;
  if (more) el.setAttribute("data-more", more);
  else el.removeAttribute("data-more");
}

document.addEventListener("scroll", (e) => {
  if (e.target instanceof Element && e.target.matches(PARTS)) mark(e.target);
}, { capture: true, passive: true });
window.addEventListener("resize", markScrolls);
