"""Content packs: a folder with a ``pack.toml`` and its pictures, checked on load.

The built-in content is a pack too (``builtin.json`` beside this module, the
same schema as a ``pack.toml``), read by the same code. Custom packs live in
the user's data folder; ``discover`` loads each one it finds and turns
anything wrong into a ``PackError`` that names the file and the problem, so
one broken folder never stops the app."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanplay.content.axes import parse_axis, parse_scores
from lanplay.content.images import KINDS, MAX_PICTURE_BYTES, sniff
from lanplay.content.model import Card, ContentError, Pack, Picture, Question, Topic

PACK_FILE = "pack.toml"
MAX_TOML_BYTES = 1 << 20
MAX_PICTURES = 500
MAX_ITEMS = 500
"""At most this many questions, and as many topics, per pack."""
MAX_PACK_BYTES = 32 << 20
MAX_NAME = 60
MAX_TEXT = 200
SIDES = {"red": "red", "blue": "blue", "both": ""}

_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_PACK_KEYS = {"id", "name", "description", "author", "license", "pictures", "questions",
              "topics", "cards"}
_PICTURE_KEYS = {"id", "name", "file", "scores", "category", "source"}
_QUESTION_KEYS = {"id", "text", "side", "axis", "direction"}
_TOPIC_KEYS = {"id", "text", "axis", "direction"}
_CARD_KEYS = {"front", "back"}


class PackError(Exception):
    """A pack that cannot be used: ``file`` is where the problem is."""

    def __init__(self, file: Path, problem: str) -> None:
        super().__init__(f"{file}: {problem}")
        self.file = file
        self.problem = problem


@dataclass(frozen=True)
class Discovery:
    """What ``discover`` found: the packs that loaded and why the others did not."""

    folder: Path
    packs: tuple[Pack, ...] = ()
    errors: tuple[PackError, ...] = ()

    def pack(self, pack_id: str) -> Pack:
        for pack in self.packs:
            if pack.id == pack_id:
                return pack
        raise KeyError(f"no pack {pack_id!r} in {self.folder}")


def data_dir() -> Path:
    """The data folder chosen (``--data-dir``, else ``LANPLAY_DATA_DIR``: tests, portable
    installs, a second person on one laptop), else the platform's."""
    from lanplay.store.folders import chosen_dir

    chosen = chosen_dir()
    if chosen is not None:
        return chosen
    import platformdirs

    return Path(platformdirs.user_data_dir("lanplay", appauthor=False))


def packs_dir() -> Path:
    """Where custom packs go: one sub-folder per pack."""
    return data_dir() / "packs"


def discover(folder: Path | None = None) -> Discovery:
    """Load every pack folder under ``folder`` (default: ``packs_dir()``). Never raises."""
    root = packs_dir() if folder is None else folder
    packs: list[Pack] = []
    errors: list[PackError] = []
    try:
        entries = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    except FileNotFoundError:
        return Discovery(root)
    except OSError as exc:
        return Discovery(root, errors=(PackError(root, f"cannot be read ({exc.strerror})"),))
    seen: dict[str, Path] = {}
    for sub in entries:
        try:
            pack = load_pack(sub)
            if pack.id in seen:
                raise PackError(sub / PACK_FILE, f"uses the pack id {pack.id!r}, which the "
                                f"pack in {seen[pack.id]} already uses; give one a "
                                f"different id")
        except PackError as exc:
            errors.append(exc)
            continue
        except Exception as exc:  # a bug of ours must cost one pack, not the app
            errors.append(PackError(sub, f"could not be loaded ({type(exc).__name__}: {exc})"))
            continue
        seen[pack.id] = sub
        packs.append(pack)
    return Discovery(root, tuple(packs), tuple(errors))


def load_pack(folder: Path) -> Pack:
    """The pack in ``folder`` (its ``pack.toml`` and pictures); PackError if unusable."""
    manifest = folder / PACK_FILE
    if not manifest.is_file():
        raise PackError(folder, f"has no {PACK_FILE}; a pack folder needs one (see the "
                                f"README, \"Custom packs\")")
    return load_manifest(manifest, default_id=_slug(folder.name))


