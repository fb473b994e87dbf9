"""Is this SVG safe to draw? Checked before any renderer sees it.

An SVG is a program for the renderer more than a picture: ``<use>`` copies
other elements, so 22 nested groups that each use the previous one twice
draw four million rectangles from 1.8 KB (5.8 s of QtSvg on one core; 24
levels took 21 s). Pictures come from pack folders people download and from
hosts on the LAN, so this check bounds the work a picture can ask for:

* the file is parsed by the stdlib's expat (what ``xml.etree`` uses) with a
  DOCTYPE, entity declarations, external entities and processing
  instructions refused: no entity expansion and nothing fetched;
* no ``<filter>``: one blurred square costs QtSvg 80 ms, 2000 of them, in
  120 KB, took 66 s;
* at most ``MAX_ELEMENTS`` elements, nested at most ``MAX_DEPTH`` deep;
* every reference (``href``/``xlink:href`` on any element, ``url(...)`` in an
  attribute or a style sheet) must name an element of the same file
  (``#id``). Nothing outside the file is allowed, ``data:`` URLs included:
  an embedded SVG would escape this check and an embedded PNG the PNG one;
  a picture that needs a bitmap can be a PNG file;
* the drawn size, each element counted once for every place it is drawn
  (children plus whatever ``#id`` references pull in, a marker once per
  vertex of the path it decorates, a mask or pattern ``OFFSCREEN`` more for
  the image it is drawn into), is at most ``MAX_DRAWN``; a reference cycle
  is refused outright.

A refusal is a ``ContentError`` whose reason completes "<file> ...".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.parsers import expat

from lanplay.content.model import ContentError

MAX_ELEMENTS = 5000
"""Elements in the file. A Twemoji picture has at most 54; a detailed drawing
exported from Inkscape a few hundred to a couple of thousand."""

MAX_DRAWN = 10_000
"""Elements drawn once ``#id`` references are followed. QtSvg draws this many
small squares into a table tile in about 10 ms; the costliest shapes (6000
half-transparent stroked circles) took about a second at 160 px, which is
why windows draw pictures off the GUI thread too (``ui.look.picture_render``)."""

OFFSCREEN = 25
"""What one use of a mask or pattern counts beyond its elements: each is drawn
into an image of its own first (2000 masked squares took 0.15 s at 80 px)."""

MAX_DEPTH = 32
"""Element nesting; QtSvg itself stops drawing below 32 levels."""

_SVG = "http://www.w3.org/2000/svg"
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
_IMPORT = re.compile(r"@import", re.IGNORECASE)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_MARKERS = ("marker", "marker-start", "marker-mid", "marker-end")


@dataclass
class _Node:
    tag: str
    children: list[int] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)
    marked: list[str] = field(default_factory=list)
    """Markers this element draws at each of its vertices."""
    vertices: int = 1


class _Checker:
    """Collects the element graph while expat parses; refuses as soon as it can."""

    def __init__(self) -> None:
        self.nodes: list[_Node] = []
        self.ids: dict[str, int] = {}
        self.stack: list[int] = []
        self.style_text: list[str] = []

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if len(self.nodes) >= MAX_ELEMENTS:
            raise ContentError(f"is an SVG of more than {MAX_ELEMENTS} elements; simplify "
                               f"it (a picture this detailed would slow every window)")
        if len(self.stack) >= MAX_DEPTH:
            raise ContentError(f"is an SVG nesting elements more than {MAX_DEPTH} deep; "
                               f"flatten its groups")
        uri, _, local = name.rpartition("}")
        node = _Node(local if uri in ("", _SVG) else name)
        if node.tag == "filter":
            raise ContentError("is an SVG with a filter effect (<filter>): a blur can take "
                               "minutes to draw; remove it, or make the picture a PNG")
        index = len(self.nodes)
        self.nodes.append(node)
        if self.stack:
            self.nodes[self.stack[-1]].children.append(index)
        self.stack.append(index)
        for key, value in attrs.items():
            attr = key.rpartition("}")[2]
            if attr == "href":
                node.refs.append(_local_ref(value, f"<{local} {attr}>"))
            elif attr == "id":
                self.ids.setdefault(value.strip(), index)
            elif attr in ("d", "points"):
                node.vertices = max(1, len(_NUMBER.findall(value)) // 2)
            if attr == "style":
                self._css(value, node)
            elif "url(" in value.lower():
                targets = [_local_ref(m.group(2), f"{attr}=\"url(...)\"")
                           for m in _URL.finditer(value)]
                (node.marked if attr in _MARKERS else node.refs).extend(targets)

    def end(self, name: str) -> None:
        index = self.stack.pop()
        if self.nodes[index].tag == "style":
            self._css("".join(self.style_text), self.nodes[index])
        self.style_text.clear()

    def text(self, data: str) -> None:
        if self.stack and self.nodes[self.stack[-1]].tag == "style":
            self.style_text.append(data)

    def _css(self, css: str, node: _Node) -> None:
        """A style attribute or sheet: its url(...) must stay inside the file.

        A sheet's references count against the ``<style>`` element (drawn
        once), an attribute's against its element: a close enough bound.
        """
        if _IMPORT.search(css):
            raise ContentError("is an SVG whose style sheet has an @import; pictures "
                               "may not load other files")
        for declaration in css.split(";"):
            prop, _, value = declaration.partition(":")
            targets = [_local_ref(m.group(2), "a style's url(...)")
                       for m in _URL.finditer(value)]
            kind = prop.strip().lower()
            (node.marked if kind in _MARKERS else node.refs).extend(targets)

    def drawn(self) -> int:
        """How many elements rendering would draw, saturating just past MAX_DRAWN.

        Iterative, so a long chain of references cannot exhaust the stack;
        an element reached again while its own cost is being worked out is a
        cycle.
        """
        cost: dict[int, int] = {}
        active: set[int] = set()
        if not self.nodes:
            return 0
        todo: list[tuple[int, bool]] = [(0, False)]
        while todo:
            index, ready = todo.pop()
            if index in cost:
                continue
            node = self.nodes[index]
            edges = [*node.children, *self._targets(node.refs), *self._targets(node.marked)]
            if not ready:
                if index in active:
                    raise ContentError(self._cycle(index))
                active.add(index)
                todo.append((index, True))
                for edge in edges:
                    if edge in active:
                        raise ContentError(self._cycle(edge))
                    if edge not in cost:
                        todo.append((edge, False))
                continue
            total = 1 + sum(cost[e] for e in node.children)
            total += sum(cost[e] + (OFFSCREEN if self.nodes[e].tag in ("mask", "pattern")
                                    else 0) for e in self._targets(node.refs))
            total += node.vertices * sum(cost[e] for e in self._targets(node.marked))
            cost[index] = min(total, MAX_DRAWN + 1)
            active.discard(index)
        return cost[0]

    def _targets(self, refs: list[str]) -> list[int]:
        # A reference to a missing id draws nothing (QtSvg skips it).
        return [self.ids[r] for r in refs if r in self.ids]

    def _cycle(self, index: int) -> str:
        node = self.nodes[index]
        name = next((i for i, n in self.ids.items() if n == index), "")
        what = f"<{node.tag} id={name!r}>" if name else f"<{node.tag}>"
        return f"is an SVG whose {what} refers to itself (a reference cycle); remove it"


def _local_ref(value: str, where: str) -> str:
    """The id a reference names; ContentError unless it is ``#id`` in this file."""
    ref = value.strip()
    if ref.startswith("#") and len(ref) > 1:
        return ref[1:]
    shown = ref if len(ref) <= 60 else ref[:57] + "..."
    raise ContentError(f"is an SVG that refers to {shown!r} outside the file ({where}); "
                       f"a picture may only refer to its own elements (#id), not to "
                       f"files, web addresses or data: URLs")


