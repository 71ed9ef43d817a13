"""Issue 34, items 2 and 3: the compare and diagnosis pages' splitter sizes and the folder the
file dialogs last used are remembered between sessions; Import and Export have a shortcut
(Ctrl+I, Ctrl+E) and a mnemonic in the File menu."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QSplitter

from tests.support.ui import make_window
from ui.app import folders
from ui.window import session


def _window(qtbot, lang="en"):
    window = make_window(qtbot, lang, None, threaded=False)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_compare_pages_splitter_sizes_are_remembered(qtbot, tmp_path):
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = _window(qtbot)
    window.go_to(window.compare_index)
    splitter = window.compare_page.findChild(QSplitter, "compareChartAndTable")
    total = sum(splitter.sizes())
    splitter.setSizes([total // 4, total - total // 4])
    wanted = splitter.sizes()
    session.save(window, store)
    second = _window(qtbot)
    session.restore(second, QSettings(str(tmp_path / "settings.ini"),
                                      QSettings.Format.IniFormat))
    second.go_to(second.compare_index)  # the page is built now, with last time's sizes
    again = second.compare_page.findChild(QSplitter, "compareChartAndTable")
    assert abs(again.sizes()[0] - wanted[0]) <= 4


def test_the_file_dialogs_open_where_a_file_was_last_chosen_in_this_or_the_last_session(
        qtbot, tmp_path, monkeypatch):
    folders.set_last_folder(None)
    asked: list[str] = []
    saved = tmp_path / "work" / "p.yaml"
    saved.parent.mkdir()

    def save_name(_parent, _title, start, _filters):
        asked.append(start)
        return str(saved), ""

    def open_name(_parent, _title, start, _filters):
        asked.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(open_name))
    window = _window(qtbot)
    window.document.save_as()
    assert asked[0] == "profile.yaml" and saved.exists()
    window.document.open_dialog()
    assert asked[1] == str(saved.parent)
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    session.save(window, store)
    folders.set_last_folder(None)
    session.restore(_window(qtbot), QSettings(str(tmp_path / "settings.ini"),
                                              QSettings.Format.IniFormat))
    assert folders.last_folder() == str(saved.parent)
    assert folders.start_at("r.pdf") == str(saved.parent / "r.pdf")
    assert folders.start_at(str(Path("/elsewhere") / "x.pdf")) == "/elsewhere/x.pdf"
    folders.set_last_folder(str(tmp_path / "gone"))  # a folder no longer there: none
    assert folders.last_folder() == ""


def test_import_and_export_have_a_shortcut_and_a_mnemonic_in_both_languages(qtbot):
    window = _window(qtbot)
    assert window.act_import.shortcut() == QKeySequence("Ctrl+I")
    assert window.act_export.shortcut() == QKeySequence("Ctrl+E")
    assert window.act_export_appendix.shortcut() == QKeySequence("Ctrl+Shift+E")
    for action in (window.act_import, window.act_export, window.act_export_appendix):
        assert "&" in action.text(), action.text()
    window.hub.set_language("zh")
    for action in (window.act_import, window.act_export, window.act_export_appendix):
        assert "(&" in action.text(), action.text()
    letters = [a.text().split("&")[1][0].upper() for a in window.file_menu.actions()
               if "&" in a.text()]
    assert len(letters) == len(set(letters)), letters  # one letter each in the File menu
