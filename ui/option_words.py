"""A game option's values in words, as the host dialog and the room show them.

The games name their choices by id ("finish-trick", "printed", 0 seconds); a person
reads "Finish trick", "Printed", "No limit". The ids stay what is sent and saved.
"""

from __future__ import annotations

import re
from typing import Any

from lanplay.game import Option


def is_seconds(key: str) -> bool:
    return key.endswith("seconds")


def choice_words(key: str, value: Any) -> str:
    """One value of the option ``key`` in words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and is_seconds(key) and value == 0:
        return "No limit"  # (the labels already say "seconds")
    if isinstance(value, str) and value:
        words = re.sub(r"[-_]+", " ", value).strip()
        return words[:1].upper() + words[1:]
    return str(value)


def help_words(option: Option) -> str:
    """The option's help with its choice ids written as the dialog shows them
    ("finish-trick: ..." reads "Finish trick: ...")."""
    text = option.help
    for choice in option.choices:
        if isinstance(choice, str) and choice:
            text = re.sub(rf"(?<![\w-]){re.escape(choice)}(?=:)", choice_words(option.key, choice),
                          text)
    return text


__all__ = ["choice_words", "help_words", "is_seconds"]
