"""Issue 34 (part): the wizard by keyboard (Alt+N / Alt+B mnemonics, Ctrl+PgDown / Ctrl+PgUp,
Enter in a field), a first size that fits the screen, the step list that shrinks, and a
session remembered between starts (language, size and place, page, the live result
folded)."""

from __future__ import annotations

import subprocess
import sys

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from tests.support.ui import active_window, make_window
from ui.window import session
from ui.window.main_window import FIRST_SIZE, first_size


def _window(qtbot, lang="en"):
    window = make_window(qtbot, lang, None, threaded=False)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_ctrl_page_keys_and_enter_in_a_field_move_through_the_pages(qtbot):
    window = _window(qtbot)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    assert window.stack.currentIndex() == 0
    field = window.pages[0].editors["model.name"].input  # a text field (not a list's)
    assert isinstance(field, QLineEdit)
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert window.stack.currentIndex() == 1
    qtbot.keyClick(window.steps, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert window.stack.currentIndex() == 0
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert window.stack.currentIndex() == 1


def test_next_and_back_carry_mnemonics_and_names_in_both_languages(qtbot):
    window = _window(qtbot)
    assert window.next_button.text() == "&Next >" and window.back_button.text() == "< &Back"
    assert window.next_button.accessibleName() == "Next"
    window.hub.set_language("zh")
    assert "(&N)" in window.next_button.text() and "(&B)" in window.back_button.text()
    assert window.next_button.accessibleName() == "下一步"


def test_the_first_size_fits_the_screen_and_the_step_list_shrinks(qtbot):
    window = _window(qtbot)
    room = window.screen().availableGeometry()
    width, height = first_size(window)
    assert width <= min(FIRST_SIZE[0], room.width()) and height <= min(FIRST_SIZE[1],
                                                                        room.height())
    assert window.steps.minimumWidth() < 300 <= window.steps.maximumWidth()


def test_a_session_is_remembered(qtbot, tmp_path):
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = _window(qtbot, "zh")
    window.resize(700, 500)
    window.go_to(2)
    window.set_preview_folded(True)
    session.save(window, store)
    again = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    assert session.remembered_language(again) == "zh"
    second = _window(qtbot, session.remembered_language(again))
    session.restore(second, again)
    assert second.lang == "zh" and second.stack.currentIndex() == 2
    assert second.preview_folded
    assert abs(second.width() - 700) <= 40 and abs(second.height() - 500) <= 40


def test_a_broken_session_is_ignored(qtbot, tmp_path):
    path = tmp_path / "settings.ini"
    path.write_text("[General]\nlanguage=klingon\npage=abc\ngeometry=@Invalid()\n",
                    encoding="utf-8")
    store = QSettings(str(path), QSettings.Format.IniFormat)
    assert session.remembered_language(store) is None
    window = _window(qtbot)
    session.restore(window, store)
    assert window.stack.currentIndex() == 0


def test_the_gui_program_prints_its_version_without_a_window():
    done = subprocess.run([sys.executable, "-c", "import sys; from ui.app.launch import main; "
                           "sys.argv = ['gpu-advisor-gui', '--version']; sys.exit(main())"],
                          capture_output=True, text=True, timeout=60,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"},
                          check=False)
    assert done.returncode == 0 and done.stdout.startswith("gpu-advisor-gui ")


def test_the_app_restores_the_last_session_at_start_and_saves_it_when_it_quits(
        qtbot, tmp_path, monkeypatch):
    """``run_app`` itself reads the session before the window shows and writes it on quit
    (its event loop stood in for: the window is looked at, then the app quits)."""
    from PySide6.QtCore import QObject, Signal

    from ui.app import application
    from ui.window.main_window import MainWindow

    path = tmp_path / "settings.ini"
    first = QSettings(str(path), QSettings.Format.IniFormat)
    first.setValue("language", "zh")
    first.setValue("page", 2)
    first.sync()
    monkeypatch.setattr(session, "settings",
                        lambda: QSettings(str(path), QSettings.Format.IniFormat))
    monkeypatch.setattr(application, "setup_logging", lambda: None)
    seen = {}

    class App(QObject):
        aboutToQuit = Signal()

        def exec(self) -> int:
            window = next(w for w in QApplication.topLevelWidgets()
                          if isinstance(w, MainWindow) and w.isVisible())
            qtbot.addWidget(window)
            seen.update(lang=window.lang, page=window.stack.currentIndex())
            window.go_to(1)
            self.aboutToQuit.emit()
            return 0

    fake = App()
    monkeypatch.setattr(application, "make_application", lambda: fake)
    assert application.run_app([]) == 0
    assert seen == {"lang": "zh", "page": 2}
    assert int(QSettings(str(path), QSettings.Format.IniFormat).value("page")) == 1


def test_alt_n_and_alt_b_move_through_the_pages(qtbot):
    window = active_window(qtbot)
    # a button's mnemonic clicks it the way a press does: after its 100 ms animation
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.stack.currentIndex() == 1, timeout=2000)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.stack.currentIndex() == 0, timeout=2000)


def test_a_window_opened_short_starts_with_the_live_result_folded(qtbot, monkeypatch):
    from ui.window import main_window

    monkeypatch.setattr(main_window, "first_size", lambda _window: (1024, 560))
    window = _window(qtbot)
    assert window.height() < main_window.FOLD_BELOW_PX and window.preview_folded
