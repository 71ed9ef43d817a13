"""Issue 34: Help holds the user guide shipped with the app (both languages), Open log folder
and Report a problem (the version, the system and the log's tail copied, nothing sent); the
error dialog copies its details and opens the log folder; a start-up failure before the
window exists is logged and shown in a plain dialog, never a silent exit."""

from __future__ import annotations

import logging
import platform
import sys

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMessageBox

from advisor import __version__
from advisor.files.logs import log_file, setup_logging
from tests.support.ui import make_window
from ui.dialogs import help as help_module
from ui.dialogs.error_dialog import ErrorDialog, ExceptionHook


@pytest.fixture
def opened(monkeypatch):
    """The URLs the app asked the system to open (nothing is opened)."""
    urls: list[QUrl] = []

    def record(url):
        urls.append(url)
        return True

    monkeypatch.setattr(help_module.QDesktopServices, "openUrl", staticmethod(record))
    return urls


def test_the_help_menu_holds_the_guide_the_log_folder_a_report_and_about(qtbot):
    window = make_window(qtbot, "en", None)
    actions = [a for a in window.help_menu.actions() if not a.isSeparator()]
    assert actions == [window.act_guide, window.act_readme, window.act_log_folder,
                       window.act_report, window.act_about]
    assert window.act_guide.shortcut() == QKeySequence(QKeySequence.StandardKey.HelpContents)
    window.hub.set_language("zh")
    assert all(a.text() and not a.text().isascii() for a in actions)
    window.hub.set_language("en")


@pytest.mark.parametrize(("lang", "heading"), [("en", "user guide"), ("zh", "使用指南")])
def test_the_user_guide_opens_in_the_apps_language(qtbot, lang, heading):
    path = help_module.guide_path(lang)
    assert path is not None and path.parent.name == "docs"
    window = make_window(qtbot, lang, None)
    window.act_guide.trigger()
    dialog = window.guide_dialog
    qtbot.waitExposed(dialog)
    text = dialog.text.toPlainText()
    assert heading in text.lower() and "Alt+N" in text
    dialog.close()
    window.hub.set_language("en")


def test_the_readme_opens_from_the_help_menu_and_ships_with_the_wheel_and_the_bundle(qtbot):
    from tests.support.paths import ROOT

    path = help_module.readme_path()
    assert path is not None and path.read_text(encoding="utf-8").startswith("#")
    window = make_window(qtbot, "en", None)
    window.act_readme.trigger()
    dialog = window.readme_dialog
    qtbot.waitExposed(dialog)
    assert "make run" in dialog.text.toPlainText() and dialog.windowTitle() == "README"
    dialog.close()
    wheel = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    bundle = (ROOT / "desktop" / "gpu-advisor.spec").read_text(encoding="utf-8")
    assert '"README.md" = "advisor/_data/docs/README.md"' in wheel
    assert '(str(ROOT / "README.md"), "advisor/_data/docs")' in bundle


def test_both_guides_name_the_menus_as_the_app_does():
    """Each guide says what the window shows in its language (its menus and pages)."""
    from ui.app.translation import tr_lang

    words = (("Pages", "Task and model"), ("Pages", "Compare setups"),
             ("Pages", "Check a measured run"), ("Preview", "Live result"),
             ("ResultsPage", "Why"), ("MainWindow", "User &guide"),
             ("MainWindow", "Open &log folder"), ("MainWindow", "&Report a problem (copy details)"),
             ("Errors", "Copy details"))
    for lang in ("en", "zh"):
        guide = help_module.guide_path(lang).read_text(encoding="utf-8")
        for context, source in words:
            shown = tr_lang(lang, context, source).replace("(&", "(").replace("&", "")
            shown = shown.replace("(G)", "").replace("(L)", "").replace("(R)", "")
            assert shown in guide, (lang, source)


def test_open_log_folder_shows_the_folder_of_the_log(qtbot, opened):
    setup_logging()
    window = make_window(qtbot, "en", None)
    window.act_log_folder.trigger()
    assert [u.toLocalFile() for u in opened] == [str(log_file().parent)]


def test_report_a_problem_copies_version_system_and_the_logs_tail(qtbot):
    setup_logging()
    logging.getLogger("advisor.ui").warning("the marker line of this test")
    window = make_window(qtbot, "en", None)
    window.act_report.trigger()
    text = QGuiApplication.clipboard().text()
    assert f"GPU Scaling Advisor {__version__}" in text
    assert platform.platform() in text and platform.python_version() in text
    assert "the marker line of this test" in text.splitlines()[-1]
    assert "paste" in window.statusBar().currentMessage()


def test_the_error_dialog_copies_its_details_and_stays_open(qtbot, opened):
    setup_logging()
    dialog = ErrorDialog("Unexpected error", "Something went wrong: ValueError: boom",
                         "Traceback (most recent call last):\n  ValueError: boom\n")
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.details_view.isVisible()
    dialog.details_button.click()
    assert dialog.details_view.isVisible()
    dialog.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert "ValueError: boom" in copied and "Traceback" in copied and __version__ in copied
    assert dialog.isVisible() and dialog.status.text()
    dialog.folder_button.click()
    assert [u.toLocalFile() for u in opened] == [str(log_file().parent)]


def test_an_unexpected_error_reaches_the_dialog_with_its_traceback(qtbot, monkeypatch):
    from ui.dialogs import error_dialog

    shown = []
    monkeypatch.setattr(error_dialog, "show_error",
                        lambda parent, title, text, details="", lang="en":
                        shown.append((title, text, details, lang)))
    setup_logging()
    window = make_window(qtbot, "zh", None)
    hook = ExceptionHook(lambda: window)
    try:
        raise KeyError("missing")
    except KeyError:
        hook(*sys.exc_info())
    title, text, details, lang = shown[0]
    assert title == "意外错误" and "KeyError" in text and lang == "zh"
    assert "Traceback" in details and "test_an_unexpected_error" in details
    window.hub.set_language("en")


@pytest.mark.parametrize(("lang", "words"), [("en", "could not start"), ("zh", "无法启动")])
def test_a_start_up_failure_is_logged_and_shown_in_a_plain_dialog(monkeypatch, capsys, qapp,
                                                                   lang, words):
    import ui.app.application
    from ui.app.launch import launch

    def broken(argv, lang=None):
        raise RuntimeError("no OpenGL context")

    shown = []
    monkeypatch.setattr(ui.app.application, "run_app", broken)
    monkeypatch.setattr(QMessageBox, "critical",
                        staticmethod(lambda parent, title, text, *a: shown.append(text)))
    assert launch([], lang=lang) == 1
    assert len(shown) == 1 and words in shown[0] and "no OpenGL context" in shown[0]
    assert str(log_file()) in shown[0]
    assert words in capsys.readouterr().err
    logged = log_file().read_text(encoding="utf-8")
    assert "start-up failed" in logged and "RuntimeError: no OpenGL context" in logged
