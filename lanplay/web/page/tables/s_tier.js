// S-tier, all three modes: the tier list, the pictures, and the leader's note
// written here and kept in this browser (keeper.js). Tap a picture, then a tier.

import { h, region } from "../dom.js";
import { players, templates } from "./index.js";

const TIERS = ["S", "A", "B", "C", "D"];
const TIER_COLOURS = ["#FF7F7F", "#FFBF7F", "#FFDF7F", "#FFFF7F", "#BFFF7F"];

function nameOf(view, id) {
  for (const p of view.pictures || []) if (p && p.id === id) return p.name;
  for (const c of view.cards || []) {
    if (c[0] === id) return c[1];
    if (c[2] === id) return c[3];
  }
  return id;
}

function tierRows(ctx, place, { onTier = null, drop = () => false, id = "tiers", compact = false, tight = false,
  named = false } = {}) {
  const cls = "tiers" + (compact ? " compact" : "") + (tight ? " tight" : "") + (named ? " named" : "");
  return h("div", { class: cls, id }, TIERS.map((letter, t) => h("div", {
    class: "tier" + (drop(t) ? " drop" : ""), "data-tier": t,
    onclick: drop(t) && onTier ? () => onTier(t) : null },
  h("span", { class: "letter", style: { background: TIER_COLOURS[t] } }, letter),
  h("div", { class: "slot" }, place(t)))));
}

/** The note editor of a `commit` template (`choose.commitment.note` says the form). */
function noteEditor(ctx, template) {
  const { view, _, scratch } = ctx;
  const form = template.choose.commitment.note;
  const hinted = Boolean(template.choose.hint);
  const note = scratch.note || (scratch.note = { tiers: form.form === "tiering"
    ? form.pictures.map(() => null) : [null, null, null, null, null], pick: null, hint: null });
  const send = () => {
    const action = { type: "note", tiers: note.tiers.slice() };
    if (hinted) action.hint = note.hint;
    scratch.note = null;
    ctx.act(action);
  };
  if (form.form === "tiering") {
    const counts = TIERS.map((_t, t) => note.tiers.filter((x) => x === t).length);
    const ok = note.tiers.every((x) => x !== null)
      && counts.every((n) => n >= form.min_per_tier && n <= form.max_per_tier);
    return [h("div", { class: "zone tight-stack", id: "note" },
      h("div", { class: "label" }, _("Your note: a tier for each picture (each tier {low} to {high} times)",
        { low: form.min_per_tier, high: form.max_per_tier })),
      form.pictures.map((id, i) => h("div", { class: "row note-row", "data-picture": id }, ctx.pic(id, nameOf(view, id), { size: "small" }),
        TIERS.map((letter, t) => h("button", { "aria-pressed": String(note.tiers[i] === t), "data-tier": t,
          class: note.tiers[i] === t ? "primary" : "",
          onclick: () => { note.tiers[i] = t; ctx.redraw(); } }, letter))))),
    h("button", { class: "primary big", id: "write-note", disabled: !ok, onclick: send }, _("Write the note"))];
  }
  const placed = new Set(note.tiers.filter(Boolean));
  const used = (faces) => faces.some((f) => placed.has(f));
  const pool = form.choices.flatMap((faces) => used(faces) ? [] : faces);
  const empty = note.tiers.filter((x) => x === null).length;
  const ok = empty === form.empty && (!hinted || (Number.isInteger(note.hint) && note.tiers[note.hint]));
  const place = (t) => {
    const id = note.tiers[t];
    if (!id) return null;
    return [ctx.pic(id, nameOf(view, id), { size: "small", chosen: note.pick === id,
      onclick: () => { note.tiers[t] = null; if (note.hint === t) note.hint = null; ctx.redraw(); } }),
    hinted ? h("button", { class: note.hint === t ? "primary" : "", "aria-pressed": String(note.hint === t), "data-hint": t,
      onclick: (e) => { e.stopPropagation(); note.hint = t; ctx.redraw(); } }, _("Show this one")) : null];
  };
  return [h("div", { class: "zone tight-stack" + (hinted ? "" : " beside"), id: "note" },
    form.empty ? h("div", { class: "label" }, _("Leave one tier empty.")) : null,
    tierRows(ctx, place, { id: "note-tiers", tight: true, drop: () => note.pick !== null,
      onTier: (t) => { note.tiers[t] = note.pick; note.pick = null; ctx.redraw(); } }),
    h("div", { class: "pics", id: "note-pool" }, pool.map((id) => ctx.pic(id, nameOf(view, id), {
      size: "small", legal: true, chosen: note.pick === id,
      onclick: () => { note.pick = note.pick === id ? null : id; ctx.redraw(); } })))),
  h("button", { class: "primary big", id: "write-note", disabled: !ok, onclick: send }, _("Write the note"))];
}

