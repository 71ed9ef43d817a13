"""Every question page fits a 1400 x 900 window with the live preview under it (issue 19,
item 8): no group clipped behind a scrollbar, also with a custom GPU's fields open and in
Chinese. On a laptop (1280 x 720 logical, 1024 x 640; issue 34) every step stays usable:
Back and Next in sight, the first field and the verdict too, the rest scrolls; folding the
live result gives the questions its room."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
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


# Issue 34: laptops. The screen's logical size less a taskbar (48 px) and a title bar (32 px):
# 1366 x 768 and 1920 x 1080 at 150 % (1280 x 720) are common, 1024 x 640 the smallest asked.
LAPTOPS = {"1280x720": (1280, 720 - 80), "1024x640": (1024, 640 - 80)}
FIELDS_SHOWN_PX = 120  # at least four fields of a question page in sight, the rest scroll


def _inside(window, widget) -> bool:
    """``widget`` is shown whole inside the window's client area."""
    top_left = widget.mapTo(window, widget.rect().topLeft())
    bottom_right = widget.mapTo(window, widget.rect().bottomRight())
    return widget.isVisible() and window.rect().contains(top_left) and \
        window.rect().contains(bottom_right)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("screen", sorted(LAPTOPS))
def test_every_step_is_usable_on_a_laptop_with_back_and_next_in_sight(qtbot, lang, screen):
    width, height = LAPTOPS[screen]
    window = make_window(qtbot, lang, projection_recommend)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    wait_results(qtbot, window)
    assert window.width() <= width and window.height() <= height  # it can be this small
    for index in range(window.stack.count()):
        window.go_to(index)
        if index < len(window.pages):
            qtbot.waitUntil(lambda: window.preview.isVisible())
        qtbot.wait(20)
        assert _inside(window, window.next_button) and _inside(window, window.back_button), \
            (screen, index)
        if index < len(window.pages):
            page = window.pages[index]
            assert page.scroll.viewport().height() >= FIELDS_SHOWN_PX, \
                (screen, page.page.key, page.scroll.viewport().height())
            assert _inside(window, window.preview.rating)
            first = page.first_field()
            assert _inside(window, first), (screen, page.page.key)
    window.go_to(len(window.pages))
    qtbot.wait(20)
    assert _inside(window, window.results_page.card.rating_label)
    assert _inside(window, window.results_page.tabs.tabBar())
    window.hub.set_language("en")


def test_folding_the_live_result_gives_the_questions_its_room(qtbot):
    window = make_window(qtbot, "en", projection_recommend)
    window.resize(*LAPTOPS["1024x640"])
    window.show()
    qtbot.waitExposed(window)
    wait_results(qtbot, window)
    page = window.pages[0]
    qtbot.waitUntil(lambda: window.preview.isVisible())
    opened = page.scroll.viewport().height()
    qtbot.mouseClick(window.preview.toggle, Qt.MouseButton.LeftButton)
    qtbot.wait(20)
    assert window.preview.folded and window.preview_folded
    assert not window.preview.body.isVisible() and window.preview.line.text()
    assert _inside(window, window.preview.rating)  # the verdict stays in sight
    assert page.scroll.viewport().height() >= opened + 100
    qtbot.mouseClick(window.preview.toggle, Qt.MouseButton.LeftButton)
    qtbot.wait(20)
    assert window.preview.body.isVisible() and not window.preview_folded
