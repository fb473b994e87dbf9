"""Picture ids to pixmaps for the game tables: the one place a table gets an image.

A view names pictures by id (and carries their names). The images come
from the content in play (``lanplay.content.in_play``): the built-in
Twemoji, or a custom pack once the host's pictures have arrived. Until
then, and until a worker thread has drawn it (``ui.look.picture_render``: no
picture is drawn on the GUI thread, and one too slow to draw is given up), a
picture is shown as a light tile with its name, so a table never waits for
a transfer or a renderer; ``forget_cache`` (called when a pack completes)
makes the next paint ask for the real image.
"""

from __future__ import annotations

from PyQt6 import sip
from PyQt6.QtCore import QObject, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QImage, QPixmap
from PyQt6.QtWidgets import QApplication

from lanplay.content import in_play
from lanplay.content.model import Picture
from ui.look import picture_render
from ui.look.tiles import picture_image, tile_inset, tile_of, tile_pixmap
from ui.words.i18n import content

Key = tuple[str, int, bool]
_cache: dict[Key, QPixmap] = {}
_asked: set[Key] = set()
_names: dict[tuple[str, int], QPixmap] = {}
_generation = 0
_drawn = 0
"""Pictures drawn so far (and caches dropped): pieces kept from an earlier rebuild
(``ui.tables.kept``) that painted a name before must not be taken back after."""
_synchronous = False
_repaint: QTimer | None = None
_arrivals: _Arrivals | None = None


def set_synchronous(on: bool) -> None:
    """Draw pictures at once on the calling thread (``lanplay screenshots``, which
    grabs a table right after showing it). A window never does: see
    ``ui.look.picture_render``."""
    global _synchronous
    _synchronous = on


def image(picture_id: str, size: int) -> QPixmap:
    """The bare picture (transparent background), or an empty square until it is drawn."""
    key = (picture_id, size, False)
    found = _cache.get(key)
    if found is not None:
        return found
    picture = in_play.picture(picture_id)
    if picture is not None and _synchronous:
        found = _cache[key] = QPixmap.fromImage(picture_image(picture, size))
        return found
    if picture is not None:
        _ask(picture, key, size, "")
    blank = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    blank.fill(Qt.GlobalColor.transparent)
    return QPixmap.fromImage(blank)


def tile(picture_id: str, size: int, name: str = "") -> QPixmap:
    """The picture on a light rounded tile; its name on the tile until it is drawn
    (and for good if it cannot be: missing, refused, or too slow to draw)."""
    key = (picture_id, size, True)
    found = _cache.get(key)
    if found is not None:
        return found
    name = name or picture_id.rsplit("/", 1)[-1]
    picture = in_play.picture(picture_id)
    if picture is not None and _synchronous:
        found = _cache[key] = tile_pixmap(picture, size)
        return found
    if picture is not None:
        _ask(picture, key, size - 2 * tile_inset(size), name)
        near = _nearest(picture_id, size)
        if near is not None:  # drawn at another size: that one, scaled, meanwhile
            return near
    return _name_tile(name, size)


def _nearest(picture_id: str, size: int) -> QPixmap | None:
    """The picture's tile at the nearest size already drawn, scaled to ``size``: a table
    whose layout changed (a tile placed, a floor filled) keeps showing its pictures
    while the new size is drawn, instead of their names for seconds."""
    sizes = [k[1] for k in _cache if k[0] == picture_id and k[2]]
    if not sizes:
        return None
    best = min(sizes, key=lambda n: abs(n - size))
    return _cache[(picture_id, best, True)].scaled(
        size, size, Qt.AspectRatioMode.IgnoreAspectRatio,
        Qt.TransformationMode.SmoothTransformation)


def _ask(picture: Picture, key: Key, size: int, name: str) -> None:
    """Have ``picture`` drawn off the GUI thread; once it is, repaint the windows."""
    if key in _asked:
        return
    _asked.add(key)
    generation = _generation

    def done(drawn: QImage | None) -> None:
        if generation != _generation:  # the cache was dropped meanwhile
            return
        if key[2]:
            _cache[key] = tile_of(drawn, key[1], name)
        elif drawn is not None:
            _cache[key] = QPixmap.fromImage(drawn)
        else:
            return  # stays an empty square; _asked keeps it from being asked again
        global _drawn
        _drawn += 1
        _schedule_repaint()

    picture_render.shared().request(picture, size, done)


class _Arrivals(QObject):
    """Says when pictures arrived: a felt table repaints its pieces then (they paint from
    their own caches: ``CachedScene``), each table its own, for as long as it lives."""

    arrived = pyqtSignal()


def arrivals() -> _Arrivals:
    """The application's: connect a table's repaint of its pieces to ``arrived``."""
    global _arrivals
    if _arrivals is None or sip.isdeleted(_arrivals):
        _arrivals = _Arrivals(QApplication.instance())
    return _arrivals


def _schedule_repaint() -> None:
    """One repaint of every visible widget for however many pictures just arrived:
    the tables draw pictures in their paint methods, from this cache. A single-shot
    timer of the application's: asked again before it fired, it fires once (a flag of
    our own, set once and left set, would keep every later picture from showing)."""
    global _repaint
    app = QApplication.instance()
    if app is None:
        return
    timer = _repaint
    if timer is None or sip.isdeleted(timer):
        timer = _repaint = QTimer(app)
        timer.setSingleShot(True)
        timer.setInterval(0)
        timer.timeout.connect(_repaint_now)
    if not timer.isActive():
        timer.start()


def _repaint_now() -> None:
    for widget in QApplication.allWidgets():
        if widget.isVisible():
            widget.update()
    arrivals().arrived.emit()


def _name_tile(name: str, size: int) -> QPixmap:
    found = _names.get((name, size))
    if found is None:
        found = _names[(name, size)] = tile_of(None, size, name)
    return found


def drawn() -> int:
    """A count that grows whenever a picture arrives or the cache is dropped: what a
    piece painted before it changed may show a name where its picture is now."""
    return _drawn + _generation


def forget_cache() -> None:
    """Drop every cached pixmap: a pack has arrived, or the pictures changed."""
    global _generation
    _generation += 1
    _cache.clear()
    _asked.clear()
    _names.clear()


def name_of(picture_id: str, fallback: str = "") -> str:
    """A picture's name in the window's language (a pack's own name as its pack wrote it)."""
    picture = in_play.picture(picture_id)
    return shown_name(picture_id, picture.name if picture is not None else
                      (fallback or picture_id))


def shown_name(picture_id: str, name: str) -> str:
    """``name`` (what the host's view calls ``picture_id``) in the window's language: the
    catalogue's word when it is the built-in English name, else as it is."""
    return content("picture", picture_id, name)


__all__ = ["arrivals", "drawn", "forget_cache", "image", "name_of", "set_synchronous", "shown_name",
           "tile"]
