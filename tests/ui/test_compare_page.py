"""The wizard's "Compare setups" step: the scatter of time per run against cost per month with
the front drawn, points labelled and clickable for their details, every option in the table,
both languages, and a language switch that redraws without changing a number."""

from __future__ import annotations

import math

from advisor.catalog.profile_check import load_profile
from advisor.compare import compare
from tests.support.ui import MEDIUM, make_window
from ui.compare.page import ComparePage


def _page(qtbot, lang: str = "en"):
    window = make_window(qtbot, lang, argv=[str(MEDIUM)])
    window.go_to(window.compare_index)
    page = window.compare_page
    assert isinstance(page, ComparePage)
    if page.result is None:
        with qtbot.waitSignal(page.comparisonShown, timeout=30000):
            pass
    return window, page


def test_the_page_draws_every_runnable_point_and_the_front(qtbot):
    window, page = _page(qtbot)
    result = page.result
    expected = compare(load_profile(MEDIUM).model_copy(update={}), verdicts=True)
    assert [o.id for o in result.options] == [o.id for o in expected.options]
    items = page.plot.advisor_items
    drawn = sum(len(items[name].data) for name in ("own", "rent", "beaten"))
    runnable = sum(1 for o in result.options for p in o.points if p.fits and p.priced)
    assert drawn == runnable
    on_front = [(r.option, r.gpus) for r in result.front]
    assert len(items["own"].data) + len(items["rent"].data) == len(on_front)
    x, y = items["front"].getData()
    hours = sorted(result.at(r).run_hours for r in result.front)
    assert list(x) == [math.log10(h) for h in hours]
    # the answers are always labelled, with their option's number and GPUs (issue 34:
    # "★ #3 · 8 GPUs", not "3·8")
    labels = {label.textItem.toPlainText() for label in page.plot.advisor_labels}
    numbers = {o.id: i for i, o in enumerate(result.options, start=1)}
    for answer in result.answers:
        if answer.point is not None:
            point = result.at(answer.point)
            gpus = "1 GPU" if point.gpus == 1 else f"{point.gpus} GPUs"
            expected = (f"★ #{numbers[answer.point.option]} · {gpus}" if point.on_front
                        else f"#{numbers[answer.point.option]}")
            assert expected in labels, (expected, labels)
    assert page.table.rowCount() > len(result.options)
    assert window.steps.item(window.compare_index).text().endswith("Compare setups")
    assert "Market CN" in page.header.text()


def test_clicking_a_point_shows_its_details(qtbot):
    _, page = _page(qtbot)
    result = page.result
    shown = set(page._rows)  # the table's handful of rows (issue 29)
    dominated = next((o.id, p.gpus) for o in result.options for p in o.points
                     if p.dominated_by is not None and (o.id, p.gpus) in shown)
    for callback in page.plot.advisor_clicked:  # what a click on the spot calls
        callback(dominated)
    assert page.selected == dominated
    text = page.details.toPlainText()
    assert result.option(dominated[0]).label.en in text and "dominated by" in text
    x, y = page.plot.advisor_items["selected"].getData()
    assert (x[0], y[0]) == page.plot.advisor_points[dominated]
    row = page.table.currentRow()
    assert page._rows[row] == dominated
    page.table.selectRow(0)
    assert page.selected == page._rows[0]


def test_chinese_and_a_language_switch_change_no_number(qtbot):
    window, page = _page(qtbot, "en")
    before = page.result
    cells = [page.table.item(r, c).text() for r in range(page.table.rowCount())
             for c in (2, 4, 5, 6)]
    window.hub.set_language("zh")
    assert page.result is before  # redrawn from the same comparison, not recomputed
    assert page.title.text() == "配置对比"
    assert "市场 CN" in page.header.text()
    assert page.table.horizontalHeaderItem(1).text() == "选项"
    assert [page.table.item(r, c).text() for r in range(page.table.rowCount())
            for c in (2, 4, 5, 6)] == cells
    assert "结论" in page.details.toPlainText()
    assert page.plot.getPlotItem().titleLabel.text == "每次训练时间与每月成本"
    assert window.steps.item(window.compare_index).text().endswith("配置对比")
    window.hub.set_language("en")


