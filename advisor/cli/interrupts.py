"""Ctrl-C while Qt draws the PDF report: a KeyboardInterrupt raised inside one of Qt's
callbacks (pyqtgraph's paint) left a half-drawn report, an internal error or a crash
(review 4: segmentation faults). The drawing finishes, then the command ends (status 130)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def deferred_interrupt() -> Iterator[list[bool]]:
    """Inside the block Ctrl-C is noted, not raised; the list it yields holds True once it
    was pressed. Outside the main thread (where no handler can be set) nothing changes."""
    pressed: list[bool] = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return

    def note(_signum, _frame) -> None:
        pressed.append(True)

    before = signal.signal(signal.SIGINT, note)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, before)
