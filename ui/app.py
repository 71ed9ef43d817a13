"""The QApplication and the main window."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication, QLabel, QMainWindow


def run_app(argv: list[str], lang: str | None = None) -> int:
    app = QApplication.instance() or QApplication([sys.argv[0]])
    window = QMainWindow()
    window.setWindowTitle("GPU Scaling Advisor — 多卡训练顾问")
    window.setCentralWidget(QLabel("GPU Scaling Advisor"))
    window.resize(1280, 800)
    window.show()
    return app.exec()


def main() -> int:
    return run_app(sys.argv[1:])
