"""Review 4, display defects: the diagnosis plot after its "no measurements" message, cloud
costs with no cloud price, a verdict count past the projection, numbers in scientific notation
and raw bottleneck ids in `gpu-advisor project`."""

from __future__ import annotations

import json
from pathlib import Path

import pyqtgraph as pg
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from advisor.text.numbers import quantity
from advisor.verdict.recommendation import recommend
from tests.support.paths import ROOT
from ui.diagnosis import DiagnosisPage
from ui.plots import buy_vs_rent_plot, cost_plot, speedup_plot
from ui.plots.style import new_plot, show_message
from ui.results.live_preview import LivePreview
from ui.results.verdict_card import VerdictCard

ROOT = ROOT
MEASURED = ROOT / "examples" / "measured-4gpu-only-1.8x-diagnose.yaml"
MEDIUM = ROOT / "examples" / "medium-model-4gpu-worth-it.yaml"
LLAMA_70B = """schema_version: 1
task: llm
model: {name: Llama-2 70B full fine-tune, params_millions: 70000, layers: 80,
        hidden_size: 8192, sequence_length: 4096}
training: {single_gpu_hours: 2000, runs_per_month: 1, batch_per_gpu: 1, precision: bf16,
           input_pipeline: tuned}
hardware: {gpu: rtx4090, gpus_per_node: 8, intra_link: pcie4}
economics: {mode: compare, currency: CNY, time_value: deadline, value_per_day: 3000}
"""
TOKENS = """schema_version: 1
task: llm
model: {name: GPT-2 medium, params_millions: 350}
training: {single_gpu_hours: 20, runs_per_week: 2, batch_per_gpu: 8, precision: bf16}
hardware: {gpu: a100_sxm4_80gb, gpus_per_node: 8, intra_link: nvlink}
economics: {mode: own, currency: USD, time_value: none}
measured:
  unit: tokens/s
  points:
    - {gpus: 1, throughput: 30000}
    - {gpus: 2, throughput: 50000}
    - {gpus: 4, throughput: 70000}
    - {gpus: 8, throughput: 80000}
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _rec(path: Path):
    profile = load_profile(path)
    return recommend(profile), profile


def _cloud_l40s(tmp_path: Path) -> Path:
    """The medium example rented on L40S cards, which have no cloud offer in the catalogue."""
    text = MEDIUM.read_text(encoding="utf-8").replace("gpu: rtx4090", "gpu: l40s") \
        .replace("mode: compare", "mode: cloud")
    assert "gpu: l40s" in text and "mode: cloud" in text
    return _write(tmp_path, "l40s-cloud.yaml", text)


def _message(plot) -> str | None:
    note = getattr(plot, "advisor_message", None)
    return note.textItem.toPlainText() if note is not None and note.isVisible() else None


# --- 1. the message's 0–1 range is given back --------------------------------------------

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
    assert _message(page.plot) is not None  # the empty state came first
    page.show()
    qtbot.waitUntil(lambda: page.table.rowCount() == 3)
    d = page.run_diagnosis()
    assert d is not None and _message(page.plot) is None
    (x0, x1), (y0, y1) = page.plot.getPlotItem().getViewBox().viewRange()
    counts = d.fit.gpus if d.fit is not None else d.measured.gpus
    assert x0 <= min(counts) and x1 >= max(counts) and max(counts) > 4
    assert y0 <= 1.0 and y1 >= max(d.measured.speedup)
    ticks = page.plot.getPlotItem().getAxis("bottom")._tickLevels
    assert ticks and [label for _, label in ticks[0]][:3] == ["1", "2", "4"]


# --- 2. renting with no cloud price -------------------------------------------------------

@pytest.mark.parametrize(("lang", "words"), [("en", "No cloud price"), ("zh", "云租用价格")])
def test_cost_plot_without_a_cloud_price_says_what_to_fill(qtbot, tmp_path, lang, words):
    rec, profile = _rec(_cloud_l40s(tmp_path))
    assert rec.costs.mode == "cloud" and not rec.costs.mode_priced
    plot = cost_plot(rec, profile, lang)
    qtbot.addWidget(plot)
    items = plot.advisor_items
    for name in ("per_run", "per_month", "value_saved", "best"):
        assert not items[name].isVisible(), name
    message = _message(plot)
    assert message and words in message and "economics.cloud_price_per_gpu_hour" in message
    assert not plot.advisor_legend.isVisible()
    # The same widget, priced again: curves, marker and axes back, the message gone.
    rec, profile = _rec(MEDIUM)
    cost_plot(rec, profile, lang, plot=plot)
    assert _message(plot) is None
    assert items["per_run"].isVisible() and items["per_month"].isVisible()
    assert items["best"].isVisible()
    x0, x1 = plot.getPlotItem().getViewBox().viewRange()[0]
    assert x0 < min(rec.costs.gpus) and x1 > max(rec.costs.gpus)


def test_card_and_buy_vs_rent_without_a_cloud_price(qtbot, tmp_path):
    rec, profile = _rec(_cloud_l40s(tmp_path))
    card = VerdictCard()
    qtbot.addWidget(card)
    card.show_recommendation(rec, "en")
    assert card.values["cost_month"].text() == "—"
    assert card.values["best_value"].text() == "—"
    plot = buy_vs_rent_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    assert plot.getPlotItem().titleLabel.text == "Buy vs rent"  # no best-value count
    assert "economics.cloud_price_per_gpu_hour" in (_message(plot) or "")


# --- 3. a verdict count past the projection -----------------------------------------------

def _beyond(rec, count: int = 64):
    """``rec`` with a verdict for ``count`` GPUs that the projection does not hold (what the
    core gives when nothing considered fits, however it projects)."""
    assert count not in rec.projection.gpus and count > max(rec.projection.gpus)
    return rec.model_copy(update={"verdict": rec.verdict.model_copy(
        update={"gpus": count, "nodes": 8, "rating": "required"})})


@pytest.fixture(scope="module")
def medium():
    return _rec(MEDIUM)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_card_shows_no_baseline_figures_for_a_count_not_projected(qtbot, medium, lang):
    rec, _ = medium
    card = VerdictCard()
    qtbot.addWidget(card)
    card.show_recommendation(rec, lang)
    assert card.values["speedup"].text() != "—"  # a projected count has its figures
    card.show_recommendation(_beyond(rec), lang)
    for key in ("speedup", "run_time", "cost_month"):
        assert card.values[key].text() == "—", key
    assert "64" in card.values["gpus"].text()
    assert "1.00" not in card.values["speedup"].text()


def test_llama_70b_on_rtx4090_shows_dashes_not_the_baseline(qtbot, tmp_path):
    rec, _ = _rec(_write(tmp_path, "llama70b.yaml", LLAMA_70B))
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


def test_speedup_plot_notes_a_count_beyond_the_data(qtbot, medium):
    rec, profile = medium
    plot = speedup_plot(_beyond(rec), profile, "en")
    qtbot.addWidget(plot)
    items = plot.advisor_items
    x1 = plot.getPlotItem().getViewBox().viewRange()[0][1]
    assert x1 <= max(8, max(rec.projection.gpus)) + 1  # not stretched to 64
    assert not items["chosen"].isVisible()
    note = items["chosen_note"]
    assert note.isVisible() and "64" in note.textItem.toPlainText()
    # A projected count: the marker again, no note.
    speedup_plot(rec, profile, "en", plot=plot)
    assert items["chosen"].isVisible() and not items["chosen_note"].isVisible()
    assert items["chosen"].value() == rec.verdict.gpus


def test_preview_says_beyond_instead_of_one_gpu_figures(qtbot, medium):
    rec, profile = medium

    class Results:
        recommendation, better_link, better_link_name = _beyond(rec), None, None

    Results.profile = profile
    preview = LivePreview()
    qtbot.addWidget(preview)
    preview.show_results(Results, "en")
    text = preview.details.text()
    assert "64" in text and "1.00" not in text and "beyond" in text


# --- 4. and 5. the CLI's numbers and labels -----------------------------------------------

@pytest.mark.parametrize(("value", "digits", "text"), [
    (30000, 4, "30,000"), (2000, 3, "2,000"), (1129.9, 3, "1,130"), (999.7, 3, "1,000"),
    (844.2, 3, "844"), (35.33, 4, "35.33"), (0.5027, 4, "0.5027"), (0.00012345, 3, "0.000123"),
    (0, 3, "0"), (float("nan"), 3, "—")])
def test_quantity_never_uses_scientific_notation(value, digits, text):
    assert quantity(value, digits) == text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_diagnose_prints_throughputs_with_separators(capsys, tmp_path, lang):
    path = _write(tmp_path, "tokens.yaml", TOKENS)
    assert main(["diagnose", "--lang", lang, str(path)]) == 0
    out = capsys.readouterr().out
    for number in ("30,000", "50,000", "70,000", "80,000"):
        assert number in out
    assert "e+0" not in out


@pytest.mark.parametrize(("lang", "hours"), [("en", "2,000"), ("zh", "2,000")])
def test_project_prints_hours_and_labels_not_ids(capsys, tmp_path, lang, hours):
    path = _write(tmp_path, "llama70b.yaml", LLAMA_70B)
    assert main(["project", "--lang", lang, str(path), "--gpus", "1,2,4,8"]) == 0
    out = capsys.readouterr().out
    assert hours in out and "e+0" not in out
    rows = out.splitlines()[1:5]
    assert all("_" not in row for row in rows)  # no raw ids such as input_pipeline
    assert ("memory" if lang == "en" else "显存") in rows[0]


def test_project_names_the_input_pipeline_in_words_and_json_keeps_ids(capsys):
    example = str(ROOT / "examples" / "baseline-sweeps-1gpu-not-worth-it.yaml")
    assert main(["project", "--lang", "en", example, "--format", "json"]) == 0
    assert "input_pipeline" in json.loads(capsys.readouterr().out)["bottleneck"]
    assert main(["project", "--lang", "en", example]) == 0
    out = capsys.readouterr().out
    assert "input_pipeline" not in out and "/ input pipeline" in out


def test_every_bottleneck_id_has_a_label_in_both_languages():
    from advisor.cli.commands.project import _word
    from advisor.profile.labels import BOTTLENECK

    for neck in ("compute", "communication", "input_pipeline", "memory", "synchronisation",
                 "pipeline_bubble", "alternating_training", "virtualization"):
        assert "_" not in _word(BOTTLENECK, neck, "en") and neck in BOTTLENECK
        assert _word(BOTTLENECK, neck, "zh") != neck
