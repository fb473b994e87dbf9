"""A game option's values in words, as the host dialog and the room show them.

The games name their choices by id ("finish-trick", "printed", 0 seconds); a person
reads "Finish trick", "Printed", "No limit" (in German "Stich beenden", from the
``lanplay-content`` catalogue). The ids stay what is sent and saved.
"""

from __future__ import annotations

import re
from typing import Any

from lanplay.game import Option
from ui.words.i18n import _, content


def is_seconds(key: str) -> bool:
    return key.endswith("seconds")


def choice_words(key: str, value: Any, game: str = "") -> str:
    """One value of the option ``key`` (of ``game``, whose catalogue names its word
    choices) in words."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int) and is_seconds(key) and value == 0:
        return _("No limit")  # (the labels already say "seconds")
    if isinstance(value, str) and value:
        said = content("choice", f"{game}:{key}:{value}", value) if game else value
        words = re.sub(r"[-_]+", " ", value).strip() if said == value else said
        return words[:1].upper() + words[1:]
    return str(value)


def label_words(game: str, option: Option) -> str:
    """The option's label in the window's language."""
    return content("option", f"{game}:{option.key}", option.label)


def help_words(option: Option, game: str = "") -> str:
    """The option's help in the window's language, its choice ids written as the dialog
    shows them ("finish-trick: ..." reads "Finish trick: ...")."""
    if game and option.help:
        said = content("option-help", f"{game}:{option.key}", option.help)
        if said != option.help:
            return said  # a translation names the choices as the dialog does already
    text = option.help
    for choice in option.choices:
        if isinstance(choice, str) and choice:
            text = re.sub(rf"(?<![\w-]){re.escape(choice)}(?=:)",
                          choice_words(option.key, choice, game), text)
    return text


__all__ = ["choice_words", "help_words", "is_seconds", "label_words"]
