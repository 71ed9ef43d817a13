"""A plot with nothing to draw says why in a sentence instead of showing empty 0-1 axes (no cloud
price, no card price, nothing that can run, no measurements yet), and gives the data their
range back once there is something to draw."""

from __future__ import annotations

import pyqtgraph as pg
import pytest

from advisor.catalog.profile_check import load_profile
from tests.support.paths import EXAMPLES
from tests.support.ui import MEDIUM, cloud_unpriced, plot_message
from tests.support.verdict import own_recommended, recommended
from ui.diagnosis import DiagnosisPage
from ui.diagnosis.plot import LABELS, diagnosis_plot
from ui.plots import buy_vs_rent_plot, cost_plot
from ui.plots.style import new_plot, show_message

MEASURED = EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"


def test_clearing_the_message_gives_the_data_their_range(qtbot):
    plot, _ = new_plot(None)
    qtbot.addWidget(plot)
    curve = pg.PlotDataItem()
    plot.addItem(curve)
    show_message(plot, "No data yet")
    assert plot.getPlotItem().viewRange()[0] == [0, 1]
    show_message(plot, None)
    curve.setData([1, 2, 4, 16], [1.0, 1.7, 1.8, 6.0])
    box = plot.getPlotItem().getViewBox()
    box.updateAutoRange()  # what the next paint does (a no-op while the range is pinned)
    (x0, x1), (y0, y1) = box.viewRange()
    assert x0 <= 1 and x1 >= 16 and y0 <= 1 and y1 >= 6


def test_diagnosis_plot_after_the_empty_message_spans_every_count(qtbot):
    """The wizard's page first shows "No measurements yet", then the example's points: the
    x axis covered 0–1 (one red dot at its edge) before the fix."""
    profile = load_profile(MEASURED)
    page = DiagnosisPage(lambda: profile, "en")
    qtbot.addWidget(page)
    assert plot_message(page.plot) is not None  # the empty state came first
    page.show()
    qtbot.waitUntil(lambda: page.table.rowCount() == 3)
    d = page.run_diagnosis()
    assert d is not None and plot_message(page.plot) is None
    (x0, x1), (y0, y1) = page.plot.getPlotItem().getViewBox().viewRange()
    counts = d.fit.gpus if d.fit is not None else d.measured.gpus
    assert x0 <= min(counts) and x1 >= max(counts) and max(counts) > 4
    assert y0 <= 1.0 and y1 >= max(d.measured.speedup)
    ticks = page.plot.getPlotItem().getAxis("bottom")._tickLevels
    assert ticks and [label for _, label in ticks[0]][:3] == ["1", "2", "4"]


@pytest.mark.parametrize(("lang", "words"), [("en", "No cloud price"), ("zh", "云租用价格")])
def test_cost_plot_without_a_cloud_price_says_what_to_fill(qtbot, tmp_path, lang, words):
    # the views of the user's own setup, unpriced (the answer moves to a priced setup)
    rec, profile = own_recommended(cloud_unpriced(tmp_path))
    assert rec.costs.mode == "cloud" and not rec.costs.mode_priced
    plot = cost_plot(rec, profile, lang)
    qtbot.addWidget(plot)
    items = plot.advisor_items
    for name in ("per_run", "per_month", "value_saved", "best"):
        assert not items[name].isVisible(), name
    message = plot_message(plot)
    assert message and words in message and "economics.cloud_price_per_gpu_hour" in message
    assert not plot.advisor_legend.isVisible()
    # The same widget, priced again: curves, marker and axes back, the message gone.
    rec, profile = recommended(MEDIUM)
    cost_plot(rec, profile, lang, plot=plot)
    assert plot_message(plot) is None
    assert items["per_run"].isVisible() and items["per_month"].isVisible()
    assert items["best"].isVisible()
    x0, x1 = plot.getPlotItem().getViewBox().viewRange()[0]
    assert x0 < min(rec.costs.gpus) and x1 > max(rec.costs.gpus)


def _sentence(plot) -> str | None:
    """The centred sentence when it shows (and the axes are hidden), else None."""
    note = getattr(plot, "advisor_message", None)
    item = plot.getPlotItem()
    axes_shown = item.getAxis("left").isVisible() and item.getAxis("bottom").isVisible()
    if note is None or not note.isVisible():
        assert axes_shown
        return None
    assert not axes_shown  # no 0–1 axes around the sentence
    return note.textItem.toPlainText()


@pytest.mark.parametrize("lang,words", [("en", "not compared (a price is missing)"),
                                        ("zh", "未比较")])
def test_buy_vs_rent_without_a_card_price_draws_no_curves(qtbot, cases, lang, words):
    rec, profile = cases["no_price"]
    assert rec.costs.own_priced is False
    plot = buy_vs_rent_plot(rec, profile, lang)
    qtbot.addWidget(plot)
    items = plot.advisor_items
    for name in ("own", "cloud"):
        assert len(items[name].getData()[0] or []) == 0
    assert not items["breakeven"].isVisible() and not items["breakeven_line"].isVisible()
    assert not items["note"].isVisible()  # no "No break-even in this period"
    message = _sentence(plot)
    assert message is not None and words in message and "economics.gpu_price" in message
    # Priced again (the medium example): curves, axes, no message.
    rec, profile = cases["medium"]
    buy_vs_rent_plot(rec, profile, lang, plot=plot)
    assert _sentence(plot) is None and len(items["own"].getData()[0]) > 0


def test_buy_vs_rent_when_nothing_can_run_shows_a_sentence(qtbot, cases):
    rec, profile = cases["unrunnable"]
    plot = buy_vs_rent_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    assert _sentence(plot) == "No GPU count considered can run this job"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_diagnosis_plot_before_data_shows_a_sentence(qtbot, lang):
    page = DiagnosisPage(lambda: None, lang)
    qtbot.addWidget(page)
    assert _sentence(page.plot) == LABELS["empty"].get(lang)
    page.table.setRowCount(0)
    for gpus, value in (("1", "100"), ("4", "330")):
        page._add_row(None, None)
        page.table.item(page.table.rowCount() - 1, 0).setText(gpus)
        page.table.item(page.table.rowCount() - 1, 1).setText(value)
    assert page.run_diagnosis() is not None
    assert _sentence(page.plot) is None
    ticks = page.plot.getPlotItem().getAxis("bottom")._tickLevels[0]
    assert all(float(v).is_integer() for v, _ in ticks)  # GPU counts, never 0.1 … 0.9
    diagnosis_plot(None, lang, page.plot)
    assert _sentence(page.plot) == LABELS["empty"].get(lang)