const TEAM_COLOURS = ["#2e9b57", "#c8453a"];

function teamName(ctx, team) { return team === 0 ? ctx._("Green") : ctx._("Red"); }

/** The track in words and as a row of steps: where each token stands, the star, and
 * what moves them (the window's track, said for a first game). */
function track(ctx, view) {
  const { _ } = ctx;
  const t = view.track || {};
  if (!Number.isInteger(t.star)) return null;
  const cells = [];
  for (let i = 0; i <= t.star; i++) {
    cells.push(h("span", { class: "step" + (i === t.star ? " star" : "") },
      i === t.star ? "★" : "",
      t.green === i ? h("span", { class: "token green", title: _("Green") }, "G") : null,
      t.red === i ? h("span", { class: "token red", title: _("Red") }, "R") : null));
  }
  const words = view.mode === "cooperative"
    ? _("Green token {green} of {star} steps, red token {red} of {star}. Three or more right move green on, fewer move red: green at the star first, you all win; red first, you all lose.", t)
    : _("Green {green} of {star} steps, Red {red} of {star}. The team with more right pictures moves on (a tie: both); the first at the star wins.", t);
  return h("div", { class: "track-zone", id: "track" }, h("div", { class: "track" }, cells), h("p", { class: "meaning" }, words));
}

/** The last round's reveal, on the table: what the note said beside what was played,
 * each marked right or wrong (until the next round's pieces are played). */
function revealZone(ctx, view) {
  const { _ } = ctx;
  const last = view.last;
  if (!last || last.kind !== "reveal" || !["note", "notes", "over"].includes(view.phase)) return null;
  const mark = (right) => h("span", { class: right ? "right" : "wrong" }, right ? "✓" : "✗");
  const name = (id) => (id ? ctx.content("picture", id, nameOf(view, id)) : "—");
  let rows = [];
  let title = _("The reveal");
  if (view.mode === "cooperative" && Array.isArray(last.note) && Array.isArray(last.board)) {
    title = _("The reveal: {correct} of 5 right", { correct: last.correct ?? 0 });
    rows = TIERS.map((letter, t) => h("li", {}, h("b", {}, letter), " ", _("note: {note} · board: {board}",
      { note: name(last.note[t]), board: name(last.board[t]) }), " ", mark(last.note[t] === last.board[t])));
  } else if (view.mode === "competitive" && Array.isArray(last.note) && Array.isArray(last.pictures)) {
    const pics = last.pictures;
    rows = (last.dealt || []).map((id, seat) => {
      if (!id) return null;
      const i = pics.findIndex((p) => p && p.id === id);
      const placed = (last.placements || [])[seat];
      return h("li", {}, ctx.badge(seat), " ", _("{picture}: on {placed}, the note {tier}", {
        picture: ctx.content("picture", id, pics[i] ? pics[i].name : id),
        placed: Number.isInteger(placed) ? TIERS[placed] : "—", tier: TIERS[last.note[i]] || "?" }),
      " ", mark((last.correct || []).includes(seat)));
    });
  } else if (view.mode === "team" && Array.isArray(last.pictures)) {
    rows = last.pictures.map((p) => h("li", {}, h("span", { class: "team-dot", style: { background: TEAM_COLOURS[p.taken ?? p.team] } }),
      _("{picture} on {tier}", { picture: ctx.content("picture", p.id, p.name), tier: Number.isInteger(p.tier) ? TIERS[p.tier] : "—" }),
      " ", mark(p.right)));
  }
  return h("div", { class: "zone reveal", id: "reveal" }, h("div", { class: "label" }, title), h("ul", { class: "reveal-list" }, rows));
}