def check(data: bytes) -> None:
    """Return if the SVG in ``data`` (UTF-8) is safe to draw; ContentError says why not."""
    checker = _Checker()
    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse_dtd(*_: object) -> None:
        raise ContentError("is an SVG with a DOCTYPE or ENTITY declaration; remove it "
                           "(pictures may not declare entities)")

    def refuse_external(*_: object) -> int:
        refuse_dtd()
        return 0

    def refuse_pi(target: str, _data: str) -> None:
        raise ContentError(f"is an SVG with a processing instruction <?{target[:30]} ...?>; "
                           f"remove it (pictures may not load style sheets)")

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.UnparsedEntityDeclHandler = refuse_dtd
    parser.ExternalEntityRefHandler = refuse_external
    parser.ProcessingInstructionHandler = refuse_pi
    parser.StartElementHandler = checker.start
    parser.EndElementHandler = checker.end
    parser.CharacterDataHandler = checker.text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise ContentError(f"is not well-formed SVG/XML (line {exc.lineno}, column "
                           f"{exc.offset + 1})") from None
    if not checker.nodes:
        raise ContentError("is not well-formed SVG/XML (no root element)")
    root = checker.nodes[0].tag
    if root != "svg":
        raise ContentError(f"is XML but not an SVG (its root element is "
                           f"<{root.rpartition('}')[2]}>)")
    drawn = checker.drawn()
    if drawn > MAX_DRAWN:
        raise ContentError(f"is an SVG whose <use> and url(#...) references draw more than "
                           f"{MAX_DRAWN:,} elements (a picture this costly would freeze "
                           f"the window); simplify it")
