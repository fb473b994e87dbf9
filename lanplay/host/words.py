"""The host's words as the protocol carries them: a message for each laptop to say in
its own language (docs/PROTOCOL.md "Texts travel as keys"), and its English in the
old ``reason`` field, for logs, bots and any client that reads only that."""

from __future__ import annotations

from collections.abc import Sequence

from lanplay.messages import Msg, as_msg
from protocol.messages import Bye, Refused, Rejected


def refused(code: str, message: Msg | str) -> Refused:
    said = as_msg(message)
    return Refused(code, said.english(), said.to_wire())


def rejected(ident: int, code: str, message: Msg | str, names: Sequence[str] = ()) -> Rejected:
    """``names``: the room's seat names, so the English names them too."""
    said = as_msg(message)
    return Rejected(ident, code, said.english(names), said.to_wire())


def bye(message: Msg | str, resume: bool = False) -> Bye:
    said = as_msg(message)
    return Bye(said.english(), said.to_wire(), resume)


__all__ = ["bye", "refused", "rejected"]
