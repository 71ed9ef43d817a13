"""Help → About: version, the dates of the prices and of the fitted parameters, the licences, in
the window's language; the application icon in every size."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from advisor import __version__
from advisor.files import about
from advisor.files.paths import resources_dir
from tests.support.ui import make_window
from ui.dialogs.about_dialog import AboutDialog


def _about_from_menu(qtbot, lang):
    window = make_window(qtbot, lang)
    assert window.act_about in window.help_menu.actions()
    seen = {}

    def read_and_close():
        dialog = window.about_dialog
        seen.update(title=dialog.windowTitle(), heading=dialog.heading.text(),
                    details=dialog.details.toPlainText(), close=dialog.close_button.text())
        dialog.reject()

    QTimer.singleShot(0, read_and_close)
    window.act_about.trigger()  # modal: returns when the dialog is closed
    return seen


@pytest.mark.parametrize("lang, title, close, heading", [
    ("en", "About GPU Scaling Advisor", "Close", "Built-in prices as of"),
    ("zh", "关于多卡训练顾问", "关闭", "内置价格日期"),
])
def test_help_about_shows_version_dates_and_licences(qtbot, lang, title, close, heading):
    seen = _about_from_menu(qtbot, lang)
    assert (seen["title"], seen["close"]) == (title, close)
    assert __version__ in seen["heading"]
    details = seen["details"]
    assert heading in details
    for dates in about.price_dates():
        assert dates.span() in details and (dates.what_zh if lang == "zh"
                                            else dates.what_en) in details
    assert about.parameters_fitted_on() in details
    for component in about.COMPONENTS:
        assert component.name in details and component.licence in details
    assert ("许可证" in details) == (lang == "zh")


def test_the_about_dialog_names_the_running_qt(qtbot):
    from PySide6.QtCore import qVersion

    window = make_window(qtbot, "en")  # the window's language hub installs the English UI
    dialog = AboutDialog(window.lang, window)
    assert f"Qt {qVersion()} running" in dialog.details.toPlainText()


def test_the_application_icon_comes_in_every_size():
    from ui.app.application import app_icon

    sizes = []
    for png in sorted((resources_dir() / "icons").glob("gpu-advisor-*.png")):
        image = QImage(str(png))
        size = int(png.stem.rsplit("-", 1)[1])
        assert (image.width(), image.height()) == (size, size), png.name
        centre = image.pixelColor(size // 2, size // 2)
        assert centre.alpha() == 255, png.name  # drawn, not an empty canvas
        sizes.append(size)
    assert {16, 32, 48, 128, 256, 512} <= set(sizes)
    assert (resources_dir() / "icons" / "gpu-advisor.svg").is_file()
    icon = app_icon()
    assert not icon.isNull() and {s.width() for s in icon.availableSizes()} == set(sizes)


def test_the_application_sets_its_icon():
    from ui.app.application import make_application

    make_application()
    assert not QApplication.windowIcon().isNull()


def test_the_svg_icon_renders_with_qt():
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(resources_dir() / "icons" / "gpu-advisor.svg"))
    assert renderer.isValid() and renderer.defaultSize().width() == 256
