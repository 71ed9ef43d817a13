"""Qt's own dialogs speak the app's language (issue 19, item 7): with Chinese chosen, Qt's base
translations (qtbase_zh_CN.qm from the binding's translations folder) are installed with the
app's catalog, so the file dialog says 取消 / 查找范围： / 文件名：, not Cancel / Look in: /
File name:; back in English, Qt's own English returns."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication

from tests.support.ui import make_window
from ui.app.translation import QT_BASE_CATALOG, qt_base_qm_dir


def _qt(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


def test_the_binding_ships_qt_base_chinese():
    assert (Path(qt_base_qm_dir()) / f"{QT_BASE_CATALOG}.qm").is_file()


def test_qt_dialog_words_follow_the_language(qtbot):
    window = make_window(qtbot, "zh")
    assert _qt("QPlatformTheme", "Cancel") == "取消"
    assert _qt("QFileDialog", "Look in:") == "查找范围："
    assert _qt("QFileDialog", "File &name:").startswith("文件名")
    assert _qt("QMessageBox", "Show Details...") != "Show Details..."
    # the app's own words still come from the app's catalog
    assert window.act_open.text().startswith("打开")
    window.hub.set_language("en")
    assert _qt("QPlatformTheme", "Cancel") == "Cancel"
    assert _qt("QFileDialog", "Look in:") == "Look in:"
    window.hub.set_language("zh")  # switching twice stacks nothing
    assert _qt("QPlatformTheme", "Cancel") == "取消"
    window.hub.set_language("en")
