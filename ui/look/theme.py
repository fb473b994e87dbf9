"""The window's calm look in one place: colours, the text size, and one stylesheet.

Widgets say what they are (``role(label, "title")``) and this module says how
that looks, so Ctrl+plus / Ctrl+minus rescale every screen (the game's table
included, which sizes its text from the application font) by rebuilding one
stylesheet. Colours come through the palette; a table paints its own felt.
"""

from __future__ import annotations

from pathlib import Path

from PyQt6.QtGui import QColor, QFont, QPalette
from PyQt6.QtWidgets import QApplication, QWidget

BG = "#1c252b"
PANEL = "#253139"
PANEL_HI = "#2f3d46"
BORDER = "#3b4b55"
TEXT = "#e8eef1"
MUTED = "#a3b4bd"
ACCENT = "#2f8f7c"
ACCENT_HI = "#39a690"
ERROR = "#ffb4a6"
WARN_BG = "#E69F00"
FOCUS = "#FFD866"
"""The ring of the control that has the keyboard focus: thicker as well as brighter."""
WARN_TEXT = "#1c1c1c"
OK = "#7fd1b9"

ARROW = (Path(__file__).parent / "arrow-down.svg").as_posix()
"""A combo box's arrow: the Fusion style's own drop-down button, drawn inside our rounded
border, lay over it and looked cut off at its right edge."""

BASE_PT = 11.0
"""The body text size at scale 1: a little above the usual desktop default,
because the window is read from a chair, not from close up."""


def role(widget: QWidget, name: str) -> QWidget:
    """Tag a widget with a look from the stylesheet (title, muted, error, ...)."""
    widget.setProperty("role", name)
    return widget


def restyle(widget: QWidget, name: str | None) -> None:
    """Change a widget's look after it is shown (Qt re-reads the stylesheet)."""
    widget.setProperty("role", name)
    style = widget.style()
    if style is not None:
        style.unpolish(widget)
        style.polish(widget)


def ink_for(colour: str) -> QColor:
    """Black or white, whichever reads better on ``colour``."""
    c = QColor(colour)
    lum = 0.2126 * c.redF() ** 2.2 + 0.7152 * c.greenF() ** 2.2 + 0.0722 * c.blueF() ** 2.2
    return QColor("#111111") if lum > 0.28 else QColor("#ffffff")


def light_indicator(widget: QWidget) -> None:
    """A check box's box light with a dark tick, so it reads on a dark card."""
    p = QPalette(widget.palette())
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        p.setColor(group, QPalette.ColorRole.Base, QColor(TEXT))
        p.setColor(group, QPalette.ColorRole.Text, QColor(BG))
        p.setColor(group, QPalette.ColorRole.Window, QColor(MUTED))
    widget.setPalette(p)


