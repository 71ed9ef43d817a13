"""Issue 34, item 4: on every step of the window (questions, results, diagnosis, compare) and in
the live preview, every input, list, table, text view, tab bar and plot a screen reader reaches
has a name, in both languages (a table's header is read as part of its table)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QGraphicsView,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from tests.support.ui import make_window, wait_results

VIEWS = (QAbstractItemView, QTextEdit, QPlainTextEdit, QComboBox, QLineEdit, QAbstractSpinBox,
         QTabBar, QGraphicsView)


def _unnamed(root: QWidget) -> list[str]:
    out = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, VIEWS) or isinstance(widget, QHeaderView) \
                or not widget.isVisible():
            continue
        if isinstance(widget, QLineEdit) and isinstance(widget.parent(),
                                                        QComboBox | QAbstractSpinBox):
            continue  # the editor inside a list or spin box: read as that box
        if not widget.accessibleName().strip():
            out.append(f"{type(widget).__name__} in {type(widget.parent()).__name__}")
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_view_and_input_on_every_step_has_a_name(qtbot, lang):
    window = make_window(qtbot, lang=lang)
    window.show()
    qtbot.waitExposed(window)
    wait_results(qtbot, window)
    missing = {}
    for index in range(window.stack.count()):
        window.go_to(index)
        qtbot.wait(20)
        unnamed = _unnamed(window.stack.widget(index))
        if unnamed:
            missing[window.steps.item(index).text()] = unnamed
    window.go_to(0)
    qtbot.wait(20)
    assert window.preview is not None and window.preview.plot is not None
    if _unnamed(window.preview):
        missing["preview"] = _unnamed(window.preview)
    assert not missing, missing
