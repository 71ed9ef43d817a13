"""Keyboard shortcuts keep answering after a modal dialog closes (issue 19, item 9): the main
window is active again and the focus back where it was (ui.window.focus.modal)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox

from tests.support.ui import make_window


def _shown(qtbot, window):
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def _dialog_that_takes_the_focus(qtbot, parent):
    """What a file dialog or message box does: a window of its own takes the activation and
    closes, leaving it to the window manager to hand it back (which not every one does)."""
    dialog = QDialog(parent)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    dialog.hide()
    dialog.deleteLater()


def _active_again(qtbot, window) -> bool:
    """The window is active again within a second (activation goes through the event loop;
    waitUntil raises when it does not come)."""
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=1000)
    return True


def test_ctrl_o_answers_again_after_the_open_dialog_was_cancelled(qtbot, monkeypatch):
    window = make_window(qtbot)
    _shown(qtbot, window)
    calls = []

    def cancelled(parent, *args, **kwargs):
        calls.append(parent)
        _dialog_that_takes_the_focus(qtbot, parent)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(cancelled))
    page = window.stack.currentWidget()
    page.editors["model.name"].input.setFocus()
    QTest.keySequence(window.focusWidget() or window, QKeySequence(QKeySequence.StandardKey.Open))
    assert len(calls) == 1
    assert _active_again(qtbot, window)  # handed back, not left to the window manager
    assert window.isAncestorOf(QApplication.focusWidget())
    assert QApplication.focusWidget() is page.editors["model.name"].input  # where it was
    QTest.keySequence(window.focusWidget(), QKeySequence(QKeySequence.StandardKey.Open))
    assert len(calls) == 2  # Ctrl+O answers again, without a click on the menu first


def test_shortcuts_answer_after_a_message_box(qtbot, monkeypatch):
    window = make_window(qtbot)
    _shown(qtbot, window)

    def warning(parent, *args, **kwargs):
        _dialog_that_takes_the_focus(qtbot, parent)
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
    window.document._warn("title", "text")  # every warning of the document goes through it
    assert _active_again(qtbot, window)
    opened = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: opened.append(1) or ("", "")))
    QTest.keyClick(window.focusWidget() or window, Qt.Key.Key_O,
                   Qt.KeyboardModifier.ControlModifier)
    assert opened == [1]
