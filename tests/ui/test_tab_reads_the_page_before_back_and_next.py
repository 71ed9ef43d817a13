"""Review D6: on the Results and Compare steps, Tab from the step list reaches the page's own
content (the card's Export button, the result views, the compare details and table) before
the Back and Next buttons, as the page reads; Back and Next come last, then the step list."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.support.ui import active_window, wait_results


def _walk_from_steps(qtbot, window) -> list[QWidget]:
    """Every Tab stop from the step list round to it again."""
    window.steps.setFocus(Qt.FocusReason.TabFocusReason)
    walked = []
    for _ in range(100):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        widget = QApplication.focusWidget()
        if widget is window.steps:
            return walked
        walked.append(widget)
    raise AssertionError(f"Tab never came back to the steps: {walked[-5:]}")


def _reads_page_then_buttons(walked: list[QWidget], page: QWidget, window) -> None:
    on_page = [i for i, w in enumerate(walked) if page.isAncestorOf(w)]
    assert on_page, walked
    assert on_page == list(range(len(on_page))), walked  # the page first, in one run
    buttons = [b for b in (window.back_button, window.next_button) if b.isEnabled()]
    assert walked[len(on_page):] == buttons, walked


def test_tab_reaches_the_results_page_before_back_and_next(qtbot):
    window = active_window(qtbot)
    wait_results(qtbot, window)
    window.go_to(len(window.pages))
    page = window.results_page
    walked = _walk_from_steps(qtbot, window)
    _reads_page_then_buttons(walked, page, window)
    assert walked[0] is page.card.export_button
    assert page.tabs.tabBar() in walked


def test_tab_reaches_the_compare_page_before_back_and_next(qtbot):
    window = active_window(qtbot)
    wait_results(qtbot, window)
    window.go_to(window.compare_index)
    page = window.compare_page
    qtbot.waitUntil(lambda: page.result is not None and page.table.rowCount() > 1,
                    timeout=30000)
    walked = _walk_from_steps(qtbot, window)
    _reads_page_then_buttons(walked, page, window)
    assert walked.index(page.details) < walked.index(page.table)


def test_the_question_pages_still_end_with_back_and_next_after_a_later_page_is_built(qtbot):
    """The results and compare pages built, the question pages keep their order: their
    fields, the live result's fold button, Back, Next."""
    window = active_window(qtbot)
    wait_results(qtbot, window)
    window.go_to(window.compare_index)
    window.go_to(0)
    walked = _walk_from_steps(qtbot, window)
    page = window.pages[0]
    fields = [w for w in walked if page.isAncestorOf(w)]
    assert fields == walked[:len(fields)]
    assert not window.back_button.isEnabled()  # the first page
    assert walked[len(fields):] == [window.preview.toggle, window.next_button]
