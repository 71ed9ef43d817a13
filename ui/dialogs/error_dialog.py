"""An unexpected exception: logged with its traceback, shown as a dialog with the message and
the log file's path; the application keeps running."""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable
from types import TracebackType

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from advisor.files.logs import active_log_file, log_file

log = logging.getLogger("advisor.ui")


def error_message(exc: BaseException) -> str:
    where = active_log_file()
    if where is None:  # no log could be opened: never point to a file that was not written
        text = QCoreApplication.translate(
            "Errors", "Something went wrong: %1\n\nThe application keeps running. No log "
            "could be written (the folder %2 cannot be written).")
        return text.replace("%1", f"{type(exc).__name__}: {exc}").replace(
            "%2", str(log_file().parent))
    text = QCoreApplication.translate("Errors", "Something went wrong: %1\n\nThe application keeps running. The details "
                        "were written to the log file:\n%2")
    return text.replace("%1", f"{type(exc).__name__}: {exc}").replace("%2", str(where))


class ExceptionHook:
    """``sys.excepthook`` replacement; a second error while the dialog is open is only logged."""

    def __init__(self, parent: Callable[[], QWidget | None]) -> None:
        self._parent = parent
        self._showing = False
        self.previous = sys.excepthook

    def __call__(self, kind: type[BaseException], exc: BaseException,
                 tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            self.previous(kind, exc, tb)
            return
        log.error("unexpected error:\n%s", "".join(traceback.format_exception(kind, exc, tb)))
        if self._showing:
            return
        self._showing = True
        parent = self._parent()
        try:
            QMessageBox.critical(parent, QCoreApplication.translate("Errors", "Unexpected error"),
                                 error_message(exc))
        finally:
            self._showing = False
            if parent is not None:  # the window's shortcuts answer again (ui.window.focus)
                from ui.window.focus import give_focus_back

                give_focus_back(parent)

    def install(self) -> ExceptionHook:
        sys.excepthook = self
        return self

    def uninstall(self) -> None:
        if sys.excepthook is self:
            sys.excepthook = self.previous
