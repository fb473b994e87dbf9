"""Asking before what cannot be undone: closing a room, leaving a game, removing a player.

Each question says what happens to the others, in words that are true for
this room (how many people, whether the game is saved, when a bot takes an
empty seat). ``*_question`` are pure: (title, text, yes, no), or None when
nobody else is affected and there is nothing to ask. ``Confirm`` shows one
without blocking the event loop; the window acts on ``yes``.
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import pyqtSignal
from PyQt6.QtWidgets import QDialog, QHBoxLayout, QVBoxLayout, QWidget

from protocol.messages import Lobby
from ui.look.widgets import button, label
from ui.words.i18n import _, and_list, ngettext

Question = tuple[str, str, str, str]
"""(title, text, the yes button, the no button)."""



def _others(lobby: Lobby, you: int | None) -> int:
    """People seated here besides me (bots do not mind)."""
    return sum(1 for i, s in enumerate(lobby.seats) if i != you and not s.get("bot"))


def close_question(lobby: Lobby, you: int | None, saved: bool) -> Question | None:
    """The owner's "Close the room": mid-game it ends the game for everyone."""
    others = _others(lobby, you)
    watching = int(lobby.spectators or 0)
    if lobby.phase == "playing":
        who = (ngettext("End the game for {n} other player?",
                        "End the game for {n} other players?", others).format(n=others)
               if others else _("End this game with the bots?"))
        if saved:
            return (_("Close the room?"),
                    _("{question} They can come back if you resume it: the game is saved "
                      "after every move, and \u201cResume a game\u2026\u201d on Home opens "
                      "the room again where you left it.").format(question=who),
                    _("Pause and close"), _("Keep playing"))
        return (_("Close the room?"),
                _("{question} This game is not saved: it cannot be resumed.").format(
                    question=who), _("End the game"), _("Keep playing"))
    if others or watching:
        names = [str(s.get("name") or _("Seat {n}").format(n=i + 1))
                 for i, s in enumerate(lobby.seats) if i != you and not s.get("bot")]
        if watching:
            names.append(ngettext("{n} spectator", "{n} spectators", watching).format(
                n=watching))
        one = len(names) == 1 and not (watching > 1 and not others)
        text = ngettext("{who} goes back to Home.", "{who} go back to Home.",
                        1 if one else 2).format(who=and_list(names))
        return (_("Close the room?"), text, _("Close the room"), _("Stay"))
    return None


def leave_question(lobby: Lobby, you: int | None) -> Question | None:
    """A player's "Leave" mid-game: the seat stays, a bot may take it."""
    if lobby.phase != "playing" or you is None:
        return None
    after = lobby.standin_after  # leaving on purpose, a stand-in plays at once
    if after is None or after < 0:
        then = _("The others wait for your seat until you come back to it.")
    else:
        then = _("A bot plays your seat from now on, so the others can go on.")
    return (_("Leave the game?"), _("{then} You can still watch from Home.").format(then=then),
            _("Leave"), _("Keep playing"))


def remove_question(lobby: Lobby, seat: int) -> Question | None:
    """The owner removes a person from the room (a bot goes without a question)."""
    if not 0 <= seat < len(lobby.seats) or lobby.seats[seat].get("bot"):
        return None
    name = str(lobby.seats[seat].get("name") or _("Seat {n}").format(n=seat + 1))
    return (_("Remove {name}?").format(name=name),
            _("{name} goes back to Home; everyone else stays in the room.").format(name=name),
            _("Remove"), _("Cancel"))



class Confirm(QDialog):
    """One question with a safe way out (the default) and the action."""

    yes = pyqtSignal()

    def __init__(self, question: Question, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        title, text, yes_text, no_text = question
        self.setWindowTitle(title)
        self.setMinimumWidth(480)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(12)
        layout.addWidget(label(title, "heading"))
        self.text = label(text, wrap=True)
        layout.addWidget(self.text)
        row = QHBoxLayout()
        row.addStretch(1)
        self.no_button = button(no_text)
        self.no_button.setDefault(True)  # Enter keeps the game going
        self.no_button.clicked.connect(self.reject)
        row.addWidget(self.no_button)
        self.yes_button = button(yes_text, "primary")
        self.yes_button.clicked.connect(self._yes)
        row.addWidget(self.yes_button)
        layout.addLayout(row)

    def _yes(self) -> None:
        self.accept()
        self.yes.emit()


def ask(parent: Any, question: Question | None, then: Any) -> Confirm | None:
    """``then()`` at once when there is nothing to ask, else after a yes; the dialog
    is returned for the window to open (it shows dialogs without blocking)."""
    if question is None:
        then()
        return None
    dialog = Confirm(question, parent)
    dialog.yes.connect(then)
    return dialog


__all__ = ["Confirm", "ask", "close_question", "leave_question", "remove_question"]
