// A few helpers to build the page's elements (no framework: plain DOM).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key === "onclick" && typeof value === "function") {
      // A click is one choice: a picture on a tier row does not click the row too (the
      // redraw in the handler may just have given the row a handler of its own).
      el.onclick = (e) => { e.stopPropagation(); return value(e); };
    } else if (key.startsWith("on") && typeof value === "function") {
      el[key.toLowerCase()] = value;  // a property, so that morph can carry it over
    } else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** Black or white text on a colour, whichever reads better. */
export function ink(colour) {
  const m = /^#([0-9a-f]{6})$/i.exec(colour || "");
  if (!m) return "#fff";
  const n = parseInt(m[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.28 ? "#111" : "#fff";
}

/**
 * A region of the page drawn again only when its key (what it shows, as a string) changes:
 * otherwise a stand-in that `morph` leaves the live region for, without building or
 * comparing what is under it. `id` names the region on the page.
 */
export function region(id, key, build) {
  const live = document.getElementById(id);
  if (live && live.getAttribute("data-key") === key) {
    return h(live.tagName.toLowerCase(), { id, "data-key": key, "data-same": true });
  }
  const el = build();
  el.id = id;
  el.setAttribute("data-key", key);
  return el;
}

const HANDLERS = ["onclick", "oninput", "onchange", "onsubmit", "onkeydown", "onpointerdown"];
/** Attributes the page puts on the live tree after drawing it (scrollcue.js's marks):
 * a redraw that does not name them leaves them be. */
const LIVE = new Set(["data-more"]);

/**
 * Make `old` look like `fresh` by changing only what differs (a table redrawn for every
 * delta then costs the browser the style and layout of what changed, not of the page).
 * Handlers travel as `on…` properties; a focused input keeps what is being typed.
 */
export function morph(old, fresh) {
  if (old === fresh) return old;
  if (fresh.nodeType === Node.ELEMENT_NODE && fresh.hasAttribute("data-same")
      && old.nodeType === Node.ELEMENT_NODE && old.getAttribute("data-key") === fresh.getAttribute("data-key")) {
    return old;  // a region whose key has not changed: nothing under it to compare
  }
  if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName
      || (old.namespaceURI !== fresh.namespaceURI)
      // a new event to animate (`data-anim`: the jump's or the trick's number): a new
      // element, so its animation plays from the start
      || (fresh.nodeType === Node.ELEMENT_NODE && old.getAttribute("data-anim") !== fresh.getAttribute("data-anim"))) {
    old.replaceWith(fresh);
    return fresh;
  }
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.data !== fresh.data) old.data = fresh.data;
    return old;
  }
  if (old.nodeType !== Node.ELEMENT_NODE) {
    old.replaceWith(fresh);
    return fresh;
  }
  const olds = old.attributes;
  for (let i = olds.length - 1; i >= 0; i--) {
    const name = olds[i].name;
    if (!fresh.hasAttribute(name) && !LIVE.has(name)) old.removeAttribute(name);
  }
  const news = fresh.attributes;
  for (let i = 0; i < news.length; i++) {
    const { name, value } = news[i];
    if (old.getAttribute(name) === value) continue;
    // The style through the element's own declarations: Chromium (156) took a new style
    // attribute into getAttribute but kept drawing the old background, so a trick's
    // chips kept the colours of the seats whose chips they had been (issue 32).
    if (name === "style" && old.style && fresh.style) old.style.cssText = fresh.style.cssText;
    else old.setAttribute(name, value);
  }
  for (const key of HANDLERS) {
    if (old[key] !== fresh[key]) old[key] = fresh[key];
  }
  if ((old.tagName === "INPUT" || old.tagName === "SELECT") && document.activeElement !== old
      && old.value !== fresh.value) {
    old.value = fresh.value;
  }
  if (old.tagName === "INPUT" && old.checked !== fresh.checked) old.checked = fresh.checked;
  let a = old.firstChild;
  let b = fresh.firstChild;
  while (b) {
    const next = b.nextSibling;
    if (a) {
      const after = a.nextSibling;
      morph(a, b);
      a = after;
    } else {
      old.append(b);
    }
    b = next;
  }
  while (a) {
    const after = a.nextSibling;
    a.remove();
    a = after;
  }
  return old;
}
