"""Every question page fits a 1400 x 900 window with the live preview under it (issue 19,
item 8): no group clipped behind a scrollbar, also with a custom GPU's fields open and in
Chinese."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QScrollArea

from tests.support.ui import make_window, projection_recommend, wait_results


def _overflow(page) -> int:
    """How many pixels of the page's fields lie below its visible area (0: none)."""
    scroll = page.findChild(QScrollArea)
    body = scroll.widget()
    return max(0, body.minimumSizeHint().height() - scroll.viewport().height())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_question_pages_fit_1400_by_900_with_the_preview(qtbot, lang):
    window = make_window(qtbot, lang, projection_recommend)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    wait_results(qtbot, window)
    for index, page in enumerate(window.pages):
        window.go_to(index)
        qtbot.waitUntil(lambda: window.preview.isVisible())
        qtbot.wait(20)
        assert _overflow(page) == 0, (page.page.key, _overflow(page))
    hardware = next(p for p in window.pages if p.page.key == "hardware")
    window.go_to(window.pages.index(hardware))
    editor = hardware.editors["hardware.gpu"]
    custom = next(i for i, v in enumerate(editor._values) if not isinstance(v, str | dict))
    editor.input.setCurrentIndex(custom)
    editor.input.activated.emit(custom)
    qtbot.wait(20)
    assert not hardware._custom_gpu_boxes[0].isHidden()
    assert _overflow(hardware) == 0, _overflow(hardware)
    window.hub.set_language("en")
