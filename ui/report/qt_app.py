"""A Qt application for the report, headless when there is no display (CLI on a server)."""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

_OWN_APP: list[QApplication] = []  # keeps the app we create alive for the process


def needs_offscreen() -> bool:
    """Linux/BSD with no X11 or Wayland display: only the offscreen platform can start. Windows
    and macOS always have their native platform, whose font database the report relies on."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return False
    if sys.platform.startswith(("win", "darwin")):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def ensure_app() -> QApplication:
    """The running QApplication, or a new one (the plots are pyqtgraph widgets, which need a
    QApplication, not just a QGuiApplication)."""
    app = QCoreApplication.instance()
    if app is None:
        if needs_offscreen():
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = QApplication([sys.argv[0] if sys.argv and sys.argv[0] else "gpu-advisor"])
        _OWN_APP.append(app)
    if not isinstance(app, QApplication):
        raise RuntimeError("the PDF report needs a QApplication; a QGuiApplication or "
                           "QCoreApplication is already running")
    return app
