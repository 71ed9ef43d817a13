"""Review 3 in the wizard's plots: no "Recommended: N" for a job this hardware cannot run; no
buy-vs-rent curves without both prices; a sentence instead of empty axes; a preview whose
marker label and axis title fit."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import ROOT
from tests.support.ui import EXAMPLES
from ui.diagnosis import DiagnosisPage
from ui.diagnosis.plot import LABELS, diagnosis_plot
from ui.plots import buy_vs_rent_plot, speedup_plot

ROOT = ROOT
H100_70B = ROOT / "tests" / "profiles" / "verdict" / "h100fsdp.yaml"
T4_NO_PRICE = ROOT / "tests" / "profiles" / "verdict" / "t4-own-no-price.yaml"


def _message(plot) -> str | None:
    """The centred sentence when it shows (and the axes are hidden), else None."""
    note = getattr(plot, "advisor_message", None)
    item = plot.getPlotItem()
    axes_shown = item.getAxis("left").isVisible() and item.getAxis("bottom").isVisible()
    if note is None or not note.isVisible():
        assert axes_shown
        return None
    assert not axes_shown  # no 0–1 axes around the sentence
    return note.textItem.toPlainText()


@pytest.fixture(scope="module")
def cases():
    out = {}
    for key, path in (("unrunnable", H100_70B), ("no_price", T4_NO_PRICE),
                      ("medium", next(p for p in EXAMPLES if "medium-model" in p.stem))):
        profile = load_profile(path)
        out[key] = (recommend(profile), profile)
    return out


def test_no_recommended_marker_when_nothing_can_run(qtbot, cases):
    rec, profile = cases["unrunnable"]
    assert rec.verdict.runnable is False
    plot = speedup_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    assert not plot.advisor_items["chosen"].isVisible()
    # The same widget shows the marker again for a job that runs.
    rec, profile = cases["medium"]
    speedup_plot(rec, profile, "en", plot=plot)
    assert plot.advisor_items["chosen"].isVisible()


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
    message = _message(plot)
    assert message is not None and words in message and "economics.gpu_price" in message
    # Priced again (the medium example): curves, axes, no message.
    rec, profile = cases["medium"]
    buy_vs_rent_plot(rec, profile, lang, plot=plot)
    assert _message(plot) is None and len(items["own"].getData()[0]) > 0


def test_buy_vs_rent_when_nothing_can_run_shows_a_sentence(qtbot, cases):
    rec, profile = cases["unrunnable"]
    plot = buy_vs_rent_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    assert _message(plot) == "No GPU count considered can run this job"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_diagnosis_plot_before_data_shows_a_sentence(qtbot, lang):
    page = DiagnosisPage(lambda: None, lang)
    qtbot.addWidget(page)
    assert _message(page.plot) == LABELS["empty"].get(lang)
    page.table.setRowCount(0)
    for gpus, value in (("1", "100"), ("4", "330")):
        page._add_row(None, None)
        page.table.item(page.table.rowCount() - 1, 0).setText(gpus)
        page.table.item(page.table.rowCount() - 1, 1).setText(value)
    assert page.run_diagnosis() is not None
    assert _message(page.plot) is None
    ticks = page.plot.getPlotItem().getAxis("bottom")._tickLevels[0]
    assert all(float(v).is_integer() for v, _ in ticks)  # GPU counts, never 0.1 … 0.9
    diagnosis_plot(None, lang, page.plot)
    assert _message(page.plot) == LABELS["empty"].get(lang)


def test_preview_plot_leaves_room_for_its_marker_and_axis_title(qtbot, cases):
    rec, profile = cases["medium"]
    plot = speedup_plot(rec, profile, "en", compact=True)
    qtbot.addWidget(plot)
    chosen = plot.advisor_items["chosen"]
    assert chosen.isVisible() and chosen.label.orthoPos <= 0.85  # clear of the top edge
    top = plot.getPlotItem().viewRange()[1][1]
    assert top >= 1.2 * float(np.max(rec.projection.speedup_high))
    assert plot.getPlotItem().getAxis("left").labelText == "Speed-up (×)"
    full = speedup_plot(rec, profile, "en")
    qtbot.addWidget(full)
    assert full.getPlotItem().getAxis("left").labelText == "Speed-up vs one GPU (×)"
