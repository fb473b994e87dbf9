"""The pictures, questions and topics that Ranking and S-tier are played with.

Qt-free: data, loading, custom packs, axis scores for bots, and the sans-IO
picture transfer. The built-in content is ``builtin.json`` and ``pictures/``
(Twemoji, CC BY 4.0, credited by ``about_text``); custom packs are folders
in ``packs_dir()``.
"""

from __future__ import annotations

from lanplay.content.axes import AXES, fit
from lanplay.content.credits import about_text
from lanplay.content.images import MAX_PICTURE_BYTES
from lanplay.content.library import Library, builtin, default_library, library
from lanplay.content.model import Card, ContentError, Pack, Picture, Question, Topic
from lanplay.content.packs import Discovery, PackError, discover, load_pack, packs_dir
from lanplay.content.scoring import bot_order, bot_score

__all__ = [
    "AXES",
    "MAX_PICTURE_BYTES",
    "Card",
    "ContentError",
    "Discovery",
    "Library",
    "Pack",
    "PackError",
    "Picture",
    "Question",
    "Topic",
    "about_text",
    "bot_order",
    "bot_score",
    "builtin",
    "default_library",
    "discover",
    "fit",
    "library",
    "load_pack",
    "packs_dir",
]
