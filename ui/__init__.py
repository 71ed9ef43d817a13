"""The desktop application (PySide6): wizard, plots, dialogs, PDF report."""

from ui.app.qt_workarounds import keep_singletons_alive

# Before any Qt call of ours: PySide6 6.12.0 leaks references to None/True (qt_workarounds).
keep_singletons_alive()
