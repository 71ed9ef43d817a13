"""Walk the whole wizard for each example profile and check the verdict card and the plotted
data against the recommendation the core computes for the same profile."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from advisor.catalog.profile_check import load_profile
from tests.support.ui import EXAMPLES, make_window, projection_recommend
from ui.results.verdict_card import gpus_text, rating_text
from ui.window.recompute import effective_profile


def real_recommend(profile):
    from advisor.compare.weighed import recommend

    return recommend(profile)


def _walk(qtbot, window):
    """Next through every page, as a user would, to the results."""
    assert window.stack.currentIndex() == 0
    for _ in range(len(window.pages)):
        assert window.stack.currentWidget().isVisibleTo(window)
        qtbot.mouseClick(window.next_button, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window._results_holder


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_walk_example_to_results(qtbot, example):
    window = make_window(qtbot, "en", real_recommend, threaded=True, argv=[str(example)])
    window.show()
    with qtbot.waitSignal(window.betterLinkShown, timeout=15000):
        _walk(qtbot, window)
    profile = effective_profile(load_profile(example))
    expected = real_recommend(profile)
    shown = window.results.recommendation
    assert shown.verdict == expected.verdict
    card = window.results_page.card
    assert card.rating_label.text() == rating_text(expected.verdict.rating)
    assert card.headline_label.text() == expected.verdict.headline.en
    # issue 29: the card opens with the answer's five lines (cost, main risk, next step below
    # the headline), the same as `gpu-advisor recommend` prints
    shown_lines = card.summary_label.accessibleName()
    for line in expected.summary:
        if line.key in ("cost", "risk", "next"):
            assert line.text.en in shown_lines, line.key
    assert card.values["gpus"].text().startswith(gpus_text(expected.verdict.gpus))
    items = window.results_page.speedup.advisor_items
    pr = expected.projection
    fit = np.asarray(pr.fits, dtype=bool)  # the curve runs through counts that fit
    x, y = items["projected"].getData()
    np.testing.assert_allclose(x, np.asarray(pr.gpus)[fit])
    np.testing.assert_allclose(y, np.asarray(pr.speedup)[fit])
    np.testing.assert_allclose(items["band_low"].getData()[1], np.asarray(pr.speedup_low)[fit])
    np.testing.assert_allclose(items["band_high"].getData()[1],
                               np.asarray(pr.speedup_high)[fit])
    assert items["chosen"].value() == expected.verdict.gpus
    for index in range(window.results_page.tabs.count()):  # hidden tabs draw when shown
        window.results_page.tabs.setCurrentIndex(index)
    cost_items = window.results_page.cost.advisor_items
    costs_fit = np.asarray(expected.costs.fits or [True] * len(expected.costs.gpus), dtype=bool)
    np.testing.assert_allclose(cost_items["per_month"].getData()[0],
                               np.asarray(expected.costs.gpus)[costs_fit])
    bvr_items = window.results_page.buy_vs_rent.advisor_items
    np.testing.assert_allclose(bvr_items["own"].getData()[1],
                               expected.costs.buy_vs_rent.own_cumulative)
    np.testing.assert_allclose(bvr_items["cloud"].getData()[1],
                               expected.costs.buy_vs_rent.cloud_cumulative)
    assert window.results_page.pitfalls.pitfall_ids == [p.id for p in expected.pitfalls]
    assert window.results_page.why.rules == [t.rule for t in expected.trace]
    if window._diagnosis_holder is not None:  # measured scaling (F30)
        qtbot.mouseClick(window.next_button, Qt.MouseButton.LeftButton)
        assert window.diagnosis_page is not None and window.diagnosis_page.isVisible()
    qtbot.mouseClick(window.next_button, Qt.MouseButton.LeftButton)  # the last step
    assert window.compare_page is not None and window.compare_page.isVisible()
    assert not window.next_button.isEnabled()


def test_every_page_shows_the_loaded_answers(qtbot):
    example = next(p for p in EXAMPLES if p.stem.startswith("large-model"))
    window = make_window(qtbot, argv=[str(example)])
    pages = {page.page.key: page for page in window.pages}
    assert pages["model"].editors["model.params_millions"].input.text() == "6740"
    assert pages["hardware"].editors["hardware.nodes"].input.text() == "2"
    assert pages["hardware"].editors["hardware.intra_link"].value() == "nvswitch"
    assert pages["habits"].editors["economics.time_value"].value() == "deadline"
    assert pages["pipeline"].editors["training.input_pipeline"].value() == "tuned"
    assert "80 GB" in pages["hardware"].gpu_info.text()


def test_a_change_redraws_the_plots_in_place(qtbot):
    window = make_window(qtbot, recommend=projection_recommend)
    with qtbot.waitSignal(window.resultsShown):
        window.recompute()
    window.go_to(len(window.pages))  # the results page shown: its plot redrawn at each change
    plot = window.results_page.speedup
    curve = plot.advisor_items["projected"]
    hardware = next(p for p in window.pages if p.page.key == "hardware")
    editor = hardware.editors["hardware.gpus_per_node"]
    with qtbot.waitSignal(window.resultsShown):
        editor.input.selectAll()
        qtbot.keyClicks(editor.input, "8")
    assert window.results_page.speedup is plot and plot.advisor_items["projected"] is curve
    assert curve.getData()[0][-1] == 8


def test_a_hidden_results_page_is_drawn_when_shown(qtbot):
    """Issue 34 (the live preview's redraw budget): while the questions are answered only the
    preview is redrawn; the results page's plot follows when the page is shown, with the
    newest results, before it is painted."""
    window = make_window(qtbot, recommend=projection_recommend)
    with qtbot.waitSignal(window.resultsShown):
        window.recompute()
    window.go_to(len(window.pages))
    curve = window.results_page.speedup.advisor_items["projected"]
    before = curve.getData()[0][-1]
    hardware_index = next(i for i, p in enumerate(window.pages) if p.page.key == "hardware")
    window.go_to(hardware_index)
    editor = window.pages[hardware_index].editors["hardware.gpus_per_node"]
    with qtbot.waitSignal(window.resultsShown):
        editor.input.selectAll()
        qtbot.keyClicks(editor.input, "8")
    preview = window.preview.plot.advisor_items["projected"]
    assert preview.getData()[0][-1] == 8  # the preview: drawn at once
    assert before != 8 and curve.getData()[0][-1] == before  # not yet
    window.go_to(len(window.pages))
    assert curve.getData()[0][-1] == 8


def test_model_preset_fills_the_model_answers(qtbot):
    window = make_window(qtbot, recommend=projection_recommend)
    page = window.pages[0]
    index = page.preset_combo.findData("Llama 2 13B")
    page.preset_combo.setCurrentIndex(index)
    page.preset_combo.activated.emit(index)
    assert window.answers.profile.model.params_millions == 13016
    assert window.answers.profile.model.layers == 40
    assert window.answers.profile.task.value == "llm"
    assert page.editors["model.hidden_size"].input.text() == "5120"


def test_gpu_choice_comes_from_the_catalog(qtbot):
    from advisor.catalog import gpu_ids

    window = make_window(qtbot, recommend=projection_recommend)
    editor = next(p for p in window.pages if p.page.key == "hardware").editors["hardware.gpu"]
    assert editor.input.count() == len(gpu_ids()) + 1  # and "Custom GPU…"
    index = gpu_ids().index("h100_sxm")
    editor.input.setCurrentIndex(index)
    editor.input.activated.emit(index)
    assert window.answers.profile.hardware.gpu == "h100_sxm"


def test_live_preview_follows_the_answers_on_the_question_pages(qtbot):
    window = make_window(qtbot, recommend=projection_recommend)
    window.show()
    with qtbot.waitSignal(window.resultsShown):
        window.recompute()
    window.go_to(2)
    preview = window.preview
    assert preview.isVisible()
    editor = window.pages[2].editors["hardware.gpus_per_node"]
    with qtbot.waitSignal(window.resultsShown):
        editor.input.selectAll()
        qtbot.keyClicks(editor.input, "2")
    x, _y = preview.plot.advisor_items["projected"].getData()
    assert list(x) == [1, 2]
    assert preview.rating.text() in {"Worth it", "Not worth it"}
    window.go_to(4)
    assert not preview.isVisible()


def test_picking_an_sxm_card_takes_its_nvswitch_link_and_back(qtbot):
    window = make_window(qtbot, recommend=projection_recommend)
    page = next(p for p in window.pages if p.page.key == "hardware")
    window.answers.set("hardware.gpu", "h100_sxm")
    assert window.answers.profile.hardware.intra_link.value == "nvswitch"
    assert page.editors["hardware.intra_link"].value() == "nvswitch"
    window.answers.set("hardware.gpu", "rtx4090")  # no NVLink on a GeForce 40 card
    assert window.answers.profile.hardware.intra_link.value == "pcie4"
    assert not window.answers.all_problems()


def test_cooling_follows_the_gpu_unless_the_user_chose_it(qtbot):
    window = make_window(qtbot)
    answers = window.answers
    hardware = next(p for p in window.pages if p.page.key == "hardware")
    answers.set("hardware.gpu", "a100_pcie_40gb")  # passive data-centre card
    assert answers.get("hardware.cooling") == "server"
    assert hardware.editors["hardware.cooling"].value() == "server"
    answers.set("hardware.gpu", "rtx4090")  # GeForce: open-air fans
    assert answers.get("hardware.cooling") == "open_air"
    answers.set("hardware.cooling", "liquid")
    answers.set("hardware.gpu", "a100_pcie_40gb")
    assert answers.get("hardware.cooling") == "liquid"  # the user's choice stays
