"""The end of a game, over the table: the scores the host computed, and what next.

"Play again" keeps the same seats: it marks you ready, and for the room's
owner it also starts the next game as soon as everyone is (the host decides
whether a start is valid). "Leave" goes back to Home. Under the scores, the
verdict of this laptop's own check of the game (``lanplay.fair``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import Qt, pyqtSignal
from PyQt6.QtGui import QColor, QPainter, QPaintEvent
from PyQt6.QtWidgets import QGridLayout, QHBoxLayout, QVBoxLayout, QWidget

from lanplay.badges import badge as badge_of
from lanplay.badges import badges
from lanplay.messages import render
from lanplay.verdict import verdict_of
from ui.look import theme
from ui.look.widgets import Badge, Card, button, label
from ui.words.i18n import _, and_list, ngettext

if TYPE_CHECKING:
    from lanplay.fair.audit import Verdict


def verdict_text(verdict: Verdict, names: list[str]) -> str:
    """What this laptop's check of the game found, in the window's language (the
    core's ``Verdict.line`` says it in English; a mismatch's detail stays as the
    check wrote it: it is for whoever looks into it)."""
    if not verdict.ok:
        return _("Checked on this laptop: this game does not add up. {reason}").format(
            reason=verdict.reason)
    if verdict.late:
        return _("Checked on this laptop: every move followed the rules (this laptop "
                 "joined after the shuffle, so it cannot vouch for it)")
    if verdict.drawn:
        who = [names[s] if 0 <= s < len(names) else _("seat {n}").format(n=s + 1)
               for s in verdict.drawn]
        return _("Checked on this laptop: every move followed the rules; the shuffle came "
                 "from everyone but {names}, for whom the host drew (no answer in time)"
                 ).format(names=and_list(who))
    return _("Checked on this laptop: the shuffle came from everyone, every move followed "
             "the rules")

ROWS = 8
"""Seats per column of the scores; more seats take a second column."""


def _score(value: Any) -> str:
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def headline(result: dict[str, Any], names: list[str], you: int | None) -> str:
    """The result in one sentence as ``you`` (None: a watcher) reads it, from the result
    alone: ``lanplay.verdict`` decides (a draw, a team's win, a group's defeat), this
    laptop says it in its language with the names it shows."""
    return render(verdict_of(result).line(you), names)


class EndScreen(QWidget):
    again = pyqtSignal()
    leave = pyqtSignal()
    look = pyqtSignal()
    replay = pyqtSignal()
    """Go over the game just played, move by move (``ui.dialogs.replays``)."""
    change = pyqtSignal()
    """The owner picks another game for the next one (the room stays open)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 16, 40, 16)  # 16 seats' scores in a 640-line screen
        outer.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        self.card = Card(margin=28)
        self.card.setMinimumWidth(460)
        row.addWidget(self.card)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(1)
        self.card.body.addWidget(label(_("Game over"), "muted"))
        self.headline = label("", "title", wrap=True)
        self.card.body.addWidget(self.headline)
        self.reason = label("", "big", wrap=True)
        """Why it ended so, in the game's words (a cooperative game: which token reached
        the star)."""
        self.reason.hide()
        self.card.body.addWidget(self.reason)
        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(14)
        self.grid.setVerticalSpacing(8)
        self.grid.setColumnStretch(1, 1)
        self.card.body.addLayout(self.grid)
        self.detail = label("", "muted", wrap=True)
        self.card.body.addWidget(self.detail)
        self.verdict = label("", "muted", wrap=True)
        self.verdict.hide()
        self.card.body.addWidget(self.verdict)
        self.status = label("", "problem", wrap=True)
        self.card.body.addWidget(self.status)
        buttons = QHBoxLayout()
        self.look_button = button(_("See the table"), "flat")
        self.look_button.clicked.connect(self.look)
        buttons.addWidget(self.look_button)
        self.replay_button = button(_("Replay"), "flat")
        self.replay_button.setToolTip(_("Go over this game move by move, from any seat or "
                                        "with every hand open."))
        self.replay_button.clicked.connect(self.replay)
        self.replay_button.hide()  # until the game's audit is here
        buttons.addWidget(self.replay_button)
        buttons.addStretch(1)
        self.change_button = button(_("Change game\u2026"))
        self.change_button.setToolTip(_("Another game, mode or options for the next game; "
                                        "the seats stay where it has room."))
        self.change_button.clicked.connect(self.change)
        self.change_button.hide()
        buttons.addWidget(self.change_button)
        self.leave_button = button(_("Leave"))
        self.leave_button.clicked.connect(self.leave)
        buttons.addWidget(self.leave_button)
        self.again_button = button(_("Play again"), "primary")
        self.again_button.clicked.connect(self.again)
        buttons.addWidget(self.again_button)
        self.card.body.addLayout(buttons)
        self.scores: list[str] = []
        """The scores as shown, one per seat (tests read them)."""

    def paintEvent(self, event: QPaintEvent | None) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(10, 16, 20, 150))
        painter.end()

    def show_result(self, result: dict[str, Any], seats: list[dict[str, Any]],
                    you: int | None) -> None:
        names = [str(s.get("name", _("Seat {n}").format(n=i + 1))) for i, s in enumerate(seats)]
        found = verdict_of(result)
        self.headline.setText(render(found.line(you), names))
        self.reason.setText(render(found.reason, names) if found.reason is not None else "")
        self.reason.setVisible(found.reason is not None)
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()  # gone now, not only once the event loop deletes it
                widget.deleteLater()
        scores = list(result.get("scores", []))
        winners = set(found.marked)  # nobody stands out in a draw or a group's result
        detail = result.get("detail") or {}
        together = found.together
        """A cooperative game: one result for all, no score a seat earned (a defeat
        gave everyone "Score 1", the green token's step)."""
        self.scores = [_score(v) for v in scores]
        order = sorted(range(len(scores)), key=lambda i: (-float(scores[i]), i))
        # Many seats (S-tier's 11 or 16) flow into columns of at most ROWS, smaller, so
        # the whole table of scores fits a 640-line window.
        columns = max(1, -(-len(order) // ROWS))
        rows = -(-len(order) // columns) if order else 0
        crowded = len(order) > ROWS
        marks = badges(seats)
        self.grid.setVerticalSpacing(4 if crowded else 8)
        # Many rows: a headline a size smaller, so rows keep their height at 1024x640.
        theme.restyle(self.headline, "heading" if crowded else "title")
        for c in range(3 * columns):
            self.grid.setColumnStretch(c, 1 if c % 3 == 1 else 0)
        for column in range(columns):
            self.grid.addWidget(label(_("Player"), "muted"), 0, 3 * column + 1)
            self.grid.addWidget(label("" if together else _("Score"), "muted"), 0,
                                3 * column + 2, Qt.AlignmentFlag.AlignRight)
        for index, seat in enumerate(order):
            row, column = index % rows + 1, index // rows
            name = names[seat] if seat < len(names) else _("Seat {n}").format(n=seat + 1)
            mark = marks[seat] if seat < len(marks) else badge_of(seats, seat)
            badge = Badge(name, mark.colour, size=24 if crowded else 30, text=mark.text)
            who = label(name + ("  " + _("(you)") if seat == you else ""),
                        None if crowded else "big")
            score = label("" if together else self.scores[seat], None if crowded else "big")
            if seat in winners:
                theme.role(who, "ok" if crowded else "heading")
                theme.role(score, "ok" if crowded else "heading")
            self.grid.addWidget(badge, row, 3 * column)
            self.grid.addWidget(who, row, 3 * column + 1)
            self.grid.addWidget(score, row, 3 * column + 2, Qt.AlignmentFlag.AlignRight)
        notes = []
        standins = [names[i] for i, s in enumerate(seats) if s.get("standin") and i < len(names)]
        if standins:  # not "Lea wins!" alone for someone who left in round 1
            notes.append(ngettext("A stand-in bot played for {names} after they left.",
                                  "Stand-in bots played for {names} after they left.",
                                  len(standins)).format(names=and_list(standins)))
        rounds = detail.get("rounds") if together else None
        if isinstance(rounds, int) and not isinstance(rounds, bool) and rounds > 0:
            notes.append(ngettext("You played {n} round together.",
                                  "You played {n} rounds together.", rounds).format(n=rounds))
        if isinstance(detail.get("blind"), int) and detail["blind"]:
            n = detail["blind"]
            notes.append(ngettext("{n} card left the game in blind tricks.",
                                  "{n} cards left the game in blind tricks.", n).format(n=n))
        if isinstance(detail.get("unplayed"), int) and detail["unplayed"]:
            n = detail["unplayed"]
            notes.append(ngettext("{n} card was still in a hand.",
                                  "{n} cards were still in hands.", n).format(n=n))
        self.detail.setText(" ".join(notes))
        self.detail.setVisible(bool(notes))
        self.verdict.hide()  # this game's check comes with its audit
        self.replay_button.hide()  # and so does its replay

    def show_verdict(self, text: str, ok: bool) -> None:
        """The line saying what this laptop's replay of the game found."""
        self.verdict.setText(text)
        theme.restyle(self.verdict, "ok" if ok else "error")
        self.verdict.show()

    def offer_replay(self) -> None:
        """The game's audit is here: it can be replayed."""
        self.replay_button.show()

    def set_status(self, text: str, *, can_play_again: bool, waiting: bool) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))
        self.again_button.setEnabled(can_play_again and not waiting)
        self.again_button.setText(_("Waiting\u2026") if waiting else _("Play again"))
