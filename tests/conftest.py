"""Shared test setup: Qt renders offscreen, and no test may leak a task."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
