"""Pictures drawn off the GUI thread, each within a time budget.

QtSvg's cost per element varies a hundredfold (a stroked, half-transparent
circle costs 100 times a small square), so even an SVG that passes
``lanplay.content.svg`` may take a second or two to draw large. No picture
is drawn on the GUI thread: a worker of a small ``QThreadPool`` paints it
into a ``QImage`` (painting a QImage is allowed off the GUI thread, and PyQt
lets go of the GIL while Qt paints) and hands it back through a queued
signal; until then callers show the picture's name.

A render still running ``BUDGET`` seconds after it started is given up: its
callers get None (they keep showing the name), whatever it draws later is
thrown away, and the pool gets one thread more so the pictures queued behind
it still come. A thread cannot be stopped from outside, so the pool grows by
at most ``MAX_STUCK``; after that the next pictures wait (names showing) until
a stuck render ends. The GUI thread never waits on any of it.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from PyQt6.QtCore import QByteArray, QCoreApplication, QObject, Qt, QThreadPool, QTimer, pyqtSignal
from PyQt6.QtGui import QImage, QPainter
from PyQt6.QtSvg import QSvgRenderer

from lanplay.content.images import MAX_PICTURE_BYTES, sniff
from lanplay.content.model import ContentError, Picture

log = logging.getLogger(__name__)

BUDGET = 3.0
"""Seconds a render may run before it is given up."""
THREADS = 2
MAX_STUCK = 2

Done = Callable[[QImage | None], None]
"""Called on the GUI thread with the drawn image, or None: refused, unreadable or too slow."""


def draw(picture: Picture, size: int) -> QImage | None:
    """``picture`` drawn into a transparent ``size`` square, aspect kept, centred.

    Runs on any thread. The bytes are checked (``sniff``) every time, right
    before drawing, so nothing reaches QtSvg unchecked: not a pack file edited
    since it was loaded, not a picture cached by an older lanplay. None when
    the file is missing, unreadable or refused.
    """
    try:
        if picture.path.stat().st_size > MAX_PICTURE_BYTES:
            return None
        data = picture.path.read_bytes()
        kind = sniff(data)
    except (OSError, ContentError):
        return None
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    if kind == "svg":
        renderer = QSvgRenderer(QByteArray(data))
        if renderer.isValid():
            renderer.setAspectRatioMode(Qt.AspectRatioMode.KeepAspectRatio)
            renderer.render(painter)
    else:
        source = QImage.fromData(data)
        if not source.isNull():
            scaled = source.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatio,
                                   Qt.TransformationMode.SmoothTransformation)
            painter.drawImage((size - scaled.width()) // 2, (size - scaled.height()) // 2,
                              scaled)
    painter.end()
    return image


Key = tuple[str, str, int]


@dataclass(eq=False)
class _Job:
    key: Key
    picture: Picture
    size: int
    callbacks: list[Done] = field(default_factory=list)
    started: float | None = None
    """``time.monotonic()`` when a worker began it (written by the worker)."""


class Renderer(QObject):
    """Draws pictures on worker threads; one per application (``shared()``)."""

    _finished = pyqtSignal(object, object)

    def __init__(self, budget: float = BUDGET, threads: int = THREADS,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.budget = budget
        self.threads = threads
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(threads)
        self.given_up = 0
        """Renders abandoned for running over the budget (for tests and logs)."""
        self._jobs: dict[Key, _Job] = {}
        self._stuck: set[_Job] = set()
        self._watch = QTimer(self)
        self._watch.setInterval(50)
        self._watch.timeout.connect(self._check_budget)
        self._finished.connect(self._on_finished)  # queued: emitted by the workers

    def request(self, picture: Picture, size: int, done: Done) -> None:
        """Draw ``picture`` at ``size``; ``done`` is called later on the GUI thread.

        The same picture and size asked for again while it is being drawn is
        drawn once, for every caller.
        """
        key = (picture.id, str(picture.path), size)
        job = self._jobs.get(key)
        if job is not None:
            job.callbacks.append(done)
            return
        job = _Job(key, picture, size, [done])
        self._jobs[key] = job
        self.pool.start(partial(self._run, job))
        if not self._watch.isActive():
            self._watch.start()

    def pending(self) -> int:
        """Renders asked for that have not answered yet."""
        return len(self._jobs)

    def wait(self, timeout: float) -> bool:
        """Run the event loop until every render has answered (tools and tests only:
        a window never waits). False if some had not after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self._jobs and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            if self._jobs:
                time.sleep(0.005)
        return not self._jobs

    def _run(self, job: _Job) -> None:
        """On a worker thread."""
        job.started = time.monotonic()
        try:
            image = draw(job.picture, job.size)
        except Exception:  # a bug must cost a picture, not the worker thread
            log.exception("drawing %s failed", job.picture.id)
            image = None
        with contextlib.suppress(RuntimeError):  # the renderer is gone: nobody waits
            self._finished.emit(job, image)

    def _on_finished(self, job: _Job, image: QImage | None) -> None:
        if job in self._stuck:
            self._stuck.discard(job)
            self._size_pool()
            return
        if self._jobs.get(job.key) is job:
            del self._jobs[job.key]
            for done in job.callbacks:
                done(image)
        if not self._jobs:
            self._watch.stop()

    def _check_budget(self) -> None:
        now = time.monotonic()
        for job in list(self._jobs.values()):
            if job.started is None or now - job.started <= self.budget:
                continue
            del self._jobs[job.key]
            self._stuck.add(job)
            self.given_up += 1
            self._size_pool()
            log.warning("gave up drawing %s after %.1f s; its name is shown instead",
                        job.picture.id, now - job.started)
            for done in job.callbacks:
                done(None)
        if not self._jobs:
            self._watch.stop()

    def _size_pool(self) -> None:
        self.pool.setMaxThreadCount(self.threads + min(len(self._stuck), MAX_STUCK))


_shared: Renderer | None = None


def shared() -> Renderer:
    """The application's renderer, made on first use (after the QApplication)."""
    global _shared
    if _shared is None:
        _shared = Renderer(parent=QCoreApplication.instance())
    return _shared
