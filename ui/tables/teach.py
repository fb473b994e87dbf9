"""The table teaches: a first turn walked through in a few short steps, once per game.

The first time a person plays a game on this laptop (the window remembers which
games it has taught), the table shows three or four steps in the window's
language, each pointing at the real pieces it names ("This is your hand"), with
a frame round them. A step goes by a click on "Got it" or by doing it: any move
the player sends ends the step it asked for. F1 still has the whole rules.

Game-neutral: a table names where its pieces lie (``teach_spot(key)``, a rect
in the table's own coordinates, or None where it has none just now); the steps
say which key each points at. Drawing and words only: it sends nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PyQt6.QtCore import QRect, Qt
from PyQt6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.tables import look
from ui.tables.widgets import BUTTON_STYLE
from ui.words.i18n import N_, _

Step = tuple[str, str]
"""(where it points: a table's spot key, what it says: English, marked)."""

STEPS: dict[str, tuple[Step, ...]] = {
    "alles-klar": (
        ("hand", N_("This is your hand. On your turn one card goes to the middle.")),
        ("ranking", N_("The ranking cards I to V decide the trick: when one is left face "
                       "up, say IV, the 4th highest card wins once 4 cards lie open.")),
        ("hand", N_("A card with a numeral turns that ranking card face down. Lit cards "
                    "can be played: click one or press its number.")),
    ),
    "ranking": (
        ("hand", N_("This is your hand. Each round you slip one picture into the row, "
                    "face down: nobody knows which is yours.")),
        ("tower", N_("The tower: on your turn pick two pictures on one floor; one goes "
                     "up, the other down, as the question says.")),
        ("plates", N_("After each comparison the others may bet with a guess stone whose "
                      "picture it was. High floors score; stones on your own cost you.")),
    ),
    "ranking-top": (
        ("hand", N_("This is your hand. Click a card, then choose where it goes.")),
        ("chart", N_("Your Ranking Top: fill it 5, 4, 3, 2, 1, each place with a card of "
                     "that number. Complete it with a 1 to win.")),
        ("stage", N_("Every play can be topped: with the same number or a Top card, "
                     "within a few seconds. TOP! (Space) or Pass.")),
    ),
    "s-tier": (
        ("board", N_("The tier list, S (best) to D. The topic is above it.")),
        ("pool", N_("Drag a picture onto a tier (or click it, then a tier).")),
        ("board", N_("When all is placed, lock in: the leader's note decides what was "
                     "right.")),
    ),
    "ranagedon": (
        ("board", N_("The table: land your frogs on the golden lily pad and on other frogs "
                     "to score.")),
        ("board", N_("Press on the coloured border of one of your lit frogs and pull: it "
                     "jumps the other way, to about the dashed ring.")),
        ("plates", N_("The border's colour is the frog's ability (see the list); the "
                      "score is beside each player.")),
    ),
}
"""Three steps a game, in the order of a first turn."""


class Walkthrough(QFrame):
    """The steps over a table: a frame round the pieces and a bubble with the words."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("teachBubble")
        self.setProperty("lanplay_overlay", True)  # laid over the table on purpose
        self.setStyleSheet(
            "#teachBubble { background: #FFF6D6; border: 2px solid #8A6D2F;"
            " border-radius: 10px; }"
            "#teachBubble QLabel { color: #1A1408; }" + BUTTON_STYLE)
        self.frame = QFrame(parent)
        self.frame.setObjectName("teachFrame")
        self.frame.setStyleSheet("#teachFrame { border: 3px dashed #FFD866;"
                                 " border-radius: 8px; background: transparent; }")
        self.frame.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.frame.hide()
        self.count = QLabel(self)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.ok = QPushButton(_("Got it"), self)
        self.ok.clicked.connect(self.next)
        self.skip = QPushButton(_("Skip the tour"), self)
        self.skip.clicked.connect(self.finish)
        row = QHBoxLayout()
        row.addWidget(self.count, 1)
        row.addWidget(self.skip)
        row.addWidget(self.ok)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 10, 12, 10)
        column.addWidget(self.text)
        column.addLayout(row)
        self.steps: tuple[Step, ...] = ()
        self.step = 0
        self.table: Any = None
        self.done: Callable[[], None] | None = None
        self.hide()

    @property
    def active(self) -> bool:
        return bool(self.steps) and self.step < len(self.steps)

    def start(self, table: Any, game_id: str, done: Callable[[], None]) -> bool:
        """Walk through ``game_id``'s steps over ``table``; ``done`` once they are over
        (read, done or skipped). False when the game has no steps."""
        self.steps = STEPS.get(game_id, ())
        if not self.steps:
            return False
        self.table, self.done, self.step = table, done, 0
        intent = getattr(table, "intent", None)
        if intent is not None:
            intent.connect(self._acted)
        self._show_step()
        return True

    def _acted(self, _action: object) -> None:
        """The player did something on the table: the step that asked for it is done."""
        if self.active:
            self.next()

    def next(self) -> None:
        self.step += 1
        if self.step >= len(self.steps):
            self.finish()
        else:
            self._show_step()

    def finish(self) -> None:
        """Over (read, done or skipped): hidden, and remembered by whoever started it."""
        self.step = len(self.steps)
        self.hide()
        self.frame.hide()
        if self.done is not None:
            done, self.done = self.done, None
            done()

    def place(self) -> None:
        """The table changed size or its pieces moved: point at them again."""
        if self.active:
            self._show_step()

    def _show_step(self) -> None:
        key, words = self.steps[self.step]
        parent = self.parentWidget()
        if parent is None:
            return
        t = look.default_px()
        self.count.setFont(look.font(t * 0.95))
        self.text.setFont(look.font(t * 1.1, bold=True))
        self.ok.setFont(look.font(t, bold=True))
        self.skip.setFont(look.font(t * 0.95))
        self.count.setText(_("Step {n} of {total}").format(n=self.step + 1,
                                                            total=len(self.steps)))
        self.text.setText(_(words))
        spot_of = getattr(self.table, "teach_spot", None)
        spot = spot_of(key) if callable(spot_of) else None
        bounds = parent.rect()
        for widget in (self, self.count, self.text, self.ok, self.skip):
            widget.ensurePolished()  # the style sheet's padding counts
        buttons = (self.count.sizeHint().width() + self.skip.sizeHint().width()
                   + self.ok.sizeHint().width() + 2 * 6 + 24 + 4)
        width = min(max(320, buttons, round(bounds.width() * 0.36)), bounds.width() - 16)
        self.setFixedWidth(width)
        layout = self.layout()
        assert layout is not None
        layout.activate()
        self.setFixedHeight(max(layout.totalHeightForWidth(width),
                                layout.totalMinimumSize().height()) + 4)
        if isinstance(spot, QRect) and spot.isValid():
            spot = spot.intersected(bounds.adjusted(4, 4, -4, -4))
            self.frame.setGeometry(spot.adjusted(-6, -6, 6, 6))
            self.frame.show()
            self.frame.raise_()
            self.move(*_beside(spot, self.width(), self.height(), bounds))
        else:
            self.frame.hide()
            self.move(bounds.center().x() - self.width() // 2,
                      bounds.center().y() - self.height() // 2)
        self.show()
        self.raise_()


def _beside(spot: QRect, w: int, h: int, bounds: QRect) -> tuple[int, int]:
    """Where the bubble goes: above the spot, else below it, else over its middle;
    always inside the table."""
    x = spot.center().x() - w // 2
    if spot.top() - h - 14 >= bounds.top() + 4:
        y = spot.top() - h - 14
    elif spot.bottom() + h + 14 <= bounds.bottom() - 4:
        y = spot.bottom() + 14
    else:
        y = spot.center().y() - h // 2
    x = max(bounds.left() + 8, min(x, bounds.right() - w - 8))
    y = max(bounds.top() + 8, min(y, bounds.bottom() - h - 8))
    return x, y


__all__ = ["STEPS", "Walkthrough"]
