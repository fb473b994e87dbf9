"""What every S-tier mode panel hands the table, and the helpers they share.

A mode panel turns a view into a ``Scene`` (banner, topic, board model,
buttons, players, track) and board gestures into intents. The table only
lays the scene out; the panels only read views. The note being written is
the one piece of local state (``NoteDraft``), kept while the round lasts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lanplay.verdict import Verdict
from ui.look import pictures
from ui.tables import look
from ui.tables.s_tier.board_model import BoardModel, Tile
from ui.tables.s_tier.note import NoteDraft
from ui.words.i18n import N_, _, and_list, content, ngettext
from ui.words.result_words import view_verdict

TIERS = ("S", "A", "B", "C", "D")
TEAM_NAMES = ("Green", "Red")
"""The teams' lanes on the board (ids; ``team_word`` says them in the window's language)."""
TEAM_WORDS = (N_("Green"), N_("Red"))
EFFECT_NAMES = {
    "choose-side": N_("Choose the side"),
    "place-one": N_("Place one picture"),
    "no-second": N_("No second attempt"),
    "take-four": N_("Take four pictures"),
}
"""The track's effects (English, marked: ``_`` where shown)."""


def team_word(team: int) -> str:
    """"Green" or "Red" in the window's language (a team's name, as in "Green wins")."""
    return _(TEAM_WORDS[team]) if 0 <= team < len(TEAM_WORDS) else "?"

Send = Callable[[dict[str, Any]], None]


@dataclass
class Button:
    label: str
    enabled: bool
    run: Callable[[], None]
    name: str
    """A stable handle for tests and key presses ("submit", "lock", "wrong")."""
    checked: bool | None = None
    tip: str = ""


@dataclass
class PlayerRow:
    seat: int
    tag: str = ""
    """Role: "leader", "Green", "Red leader"."""
    status: str = ""
    acting: bool = False
    done: bool = False
    """Answered / locked: a tick."""
    short: str = ""
    """The tag in fewer letters, for a narrow list ("G leader" for "Green leader")."""


@dataclass
class TrackModel:
    star: int
    green: int
    red: int
    meet: bool
    """Cooperative: the tokens walk towards one star; team: two tracks, each to its star."""
    effects: list[tuple[str, bool]] = field(default_factory=list)


@dataclass
class Scene:
    banner: str
    banner_seat: int | None
    info: str
    accent: bool
    topic: str
    board: BoardModel
    message: str = ""
    message_warn: bool = False
    buttons: list[Button] = field(default_factory=list)
    players: list[PlayerRow] = field(default_factory=list)
    players_title: str = N_("Players")
    """Shown through ``_`` (a panel may set a title of its own, marked)."""
    track: TrackModel | None = None
    facts: list[str] = field(default_factory=list)


class Context:
    """The view, the lobby's seats and who I am, with the names and looks derived from them."""

    def __init__(self, view: dict[str, Any], seats: list[dict[str, Any]],
                 you: int | None) -> None:
        self.view = view
        self.seats = seats
        self.you = you
        self.players = int(view.get("players", len(seats)))
        self.names = [look.seat_name(seats, s) for s in range(self.players)]
        self.phase = str(view.get("phase", ""))
        self.actors = [int(a) for a in view.get("actors") or []]
        self.over = bool(view.get("over"))
        self.round = int(view.get("round", 1) or 1)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return _("nobody")
        if seat == self.you:
            # translators: this laptop's player inside a sentence, as in "Waiting for you"
            return _("you")
        return self.names[seat] if 0 <= seat < len(self.names) else \
            _("Seat {n}").format(n=seat + 1)

    def disc(self, seat: int) -> tuple[str, str]:
        return (look.seat_colour(self.seats, seat).name(),
                look.seat_letter(self.seats, seat))

    def acting(self) -> bool:
        return self.you is not None and not self.over and self.you in self.actors

    def outcome(self) -> Verdict:
        """Who won, read from the view's winners and scores by ``lanplay.verdict`` (the
        end screen reads the same): a draw marks nobody, so no gold for everyone."""
        return view_verdict(self.view)

    def names_of(self, seats: list[int], limit: int = 4) -> str:
        """'Ben, Ada and you'; a long list ends '... and 5 more' so a banner stays short."""
        return and_list([self.name(s) for s in seats], limit) or _("nobody")

    def picture_names(self) -> dict[str, str]:
        return {str(p["id"]): pictures.shown_name(str(p["id"]), str(p.get("name", "")))
                for p in self.view.get("pictures") or []}

    def topic_text(self) -> str:
        topic = self.view.get("topic")
        if not isinstance(topic, dict):
            return ""
        return content("topic", str(topic.get("id", "")), str(topic.get("text", "")))


def tile(picture: str, names: dict[str, str], **extra: Any) -> Tile:
    return Tile(picture, pictures.name_of(picture, names.get(picture, "")), **extra)


