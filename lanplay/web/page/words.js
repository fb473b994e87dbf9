// Texts in the browser's language from the same gettext catalogues the window uses
// (the host serves them as JSON: /locale/<lang>.json). `_` is the page's own words
// (lanplay-web), `render` a message the host sent as a key (lanplay/messages.py does
// the same on a laptop), `content` a picture's name or a game's word.

const CONTENT_KINDS = new Set(["picture", "question", "topic", "category", "axis", "game",
  "game-summary", "mode", "mode-help", "option", "option-help", "choice", "ranking-top"]);
const MAX_TEXT = 1000;
const MAX_ITEMS = 64;
const MAX_DEPTH = 4;
const FIELD = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
export const LANGUAGES = ["en", "de", "es"];

let catalogues = { lanplay: {}, "lanplay-content": {}, "lanplay-web": {} };
export let lang = "en";

/** The browser's first language lanplay speaks (or the one ?lang= names). */
export function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  const wanted = [asked, ...(navigator.languages || [navigator.language])]
    .filter(Boolean).map((l) => l.toLowerCase().slice(0, 2));
  return wanted.find((l) => LANGUAGES.includes(l)) || "en";
}

export async function load(language) {
  lang = language;
  document.documentElement.lang = language;
  if (language === "en") return;
  try {
    const got = await fetch(`/locale/${language}.json`);
    if (got.ok) catalogues = (await got.json()).domains;
  } catch (err) {
    console.warn("no catalogue", err);
  }
}

function lookup(domain, key) {
  const found = catalogues[domain] && catalogues[domain][key];
  return typeof found === "string" ? found : null;
}

function plural(domain, key, pluralKey, n) {
  const found = catalogues[domain] && catalogues[domain][key];
  if (Array.isArray(found) && found.length >= 2 && found.every(Boolean)) {
    return found[n === 1 ? 0 : 1];  // English, German and Spanish: n != 1
  }
  return n === 1 ? key : pluralKey;
}

export function fill(template, values) {
  let missing = false;
  const out = template.replace(FIELD, (whole, name) => {
    if (whole === "{{" || whole === "}}") return whole[0];
    if (!Object.hasOwn(values, name)) { missing = true; return whole; }
    return values[name];
  });
  return missing ? null : out;
}

/** The page's own words; `{field}`s filled from `args`. */
export function _(text, args = {}) {
  const translated = lookup("lanplay-web", text) || text;
  return fill(translated, args) ?? fill(text, args) ?? text;
}

export function ngettext(one, many, n, args = {}) {
  const translated = plural("lanplay-web", one, many, n);
  const values = { n, ...args };
  return fill(translated, values) ?? fill(n === 1 ? one : many, values) ?? one;
}

export function content(kind, id, text) {
  return lookup("lanplay-content", `${kind}:${id}\u0004${text}`) || text;
}

function number(value) {
  if (!Number.isFinite(value)) return "?";
  if (Number.isInteger(value)) return String(value);
  const point = (lookup("lanplay", "decimal point: .") || ".").slice(-1) || ".";
  return String(Number(value.toPrecision(6))).replace(".", point);
}

function seatName(value, names) {
  if (Number.isInteger(value)) {
    if (value >= 0 && value < names.length) return String(names[value]);
    return render({ key: "seat {n}", args: { n: value + 1 } }, names, MAX_DEPTH);
  }
  return lookup("lanplay", "someone") || "someone";
}

function joined(parts, join, names) {
  if (!parts.length) return "";
  const comma = lookup("lanplay", "{first}, {second}") || "{first}, {second}";
  const lastKey = join === "and" ? "{first} and {second}"
    : join === "or" ? "{first} or {second}" : "{first}, {second}";
  const last = lookup("lanplay", lastKey) || lastKey;
  let out = parts[0];
  parts.slice(1).forEach((part, i) => {
    const template = i + 2 === parts.length ? last : comma;
    out = fill(template, { first: out, second: part }) ?? `${out}, ${part}`;
  });
  return out;
}

function arg(value, names, depth) {
  if (typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return String(value);
  if (typeof value === "number") return number(value);
  if (typeof value === "string") return value.slice(0, MAX_TEXT);
  if (value === null || typeof value !== "object" || Array.isArray(value) || depth > MAX_DEPTH) {
    return "?";
  }
  if ("key" in value) return render(value, names, depth);
  if ("seat" in value) return seatName(value.seat, names);
  if ("seats" in value) {
    const list = Array.isArray(value.seats) ? value.seats.slice(0, MAX_ITEMS) : [];
    return joined(list.map((s) => seatName(s, names)), "and", names);
  }
  if ("list" in value) {
    const list = Array.isArray(value.list) ? value.list.slice(0, MAX_ITEMS) : [];
    const join = ["comma", "and", "or"].includes(value.join) ? value.join : "comma";
    return joined(list.map((v) => arg(v, names, depth + 1)), join, names);
  }
  const text = typeof value.text === "string" ? value.text.slice(0, MAX_TEXT) : "?";
  for (const [kind, id] of Object.entries(value)) {
    if (CONTENT_KINDS.has(kind) && typeof id === "string") return content(kind, id.slice(0, 200), text);
  }
  return text;
}

/** A message from the host in this page's language, seats named from `names`; never throws. */
export function render(message, names = [], depth = 0) {
  try {
    if (typeof message === "string") return message.slice(0, MAX_TEXT);
    if (message === null || typeof message !== "object") return "";
    let key = message.key;
    if (typeof key !== "string") {
      if (typeof message.text === "string") {
        const seats = Array.isArray(message.seats) ? message.seats : [];
        return message.text.replace(/\{\{|\}\}|\{([0-9]{1,2})\}/g, (whole, i) =>
          i === undefined ? whole[0] : (Number(i) < seats.length ? seatName(seats[Number(i)], names) : whole));
      }
      return "";
    }
    key = key.slice(0, MAX_TEXT);
    if (!key) return "";
    const args = message.args && typeof message.args === "object" && !Array.isArray(message.args)
      ? message.args : {};
    const values = {};
    for (const [k, v] of Object.entries(args).slice(0, MAX_ITEMS)) {
      values[k.slice(0, 40)] = arg(v, names, depth + 1);
    }
    let translated;
    let english = key;
    if (typeof message.plural === "string" && Number.isInteger(args.n)) {
      translated = plural("lanplay", key, message.plural.slice(0, MAX_TEXT), args.n);
      english = args.n === 1 ? key : message.plural.slice(0, MAX_TEXT);
    } else {
      translated = lookup("lanplay", key) || key;
    }
    return (fill(translated, values) ?? fill(english, values) ?? english).slice(0, MAX_TEXT);
  } catch (err) {
    return "";
  }
}
