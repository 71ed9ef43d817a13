"""pyqtgraph and the results page, imported off the GUI thread (issue 34).

Importing pyqtgraph, numpy and the plot modules takes a few hundred milliseconds; on the GUI
thread that froze the window right after its first paint. ``PlotLoader.start()`` imports them
on a worker thread (importing creates no widget, which Qt allows off the GUI thread) and
``ready`` is delivered on the GUI thread afterwards, where the widgets are built. A failed
import is left to the GUI thread's own import, which then reports it as any error."""

from __future__ import annotations

import importlib
import logging
import sys
import threading

from PySide6.QtCore import QObject, Signal

log = logging.getLogger("advisor.ui")

MODULES = ("numpy", "pyqtgraph", "ui.plots", "ui.results.results_page")
SWITCH_S = 0.001


class PlotLoader(QObject):
    ready = Signal()  # on the GUI thread, once the modules are imported (or failed to be)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.started = False

    def start(self) -> None:
        """Import the plotting modules on a worker thread, once."""
        if self.started:
            return
        self.started = True
        threading.Thread(target=self._load, daemon=True, name="advisor-plots").start()

    def _load(self) -> None:
        # The GUI thread waits for the interpreter lock while this thread imports: hand it
        # over every millisecond rather than every five (stalls of 60-70 ms measured at
        # 5 ms, 30 ms at 1 ms: benchmarks/first_verdict.py)
        previous = sys.getswitchinterval()
        sys.setswitchinterval(min(previous, SWITCH_S))
        try:
            for name in MODULES:
                importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the GUI thread imports again and reports it
            log.warning("plot modules not imported off the GUI thread", exc_info=True)
        finally:
            sys.setswitchinterval(previous)
        self.ready.emit()  # queued to the GUI thread: the receiver lives there
