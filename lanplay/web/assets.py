"""What the host's web server may answer: a closed list, nothing else.

The page's files are read once from the package (``page/``) into a table of
path -> bytes; a request names one of these exactly, or a picture of the content
in play by its id, or a catalogue by its language, or a game's rules help by the
game's id and a language (``/rules/s-tier.de.md``), or the tours (``/teaching.json``),
or the room's game (``/room.json``). There is no directory
listing, no path is ever joined to a folder, so nothing outside can be named
(``..``, ``%2e``, a symlink, an absolute path all simply miss the table).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lanplay import teaching
from lanplay.content.model import Picture
from lanplay.locale import LANGUAGES
from lanplay.web import catalogues

PAGE_DIR = Path(__file__).resolve().parent / "page"

TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
         ".png": "image/png", ".json": "application/json; charset=utf-8",
         ".txt": "text/plain; charset=utf-8", ".ico": "image/x-icon"}

ROUTES = {"/": "index.html", "/watch": "watch.html"}
"""Addresses that name a file by another name (the page, the watch screen)."""

_PICTURE = re.compile(r"/pictures/([a-z0-9][a-z0-9_-]{0,39}(?:/[a-z0-9][a-z0-9_-]{0,39})?)")
_LOCALE = re.compile(r"/locale/([a-z]{2})\.json")
_RULES = re.compile(r"/rules/([a-z][a-z-]{0,39})\.([a-z]{2})\.md")
ROOM = "/room.json"
"""The room's game, mode and host name (the join page names the game it joins)."""
TEACHING = "/teaching.json"
"""The first-turn tours (``lanplay.teaching``): the window's steps, for the page."""


@dataclass(frozen=True)
class Asset:
    body: bytes
    type: str
    etag: str
    cache: str = "no-cache"
    """Revalidated each time (an ETag makes that cheap): a host's new version shows at once."""


def make_asset(body: bytes, kind: str, cache: str = "no-cache") -> Asset:
    return Asset(body, kind, '"' + hashlib.sha256(body).hexdigest()[:16] + '"', cache)


def page_files(root: Path = PAGE_DIR) -> dict[str, Asset]:
    """Every packaged file of the page by its address (``/app.js``), read now."""
    out: dict[str, Asset] = {}
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.is_symlink() or path.suffix not in TYPES:
            continue
        name = path.relative_to(root).as_posix()
        out["/" + name] = make_asset(path.read_bytes(), TYPES[path.suffix])
    for route, name in ROUTES.items():
        if "/" + name in out:
            out[route] = out["/" + name]
    return out


def teaching_asset() -> Asset:
    """Every table's first-turn tour (``lanplay.teaching``), for the page."""
    return make_asset(json.dumps(teaching.tours(), ensure_ascii=False).encode("utf-8"),
                      TYPES[".json"])


def rules_asset(game_id: str, lang: str) -> Asset | None:
    """A game's rules help (markdown, as F1 shows it in the window) in a language
    lanplay speaks; None for a game or language there is none of."""
    if lang not in LANGUAGES:
        return None
    try:
        text = teaching.rules_text(game_id, lang)
    except (KeyError, ImportError):
        return None
    return make_asset(text.encode("utf-8"), TYPES[".txt"]) if text else None


def autoplaying(files: dict[str, Asset]) -> dict[str, Asset]:
    """The page as a test host serves it: its body marked ``data-autoplay``, so the page
    plays its seat by itself (``HostConfig.page_autoplay``; no address can ask it)."""
    page = files.get("/index.html")
    if page is None:
        return files
    body = page.body.replace(b"<body>", b"<body data-autoplay>", 1)
    marked = make_asset(body, page.type, page.cache)
    return {**files, **{path: marked for path, asset in files.items() if asset is page}}


Job = Callable[[], "Asset | None"]
"""Work that makes an asset (reads a picture, builds a catalogue): for the worker's thread."""


class Assets:
    """``lookup(path)``: the asset at that address if it is ready, a ``Job`` that makes
    it (run it off the loop: ``lanplay.web.worker``), or None (404)."""

    def __init__(self, picture: Callable[[str], Picture | None],
                 files: dict[str, Asset] | None = None, autoplay: bool = False,
                 about: Callable[[], dict[str, str]] | None = None) -> None:
        self.files = page_files() if files is None else files
        if autoplay:
            self.files = autoplaying(self.files)
        self._picture = picture
        self._about = about
        """What the join page names before anyone joins: the room's game, mode and host."""
        self._pictures: dict[str, Asset] = {}
        self._locales: dict[str, Asset] = {}
        self._made: dict[str, Asset | None] = {}
        """What the worker made once (the tours, a game's rules in a language)."""

    def lookup(self, path: str) -> Asset | Job | None:
        found = self.files.get(path)
        if found is not None:
            return found
        match = _PICTURE.fullmatch(path)
        if match:
            picture_id = match.group(1)
            return self._pictures.get(picture_id) or functools.partial(self.picture, picture_id)
        match = _LOCALE.fullmatch(path)
        if match:
            lang = match.group(1)
            if lang not in LANGUAGES:
                return None
            return self._locales.get(lang) or functools.partial(self.locale, lang)
        if path in self._made:  # made once: the asset, or None for a game it knows not
            return self._made[path]
        if path == TEACHING:
            return functools.partial(self._make, TEACHING, teaching_asset)
        if path == ROOM and self._about is not None:  # a few dozen bytes, on the loop
            return make_asset(json.dumps(self._about(), ensure_ascii=False).encode("utf-8"),
                              TYPES[".json"])
        match = _RULES.fullmatch(path)
        if match:
            game_id, lang = match.group(1), match.group(2)
            if lang not in LANGUAGES:
                return None
            return functools.partial(self._make, path,
                                     functools.partial(rules_asset, game_id, lang))
        return None

    def _make(self, path: str, make: Callable[[], Asset | None]) -> Asset | None:
        """Make what ``path`` serves (on the worker's thread) and keep it."""
        asset = self._made[path] = make()
        return asset

    def warm(self) -> None:
        """Make every catalogue now (on the worker's thread, at the server's start)."""
        for lang in LANGUAGES:
            self.locale(lang)

    def locale(self, lang: str) -> Asset | None:
        body = catalogues.as_json(lang)
        if body is None:
            return None
        asset = self._locales[lang] = make_asset(body, TYPES[".json"])
        return asset

    def picture(self, picture_id: str) -> Asset | None:
        """A picture of the content in play, by id (a custom pack's once it is shared);
        read from disk, so on the worker's thread."""
        if picture_id in self._pictures:
            return self._pictures[picture_id]
        found = self._picture(picture_id)
        data = None
        if found is not None and found.kind in ("svg", "png"):
            with contextlib.suppress(OSError):
                data = found.data()
        if data is None or found is None:
            return None
        asset = make_asset(data, TYPES["." + found.kind], "max-age=86400")
        if len(self._pictures) < 2048:
            self._pictures[picture_id] = asset
        return asset
