"""Review D7.1 and D7.2: the compare step on a laptop screen. The chart's point labels never
sit on top of each other (the answers' and the front's win, the others are left out or
moved), its y axis title is never cut off, and the table shows the number columns (hours,
costs, break-even, status) without a horizontal scroll: the Option column elides its text
and keeps the whole of it in a tooltip."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtGui import QFontMetricsF

from advisor.compare import compare
from ui.compare.page import OPTION_COLUMN, ComparePage
from ui.plots.compare import point_label, shown_labels
from ui.plots.style import currency_label


@pytest.fixture(scope="module")
def comparison(medium):
    return compare(medium[1])


def _page(qtbot, comparison, profile, size, lang="en") -> ComparePage:
    page = ComparePage(run=lambda _profile: comparison, threaded=False)
    qtbot.addWidget(page)
    page.retranslate(lang)
    page.resize(*size)
    page.show()
    qtbot.waitExposed(page)
    page.compare_now(profile)
    qtbot.waitUntil(lambda: page.result is not None)
    qtbot.wait(20)
    return page


def _text_box(label):
    """Where a label's text is drawn, in the plot's pixels (its item less the margin)."""
    margin = label.textItem.document().documentMargin()
    return label.sceneBoundingRect().adjusted(margin, margin, -margin, -margin)


# the chart as small as at 1024 x 576 at 125 % and as at 1366 x 768
@pytest.mark.parametrize("size", [(760, 420), (1050, 560)])
def test_no_point_label_is_drawn_over_another_and_every_answer_is_labelled(
        qtbot, medium, comparison, size):
    page = _page(qtbot, comparison, medium[1], size)
    labels = shown_labels(page.plot)
    assert len(labels) >= 3
    for a, b in itertools.combinations(labels, 2):
        assert not _text_box(a).intersects(_text_box(b)), (
            a.textItem.toPlainText(), b.textItem.toPlainText())
    numbers = {o.id: i for i, o in enumerate(comparison.options, start=1)}
    shown = {label.textItem.toPlainText() for label in labels}
    for answer in comparison.answers:
        if answer.point is not None:
            point = comparison.at(answer.point)
            assert point_label(numbers[answer.point.option], point.gpus, point.on_front,
                               "en") in shown
    view = page.plot.getPlotItem().getViewBox().sceneBoundingRect()
    for label in labels:  # inside the chart, not cut at its edge
        assert view.contains(_text_box(label)), label.textItem.toPlainText()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_y_axis_title_is_never_longer_than_the_axis(qtbot, medium, comparison, lang):
    page = _page(qtbot, comparison, medium[1], (760, 420), lang)
    axis = page.plot.getPlotItem().getAxis("left")
    title = axis.labelText
    assert QFontMetricsF(axis.label.font()).horizontalAdvance(title) <= axis.geometry().height()
    assert currency_label(lang, "CNY") in title, title  # what the costs are in, still said
    page.resize(1500, 1000)  # room again: the whole title
    qtbot.waitUntil(lambda: "log" in axis.labelText or "对数" in axis.labelText)


@pytest.mark.parametrize("width", [966, 1052])  # the table's width at 1280 x 720 at 150 %, at
def test_the_table_shows_every_number_column_without_scrolling(qtbot, medium, comparison,
                                                               width):  # 1366 x 768
    page = _page(qtbot, comparison, medium[1], (width + 24, 700))
    qtbot.waitUntil(lambda: page.table.viewport().width() > 0)
    table = page.table
    assert table.horizontalScrollBar().maximum() == 0
    right = table.viewport().width()
    header = table.horizontalHeader()
    last = table.columnCount() - 1  # Status, after the hours, costs and break-even
    assert header.sectionViewportPosition(last) + header.sectionSize(last) <= right
    for row in range(table.rowCount()):
        option = table.item(row, OPTION_COLUMN)
        assert option.toolTip() == option.text()
    full = max((table.item(r, OPTION_COLUMN).text() for r in range(table.rowCount())), key=len)
    assert table.fontMetrics().horizontalAdvance(full) > header.sectionSize(OPTION_COLUMN)