/** The round and who leads it (competitive and cooperative: one leader; team: two). */
function roundLine(ctx, view) {
  const { _ } = ctx;
  if (view.mode === "team") {
    const leaders = view.leaders || [];
    return _("Round {n} · leaders: {green} for Green, {red} for Red",
      { n: view.round, green: ctx.who([leaders[0]]), red: ctx.who([leaders[1]]) });
  }
  if (view.mode === "cooperative" && view.phase === "guess") {
    return _("Round {n} · attempt {attempt} of 2 · {leader} leads", { n: view.round, attempt: view.attempt, leader: ctx.who([view.leader]) });
  }
  if (view.leader === ctx.me) return _("Round {n} · you lead", { n: view.round });
  return _("Round {n} · {leader} leads", { n: view.round, leader: ctx.who([view.leader]) });
}

export function draw(ctx) {
  const { view, _, scratch } = ctx;
  const mode = view.mode;
  const topic = view.topic ? ctx.content("topic", view.topic.id, view.topic.text) : null;
  const handled = new Set(["commit", "move", "take", "place", "lock", "unlock"]);
  const myTeam = (view.teams || []).findIndex((team) => team.includes(ctx.me));
  const pub = [players(ctx, { turn: view.actors || [], key: JSON.stringify([mode, view.won || []]),
    extra: (i) => mode === "team" ? h("span", { class: "team-dot", style: { background: TEAM_COLOURS[i % 2] },
      title: teamName(ctx, i % 2) }) : mode === "competitive" && (view.won || [])[i]
      ? h("span", { class: "muted" }, ` ${(view.won || [])[i]}`) : null }),
  h("div", { class: "zone", id: "round" }, h("div", { class: "label", id: "round-line" }, roundLine(ctx, view)),
    myTeam >= 0 ? h("p", { class: "your-team", id: "your-team", style: { borderColor: TEAM_COLOURS[myTeam] } },
      _("Your team: {team} ({names})", { team: teamName(ctx, myTeam), names: ctx.who(view.teams[myTeam]) })) : null),
  region("track-region", JSON.stringify([view.mode, view.track || null]), () => h("div", {}, track(ctx, view))),
  revealZone(ctx, view)];
  const actions = [];
  let priv = null;
  let status = null;
  let waiting = null;
  const spots = {};
  const commit = templates(ctx, "commit")[0];
  if (commit) {
    const [editor, button] = noteEditor(ctx, commit);
    priv = editor;
    actions.push(button);
    status = commit.choose.commitment.note.form === "tiering" ? _("You lead: write your note: a tier for each picture.")
      : _("You lead: write your note: tap a picture, then its tier.");
    Object.assign(spots, { board: "note", pool: "note" });
  } else {
    scratch.note = null;
  }
  const moves = templates(ctx, "move");
  const takes = templates(ctx, "take");
  const pick = scratch.pick;
  const pickable = new Set([...moves, ...takes].map((t) => t.picture));
  if (pick && !pickable.has(pick)) scratch.pick = null;
  const choose = (id) => () => { scratch.pick = scratch.pick === id ? null : id; ctx.redraw(); };
  const toTier = (t) => {
    const found = [...moves, ...takes].find((x) => x.picture === scratch.pick && x.tier === t);
    scratch.pick = null;
    if (found) ctx.act({ ...found });
  };
  const droppable = (t) => Boolean(scratch.pick) && [...moves, ...takes].some((x) => x.picture === scratch.pick && x.tier === t);
  const leaderName = ctx.who([view.leader]);
  if (["note", "notes"].includes(view.phase) && !commit) {
    waiting = view.mode === "team" ? _("Waiting for the leaders to write their notes.")
      : _("Waiting for {leader} to write the note.", { leader: leaderName });
  } else if (["count", "reveal"].includes(view.phase)) {
    waiting = _("The leader's laptop checks the board against the note…");
  }
  if (mode === "cooperative") {
    const board = view.board || [];
    const onBoard = new Set(board.filter(Boolean));
    const pics = view.pictures || [];
    const place = (t) => board[t] ? ctx.pic(board[t], nameOf(view, board[t]), { size: "small",
      legal: pickable.has(board[t]), chosen: scratch.pick === board[t],
      onclick: pickable.has(board[t]) ? choose(board[t]) : null }) : null;
    if (!commit) {
      if (view.note) {
        pub.push(h("div", { class: "zone" }, h("div", { class: "label" }, _("The note")),
          tierRows(ctx, (t) => view.note[t] ? ctx.pic(view.note[t], nameOf(view, view.note[t]), { size: "small" }) : null, { id: "my-note" })));
      }
      const locked = (view.locked || []).includes(ctx.me);
      priv = h("div", { class: "stack tight-stack beside" },
        tierRows(ctx, place, { id: "board", drop: droppable, onTier: toTier, tight: true }),
        h("div", { class: "pics", id: "pool" }, pics.filter((p) => !onBoard.has(p.id)).map((p) => ctx.pic(p.id, p.name, {
          size: "small", legal: pickable.has(p.id), chosen: scratch.pick === p.id, onclick: pickable.has(p.id) ? choose(p.id) : null }))),
        scratch.pick && moves.some((x) => x.picture === scratch.pick && x.tier === null)
          ? h("button", { id: "back-to-pool", onclick: () => toTier(null) }, _("Back to the pool")) : null);
      // One of Lock in and Unlock: the one that changes something (a lock is undone by
      // any move, or by Unlock); how many are locked beside it.
      const lock = templates(ctx, "lock")[0];
      const unlock = templates(ctx, "unlock")[0];
      if (lock && !locked) actions.push(h("button", { class: "primary", "data-type": "lock", id: "lock", onclick: () => ctx.act({ ...lock }) }, _("Lock in")));
      if (unlock && locked) actions.push(h("button", { "data-type": "unlock", id: "unlock", onclick: () => ctx.act({ ...unlock }) }, _("Unlock")));
      if (view.phase === "guess") actions.push(h("span", { class: "muted", id: "locked-count" }, ngLocked(ctx, view)));
      if (moves.length || lock || unlock) {
        status = scratch.pick ? _("Now tap a tier.")
          : locked ? _("You are locked in; when everyone is, the board is checked. Unlock to change it.")
            : onBoard.size < 5 && pics.length ? _("Arrange the board together: tap a picture, then a tier.")
              : _("All placed: lock in when you agree.");
      } else if (view.phase === "guess") {
        waiting = view.leader === ctx.me ? _("You lead: the others arrange the board.")
          : _("Waiting for {names} to lock in.", { names: ctx.who((view.guessers || []).filter((s) => !(view.locked || []).includes(s))) });
      }
      // An empty pool (everything placed before the guide got there) has nothing to
      // frame: the step about placing points at the board the pictures lie on.
      const pooled = pics.some((p) => !onBoard.has(p.id));
      Object.assign(spots, { board: "board", pool: pooled ? "pool" : "board" });
    }
  } else if (mode === "competitive") {
    const pics = view.pictures || [];
    const dealt = ctx.me !== null ? (view.dealt || [])[ctx.me] : null;
    if (!commit) {
      pub.push(h("div", { class: "pics", id: "round-pictures" }, pics.map((p) => ctx.pic(p.id, p.name, { size: "small", chosen: p.id === dealt }))));
      const places = templates(ctx, "place");
      priv = h("div", { class: "zone", id: "mine" },
        dealt ? ctx.pic(dealt, nameOf(view, dealt), { size: "big" }) : null,
        view.note ? h("p", {}, _("The note: {note}", { note: pics.map((p, i) => `${ctx.content("picture", p.id, p.name)} ${TIERS[view.note[i]] || "?"}`).join(", ") })) : null,
        Number.isInteger(view.placed) ? h("p", {}, _("You placed it on {tier}.", { tier: TIERS[view.placed] })) : null);
      const row = places.map((t) => h("button", { class: "primary big", "data-tier": t.tier, onclick: () => ctx.act({ ...t }) }, TIERS[t.tier]));
      if (row.length) actions.push(h("div", { class: "tier-buttons", id: "tier-buttons" }, row));
      if (places.length) status = _("On which tier did {leader} write your picture? S is best.", { leader: leaderName });
      else if (view.phase === "place") {
        waiting = view.leader === ctx.me ? _("You lead: the others place their pictures.")
          : _("Waiting for {names} to place their pictures.", { names: ctx.who(view.actors) });
      }
      Object.assign(spots, { board: "tier-buttons", pool: "mine" });
    }
  } else if (mode === "team") {
    const pics = view.pictures || [];
    const side = (team, compact) => tierRows(ctx, (t) => pics.filter((p) => p.taken === team && p.tier === t).map((p) =>
      ctx.pic(p.id, p.name, { size: "small", legal: pickable.has(p.id), chosen: scratch.pick === p.id,
        onclick: pickable.has(p.id) ? choose(p.id) : null })),
    { id: `side-${team}`, drop: (t) => team === myTeam && droppable(t), onTier: toTier, compact: true, named: !compact });
    if (!commit) {
      const sideLabel = (team) => h("div", { class: "label" }, h("span", { class: "team-dot", style: { background: TEAM_COLOURS[team] } }),
        team === myTeam ? _("{team}: your team's side", { team: teamName(ctx, team) }) : teamName(ctx, team));
      const order = myTeam === 1 ? [0, 1] : [1, 0];  // the other side compact above, yours below
      pub.push(h("div", { class: "zone", "data-team": order[0] }, sideLabel(order[0]), side(order[0], myTeam >= 0)));
      priv = h("div", { class: "stack tight-stack" },
        h("div", { class: "zone", "data-team": order[1] }, sideLabel(order[1]), side(order[1], false)),
        view.note ? h("p", {}, _("Your note: {note}", { note: view.note.map((id, t) => `${TIERS[t]} ${ctx.content("picture", id, nameOf(view, id))}`).join(", ") })) : null,
        h("div", { class: "pics", id: "untaken" }, pics.filter((p) => p.taken === null).map((p) => ctx.pic(p.id, p.name, {
          size: "small", legal: pickable.has(p.id), chosen: scratch.pick === p.id, onclick: pickable.has(p.id) ? choose(p.id) : null }))));
      if (takes.length || moves.length) {
        status = scratch.pick ? _("Now tap a tier on your side ({team}).", { team: teamName(ctx, myTeam) })
          : moves.length ? _("Wrong! Move the picture to another tier on your side.")
            : _("Your team's turn: take a picture onto a tier of your side.");
      } else if (view.phase === "take" && Number.isInteger(view.turn)) {
        waiting = _("Waiting for {team} to take a picture.", { team: teamName(ctx, view.turn) });
      } else if (view.phase === "wrong") {
        waiting = _("Waiting for {team}'s leader: Wrong, or silent?", { team: teamName(ctx, (view.pending || {}).team) });
      } else if (view.phase === "fix") {
        waiting = _("Waiting for {team} to move the picture.", { team: teamName(ctx, (view.pending || {}).team) });
      }
      Object.assign(spots, { board: `side-${myTeam >= 0 ? myTeam : 0}`, pool: "untaken" });
    }
  }
  if (ctx.may.some((t) => t.type === "wrong")) status = _("Is that picture on the wrong tier? Say Wrong or stay silent.");
  // The topic heads your own part: what the note, the board and your picture are about
  // stays in sight however little room the public part has.
  const topicLine = h("b", { class: "topic-line", id: "topic" }, topic || _("The topic is hidden while the note is written."));
  return { public: pub, private: priv ? [topicLine, priv] : null, actions, handled, status, waiting, spots };
}

/** Why a tap did nothing: the other team's side, the other team's turn, the leader. */
export function why(ctx, piece) {
  const { view, _ } = ctx;
  const myTeam = (view.teams || []).findIndex((team) => team.includes(ctx.me));
  const side = piece.closest("[data-team]");
  if (view.mode === "team" && myTeam >= 0) {
    if (side && Number(side.dataset.team) !== myTeam) {
      return _("That is {other}'s side: your team ({team}) puts pictures on its own side.",
        { other: teamName(ctx, 1 - myTeam), team: teamName(ctx, myTeam) });
    }
    if ((view.leaders || []).includes(ctx.me)) return _("You lead: your team takes the pictures; you may say Wrong once a round.");
    if (view.phase === "take" && view.turn !== myTeam) return _("It is {team}'s turn to take a picture.", { team: teamName(ctx, view.turn) });
  }
  if (view.leader === ctx.me && view.mode !== "team") return _("You lead this round: the others place the pictures.");
  if (ctx.may.length && piece.classList.contains("tier")) return _("Tap a picture first, then its tier.");
  return null;
}

function ngLocked(ctx, view) {
  const locked = (view.locked || []).length;
  const all = (view.guessers || []).length;
  return ctx._("{locked} of {all} locked in", { locked, all });
}
