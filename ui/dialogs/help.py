"""The Help menu's own parts (issue 34): the user guide shipped with the app, the log folder,
and a problem report (the version, the system and the log's tail) for the clipboard.

The guide is ``docs/USER_GUIDE.md`` (English) and ``docs/USER_GUIDE.zh_CN.md`` (Chinese),
found where the app keeps its data (``advisor.files.paths.data_root("docs")``: the desktop
bundle's or the wheel's ``advisor/_data/docs``, or the checkout's ``docs``), and shown in a
window of its own (Markdown, offline)."""

from __future__ import annotations

import logging
import platform
import sys
from pathlib import Path

from PySide6.QtCore import QUrl, qVersion
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from advisor import __version__
from advisor.files.logs import active_log_file, log_file
from advisor.files.paths import data_root

log = logging.getLogger("advisor.ui")
GUIDES = {"en": "USER_GUIDE.md", "zh": "USER_GUIDE.zh_CN.md"}
LOG_TAIL_LINES = 60
LOG_TAIL_CHARS = 8000


def guide_path(lang: str) -> Path | None:
    """The user guide in ``lang`` (English where the Chinese one is missing); None when
    neither was installed."""
    folder = data_root("docs")
    for name in (GUIDES.get(lang, GUIDES["en"]), GUIDES["en"]):
        if (folder / name).is_file():
            return folder / name
    return None


def readme_path() -> Path | None:
    """The project's README (English): beside the guide in the bundle and the wheel
    (``advisor/_data/docs``), at the checkout's root; None when it was not installed."""
    folder = data_root("docs")
    for path in (folder / "README.md", folder.parent / "README.md"):
        if path.is_file():
            return path
    return None


class GuideDialog(QDialog):
    """The user guide (or, ``readme``, the project's README), read-only, in a window beside
    the wizard (not modal)."""

    def __init__(self, lang: str, parent: QWidget | None = None, *,
                 readme: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("readme" if readme else "userGuide")
        title = self.tr("README") if readme else self.tr("User guide")
        self.setWindowTitle(title)
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(True)
        path = readme_path() if readme else guide_path(lang)
        if path is None:
            self.text.setPlainText(self.tr(
                "The README is not installed with this copy of the app.") if readme else
                self.tr("The user guide is not installed with this copy of the app. The "
                        "README of the project describes the same steps."))
        else:
            self.text.setSearchPaths([str(path.parent)])
            self.text.setMarkdown(path.read_text(encoding="utf-8"))
        self.text.setAccessibleName(title)
        buttons = QDialogButtonBox()
        close = buttons.addButton(self.tr("Close"), QDialogButtonBox.ButtonRole.RejectRole)
        close.clicked.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(760, 620)


def open_folder(path: Path) -> bool:
    """Show ``path`` in the system's file manager (created first when missing)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        log.warning("log folder %s cannot be created", path)
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


def log_folder() -> Path:
    where = active_log_file() or log_file()
    return where.parent


def log_tail(path: Path | None = None, lines: int = LOG_TAIL_LINES) -> str:
    """The last ``lines`` lines of the log (at most ``LOG_TAIL_CHARS``); "" when none."""
    path = path or active_log_file() or log_file()
    try:
        with path.open("rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - 4 * LOG_TAIL_CHARS))
            text = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])[-LOG_TAIL_CHARS:]


def problem_report(details: str | None = None, lang: str = "en") -> str:
    """What a problem report needs: the version, the system, the language, ``details`` (an
    error's message and traceback) and the log's tail. Nothing is sent anywhere: the user
    pastes it where they report the problem."""
    import PySide6

    where = active_log_file() or log_file()
    parts = [f"GPU Scaling Advisor {__version__}",
             f"System: {platform.platform()} ({platform.machine()})",
             f"Python {platform.python_version()}, Qt {qVersion()}, PySide6 "
             f"{PySide6.__version__}{', desktop bundle' if getattr(sys, 'frozen', False) else ''}",
             f"Language: {lang}"]
    if details:
        parts += ["", details.rstrip()]
    tail = log_tail(where)
    parts += ["", f"Log ({where}), last lines:" if tail else f"Log ({where}): empty or missing"]
    if tail:
        parts.append(tail)
    return "\n".join(parts) + "\n"


def copy_to_clipboard(text: str) -> None:
    QGuiApplication.clipboard().setText(text)


__all__ = ["GuideDialog", "copy_to_clipboard", "guide_path", "readme_path", "log_folder", "log_tail",
           "open_folder", "problem_report"]
