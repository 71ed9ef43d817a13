"""Issue 34: no list box cuts off its text ("Full (every weight traine"). At 1280 × 720 (a
1920 × 1080 screen at 150 %), in both languages, every list box the wizard, the diagnosis
and the comparison show is a ``FittingComboBox`` at least as wide as Qt needs to show its
text whole: the text chosen now and its longest entry."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox

from tests.support.ui import make_window, projection_recommend, wait_results
from ui.forms.combo import FittingComboBox


def _needed(combo: QComboBox, text: str) -> int:
    """The width Qt's style asks for a combo box showing ``text`` (its arrow and frame
    included), measured here, not by the box."""
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    metrics = combo.fontMetrics()
    contents = QSize(metrics.horizontalAdvance(text), metrics.height())
    return combo.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, contents,
                                          combo).width()


def _shown_combos(page) -> list[QComboBox]:
    return [c for c in page.findChildren(QComboBox) if c.isVisibleTo(page)]


def _check(qtbot, combo: QComboBox, where: str) -> None:
    text = combo.lineEdit().text() if combo.isEditable() else combo.currentText()
    if not text:
        return
    qtbot.waitUntil(lambda: combo.width() >= _needed(combo, text), timeout=2000)
    assert combo.width() >= _needed(combo, text), (where, text, combo.width())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_list_box_shows_its_text_whole_at_1280_by_720(qtbot, lang):
    window = make_window(qtbot, lang, projection_recommend)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    wait_results(qtbot, window)
    checked = 0
    for index in range(window.stack.count()):
        window.go_to(index)
        page = window.stack.currentWidget()
        qtbot.wait(20)
        for combo in _shown_combos(page):
            where = f"{lang} step {index} {combo.accessibleName() or combo.objectName()}"
            assert isinstance(combo, FittingComboBox), where
            _check(qtbot, combo, where)
            checked += 1
            if combo.isEditable() or combo.count() < 2:
                continue
            # its longest entry chosen: the box widens to it (the form makes room)
            before = combo.currentIndex()
            longest = max(range(combo.count()),
                          key=lambda i: combo.fontMetrics().horizontalAdvance(combo.itemText(i)))
            combo.setCurrentIndex(longest)
            _check(qtbot, combo, where + " (longest entry)")
            combo.setCurrentIndex(before)
    assert checked >= 15  # the question pages' lists, the preset, the diagnosis page's
    window.hub.set_language("en")


def test_the_box_asks_for_room_again_when_its_entries_are_renamed(qtbot):
    """The wizard names its entries after the box is first shown (and again on a language
    switch): a plain QComboBox measured the raw values once and kept that minimum."""
    combo = FittingComboBox()
    qtbot.addWidget(combo)
    combo.addItems(["full", "lora"])
    combo.show()
    narrow = combo.minimumSizeHint().width()
    combo.setItemText(0, "Full (every weight trained)")
    assert combo.minimumSizeHint().width() >= _needed(combo, "Full (every weight trained)")
    assert combo.minimumSizeHint().width() > narrow
