"""The desktop application (PySide6): wizard, plots, dialogs, PDF report."""