def load_manifest(manifest: Path, *, default_id: str, check_files: bool = True,
                  namespaced: bool = True) -> Pack:
    """Read and check one manifest. ``namespaced`` prefixes item ids with the pack id
    (``office/stapler``) so custom ids never collide with built-in ones."""
    try:
        raw = manifest.read_bytes()
    except OSError as exc:
        raise PackError(manifest, f"cannot be read ({exc.strerror})") from exc
    if len(raw) > MAX_TOML_BYTES:
        raise PackError(manifest, f"is larger than {MAX_TOML_BYTES >> 20} MiB")
    try:
        text = raw.decode("utf-8-sig")
        if manifest.suffix == ".json":  # the built-in pack: same schema, parsed 40x faster
            data = json.loads(text)
            if not isinstance(data, dict):
                raise PackError(manifest, "must hold one JSON object")
        else:
            data = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        raise PackError(manifest, "is not UTF-8 text") from exc
    except tomllib.TOMLDecodeError as exc:
        raise PackError(manifest, f"is not valid TOML: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise PackError(manifest, f"is not valid JSON: {exc}") from exc
    try:
        return _parse(data, manifest, default_id, check_files, namespaced)
    except ContentError as exc:
        raise PackError(manifest, exc.reason) from exc


def _parse(data: dict[str, Any], manifest: Path, default_id: str, check_files: bool,
           namespaced: bool) -> Pack:
    _only(data, _PACK_KEYS, "the pack")
    pack_id = data.get("id", default_id)
    if not isinstance(pack_id, str) or not _ID.fullmatch(pack_id):
        raise ContentError(f"pack id {pack_id!r} must be 1-40 lowercase letters, digits, "
                           f"'-' or '_' (set 'id' in {PACK_FILE})")
    if namespaced and pack_id == "builtin":
        raise ContentError("the pack id 'builtin' is reserved; choose another 'id'")
    name = _text(data, "name", "the pack", MAX_NAME, required=True)
    prefix = f"{pack_id}/" if namespaced else ""
    folder = manifest.parent
    pictures = _pictures(_tables(data, "pictures", MAX_PICTURES), folder, pack_id, prefix,
                         check_files)
    questions = _questions(_tables(data, "questions", MAX_ITEMS), pack_id, prefix)
    topics = _topics(_tables(data, "topics", MAX_ITEMS), pack_id, prefix)
    cards = _cards(_tables(data, "cards", MAX_PICTURES), pictures, prefix)
    if not (pictures or questions or topics):
        raise ContentError("has no pictures, questions or topics; add at least one "
                           "[[pictures]], [[questions]] or [[topics]] table")
    return Pack(pack_id, name, pictures, questions, topics, cards, folder,
                _text(data, "author", "the pack", MAX_NAME),
                _text(data, "description", "the pack", MAX_TEXT))


def _pictures(tables: list[dict[str, Any]], folder: Path, pack_id: str, prefix: str,
              check_files: bool) -> tuple[Picture, ...]:
    out: list[Picture] = []
    first: dict[str, int] = {}
    total = 0
    root = folder.resolve() if check_files else folder
    for n, table in enumerate(tables, 1):
        where = _where("pictures", n, table)
        _only(table, _PICTURE_KEYS, where)
        local = _ident(table, where, first, n)
        name = _text(table, "name", where, MAX_NAME, required=True)
        file = table.get("file")
        if not isinstance(file, str) or not file.strip():
            raise ContentError(f"{where}: needs a 'file' (a PNG or SVG in the pack folder)")
        path = folder / file
        kind = path.suffix.lower().lstrip(".")
        if kind not in KINDS:
            raise PackError(path, f"must be a .png or .svg file ({where})")
        if check_files:
            if not path.resolve().is_relative_to(root):
                raise ContentError(f"{where}: file {file!r} is outside the pack folder")
            if not path.is_file():
                raise PackError(path, f"does not exist ({where})")
            kind, size = _check_image(path, where)
            total += size
            if total > MAX_PACK_BYTES:
                raise ContentError(f"its pictures add up to more than "
                                   f"{MAX_PACK_BYTES >> 20} MiB")
        scores = parse_scores(table.get("scores", {}), where)
        category = _text(table, "category", where, MAX_NAME)
        out.append(Picture(prefix + local, name, pack_id, kind, path, scores, category))
    return tuple(out)


def _check_image(path: Path, where: str) -> tuple[str, int]:
    try:
        size = path.stat().st_size
        if size > MAX_PICTURE_BYTES:  # refused before reading a byte of it
            raise PackError(path, f"is {size // 1024} KiB; a picture may be at "
                                  f"most {MAX_PICTURE_BYTES // 1024} KiB: shrink or "
                                  f"simplify it ({where})")
        data = path.read_bytes()
    except OSError as exc:
        raise PackError(path, f"cannot be read: {exc.strerror} ({where})") from exc
    try:
        kind = sniff(data)
    except ContentError as exc:
        raise PackError(path, f"{exc.reason} ({where})") from exc
    if kind != path.suffix.lower().lstrip("."):
        raise PackError(path, f"is {_article(kind)} but is named "
                              f"{path.suffix}; rename it to .{kind} ({where})")
    return kind, size


def _questions(tables: list[dict[str, Any]], pack_id: str,
               prefix: str) -> tuple[Question, ...]:
    out: list[Question] = []
    first: dict[str, int] = {}
    for n, table in enumerate(tables, 1):
        where = _where("questions", n, table)
        _only(table, _QUESTION_KEYS, where)
        local = _ident(table, where, first, n, default=f"q{n}")
        text = _text(table, "text", where, MAX_TEXT, required=True)
        side = table.get("side", "both")
        if side not in SIDES:
            raise ContentError(f"{where}: side must be \"red\", \"blue\" or \"both\", "
                               f"not {side!r}")
        weights = parse_axis(table.get("axis"), table.get("direction"), where)
        out.append(Question(prefix + local, text, weights, SIDES[side], pack_id))
    return tuple(out)


def _topics(tables: list[dict[str, Any]], pack_id: str, prefix: str) -> tuple[Topic, ...]:
    out: list[Topic] = []
    first: dict[str, int] = {}
    for n, table in enumerate(tables, 1):
        where = _where("topics", n, table)
        _only(table, _TOPIC_KEYS, where)
        local = _ident(table, where, first, n, default=f"t{n}")
        text = _text(table, "text", where, MAX_TEXT, required=True)
        weights = parse_axis(table.get("axis"), table.get("direction"), where)
        out.append(Topic(prefix + local, text, weights, pack_id))
    return tuple(out)


def _cards(tables: list[dict[str, Any]], pictures: tuple[Picture, ...],
           prefix: str) -> tuple[Card, ...]:
    """Explicit [[cards]], or else the pictures paired in the order they are listed."""
    ids = {p.id for p in pictures}
    if not tables:
        return tuple(Card(a.id, b.id) for a, b in zip(pictures[::2], pictures[1::2],
                                                       strict=False))
    out: list[Card] = []
    used: dict[str, int] = {}
    for n, table in enumerate(tables, 1):
        where = f"cards[{n}]"
        _only(table, _CARD_KEYS, where)
        sides = []
        for key in ("front", "back"):
            local = table.get(key)
            if not isinstance(local, str) or prefix + local not in ids:
                raise ContentError(f"{where}: {key} {local!r} is not a picture id of "
                                   f"this pack")
            if prefix + local in used:
                raise ContentError(f"{where}: picture {local!r} is already on "
                                   f"cards[{used[prefix + local]}]")
            used[prefix + local] = n
            sides.append(prefix + local)
        out.append(Card(sides[0], sides[1]))
    return tuple(out)


# --- small checks -------------------------------------------------------------------


def _tables(data: dict[str, Any], key: str, limit: int) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise ContentError(f"'{key}' must be a list of tables, written [[{key}]]")
    if len(value) > limit:
        raise ContentError(f"has {len(value)} {key}; a pack may have at most {limit}")
    return value


def _only(table: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ContentError(f"{where}: unknown key {unknown[0]!r}; the keys are "
                           f"{', '.join(sorted(allowed))}")


def _text(table: dict[str, Any], key: str, where: str, limit: int,
          required: bool = False) -> str:
    value = table.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{where}: needs a '{key}' (text)")
    value = value.strip()
    if len(value) > limit:
        raise ContentError(f"{where}: '{key}' is {len(value)} characters; at most {limit}")
    return value


def _ident(table: dict[str, Any], where: str, first: dict[str, int], n: int,
           default: str | None = None) -> str:
    value = table.get("id", default)
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise ContentError(f"{where}: id {value!r} must be 1-40 lowercase letters, digits, "
                           f"'-' or '_'")
    if value in first:
        raise ContentError(f"{where}: duplicate id {value!r} (already used by entry "
                           f"{first[value]})")
    first[value] = n
    return value


def _where(key: str, n: int, table: dict[str, Any]) -> str:
    ident = table.get("id")
    return f"{key}[{n}] {ident!r}" if isinstance(ident, str) else f"{key}[{n}]"


def _article(kind: str) -> str:
    return "an SVG" if kind == "svg" else "a PNG"


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-_")
    return slug[:40] or "pack"

