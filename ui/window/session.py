"""What the desktop app remembers between sessions (issue 34): the language chosen, the
window's size and place, the page it was on, whether the live preview was folded, the sizes
of the compare and diagnosis pages' splitters (each by its object name, applied when its page
is built) and the folder the file dialogs last used. Kept with ``QSettings`` in the user's
settings folder (``gpu-scaling-advisor``); the application reads it at start and writes it when
the window closes. A value that is missing or broken is ignored: the defaults stand."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QSplitter, QWidget

from ui.app.folders import last_folder, set_last_folder

ORG = APP = "gpu-scaling-advisor"
SPLITTERS = "splitters/"
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
    folder = store.value("last_folder")
    set_last_folder(folder if isinstance(folder, str) else None)
    window.splitter_states = {
        key.removeprefix(SPLITTERS): value for key in store.allKeys()
        if key.startswith(SPLITTERS)
        and isinstance(value := store.value(key), QByteArray | bytes) and value}
    apply_splitters(window, window.splitter_states)


def apply_splitters(widget: QWidget, states: dict) -> None:
    """The remembered sizes of ``widget``'s named splitters (a state Qt refuses is ignored)."""
    for splitter in widget.findChildren(QSplitter):
        state = states.get(splitter.objectName())
        if splitter.objectName() and state:
            splitter.restoreState(QByteArray(state))


def save(window: Any, store: QSettings) -> None:
    store.setValue("language", window.lang)
    store.setValue("geometry", window.saveGeometry())
    store.setValue("page", window.stack.currentIndex())
    store.setValue("preview_folded", bool(window.preview_folded))
    store.setValue("last_folder", last_folder())
    for splitter in window.findChildren(QSplitter):  # pages never built keep what they had
        if splitter.objectName():
            store.setValue(SPLITTERS + splitter.objectName(), splitter.saveState())
    store.sync()


__all__ = ["apply_splitters", "remembered_language", "restore", "save", "settings"]
