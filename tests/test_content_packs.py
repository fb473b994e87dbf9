"""Custom packs: a folder with a pack.toml loads; a broken one is refused with the file
and the reason, and never stops the packs beside it from loading."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from content_samples import SVG, VALID_TOML, png_bytes, write_pack

from lanplay import content
from lanplay.content.images import MAX_PICTURE_BYTES, sniff
from lanplay.content.model import ContentError
from lanplay.content.packs import PACK_FILE, discover, load_pack, packs_dir


def test_a_valid_pack_loads_with_namespaced_ids(tmp_path: Path) -> None:
    pack = load_pack(write_pack(tmp_path / "Office Party"))
    assert (pack.id, pack.name, pack.author) == ("office-party", "Office party",
                                                 "The IT crowd")
    assert [p.id for p in pack.pictures] == ["office-party/stapler", "office-party/mug",
                                             "office-party/printer"]
    stapler, mug, printer = pack.pictures
    assert (stapler.kind, mug.kind, mug.category) == ("svg", "png", "object")
    assert stapler.score("usefulness") == 8 and stapler.score("noise") == 5  # left out: 5
    assert printer.score("noise") == 9
    first, loud = pack.questions
    assert (first.id, first.side, first.weights) == (
        "office-party/q1", "red", (("usefulness", 1.0), ("noise", -0.5)))
    assert (loud.id, loud.side, loud.weights) == ("office-party/loud", "", (("noise", 1.0),))
    fun, missing = pack.topics
    assert fun.weights == (("fun", 1.0),) and missing.weights == ()  # no axis: bots guess
    # no [[cards]]: the pictures pair up in order, an odd one left out
    assert [(c.front, c.back) for c in pack.cards] == [("office-party/stapler",
                                                        "office-party/mug")]


def test_discover_finds_packs_in_the_data_dir_named_by_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANPLAY_DATA_DIR", str(tmp_path))
    assert packs_dir() == tmp_path / "packs"
    assert discover().packs == ()  # no folder yet: nothing, and no error
    write_pack(tmp_path / "packs" / "office")
    found = discover()
    assert [p.id for p in found.packs] == ["office"] and found.errors == ()
    lib = content.library(["office"], found)
    red = lib.ranking_questions("red")
    assert red[0].text == "What would you rather have on your desk?"
    assert red[1].text == "What is more annoying in a meeting?"  # side "both"
    assert len(red) == 48 and len(lib.ranking_questions("blue")) == 47
    tiles = lib.ranking_tiles(seed=1)
    assert len(set(tiles)) == 120 and {"office/stapler", "office/mug"} <= set(tiles)
    assert lib.stier_topics()[0].text == "Best thing to bring to the Monday meeting"
    deck = lib.stier_cards(seed=1)
    assert len(deck) == 70 and any(c.front.startswith("office/") for c in deck)


def broken(tmp_path: Path, name: str, toml: str = VALID_TOML,
           files: dict[str, bytes] | None = None) -> Path:
    base = {"stapler.svg": SVG, "mug.png": png_bytes(), "printer.png": png_bytes()}
    return write_pack(tmp_path / name, toml, base | (files or {}))


CASES: list[tuple[str, str, dict[str, bytes] | None, str, str]] = [
    ("bad-toml", VALID_TOML.replace('name = "Office party"', "name = Office party"), None,
     PACK_FILE, r"is not valid TOML: .*line 1"),
    ("missing-file", VALID_TOML.replace("mug.png", "cup.png"), None,
     "cup.png", r"does not exist \(pictures\[2\] 'mug'\)"),
    ("huge-image", VALID_TOML, {"mug.png": png_bytes(320, 320, noise=True)},
     "mug.png", r"is \d+ KiB; a picture may be at most 256 KiB"),
    ("duplicate-id", VALID_TOML.replace('id = "printer"', 'id = "mug"'), None,
     PACK_FILE, r"pictures\[3\] 'mug': duplicate id 'mug' \(already used by entry 2\)"),
    ("not-an-image", VALID_TOML, {"mug.png": b"just some text, honestly\n"},
     "mug.png", r"is not an image \(neither PNG nor SVG\)"),
    ("jpeg", VALID_TOML, {"mug.png": b"\xff\xd8\xff\xe0\x00\x10JFIF" + bytes(64)},
     "mug.png", r"is a JPEG image; pictures must be PNG or SVG"),
    ("svg-not-xml", VALID_TOML, {"stapler.svg": b"<svg><g></svg>"},
     "stapler.svg", r"is not well-formed SVG/XML \(line 1"),
    ("svg-entities", VALID_TOML,
     {"stapler.svg": b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]>'
                     b'<svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'},
     "stapler.svg", r"DOCTYPE or ENTITY"),
    ("xml-not-svg", VALID_TOML, {"stapler.svg": b"<html><body/></html>"},
     "stapler.svg", r"is XML but not an SVG \(its root element is <html>\)"),
    ("misnamed", VALID_TOML, {"mug.png": SVG}, "mug.png",
     r"is an SVG but is named .png; rename it to .svg"),
    ("outside", VALID_TOML.replace('"mug.png"', '"../mug.png"'), None,
     PACK_FILE, r"file '../mug.png' is outside the pack folder"),
    ("unknown-axis", VALID_TOML.replace("noise = 9", "loudness = 9"), None,
     PACK_FILE, r"pictures\[3\] 'printer': unknown axis 'loudness'"),
    ("score-range", VALID_TOML.replace("noise = 9", "noise = 11"), None,
     PACK_FILE, r"score noise = 11 must be a number from 0 to 10"),
    ("typo-key", VALID_TOML.replace("[[topics]]", "[[topic]]", 1), None,
     PACK_FILE, r"unknown key 'topic'"),
    ("no-name", VALID_TOML.replace('name = "Office party"\n', ""), None,
     PACK_FILE, r"the pack: needs a 'name'"),
    ("bad-side", VALID_TOML.replace('side = "red"', 'side = "green"'), None,
     PACK_FILE, r"side must be \"red\", \"blue\" or \"both\""),
    ("empty", 'name = "Nothing"\n', {}, PACK_FILE, r"has no pictures, questions or topics"),
]


@pytest.mark.parametrize(("folder", "toml", "files", "culprit", "reason"), CASES,
                         ids=[c[0] for c in CASES])
def test_a_broken_pack_is_refused_naming_the_file_and_the_reason(
        tmp_path: Path, folder: str, toml: str, files: dict[str, bytes] | None,
        culprit: str, reason: str) -> None:
    write_pack(tmp_path / "packs" / "good")
    broken(tmp_path / "packs", folder, toml, files)
    found = discover(tmp_path / "packs")
    assert [p.id for p in found.packs] == ["good"]  # the good one still loads
    (error,) = found.errors
    assert error.file == tmp_path / "packs" / folder / culprit
    assert re.search(reason, error.problem), error.problem
    assert str(error).startswith(str(error.file) + ": ")


def test_a_folder_without_pack_toml_and_a_duplicate_pack_id_are_reported(
        tmp_path: Path) -> None:
    root = tmp_path / "packs"
    write_pack(root / "a-first", VALID_TOML.replace('name = "Office party"',
                                                    'id = "office"\nname = "One"'))
    write_pack(root / "b-second", VALID_TOML.replace('name = "Office party"',
                                                     'id = "office"\nname = "Two"'))
    (root / "c-empty").mkdir()
    found = discover(root)
    assert [p.name for p in found.packs] == ["One"]
    reasons = {e.file.parent.name if e.file.name == PACK_FILE else e.file.name: e.problem
               for e in found.errors}
    assert "already uses" in reasons["b-second"]
    assert "has no pack.toml" in reasons["c-empty"]


def test_the_reserved_builtin_id_is_refused(tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "x", VALID_TOML.replace('name = "Office party"',
                                                            'id = "builtin"\nname = "X"'))
    with pytest.raises(content.PackError, match="reserved"):
        load_pack(folder)


def test_sniffing_accepts_real_pictures_only() -> None:
    assert sniff(SVG) == "svg"
    assert sniff(b"\xef\xbb\xbf" + SVG) == "svg"
    assert sniff(png_bytes()) == "png"
    with pytest.raises(ContentError, match="is empty"):
        sniff(b"")
    with pytest.raises(ContentError, match="4096"):
        sniff(png_bytes(5000, 1))
    with pytest.raises(ContentError, match="at most 256 KiB"):
        sniff(b"<svg>" + b" " * MAX_PICTURE_BYTES + b"</svg>")
    with pytest.raises(ContentError, match="damaged PNG"):
        sniff(b"\x89PNG\r\n\x1a\n" + bytes(40))
