"""The window's words in this laptop's language, through the standard library's gettext.

Every string the window shows goes through ``_`` (``ngettext`` for a count,
``pgettext`` where one English word needs two translations) in the
``lanplay-ui`` domain, looked up when it is shown and never at import: a
table of words kept at module level marks them with ``N_`` and translates
each where it is used. Fields are ``{name}`` (``str.format``), so a
translation may move them; ``python -m ui.tools.locale_pot`` extracts every literal
of those calls into ``lanplay/locale/lanplay-ui.pot`` and tests/test_locale_ui.py
holds the catalogues to it.

Content (picture names, questions, topics, Ranking Top's card effects) is the
``lanplay-content`` domain's: ``content(kind, id, english)``. Qt's own words
(the buttons of QDialogButtonBox and QMessageBox) come from the ``qtbase``
translations the PyQt6 wheel ships: ``install_qt``.

Which language: ``lanplay --lang``, else ``LANPLAY_LANG``, else the one chosen
in the window (remembered in ui.services.settings), else the system's (``start``).
"""

from __future__ import annotations

import contextlib
import gettext
from typing import TYPE_CHECKING, Any

from lanplay import locale
from lanplay.messages import content_text

if TYPE_CHECKING:
    from PyQt6.QtCore import QCoreApplication

    from ui.services.settings import Settings

UI_DOMAIN = "lanplay-ui"

NAMES = {"en": "English", "de": "Deutsch", "es": "Español"}
"""Each language in its own words (what a person looking for theirs reads)."""

_qt: Any = None
"""The installed QTranslator (kept, or Python would free it while Qt uses it)."""


def language() -> str:
    """The language the window speaks now."""
    return locale.language()


def catalogue(lang: str | None = None) -> gettext.NullTranslations:
    return locale.catalogue(UI_DOMAIN, lang or locale.language())


def _(text: str) -> str:
    """``text`` in the window's language (the English itself when no catalogue has it)."""
    return catalogue().gettext(text) if text else text


def N_(text: str) -> str:
    """Marks ``text`` for the catalogue without translating it (a table of words read
    before the language is known); translate it with ``_`` where it is shown."""
    return text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``n`` in the window's language (German and Spanish have two, as
    English, but a catalogue may have more)."""
    return catalogue().ngettext(singular, plural, n)


def pgettext(context: str, text: str) -> str:
    """``text`` as meant in ``context`` (one English word, two translations)."""
    return catalogue().pgettext(context, text)


def in_language(lang: str, text: str) -> str:
    """``text`` in ``lang`` rather than the window's (the language choice speaks the
    chosen language before the window does)."""
    return catalogue(lang).gettext(text) if text else text


def and_list(items: list[str], most: int | None = None) -> str:
    """"A, B and C" in the window's language ("A, B und C", "A, B y C"); past ``most``
    items it ends "A, B, C and 5 more", so a headline or banner stays short."""
    if most is not None and len(items) > most:
        more = len(items) - most + 1
        items = [*items[:most - 1], ngettext("{n} more", "{n} more", more).format(n=more)]
    return _join(items, N_("{first} and {second}"))


def or_list(items: list[str]) -> str:
    """"A, B or C" in the window's language."""
    return _join(items, N_("{first} or {second}"))


def _join(items: list[str], last: str) -> str:
    if not items:
        return ""
    out = items[-1]
    if len(items) > 1:
        out = _(last).format(first=items[-2], second=out)
    for item in reversed(items[:-2]):
        # translators: how a list goes on before its last two ("A, B and C")
        out = _("{first}, {second}").format(first=item, second=out)
    return out


def content(kind: str, ident: str, text: str) -> str:
    """A text of the content (``picture``, ``question``, ``topic``, ``ranking-top``)
    in the window's language: the ``lanplay-content`` translation of ``kind:ident``
    when ``text`` is the built-in English, else ``text`` (a pack's own words)."""
    return content_text(kind, ident, text) if text else text


def start(settings: Settings) -> str:
    """Settle the window's language at start: an explicit ``--lang`` or
    ``LANPLAY_LANG`` wins, then the language chosen in the window, then the system's."""
    if locale.requested() is None and settings.language:
        # a language this lanplay no longer speaks: the system's then
        with contextlib.suppress(ValueError):
            locale.set_language(settings.language)
    return locale.language()


def install_qt(app: QCoreApplication) -> bool:
    """Load Qt's own translations (``qtbase_<lang>.qm``) for the window's language, so
    the Cancel and OK of Qt's dialogs speak it too; False when Qt has none."""
    global _qt
    from PyQt6.QtCore import QLibraryInfo, QTranslator

    if _qt is not None:
        app.removeTranslator(_qt)
        _qt = None
    lang = locale.language()
    if lang == "en":
        return True
    translator = QTranslator(app)
    where = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if not translator.load(f"qtbase_{lang}", where):
        return False
    app.installTranslator(translator)
    _qt = translator
    return True


__all__ = ["NAMES", "N_", "UI_DOMAIN", "_", "and_list", "catalogue", "content",
           "in_language", "install_qt", "language", "ngettext", "or_list", "pgettext", "start"]

