"""An unexpected exception: logged with its traceback, shown as a dialog with the message and
the log file's path; the application keeps running. The dialog copies the details for a
problem report (the version, the system, the traceback and the log's tail) and opens the log
folder (issue 34)."""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable
from types import TracebackType

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from advisor.files.logs import active_log_file, log_file

log = logging.getLogger("advisor.ui")


# the dialog's words (context "Errors"), marked for pyside6-lupdate
_TITLE = QT_TRANSLATE_NOOP("Errors", "Unexpected error")
_DETAILS = QT_TRANSLATE_NOOP("Errors", "Details")
_SHOW = QT_TRANSLATE_NOOP("Errors", "Show details")
_HIDE = QT_TRANSLATE_NOOP("Errors", "Hide details")
_COPY = QT_TRANSLATE_NOOP("Errors", "Copy details")
_FOLDER = QT_TRANSLATE_NOOP("Errors", "Open log folder")
_CLOSE = QT_TRANSLATE_NOOP("Errors", "Close")
_COPIED = QT_TRANSLATE_NOOP("Errors", "Copied: paste it into your report of the problem.")


def _tr(text: str) -> str:
    return QCoreApplication.translate("Errors", text)


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


class ErrorDialog(QDialog):
    """The message, the details folded under it, and Copy details / Open log folder / Close.
    Copy details leaves the dialog open (and says so)."""

    def __init__(self, title: str, message: str, details: str = "",
                 parent: QWidget | None = None, lang: str = "en") -> None:
        super().__init__(parent)
        self.setObjectName("errorDialog")
        self.setWindowTitle(title)
        self.lang = lang
        self.details = details
        icon = QLabel()
        icon.setPixmap(self.style().standardIcon(
            QStyle.StandardPixmap.SP_MessageBoxCritical).pixmap(40, 40))
        self.message = QLabel(message)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.setObjectName("errorMessage")
        top = QHBoxLayout()
        top.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.message, 1)
        self.details_view = QPlainTextEdit(details)
        self.details_view.setReadOnly(True)
        self.details_view.setAccessibleName(_tr(_DETAILS))
        self.details_view.setVisible(False)
        self.status = QLabel()
        buttons = QDialogButtonBox()
        self.details_button = buttons.addButton(_tr(_SHOW),
                                                QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button = buttons.addButton(_tr(_COPY),
                                             QDialogButtonBox.ButtonRole.ActionRole)
        self.folder_button = buttons.addButton(_tr(_FOLDER),
                                               QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = buttons.addButton(_tr(_CLOSE),
                                              QDialogButtonBox.ButtonRole.RejectRole)
        self.details_button.setVisible(bool(details))
        self.details_button.clicked.connect(self._toggle_details)
        self.copy_button.clicked.connect(self.copy_details)
        self.folder_button.clicked.connect(self.open_log_folder)
        self.close_button.clicked.connect(self.reject)
        self.close_button.setDefault(True)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.details_view, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self.resize(560, 220)

    def _toggle_details(self) -> None:
        shown = not self.details_view.isVisible()
        self.details_view.setVisible(shown)
        self.details_button.setText(_tr(_HIDE) if shown else _tr(_SHOW))
        if shown:
            self.resize(self.width(), max(self.height(), 420))

    def report(self) -> str:
        from ui.dialogs.help import problem_report

        return problem_report(f"{self.message.text()}\n\n{self.details}".strip(), self.lang)

    def copy_details(self) -> None:
        from ui.dialogs.help import copy_to_clipboard

        copy_to_clipboard(self.report())
        self.status.setText(_tr(_COPIED))

    def open_log_folder(self) -> None:
        from ui.dialogs.help import log_folder, open_folder

        open_folder(log_folder())


def show_error(parent: QWidget | None, title: str, message: str, details: str = "",
               lang: str = "en") -> None:
    """The error dialog, modal (tests replace this function)."""
    ErrorDialog(title, message, details, parent, lang).exec()


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
        details = "".join(traceback.format_exception(kind, exc, tb))
        log.error("unexpected error:\n%s", details)
        if self._showing:
            return
        self._showing = True
        parent = self._parent()
        try:
            show_error(parent, _tr(_TITLE), error_message(exc), details,
                       getattr(parent, "lang", "en"))
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


__all__ = ["ErrorDialog", "ExceptionHook", "error_message", "show_error"]
