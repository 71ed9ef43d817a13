"""An unexpected exception shows a dialog with the message and the log path; the app goes on."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox
from ui_support import make_window, projection_recommend

from advisor.logs import log_file, setup_logging
from ui.error_dialog import ExceptionHook


@pytest.fixture
def criticals(monkeypatch):
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "critical",
                        staticmethod(lambda parent, title, text, *a: shown.append((title, text))))
    return shown


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_shows_the_dialog_and_the_app_keeps_running(qtbot, criticals):
    setup_logging()
    window = make_window(qtbot)
    hook = ExceptionHook(lambda: window).install()
    try:
        def explode():
            raise RuntimeError("disk on fire")

        QTimer.singleShot(0, explode)
        qtbot.waitUntil(lambda: bool(criticals))
    finally:
        hook.uninstall()
    title, text = criticals[0]
    assert title == "Unexpected error"
    assert "RuntimeError: disk on fire" in text and str(log_file()) in text
    assert "disk on fire" in log_file().read_text(encoding="utf-8")
    window.answers.set("hardware.gpus_per_node", 2)  # still working
    assert window.answers.profile.hardware.gpus_per_node == 2


def test_the_dialog_is_translated(qtbot, criticals):
    window = make_window(qtbot, "zh")
    hook = ExceptionHook(lambda: window)
    try:
        raise ValueError("坏了")
    except ValueError:
        hook(*sys.exc_info())
    title, text = criticals[0]
    assert title == "意外错误" and "程序会继续运行" in text and "ValueError: 坏了" in text
    window.hub.set_language("en")


def test_a_failing_computation_is_a_status_line_not_a_crash(qtbot):
    calls = []

    def flaky(profile):
        calls.append(profile)
        if len(calls) == 1:
            raise ZeroDivisionError("rules engine hiccup")
        return projection_recommend(profile)

    window = make_window(qtbot, recommend=flaky)
    with qtbot.waitSignal(window.recomputer.failed):
        window.recompute()
    assert "rules engine hiccup" in window.statusBar().currentMessage()
    with qtbot.waitSignal(window.resultsShown):
        window.answers.set("hardware.gpus_per_node", 2)
    assert window.results.recommendation.projection.gpus[-1] == 2


def test_bundled_cjk_font_registers(qtbot):
    from PySide6.QtGui import QFontDatabase

    from ui.fonts import ensure_cjk_font

    family = ensure_cjk_font(force_bundled=True)
    assert family == "Droid Sans Fallback"
    assert QFontDatabase.WritingSystem.SimplifiedChinese in QFontDatabase.writingSystems(family)


def test_launch_without_a_display_says_what_to_run(monkeypatch, capsys):
    from ui.launch import launch

    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert launch([]) == 0
    assert "No display found" in capsys.readouterr().out
