"""Issue 34: the wizard by keyboard alone. The focus starts on the page's first field, Tab
walks a page's fields in reading order (down a column, then the next), no table keeps the
focus (Tab and Shift+Tab leave the compare and diagnosis tables), and Tab never stops on a
widget that shows no focus (a scroll area, a plot)."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QGroupBox, QScrollArea, QWidget

from tests.support.ui import active_window, wait_results

TAB, BACKTAB = Qt.Key.Key_Tab, Qt.Key.Key_Backtab


def _press(qtbot, key=TAB) -> QWidget:
    """``key`` where the focus is; the widget that has the focus afterwards."""
    qtbot.keyClick(QApplication.focusWidget(), key)
    return QApplication.focusWidget()


def _column_and_row(page, widget: QWidget) -> tuple[int, int]:
    """Where ``widget`` sits on ``page``: its group's left edge (the column), its top."""
    box = widget.parentWidget()
    while box is not None and not isinstance(box, QGroupBox):
        box = box.parentWidget()
    return box.mapTo(page, box.rect().topLeft()).x(), widget.mapTo(page, widget.rect().topLeft()).y()


def test_the_focus_starts_on_the_first_field_of_each_page(qtbot):
    window = active_window(qtbot)
    assert QApplication.focusWidget() is window.pages[0].first_field()
    for index in range(1, len(window.pages)):
        qtbot.mouseClick(window.next_button, Qt.MouseButton.LeftButton)
        assert window.stack.currentIndex() == index
        assert QApplication.focusWidget() is window.pages[index].first_field(), index
    window.steps.setFocus()  # the arrows in the step list move the page, not the focus
    qtbot.keyClick(window.steps, Qt.Key.Key_Up)
    assert window.stack.currentIndex() == len(window.pages) - 2
    assert QApplication.focusWidget() is window.steps


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tab_walks_each_page_in_reading_order(qtbot, lang):
    window = active_window(qtbot, lang)
    wait_results(qtbot, window)
    for index, page in enumerate(window.pages):
        window.go_to(index)
        first = page.first_field()
        assert QApplication.focusWidget() is first
        walked = [first]
        while True:
            widget = _press(qtbot)
            if not page.isAncestorOf(widget):
                break
            walked.append(widget)
            assert len(walked) < 100, "Tab never left the page"
        expected = [w for w in page.focus_chain() if w.isVisibleTo(page)]
        assert walked == expected, page.page.key
        places = [_column_and_row(page, w) for w in walked]
        assert places == sorted(places), page.page.key  # column by column, top to bottom
        # past the last field: the live result's fold button, then Back and Next
        assert widget in (window.preview.toggle, window.back_button, window.next_button)
        assert _press(qtbot, BACKTAB) is walked[-1]


def _leaves(qtbot, table) -> None:
    table.setFocus(Qt.FocusReason.TabFocusReason)
    table.setCurrentCell(0, 0)
    assert _press(qtbot) is not table and not table.isAncestorOf(QApplication.focusWidget())
    table.setFocus(Qt.FocusReason.TabFocusReason)
    table.setCurrentCell(0, 0)
    assert _press(qtbot, BACKTAB) is not table


def test_tab_and_shift_tab_leave_the_compare_and_diagnosis_tables(qtbot):
    window = active_window(qtbot)
    wait_results(qtbot, window)
    window.go_to(len(window.pages) + 1)  # measured scaling: a row for each count to try
    table = window.diagnosis_page.table
    assert table.rowCount() > 1 and not table.tabKeyNavigation()
    _leaves(qtbot, table)
    window.go_to(window.compare_index)
    page = window.compare_page
    qtbot.waitUntil(lambda: page.result is not None and page.table.rowCount() > 1,
                    timeout=30000)
    assert not page.table.tabKeyNavigation()
    _leaves(qtbot, page.table)


def test_tab_never_stops_where_no_focus_is_shown(qtbot):
    """Every step of the window walked with Tab: each stop is a control that draws its focus
    (never a scroll area or a plot), and the walk comes back round (no trap)."""
    window = active_window(qtbot)
    wait_results(qtbot, window)
    for index in range(window.stack.count()):
        window.go_to(index)
        if index == window.compare_index:
            qtbot.waitUntil(lambda: window.compare_page.result is not None, timeout=30000)
        window.steps.setFocus(Qt.FocusReason.TabFocusReason)
        seen = [window.steps]
        for _ in range(200):
            widget = _press(qtbot)
            if widget is window.steps:
                break
            assert not isinstance(widget, QScrollArea | pg.GraphicsView), (index, widget)
            assert widget.isVisible() and window.isAncestorOf(widget)
            seen.append(widget)
        else:
            pytest.fail(f"Tab did not come back round on step {index}: {seen[-5:]}")
        assert window.next_button in seen or index == window.stack.count() - 1


@pytest.mark.parametrize("step", [0, 2])
def test_every_tab_stop_shows_that_it_has_the_focus(qtbot, step):
    """Each widget Tab stops on looks different while it has the focus (the style's focus
    frame or highlight), so a keyboard user sees where they are."""
    window = active_window(qtbot)
    wait_results(qtbot, window)
    window.go_to(step)
    qtbot.keyClick(QApplication.focusWidget(), BACKTAB)  # a key moved the focus: it is shown
    qtbot.keyClick(QApplication.focusWidget(), TAB)
    checked = 0
    for _ in range(len(window.pages[step].focus_chain()) + 4):
        widget = QApplication.focusWidget()
        focused = widget.grab().toImage()
        after = _press(qtbot)
        assert focused != widget.grab().toImage(), (type(widget).__name__,
                                                    widget.accessibleName())
        checked += 1
        if after is window.steps:
            break
    assert checked > 5
