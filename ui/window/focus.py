"""Keyboard focus after a modal dialog: back to the main window, where it was.

A file dialog or message box that closes does not always hand the activation back to the
window that opened it (window managers differ; a dialog opened from a shortcut's slot is the
usual case). Until something re-activates the window — a click on its menu — its shortcuts
(Ctrl+O, Ctrl+S) go nowhere: Qt delivers a window shortcut only to the active window.
``modal(window)`` wraps every dialog the main window opens and re-activates it afterwards,
with the focus on the widget that had it (or the current page).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget


@contextmanager
def modal(window: QWidget) -> Iterator[None]:
    """Run a modal dialog inside ``with modal(window):``; the window is active afterwards."""
    before = QApplication.focusWidget()
    try:
        yield
    finally:
        give_focus_back(window, before)


def give_focus_back(window: QWidget, before: QWidget | None = None) -> None:
    """Activate ``window`` and put the focus on ``before`` when it is still one of its visible
    widgets, else on the window's central widget."""
    if not window.isVisible():
        return
    window.activateWindow()
    window.raise_()
    target = before if _inside(window, before) else None
    if target is None:
        central = getattr(window, "centralWidget", lambda: None)()
        target = central if central is not None else window
    target.setFocus(Qt.FocusReason.ActiveWindowFocusReason)


def _inside(window: QWidget, widget: QWidget | None) -> bool:
    try:
        return widget is not None and widget.isVisible() and (
            widget is window or window.isAncestorOf(widget))
    except RuntimeError:  # the widget was deleted while the dialog was open
        return False
