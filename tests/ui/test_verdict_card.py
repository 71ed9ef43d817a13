"""The verdict card and the live preview show the figures of the count the verdict names: a dash
where that count is not projected or not priced, never the one-GPU baseline's 1.00x; one GPU
reads naturally (no parallelism, no "1.00")."""

from __future__ import annotations

import pytest

from tests.support.profiles import LLAMA_70B, write_file
from tests.support.ui import (
    cloud_unpriced,
    example,
    make_window,
    one_gpu,
    past_the_projection,
    plot_message,
    projection_recommend,
)
from tests.support.verdict import own_recommended, recommended
from ui.plots import buy_vs_rent_plot
from ui.results.live_preview import LivePreview
from ui.results.verdict_card import VerdictCard
from ui.window.recompute import Results


def test_card_and_buy_vs_rent_without_a_cloud_price(qtbot, tmp_path):
    # the views of the user's own setup, unpriced (the answer moves to a priced setup)
    rec, profile = own_recommended(cloud_unpriced(tmp_path))
    card = VerdictCard()
    qtbot.addWidget(card)
    card.show_recommendation(rec, "en")
    assert card.values["cost_month"].text() == "—"
    assert card.values["best_value"].text() == "—"
    plot = buy_vs_rent_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    assert plot.getPlotItem().titleLabel.text == "Buy vs rent"  # no best-value count
    assert "economics.cloud_price_per_gpu_hour" in (plot_message(plot) or "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_card_shows_no_baseline_figures_for_a_count_not_projected(qtbot, medium, lang):
    rec, _ = medium
    card = VerdictCard()
    qtbot.addWidget(card)
    card.show_recommendation(rec, lang)
    assert card.values["speedup"].text() != "—"  # a projected count has its figures
    card.show_recommendation(past_the_projection(rec), lang)
    for key in ("speedup", "run_time", "cost_month"):
        assert card.values[key].text() == "—", key
    assert "64" in card.values["gpus"].text()
    assert "1.00" not in card.values["speedup"].text()


def test_llama_70b_on_rtx4090_shows_dashes_not_the_baseline(qtbot, tmp_path):
    rec, _ = recommended(write_file(tmp_path, "llama70b.yaml", LLAMA_70B))
    card = VerdictCard()
    qtbot.addWidget(card)
    card.show_recommendation(rec, "en")
    if rec.verdict.gpus in rec.projection.gpus and rec.verdict.runnable:
        at = rec.projection.gpus.index(rec.verdict.gpus)  # the core projects that count
        assert card.values["speedup"].text() == f"{rec.projection.speedup[at]:.2f}×"
    else:
        assert card.values["speedup"].text() == "—"
        assert card.values["run_time"].text() == "—"
    assert card.values["speedup"].text() != "1.00×"


def test_preview_says_beyond_instead_of_one_gpu_figures(qtbot, medium):
    rec, profile = medium

    class Results:
        recommendation, better_link, better_link_name = past_the_projection(rec), None, None

    Results.profile = profile
    preview = LivePreview()
    qtbot.addWidget(preview)
    preview.show_results(Results, "en")
    text = preview.details.text()
    assert "64" in text and "1.00" not in text and "beyond" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_gpu_verdict_reads_naturally(qtbot, lang):
    from ui.results.live_preview import LivePreview
    from ui.results.verdict_card import VerdictCard

    window = make_window(qtbot, lang=lang)
    profile = example("small-dataset")
    rec = one_gpu(projection_recommend(profile))
    preview = LivePreview()
    qtbot.addWidget(preview)
    preview.show_results(Results(profile, rec), lang)
    text = preview.details.text()
    assert "1.00" not in text and "单卡的" not in text
    card = VerdictCard()
    qtbot.addWidget(card)
    card.show_recommendation(rec, lang)
    assert card.values["parallelism"].text() == "—"
    window.hub.set_language("en")


def test_a_one_gpu_time_for_a_model_one_gpu_cannot_hold_is_said_to_be_a_reference(qtbot):
    """Review 6: "one GPU → 2.3 days" beside a model that does not fit one GPU read as a run
    the user could do; it is the speed-up's reference and says so."""
    from tests.support.paths import PROFILES

    rec, _ = own_recommended(PROFILES / "verdict" / "owns-2x4090-compare-mode.yaml")
    assert not rec.projection.fits[0]
    card = VerdictCard()
    qtbot.addWidget(card)
    card.show_recommendation(rec, "en")
    assert "if one GPU held it" in card.values["run_time"].text()
    from tests.support.paths import EXAMPLES

    fits, _ = recommended(EXAMPLES / "medium-model-4gpu-worth-it.yaml", "en")
    assert fits.projection.fits[0]
    card.show_recommendation(fits, "en")
    assert "if one GPU held it" not in card.values["run_time"].text()
    assert "→" in card.values["run_time"].text()