def test_a_points_details_say_what_each_net_value_is_measured_against(qtbot):
    """The details' net value is over the comparison's baseline (the user's setup at its
    fewest GPUs), the verdict's over one GPU of the option: each says so, in both languages."""
    from ui.compare.details import point_html

    result = compare(load_profile(MEDIUM), verdicts=True)
    answer = result.answer("net_value")
    assert answer is not None and answer.point is not None and result.baseline is not None
    number = {o.id: i for i, o in enumerate(result.options, start=1)}[result.baseline.option]
    key = (answer.point.option, answer.point.gpus)
    en, zh = point_html(result, key, "en"), point_html(result, key, "zh")
    n = result.baseline.gpus
    at_en, at_zh = ("1 GPU", "单卡") if n == 1 else (f"{n} GPUs", f"{n} 卡")
    assert f"over #{number} at {at_en} (your setup at its fewest GPUs)" in en
    assert f"相对 #{number} {at_zh}（你的配置的最少卡数）" in zh
    assert "over one GPU of this setup" in en and "相对本配置单卡" in zh


def test_the_star_the_page_promises_is_shown_in_the_table_and_on_the_chart(qtbot):
    """Issue 34: the header says "★ = on the Pareto front"; the table showed front rows in bold
    only, and the chart labelled points "16·64"."""
    window, page = _page(qtbot)
    result = page.result
    numbers = {o.id: i for i, o in enumerate(result.options, start=1)}
    front = {(r.option, r.gpus) for r in result.front}
    assert "★ = on the Pareto front" in page.header.text()
    starred = 0
    for row, key in enumerate(page._rows):
        first = page.table.item(row, 0)
        if key in front:
            assert first.text() == f"★ {numbers[key[0]]}", first.text()
            assert first.font().bold()
            starred += 1
        else:
            assert "★" not in first.text() and first.text() == str(numbers[key[0]])
            assert not first.font().bold()
    assert starred >= 1
    labels = [label.textItem.toPlainText() for label in page.plot.advisor_labels]
    assert any(text.startswith("★ #") and text.endswith("GPUs") for text in labels), labels
    assert not any("·" in text and not text.startswith("★ #") for text in labels), labels
    window.hub.set_language("zh")
    labels = [label.textItem.toPlainText() for label in page.plot.advisor_labels]
    assert any(text.startswith("★ #") and text.endswith(" 卡") for text in labels), labels
    assert page.table.item(page._rows.index(next(k for k in page._rows if k in front)),
                           0).text().startswith("★ ")
    window.hub.set_language("en")


def test_point_labels_read_as_option_and_gpus():
    from ui.plots.compare import point_label

    assert point_label(16, 64, True, "en") == "★ #16 · 64 GPUs"
    assert point_label(2, 1, True, "en") == "★ #2 · 1 GPU"
    assert point_label(16, 64, False, "en") == "#16"
    assert point_label(16, 64, True, "zh") == "★ #16 · 64 卡"


def test_the_table_shows_more_than_three_rows_at_1280_by_800(qtbot):
    """Issue 34: at 1280 × 800 the compare table showed three rows."""
    window = make_window(qtbot, "en", argv=[str(MEDIUM)])
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.go_to(window.compare_index)
    page = window.compare_page
    if page.result is None:
        with qtbot.waitSignal(page.comparisonShown, timeout=30000):
            pass
    qtbot.wait(50)
    table = page.table
    assert table.rowCount() > 4
    rows_seen = table.viewport().height() // table.rowHeight(0)
    assert rows_seen > 3, (rows_seen, table.viewport().height())