def palette() -> QPalette:
    p = QPalette()
    roles = QPalette.ColorRole
    for r, colour in ((roles.Window, BG), (roles.WindowText, TEXT), (roles.Base, PANEL),
                      (roles.AlternateBase, PANEL_HI), (roles.Text, TEXT),
                      (roles.Button, PANEL_HI), (roles.ButtonText, TEXT),
                      (roles.Highlight, ACCENT), (roles.HighlightedText, "#ffffff"),
                      (roles.ToolTipBase, PANEL_HI), (roles.ToolTipText, TEXT),
                      (roles.PlaceholderText, MUTED), (roles.Link, "#8fd0f5"),
                      (roles.BrightText, "#ffffff")):
        p.setColor(r, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for r in (roles.WindowText, roles.Text, roles.ButtonText):
        p.setColor(disabled, r, QColor("#6c7d86"))
    p.setColor(disabled, roles.Button, QColor(PANEL))
    return p


def stylesheet(pt: float) -> str:
    """The stylesheet for body text of ``pt`` points; other sizes are relative.

    Every rule that sets a font property also sets the size: Qt builds such a
    font from the application's default, not from the window's scaled one.
    """

    def size(factor: float) -> str:
        return f"{pt * factor:.1f}pt"

    def px(factor: float) -> str:  # sub-controls take no points
        return f"{round(pt * factor)}px"

    return f"""
    *[role="title"] {{ font-size: {size(1.9)}; font-weight: bold; }}
    *[role="heading"] {{ font-size: {size(1.3)}; font-weight: bold; }}
    *[role="muted"] {{ color: {MUTED}; }}
    *[role="error"] {{ color: {ERROR}; font-weight: bold; font-size: {size(1)}; }}
    *[role="problem"] {{ color: {WARN_BG}; font-weight: bold; font-size: {size(1)}; }}
    *[role="ok"] {{ color: {OK}; font-weight: bold; font-size: {size(1)}; }}
    *[role="big"] {{ font-size: {size(1.15)}; }}
    QFrame[role="card"] {{ background: {PANEL}; border: 1px solid {BORDER};
        border-radius: 10px; }}
    QFrame[role="bar"] {{ background: {PANEL}; border-bottom: 1px solid {BORDER}; }}
    QFrame[role="banner"] {{ background: {WARN_BG}; border-radius: 8px; }}
    QFrame[role="banner"] QLabel {{ color: {WARN_TEXT}; font-weight: bold;
        font-size: {size(1)}; }}
    QPushButton {{ padding: 7px 16px; border-radius: 6px; border: 1px solid {BORDER};
        background: {PANEL_HI}; color: {TEXT}; }}
    QPushButton:hover {{ border-color: {MUTED}; }}
    QPushButton:disabled {{ color: #6c7d86; background: {PANEL}; }}
    QPushButton:checked {{ background: {ACCENT}; border-color: {ACCENT_HI}; color: white; }}
    QPushButton[role="primary"] {{ background: {ACCENT}; border-color: {ACCENT_HI};
        color: white; font-weight: bold; font-size: {size(1)}; }}
    QPushButton[role="primary"]:hover {{ background: {ACCENT_HI}; }}
    QPushButton[role="primary"]:disabled {{ background: {PANEL}; color: #6c7d86;
        border-color: {BORDER}; }}
    QPushButton[role="flat"] {{ background: transparent; border: none; padding: 4px 4px;
        color: {MUTED}; }}
    QPushButton[role="flat"]:hover {{ color: {TEXT}; }}
    QPushButton:focus {{ border: 2px solid {FOCUS}; padding: 6px 15px; }}
    QPushButton[role="flat"]:focus {{ border: 2px solid {FOCUS}; padding: 2px 2px; }}
    QTreeWidget:focus, QListWidget:focus {{ border: 2px solid {FOCUS}; }}
    QLineEdit, QComboBox, QSpinBox {{ padding: 5px 8px; border: 1px solid {BORDER};
        border-radius: 5px; background: {PANEL}; }}
    QLineEdit:focus, QComboBox:focus {{ border-color: {ACCENT_HI}; }}
    QComboBox {{ padding-right: 4px; }}
    QComboBox::drop-down {{ subcontrol-origin: padding; subcontrol-position: center right;
        width: {px(2.0)}; border: none; }}
    QComboBox::down-arrow {{ image: url("{ARROW}"); width: {px(1.0)}; height: {px(0.7)}; }}
    QListWidget, QTreeWidget, QTextBrowser, QPlainTextEdit {{
        border: 1px solid {BORDER}; border-radius: 6px; background: {PANEL}; }}
    QTreeWidget::item {{ padding: 8px 4px; }}
    QListWidget::item {{ padding: 6px 4px; }}
    QHeaderView::section {{ background: {PANEL_HI}; color: {MUTED}; border: none;
        padding: 6px 4px; font-weight: bold; font-size: {size(1)}; }}
    QToolTip {{ color: {TEXT}; background: {PANEL_HI}; border: 1px solid {BORDER}; }}
    QScrollBar:vertical {{ background: transparent; width: 10px; margin: 2px; }}
    QScrollBar::handle:vertical {{ background: {BORDER}; border-radius: 3px;
        min-height: 30px; }}
    QScrollBar::handle:vertical:hover {{ background: {MUTED}; }}
    QScrollBar::add-line, QScrollBar::sub-line {{ height: 0; width: 0; }}
    QScrollBar::add-page, QScrollBar::sub-page {{ background: transparent; }}
    """


def apply(scale: float) -> None:
    """The calm look at text size ``scale``, for every window of the application.

    Font and stylesheet go on the application: widgets created later (a seat
    row, a dialog) take the application's font, not their window's, once a
    stylesheet is in play. The platform's default size is remembered the
    first time, so scaling never compounds.
    """
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if app.property("lanplay_default_pt") is None:
        app.setProperty("lanplay_default_pt", app.font().pointSizeF())
        app.setStyle("Fusion")
    app.setPalette(palette())
    default = float(app.property("lanplay_default_pt"))
    pt = max(BASE_PT, default) * scale
    font = QFont(app.font())
    font.setPointSizeF(pt)
    app.setFont(font)
    app.setStyleSheet(stylesheet(pt))
