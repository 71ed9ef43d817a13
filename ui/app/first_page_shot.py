"""``gpu-advisor-gui --screenshot FILE``: start, paint the first page, save the window as a PNG
and quit. How CI proves that the desktop bundle starts (offscreen, no display), and a quick
picture for a bug report; the exit status says whether the picture was written."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer

TIMEOUT_MS = 60_000  # a first page not painted by then is a failure, not a hang


class _FirstPaint(QObject):
    """Calls ``then`` once, after the watched widget's first paint has been handled."""

    def __init__(self, watched: QObject, then) -> None:
        super().__init__(watched)
        self._then = then
        watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self._then)
        return False


def _say(text: str) -> None:
    if sys.stdout is not None:  # a windowed program on Windows has no console
        print(text, flush=True)


def save_first_page(app, window, path: Path) -> int:
    """Show ``window`` (built by ui.app.application), save its first painted page to ``path``
    and quit ``app``; 0 when the picture was written."""
    outcome = {"code": 1}
    from ui.window.main_window import FIRST_SIZE

    window.resize(*FIRST_SIZE)  # a picture of the standard window, whatever the screen's size

    def grab() -> None:
        app.processEvents()
        image = window.grab().toImage()
        if not image.isNull() and image.save(str(path), "PNG"):
            outcome["code"] = 0
            step = window.steps.currentItem()
            _say(f"first page: {step.text() if step else '?'} · {window.windowTitle()} · "
                 f"{image.width()}x{image.height()} → {path}")
        else:
            _say(f"could not save the screenshot to {path}")
        app.quit()

    def too_slow() -> None:
        _say(f"no first page painted in {TIMEOUT_MS / 1000:.0f} s")
        app.quit()

    _FirstPaint(window.stack, grab)
    QTimer.singleShot(TIMEOUT_MS, too_slow)
    window.show()
    app.exec()
    return outcome["code"]