def draft_board(draft: NoteDraft, targets: bool = True, lane: int = 0,
                lanes: tuple[str, ...] = ("",)) -> BoardModel:
    """The note being written, as a board: placed cards in tiers, the rest in the pool."""
    flip = any(len(faces) > 1 for faces in draft.cards)
    cells: dict[tuple[int, int], list[Tile]] = {}
    pool: list[Tile] = []
    for card in range(len(draft.cards)):
        pid, name = draft.shown(card)
        t = Tile(pid, pictures.name_of(pid, name), movable=True, flip=flip)
        tier = draft.at.get(card)
        if tier is None:
            pool.append(t)
        else:
            cells.setdefault((lane, tier), []).append(t)
    all_cells = frozenset((lane, t) for t in range(5)) if targets else frozenset()
    # Each card keeps its place below the tiers while the note is written: placing one
    # leaves a gap rather than sliding the others under the pointer.
    slots = tuple(Tile(pid, pictures.name_of(pid, name))
                  for pid, name in (draft.shown(card) for card in range(len(draft.cards))))
    return BoardModel(lanes=lanes, cells=cells, pool=pool, pool_title=_(
                      "Your pictures: drag each into a tier (or click it, then a tier)")
                      if pool else _("All pictures placed"), targets=all_cells, pool_target=True,
                      hint_tier=draft.hint, pool_slots=slots)


def draft_buttons(draft: NoteDraft, send: Send, refresh: Callable[[], None]) -> list[Button]:
    """Submit (only when the note is valid), plus the hint-tier choice with "place one"."""
    buttons: list[Button] = []
    if draft.hint_needed:
        for tier in range(5):
            def choose(tier: int = tier) -> None:
                draft.set_hint(None if draft.hint == tier else tier)
                refresh()
            buttons.append(Button(f"\u2605 {TIERS[tier]}", bool(draft.in_tier(tier)), choose,
                                  f"hint-{TIERS[tier]}", checked=draft.hint == tier,
                                  tip=_("Reveal the picture in tier {tier} to the guessers")
                                  .format(tier=TIERS[tier])))
    problem = draft.problem()

    def submit() -> None:
        if not draft.problem():
            send(draft.action())
    buttons.append(Button(_("Submit note"), not problem, submit, "submit",
                          tip=problem or _("Send your note; it stays secret until the reveal")))
    return buttons


ASKED = ("count", "reveal")
"""Phases in which the host waits for a leader's laptop, which answers from its note."""


def laptop_wait(ctx: Context, scene: Scene, leaders: list[int]) -> Scene:
    """The table as it lies while the leaders' laptops count or reveal (a moment; longer
    only when a leader's laptop is away, until a stand-in voids the round)."""
    waiting = [s for s in leaders if s in ctx.actors]
    counting = ctx.phase == "count"
    if ctx.you in waiting:
        scene.banner = _("Your laptop counts the board") if counting else \
            _("Your laptop reveals the note")
    else:
        owners = ctx.names_of(waiting)
        if len(waiting) == 1:
            scene.banner = (_("Waiting: {name}'s laptop counts the board") if counting else
                            _("Waiting: {name}'s laptop reveals the note")).format(name=owners)
        else:
            scene.banner = _("Waiting: the laptops of {names} reveal the notes").format(
                names=owners)
    scene.banner_seat = waiting[0] if waiting else None
    scene.accent = False
    scene.buttons = []
    scene.message = (
        _("The note stays on the leader's laptop: it counts the board itself.")
        if counting else
        _("The note stayed on the leader's laptop until now; the host checks it against "
          "all it was told.") if len(leaders) < 2 else
        _("The notes stayed on the leaders' laptops until now; the host checks each "
          "against all it was told."))
    scene.message_warn = False
    return scene


def result_words(ctx: Context) -> str:
    """Who won, in words, for the banner at the end of a competitive or team game."""
    winners = [int(s) for s in ctx.view.get("winners") or []]
    scores = list(ctx.view.get("scores") or [])
    top = max(scores) if scores else 0
    best = int(top) if float(top).is_integer() else top
    count = int(best) if isinstance(best, int) else 2
    if not winners:
        return _("Game over")
    if ctx.outcome().kind == "draw":
        return ngettext("Game over: a draw, everyone has {n} picture",
                        "Game over: a draw, everyone has {n} pictures", count).format(n=best)
    if len(winners) == 1:
        if winners[0] == ctx.you:
            return ngettext("Game over: you win with {n} picture",
                            "Game over: you win with {n} pictures", count).format(n=best)
        return ngettext("Game over: {name} wins with {n} picture",
                        "Game over: {name} wins with {n} pictures", count).format(
                            name=ctx.names[winners[0]], n=best)
    return ngettext("Game over: {names} share the win with {n} picture",
                    "Game over: {names} share the win with {n} pictures", count).format(
                        names=ctx.names_of(winners), n=best)


__all__ = ["ASKED", "Button", "Context", "PlayerRow", "Scene", "TrackModel", "draft_board",
           "draft_buttons", "laptop_wait", "result_words", "team_word", "tile"]
