"""What the desktop app remembers between sessions (issue 34): the language chosen, the
window's size and place, the page it was on and whether the live preview was folded. Kept with ``QSettings`` in the user's
settings folder (``gpu-scaling-advisor``); the application reads it at start and writes it when
the window closes. A value that is missing or broken is ignored: the defaults stand."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QSettings

ORG = APP = "gpu-scaling-advisor"
LANGUAGES = ("en", "zh")


def settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORG, APP)


def remembered_language(store: QSettings) -> str | None:
    value = store.value("language")
    return value if value in LANGUAGES else None


def restore(window: Any, store: QSettings) -> None:
    """The window's size, place and page as they were when it last closed, and the live
    preview folded or not."""
    geometry = store.value("geometry")
    if isinstance(geometry, QByteArray | bytes) and geometry:
        window.restoreGeometry(QByteArray(geometry))
    try:
        page = int(store.value("page", 0))
    except (TypeError, ValueError):
        page = 0
    if 0 < page < window.stack.count():
        window.go_to(page)
    folded = store.value("preview_folded")
    if folded is not None:
        window.set_preview_folded(str(folded).lower() == "true")


def save(window: Any, store: QSettings) -> None:
    store.setValue("language", window.lang)
    store.setValue("geometry", window.saveGeometry())
    store.setValue("page", window.stack.currentIndex())
    store.setValue("preview_folded", bool(window.preview_folded))
    store.sync()


__all__ = ["remembered_language", "restore", "save", "settings"]
